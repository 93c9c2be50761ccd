"""Merchant of Venus's facts (facts.py) and the record series they read: the columns and their roles in a
``simlab run`` folder, the seat, market and report commands on it, the per-round and per-culture series
filled by the rules (worked examples on the position builder), and the two interventions (a seat's purse
offset; one equipment item or race tech for a seat) in the config record and the starting state."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from simlab.cli import cli
from simlab.core.facts import Roles
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.config import BONUS_ITEMS, MerchantOfVenusConfig
from simlab.games.merchant_of_venus.facts import CULTURE_KEYS, FACTS, SOURCES
from simlab.games.merchant_of_venus.game import GAME
from simlab.games.merchant_of_venus.position import position
from simlab.run.reader import load_manifest
from simlab.run.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]
NILLIS, PERFUME, GENES = 0, 0, 11
CITY = "Southern Comfort"  # a Colony World city

SCENARIO = """
description = "a small Merchant of Venus run for the facts tests"
game = "merchant_of_venus"
players = 3
games = 60
seed = 77
chunk_size = 30
lineup = ["random", "random", "random"]

[variants.rulebook]
set = { rounds = 6 }

[variants.frozen]
set = { rounds = 6, market_shifts = false }
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    from simlab.run.runner import run_scenario

    base = tmp_path_factory.mktemp("mov_facts")
    path = base / "mov_small.toml"
    path.write_text(SCENARIO)
    return run_scenario(path, jobs=1, out=base / "results", progress=False)


@pytest.fixture(scope="module")
def rows(folder) -> pl.DataFrame:
    return pl.read_parquet(folder / "**" / "*.parquet")


def test_the_fact_columns_are_in_the_run_with_their_roles(folder, rows) -> None:
    manifest = load_manifest(folder)
    facts = manifest["facts"]
    roles = Roles(facts, "merchant_of_venus")
    config = GAME.make_config(players=3, overrides={"rounds": 6})
    assert set(GAME.fact_schema(config)) <= set(rows.columns)
    for role in (
        "money.start",
        "money.final",
        "money.round",
        "points.round",
        "score.round",
        "money.source",
        "market.demand",
        "market.price",
        "market.sale",
        "market.sale_price",
        "market.shifted_by",
        "market.seat_bought",
        "market.seat_sold",
        "market.seat_shifts",
        "market.income",
        "market.income_points",
        "board.ports",
        "board.discovered",
    ):
        assert roles.has(role), role
        assert all(c in rows.columns for c in roles.columns(role)), role
    assert roles.column("money.start") == "start_credits"
    assert sorted(roles.by_round("money.round")) == list(range(1, 7))
    assert {str(e["at"]["culture"]) for e in roles.entries("market.demand")} == set(CULTURE_KEYS)
    assert [e["at"]["source"] for e in roles.entries("money.source")] == list(SOURCES)
    assert {i["kind"]: i["knob"] for i in facts["interventions"]} == {"card": "bonus_item", "money": "purse_offset"}
    assert facts["units"]["money_plural"] == "credits"


def test_the_run_columns_hold_the_games_values(rows) -> None:
    """Starting purses by turn position (seat 0 starts), the round series ending in the final credits, nulls
    for undiscovered markets, sales adding up between the per-culture and the per-seat columns."""
    rule = rows.filter(pl.col("variant") == "rulebook")
    purses = rule.group_by("seat").agg(pl.col("start_credits").unique()).sort("seat")["start_credits"].to_list()
    assert purses == [[60], [60], [80]]
    assert (rule["turn_position"] == rule["seat"]).all()
    # score_r6 (no Fuzzy Dice roll) equals the final credits unless Fuzzy Dice were rolled
    no_dice = rule.filter(pl.col("final_fame") == pl.col("fame_r6"))
    assert (no_dice["score_r6"] == no_dice["final_credits"]).all()
    seat0 = rule.filter(pl.col("seat") == 0)
    tokens = seat0.select(pl.col("^token_.*_r6$"))
    assert tokens.null_count().sum_horizontal().item() > 0, "some markets are still undiscovered after 6 rounds"
    values = {v for c in tokens.columns for v in tokens[c].drop_nulls().to_list()}
    assert values <= {0, 1, 2} and values
    per_culture = seat0.select(pl.sum_horizontal(pl.col("^sales_.*_r\\d+$"))).to_series()
    per_seat = rule.group_by("game").agg(pl.sum_horizontal(pl.col("^sold_at_.*$")).sum()).sort("game")
    assert per_culture.to_list() == per_seat.to_series(1).to_list()
    assert (per_seat.to_series(1) > 0).any(), "the random bots sold something"
    frozen = rows.filter((pl.col("variant") == "frozen") & (pl.col("seat") == 0))
    assert frozen.select(pl.col("^shifted_by_.*$")).null_count().sum_horizontal().item() == frozen.height * 14 * 6


def test_seats_markets_and_report_commands_work_on_a_small_folder(folder, tmp_path) -> None:
    runner = CliRunner()
    seats = runner.invoke(cli, ["seats", str(folder)])
    assert seats.exit_code == 0, seats.output
    assert "seat 2" in seats.output and "rulebook" in seats.output
    markets = runner.invoke(cli, ["markets", str(folder)])
    assert markets.exit_code == 0, markets.output
    assert "nillis" in markets.output and "realised per unit sold" in markets.output
    html = tmp_path / "mov.html"
    report = runner.invoke(cli, ["report", str(folder), "--out", str(html)])
    assert report.exit_code == 0, report.output
    assert html.stat().st_size > 10_000
    cards = runner.invoke(cli, ["cards", str(folder)])  # no control variant here: a plain error, no traceback
    assert "Traceback" not in cards.output


def test_a_sale_and_the_shift_it_causes_are_recorded_for_the_round() -> None:
    st = position(
        0,
        phase="trade",
        overrides={"players": 2},
        round_no=4,
        at={0: CITY},
        cultures={"Colony World": "Nillis"},
        discovered=["Colony World"],
        top={"Nillis": "high"},
        cargo={0: {"Designer Genes": 1}},
    )
    s = st.record[0]
    price = st.config.good_resale[3 * GENES + R.TOKEN_HIGH]
    st.apply(R.ACTIONS.encode("sell", GENES))
    st.apply(R.A_DONE)
    assert (int(s["f_sales_r"][3, NILLIS]), int(s["f_sale_sum_r"][3, NILLIS])) == (1, price)
    assert int(s["f_sold_good"][0, GENES]) == 1 and int(s["f_sold_at"][0, NILLIS]) == 1
    assert int(s["f_shifter_r"][3, NILLIS]) == 0 and int(s["f_shifts_made"][0, NILLIS]) == 1
    assert int(s["f_shifter_r"][2, NILLIS]) == -1, "no shift in round 3"
    cols = GAME.fact_columns(st.record, st.config)
    assert cols["sale_price_nillis_r4"].tolist() == [price, price]
    assert cols["shifted_by_nillis_r4"].tolist() == [0, 0]
    assert cols["sale_price_nillis_r3"].tolist() == [None, None]


def test_frozen_markets_keep_the_top_token_and_record_no_shift() -> None:
    st = position(
        0,
        phase="trade",
        overrides={"players": 2, "market_shifts": False},
        at={0: CITY},
        cultures={"Colony World": "Nillis"},
        discovered=["Colony World"],
        top={"Nillis": "low"},
        cargo={0: {"Designer Genes": 1}},
    )
    s = st.record[0]
    st.apply(R.ACTIONS.encode("sell", GENES))
    st.apply(R.A_DONE)
    assert int(R.top_token(s, NILLIS)) == R.TOKEN_LOW and int(s["stack_seen"][NILLIS]) == 1
    assert int(s["f_sales_r"][0, NILLIS]) == 1 and int(s["f_shifter_r"][0, NILLIS]) == -1


def test_the_round_end_records_credits_fame_score_and_top_tokens() -> None:
    """The last turn of round 2 (seat 1 started it): skipping at Galactic Base ends the round."""
    st = position(
        0,
        overrides={"players": 2, "rounds": 5},
        first=1,
        round_no=2,
        credits={0: 130, 1: 70},
        fame_tokens={0: 3},
        ports={1: ["cw_loop_1"]},
        cultures={"Colony World": "Nillis"},
        discovered=["Colony World"],
        top={"Nillis": "active"},
    )
    st.apply(R.A_SKIP)
    st.apply(R.A_DONE)
    s = st.record[0]
    assert int(s["round_no"]) == 3
    fame0 = R.fame_before_dice(s, st.cfg[0], 0)
    assert fame0 >= 3  # the 3 fame tokens and the dashboard's fame
    assert (int(s["f_credits_r"][0, 1]), int(s["f_fame_r"][0, 1])) == (130, fame0)
    assert int(s["f_score_r"][0, 1]) == 130 + 10 * fame0
    fame1 = R.fame_before_dice(s, st.cfg[0], 1)
    assert int(s["f_score_r"][1, 1]) == 70 + 200 + 10 * fame1, "a port counts its end value"
    assert int(s["f_top_r"][1, NILLIS]) == R.TOKEN_ACTIVE
    assert int(s["f_top_r"][1, 1]) == -1, "Volois is undiscovered"


# -- interventions -------------------------------------------------------------------------------------
def _start(**overrides) -> np.void:
    st = GAME.new_state(GAME.make_config(overrides={"players": 4, **overrides}), seed=3)
    while st.decision_name() == "set the dials":
        st.apply(R.A_LASER_HIGH)
    return st


def test_the_interventions_are_declared_with_their_knobs() -> None:
    kinds = {i.kind: i for i in FACTS.interventions}
    assert kinds["money"].knob == "purse_offset"
    assert (kinds["card"].knob, kinds["card"].seat_knob, kinds["card"].none) == (
        "bonus_item",
        "bonus_item_seat",
        "none",
    )
    fields = MerchantOfVenusConfig.field_names()
    assert {"purse_offset", "bonus_item", "bonus_item_seat"} <= set(fields)


def test_purse_offset_reaches_the_record_and_the_starting_purse() -> None:
    base = GAME.kernel.config_record(GAME.make_config())
    moved = GAME.kernel.config_record(GAME.make_config(overrides={"purse_offset": (0, 0, -25, 15)}))
    assert moved[0]["purse_offset"].tolist() == [0, 0, -25, 15] and base[0]["purse_offset"].tolist() == [0] * 4
    s = _start(purse_offset=(0, 0, -25, 15)).record[0]
    assert s["credits"][:4].tolist() == [80, 80, 75, 135] and s["start_credits"][:4].tolist() == [80, 80, 75, 135]


def test_a_negative_purse_is_refused() -> None:
    from simlab.core.errors import ConfigError

    with pytest.raises(ConfigError, match="purse_offset"):
        GAME.make_config(overrides={"purse_offset": (-81, 0, 0, 0)})


@pytest.mark.parametrize(
    ("item", "check"),
    [
        ("laser", lambda s, t: int(s["laser"][2]) == int(t["laser"][2]) + 1),
        ("shield", lambda s, t: int(s["shield"][2]) == int(t["shield"][2]) + 1),
        ("hold", lambda s, t: int(s["holds"][2]) == 3 and int(t["holds"][2]) == 2),
        ("red_drive", lambda s, t: int(s["drive"][2]) == 2 and int(t["drive"][2]) == 0),
        ("combined_drive", lambda s, t: int(s["drive"][2]) == 3),
        ("thrust_booster", lambda s, t: int((s["tech_owner"] == 2).sum()) == 1 and int(s["upgrades"][2]) == 0),
        ("generic_upgrade_4", lambda s, t: int((s["tech_owner"] == 2).sum()) == 1 and int(s["upgrades"][2]) == 1),
    ],
)
def test_bonus_item_gives_the_seat_the_item_at_the_start(item, check) -> None:
    s = _start(bonus_item=item, bonus_item_seat=2).record[0]
    control = _start().record[0]
    assert check(s, control)
    for p in (0, 1, 3):  # nobody else
        for f in ("laser", "shield", "holds", "drive", "upgrades"):
            assert int(s[f][p]) == int(control[f][p]), (item, f, p)
    assert int((s["tech_owner"] >= 0).sum()) == (1 if item in ("thrust_booster", "generic_upgrade_4") else 0)


def test_a_bonus_tech_is_taken_from_its_cultures_tokens_and_owned() -> None:
    st = _start(bonus_item="thrust_booster", bonus_item_seat=1)
    s, c = st.record[0], st.cfg[0]
    assert R.owns_effect(s, c, 1, R.FX_THRUST_BOOSTER) and not R.owns_effect(s, c, 0, R.FX_THRUST_BOOSTER)


def test_bonus_item_reaches_the_config_record() -> None:
    records = {
        item: GAME.kernel.config_record(GAME.make_config(overrides={"bonus_item": item, "bonus_item_seat": 1}))[0]
        for item in BONUS_ITEMS
    }
    assert len({int(r["bonus_item"]) for r in records.values()}) == len(BONUS_ITEMS)
    assert int(records["none"]["bonus_item"]) == -1 and int(records["laser"]["bonus_seat"]) == 1


def test_start_player_fixes_the_seat_that_starts_and_minus_one_draws_it() -> None:
    config = GAME.make_config(overrides={"players": 4})
    assert config.start_player == 0
    assert {int(GAME.new_state(config, seed).record[0]["first"]) for seed in range(12)} == {0}
    drawn = GAME.make_config(overrides={"players": 4, "start_player": -1})
    assert len({int(GAME.new_state(drawn, seed).record[0]["first"]) for seed in range(40)}) == 4


# -- scenarios --------------------------------------------------------------------------------------------
SCENARIOS = sorted((ROOT / "scenarios").glob("mov_*.toml"))


def test_the_scenarios_are_shipped() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"mov_seats_and_purse", "mov_market_shifts", "mov_sensitivity"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_each_scenario_loads(path: Path) -> None:
    sc = load_scenario(path)
    # a fix question starts from one published rules (its [fix] table holds the alternatives); any other
    # scenario compares variants
    assert sc.game == "merchant_of_venus" and len(sc.variants) >= (1 if sc.fix else 2)
    assert len({v.config_hash for v in sc.variants}) == len(sc.variants), "two variants play the same config"
