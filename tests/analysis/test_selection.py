"""Error control where a result is selected, on synthetic data with a known truth: the seat flags, the
tolerance verdict, the best-worst gap and the paired comparison's adjustment over seats and variants."""

from __future__ import annotations

import numpy as np
import polars as pl
from analysis_synth import seat_rows, true_shares

from simlab.analysis import compare_variants, seat_advantage, seat_verdicts, stats
from simlab.analysis.text import seats_text


def test_seat_flags_keep_the_family_wise_rate_where_single_intervals_do_not():
    rng = np.random.default_rng(21)
    out = seat_advantage(seat_rows(rng, reps=1500, games=300, p=np.full(4, 0.25), tie=0.1))
    per = out.group_by("variant").agg(
        old=((pl.col("win_share_lo") > 0.25) | (pl.col("win_share_hi") < 0.25)).any(),
        new=pl.col("flag").is_not_null().any(),
    )
    assert per["new"].mean() <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 1500)
    assert per["old"].mean() > 0.10  # each seat read on its own: some seat of a fair game in ~15%


def test_simultaneous_seat_intervals_cover_every_seat_together():
    rng = np.random.default_rng(22)
    p = np.array([0.31, 0.25, 0.24, 0.20])
    out = seat_advantage(seat_rows(rng, reps=1000, games=400, p=p, tie=0.1))
    truth = true_shares(p, 0.1)[out["seat"].to_numpy()]
    inside = (out["win_share_slo"].to_numpy() <= truth) & (truth <= out["win_share_shi"].to_numpy())
    together = pl.DataFrame({"variant": out["variant"], "in": inside}).group_by("variant").agg(pl.col("in").all())
    assert together["in"].mean() >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / 1000)


def test_the_gap_interval_covers_and_its_estimate_is_less_biased():
    rng = np.random.default_rng(23)
    p = np.array([0.29, 0.25, 0.24, 0.22])
    truth = float(np.ptp(true_shares(p, 0.1)))
    out = seat_advantage(seat_rows(rng, reps=600, games=800, p=p, tie=0.1)).unique("variant")
    covered = ((out["gap_lo"] <= truth) & (truth <= out["gap_hi"])).mean()
    assert covered >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / 600)
    assert abs(out["gap"].mean() - truth) < abs(out["gap_raw"].mean() - truth)


def test_the_verdict_says_whether_the_seats_are_unequal_by_more_than_the_tolerance():
    rng = np.random.default_rng(24)
    big = seat_advantage(seat_rows(rng, reps=1, games=20_000, p=np.array([0.30, 0.25, 0.24, 0.21])))
    assert seat_verdicts(big, 0.01)["verdict"][0] == "unequal"
    fair = seat_advantage(seat_rows(rng, reps=1, games=200_000, p=np.full(4, 0.25)))
    v = seat_verdicts(fair, 0.01).row(0, named=True)
    assert v["verdict"] == "fair" and v["games_needed"] is None
    few = seat_advantage(seat_rows(rng, reps=1, games=300, p=np.full(4, 0.25)))
    v = seat_verdicts(few, 0.01).row(0, named=True)
    assert v["verdict"] == "undetermined" and v["games_needed"] > 300
    line = next(s for s in seats_text(few, 0.01) if "with n=300 games per seat" in s)
    assert "1-point tolerance" in line and "simultaneous over the 4 seats" in line
    assert "games per seat would decide it" in line or "tolerance's edge" in line


def test_paired_comparison_adjusts_over_seats_and_variants():
    rng = np.random.default_rng(25)
    rows = seat_rows(rng, reps=13, games=400, p=np.full(4, 0.25), tie=0.1)
    rows = rows.with_columns(
        pl.when(pl.col("variant") == "0").then(pl.lit("base")).otherwise(pl.col("variant")).alias("variant")
    )
    cmp = compare_variants(rows, "base")
    assert cmp.height == 12 * 4
    assert np.allclose(np.sort(cmp["p_adjusted"].to_numpy()), np.sort(stats.holm(cmp["p"].to_numpy())))
    z = stats.simultaneous_z(0.95, 48)
    half = (cmp["diff_shi"] - cmp["diff_slo"]) / 2
    own = (cmp["diff_hi"] - cmp["diff_lo"]) / 2
    assert np.allclose((half / own).to_numpy(), z / stats.z_value(0.95))
    assert "48 seat-and-variant changes" in cmp["simultaneous"][0]
