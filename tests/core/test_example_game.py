"""The example game Pig (tests/examples/pig) is a whole game on the kit: registered for the test, it runs
through the runner into a result folder with its declared facts and roles, and the seat analysis reads it.
(The contract suite, tests/core/test_contract.py, plays it with the registered games.)"""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli
from simlab.core import registry

SCENARIO = """
description = "Pig: does going first pay, hold-at-20 against a random roller?"
game = "pig"
players = 2
games = 400
seed = 5
chunk_size = 100
lineup = ["holder", "holder"]

[variants.plain]
description = "the folk rules"

[variants.head_start]
description = "seat 1 starts with 10 points"
set = { start_points = [0, 10, 0, 0] }
"""


@pytest.fixture
def pig_registered(monkeypatch):
    monkeypatch.setitem(registry.BUILTIN_GAMES, "pig", "tests.examples.pig.game:GAME")
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


def test_pig_runs_into_a_result_folder_with_its_facts_and_roles(pig_registered, tmp_path) -> None:
    path = tmp_path / "pig.toml"
    path.write_text(SCENARIO)
    folder = simlab.run_scenario(path, jobs=1, out=tmp_path / "out", progress=False)
    rows = simlab.load_results(folder).collect()
    assert rows.height == 2 * 400 * 2
    assert {"start_points", "final_points", "rolls", "busts", "decisions"} <= set(rows.columns)
    head = rows.filter(pl.col("variant") == "head_start")
    assert head.filter(pl.col("seat") == 1)["start_points"].unique().to_list() == [10]
    roles = simlab.load_manifest(folder)["facts"]["roles"]
    assert [e["column"] for e in roles["points.final"]] == ["final_points"]
    shares = head.group_by("seat").agg(pl.col("win_share").mean()).sort("seat")["win_share"].to_list()
    assert shares[1] > shares[0]  # ten points ahead wins more often
    out = CliRunner().invoke(cli, ["seats", str(folder)])
    assert out.exit_code == 0, out.output
    assert "head_start" in out.output


def test_a_game_without_declared_default_bots_seats_its_heuristic_bots() -> None:
    """Game.default_lineup falls back to the game's compiled heuristic bots, never random's churn."""
    from tests.examples.pig.game import GAME

    assert GAME.default_bots == ()
    assert GAME.default_lineup(3) == ["holder", "holder", "holder"]
