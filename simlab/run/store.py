"""The result folder: one Parquet file per chunk, written atomically, plus a manifest and a failure log.

Layout of a result folder::

    manifest.json      scenario text and hash, variants and their configs, versions, seeds, chunks, timings
    failures.jsonl     one line per game that raised: seed, variant, game index, error, replay command
    parts/<variant>__<start>-<stop>.parquet    rows of games start..stop-1 of one variant
    parts/<variant>__<start>-<stop>.parquet    after ``simlab compact``: consecutive parts merged into one file
    .simlab.lock       flock'ed by a run or a compaction while it works (holds its pid, for the refusal message)
    panel/             optional: the scenario played again per bot of a panel (``simlab robust``; see ``panel``)

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
import stat
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NoReturn

from simlab.run.content import DATA  # the run's data-file copies: part of a result folder
from simlab.run.errors import FolderInUse, ResultFolderError, ResultWriteError
from simlab.run.folder_hint import parent_folder_error
from simlab.run.lock import LOCK, folder_lock, make_folders, remove_empty

MANIFEST = "manifest.json"
FAILURES = "failures.jsonl"
PARTS = "parts"
PANEL = "panel"  # a bot panel's runs of the same scenario (simlab.experiments.panel), beside parts/
#: 2: the identity holds the data files' hashes and the resolved bots (simlab.run.content); 1 still loads
FORMAT = "simlab-results/2"
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
    rows: int | None = None  # the number of rows its Parquet footer says it holds

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


def read_part_file(path: Path, name: str | None = None) -> PartFile:
    """A file of parts/ with its chunk records (only its footer is read); ``name``: the part name it is to have
    (a temporary file's), if not its own."""
    import pyarrow.parquet as pq

    m = PART_RE.match(name or path.name)
    if not m:
        raise ResultFolderError(f"{path} is not a simlab part file name; move it out of {path.parent}")
    try:
        metadata = pq.read_metadata(path)
        schema = metadata.schema.to_arrow_schema()
        records, compacted = file_records(schema.metadata or {})
    except (OSError, KeyError, ValueError, TypeError) as exc:
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
        metadata.num_rows,
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
        self.salvaged: list[str] = []  # parts open_for_run put in place from a killed run's temporaries

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
        created = make_folders(folder.parts)  # only the folders this process made itself (outermost first)
        with contextlib.ExitStack() as stack:
            try:
                folder._check_writable()  # before the lock, whose file an unwritable folder could not take either
                stack.enter_context(folder_lock(p, "simlab run"))
            except FolderInUse:  # another run or a compaction holds the lock: its folder and lock file are left
                raise  # exactly as they are, even if this process made the folder a moment before
            except ResultFolderError:  # a full disk or a read-only folder: leave no empty folder of ours behind
                remove_empty(created)
                raise
            previous = folder._check_may_take(identity, resume)  # again: another run may have ended meanwhile
            folder.salvaged = folder.salvage_temporaries(identity_hash(identity))
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
            e
            for e in p.iterdir()
            if not (e == self.parts and e.is_dir() and _empty(e)) and e.name not in (LOCK, PANEL, DATA)
        ):
            return {}
        damage = manifest_damage(p)
        if damage:
            ours = self._parts_of(identity_hash(identity))
            if not ours:
                if not (p / MANIFEST).is_file():
                    raise ResultFolderError(
                        f"output folder {p} is not empty and holds no simlab results ({MANIFEST} is missing); "
                        "choose a new or empty folder with --out"
                    )
                read_manifest(p)  # raises, saying what is wrong with it
                raise ResultFolderError(f"{p / MANIFEST} {damage}; it is not a simlab result folder")
            if not resume:
                raise ResultFolderError(
                    f"{p / MANIFEST} {damage}, but {self.parts} holds {ours:,} part file(s) of this experiment: "
                    "add --resume to rebuild the manifest from them and finish the run "
                    f"(or: simlab repair {p} --scenario SCENARIO)"
                )
            return {REBUILT: f"{MANIFEST} {damage}"}
        previous = sanitized_manifest(read_manifest(p))
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

    def _parts_of(self, identity_key: str) -> int:
        """How many files of parts/ have a readable footer naming the experiment ``identity_key``."""
        n = 0
        for path in _part_entries(self.parts):
            with contextlib.suppress(ResultFolderError, OSError):
                if path.is_file() and all(r.get("identity") == identity_key for r in read_part_file(path).records):
                    n += 1
        return n

    def _check_writable(self) -> None:
        probe = self.parts / f".write-test.{os.getpid()}.tmp"
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise ResultFolderError(f"cannot write to output folder {self.path}: {exc.strerror or exc}") from None

    def salvage_temporaries(self, identity_key: str) -> list[str]:
        """Put in place the temporary parts a killed run had finished but not renamed; returns their names.

        A worker writes its part under a temporary name, fsyncs it and only then reports back; a run killed
        (or interrupted) before it renamed the file would otherwise play those games again. A temporary part
        is kept only if it reads whole with valid page checksums, names this experiment and its own games,
        and no part on disk overlaps it; anything else is left to ``remove_temporaries``.
        """
        from simlab.run.integrity import read_problem

        kept: list[str] = []
        for tmp in sorted(self.parts.glob(".*.tmp")):
            name = tmp.name[1:].rsplit(".", 2)[0]
            target = self.parts / name
            if not PART_RE.match(name) or target.exists():
                continue
            try:
                f = read_part_file(tmp, name)
            except ResultFolderError:
                continue
            if f.compacted or _part_problem(f, {}) or any(r.get("identity") != identity_key for r in f.records):
                continue
            if _overlaps_any(self.parts, f) or read_problem(tmp, f.rows):
                continue
            try:
                os.replace(tmp, target)
            except OSError:
                continue
            kept.append(name)
        return kept

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

    def part_files(self, identity_key: str, manifest: dict[str, Any] | None = None) -> list[PartFile]:
        """The files of parts/ in name order, checked for identity and overlaps.

        Without ``manifest`` (a run), a file that is not one of the run's parts is refused; with it (a
        compaction), such a file is left where it is, out of the list, with a ``ResultFolderWarning`` (see
        ``folder_contents``). Leftovers of a compaction killed before it deleted the parts it had merged are
        deleted here.
        """
        if manifest is not None:
            files, skipped, leftovers = verify_parts(_part_entries(self.parts), manifest)
            for s in skipped:
                warnings.warn(s.message(), ResultFolderWarning, stacklevel=2)
        else:
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


#: key of the manifest ``open_for_run`` yields when it found the folder's manifest missing or damaged and the
#: run rebuilds it from the parts: what was wrong with it (the runner says so and drops the key)
REBUILT = "_rebuilt"


def manifest_damage(folder: Path) -> str:
    """What is wrong with a folder's manifest ("" if it reads as a simlab manifest), e.g. "is missing"."""
    path = Path(folder) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "is missing"
    except (OSError, UnicodeDecodeError) as exc:
        return f"is unreadable ({exc.strerror if isinstance(exc, OSError) else exc})"
    if not text.strip():
        return "is empty"
    try:
        manifest = json.loads(text)
    except ValueError as exc:
        return f"is unreadable ({exc})"
    if not isinstance(manifest, dict):
        return f"is not a simlab manifest (a JSON {type(manifest).__name__}, not an object)"
    if not isinstance(manifest.get("identity"), dict) or not isinstance(manifest.get("identity_hash"), str):
        return "is not a simlab manifest (its 'identity' is missing or damaged)"
    return ""


def sanitized_manifest(manifest: dict[str, Any]) -> dict[str, Any]:
    """``manifest`` without the fields a run reads back that are of the wrong type (a list for an object,
    text for a number): a run rebuilds them instead of failing on them."""
    out = dict(manifest)
    for key in ("games", "chunk_size"):
        value = out.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            del out[key]
    timings = out.get("timings")
    if not isinstance(timings, dict):
        out["timings"] = {}
    else:
        timings = dict(timings)
        if not isinstance(timings.get("sessions"), list):
            timings["sessions"] = []
        timings["sessions"] = [s for s in timings["sessions"] if isinstance(s, dict)]
        if not isinstance(timings.get("started_at"), str):
            timings.pop("started_at", None)
        out["timings"] = timings
    if not isinstance(out.get("compactions"), list):
        out["compactions"] = []
    return out


def read_manifest(folder: Path) -> dict[str, Any]:
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise parent_folder_error(folder) or ResultFolderError(
            f"{folder} holds no simlab results ({MANIFEST} is missing)"
        ) from None
    except (OSError, ValueError) as exc:
        raise ResultFolderError(f"{path} is unreadable ({exc}); it is not a simlab result folder") from None


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
    problem = problem or _reader_fields_problem(manifest)
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


def _reader_fields_problem(manifest: dict[str, Any]) -> str:
    """Which field of a manifest the readers need is missing or of the wrong type ("" if none)."""
    if not isinstance(manifest.get("scenario"), dict) or not isinstance(manifest["scenario"].get("name"), str):
        return "its 'scenario' is missing or not an object with a name"
    if not isinstance(manifest.get("game"), str):
        return "its 'game' is missing or not a string"
    variants = manifest.get("variants")
    if not isinstance(variants, list) or not variants:
        return "its 'variants' is missing or not a list"
    for v in variants:
        if not (isinstance(v, dict) and isinstance(v.get("name"), str) and isinstance(v.get("config"), dict)):
            return "an entry of its 'variants' is not an object with a name and a config"
        if isinstance(v.get("games_done"), bool) or not isinstance(v.get("games_done", 0), int):
            return f"the games_done of variant {v['name'][:40]!r} is not a number"
    for key in ("games_done", "games_target", "games_failed", "games"):
        if key in manifest and (isinstance(manifest[key], bool) or not isinstance(manifest[key], int)):
            return f"its {key!r} is not a number"
    return ""


def __getattr__(name: str) -> Any:
    """``load_results`` lives in ``simlab.run.reader`` (it reads the files this module lists)."""
    if name == "load_results":
        from simlab.run.reader import load_results

        return load_results
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


class ResultFolderWarning(UserWarning):
    """A file of parts/ that is not one of the run's parts was left out of the results (the message names it)."""


@dataclass(frozen=True)
class Skipped:
    """A file of parts/ left out of the results, and why."""

    path: Path
    reason: str

    def message(self) -> str:
        return f"{self.path} is left out of the results: {self.reason}"


@dataclass
class FolderContents:
    """What a result folder's readers read: the run's own part files, and the files of parts/ left out."""

    files: list[PartFile]
    skipped: list[Skipped]
    problems: list[str] = field(default_factory=list)  # missing or damaged parts (see folder_check)
    suspect: set[str] = field(default_factory=set)  # files whose footer is not the one the manifest recorded
    facts: list[str] = field(default_factory=list)  # manifest facts the parts contradict or cannot confirm

    @property
    def checked(self) -> set[str]:
        """The kept files whose size and footer match the manifest's record of them."""
        return {f.path.name for f in self.files if f.path.name not in self.suspect} & self._recorded

    _recorded: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)  # the games the manifest lists that no kept file holds


#: folder -> (the state of its parts/ and manifest, what ``folder_contents`` found): a report asks many times
_CONTENTS: dict[Path, tuple[Any, FolderContents]] = {}


def folder_contents(folder: str | Path) -> FolderContents:
    """The part files that belong to the run of result ``folder``, verified against their footers.

    This is where every reader (``load_results``, the analyses, ``simlab report``, ``simlab seats``) gets its
    file list. A ``*.parquet`` file of parts/ is left out, with a ``ResultFolderWarning`` naming it, when it
    is not a regular file, is empty, has no part file name (``junk.parquet``, ``... (copy).parquet``), cannot
    be read, belongs to another experiment (its footer's identity is not the manifest's), holds a variant the
    run does not have, holds other games than its name says, or holds another number of rows than its chunk
    records say. Leftovers of a killed compaction are left out silently (their rows are in the merged file).
    Two kept files with overlapping game ranges are an error (ResultFolderError). Without a readable
    manifest, the parts must all name the same experiment. A folder without a manifest whose Parquet files
    are none of them simlab parts (rows written from a notebook) is read as it is. A file holding games
    beyond the run's game count per variant is left out too.

    Then ``folder_check`` compares what is kept with the manifest: the chunks it lists that no kept file
    holds (``missing``), the files whose size or footer is not the one it recorded (``suspect``), and its
    facts the parts contradict (``facts``); each is a ``ResultFolderWarning`` too. parts/ is read as one
    consistent snapshot: a read during which a file was deleted or replaced (a compaction) is done again.
    The answer is cached while parts/ and the manifest are unchanged.
    """
    p = Path(folder)
    if not p.is_dir():
        raise ResultFolderError(f"no result folder at {p}")
    for attempt in range(_SNAPSHOT_TRIES):
        entries = _part_entries(p / PARTS)
        key = _listing_key(p, entries)
        cached = _CONTENTS.get(p.resolve())
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            contents = _read_contents(p, entries)
        except ResultFolderError:
            if _unchanged(key, _listing_key(p)) or attempt + 1 == _SNAPSHOT_TRIES:
                raise
            time.sleep(_SNAPSHOT_WAIT)
            continue
        if _unchanged(key, _listing_key(p)):
            break  # no file read was replaced or deleted meanwhile (a run may have added some): a consistent snapshot
        if attempt + 1 < _SNAPSHOT_TRIES:  # a compaction (or a run) at work: read again once it has moved on
            time.sleep(_SNAPSHOT_WAIT)
    for s in contents.skipped:
        warnings.warn(s.message(), ResultFolderWarning, stacklevel=2)
    for line in contents.problems + contents.facts:
        warnings.warn(f"{p}: {line}", ResultFolderWarning, stacklevel=2)
    _CONTENTS[p.resolve()] = (key, contents)
    return contents


def _listing_key(p: Path, entries: list[Path] | None = None) -> tuple:
    """What changes when a file of parts/ or the manifest is written, renamed or deleted."""
    entries = _part_entries(p / PARTS) if entries is None else entries
    return (tuple((e.name, *_stat_key(e)) for e in entries), _stat_key(p / MANIFEST))


def _unchanged(before: tuple, after: tuple) -> bool:
    """Whether every file of listing ``before`` is still there, the same file (a compaction deletes the parts
    it merged; ``simlab digest`` replaces files; a run only adds parts)."""
    return set(before[0]) <= set(after[0])


#: reads of a folder whose parts/ changed while it was read, before the last one is taken as it is
_SNAPSHOT_TRIES = 20
_SNAPSHOT_WAIT = 0.1


def _read_contents(p: Path, entries: list[Path]) -> FolderContents:
    """``folder_contents`` of one listing of parts/ (a file that vanishes meanwhile is left out, unread)."""
    from simlab.run.folder_check import listing_problems, manifest_facts, manifest_footers

    try:
        manifest = read_manifest(p)
    except ResultFolderError:
        manifest = {}
    if not isinstance(manifest, dict):
        manifest = {}
    files, skipped, _leftovers = verify_parts(entries, manifest)
    bare = _bare_files(skipped) if not files and not (p / MANIFEST).exists() else []
    if bare:  # no manifest and no simlab part at all: Parquet files of rows, e.g. written from a notebook
        return FolderContents(bare, [])
    problems, suspect, missing = listing_problems(manifest, files, skipped) if manifest else ([], set(), [])
    facts = []
    if manifest and not _reader_fields_problem(manifest):
        facts = manifest_facts(json.loads(json.dumps(manifest)), files, p)
    recorded = set(manifest_footers(manifest))
    return FolderContents(files, skipped, problems, suspect, facts, recorded, missing)


def _bare_files(skipped: list[Skipped]) -> list[PartFile]:
    """The left-out files as plain Parquet files of rows, if every one is one without simlab metadata, else []."""
    import pyarrow.parquet as pq

    files = []
    for s in skipped:
        try:
            if not s.path.is_file() or s.path.stat().st_size == 0:
                return []
            metadata = pq.read_metadata(s.path)
        except Exception:  # anything unreadable: not a folder of plain Parquet files
            return []
        schema = metadata.schema.to_arrow_schema()
        if set(schema.metadata or {}) & {META_KEY, CHUNKS_KEY, FILE_KEY}:
            return []  # a simlab part that is not this run's: the folder is a damaged result folder
        files.append(PartFile(s.path, "", 0, 0, [], False, schema, None, metadata.num_rows))
    return files


def _part_entries(parts: Path) -> list[Path]:
    """The ``*.parquet`` entries of parts/ in name order (temporary files, which start with a dot, are not)."""
    if not parts.is_dir():
        return []
    return sorted(e for e in parts.iterdir() if e.name.endswith(".parquet") and not e.name.startswith("."))


def _stat_key(path: Path) -> tuple[int, ...]:
    try:
        st = path.lstat()
    except OSError:
        return ()
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino)


def verify_parts(entries: list[Path], manifest: dict[str, Any]) -> tuple[list[PartFile], list[Skipped], list[PartFile]]:
    """(the run's part files among ``entries``, the others with the reason each is left out, the leftovers of
    a killed compaction: files whose chunks are all in another kept file).

    The run is the one ``manifest`` describes; an empty manifest (missing or unreadable) means the one
    experiment the readable parts name (several: ResultFolderError). Leftovers of a killed compaction are
    dropped; overlapping game ranges among the kept files are a ResultFolderError.
    """
    if not isinstance(manifest, dict):
        manifest = {}
    candidates: list[PartFile] = []
    skipped: list[Skipped] = []
    for path in entries:
        try:
            st = path.stat()
        except OSError as exc:
            skipped.append(Skipped(path, f"it cannot be read ({exc.strerror or exc})"))
            continue
        if not stat.S_ISREG(st.st_mode):
            skipped.append(Skipped(path, "it is not a regular file"))
        elif st.st_size == 0:
            skipped.append(Skipped(path, "it is empty (0 bytes); delete it and --resume to replay its games"))
        elif not PART_RE.match(path.name):
            skipped.append(Skipped(path, "it has no simlab part file name (a copy?); move it out of parts/"))
        else:
            try:
                f = read_part_file(path)
            except ResultFolderError:
                skipped.append(
                    Skipped(path, "it is unreadable or not a simlab part; delete it and --resume to replay its games")
                )
                continue
            reason = _part_problem(f, manifest)
            if reason:
                skipped.append(Skipped(path, reason))
            else:
                candidates.append(f)
    identity = manifest.get("identity_hash")
    if not isinstance(identity, str) or not identity:
        identity = _only_identity(candidates)
    files = []
    for f in candidates:
        if {r.get("identity") for r in f.records} != {identity}:
            skipped.append(
                Skipped(f.path, "it belongs to another experiment (its footer names another scenario identity)")
            )
        else:
            files.append(f)
    files, leftovers = split_leftovers(files)
    _check_overlaps([(r, f.path.name) for f in files for r in f.records])
    skipped.sort(key=lambda s: s.path.name)
    return files, skipped, leftovers


def _only_identity(files: list[PartFile]) -> str | None:
    """The experiment the parts of a folder without a manifest name; refuses parts of several experiments."""
    found = sorted({str(r.get("identity")) for f in files for r in f.records})
    if len(found) > 1:
        raise ResultFolderError(
            f"{files[0].path.parent} has no readable {MANIFEST} and holds parts of {len(found)} experiments "
            f"(identities {', '.join(found)}); move the foreign parts out of it"
        )
    return found[0] if found else None


def _part_problem(f: PartFile, manifest: dict[str, Any]) -> str:
    """Why a readable part file is not one of the run's parts ("" if it is), from its name and footer."""
    variants = manifest.get("variants")
    names = {v.get("name") for v in variants if isinstance(v, dict)} if isinstance(variants, list) else None
    if names and f.variant not in names:
        return f"its variant '{f.variant}' is not one of this run's ({', '.join(sorted(map(str, names)))})"
    try:
        ranges = sorted((str(r["variant"]), int(r["start"]), int(r["stop"])) for r in f.records)
        games = sum(int(r["games"]) for r in f.records)
    except (KeyError, TypeError, ValueError):
        return "its footer holds no valid chunk record"
    pos = f.start
    tiles = True
    for variant, start, stop in ranges:
        if variant != f.variant or start != pos or stop <= start:
            tiles = False
            break
        pos = stop
    if not tiles or pos != f.stop:
        held = ", ".join(f"games {a}-{b} of '{v}'" for v, a, b in ranges[:3])
        return (
            f"its name says games {f.start}-{f.stop} of '{f.variant}' but its footer says {held} "
            "(a renamed copy?); move it out of parts/"
        )
    per_variant = manifest.get("games")
    if isinstance(per_variant, int) and not isinstance(per_variant, bool) and f.stop > per_variant > 0:
        return (
            f"it holds games {f.start}-{f.stop - 1} of '{f.variant}', beyond the run's {per_variant:,} games per "
            f"variant (a copy from a longer run?); move it out of parts/ (or extend the run with --games {f.stop} "
            "--resume, which counts it)"
        )
    players = manifest.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and f.rows is not None and f.rows != games * players:
        return (
            f"it holds {f.rows:,} rows, but its chunk records say {games:,} games of {players} players; "
            "delete it and --resume to replay its games"
        )
    return ""


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


def _overlaps_any(parts: Path, f: PartFile) -> bool:
    """Whether a part on disk (by its name) holds games of ``f``'s variant in ``f``'s range."""
    for path in parts.glob("*.parquet"):
        m = PART_RE.match(path.name)
        if m and m["variant"] == f.variant and int(m["start"]) < f.stop and f.start < int(m["stop"]):
            return True
    return False


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
