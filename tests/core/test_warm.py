"""The two-core first compile of a Python-driven game (simlab.core.warm): the helper compiles exactly the
signatures a game then calls, writes them where this process loads them, and never outlives an interrupt."""

from __future__ import annotations

import subprocess
import sys
from typing import ClassVar

import numba
import pytest

import simlab
from simlab.core import warm, warmup

GAMES = simlab.available_games()
jit_only = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="numba compiles nothing under NUMBA_DISABLE_JIT")


@jit_only
@pytest.mark.parametrize("game_name", GAMES)
def test_a_played_game_compiles_nothing_beyond_what_compile_for_prepared(game_name: str) -> None:
    """If play_arguments named other types than Game.play and State pass, this process would compile a
    second signature after the helper's, and the helper's work would be wasted."""
    game = simlab.get_game(game_name)
    config = game.make_config()
    bots = game.make_bots(game.default_lineup(config.players), config.players)
    kernel = game.compile_for(config, bots)
    entries = warm.HERE_ENTRIES + warm.HELPER_ENTRIES
    before = {name: len(getattr(kernel, name).overloads) for name in entries}
    game.play(config, 3, bots)
    assert {name: len(getattr(kernel, name).overloads) for name in entries} == before
    arguments = warm.play_arguments(kernel, kernel.config_record(config))
    for name in entries:
        assert warm.is_cached_on_disk(getattr(kernel, name), warm.signature(arguments[name]))


@jit_only
def test_the_helper_process_caches_legal_and_policy_where_this_process_finds_them() -> None:
    game = simlab.get_game("roma")
    done = subprocess.run([sys.executable, "-m", "simlab.core.warmup", "roma"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    kernel = game.kernel
    arguments = warm.play_arguments(kernel, kernel.config_record(game.make_config()))
    for name in warm.HELPER_ENTRIES:
        dispatcher = getattr(kernel, name)
        sig = warm.signature(arguments[name])
        assert warm.is_cached_on_disk(dispatcher, sig)
        fresh = type(dispatcher)(py_func=dispatcher.py_func, locals={}, targetoptions={"nopython": True})
        fresh.enable_caching()  # a dispatcher with nothing in memory: only the disk can answer
        assert warm.is_cached_on_disk(fresh, sig)


def test_no_helper_when_one_core_is_asked_for_or_nothing_is_left_to_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    game = simlab.get_game("roma")
    config = game.make_config()
    kernel = game.compile_for(config, game.make_bots(game.default_lineup(config.players), config.players))
    cfg = kernel.config_record(config)
    assert not warm.helper_wanted(kernel, cfg)  # compiled above
    monkeypatch.setattr(warm, "is_cached_on_disk", lambda dispatcher, sig: False)
    monkeypatch.setattr(warm, "_cores", lambda: 2)
    assert warm.helper_wanted(kernel, cfg) != numba.config.DISABLE_JIT
    monkeypatch.setenv("SIMLAB_COMPILE_JOBS", "1")
    assert not warm.helper_wanted(kernel, cfg)
    monkeypatch.delenv("SIMLAB_COMPILE_JOBS")
    monkeypatch.setattr(warm, "_cores", lambda: 1)
    assert not warm.helper_wanted(kernel, cfg)


class _Helper:
    """A stand-in for the helper process that records how it was treated."""

    started: ClassVar[list[_Helper]] = []

    def __init__(self, argv: list[str], **_: object) -> None:
        self.argv = argv
        self.killed = False
        _Helper.started.append(self)

    def wait(self) -> int:
        return 0

    def kill(self) -> None:
        self.killed = True


def test_an_interrupt_while_compiling_kills_the_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    game = simlab.get_game("massilia")
    kernel = game.kernel
    monkeypatch.setattr(warm, "helper_wanted", lambda kernel, cfg: True)
    monkeypatch.setattr(warm.subprocess, "Popen", _Helper)
    monkeypatch.setattr(warm, "_READY", set())

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_Helper, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        warm.compile_for_play("massilia", kernel, kernel.config_record(game.make_config()), search=True)
    helper = _Helper.started[-1]
    assert helper.killed
    assert helper.argv[-2:] == ["massilia", "--search"]


CHECK_LOADS = """
import simlab
from simlab.core.loop import KIND_SEARCH
game = simlab.get_game("roma")
config = game.make_config()
n = config.players
game.play_batch(config, [5], game.make_bots(game.default_lineup(n), n))
game.play_batch(config, [5], game.make_bots(["ismcts:iterations=6"] + ["builder"] * (n - 1), n))
plain, searching = game.kernel, game.kernel.for_kinds([KIND_SEARCH])
misses = sum(sum(k.play_many.stats.cache_misses.values()) for k in (plain, searching))
hits = sum(sum(k.play_many.stats.cache_hits.values()) for k in (plain, searching))
print(misses, hits)
"""


@jit_only
def test_compile_games_leaves_the_batch_loops_cached_for_a_fresh_process() -> None:
    """`make warm` (and `make test` before the suite) compiles every loop a run or a search bot uses: a fresh
    process then loads both batch loops from numba's cache and compiles neither."""
    seconds = warmup.compile_games(["roma"], jobs=1)
    assert list(seconds) == ["roma"] and seconds["roma"] > 0, "the warm-up process failed"
    done = subprocess.run([sys.executable, "-c", CHECK_LOADS], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    misses, hits = map(int, done.stdout.split())
    assert (misses, hits) == (0, 2)


def test_compile_games_starts_the_largest_game_first(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []

    def fake_run(argv, **kwargs):
        started.append(argv[-1])
        return subprocess.CompletedProcess(argv, 1 if argv[-1] == "roma" else 0)

    monkeypatch.setattr(warmup.subprocess, "run", fake_run)
    monkeypatch.setattr(warmup.numba.config, "DISABLE_JIT", False)
    seconds = warmup.compile_games(GAMES, jobs=1)
    assert started == sorted(GAMES, key=warmup._source_bytes, reverse=True)
    assert seconds["roma"] <= 0 < min(s for name, s in seconds.items() if name != "roma")  # a failure is negative
