"""Statistical honesty on synthetic data with a known truth: intervals cover, tests hold their level,
pairing pays, adjustments control errors, and the compensation fit finds a known fair offset.

Every test uses a fixed seed, so it is deterministic; replication counts are chosen so that the
accepted band is several binomial standard deviations wide.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from analysis_synth import seat_rows, true_shares

from simlab.analysis import card_value, compensation, seat_advantage, stats
from simlab.analysis.compensation import cluster_meat, fit_logistic
from simlab.experiments.adaptive import find_fair_offset
from simlab.experiments.knob_search import KnobSearch
from simlab.games.massilia.config import MassiliaConfig


def test_seat_win_share_intervals_cover_95_percent():
    rng = np.random.default_rng(20240601)
    p = np.array([0.31, 0.25, 0.24, 0.20])
    df = seat_rows(rng, reps=1000, games=300, p=p, tie=0.1)
    out = seat_advantage(df)
    truth = true_shares(p, 0.1)
    covered = (out["win_share_lo"].to_numpy() <= truth[out["seat"].to_numpy()]) & (
        truth[out["seat"].to_numpy()] <= out["win_share_hi"].to_numpy()
    )
    assert out.height == 4000
    assert 0.93 <= covered.mean() <= 0.97


def test_equal_seats_test_holds_its_level_with_split_wins():
    rng = np.random.default_rng(7)
    df = seat_rows(rng, reps=1500, games=200, p=np.full(4, 0.25), tie=0.2)
    tests = seat_advantage(df).group_by("variant").agg(pl.col("p_equal").first())
    rate = (tests["p_equal"] < 0.05).mean()
    assert 0.03 <= rate <= 0.07


def test_equal_seats_test_detects_a_real_seat_advantage():
    rng = np.random.default_rng(8)
    df = seat_rows(rng, reps=50, games=2000, p=np.array([0.30, 0.25, 0.23, 0.22]), tie=0.1)
    tests = seat_advantage(df).group_by("variant").agg(pl.col("p_equal").first())
    assert (tests["p_equal"] < 0.05).mean() > 0.9


def _card_rows(rng: np.random.Generator, labels: int, games: int, effect: float) -> pl.DataFrame:
    """Control plus one variant per label granting seat 0 a card. Label i owns game indices
    i*games .. (i+1)*games-1 (its own control games, so the labels are independent replications).
    A 0/1 win in control; in the treated game the same win, or a loss turned into a win with
    probability ``effect`` (the true win-share change is ``effect * (1 - 0.25)``). Scores share a big
    per-game luck term, which pairing cancels."""
    total = labels * games
    w0 = (rng.random(total) < 0.25).astype(float)
    luck = rng.normal(0, 10, total)
    idx = np.arange(total)
    frames = [
        pl.DataFrame(
            {
                "variant": "control",
                "game": idx,
                "seat": 0,
                "bot": "a",
                "win_share": w0,
                "score": luck + rng.normal(0, 1, total),
            }
        )
    ]
    flip = (w0 == 0) & (rng.random(total) < effect)
    label = idx // games
    frames.append(
        pl.DataFrame(
            {
                "variant": pl.Series([f"card{i}_seat0" for i in range(labels)])[label],
                "game": idx,
                "seat": 0,
                "bot": "a",
                "win_share": np.where(flip, 1.0, w0),
                "score": luck + 2.0 + rng.normal(0, 1, total),
            }
        )
    )
    return pl.concat(frames)


def test_paired_card_intervals_cover_and_are_narrower_than_unpaired():
    rng = np.random.default_rng(11)
    effect = 0.08
    df = _card_rows(rng, labels=1000, games=1500, effect=effect)
    paired = card_value(df)
    truth = effect * 0.75
    lo, hi = paired["win_share_diff_lo"].to_numpy(), paired["win_share_diff_hi"].to_numpy()
    assert 0.93 <= ((lo <= truth) & (truth <= hi)).mean() <= 0.97
    s_lo, s_hi = paired["score_diff_lo"].to_numpy(), paired["score_diff_hi"].to_numpy()
    assert 0.93 <= ((s_lo <= 2.0) & (s_hi >= 2.0)).mean() <= 0.97
    unpaired = card_value(df, paired=False)
    assert (paired["score_diff_hi"] - paired["score_diff_lo"]).mean() * 3 < (
        unpaired["score_diff_hi"] - unpaired["score_diff_lo"]
    ).mean()
    assert (paired["win_share_diff_hi"] - paired["win_share_diff_lo"]).mean() < (
        unpaired["win_share_diff_hi"] - unpaired["win_share_diff_lo"]
    ).mean()


def test_holm_controls_the_family_wise_error_on_null_data():
    rng = np.random.default_rng(3)
    z = rng.normal(size=(4000, 9))
    p = stats.normal_p(z, np.ones_like(z))
    holm_any = np.array([(stats.holm(row) < 0.05).any() for row in p])
    raw_any = (p < 0.05).any(axis=1)
    assert holm_any.mean() <= 0.06
    assert raw_any.mean() > 0.3  # unadjusted, nine tests find "something" a third of the time


def test_benjamini_hochberg_controls_the_false_discovery_rate():
    rng = np.random.default_rng(4)
    effects = np.array([0, 0, 0, 0, 0, 0, 3.0, 3.0, 3.0])
    z = rng.normal(size=(4000, 9)) + effects
    p = stats.normal_p(z, np.ones_like(z))
    fdp = []
    for row in p:
        found = stats.benjamini_hochberg(row) < 0.05
        fdp.append((found & (effects == 0)).sum() / max(found.sum(), 1))
    assert np.mean(fdp) <= 0.05


def test_card_value_adjusts_over_cards_only_on_null_data():
    rng = np.random.default_rng(5)
    df = _card_rows(rng, labels=9, games=500, effect=0.0)
    out = card_value(df, adjust="holm")
    assert (out["p_adjusted"] >= out["p"] - 1e-12).all()
    assert out["adjustment"][0] == "holm"
    assert set(out["kind"]) == {"card"}


def _sweep_rows(rng: np.random.Generator, games: int, offsets: list[int], a: float, b: float) -> pl.DataFrame:
    """Seat 3's starting money swept on common random numbers: game g's luck u_g is the same at every
    offset, and seat 3 wins when u_g < p(offset)."""
    u = rng.random(games)
    frames = []
    for o in offsets:
        p3 = 1 / (1 + math.exp(-(a + b * o)))
        win = (u < p3).astype(float)
        for seat in range(4):
            frames.append(
                pl.DataFrame(
                    {
                        "variant": f"money{o}",
                        "game": np.arange(games),
                        "seat": seat,
                        "bot": "a",
                        "win_share": win if seat == 3 else (1 - win) / 3,
                        "start_money": np.full(games, 6 + o if seat == 3 else 6),
                    }
                )
            )
    return pl.concat(frames)


def test_compensation_recovers_a_known_fair_offset():
    a, b = math.log(0.21 / 0.79), 0.14
    truth = (math.log(1 / 3) - a) / b
    comp = compensation(_sweep_rows(np.random.default_rng(9), 20_000, [-3, -1, 0, 1, 2, 4], a, b))
    row = comp.fit.row(0, named=True)
    assert row["seat"] == 3
    assert row["fair_lo"] <= truth <= row["fair_hi"]
    assert abs(row["fair_offset"] - truth) < 0.5
    assert row["rate_lo"] > 0


def test_compensation_fair_interval_covers_under_common_random_numbers():
    """The game-clustered sandwich keeps coverage when every offset replays the same games."""
    rng = np.random.default_rng(12)
    a, b = math.log(0.2 / 0.8), 0.2
    truth = (math.log(1 / 3) - a) / b
    xs = np.array([-2.0, 0.0, 2.0, 4.0])
    hits = 0
    reps = 400
    for _ in range(reps):
        u = rng.random(1500)
        game = np.tile(np.arange(1500), len(xs))
        x = np.repeat(xs, 1500)
        w = (np.tile(u, len(xs)) < 1 / (1 + np.exp(-(a + b * x)))).astype(float)
        fit = fit_logistic(
            xs, np.full(len(xs), 1500), np.array([w[x == v].sum() for v in xs]), cluster_meat(game, x, w), 1500, 0.25
        )
        lo, hi = fit.fair_interval()
        hits += lo <= truth <= hi
    assert 0.92 <= hits / reps <= 0.98


def test_adaptive_search_reaches_the_width_and_finds_the_truth():
    a, b = math.log(0.22 / 0.78), 0.15
    truth = (math.log(1 / 3) - a) / b

    def play(game, config, knob, seat, offset, lineup, start, seeds):
        rng = np.random.default_rng([start, int(offset * 10) + 1000])
        return (rng.random(len(seeds)) < 1 / (1 + math.exp(-(a + b * offset)))).astype(float)

    config = MassiliaConfig.from_preset("rulebook")
    search = KnobSearch(None, config, "start_money", ["trader"] * 4, batch=2000, max_games=200_000, seed=1)
    result = find_fair_offset(search, 3, width=0.6, play=play)
    lo, hi = result.interval
    assert result.converged and hi - lo < 0.6
    assert lo - 0.1 <= truth <= hi + 0.1
    assert result.games < 200_000


def test_stats_helpers():
    lo, hi = stats.wilson(0, 10)
    assert lo == pytest.approx(0, abs=1e-12) and 0.2 < hi < 0.35
    assert stats.fieller(0.0, 1e-9, 1.0, 1.0, 0.0, 1.0) == (-math.inf, math.inf)
    lo, hi = stats.fieller(-1.0, 1.0, 0.0, 0.01, 0.0, 0.0001)
    assert lo < 1.0 < hi
    assert list(stats.holm([0.01, 0.04, 0.03])) == pytest.approx([0.03, 0.06, 0.06])
    assert list(stats.benjamini_hochberg([0.01, 0.04, 0.03])) == pytest.approx([0.03, 0.04, 0.04])
