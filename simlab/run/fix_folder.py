"""A rule-fix search's folder: ``<folder>/fix/`` holds every game the search played and its answer, so that a
stopped search resumes to the same answer (the format, read and written; the search is
``simlab.experiments.fix_trials``).

Layout::

    <folder>/fix/fix.json               the question (its identity and hash), every stored play, the progress
                                        lines (the decisions as they were taken) and, once done, the answer
    <folder>/fix/plays/<sha256>.parquet one play: one arm's per-game results on games start..start+n (column
                                        ``game``, then ``r0, r1, ...`` as the play returned them: the seats' win
                                        shares, then the measures the search reads), named by the SHA-256 of its
                                        bytes (content-identified, as the runner's parts)
    <folder>/fix/damaged/               a play whose bytes no longer match its hash (moved, then played again)

A play is keyed by what determines its games: the lineup it is played with (``scope``), the arm, the first game
index and the number of games (the seeds come from the question's root seed, which is in the identity). The
search's decisions are a function of its games, so replaying the search over the stored plays takes the same
decisions and continues where it stopped. Each play is written atomically and ``fix.json`` rewritten atomically
after it: a search killed at any moment leaves whole plays and a ``fix.json`` that lists all but the last.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from simlab.run.atomic_file import atomic_write, move_into_place, write_temporary
from simlab.run.errors import ResultFolderError
from simlab.run.folder_layout import FIX
from simlab.run.integrity import file_sha256, quarantine, read_problem
from simlab.run.lock import folder_lock

FIX_FILE = "fix.json"
PLAYS = "plays"
FORMAT = "simlab-fix/1"
RUNNING, DONE = "running", "done"


def fix_root(folder: str | Path) -> Path:
    """The fix folder of a result folder (``<folder>/fix``), or ``folder`` itself when it is one."""
    p = Path(folder)
    return p if (p / FIX_FILE).is_file() else p / FIX


def has_fix(folder: str | Path) -> bool:
    """Whether ``folder`` (a result folder, or a fix folder) holds a rule-fix search."""
    return (fix_root(folder) / FIX_FILE).is_file()


def load_fix(folder: str | Path) -> dict[str, Any]:
    """The ``fix.json`` of a folder: the question, the plays, the progress lines and the answer (``result``, None
    while the search has not finished)."""
    path = fix_root(folder) / FIX_FILE
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultFolderError(
            f"{folder} holds no rule-fix search ({path} is missing); run: simlab fix SCENARIO"
        ) from None
    except (OSError, ValueError) as exc:
        raise ResultFolderError(f"{path} is unreadable ({exc}); run simlab fix SCENARIO --resume again") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ResultFolderError(f"{path} is not a simlab rule-fix file (format {FORMAT}); run simlab fix again")
    return meta


def identity_hash(identity: Mapping[str, Any]) -> str:
    """A 16-hex-digit hash of a question's identity (what decides its games and its answer)."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:16]


def play_key(scope: str, arm: Any, start: int, games: int) -> str:
    """The key of one play: what determines its games (the arm as canonical JSON: tuples as lists)."""
    text = json.dumps([scope, arm, int(start), int(games)], sort_keys=True, default=_jsonable)
    return hashlib.sha256(text.encode()).hexdigest()


class FixStore:
    """The plays of one question in ``<folder>/fix``: looked up before a play, saved after it."""

    def __init__(self, root: Path, meta: dict[str, Any]):
        self.root = root
        self.meta = meta
        self.replayed = 0  # plays read back instead of played (a resumed search)

    # -- opening -----------------------------------------------------------------------------------------
    @classmethod
    @contextlib.contextmanager
    def open(
        cls, folder: str | Path, identity: Mapping[str, Any], about: Mapping[str, Any], resume: bool
    ) -> Iterator[FixStore]:
        """The store of ``folder/fix`` for the question ``identity`` (locked while open).

        A folder that already holds a search is refused without ``resume``; with it, a search of another question
        is refused (naming what differs), and a play whose bytes differ from its hash is moved to ``damaged/`` and
        will be played again. ``about`` (scenario name, source and text, game) is written beside the identity.
        """
        root = Path(folder) / FIX
        root.mkdir(parents=True, exist_ok=True)
        with folder_lock(root, "simlab fix"):
            path = root / FIX_FILE
            if path.is_file():
                if not resume:
                    raise ResultFolderError(
                        f"{root} already holds a rule-fix search; add --resume to continue it, or give another --out"
                    )
                meta = load_fix(root)
                _same_question(meta, identity, root)
                store = cls(root, meta)
                store._check_plays()
            else:
                meta = {
                    "format": FORMAT,
                    "identity": dict(identity),
                    "identity_hash": identity_hash(identity),
                    **dict(about),
                    "status": RUNNING,
                    "plays": {},
                    "log": [],
                    "result": None,
                }
                store = cls(root, meta)
            store.meta["status"] = RUNNING
            store.meta["log"] = []  # the lines of this search, replayed or played: the same decisions again
            store._write()
            yield store

    def _check_plays(self) -> None:
        """Move plays whose bytes differ from their hash (or that are missing) out of the list: played again."""
        plays: dict[str, Any] = self.meta.get("plays") or {}
        bad = []
        for key, entry in list(plays.items()):
            path = self.root / PLAYS / str(entry.get("file", ""))
            if not path.is_file() or file_sha256(path) != entry.get("sha256"):
                del plays[key]
                if path.is_file():
                    bad.append(path)
        if bad:
            quarantine(self.root, bad)
        self.meta["plays"] = plays

    # -- plays -------------------------------------------------------------------------------------------
    def get(self, key: str) -> np.ndarray | None:
        """The stored per-game results of a play, or None when it was not played (or is damaged: played again)."""
        entry = self.meta["plays"].get(key)
        if entry is None:
            return None
        import pyarrow.parquet as pq

        path = self.root / PLAYS / entry["file"]
        if read_problem(path, entry.get("games")):
            return None
        table = pq.read_table(path)
        self.replayed += 1
        return np.column_stack([table.column(c).to_numpy() for c in table.column_names[1:]])

    def put(self, key: str, start: int, results: np.ndarray) -> None:
        """Save one play (games × columns) as a content-named Parquet file, then list it in ``fix.json``."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        results = np.asarray(results, dtype=float)
        games = results.shape[0]
        columns = {"game": np.arange(start, start + games, dtype=np.int64)}
        columns |= {f"r{k}": results[:, k] for k in range(results.shape[1])}
        table = pa.table(columns)
        folder = self.root / PLAYS
        folder.mkdir(exist_ok=True)
        tmp = write_temporary(
            folder / f"{key}.parquet",
            lambda f: pq.write_table(table, f, compression="zstd", write_page_checksum=True),
        )
        digest = file_sha256(tmp)
        move_into_place(tmp, folder / f"{digest}.parquet")
        self.meta["plays"][key] = {"file": f"{digest}.parquet", "sha256": digest, "start": int(start), "games": games}
        self._write()

    # -- the search's lines and answer -------------------------------------------------------------------
    def note(self, line: str) -> None:
        """Keep one progress line (a decision of the search) in ``fix.json``."""
        self.meta["log"].append(line)
        self._write()

    def finish(self, result: Mapping[str, Any]) -> None:
        """Keep the answer; the folder is done (a resumed search rewrites it, the same)."""
        self.meta["result"] = dict(result)
        self.meta["status"] = DONE
        self._write()

    def _write(self) -> None:
        text = json.dumps(self.meta, indent=1, default=_jsonable) + "\n"
        atomic_write(self.root / FIX_FILE, lambda f: f.write(text.encode()))


def _same_question(meta: Mapping[str, Any], identity: Mapping[str, Any], root: Path) -> None:
    """Refuse to resume a search of another question (its identity differs), naming the keys that differ."""
    old = meta.get("identity") or {}
    if identity_hash(old) == identity_hash(identity):
        return
    differ = sorted(
        k
        for k in set(old) | set(identity)
        if json.dumps(old.get(k), default=str) != json.dumps(identity.get(k), default=str)
    )
    shown = "; ".join(f"{k}: {old.get(k)!r} there, {identity.get(k)!r} now" for k in differ[:4])
    raise ResultFolderError(
        f"{root} holds a rule-fix search of another question ({shown}); resume it with the same scenario and "
        "options, or give another --out"
    )


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # an arm such as a rule change
        return {"type": type(value).__name__, **dataclasses.asdict(value)}
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)
