"""Facts declared once (``simlab.core.facts``) generate exactly the columns, dtypes, values and schema the
hand-written ``fact_columns``/``fact_schema`` produced (snapshot ``tests/games/golden/facts_columns.json``,
taken from them on a few games before they were replaced; the Massilia values re-taken once for rules
massilia-1.2, whose Venus choice changes the random seats' play, with columns, dtypes and schema unchanged; Roma's
two chance columns dice_luck and battle_luck appended after the others, which kept their values),
and a role map that finds those columns."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import pytest

from simlab.core.facts import Roles
from simlab.core.registry import get_game

SNAPSHOT = json.loads((Path(__file__).parents[1] / "games" / "golden" / "facts_columns.json").read_text())
CASES = {
    "massilia_4": ("massilia", ["trader", "priest", "random", "trader"], 4),
    "massilia_3": ("massilia", ["random", "priest", "trader"], 3),
    "roma_2": ("roma", ["builder", "warrior"], 2),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_declared_facts_give_todays_columns(case: str) -> None:
    name, bots, players = CASES[case]
    game = get_game(name)
    config = game.make_config(players=players)
    records = game.play_batch(config, list(range(1, 9)), game.make_bots(bots, players))
    cols = game.fact_columns(records, config)
    want = SNAPSHOT[case]
    assert list(cols) == want["columns"]
    assert [str(v.dtype) for v in cols.values()] == want["dtypes"]
    assert [zlib.crc32(np.ascontiguousarray(v).tobytes()) for v in cols.values()] == want["crc"]
    assert game.fact_schema(config) == want["schema"]
    assert list(game.fact_schema(config)) == list(cols)  # one description per column, same order
    assert set(game.fact_set.dtypes(config)) == set(cols)


def test_schema_follows_the_config() -> None:
    game = get_game("massilia")
    five = game.fact_schema(game.make_config(overrides={"rounds": 5}))
    assert "money_r5" in five and "money_r6" not in five
    assert "price_temple_r5" in five and "price_temple_r6" not in five


@pytest.mark.parametrize("name", ["massilia", "roma"])
def test_role_map_matches_the_declarations(name: str) -> None:
    """The role map written at run time equals the one matched from the column names (older folders)."""
    game = get_game(name)
    config = game.make_config()
    manifest = game.fact_manifest(config)
    matched = game.fact_set.match(list(game.fact_schema(config)))
    assert matched == manifest["roles"]
    roles = Roles(manifest, name)
    assert roles.column("money.start") == "start_money"
    assert roles.columns("card.played")  # every game declares its cards


def test_massilia_roles() -> None:
    game = get_game("massilia")
    roles = Roles(game.fact_manifest(game.make_config()), "massilia")
    assert roles.by_round("score.round") == {r: f"score_r{r}" for r in range(1, 8)}
    price = roles.entries("market.price")
    assert price[0] == {
        "column": "price_temple_r1",
        "per": "game",
        "unit": "money",
        "at": {"round": 1, "location": "temple"},
    }
    assert roles.by_item("card.played")["venus"] == "played_venus"
    assert roles.columns("market.demand")[:3] == ["marker_pink_r1", "marker_orange_r1", "marker_purple_r1"]
    assert roles.units.money_plural == "sesterces"
    assert roles.intervention("card")["knob"] == "bonus_card"


def test_roma_roles() -> None:
    game = get_game("roma")
    roles = Roles(game.fact_manifest(game.make_config()), "roma")
    assert not roles.has("market.price") and not roles.has("score.round")
    assert roles.missing("market.price", "money.start") == ["market.price"]
    assert roles.by_item("card.played")["forum"] == "laid_forum"
    assert roles.units.points == "VP" and roles.units.money_plural == "sestertii"
    assert {i["kind"] for i in roles.interventions} == {"card", "money", "points"}


def test_a_token_stack_market_uses_the_same_roles(tmp_path) -> None:
    """A Merchant-of-Venus-like market (per culture and round the top demand token low/active/high, the
    price it sets, units sold, realised prices; per seat who sold) declared with the same roles runs through
    the same market analyses."""
    from types import SimpleNamespace

    import polars as pl

    from simlab import analysis as A
    from simlab.analysis.frames import remember
    from simlab.core.facts import Axis, Fact, FactSet, Units, rounds_axis

    culture = Axis("culture", ("qossuth", "whynom", "eeepeeep"))
    rnd = rounds_axis()
    facts = FactSet(
        [
            Fact(
                "token_{culture}_r{round}", "token", "top token at {culture}", "market.demand", "game", (rnd, culture)
            ),
            Fact("price_{culture}_r{round}", "price", "price level", "market.price", "game", (rnd, culture)),
            Fact("sold_{culture}_r{round}", "sold", "units sold", "market.sale", "game", (rnd, culture)),
            Fact("sold_at_{culture}", "seat_sold", "units the seat sold", "market.seat_sold", "seat", (culture,)),
            Fact("sales_money", "income", "credits from sales", "market.income", "seat", (), unit="money"),
            Fact("sales_fame", "fame", "fame from sales", "market.income_points", "seat", (), unit="points"),
        ],
        Units("credit", "credits", "credits", "fame point", "fame points", "fame"),
    )
    config = SimpleNamespace(players=2, rounds=4)
    rng = np.random.default_rng(1)
    games = 60
    records = {
        "token": rng.integers(0, 3, size=(games, 4, 3)),
        "price": rng.integers(1, 4, size=(games, 4, 3)),
        "sold": rng.integers(0, 3, size=(games, 4, 3)),
        "seat_sold": rng.integers(0, 5, size=(games, 2, 3)),
        "income": rng.integers(0, 90, size=(games, 2)),
        "fame": rng.integers(0, 4, size=(games, 2)),
    }
    cols = facts.columns(records, config)
    share = rng.random(games)
    rows = pl.DataFrame(
        {
            "variant": ["a"] * (2 * games),
            "game": np.repeat(np.arange(games), 2),
            "seat": np.tile(np.arange(2), games),
            "bot": ["x"] * (2 * games),
            "win_share": np.stack([share, 1 - share], 1).reshape(-1),
            **cols,
        }
    )
    rows.write_parquet(tmp_path / "rows.parquet")
    lf = pl.scan_parquet(tmp_path / "rows.parquet")
    remember(lf, roles=Roles(facts.manifest(config), "venus-like"))
    assert A.has_market(lf)
    summary = A.market_summary(lf, floor=0)
    assert set(summary.trajectories["series"]) == {"price", "demand", "sold"}
    assert set(summary.collapses["item"]) == {"qossuth", "whynom", "eeepeeep"}
    want = (rows.filter(pl.col("seat") == 0).select(pl.min_horizontal(pl.col("^token_qossuth_r.*$")) == 0)).mean()
    got = summary.collapses.filter(pl.col("item") == "qossuth")["collapse_rate"][0]
    assert got == pytest.approx(want.item())
    assert summary.sale_yield is not None and summary.sale_yield["rows"][0] == 2 * games


def test_a_missing_source_value_is_a_null_in_the_results() -> None:
    """``Fact.missing``: the source's sentinel (or NaN) entries become nulls in the runner's Arrow columns
    and None in ``tolist()``; the other entries keep their values and dtype."""
    from types import SimpleNamespace

    from simlab.core.facts import Axis, Fact, FactSet, Units
    from simlab.run.chunk import arrow_column

    item = Axis("culture", ("a", "b"))
    facts = FactSet(
        [
            Fact("token_{culture}", "token", "top token", "market.demand", "game", (item,), "int8", "level", -1),
            Fact(
                "price_{culture}",
                "price",
                "mean price",
                "market.sale_price",
                "game",
                (item,),
                "float64",
                "money",
                np.nan,
            ),
            Fact("plain_{culture}", "token", "no sentinel", None, "game", (item,)),
        ],
        Units("credit", "credits", "credits", "fame point", "fame points", "fame"),
    )
    records = {"token": np.array([[2, -1], [-1, 0]]), "price": np.array([[1.5, np.nan], [np.nan, 3.0]])}
    cols = facts.columns(records, SimpleNamespace(players=2))
    assert cols["token_a"].tolist() == [2, 2, None, None] and cols["token_b"].tolist() == [None, None, 0, 0]
    assert cols["price_a"].tolist() == [1.5, 1.5, None, None]
    assert cols["token_a"].dtype == np.int8 and cols["plain_b"].tolist() == [-1, -1, 0, 0]
    arrow = arrow_column(cols["token_b"])
    assert arrow.null_count == 2 and arrow.to_pylist() == [None, None, 0, 0]
    assert arrow_column(cols["price_a"]).to_pylist() == [1.5, 1.5, None, None]


def test_each_game_names_what_its_card_intervention_grants():
    """The reader's noun comes from the game (a god is not a card), "card" only when undeclared."""
    from simlab.core.facts import Roles
    from simlab.core.registry import get_game

    expected = {"massilia": "cards", "roma": "cards", "pantheon": "gods", "merchant_of_venus": "items"}
    for name, nouns in expected.items():
        game = get_game(name)
        roles = Roles(game.fact_manifest(game.make_config()))
        assert roles.noun(plural=True) == nouns
        assert roles.noun() == nouns[:-1]
    assert Roles(None).noun() == "card"


def test_not_available_says_what_the_game_does_not_record_not_its_role_names():
    from simlab.core.facts import not_available

    text = not_available("market analysis", "role", ["market.price", "market.demand"], "roma")
    assert text == (
        "market analysis is not available for this game: game 'roma' does not record market prices by round "
        "or market demand by round"
    )
    assert "market.price" not in text and "role" not in text
    assert not_available("compensation", "money intervention", [], "roma").endswith("declares no money intervention")
