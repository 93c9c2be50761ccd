"""Compile a game's Python-called entry points on two cores at first use, not one after another.

A first ``simlab play`` (or any Python-driven game: transcripts, notebooks, the position builder) compiles
four entry points: ``init``, ``legal``, the bot ``policy`` and ``apply``, one after another, on one core.
Their call trees overlap little — the bots' heuristics against the rules' turn sequence — so while this
process compiles ``init`` and ``apply``, a helper process compiles ``legal`` and ``policy`` for exactly the
argument types this process will call them with, and numba's on-disk cache hands its work over: when the
helper is done, those entry points load in milliseconds here. Nothing is shared but the cache files, which
numba writes atomically; if the helper fails or cannot start, this process compiles them itself (as before).

``SIMLAB_COMPILE_JOBS=1`` turns the helper off (one core); it is never started when every entry point is
already cached, when numba is disabled, or on a one-core machine. The helper is ``python -m simlab.core.warmup``
(which also compiles every game ahead of use: ``make warm``); it finds the game by the address it is importable at
(``simlab.core.game.game_target``), so a game no registry lists (a designer's, a test's) gets it too.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterable
from typing import Any

import numba
import numpy as np

from simlab.core.engine import Kernel

#: compiled here, while the helper compiles HELPER_ENTRIES: the rules' turn sequence (init and apply share
#: most of their call tree) against the bots and the legal-move generator
HERE_ENTRIES = ("init", "apply", "is_terminal", "current_player")
HELPER_ENTRIES = ("legal", "policy")


def blank_record(kernel: Kernel) -> np.ndarray:
    """A one-game state record of the game, as every Python-held State keeps it."""
    return np.zeros(1, dtype=kernel.state_dtype).view(np.recarray)


def play_arguments(kernel: Kernel, cfg: np.ndarray) -> dict[str, tuple[Any, ...]]:
    """Arguments of the types ``Game.play`` and ``State`` call each entry point with (values irrelevant)."""
    record = blank_record(kernel)
    buf = np.zeros(kernel.max_actions, dtype=np.int32)
    one = np.zeros(1, dtype=np.uint64)
    params = np.zeros(1, dtype=np.float64)
    return {
        "init": (record, cfg, one),
        "legal": (record, cfg, buf),
        "apply": (record, cfg, 0),
        "is_terminal": (record,),
        "current_player": (record,),
        "policy": (0, params, record, cfg, buf, 0, one, 0),
    }


def signature(args: Iterable[Any]) -> tuple[Any, ...]:
    """numba's argument types for a call from Python with ``args``."""
    return tuple(numba.typeof(a) for a in args)


def compile_entries(kernel: Kernel, cfg: np.ndarray, names: Iterable[str]) -> None:
    """Compile (or load from the cache) the entry points ``names`` for their Python call types."""
    arguments = play_arguments(kernel, cfg)
    for name in names:
        dispatcher = getattr(kernel, name)
        if hasattr(dispatcher, "compile"):  # not under NUMBA_DISABLE_JIT
            dispatcher.compile(signature(arguments[name]))


def is_cached_on_disk(dispatcher: Any, sig: tuple[Any, ...]) -> bool:
    """Whether numba's on-disk cache holds ``dispatcher`` compiled for ``sig`` (or it is compiled here).

    Reads numba's cache index the way ``Dispatcher.compile`` does before it compiles; any doubt is False.
    """
    if tuple(sig) in getattr(dispatcher, "overloads", {}):
        return True
    try:
        cache = dispatcher._cache
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # another numba's internals, an unreadable index: treat as not cached
        return False


def helper_wanted(kernel: Kernel, cfg: np.ndarray) -> bool:
    """Start a helper only where it saves time: numba compiles, 2+ cores, a helper entry not yet cached."""
    if os.environ.get("SIMLAB_COMPILE_JOBS", "") == "1" or numba.config.DISABLE_JIT:
        return False
    if _cores() < 2:
        return False
    arguments = play_arguments(kernel, cfg)
    return not all(is_cached_on_disk(getattr(kernel, n), signature(arguments[n])) for n in HELPER_ENTRIES)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


#: kernels (by name, search or not) whose play entry points this process has compiled or loaded
_READY: set[tuple[str, bool]] = set()


def compile_for_play(game: str, kernel: Kernel, cfg: np.ndarray, search: bool, target: str | None = None) -> None:
    """Have every entry point ``Game.play`` calls compiled, on two processes when that saves time.

    ``search``: the policy is the search kernel's (a search bot plays). ``target``: where the helper imports the
    game from ("module:attr", :func:`simlab.core.game.game_target`; default: the registered name ``game``).
    """
    if (game, search) in _READY:
        return
    helper = None
    if helper_wanted(kernel, cfg):
        argv = [sys.executable, "-m", "simlab.core.warmup", target or game] + (["--search"] if search else [])
        with contextlib.suppress(OSError):
            helper = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    compile_entries(kernel, cfg, HERE_ENTRIES)
    if helper is not None:
        try:
            helper.wait()
        except BaseException:  # interrupted: do not leave it compiling alone
            helper.kill()
            raise
    compile_entries(kernel, cfg, HELPER_ENTRIES)  # loads what the helper cached; compiles what it did not
    _READY.add((game, search))
