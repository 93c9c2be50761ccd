"""Pooled per-seat rows are clustered by game: a game's seats share its luck, so the row-count standard error
understates. Each clustered interval here is checked against a bootstrap over games (resampling whole games),
on synthetic data with a strong shared game effect and on the real engine's rows."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simlab import analysis as A
from simlab.analysis import stats
from simlab.analysis.score_distribution import cluster_partial, merge_clusters

Z = stats.z_value(0.95)


def _clustered_rows(rng: np.random.Generator, games: int = 3000, seats: int = 4) -> pl.DataFrame:
    """Scores = a game effect shared by its seats (sd 6) + each seat's own noise (sd 3)."""
    luck = rng.normal(0, 6, games)
    score = np.round(50 + luck[:, None] + rng.normal(0, 3, (games, seats)))
    return pl.DataFrame(
        {
            "variant": "v",
            "game": np.repeat(np.arange(games), seats),
            "seat": np.tile(np.arange(seats), games),
            "score": score.ravel(),
        }
    )


def _bootstrap_se(rows: pl.DataFrame, stat, reps: int = 400, seed: int = 1) -> float:
    """The sd of ``stat`` over resamples of whole games (the reference a clustered SE must match)."""
    rng = np.random.default_rng(seed)
    games = rows["game"].unique().sort().to_numpy()
    by_game = rows.partition_by("game", as_dict=True)
    values = []
    for _ in range(reps):
        pick = rng.choice(games, size=len(games), replace=True)
        sample = pl.concat([by_game[(int(g),)] for g in pick])
        values.append(stat(sample))
    return float(np.std(values, ddof=1))


def _half(df: pl.DataFrame, name: str) -> float:
    return float((df[f"{name}_hi"][0] - df[f"{name}_lo"][0]) / 2)


def test_score_summary_and_distribution_match_a_bootstrap_over_games():
    rows = _clustered_rows(np.random.default_rng(5))
    boot = _bootstrap_se(rows, lambda d: float(d["score"].mean()))
    got = A.score_summary(rows)
    assert got["interval"][0] == stats.CLUSTER_METHOD
    assert _half(got, "score") / Z == pytest.approx(boot, rel=0.12)
    naive = float(rows["score"].std()) / np.sqrt(rows.height)
    assert _half(got, "score") / Z > 1.5 * naive  # the shared luck: rows are far from independent
    dist = A.distribution(rows, "score", width=2.0)
    assert _half(dist, "mean") == pytest.approx(_half(got, "score"), rel=1e-9)


def test_cluster_se_is_the_cr1_formula_and_merges_over_chunks():
    rows = _clustered_rows(np.random.default_rng(6), games=500)
    totals = rows.group_by("game").agg(pl.col("score").sum().alias("t"), pl.len().alias("m"))
    t, m = totals["t"].to_numpy(), totals["m"].to_numpy().astype(float)
    y = t.sum() / m.sum()
    g = len(t)
    cr1 = np.sqrt(g / (g - 1) * ((t - y * m) ** 2).sum()) / m.sum()
    got = A.score_summary(rows)
    assert _half(got, "score") / Z == pytest.approx(cr1, rel=1e-12)
    parts = [cluster_partial(rows.filter((pl.col("game") // 100) == k), "score") for k in range(5)]
    assert merge_clusters(pl.concat(parts)).equals(cluster_partial(rows, "score"))


def test_a_group_of_one_row_per_game_is_not_widened():
    rows = _clustered_rows(np.random.default_rng(7), games=800)
    got = A.score_summary(rows, by=("variant", "seat")).filter(pl.col("seat") == 0)
    x = rows.filter(pl.col("seat") == 0)["score"]
    assert _half(got, "score") == pytest.approx(Z * float(x.std()) / np.sqrt(x.len()), rel=1e-9)


def test_real_rows_sale_yield_and_observational_match_a_bootstrap_over_games(real_folder):
    import simlab

    rows = simlab.load_results(real_folder).filter(pl.col("variant") == "control").collect()
    sy = A.sale_yield(rows)
    assert "clustered by game" in sy["interval"][0]

    def ratio(d: pl.DataFrame) -> float:
        got = A.sale_yield(d)
        return float(got["money_per_cube"][0])

    boot = _bootstrap_se(rows, ratio, reps=200)
    assert _half(sy, "money_per_cube") / Z == pytest.approx(boot, rel=0.25)
    obs = A.observational(rows).drop_nulls("played_diff").row(0, named=True)

    def diff(d: pl.DataFrame) -> float:
        r = A.observational(d).filter(pl.col("label") == obs["label"]).row(0, named=True)
        return r["played_diff"] if r["played_diff"] is not None else np.nan

    boot = _bootstrap_se(rows, diff, reps=200)
    assert (obs["played_diff_hi"] - obs["played_diff_lo"]) / 2 / Z == pytest.approx(boot, rel=0.25)


def test_variance_decomposition_takes_the_shared_game_luck_out_of_its_noise_term():
    """A small seat effect under a big shared game effect: counted as independent rows, the noise term
    includes the game luck (which cancels from seat comparisons) and eats a third of the seat share."""
    rng = np.random.default_rng(9)
    reps, games, seats = 40, 2000, 4
    alpha = np.array([0.3, 0.0, 0.0, -0.3])
    luck = rng.normal(0, 6, (reps, games, 1))
    y = 50 + alpha + luck + rng.normal(0, 3, (reps, games, seats))
    rows = pl.DataFrame(
        {
            "variant": np.repeat(np.arange(reps).astype(str), games * seats),
            "game": np.tile(np.repeat(np.arange(games), seats), reps),
            "seat": np.tile(np.arange(seats), reps * games),
            "bot": "a",
            "score": y.ravel(),
        }
    )
    truth = alpha.var() / (alpha.var() + 36 + 9)
    got = A.variance_decomposition(rows).filter(pl.col("component") == "seat")["share"].mean()
    assert got == pytest.approx(truth, rel=0.1)
    cells = A.variance.variance_partial(rows)
    naive = A.variance.variance_from_partial(cells).filter(pl.col("component") == "seat")["share"].mean()
    assert naive < 0.8 * truth  # the old noise term: biased down
