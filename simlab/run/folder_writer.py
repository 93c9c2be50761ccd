"""Writing a result folder: ``ResultFolder`` takes a run (refusing a folder it may not take), holds the folder's
lock, salvages or removes a killed run's temporary files, and writes parts, the manifest and the failure log.

The layout is ``folder_layout``'s; reading a folder is ``reader``'s job, and this module is not imported by it.
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from simlab.run.atomic_file import atomic_write, move_into_place
from simlab.run.content import DATA  # the run's data-file copies: part of a result folder
from simlab.run.errors import FolderInUse, ResultFolderError
from simlab.run.folder_contents import ResultFolderWarning, check_overlaps, part_entries, part_problem, verify_parts
from simlab.run.folder_layout import FAILURES, FIX, MANIFEST, PANEL, PART_RE, PARTS, identity_hash
from simlab.run.lock import LOCK, folder_lock, make_folders, remove_empty
from simlab.run.manifest import manifest_damage, read_manifest, sanitized_manifest
from simlab.run.part_file import PartFile, read_part_file, split_leftovers

#: key of the manifest ``open_for_run`` yields when it found the folder's manifest missing or damaged and the
#: run rebuilds it from the parts: what was wrong with it (the runner says so and drops the key)
REBUILT = "_rebuilt"


class ResultFolder:
    """A result folder on disk (its layout: ``simlab.run.folder_layout``)."""

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
            if not (e == self.parts and e.is_dir() and _empty(e)) and e.name not in (LOCK, PANEL, FIX, DATA)
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
        for path in part_entries(self.parts):
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
            if f.compacted or part_problem(f, {}) or any(r.get("identity") != identity_key for r in f.records):
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
        move_into_place(tmp, self.parts / name)

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
            files, skipped, leftovers = verify_parts(part_entries(self.parts), manifest)
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
        check_overlaps([(r, f.path.name) for f in files for r in f.records])
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
