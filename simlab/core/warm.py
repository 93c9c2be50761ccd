"""Compile a game's Python-called entry points on two cores at first use, not one after another.

A first ``simlab play`` (or any Python-driven game: transcripts, notebooks, the position builder) compiles
four entry points: ``init``, ``legal``, the bot ``policy`` and ``apply``, one after another, on one core.
Their call trees overlap little — the bots' heuristics against the rules' turn sequence — so while this
process compiles ``init`` and ``apply``, a helper process compiles ``legal`` and ``policy`` for exactly the
argument types this process will call them with, and numba's on-disk cache hands its work over: when the
helper is done, those entry points load in milliseconds here. Nothing is shared but the cache files, which
numba writes atomically; if the helper fails or cannot start, this process compiles them itself (as before).

``SIMLAB_COMPILE_JOBS=1`` turns the helper off (one core); it is never started when every entry point is
already cached, when numba is disabled, or on a one-core machine.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
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


def compile_for_play(game: str, kernel: Kernel, cfg: np.ndarray, search: bool) -> None:
    """Have every entry point ``Game.play`` calls compiled, on two processes when that saves time.

    ``search``: the policy is the search kernel's (a search bot plays).
    """
    if (game, search) in _READY:
        return
    helper = None
    if helper_wanted(kernel, cfg):
        argv = [sys.executable, "-m", "simlab.core.warm", game] + (["--search"] if search else [])
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


#: the search bot a warm-up plays to compile the search loops (the budget is irrelevant to what compiles)
WARM_SEARCH = "ismcts:iterations=2,candidates=2"


def compile_everything(name: str) -> None:
    """Compile (or load) every compiled entry of game ``name`` that simlab's runs, plays and search bots call:
    the play entry points and the batch loop, each plain and with the search compiled in."""
    from simlab.core.loop import KIND_SEARCH
    from simlab.core.registry import get_game

    game = get_game(name)
    config = game.make_config()
    players = config.players
    kernel = game.kernel
    cfg = kernel.config_record(config)
    compile_entries(kernel, cfg, HERE_ENTRIES + HELPER_ENTRIES)
    game.play_batch(config, [0], game.make_bots(["random"] * players, players))
    if kernel.searchable:
        compile_entries(kernel.for_kinds([KIND_SEARCH]), cfg, HELPER_ENTRIES)
        game.play_batch(config, [0], game.make_bots([WARM_SEARCH] + ["random"] * (players - 1), players))


def compile_games(names: Sequence[str], jobs: int | None = None) -> dict[str, float]:
    """:func:`compile_everything` for each game, one process per game, ``jobs`` (default: the cores) at a time;
    the seconds each took. A game that fails to compile here is left to compile where it is used (its
    seconds are then negative), so a warm-up never stops the work it precedes."""
    if numba.config.DISABLE_JIT:
        return {}

    def one(name: str) -> tuple[str, float]:
        start = time.perf_counter()
        argv = [sys.executable, "-m", "simlab.core.warm", "--everything", name]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False)
        seconds = time.perf_counter() - start
        return name, seconds if done.returncode == 0 else -seconds

    largest_first = sorted(names, key=_source_bytes, reverse=True)  # the longest compiles start first
    with ThreadPoolExecutor(max_workers=max(1, jobs or _cores())) as pool:
        return dict(pool.map(one, largest_first))


def _source_bytes(name: str) -> int:
    """Size of a game's compiled sources (rules and bots): a proxy for how long it compiles."""
    import importlib.util

    from simlab.core.registry import get_game

    game = get_game(name)
    total = 0
    for module in (game.rules_module, game.policy.split(":")[0]):
        spec = importlib.util.find_spec(module)
        if spec is not None and spec.origin:
            total += os.path.getsize(spec.origin)
    return total


def _helper_main(argv: list[str]) -> int:
    """``python -m simlab.core.warm GAME [--search]``: compile HELPER_ENTRIES of GAME into the cache;
    ``--everything GAME``: :func:`compile_everything`; ``--all``: that for every registered game, on every
    core (``make warm``, and ``make test`` before the suite)."""
    from simlab.core.loop import KIND_SEARCH
    from simlab.core.registry import get_game

    if argv[0] == "--everything":
        compile_everything(argv[1])
        return 0
    if argv[0] == "--all":
        from simlab.core.registry import available_games

        start = time.perf_counter()
        seconds = compile_games(available_games())
        for name, s in seconds.items():
            print(f"  {name}: {'compiled or loaded' if s >= 0 else 'FAILED (compiles on use)'} in {abs(s):.1f} s")
        print(f"every game's engines ready in {time.perf_counter() - start:.1f} s")
        return 0
    game = get_game(argv[0])
    kernel = game.kernel.for_kinds([KIND_SEARCH] if "--search" in argv[1:] else [])
    compile_entries(kernel, kernel.config_record(game.make_config()), HELPER_ENTRIES)
    return 0


if __name__ == "__main__":
    sys.exit(_helper_main(sys.argv[1:]))
