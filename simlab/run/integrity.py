"""Content hashes of a result folder's part files, and what a run does with a part that fails its hash.

Page checksums (written into every part) catch a flipped bit in a data page only when the page is read;
the manifest's ``files`` map (file name -> SHA-256 of its bytes) catches any change to a part without
decoding it, and costs one pass over the bytes (~1 GB/s). So:

- a run books the hash of each part it writes (``Hashes.add``); the manifest carries them;
- ``--resume`` hashes every part the previous manifest lists (``check_parts``): a part whose bytes differ is
  moved to ``damaged/`` and its games are played again; a part the manifest does not list yet (written
  after the last manifest, by a run that was killed) is read in full with its page checksums instead;
- a compaction refuses to merge a part that fails its hash, so damage is never laundered into a fresh file;
- ``simlab verify`` checks both.

A temporary part a killed worker had finished (written and fsync'ed, never renamed) is kept, not replayed:
``salvage_temporaries`` renames it into place when it reads whole, with valid page checksums and this run's
identity (see ``ResultFolder.open_for_run``).
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.run.errors import ResultFolderError

DAMAGED = "damaged"  # beside parts/: where damaged parts are moved
_BLOCK = 1 << 20


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            h.update(block)
    return h.hexdigest()


def manifest_hashes(manifest: Mapping[str, Any]) -> dict[str, str]:
    """The ``files`` map of a manifest (name -> hash); entries of the wrong type are dropped (not trusted)."""
    files = manifest.get("files") if isinstance(manifest, Mapping) else None
    if not isinstance(files, Mapping):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str) and len(v) == 64}


def read_problem(path: Path, rows: int | None = None) -> str:
    """Why the rows of a Parquet file cannot be read back whole ("" if they can): every page is decoded and
    its checksum verified."""
    import pyarrow.parquet as pq

    try:
        with contextlib.closing(pq.ParquetFile(path, page_checksum_verification=True)) as source:
            table = source.read()
    except Exception as exc:  # pyarrow raises OSError, ArrowInvalid, ... for a damaged page
        return f"cannot be read ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})"
    if rows is not None and table.num_rows != rows:
        return f"holds {table.num_rows:,} rows, its footer says {rows:,}"
    return ""


@dataclass
class PartCheck:
    """What ``check_parts`` found: the hashes of the good parts, and the damaged ones with the reason."""

    hashes: dict[str, str] = field(default_factory=dict)
    damaged: list[tuple[Path, str]] = field(default_factory=list)
    read_in_full: int = 0  # parts without a hash in the manifest, checked by reading them


def check_parts(
    paths: Iterable[Path],
    rows: Mapping[str, int | None],
    known: Mapping[str, str],
    digests: Mapping[str, str] | None = None,
) -> PartCheck:
    """Check each part against its hash in ``known`` (the manifest's), or, without one, by reading it whole.

    ``rows`` maps a file name to the row count its footer states (None: unknown); ``digests`` holds hashes the
    caller already computed for these files (name -> hash), which are not computed again.
    """
    out = PartCheck()
    for path in paths:
        try:
            digest = (digests or {}).get(path.name) or file_sha256(path)
        except OSError as exc:
            out.damaged.append((path, f"cannot be read ({exc.strerror or exc})"))
            continue
        expected = known.get(path.name)
        if expected is not None:
            if digest != expected:
                out.damaged.append((path, "its bytes differ from the content hash the manifest holds for it"))
                continue
        else:
            out.read_in_full += 1
            problem = read_problem(path, rows.get(path.name))
            if problem:
                out.damaged.append((path, problem))
                continue
        out.hashes[path.name] = digest
    return out


def quarantine(folder: Path, paths: Iterable[Path]) -> list[Path]:
    """Move damaged parts to ``damaged/`` beside ``parts/`` (never deleted: they may be evidence); their new paths.

    A file of the same name already there (an earlier quarantine) is kept: the new one gets a numbered name.
    """
    target = Path(folder) / DAMAGED
    moved = []
    try:
        target.mkdir(exist_ok=True)
        for path in paths:
            dest = target / path.name
            n = 1
            while dest.exists():
                dest = target / f"{path.name}.{n}"
                n += 1
            shutil.move(path, dest)
            moved.append(dest)
    except OSError as exc:
        raise ResultFolderError(f"cannot move damaged parts to {target}: {exc.strerror or exc}") from None
    return moved
