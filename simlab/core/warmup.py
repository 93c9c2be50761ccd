"""Compile games ahead of use, in helper processes: ``python -m simlab.core.warmup``.

``GAME [--search]`` compiles the entry points a Python-driven game calls (the helper ``simlab.core.warm`` starts
beside a first play); ``--everything GAME`` every compiled entry simlab's runs, plays and search bots call;
``--all`` that for every registered game, on every core (``make warm``, and ``make test`` before the suite).
GAME is a registered name or the "module:attr" address a game object is importable at
(``simlab.core.game.game_target``), so a game no registry lists is compiled the same way.

It sits above the registry and the game layer (``simlab.core.warm`` sits below them): the names are looked up
here, never in the modules a game imports, so core has no import circle.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numba

from simlab.core.game import Game, load_game_target
from simlab.core.loop import KIND_SEARCH
from simlab.core.registry import available_games, get_game
from simlab.core.warm import HELPER_ENTRIES, HERE_ENTRIES, _cores, compile_entries

#: the search bot a warm-up plays to compile the search loops (the budget is irrelevant to what compiles)
WARM_SEARCH = "ismcts:iterations=2,candidates=2"


def find_game(name: str) -> Game:
    """A registered game by name, or any game by its "module:attr" address."""
    return load_game_target(name) if ":" in name else get_game(name)


def compile_everything(name: str) -> None:
    """Compile (or load) every compiled entry of game ``name`` that simlab's runs, plays and search bots call:
    the play entry points and the batch loop, each plain and with the search compiled in."""
    game = find_game(name)
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
        argv = [sys.executable, "-m", "simlab.core.warmup", "--everything", name]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False)
        seconds = time.perf_counter() - start
        return name, seconds if done.returncode == 0 else -seconds

    largest_first = sorted(names, key=_source_bytes, reverse=True)  # the longest compiles start first
    with ThreadPoolExecutor(max_workers=max(1, jobs or _cores())) as pool:
        return dict(pool.map(one, largest_first))


def _source_bytes(name: str) -> int:
    """Size of a game's compiled sources (rules and bots): a proxy for how long it compiles."""
    import importlib.util

    game = find_game(name)
    total = 0
    for module in (game.rules_module, game.policy.split(":")[0]):
        spec = importlib.util.find_spec(module)
        if spec is not None and spec.origin:
            total += os.path.getsize(spec.origin)
    return total


def main(argv: list[str]) -> int:
    """The command line (see the module docstring)."""
    if argv[0] == "--everything":
        compile_everything(argv[1])
        return 0
    if argv[0] == "--all":
        start = time.perf_counter()
        seconds = compile_games(available_games())
        for name, s in seconds.items():
            print(f"  {name}: {'compiled or loaded' if s >= 0 else 'FAILED (compiles on use)'} in {abs(s):.1f} s")
        print(f"every game's engines ready in {time.perf_counter() - start:.1f} s")
        return 0
    game = find_game(argv[0])
    kernel = game.kernel.for_kinds([KIND_SEARCH] if "--search" in argv[1:] else [])
    compile_entries(kernel, kernel.config_record(game.make_config()), HELPER_ENTRIES)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
