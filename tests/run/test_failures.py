"""A failing game is logged with a replay command, not fatal; a failing write leaves no half-written file."""

from __future__ import annotations

import errno
import json
import os
import shlex

import polars as pl
import pytest
from conftest import SMALL, rows

import simlab
from simlab.core.bots import BotInfo
from simlab.core.errors import SimlabError
from simlab.run.errors import ResultWriteError, RunFailed
from simlab.run.runner import run_scenario
from simlab.run.seeds import game_seeds

GAME = simlab.get_game("massilia")
TINY = SMALL.replace("games = 60", "games = 12").replace("chunk_size = 25", "chunk_size = 5")
BAD_GAMES = {3, 8}


@pytest.fixture
def broken_games(monkeypatch):
    """Games 3 and 8 raise in the engine (the batch loop raises, and so does replaying them one by one)."""
    bad_seeds = {int(game_seeds(42, g, g + 1)[0]) for g in BAD_GAMES}
    real_batch, real_play = GAME.play_batch, GAME.play

    def play_batch(config, seeds, bots):
        if bad_seeds & {int(s) for s in seeds}:
            raise RuntimeError("engine failure somewhere in this batch")
        return real_batch(config, seeds, bots)

    def play(config, seed, bots, on_action=None):
        if int(seed) in bad_seeds:
            raise ValueError(f"bot crashed on seed {seed}")
        return real_play(config, seed, bots, on_action)

    monkeypatch.setattr(GAME, "play_batch", play_batch)
    monkeypatch.setattr(GAME, "play", play)
    return bad_seeds


def test_failing_games_are_logged_and_the_run_goes_on(broken_games, write_scenario, tmp_path):
    path = write_scenario(TINY)
    clean = rows(run_scenario(path, jobs=1, out=tmp_path / "clean", progress=False))
    folder = run_scenario(path, jobs=1, out=tmp_path / "out", progress=False)
    df = rows(folder)
    assert sorted(set(range(12)) - set(df["game"].unique().to_list())) == sorted(BAD_GAMES)
    # the other games of the failing chunks were replayed one by one, with the same result as the batch
    assert df.equals(clean.filter(~pl.col("game").is_in(list(BAD_GAMES))))

    failures = [json.loads(line) for line in (folder / "failures.jsonl").read_text().splitlines()]
    assert len(failures) == 4  # 2 games x 2 variants
    expected = {(v, g) for v in ("rulebook", "quined2014") for g in BAD_GAMES}
    assert {(f["variant"], f["game"]) for f in failures} == expected
    first = next(f for f in failures if f["variant"] == "quined2014" and f["game"] == 3)
    assert first["seed"] in broken_games and first["error"].startswith("ValueError: bot crashed on seed")
    assert first["bots"] == ["random", "random", "priest", "trader"]  # game 3: seat k gets lineup[(k - 3) % 4]
    assert shlex.split(first["replay"]) == [
        "simlab",
        "play",
        "massilia",
        "--players",
        "4",
        "--bots",
        "random,random,priest,trader",
        "--seed",
        str(first["seed"]),
        "--preset",
        "quined2014",
    ]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["games_failed"] == 4 and manifest["games_done"] == 20


def test_failures_survive_a_resume(broken_games, write_scenario, tmp_path):
    path = write_scenario(TINY)
    out = tmp_path / "out"
    run_scenario(path, games=6, jobs=1, out=out, progress=False)
    run_scenario(path, games=12, jobs=1, out=out, resume=True, progress=False)
    lines = (out / "failures.jsonl").read_text().splitlines()
    assert sorted((json.loads(x)["variant"], json.loads(x)["game"]) for x in lines) == sorted(
        (v, g) for v in ("rulebook", "quined2014") for g in BAD_GAMES
    ), "each failure once: neither lost nor duplicated"


def test_fail_fast_stops_at_the_first_failure(broken_games, write_scenario, tmp_path):
    path = write_scenario(TINY)
    out = tmp_path / "out"
    with pytest.raises(RunFailed, match=r"game 3 of variant 'rulebook' \(seed \d+\) failed: ValueError") as info:
        run_scenario(path, jobs=1, out=out, fail_fast=True, progress=False)
    assert "replay it with: simlab play massilia --players 4" in str(info.value)
    assert json.loads((out / "manifest.json").read_text())["status"] == "failed"
    assert json.loads((out / "failures.jsonl").read_text().splitlines()[0])["game"] == 3
    assert not list((out / "parts").glob("*.parquet")), "the failing chunk (games 0-4) is not written"
    assert not list(out.rglob("*.tmp")), "nor is its temporary file left behind"


def test_illegal_action_from_a_python_bot_is_a_logged_failure(write_scenario, tmp_path, monkeypatch):
    """A plain-Python bot that answers an illegal action: the game's IllegalActionError is logged."""
    info = BotInfo("cheater", f"{__name__}:cheater_bot", "plays action 99999 on odd seeds")
    monkeypatch.setitem(GAME.bots._infos, "cheater", info)
    text = TINY.replace('"priest"]', '"cheater"]').replace("games = 12", "games = 4")
    folder = run_scenario(write_scenario(text), jobs=1, out=tmp_path / "out", progress=False)
    failures = [json.loads(line) for line in (folder / "failures.jsonl").read_text().splitlines()]
    odd = [g for g in range(4) if game_seeds(42, g, g + 1)[0] % 2]
    assert sorted({f["game"] for f in failures}) == odd
    assert all(f["error"].startswith("IllegalActionError: massilia (seed") for f in failures)
    assert rows(folder)["game"].n_unique() == 4 - len(odd)


class _Cheater:
    def __init__(self, name: str):
        self.name = name

    def act(self, state, legal_actions, rng):
        return 99999 if state.seed % 2 else legal_actions[int(rng.integers(len(legal_actions)))]


def cheater_bot(name: str = "cheater") -> _Cheater:
    return _Cheater(name)


# -- write failures -------------------------------------------------------------------------------------
def test_a_failing_write_leaves_no_half_written_file(write_scenario, tmp_path, monkeypatch):
    """The disk fills up while the third part file is written: the error is clear and nothing half-written stays."""
    import pyarrow.parquet as pq

    from simlab.run import atomic_file

    real_fsync = atomic_file.os.fsync
    parts_written = {"n": 0}

    def full_disk(fd):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".parquet." + str(os.getpid()) + ".tmp"):
            parts_written["n"] += 1
            if parts_written["n"] == 3:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(atomic_file.os, "fsync", full_disk)
    out = tmp_path / "out"
    with pytest.raises(ResultWriteError, match=r"could not write .*\.parquet: No space left on device") as info:
        run_scenario(write_scenario(), jobs=1, out=out, progress=False)
    assert isinstance(info.value, SimlabError)
    parts = sorted(p.name for p in (out / "parts").iterdir())
    assert parts == ["quined2014__0000000000-0000000025.parquet", "rulebook__0000000000-0000000025.parquet"]
    assert not list(out.rglob("*.tmp")), "the temporary file is removed"
    for part in (out / "parts").glob("*.parquet"):
        assert pq.read_table(part).num_rows == 100, "what is there is whole"

    monkeypatch.setattr(atomic_file.os, "fsync", real_fsync)  # the disk has room again: resume finishes the run
    run_scenario(write_scenario(), jobs=1, out=out, resume=True, progress=False)
    assert rows(out).height == 2 * 60 * 4


def test_a_failing_manifest_write_keeps_the_old_manifest(write_scenario, tmp_path, monkeypatch):
    from simlab.run import atomic_file

    out = tmp_path / "out"
    run_scenario(write_scenario(), games=5, jobs=1, out=out, progress=False)
    before = (out / "manifest.json").read_text()
    real_replace = atomic_file.os.replace

    def broken_replace(src, dst):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(atomic_file.os, "replace", broken_replace)
    with pytest.raises(ResultWriteError, match=r"manifest\.json: Input/output error"):
        run_scenario(write_scenario(), games=10, jobs=1, out=out, resume=True, progress=False)
    monkeypatch.setattr(atomic_file.os, "replace", real_replace)
    assert (out / "manifest.json").read_text() == before
    assert not list(out.rglob("*.tmp"))
