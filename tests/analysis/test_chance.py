"""Control variates from declared chance facts (``simlab.analysis.chance``, ``seat_advantage(control_variates=True)``).

A chance fact carries its expectation (``Fact.expect``) into the role map; Roma declares its dice and battle luck
with expectation 0, which holds on the real engine; and the adjusted seat intervals cover the truth on a null
design of the real engine (each game's seats permuted at random, so every seat's true share is 1/2), while being
narrower than the plain ones.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simlab.analysis.cards import card_value
from simlab.analysis.frames import AnalysisError
from simlab.analysis.seats import compare_variants, seat_advantage
from simlab.core.facts import Fact, FactSet, Units
from simlab.core.registry import get_game
from simlab.run.scenario import rotated_lineup

LINEUP = ["builder", "warrior"]


def _roma_rows(games: int, seed: int = 0) -> pl.DataFrame:
    """Rows of ``games`` Roma games (rotated lineup) with their result and fact columns, game-major."""
    game = get_game("roma")
    cfg = game.make_config(players=2)
    frames = []
    for r in range(2):
        index = np.arange(r, games, 2)
        records = game.play_batch(cfg, (index + seed * games).tolist(), game.make_bots(rotated_lineup(LINEUP, r), 2))
        cols = game.result_columns(records, cfg) | game.fact_columns(records, cfg)
        frames.append(
            pl.DataFrame({k: cols[k] for k in ("score", "rank", "win_share", "dice_luck", "battle_luck")}).with_columns(
                pl.Series("game", np.repeat(index, 2)), pl.Series("seat", np.tile([0, 1], len(index)))
            )
        )
    return pl.concat(frames).sort("game", "seat")


@pytest.fixture(scope="module")
def roma_rows() -> pl.DataFrame:
    return _roma_rows(20_000)


def test_a_chance_fact_carries_its_expectation_into_the_role_map() -> None:
    facts = FactSet(
        [
            Fact("luck", "f_luck", "luck", "chance.luck", dtype="float64", expect=0.0, expect_source="fair dice"),
            Fact("played", "f_played", "cards played", "card.played"),
        ],
        Units("coin", "coins", "coins", "point", "points", "points"),
    )
    roles = facts.match(["luck", "played"])
    assert roles["chance.luck"] == [
        {"column": "luck", "per": "seat", "unit": "count", "at": {}, "expect": 0.0, "expect_source": "fair dice"}
    ]
    assert "expect" not in roles["card.played"][0]  # a fact without a known expectation says nothing


def test_roma_luck_has_its_declared_expectation(roma_rows: pl.DataFrame) -> None:
    declared = get_game("roma").fact_set.role_map(get_game("roma").make_config())["chance.luck"]
    assert {e["column"]: e["expect"] for e in declared} == {"dice_luck": 0.0, "battle_luck": 0.0}
    for column in ("dice_luck", "battle_luck"):
        x = roma_rows[column].to_numpy()
        assert abs(x.mean()) < 4 * x.std() / np.sqrt(len(x)), column  # 4 sd: a false alarm once in 15,000 runs
        assert x.std() > 0
    # pips minus 3.5 a die: whole or half numbers
    assert np.all(np.mod(roma_rows["dice_luck"].to_numpy() * 2, 1) == 0)


def test_adjusted_seat_intervals_cover_on_a_null_design(roma_rows: pl.DataFrame) -> None:
    """100 blocks of 200 games, each game's two seats swapped at random (their luck with them): every seat's true
    share is 1/2. The adjusted 95% intervals cover it at the nominal rate up to sampling error, and are narrower."""
    rng = np.random.default_rng(35)
    swap = np.repeat(rng.integers(0, 2, roma_rows.height // 2), 2)
    rows = roma_rows.with_columns(
        (pl.col("seat") ^ pl.Series(swap)).alias("seat"),
        (pl.col("game") // 200).cast(pl.String).alias("variant"),
        pl.lit("builder/warrior").alias("bot"),
    )
    plain = seat_advantage(rows).filter(pl.col("seat") == 0).sort("variant")
    cv = seat_advantage(rows, control_variates=True).filter(pl.col("seat") == 0).sort("variant")
    assert cv.height == 100
    covered = ((cv["win_share_lo"] <= 0.5) & (cv["win_share_hi"] >= 0.5)).mean()
    assert covered >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / 100)  # 0.885: nominal minus 3 sd of a 100-block rate
    width = (cv["win_share_hi"] - cv["win_share_lo"]).mean() / (plain["win_share_hi"] - plain["win_share_lo"]).mean()
    assert width < 0.97  # measured 0.95 (variance ratio about 0.9)
    assert cv["interval"][0].startswith("normal interval of the mean (sample sd); control variates")
    assert (cv["win_share_variance_ratio"] < 1).all()
    # the equal-seats test on the adjusted shares keeps its level on the null
    assert (cv["p_equal"] < 0.05).mean() <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 100)


def test_adjusted_card_values_cover_on_a_null_design(roma_rows: pl.DataFrame) -> None:
    """A null grant: the "treated" games are other games of the control's own config (games 10,000.. renumbered),
    so every label's true value is 0. 50 labels of 200 games each: the adjusted intervals cover 0 at the nominal
    rate up to sampling error, and are narrower than the plain paired ones."""
    half = roma_rows.height // 2
    control = roma_rows.head(half).with_columns(pl.lit("control").alias("variant"))
    treated = roma_rows.tail(half).with_columns(
        pl.col("game") - half // 2,
        pl.format("b{}_seat0", (pl.col("game") - half // 2) // 200).alias("variant"),
    )
    rows = pl.concat([control, treated]).with_columns(pl.lit("builder/warrior").alias("bot"))
    plain = card_value(rows).sort("label")
    cv = card_value(rows, control_variates=True).sort("label")
    assert cv.height == 50 and (cv["games"] == 200).all()
    covered = ((cv["win_share_diff_lo"] <= 0) & (cv["win_share_diff_hi"] >= 0)).mean()
    assert covered >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / 50)  # 0.857: nominal minus 3 sd of a 50-label rate
    width = (cv["win_share_diff_hi"] - cv["win_share_diff_lo"]).mean()
    assert width < 0.97 * (plain["win_share_diff_hi"] - plain["win_share_diff_lo"]).mean()
    assert "control variates" in cv["interval"][0]


def test_adjusted_seat_changes_cover_on_a_null_design(roma_rows: pl.DataFrame) -> None:
    """A null variant: its games are other games of the base's own config (games 10,000.. renumbered), so every
    seat's true change is 0. 50 variants of 200 games: the adjusted 95% intervals of seat 0's change cover 0 at
    the nominal rate up to sampling error, and are narrower than the plain paired ones."""
    half = roma_rows.height // 2
    base = roma_rows.head(half).with_columns(pl.lit("rulebook").alias("variant"))
    other = roma_rows.tail(half).with_columns(
        pl.col("game") - half // 2, pl.format("b{}", (pl.col("game") - half // 2) // 200).alias("variant")
    )
    rows = pl.concat([base, other])
    plain = compare_variants(rows, "rulebook").filter(pl.col("seat") == 0).sort("variant")
    cv = compare_variants(rows, "rulebook", control_variates=True).filter(pl.col("seat") == 0).sort("variant")
    assert cv.height == 50 and (cv["games"] == 200).all()
    covered = ((cv["diff_lo"] <= 0) & (cv["diff_hi"] >= 0)).mean()
    assert covered >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / 50)
    assert (cv["diff_hi"] - cv["diff_lo"]).mean() < 0.97 * (plain["diff_hi"] - plain["diff_lo"]).mean()
    assert "control variates" in cv["interval"][0]


def test_the_default_is_todays_analysis(roma_rows: pl.DataFrame) -> None:
    rows = roma_rows.head(2000).with_columns(pl.lit("rulebook").alias("variant"), pl.lit("b").alias("bot"))
    plain = seat_advantage(rows)
    assert "win_share_variance_ratio" not in plain.columns
    assert plain["interval"][0] == "normal interval of the mean (sample sd)"
    cv = seat_advantage(rows, control_variates=True)
    assert plain["score"].to_list() == cv["score"].to_list()  # only the win shares are adjusted


def test_control_variates_are_refused_without_chance_facts(roma_rows: pl.DataFrame) -> None:
    rows = roma_rows.head(200).drop("dice_luck", "battle_luck").with_columns(pl.lit("v").alias("variant"))
    with pytest.raises(AnalysisError, match="no chance facts"):
        seat_advantage(rows, control_variates=True)
    old = roma_rows.head(200).with_columns(pl.lit("v").alias("variant"), pl.lit(None, pl.Float64).alias("dice_luck"))
    with pytest.raises(AnalysisError, match="lack the chance facts"):
        seat_advantage(old, control_variates=True)


def test_a_result_folder_carries_the_expectation_and_both_options_read_it(tmp_path) -> None:
    """From a run's folder: the manifest's role map holds the luck facts' expectation, and the seat and card
    analyses adjust with them (the same estimates up to the luck's sampling noise, narrower on average)."""
    from simlab.run.reader import load_manifest
    from simlab.run.runner import run_scenario

    path = tmp_path / "roma_cv.toml"
    path.write_text(
        'game = "roma"\nplayers = 2\ngames = 600\nseed = 35\nchunk_size = 300\nlineup = ["builder", "warrior"]\n'
        '[variants.control]\n[variants.sicarius_seat0]\nset = { bonus_card = "sicarius", bonus_card_seat = 0 }\n'
        '[variants.sicarius_seat1]\nset = { bonus_card = "sicarius", bonus_card_seat = 1 }\n'
    )
    folder = run_scenario(path, jobs=1, out=tmp_path / "results", progress=False)
    luck = load_manifest(folder)["facts"]["roles"]["chance.luck"]
    assert [(e["column"], e["expect"]) for e in luck] == [("dice_luck", 0.0), ("battle_luck", 0.0)]
    plain, cv = seat_advantage(folder), seat_advantage(folder, control_variates=True)
    assert plain.height == cv.height == 6
    narrower = (cv["win_share_hi"] - cv["win_share_lo"]) / (plain["win_share_hi"] - plain["win_share_lo"])
    assert narrower.mean() < 1 and (cv["win_share"] - plain["win_share"]).abs().max() < 0.05
    cards = card_value(folder, control_variates=True)
    assert cards["label"].to_list() == ["sicarius"] and "dice_luck, battle_luck" in cards["interval"][0]


def test_the_command_line_options_adjust_and_refuse_where_they_cannot(tmp_path) -> None:
    """``simlab seats|cards --control-variates``: adjusted tables and a line saying so; a game without chance facts
    is refused with ``error:`` and exit 2 before anything is shown."""
    from click.testing import CliRunner

    from simlab.cli import cli
    from simlab.run.runner import run_scenario

    def run(game: str, players: int, lineup: str) -> str:
        path = tmp_path / f"{game}.toml"
        card = "sicarius" if game == "roma" else "jupiter"
        path.write_text(
            f'game = "{game}"\nplayers = {players}\ngames = 200\nseed = 3\nlineup = [{lineup}]\n'
            f'[variants.control]\n[variants.x_seat0]\nset = {{ bonus_card = "{card}", bonus_card_seat = 0 }}\n'
        )
        return str(run_scenario(path, jobs=1, out=tmp_path / game, progress=False))

    roma = run("roma", 2, '"builder", "warrior"')
    out = CliRunner().invoke(cli, ["seats", roma, "--control-variates"])
    assert out.exit_code == 0 and "control variates (the seats' luck): variance per game x0." in out.output
    out = CliRunner().invoke(cli, ["cards", roma, "--control-variates", "--json"])
    assert out.exit_code == 0 and "dice_luck, battle_luck" in out.output
    massilia = run("massilia", 4, '"trader", "priest", "trader", "priest"')
    out = CliRunner().invoke(cli, ["seats", massilia, "--control-variates"])
    assert out.exit_code == 2 and "error: no chance facts with a declared expectation" in out.output
