"""Every analysis, chart and command on a small real result folder, and the clean "no market" answer."""

from __future__ import annotations

import math
import re

import polars as pl
import pytest
from click.testing import CliRunner

import simlab
from simlab import analysis as A
from simlab.analysis import NoMarketError
from simlab.cli import cli
from simlab.report import charts

MARKET_PREFIXES = ("price_", "marker_", "harbour_", "bag_", "round_bought_", "round_sold_", "sold_", "bought_", "sale_")


@pytest.fixture(scope="module")
def rows(real_folder) -> pl.LazyFrame:
    return simlab.load_results(real_folder)


@pytest.fixture(scope="module")
def no_market(rows) -> pl.LazyFrame:
    """The same rows without any market column: what a game without a market (Roma) would give."""
    return rows.select([c for c in rows.collect_schema().names() if not c.startswith(MARKET_PREFIXES)])


def test_seat_advantage(rows):
    df = A.seat_advantage(rows)
    assert df.height == 5 * 4
    assert (df["games"] == 160).all()
    assert ((df["win_share_lo"] <= df["win_share"]) & (df["win_share"] <= df["win_share_hi"])).all()
    assert df.group_by("variant").agg(pl.col("win_share").sum())["win_share"].to_list() == pytest.approx([1.0] * 5)
    assert df["p_equal"].is_between(0, 1).all()
    cmp = A.compare_variants(rows, "control")
    assert set(cmp["variant"]) == {"mercure_seat1", "pluton_seat2", "money2_seat3", "money4_seat3"}


def test_compensation_from_money_variants(rows):
    comp = A.compensation(rows)
    assert comp.fit["seat"].to_list() == [3]
    fit = comp.fit.row(0, named=True)
    assert fit["offsets"] == 3 and math.isfinite(fit["fair_offset"])
    assert fit["fair_lo"] <= fit["fair_hi"]


def test_card_value(rows, real_folder):
    df = A.card_value(rows)
    assert set(df["label"]) == {"mercure", "pluton", "money2", "money4"}
    money = df.filter(pl.col("kind") == "money")
    assert money["p_adjusted"].is_null().all() or money["p_adjusted"].is_nan().all()
    assert df["money_source"][0] == "paired money4 variants"
    assert df["played_win_share"].drop_nulls().len() >= 1  # observational view joined where a card matches
    from_manifest = A.card_value(real_folder)  # design read from the manifest's configs
    assert from_manifest.sort("label")["win_share_diff"].to_list() == pytest.approx(
        df.sort("label")["win_share_diff"].to_list()
    )


def test_markets(rows):
    traj = A.market_trajectories(rows)
    assert set(traj["series"]) == {"price", "demand", "bought", "sold", "supply"}
    assert (traj.filter(pl.col("series") == "price")["games"] == 160).all()
    col = A.demand_collapses(rows)
    assert set(col["item"]) == {"pink", "orange", "purple"}
    assert col["collapse_rate"].is_between(0, 1).all()
    assert A.sale_yield(rows)["money_per_cube"].min() > 0
    assert A.shift_winners(rows).height == 20


def test_metrics(rows):
    s = A.balance_summary(rows)
    assert (s["games"] == 160).all() and (s["margin"] >= 0).all()
    lead = A.lead_metrics(rows)
    assert lead["lead_from"].is_between(1, 7).all()
    assert A.leader_curve(lead).height == 5 * 7
    var = A.variance_decomposition(rows)
    shares = var.group_by("variant").agg(pl.col("share").sum())["share"]
    assert shares.to_list() == pytest.approx([1.0] * 5)
    assert A.distribution(rows, "turns", 5, per_game=True)["count"].sum() == 5 * 160
    assert A.score_summary(rows).height == 5


def test_no_market_answers_cleanly(no_market):
    assert not A.has_market(no_market)
    for f in (A.market_trajectories, A.demand_collapses, A.sale_yield, A.shift_winners):
        with pytest.raises(NoMarketError, match="this game has no market"):
            f(no_market)
    # everything that does not need a market still works
    assert A.seat_advantage(no_market).height == 20
    assert A.balance_summary(no_market).height == 5
    assert A.card_value(no_market).height == 4
    assert A.lead_metrics(no_market).height == 5


def test_charts_draw(rows, tmp_path):
    figs = {
        "seats": charts.seat_win_shares(A.seat_advantage(rows)),
        "comp": charts.compensation_curve(A.compensation(rows)),
        "cards": charts.card_value_forest(A.card_value(rows)),
        "market": charts.market_trajectories(A.market_trajectories(rows), "price"),
        "bought": charts.market_trajectories(A.market_trajectories(rows), "bought"),
        "scores": charts.distribution(A.distribution(rows, "score", 5)),
        "lead": charts.leader_curve(A.leader_curve(A.lead_metrics(rows))),
        "luck": charts.variance_shares(A.variance_decomposition(rows)),
    }
    for name, fig in figs.items():
        path = tmp_path / f"{name}.png"
        charts.save(fig, str(path))
        assert path.stat().st_size > 10_000
        texts = [t.get_text() for ax in fig.axes for t in ax.texts]
        assert any("games" in t or "Bins" in t for t in texts), name


def test_caption_names_games_bots_and_interval(rows):
    text = charts.caption(A.seat_advantage(rows))
    assert "160 games" in text and "priest, trader" in text and "interval" in text


@pytest.mark.parametrize("command", ["seats", "cards", "markets", "balance", "compensation"])
def test_cli_analysis_commands(real_folder, command, tmp_path):
    chart = tmp_path / f"{command}.png"
    result = CliRunner().invoke(cli, [command, str(real_folder), "--chart", str(chart)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert chart.exists()
    assert re.search(r"\[[-+]?\d", result.output)  # intervals are printed


def test_cli_no_market_is_not_available(no_market, tmp_path):
    """A game without a market: "not available for this game", saying the missing roles in plain words (never
    their internal names, 31ff1a5); not an error."""
    folder = tmp_path / "nomarket"
    (folder / "parts").mkdir(parents=True)
    no_market.collect().write_parquet(folder / "parts" / "all.parquet")
    result = CliRunner().invoke(cli, ["markets", str(folder)])
    assert result.exit_code == 0
    assert result.output.startswith("this game has no market: market analysis is not available for this game")
    assert "does not record market prices by round or market demand by round" in result.output
    assert "market.price" not in result.output and "market.demand" not in result.output
    assert "Traceback" not in result.output and "error:" not in result.output


def test_cli_markets_without_sales_says_so(real_folder, tmp_path):
    """Markers but no sales columns: the one market pass still runs, and the command names what is missing."""
    folder = tmp_path / "nosales"
    (folder / "parts").mkdir(parents=True)
    rows = A.as_lazy(real_folder).collect()
    rows.drop([c for c in rows.columns if c.startswith("sold_")]).write_parquet(folder / "parts" / "all.parquet")
    result = CliRunner().invoke(cli, ["markets", str(folder)])
    assert result.exit_code == 0
    assert "collapse %" in result.output  # the collapses are still shown
    assert "this game records no sales per seat: the yield per unit sold is not available" in result.output
    assert "does not record" in result.output and "market.seat_sold" not in result.output  # plain words (31ff1a5)
    assert "Traceback" not in result.output and "error:" not in result.output


def test_cli_compensate_spends_few_games(real_folder):
    result = CliRunner().invoke(
        cli,
        [
            "compensate",
            "massilia",
            "--seat",
            "3",
            "--bots",
            "trader,priest,trader,priest",
            "--width",
            "0.5",
            "--max-games",
            "600",
            "--batch",
            "100",
            "--seed",
            "3",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"fair start_money offset for seat 3: .*games spent", result.output)
    assert "600 games spent" in result.output or "converged" in result.output


def test_cli_compensate_refuses_a_scalar_knob():
    result = CliRunner().invoke(cli, ["compensate", "massilia", "--seat", "0", "--knob", "rounds"])
    assert result.exit_code == 2
    assert "error: knob 'rounds' is not a per-seat number" in result.output  # the same words as without --seat


def test_compensate_gives_the_same_games_with_two_workers(real_folder, tmp_path):
    from simlab.analysis.adaptive import as_compensation
    from simlab.experiments.adaptive import find_fair_offset
    from simlab.experiments.knob_search import KnobSearch

    game = simlab.get_game("massilia")
    config = game.make_config("rulebook")
    lineup = ["trader", "priest", "trader", "priest"]
    one = find_fair_offset(KnobSearch(game, config, "start_money", lineup, 40, 240, 5, jobs=1), 3)
    two = find_fair_offset(KnobSearch(game, config, "start_money", lineup, 40, 240, 5, jobs=2), 3)
    assert one.games == two.games == 240
    assert (one.win_share == two.win_share).all() and (one.offset == two.offset).all()
    fig = charts.compensation_curve(as_compensation(one, lineup))
    charts.save(fig, str(tmp_path / "adaptive.png"))


def test_cli_compensate_finds_a_whole_vector_and_confirms_it(real_folder):
    """The real engine, at small size: whole numbers for all seats, the race's record, and a confirmation run
    whose seat shares have intervals and an equal-seats test (JSON)."""
    import json

    args = ["compensate", "massilia", "--bots", "trader,priest,trader,priest", "--batch", "100"]
    args += ["--max-games", "2000", "--confirm-games", "400", "--seed", "3", "--json"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["command"] == "compensate" and answer["knob"] == "start_money"
    assert all(isinstance(v, int) and v >= 6 for v in answer["value"]) and min(answer["value"]) == 6
    conf = answer["tables"]["confirmation"]
    assert [r["seat"] for r in conf] == [0, 1, 2, 3] and all(r["games"] == 400 for r in conf)
    assert all(r["win_share_lo"] <= r["win_share"] <= r["win_share_hi"] for r in conf)
    assert 0 <= conf[0]["p_equal"] <= 1
    assert answer["games"] <= 2000
    assert any(r["chosen"] for r in answer["tables"]["candidates"])
    assert "confirming" in result.stderr  # progress goes to stderr


def test_compensate_vector_gives_the_same_answer_with_two_workers(real_folder):
    from simlab.experiments import fair_vector as fv
    from simlab.experiments.knob_search import KnobSearch

    game = simlab.get_game("massilia")
    config = game.make_config("rulebook")
    lineup = ["trader", "priest", "trader", "priest"]
    one, two = (
        fv.find_fair_vector(KnobSearch(game, config, "start_money", lineup, 60, 900, 5, jobs=jobs), confirm_games=120)
        for jobs in (1, 2)
    )
    assert one.value == two.value and one.games == two.games
    assert (one.confirmation.shares == two.confirmation.shares).all()
