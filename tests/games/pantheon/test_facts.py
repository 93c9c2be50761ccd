"""Pantheon's facts through a real run: the columns and their roles in a small `simlab run` folder, the sums
that tie them to the score, the analyses (`simlab seats`, `simlab cards`, `simlab report`) on small
Pantheon folders, and the shipped scenarios loading."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import simlab
from simlab.analysis.cards import design_from_manifest
from simlab.cli import cli
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.config import GOD_KEYS
from simlab.games.pantheon.facts import FACTS, POINT_SOURCES, ROUTES
from simlab.games.pantheon.game import GAME
from simlab.run.runner import run_scenario
from simlab.run.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ["pantheon_seats.toml", "pantheon_seats_2p.toml", "pantheon_seats_3p.toml"]
SCENARIOS += ["pantheon_god_value.toml", "pantheon_sensitivity.toml"]

GOD_VALUE = """
description = "tiny god-value run"
game = "pantheon"
players = 2
games = 60
seed = 77
chunk_size = 30
lineup = ["god_first", "god_first"]

[variants.control]
[variants.stonkus_seat0]
set = { start_god = "stonkus", start_god_seat = 0 }
[variants.stonkus_seat1]
set = { start_god = "stonkus", start_god_seat = 1 }
[variants.plaesiris_seat0]
set = { start_god = "plaesiris", start_god_seat = 0 }
[variants.plaesiris_seat1]
set = { start_god = "plaesiris", start_god_seat = 1 }
[variants.money2_seat0]
set = { extra_start_feet = [2, 0, 0, 0] }
[variants.money2_seat1]
set = { extra_start_feet = [0, 2, 0, 0] }
"""


@pytest.fixture(scope="module")
def god_value_folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pantheon_facts")
    scenario = root / "god_value.toml"
    scenario.write_text(GOD_VALUE)
    return run_scenario(scenario, jobs=1, out=root / "god_value", progress=False)


@pytest.fixture(scope="module")
def seats_folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pantheon_seats")
    return run_scenario(
        ROOT / "scenarios" / "pantheon_seats_3p.toml", games=30, chunk_size=30, jobs=1, out=root / "s", progress=False
    )


def test_the_facts_columns_and_their_roles_are_in_the_folder(god_value_folder):
    facts = simlab.load_manifest(god_value_folder)["facts"]
    config = GAME.make_config(players=2)
    assert facts["roles"] == GAME.fact_manifest(config)["roles"]
    assert facts["units"]["money_plural"] == "feet" and facts["units"]["points_plural"] == "points"
    assert {i["kind"]: i["knob"] for i in facts["interventions"]} == {
        "card": "start_god",
        "money": "extra_start_feet",
        "points": "start_points",
    }
    df = simlab.load_results(god_value_folder).collect()
    assert set(FACTS.schema(config)) <= set(df.columns)
    for role in ("points.source", "points.round", "card.played", "god.route", "god.era", "demigod.count"):
        assert facts["roles"][role], role
    for role in ("columns.scoring", "sacrifice.level", "action_card.drawn", "action_card.played"):
        assert facts["roles"][role], role
    for role in ("game.era_turns", "game.era_end", "setup.bonus_tile", "money.start", "points.start"):
        assert facts["roles"][role], role
    assert [e["column"] for e in facts["roles"]["points.source"]] == [f"points_{s}" for s in POINT_SOURCES]
    assert [e["column"] for e in facts["roles"]["columns.scoring"]] == ["columns_scoring1", "columns_scoring2"]


def test_points_by_source_and_the_start_points_sum_to_the_score(god_value_folder):
    df = simlab.load_results(god_value_folder).collect()
    total = pl.sum_horizontal([pl.col(f"points_{s}") for s in POINT_SOURCES]) + pl.col("start_points")
    assert df.select((total == pl.col("score")).all()).item()
    assert df.select((pl.col("points_era6") == pl.col("score")).all()).item()


def test_gods_by_god_route_and_era_add_up(god_value_folder):
    df = simlab.load_results(god_value_folder).collect()
    by_god = pl.sum_horizontal([pl.col(f"gods_{g}") for g in GOD_KEYS])
    by_era = pl.sum_horizontal([pl.col(f"gods_era{e}") for e in range(7)])
    checks = [by_god == pl.col("gods_gained"), by_era == pl.col("gods_gained")]
    for g in GOD_KEYS:
        checks.append(pl.sum_horizontal([pl.col(f"gods_{g}_{r}") for r in ROUTES]) == pl.col(f"gods_{g}"))
    turns = pl.sum_horizontal([pl.col(f"turns_era{e}") for e in range(1, 7)])
    checks.append(turns == pl.col("game_turns"))
    checks.append(pl.col("era_end_era1").is_in([R.END_LOOT, R.END_GODS, R.END_BOTH]))
    assert all(df.select(c.all()).item() for c in checks)
    given = df.filter(pl.col("variant") == "stonkus_seat1", pl.col("seat") == 1)
    assert given.select((pl.col("gods_stonkus_given") == 1).all()).item()
    assert (
        df.filter(pl.col("variant") == "control").select(pl.col("^gods_.*_given$").sum()).sum_horizontal().item() == 0
    )
    feet = df.filter(pl.col("variant") == "money2_seat0").group_by("seat").agg(pl.col("start_feet").unique())
    assert dict(zip(feet["seat"].to_list(), feet["start_feet"].to_list(), strict=True)) == {0: [6], 1: [4]}


def test_card_value_prices_the_gods_in_feet(god_value_folder):
    design = design_from_manifest(god_value_folder)
    assert sorted(set(design["label"])) == ["money2", "plaesiris", "stonkus"]
    result = CliRunner().invoke(cli, ["cards", str(god_value_folder)])
    assert result.exit_code == 0, result.output
    assert "stonkus" in result.output and "plaesiris" in result.output and "feet" in result.output
    assert "Traceback" not in result.output


def test_seats_and_report_work_on_small_pantheon_folders(seats_folder, god_value_folder, tmp_path):
    result = CliRunner().invoke(cli, ["seats", str(seats_folder)])
    assert result.exit_code == 0, result.output
    assert "seat 2" in result.output and "Traceback" not in result.output
    for folder in (seats_folder, god_value_folder):
        out = tmp_path / f"{folder.name}.html"
        result = CliRunner().invoke(cli, ["report", str(folder), "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 0 and "Traceback" not in result.output


def test_markets_and_compensation_say_not_available_or_not_a_sweep(seats_folder):
    markets = CliRunner().invoke(cli, ["markets", str(seats_folder)])
    assert markets.exit_code == 0 and "not available for this game" in markets.output, markets.output
    comp = CliRunner().invoke(cli, ["compensation", str(seats_folder)])
    assert "Traceback" not in comp.output and "extra_start_feet" in comp.output, comp.output


@pytest.mark.parametrize("name", SCENARIOS)
def test_each_scenario_loads(name):
    sc = load_scenario(ROOT / "scenarios" / name)
    assert sc.game == "pantheon" and all(v.config.players == sc.players for v in sc.variants)


def test_the_god_value_scenario_gives_every_god_to_every_seat_and_prices_feet_and_points():
    sc = load_scenario(ROOT / "scenarios" / "pantheon_god_value.toml")
    by_name = {v.name: v.config for v in sc.variants}
    assert by_name["control"].start_god_index() == (-1, -1)
    for g, key in enumerate(GOD_KEYS):
        for k in range(4):
            assert by_name[f"{key}_seat{k}"].start_god_index() == (g, k)
    for k in range(4):
        assert by_name[f"money2_seat{k}"].extra_start_feet[k] == 2
        assert by_name[f"points2_seat{k}"].start_points[k] == 2
    assert len(by_name) == 1 + 40 + 8


def test_the_sensitivity_scenario_sweeps_the_placeholders():
    sc = load_scenario(ROOT / "scenarios" / "pantheon_sensitivity.toml")
    by_name = {v.name: v.config for v in sc.variants}
    assert by_name["demigods_triangular"].demigods == "triangular"
    assert [by_name[f"level4_cost{x}"].sacrifice_tile_cost[3] for x in (8, 12)] == [8, 12]
    assert by_name["baseline"].sacrifice_tile_cost[3] == 10
    assert by_name["gods_permanent_weighted"].god_tiles == "permanent_weighted"
    # at 4 players the start stock by player count is the rulebook's, so its sweep is in the 2p/3p seat files
    four = GAME.make_config(players=4)
    assert four.replace(start_stock_by_player_count=True).stock() == four.stock()
    for name in ("pantheon_seats_2p.toml", "pantheon_seats_3p.toml"):
        variants = {v.name: v.config for v in load_scenario(ROOT / "scenarios" / name).variants}
        assert variants["bsw_stock"].stock() != variants["rulebook"].stock()
