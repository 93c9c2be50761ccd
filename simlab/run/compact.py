"""Compaction: a result folder's part files merged into few large files, without changing what readers see.

A long run writes one part per chunk: 10 million games in chunks of 2,500 make 4,000 files, and every
scan of the folder reads every file's footer (about 2 s per scan at 4,000 files). ``compact`` merges, per
variant, runs of consecutive parts (contiguous game ranges) into files of about ``games_per_file`` games:

- same name pattern ``<variant>__<start>-<stop>.parquet`` (first start, last stop), same schema and column
  order, same rows in the same order (the parts concatenated), zstd like the parts;
- the Parquet metadata holds the list of the merged chunk records (``store.CHUNKS_KEY``, marked by
  ``store.FILE_KEY``), so ``ResultFolder.scan_parts`` returns the same records (``file`` aside): ``--resume``,
  the manifest and the overlap checks work as before, and a resumed run adds new parts next to the compacted files;
- streamed a few parts at a time (one row group per ~``ROW_GROUP_ROWS`` rows), so memory stays bounded;
- crash-safe: the merged file is written to a temporary name and renamed into place, then the parts are
  deleted. Parts left by a compaction killed in between are recognised (their records are in the merged
  file) and deleted by the next scan, ``--resume`` or compaction; ``load_results`` leaves them out.

Exclusive: a compaction holds the folder's lock (``lock.folder_lock``) from its scan to its manifest
write, and a run holds it from start to end, so a compaction during a run (or a second compaction, or a run
starting during a compaction) is refused instead of merging or reading parts that are being written or
deleted. Afterwards each of the manifest's ``chunks[].file`` names the file that now holds the chunk.

A compacted file of at least half ``games_per_file`` games is left alone, so compacting after each resume
does not rewrite it. The run compacts by itself at the end of a complete run of more than
``AUTO_THRESHOLD`` part files (``simlab run --no-compact`` turns it off); ``simlab compact`` does it by hand.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from simlab.run.atomic_file import atomic_write
from simlab.run.digest_hook import load as load_digest_hook
from simlab.run.errors import ResultFolderError
from simlab.run.folder_check import FOOTERS, footer_entry, footer_problem, manifest_footers
from simlab.run.folder_layout import CHUNKS_KEY, COMPACTED_FILE, DIGEST_KEY, FILE_KEY, PARTS, identity_hash, part_name
from simlab.run.folder_writer import ResultFolder
from simlab.run.integrity import file_sha256, manifest_hashes, read_problem
from simlab.run.lock import folder_lock
from simlab.run.manifest import read_manifest
from simlab.run.part_file import PartFile

#: games per compacted file: 1M rows at 4 players, ~70 MB for the card-value scenario (see docs/scaling.md)
GAMES_PER_FILE = 250_000
#: rows per row group of a compacted file (whole source row groups are gathered until this is reached)
ROW_GROUP_ROWS = 64_000
#: a complete run with more part files than this compacts itself (unless ``compact=False``)
AUTO_THRESHOLD = 500


@dataclass
class CompactSummary:
    """What a compaction did."""

    folder: Path
    games_per_file: int
    files_before: int = 0
    files_after: int = 0
    merged: int = 0  # source files merged (and deleted)
    written: int = 0  # compacted files written
    leftovers: int = 0  # leftovers of an earlier, killed compaction that were deleted
    games: int = 0  # games in the files written
    bytes_before: int = 0
    bytes_after: int = 0
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """The entry added to the manifest's ``compactions``."""
        return {
            "at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "games_per_file": self.games_per_file,
            "files_before": self.files_before,
            "files_after": self.files_after,
            "merged": self.merged,
            "written": self.written,
            "leftovers": self.leftovers,
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "seconds": round(self.seconds, 3),
        }

    def line(self) -> str:
        if not self.written and not self.leftovers:
            return (
                f"{self.folder}: nothing to compact ({self.files_before:,} file(s); no run of consecutive "
                f"parts to merge into files of up to {self.games_per_file:,} games)"
            )
        extra = f", {self.leftovers} leftover part(s) of a killed compaction deleted" if self.leftovers else ""
        return (
            f"{self.folder}: compacted {self.files_before:,} files into {self.files_after:,} "
            f"({self.merged:,} parts merged into {self.written:,} files of up to {self.games_per_file:,} "
            f"games{extra}; {_size(self.bytes_before)} -> {_size(self.bytes_after)}) "
            f"in {self.seconds:.1f} s"
        )


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def compact(
    folder: str | Path,
    games_per_file: int = GAMES_PER_FILE,
    *,
    log: IO[str] | None = None,
    locked: bool = False,
    digest_hook: str = "",
    summaries: str = "",
) -> CompactSummary:
    """Merge the consecutive part files of each variant in result ``folder`` into files of ~``games_per_file`` games.

    Readers see the same rows and ``scan_parts`` the same chunk records afterwards (but for ``file``, the
    file now holding the chunk, which the manifest's ``chunks`` list names too). Records the compaction in
    the manifest's ``compactions`` list. ``log`` gets one line per file written. Refuses (ResultFolderError)
    a folder whose lock another process holds (a compaction or a run). ``locked``: the caller already holds
    the lock (a run compacting its own folder at its end). ``digest_hook`` is the run's digest hook
    (``simlab.run.digest_hook``) that merges the parts' digests into the compacted file's; without one the
    compacted files carry none (reports then scan their rows). ``summaries``: its old name, still accepted.
    """
    digest_hook = digest_hook or summaries
    path = Path(folder)
    if isinstance(games_per_file, bool) or not isinstance(games_per_file, int) or games_per_file < 1:
        raise ResultFolderError(f"games per file: expected a positive integer, found {games_per_file!r}")
    if not path.is_dir():
        raise ResultFolderError(f"no result folder at {path}")
    read_manifest(path)  # refuses a folder that is not a result folder before creating a lock file in it
    store = ResultFolder(path)
    if not store.parts.is_dir():
        raise ResultFolderError(f"{path} holds no results yet (no {PARTS} folder)")
    summary = CompactSummary(path, games_per_file)
    with contextlib.nullcontext() if locked else folder_lock(path, "simlab compact"):
        _compact(store, summary, log, digest_hook)
    return summary


def _compact(store: ResultFolder, summary: CompactSummary, log: IO[str] | None, digest_hook: str) -> None:
    """The compaction itself, under the folder's lock; fills ``summary`` and records it in the manifest."""
    t0 = time.perf_counter()
    # under the lock: as the last holder left it; nobody else writes it until this compaction ends
    manifest = read_manifest(store.path)
    identity_key = manifest.get("identity_hash") or identity_hash(manifest.get("identity", {}))
    store.remove_temporaries(only_dead=True)
    before = sorted(store.parts.glob("*.parquet"))
    summary.files_before = len(before)
    summary.bytes_before = sum(p.stat().st_size for p in before)
    files = store.part_files(identity_key, manifest)  # deletes leftovers; leaves strays out, with a warning
    summary.leftovers = sum(1 for p in before if not p.exists())  # the leftovers part_files deleted
    holder = {id(f): f.path.name for f in files}  # the file that holds each file's chunks after compaction
    known = manifest_hashes(manifest)
    hashes = dict(known)
    footers = manifest_footers(manifest)
    for group in plan(files, summary.games_per_file):
        _refuse_damaged(store, group, known, footers)
        name = merge(store, group, digest_hook)
        for f in group:
            hashes.pop(f.path.name, None)
        hashes[name] = file_sha256(store.parts / name)
        footers[name] = footer_entry(store.parts / name)
        holder.update((id(f), name) for f in group)
        summary.merged += len(group)
        summary.written += 1
        summary.games += sum(f.games for f in group)
        summary.files.append(name)
        if log is not None:
            log.write(f"  {name}: {len(group)} files merged\n")
            log.flush()
    after = sorted(store.parts.glob("*.parquet"))
    summary.files_after = len(after)
    summary.bytes_after = sum(p.stat().st_size for p in after)
    summary.seconds = time.perf_counter() - t0
    moved = _point_chunks_to_files(
        manifest, {(r["variant"], r["start"]): holder[id(f)] for f in files for r in f.records}
    )
    if summary.written or summary.leftovers:
        manifest["compactions"] = [*manifest.get("compactions", []), summary.record()]
    if moved or summary.written or summary.leftovers:
        manifest["files"] = _hashes_of(after, hashes, {f.path.name: f.rows for f in files})
        # a file gets a footer entry once its bytes are known good (its hash): an edited footer is not recorded
        manifest[FOOTERS] = {name: footers.get(name) or footer_entry(store.parts / name) for name in manifest["files"]}
        store.write_manifest(manifest)


def _hashes_of(paths: list[Path], hashes: dict[str, str], rows: dict[str, int | None]) -> dict[str, str]:
    """The manifest's ``files`` map for the files on disk: their hashes, where a file has none yet (a manifest of
    an older simlab, or a stale one) computed once it reads whole with valid page checksums."""
    out = {}
    for path in paths:
        if path.name in hashes:
            out[path.name] = hashes[path.name]
        elif not read_problem(path, rows.get(path.name)):
            out[path.name] = file_sha256(path)
    return out


def _refuse_damaged(
    store: ResultFolder, group: list[PartFile], known: dict[str, str], footers: dict[str, dict[str, Any]]
) -> None:
    """Refuse to merge a damaged part: merging would write its damage into a fresh file with valid checksums.

    A part is checked against the manifest's hash for it, or, without one (a folder of an older simlab), read
    whole with its page checksums.
    """
    for f in group:
        expected = known.get(f.path.name)
        if expected is not None:
            problem = "" if file_sha256(f.path) == expected else "its bytes differ from the manifest's content hash"
        else:
            problem = read_problem(f.path, f.rows)
        if not problem and f.path.name in footers:
            problem = footer_problem(f.path, footers[f.path.name])
        if problem:
            raise ResultFolderError(
                f"{f.path} is damaged ({problem}); nothing more was compacted. Move it aside with: simlab verify "
                f"{store.path} --quarantine, then play its games again with simlab run ... --resume"
            )


def _point_chunks_to_files(manifest: dict[str, Any], files: dict[tuple[str, int], str]) -> bool:
    """Set each ``chunks[].file`` of ``manifest`` to the file now holding it (the parts merged are gone).

    ``files`` maps (variant, start) to a file name. Returns whether an entry changed.
    """
    moved = False
    for chunk in manifest.get("chunks", []):
        name = files.get((chunk.get("variant"), chunk.get("start")))
        if name is not None and chunk.get("file") != name:
            chunk["file"] = name
            moved = True
    return moved


#: the name ``simlab.run`` exports (``simlab.run.compact`` is this module)
compact_results = compact


def plan(files: list[PartFile], games_per_file: int) -> list[list[PartFile]]:
    """Groups of two or more files to merge: consecutive ranges of a variant, same schema, <= games_per_file.

    A file of at least half ``games_per_file`` games that is already compacted (or a part that big) stays
    as it is.
    """
    groups: list[list[PartFile]] = []
    by_variant: dict[str, list[PartFile]] = {}
    for f in files:
        by_variant.setdefault(f.variant, []).append(f)
    for variant_files in by_variant.values():
        variant_files.sort(key=lambda f: f.start)
        current: list[PartFile] = []
        games = 0
        for f in variant_files:
            big = f.games >= max(games_per_file // 2, 1)
            joins = (
                current
                and not big
                and f.start == current[-1].stop
                and f.schema.equals(current[-1].schema)
                and games + f.games <= games_per_file
            )
            if joins:
                current.append(f)
                games += f.games
                continue
            if len(current) > 1:
                groups.append(current)
            current, games = ([], 0) if big else ([f], f.games)
        if len(current) > 1:
            groups.append(current)
    return groups


def _combined_digest(digests: list[bytes | None], digest_hook: str) -> bytes | None:
    """The merged file's digest: its parts' digests merged by the hook (none if one part has none or no hook
    was handed, in which case the hook, not needed to merge rows, is not even loaded)."""
    if not digest_hook or any(d is None for d in digests):
        return None
    return load_digest_hook(digest_hook).combine(digests)


def merge(store: ResultFolder, group: list[PartFile], digest_hook: str = "") -> str:
    """Write the files of ``group`` as one compacted file (atomically), then delete them; return its name."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    first, last = group[0], group[-1]
    name = part_name(first.variant, first.start, last.stop)
    target = store.parts / name
    if target.exists():
        raise ResultFolderError(f"{target} already exists and overlaps the parts it would merge; --resume first")
    records = [r for f in group for r in f.records]
    meta = {FILE_KEY: COMPACTED_FILE, CHUNKS_KEY: json.dumps(records).encode()}
    partials = _combined_digest([f.digest for f in group], digest_hook)
    if partials is not None:
        meta[DIGEST_KEY] = partials
    schema = first.schema.with_metadata(meta)

    def write(out: IO[bytes]) -> None:
        with pq.ParquetWriter(out, schema, compression="zstd", write_page_checksum=True) as writer:
            pending: list[pa.Table] = []
            rows = 0

            def flush() -> None:
                nonlocal pending, rows
                if rows:
                    table = pa.concat_tables(pending).replace_schema_metadata(meta)
                    writer.write_table(table, row_group_size=rows)
                pending, rows = [], 0

            for f in group:
                source = pq.ParquetFile(f.path, page_checksum_verification=True)
                for i in range(source.num_row_groups):
                    table = source.read_row_group(i).replace_schema_metadata(None)
                    if rows and rows + table.num_rows > ROW_GROUP_ROWS:
                        flush()
                    pending.append(table)
                    rows += table.num_rows
                source.close()
            flush()

    atomic_write(target, write)
    for f in group:  # a kill from here on leaves parts whose records are all in the new file: leftovers
        f.path.unlink(missing_ok=True)
    return name
