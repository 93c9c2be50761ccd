"""Seat advantage: is the seat you start in worth something, and does a variant fix it?

With a rotated lineup every bot sits in every seat equally often, so a difference between seats is the
seat's, not the bots'. ``seat_advantage`` gives per variant and seat the win share, mean score and mean
rank with intervals, and a test that all seats are equal; ``compare_variants`` measures how a variant
changes each seat's result against a base variant, paired by game seed.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import AnalysisError, Results, as_lazy, bots_label, players, require


def seat_advantage(results: Results, level: float = 0.95) -> pl.DataFrame:
    """Per variant and seat: games, win share, mean score and mean rank with intervals, and p_equal.

    ``p_equal`` (the same on every row of a variant) tests "every seat wins 1/N of the time" with a Wald
    χ² test on the per-game win-share vectors, which handles split wins; ``fair_share`` is 1/N.
    """
    lf = as_lazy(results)
    require(lf, ("variant", "game", "seat", "win_share", "score", "rank"), "seat_advantage")
    n = players(lf)
    per = (
        lf.group_by("variant", "seat")
        .agg(
            pl.len().alias("games"),
            *stats.mean_aggs("win_share"),
            *stats.mean_aggs("score"),
            *stats.mean_aggs("rank"),
        )
        .sort("variant", "seat")
        .collect()
    )
    for name in ("win_share", "score", "rank"):
        per = stats.with_mean_interval(per, name, level)
    tests = equal_seats_test(lf, n)
    return (
        per.join(tests, on="variant", how="left")
        .with_columns(pl.lit(1.0 / n).alias("fair_share"), pl.lit(bots_label(lf)).alias("bots"),
                      pl.lit(stats.MEAN_METHOD).alias("interval"))
    )


def equal_seats_test(results: Results, n: int | None = None) -> pl.DataFrame:
    """Per variant: games, χ², degrees of freedom and p-value of "every seat's win share is 1/N"."""
    lf = as_lazy(results)
    n = n or players(lf)
    wide = lf.group_by("variant", "game").agg(
        pl.col("win_share").filter(pl.col("seat") == k).sum().alias(f"w{k}") for k in range(n)
    )
    pairs = [(i, j) for i in range(n) for j in range(i, n)]
    moments = (
        wide.group_by("variant")
        .agg(
            pl.len().alias("n"),
            *(pl.col(f"w{k}").mean().alias(f"m{k}") for k in range(n)),
            *((pl.col(f"w{i}") * pl.col(f"w{j}")).mean().alias(f"c{i}_{j}") for i, j in pairs),
        )
        .sort("variant")
        .collect()
    )
    rows = []
    for r in moments.iter_rows(named=True):
        m = np.array([r[f"m{k}"] for k in range(n)])
        cov = np.empty((n, n))
        for i, j in pairs:
            cov[i, j] = cov[j, i] = r[f"c{i}_{j}"] - m[i] * m[j]
        g = r["n"]
        cov *= g / max(g - 1, 1)
        chi2, df, p = stats.equal_shares_test(m, cov, g)
        rows.append({"variant": r["variant"], "chi2_equal": chi2, "df_equal": df, "p_equal": p})
    schema = {"variant": pl.String, "chi2_equal": pl.Float64, "df_equal": pl.Int64, "p_equal": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def compare_variants(
    results: Results, base: str, metric: str = "win_share", by: str = "seat", level: float = 0.95
) -> pl.DataFrame:
    """Change of ``metric`` in each other variant against ``base``, per ``by`` group, paired by game.

    Game i of every variant has the same seed, so the per-game difference cancels most of the luck;
    the interval is that of the mean per-game difference. Rows: variant, ``by``, games, base, value,
    diff, diff_lo, diff_hi, p.
    """
    lf = as_lazy(results)
    require(lf, ("variant", "game", by, metric), "compare_variants")
    variants = lf.select(pl.col("variant").unique()).collect()["variant"].to_list()
    if base not in variants:
        raise AnalysisError(f"no variant {base!r} in these results; variants: {', '.join(sorted(variants))}")
    keys = ["game", by]
    ref = (
        lf.filter(pl.col("variant") == base)
        .group_by(keys).agg(pl.col(metric).cast(pl.Float64).mean().alias("_base"))
    )
    other = (
        lf.filter(pl.col("variant") != base)
        .group_by(["variant", *keys]).agg(pl.col(metric).cast(pl.Float64).mean().alias("_value"))
    )
    out = (
        other.join(ref, on=keys, how="inner")
        .with_columns((pl.col("_value") - pl.col("_base")).alias("_d"))
        .group_by("variant", by)
        .agg(
            pl.len().alias("games"),
            pl.col("_base").mean().alias("base"),
            pl.col("_value").mean().alias("value"),
            *stats.mean_aggs("_d", "diff"),
        )
        .sort("variant", by)
        .collect()
    )
    out = stats.with_mean_interval(out, "diff", level, keep_se=True)
    return out.with_columns(
        pl.Series("p", stats.normal_p(out["diff"].to_numpy(), out["diff_se"].to_numpy())),
        pl.lit(base).alias("base_variant"),
        pl.lit(stats.PAIRED_METHOD).alias("interval"),
    ).drop("diff_se")
