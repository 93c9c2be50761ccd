"""The result folder: one Parquet file per chunk, written atomically, plus a manifest and a failure log.

Layout of a result folder::

    manifest.json      scenario text and hash, variants and their configs, versions, seeds, chunks, timings
    failures.jsonl     one line per game that raised: seed, variant, game index, error, replay command
    parts/<variant>__<start>-<stop>.parquet    rows of games start..stop-1 of one variant
    parts/<variant>__<start>-<stop>.parquet    after ``simlab compact``: consecutive parts merged into one file
    .simlab.lock       flock'ed by a run or a compaction while it works (holds its pid, for the refusal message)

The part files are the truth: each is written to a temporary name and renamed into place, and carries its
own chunk record (range, failures, timing) in its Parquet metadata. So a run killed at any moment leaves
only whole parts, and ``--resume`` rebuilds the manifest from them and plays exactly the missing games.
A compacted file (see ``compact``) carries the list of the chunk records of the parts it merged, under
another key and with a format marker, so the chunk records read back are the same before and after.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NoReturn

from simlab.run.errors import ResultFolderError, ResultWriteError

MANIFEST = "manifest.json"
FAILURES = "failures.jsonl"
PARTS = "parts"
LOCK = ".simlab.lock"
FORMAT = "simlab-results/1"
PART_RE = re.compile(r"^(?P<variant>.+)__(?P<start>\d{10})-(?P<stop>\d{10})\.parquet$")
META_KEY = b"simlab.chunk"  # a part file: its chunk record (a JSON object)
CHUNKS_KEY = b"simlab.chunks"  # a compacted file: the chunk records of the parts it merged (a JSON list)
FILE_KEY = b"simlab.file"  # format marker; absent in part files (written before compaction existed)
DIGEST_KEY = b"simlab.digest"  # the file's chunks' analysis partials (``simlab.analysis.digest``); optional
PART_FILE = b"part"
COMPACTED_FILE = b"compacted/1"


def part_name(variant: str, start: int, stop: int) -> str:
    return f"{variant}__{start:010d}-{stop:010d}.parquet"


def identity_hash(identity: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write a file through a temporary name and ``os.replace``: readers see the old file or the whole new one.

    Any failure (full disk, permissions, Ctrl-C) removes the temporary file; an OSError becomes a
    ResultWriteError naming the file.
    """
    _move_into_place(write_temporary(path, write), path)


def write_temporary(path: Path, write: Callable[[IO[bytes]], None]) -> Path:
    """Write (and fsync) the temporary file that will become ``path``; ``remove_temporaries`` owns it if it stays.

    Its name, ``.<name>.<pid>.tmp``, says which process writes it (see ``_writer_alive``).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
    except BaseException as exc:
        _give_up(tmp, path, exc)
    return tmp


def _move_into_place(tmp: Path, path: Path) -> None:
    """Rename a written temporary file to ``path`` (atomic); on failure it is removed, as ``atomic_write`` says."""
    try:
        os.replace(tmp, path)
    except BaseException as exc:
        _give_up(tmp, path, exc)


def _give_up(tmp: Path, path: Path, exc: BaseException) -> NoReturn:
    with contextlib.suppress(OSError):
        tmp.unlink(missing_ok=True)
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        raise ResultWriteError(f"could not write {path}: {reason}; nothing half-written was kept") from exc
    raise exc


@contextlib.contextmanager
def folder_lock(folder: Path, what: str) -> Iterator[None]:
    """Hold the exclusive lock of result ``folder`` for ``what``, or refuse at once if another holder has it.

    An flock on ``LOCK``: the kernel drops it when its process dies, so a killed holder leaves no stale lock.
    The file stays (unlinking it would let two processes lock two different files); it names the holder's
    pid while it is held, for the refusal message. flock is per open file, so a second lock taken in the
    same process is refused too.
    """
    import fcntl  # Linux and macOS

    path = Path(folder) / LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ResultFolderError(f"cannot lock result folder {folder}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
            raise ResultFolderError(
                f"result folder {folder} is in use: {holder} holds its lock ({path}); {what} cannot work on it "
                "at the same time: wait until that process finishes (or stop it), then try again"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} ({what})\n".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # releases the flock


@dataclass
class PartFile:
    """One Parquet file under parts/: a part (one chunk record) or a compacted file (the records it merged)."""

    path: Path
    variant: str
    start: int  # from the file name: games start..stop-1
    stop: int
    records: list[dict[str, Any]]
    compacted: bool
    schema: Any  # the pyarrow schema without its metadata
    digest: bytes | None = None  # its chunks' analysis partials, carried over by a compaction

    @property
    def games(self) -> int:
        return self.stop - self.start


def file_records(meta: dict[bytes, bytes]) -> tuple[list[dict[str, Any]], bool]:
    """The chunk records in a file's Parquet metadata, and whether it is a compacted file."""
    kind = meta.get(FILE_KEY, PART_FILE)
    if kind == PART_FILE:
        record = json.loads(meta[META_KEY])
        if not isinstance(record, dict):
            raise ValueError(f"{META_KEY.decode()} holds no chunk record")
        return [record], False
    if kind == COMPACTED_FILE:
        records = json.loads(meta[CHUNKS_KEY])
        if not isinstance(records, list) or not records or not all(isinstance(r, dict) for r in records):
            raise ValueError(f"{CHUNKS_KEY.decode()} holds no list of chunk records")
        return records, True
    raise ValueError(f"unknown simlab file format {kind.decode(errors='replace')!r} (written by a newer simlab?)")


def read_part_file(path: Path) -> PartFile:
    """A file of parts/ with its chunk records (only its footer is read)."""
    import pyarrow.parquet as pq

    m = PART_RE.match(path.name)
    if not m:
        raise ResultFolderError(f"{path} is not a simlab part file name; move it out of {path.parent}")
    try:
        schema = pq.read_schema(path)
        records, compacted = file_records(schema.metadata or {})
    except (OSError, KeyError, ValueError) as exc:
        raise ResultFolderError(
            f"{path} is unreadable or not a simlab part ({exc}); delete it and run again with --resume"
        ) from None
    return PartFile(
        path,
        m["variant"],
        int(m["start"]),
        int(m["stop"]),
        records,
        compacted,
        schema.remove_metadata(),
        (schema.metadata or {}).get(DIGEST_KEY),
    )


def split_leftovers(files: list[PartFile]) -> tuple[list[PartFile], list[PartFile]]:
    """(files to keep, leftovers): a leftover lies inside another file's range and all its records are in it.

    Leftovers are what a compaction killed between writing its merged file and deleting the merged parts
    leaves. A file that overlaps another without being part of it is kept (the overlap check refuses it).
    """

    def key(record: dict[str, Any]) -> str:
        return json.dumps(record, sort_keys=True)

    keep, leftovers = [], []
    by_variant: dict[str, list[PartFile]] = {}
    for f in files:
        by_variant.setdefault(f.variant, []).append(f)
    left_ids = set()
    for group in by_variant.values():
        group.sort(key=lambda f: (f.start, -f.stop, -len(f.records)))
        cover: PartFile | None = None
        cover_keys: set[str] = set()
        for f in group:
            if cover is not None and f.stop <= cover.stop and all(key(r) in cover_keys for r in f.records):
                left_ids.add(id(f))
                continue
            if cover is None or f.stop > cover.stop:
                cover, cover_keys = f, {key(r) for r in f.records}
    for f in files:
        (leftovers if id(f) in left_ids else keep).append(f)
    return keep, leftovers


class ResultFolder:
    """A result folder on disk (see the module docstring for its layout)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.parts = self.path / PARTS

    # -- opening -------------------------------------------------------------------------------
    @classmethod
    @contextlib.contextmanager
    def open_for_run(cls, path: Path, identity: dict[str, Any], resume: bool) -> Iterator[tuple[ResultFolder, dict]]:
        """Check the folder may take this run, then hold its lock and yield it with its manifest ({} if new).

        Refuses a file, an unwritable folder, a folder of another scenario, a non-empty folder that is not
        a result folder, (without ``resume``) a result folder of the same scenario, and a folder whose lock
        another run or a compaction holds. The manifest is read, and temporary files left by a killed writer
        deleted, only while the lock is held: a compaction that started a moment earlier keeps its own.
        """
        folder = cls(Path(path))
        p = folder.path
        folder._check_may_take(identity, resume)
        if (p / LOCK).exists():  # refuse, touching nothing, while a run or compaction works here
            with folder_lock(p, "simlab run"):
                pass
        try:
            folder.parts.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ResultFolderError(f"cannot create output folder {p}: {exc.strerror or exc}") from None
        folder._check_writable()  # before the lock, whose file an unwritable folder could not take either
        with folder_lock(p, "simlab run"):
            previous = folder._check_may_take(identity, resume)  # again: another run may have ended meanwhile
            folder.remove_temporaries()
            yield folder, previous

    def _check_may_take(self, identity: dict[str, Any], resume: bool) -> dict[str, Any]:
        """The read-only checks of ``open_for_run``: nothing is created in a folder that is refused.

        Returns the manifest already there ({} for a new or empty folder).
        """
        p = self.path
        if p.exists() and not p.is_dir():
            raise ResultFolderError(f"output folder {p} is a file; choose another --out")
        if not p.is_dir() or not any(
            e for e in p.iterdir() if not (e == self.parts and e.is_dir() and _empty(e)) and e.name != LOCK
        ):
            return {}
        if not (p / MANIFEST).is_file():
            raise ResultFolderError(
                f"output folder {p} is not empty and holds no simlab results ({MANIFEST} is missing); "
                "choose a new or empty folder with --out"
            )
        previous = read_manifest(p)
        theirs = previous.get("identity", {})
        if theirs != identity:
            raise ResultFolderError(_other_scenario_message(p, theirs, identity, previous))
        if not resume:
            state = previous.get("status", "unknown")
            raise ResultFolderError(
                f"output folder {p} already holds {previous.get('games_done', 0):,} games of scenario "
                f"'{identity['scenario']}' ({state}); add --resume to finish or extend that run, "
                "or choose another --out"
            )
        return previous

    def _check_writable(self) -> None:
        probe = self.parts / f".write-test.{os.getpid()}.tmp"
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise ResultFolderError(f"cannot write to output folder {self.path}: {exc.strerror or exc}") from None

    def remove_temporaries(self, only_dead: bool = False) -> None:
        """Temporary files left by a killed run are never results: delete them.

        With ``only_dead``, keep those of a process still running (a run writing into this folder).
        """
        for folder in (self.path, self.parts):
            for tmp in folder.glob(".*.tmp"):
                if only_dead and _writer_alive(tmp):
                    continue
                with contextlib.suppress(OSError):
                    tmp.unlink()

    # -- parts ---------------------------------------------------------------------------------
    def write_part(self, name: str, data: bytes) -> None:
        """Write one chunk's Parquet bytes atomically under parts/."""
        atomic_write(self.parts / name, lambda f: f.write(data))

    def adopt_part(self, tmp: Path, name: str) -> None:
        """Give a part a worker wrote under a temporary name in parts/ its own name (atomically)."""
        if tmp.parent.resolve() != self.parts.resolve():
            raise ValueError(f"{tmp} is not a temporary file of {self.parts}")
        _move_into_place(tmp, self.parts / name)

    def scan_parts(self, identity_key: str) -> list[dict[str, Any]]:
        """Chunk records of every part on disk (the truth after a crash), checked for overlaps.

        The records of a compacted file are those of the parts it merged, so the list is the same before
        and after compaction, except ``file``: the file that holds the chunk now (the manifest lists it).
        """
        return [r | {"file": f.path.name} for f in self.part_files(identity_key) for r in f.records]

    def part_files(self, identity_key: str) -> list[PartFile]:
        """The files of parts/ in name order, checked for identity and overlaps.

        Leftovers of a compaction killed before it deleted the parts it had merged are deleted here.
        """
        files = [read_part_file(path) for path in sorted(self.parts.glob("*.parquet"))]
        for f in files:
            if any(r.get("identity") != identity_key for r in f.records):
                raise ResultFolderError(f"{f.path} belongs to another experiment; move it out of {self.parts}")
        files, leftovers = split_leftovers(files)
        for f in leftovers:
            with contextlib.suppress(OSError):
                f.path.unlink()
        _check_overlaps([(r, f.path.name) for f in files for r in f.records])
        return files

    # -- manifest and failures ---------------------------------------------------------------------
    def write_manifest(self, manifest: dict[str, Any]) -> None:
        text = json.dumps(manifest, indent=2, default=_json_default) + "\n"
        atomic_write(self.path / MANIFEST, lambda f: f.write(text.encode()))

    def write_failures(self, failures: Iterable[dict[str, Any]]) -> None:
        lines = "".join(json.dumps(f) + "\n" for f in failures)
        path = self.path / FAILURES
        if lines or path.exists():
            atomic_write(path, lambda f: f.write(lines.encode()))


def read_manifest(folder: Path) -> dict[str, Any]:
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultFolderError(f"{folder} holds no simlab results ({MANIFEST} is missing)") from None
    except (OSError, ValueError) as exc:
        raise ResultFolderError(f"{path} is unreadable ({exc}); it is not a simlab result folder") from None


def load_manifest(folder: str | Path) -> dict[str, Any]:
    """The manifest of a result folder: scenario, variants and configs, versions, chunks, timings."""
    return read_manifest(Path(folder))


def load_results(folder: str | Path) -> Any:
    """A polars LazyFrame over every row of a result folder (one row per game and seat)."""
    import polars as pl

    p = Path(folder)
    paths, clean = _result_paths(p)
    if clean:
        return pl.scan_parquet(p / PARTS / "*.parquet")
    return pl.scan_parquet([str(path) for path in paths])


def result_files(folder: str | Path) -> list[Path]:
    """The part files whose rows make up a result folder's results, in name order (variant, then start)."""
    return _result_paths(Path(folder))[0]


def _result_paths(p: Path) -> tuple[list[Path], bool]:
    """The result files and whether they are all of parts/*.parquet (no leftovers of a killed compaction)."""
    if not p.is_dir():
        raise ResultFolderError(f"no result folder at {p}")
    paths = sorted((p / PARTS).glob("*.parquet"))
    if not paths:
        raise ResultFolderError(f"{p} holds no results yet (no parquet files in {p / PARTS})")
    leftovers = _leftovers(paths)
    # a compaction was killed before deleting the parts it merged: leave them out
    return [path for path in paths if path not in leftovers], not leftovers


def _leftovers(paths: list[Path]) -> set[Path]:
    """Leftovers of a killed compaction among ``paths``: found by file names, confirmed by the footers.

    Only the files whose name range lies inside another's are read, so a clean folder costs no file read.
    """
    by_variant: dict[str, list[tuple[int, int, Path]]] = {}
    for path in paths:
        m = PART_RE.match(path.name)
        if m:
            by_variant.setdefault(m["variant"], []).append((int(m["start"]), int(m["stop"]), path))
    involved: set[Path] = set()
    for ranges in by_variant.values():
        ranges.sort(key=lambda r: (r[0], -r[1]))
        cover = None
        for start, stop, path in ranges:
            if cover is not None and stop <= cover[1]:
                involved.update((path, cover[2]))
            elif cover is None or stop > cover[1]:
                cover = (start, stop, path)
    if not involved:
        return set()
    try:
        files = [read_part_file(path) for path in sorted(involved)]
    except ResultFolderError:
        return set()
    return {f.path for f in split_leftovers(files)[1]}


def _empty(folder: Path) -> bool:
    return not any(folder.iterdir())


def _writer_alive(tmp: Path) -> bool:
    """Whether the process that writes temporary file ``.<name>.<pid>.tmp`` is still running."""
    try:
        pid = int(tmp.name.rsplit(".", 2)[-2])
        os.kill(pid, 0)
    except (ValueError, IndexError, ProcessLookupError):
        return False
    except OSError:  # PermissionError: a process of another user has that pid
        return True
    return pid != os.getpid()


def _check_overlaps(chunks: list[tuple[dict[str, Any], str]]) -> None:
    """Refuse two chunk records of a variant with overlapping game ranges (named by the files holding them)."""
    by_variant: dict[str, list[tuple[int, int, str]]] = {}
    for c, name in chunks:
        by_variant.setdefault(c["variant"], []).append((c["start"], c["stop"], name))
    for ranges in by_variant.values():
        ranges.sort()
        for (_a0, a1, af), (b0, _b1, bf) in itertools.pairwise(ranges):
            if b0 < a1:
                raise ResultFolderError(f"parts {af} and {bf} overlap; delete one of them and --resume")


def _other_scenario_message(path: Path, theirs: dict[str, Any], ours: dict[str, Any], previous: dict) -> str:
    differs = [k for k in sorted(set(theirs) | set(ours)) if theirs.get(k) != ours.get(k)]
    source = previous.get("scenario", {}).get("source", "?")
    return (
        f"output folder {path} holds results of another experiment: scenario '{theirs.get('scenario', '?')}' "
        f"(from {source}), not '{ours['scenario']}' (they differ in: {', '.join(differs)}); "
        "choose another --out, or delete the folder to start over"
    )


def _json_default(value: Any) -> Any:
    if isinstance(value, tuple | set):
        return list(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return str(value)
