"""Which files of a result folder's parts/ are the run's results: each footer checked, the others left out.

Every reader gets its file list here (``folder_contents``); the folder writer uses the same checks
(``verify_parts``) before a compaction and when it salvages a killed run's parts.
"""

from __future__ import annotations

import itertools
import json
import stat
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.run.errors import ResultFolderError
from simlab.run.folder_layout import CHUNKS_KEY, FILE_KEY, MANIFEST, META_KEY, PART_RE, PARTS
from simlab.run.manifest import read_manifest, reader_fields_problem
from simlab.run.part_file import PartFile, read_part_file, split_leftovers


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
    for attempt in range(SNAPSHOT_TRIES):
        entries = part_entries(p / PARTS)
        key = _listing_key(p, entries)
        cached = _CONTENTS.get(p.resolve())
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            contents = _read_contents(p, entries)
        except ResultFolderError:
            if _unchanged(key, _listing_key(p)) or attempt + 1 == SNAPSHOT_TRIES:
                raise
            time.sleep(SNAPSHOT_WAIT)
            continue
        if _unchanged(key, _listing_key(p)):
            break  # no file read was replaced or deleted meanwhile (a run may have added some): a consistent snapshot
        if attempt + 1 < SNAPSHOT_TRIES:  # a compaction (or a run) at work: read again once it has moved on
            time.sleep(SNAPSHOT_WAIT)
    for s in contents.skipped:
        warnings.warn(s.message(), ResultFolderWarning, stacklevel=2)
    for line in contents.problems + contents.facts:
        warnings.warn(f"{p}: {line}", ResultFolderWarning, stacklevel=2)
    _CONTENTS[p.resolve()] = (key, contents)
    return contents


def _listing_key(p: Path, entries: list[Path] | None = None) -> tuple:
    """What changes when a file of parts/ or the manifest is written, renamed or deleted."""
    entries = part_entries(p / PARTS) if entries is None else entries
    return (tuple((e.name, *_stat_key(e)) for e in entries), _stat_key(p / MANIFEST))


def _unchanged(before: tuple, after: tuple) -> bool:
    """Whether every file of listing ``before`` is still there, the same file (a compaction deletes the parts
    it merged; ``simlab digest`` replaces files; a run only adds parts)."""
    return set(before[0]) <= set(after[0])


#: reads of a folder whose parts/ changed while it was read, before the last one is taken as it is
SNAPSHOT_TRIES = 20
SNAPSHOT_WAIT = 0.1


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
    if manifest and not reader_fields_problem(manifest):
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


def part_entries(parts: Path) -> list[Path]:
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
            reason = part_problem(f, manifest)
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
    check_overlaps([(r, f.path.name) for f in files for r in f.records])
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


def part_problem(f: PartFile, manifest: dict[str, Any]) -> str:
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


def check_overlaps(chunks: list[tuple[dict[str, Any], str]]) -> None:
    """Refuse two chunk records of a variant with overlapping game ranges (named by the files holding them)."""
    by_variant: dict[str, list[tuple[int, int, str]]] = {}
    for c, name in chunks:
        by_variant.setdefault(c["variant"], []).append((c["start"], c["stop"], name))
    for ranges in by_variant.values():
        ranges.sort()
        for (_a0, a1, af), (b0, _b1, bf) in itertools.pairwise(ranges):
            if b0 < a1:
                raise ResultFolderError(f"parts {af} and {bf} overlap; delete one of them and --resume")
