"""The manifest's hashes of files a command rewrites in place (``simlab digest``): checked before, updated after.

A file rewritten with new bytes (same rows, another footer) no longer matches the manifest's content hash
(``files``) nor its footer record (``footers``): left so, ``verify`` would call every rewritten part damaged
and ``--resume`` would replay it. So the command first refuses a file whose bytes are not the ones the
manifest recorded (its damage would be written into a fresh file with valid checksums), and after the
rewrite books the new file's hashes and writes the manifest once, under the folder's lock it holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.run.errors import ResultFolderError
from simlab.run.folder_check import FOOTERS, footer_entry, footer_problem, manifest_footers
from simlab.run.folder_writer import ResultFolder
from simlab.run.integrity import file_sha256, manifest_hashes, read_problem


class ManifestHashes:
    """The ``files`` and ``footers`` maps of a folder's manifest while its files are rewritten."""

    def __init__(self, folder: Path, manifest: dict[str, Any]):
        self.folder, self.manifest = Path(folder), manifest
        self.files = manifest_hashes(manifest)
        self.footers = manifest_footers(manifest)
        self.changed = False

    def refuse_damaged(self, part: Any) -> None:
        """Refuse a file whose bytes differ from the manifest's hash (or, without one, that does not read whole
        with valid page checksums), or whose footer is not the one recorded."""
        name = part.path.name
        if name in self.files:
            problem = "" if file_sha256(part.path) == self.files[name] else "its bytes differ from the manifest's hash"
        else:
            problem = read_problem(part.path, part.rows)
        if not problem and name in self.footers:
            problem = footer_problem(part.path, self.footers[name])
        if problem:
            raise ResultFolderError(
                f"{part.path} is damaged ({problem}); nothing more was rewritten. Move it aside with: simlab "
                f"verify {self.folder} --quarantine, then play its games again with simlab run ... --resume"
            )

    def rewritten(self, path: Path) -> None:
        """Book the hashes of a file just written in place."""
        self.files[path.name] = file_sha256(path)
        self.footers[path.name] = footer_entry(path)
        self.changed = True

    def save(self) -> None:
        """Write the manifest with the new hashes (only if a file was rewritten)."""
        if self.changed:
            self.manifest["files"] = self.files
            self.manifest[FOOTERS] = self.footers
            ResultFolder(self.folder).write_manifest(self.manifest)
