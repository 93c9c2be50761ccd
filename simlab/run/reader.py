"""Reading a result folder: its manifest, files and rows (``load_manifest``, ``result_parts``, ``load_results``).

This is what analyses, the report and notebooks read a folder through; it writes nothing. The files are those
``folder_contents`` checked; the manifest is the one ``manifest`` reads, checked for the fields readers need.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from simlab.run.errors import ResultFolderError
from simlab.run.folder_contents import SNAPSHOT_TRIES, SNAPSHOT_WAIT, folder_contents
from simlab.run.folder_hint import parent_folder_error
from simlab.run.folder_layout import MANIFEST, PARTS
from simlab.run.manifest import manifest_damage, read_manifest, reader_fields_problem, sanitized_manifest
from simlab.run.part_file import PartFile


def load_manifest(folder: str | Path) -> dict[str, Any]:
    """The manifest of a result folder: scenario, variants and configs, versions, chunks, timings.

    A manifest whose fields the readers rely on are missing or of the wrong type is a ResultFolderError that
    says how to rebuild it (``simlab repair``), not an AttributeError deep in an analysis.
    """
    p = Path(folder)
    problem = manifest_damage(p)
    if problem == "is missing" and not (p / PARTS).is_dir():
        read_manifest(p)  # not a result folder at all: says so
    manifest = {} if problem else read_manifest(p)
    problem = problem or reader_fields_problem(manifest)
    if problem:
        detail = problem.removeprefix("is ")
        raise ResultFolderError(
            f"{p / MANIFEST} is damaged ({detail}); rebuild it from the part files with: "
            f"simlab repair {p} --scenario SCENARIO"
        )
    out = sanitized_manifest(manifest)  # garbage in the fields only reports show (timings, compactions) is dropped
    if (p / PARTS).is_dir():  # the games done and failed are those the parts hold (folder_check)
        from simlab.run.folder_check import use_part_counts

        with contextlib.suppress(ResultFolderError):
            use_part_counts(out, folder_contents(p).files)
    return out


def result_files(folder: str | Path) -> list[Path]:
    """The part files whose rows make up a result folder's results, in name order (variant, then start)."""
    return [f.path for f in result_parts(folder)]


def result_parts(folder: str | Path) -> list[PartFile]:
    """The run's own part files of a result folder (footers read), in name order; see ``folder_contents``."""
    contents = folder_contents(folder)
    if not contents.files:
        p = Path(folder)
        left = f"; left out: {', '.join(s.path.name for s in contents.skipped)}" if contents.skipped else ""
        raise parent_folder_error(p) or ResultFolderError(
            f"{p} holds no results yet (no part files of this run in {p / PARTS}{left})"
        )
    return contents.files


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
        for attempt in range(SNAPSHOT_TRIES):
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
                if attempt + 1 == SNAPSHOT_TRIES:
                    raise
                time.sleep(SNAPSHOT_WAIT)
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
