"""Adding analysis digests to a result folder written before runs wrote them (``simlab digest``).

A run's workers write each chunk's digest into its part (``simlab.analysis.digest``); a folder from an
older simlab has none, so its report scans every row. This computes, for every file without a digest of
the current version, the partials of each of its chunks from that chunk's rows (exactly what the worker
would have written), merges them as a compaction does, and rewrites the file with the digest in its footer:
same rows, same row groups, written to a temporary name and renamed into place, under the folder's lock.

It lives here, above ``run`` and ``analysis``, because it joins them: the digest is analysis's computation
(``simlab.analysis.file_digest``, rows in, bytes out), the rewrite is the result folder's writers (lock,
atomic rename, the manifest's hashes); ``run`` knows no analysis and ``analysis`` writes no folder
(tests/test_layers.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from simlab.run.atomic_file import atomic_write
from simlab.run.errors import ResultFolderError
from simlab.run.folder_layout import DIGEST_KEY
from simlab.run.lock import folder_lock
from simlab.run.manifest import read_manifest
from simlab.run.part_file import PartFile, read_part_file
from simlab.run.reader import result_files
from simlab.run.rehash import ManifestHashes

if TYPE_CHECKING:
    from collections.abc import Iterator

    import polars as pl


@dataclass
class BackfillSummary:
    """What ``add_digests`` did."""

    folder: Path
    files: int = 0  # files in the folder
    written: int = 0  # files given a digest
    chunks: int = 0  # chunks digested
    seconds: float = 0.0

    def line(self) -> str:
        if not self.written:
            return f"digests: all {self.files} file(s) of {self.folder} already have one"
        return (
            f"digests: added to {self.written} of {self.files} file(s) ({self.chunks:,} chunks) of "
            f"{self.folder} in {self.seconds:.1f} s"
        )


def add_digests(folder: str | Path, *, log: IO[str] | None = None) -> BackfillSummary:
    """Give every file of result ``folder`` that lacks one the digest its run's workers would have written."""
    from simlab.analysis import digest

    path = Path(folder)
    read_manifest(path)  # refuses a folder that is not a result folder
    summary = BackfillSummary(path)
    t0 = time.perf_counter()
    with folder_lock(path, "simlab digest"):
        files = result_files(path)
        summary.files = len(files)
        manifest = read_manifest(path)
        hashes = ManifestHashes(path, manifest)
        try:
            for file_path in files:
                part = read_part_file(file_path)
                if digest.has_current(part.digest):
                    continue
                hashes.refuse_damaged(part)  # a digest of damaged rows would be trusted by every report
                raw = _file_digest(part)
                _rewrite(part, raw)
                hashes.rewritten(file_path)
                summary.written += 1
                summary.chunks += len(part.records)
                if log is not None:
                    print(f"  {file_path.name}: {len(part.records)} chunk(s) digested", file=log)
        finally:
            hashes.save()  # the files rewritten so far: their new hashes, so verify and --resume accept them
    summary.seconds = time.perf_counter() - t0
    return summary


def _file_digest(part: PartFile) -> bytes:
    """The digest of a part file, computed by ``analysis.file_digest`` from its row groups read one at a time."""
    from simlab.analysis.file_digest import file_digest

    if not part.records:
        raise ResultFolderError(f"{part.path} holds no chunk records; it is not a simlab part")
    chunks = [(str(r["variant"]), int(r["start"]), int(r["stop"])) for r in part.records]
    return file_digest(_row_groups(part.path), chunks)


def _row_groups(path: Path) -> Iterator[pl.DataFrame]:
    """The row groups of the Parquet file at ``path`` as polars frames, in file order."""
    import polars as pl
    import pyarrow.parquet as pq

    source = pq.ParquetFile(path)
    try:
        for i in range(source.num_row_groups):
            batch = pl.from_arrow(source.read_row_group(i))
            assert isinstance(batch, pl.DataFrame)
            yield batch
    finally:
        source.close()


def _rewrite(part: PartFile, raw: bytes) -> None:
    """The file again, row group by row group, with the digest added to its footer's metadata."""
    import pyarrow.parquet as pq

    source = pq.ParquetFile(part.path)
    meta = dict(source.schema_arrow.metadata or {}) | {DIGEST_KEY: raw}
    schema = source.schema_arrow.with_metadata(meta)

    def write(out: IO[bytes]) -> None:
        with pq.ParquetWriter(out, schema, compression="zstd", write_page_checksum=True) as writer:
            for i in range(source.num_row_groups):
                table = source.read_row_group(i).replace_schema_metadata(meta)
                writer.write_table(table, row_group_size=table.num_rows)

    try:
        atomic_write(part.path, write)
    finally:
        source.close()
