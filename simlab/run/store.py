"""The old import path of the result folder (``simlab.run.store``), kept so notebooks and scripts that import
from it still work; simlab itself imports from the modules that do each job:

- ``folder_layout``: file names, the part-file name pattern, footer keys, ``identity_hash``
- ``reader``: ``load_manifest``, ``load_results``, ``result_files``, ``result_parts`` (what analyses read)
- ``folder_contents``: which files of parts/ are the run's (``folder_contents``, ``verify_parts``)
- ``part_file``: one part file's footer (``PartFile``, ``read_part_file``)
- ``manifest``: the manifest read as it is (``read_manifest``, ``manifest_damage``)
- ``atomic_file`` and ``folder_writer``: writing a folder (``atomic_write``, ``ResultFolder``)
"""

from __future__ import annotations

from simlab.run.atomic_file import atomic_write, write_temporary
from simlab.run.errors import FolderInUse, ResultFolderError, ResultWriteError
from simlab.run.folder_contents import FolderContents, ResultFolderWarning, Skipped, folder_contents, verify_parts
from simlab.run.folder_layout import (
    CHUNKS_KEY,
    COMPACTED_FILE,
    DIGEST_KEY,
    FAILURES,
    FILE_KEY,
    FORMAT,
    MANIFEST,
    META_KEY,
    PANEL,
    PART_FILE,
    PART_RE,
    PARTS,
    identity_hash,
    part_name,
)
from simlab.run.folder_writer import REBUILT, ResultFolder
from simlab.run.lock import LOCK, folder_lock
from simlab.run.manifest import manifest_damage, read_manifest, sanitized_manifest
from simlab.run.part_file import PartFile, file_records, read_part_file, split_leftovers
from simlab.run.reader import load_manifest, load_results, result_files, result_parts

__all__ = [
    "CHUNKS_KEY",
    "COMPACTED_FILE",
    "DIGEST_KEY",
    "FAILURES",
    "FILE_KEY",
    "FORMAT",
    "LOCK",
    "MANIFEST",
    "META_KEY",
    "PANEL",
    "PARTS",
    "PART_FILE",
    "PART_RE",
    "REBUILT",
    "FolderContents",
    "FolderInUse",
    "PartFile",
    "ResultFolder",
    "ResultFolderError",
    "ResultFolderWarning",
    "ResultWriteError",
    "Skipped",
    "atomic_write",
    "file_records",
    "folder_contents",
    "folder_lock",
    "identity_hash",
    "load_manifest",
    "load_results",
    "manifest_damage",
    "part_name",
    "read_manifest",
    "read_part_file",
    "result_files",
    "result_parts",
    "sanitized_manifest",
    "split_leftovers",
    "verify_parts",
    "write_temporary",
]
