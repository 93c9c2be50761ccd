"""``load_results``: a result folder's rows as a polars LazyFrame, read from the files ``folder_contents`` checked."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from simlab.run.errors import ResultFolderError
from simlab.run.store import _SNAPSHOT_TRIES, _SNAPSHOT_WAIT, PartFile, result_parts


def load_results(folder: str | Path, *, verify: bool = False) -> Any:
    """A polars LazyFrame over every row of a result folder (one row per game and seat).

    Only the run's own part files are read, checked as ``folder_contents`` says (a file left out, a missing
    or damaged part is named in a ``ResultFolderWarning``). Variants whose columns differ (another round
    count) read as the union of the columns, null where a variant has none.

    The files are listed again when the frame is collected, from a consistent snapshot of parts/: a
    compaction that merges and deletes parts meanwhile is waited out, not a FileNotFoundError. Column
    statistics in the files' footers are not used to skip rows (an edited footer could hide rows from a
    filter). Page checksums are *not* verified here: polars' reader does not check them, and checking them
    (pyarrow) costs more than the read itself (docs/scaling.md, "What readers check"). ``verify=True`` reads
    every part once first as ``simlab verify`` does (page checksums, the manifest's content hashes) and
    raises a ResultFolderError naming the damaged parts.
    """
    from polars.io.plugins import register_io_source

    path = Path(folder)
    parts = result_parts(path)
    if verify:
        from simlab.run.verify import verify_folder

        result = verify_folder(path)
        if not result.ok:
            raise ResultFolderError(
                f"{path} has damaged or missing parts: {'; '.join(result.lines()[1:4])}; see simlab verify {path}"
            )
    schema = _scan(parts).collect_schema()

    def source(with_columns: list[str] | None, predicate: Any, n_rows: int | None, _batch: int | None) -> Any:
        for attempt in range(_SNAPSHOT_TRIES):
            lf = _scan(result_parts(path))
            if with_columns is not None:
                lf = lf.select(with_columns)
            if predicate is not None:
                lf = lf.filter(predicate)
            if n_rows is not None:
                lf = lf.head(n_rows)
            try:
                frame = lf.collect()
            except FileNotFoundError:  # a compaction deleted a part after the listing: list again
                if attempt + 1 == _SNAPSHOT_TRIES:
                    raise
                time.sleep(_SNAPSHOT_WAIT)
                continue
            yield frame
            return

    return register_io_source(source, schema=schema)


def _scan(parts: list[PartFile]) -> Any:
    """polars' scan of these files, footer statistics not used to skip rows."""
    import polars as pl
    import pyarrow as pa

    paths = [str(f.path) for f in parts]
    if len({tuple(f.schema.names) for f in parts}) == 1:
        return pl.scan_parquet(paths, use_statistics=False)
    # variants with other columns (another round count: money_r6 in one, not in the other): the union of the
    # files' columns, null where a file has none
    union: dict[str, pa.Field] = {}
    for f in parts:
        for field_ in f.schema:
            union.setdefault(field_.name, field_.remove_metadata())
    schema = pl.from_arrow(pa.schema(list(union.values())).empty_table()).schema
    return pl.scan_parquet(paths, schema=schema, missing_columns="insert", use_statistics=False)
