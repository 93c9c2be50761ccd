"""Score (or turns) distributions per variant: histograms, quantiles and the mean with a game-clustered
interval, from rows or merged from a digest's per-chunk histogram and cluster sums.

Split from ``metrics`` so each module does one job; the figures are the same.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import (
    AnalysisError,
    Results,
    as_lazy,
    bots_label,
    game_major,
    games_per_variant,
    require,
)
from simlab.analysis.markets import _quantiles
from simlab.analysis.moments import coded_moments, combine_moments, group_moments, group_sums


def distribution(
    results: Results,
    column: str = "score",
    width: float = 1.0,
    per_game: bool = False,
    by: tuple[str, ...] = ("variant",),
    level: float = 0.95,
) -> pl.DataFrame:
    """Histogram counts of ``column`` in bins of ``width`` per ``by`` group (tidy, for charts).

    ``per_game`` counts one value per game (for game-level columns such as ``turns``). Each row also
    carries its group's games, mean and the mean's interval, and the bots, for the chart's legend and caption.
    One scan: each bin's count, mean and sd, from which the group's exact mean and sd follow.
    """
    lf0 = as_lazy(results)
    hist = histogram_partial(lf0, column, width, per_game, by)
    games = None
    known = games_per_variant(lf0) if tuple(by) == ("variant",) and not per_game else None
    if known is not None:  # the games behind the rows are known (a report registers the manifest's)
        games = pl.DataFrame(
            {"variant": list(known), "games": list(known.values())}, schema={"variant": pl.String, "games": pl.Int64}
        )
    elif not per_game:  # within a variant a game is its index: counting distinct indices avoids hashing pairs
        games = (
            lf0.group_by(*by)
            .agg(
                (pl.col("game").n_unique() if "variant" in by else pl.struct("variant", "game").n_unique()).alias(
                    "games"
                )
            )
            .collect()
        )
    clusters = None if per_game else cluster_partial(lf0, column, by)
    return distribution_from_partial(hist, column, width, games, by, level, bots_label(lf0), clusters)


def histogram_partial(
    results: Results,
    column: str = "score",
    width: float = 1.0,
    per_game: bool = False,
    by: tuple[str, ...] = ("variant",),
) -> pl.DataFrame:
    """``distribution``'s bins: per ``by`` group and bin of ``width`` the count and the ``mean_aggs`` of the
    values, which merge over disjoint sets of games, and into wider bins (``merge_histogram``)."""
    lf0 = as_lazy(results)
    require(results if isinstance(results, pl.DataFrame) else lf0, (*by, column), "distribution")
    lf = lf0.filter(pl.col("seat") == 0) if per_game else lf0
    x = pl.col(column).cast(pl.Float64)
    if isinstance(results, pl.DataFrame) and tuple(by) == ("variant",) and (layout := game_major(results)):
        x = layout.matrix(column)
        x = x[:, 0] if per_game else x.ravel()
        if not np.isnan(x).any():  # (a null value is a bin of its own in the group-by)
            bins, inverse = np.unique(np.floor(x / width) * width, return_inverse=True)
            keys = pl.DataFrame({"variant": [layout.variant] * len(bins), "bin": bins})
            return coded_moments(keys, inverse.astype(np.int64), {"mean": x}, count="count").select(
                "variant", "bin", "count", "mean__n", "mean", "mean__sd"
            )
    if isinstance(results, pl.DataFrame):  # in memory: sums whose bits do not depend on threads
        binned = lf.select(*by, ((x / width).floor() * width).alias("bin"), x.alias("_x")).collect()
        return group_moments(binned, [*by, "bin"], {"mean": pl.col("_x")}, count="count").select(
            *by, "bin", "count", "mean__n", "mean", "mean__sd"
        )
    return (
        lf.with_columns(((x / width).floor() * width).alias("bin"))
        .group_by(*by, "bin")
        .agg(pl.len().alias("count"), *stats.mean_aggs(column, "mean"))
        .sort(*by, "bin")
        .collect()
    )


#: the per-game sums of a pooled per-seat mean (``cluster_partial``): T = Σ of a game's values, m = its rows
CLUSTER_SUMS = ("c_t", "c_t2", "c_tm", "c_m", "c_m2")


def cluster_partial(results: Results, column: str = "score", by: tuple[str, ...] = ("variant",)) -> pl.DataFrame:
    """Per ``by`` group: games (clusters) and Σ T_g, Σ T_g², Σ T_g·m_g, Σ m_g, Σ m_g² over its games, where
    T_g is the sum of ``column`` over game g's rows in the group and m_g their number (nulls skipped). Sums,
    so they merge over disjoint sets of games (``merge_clusters``); ``with_cluster_interval`` turns them into
    the mean's game-clustered interval. A game is its index (within the group: variants that share seeds
    share the game's luck, so a group pooling variants clusters them together)."""
    lf0 = as_lazy(results)
    require(results if isinstance(results, pl.DataFrame) else lf0, (*by, "game", column), "cluster_partial")
    if isinstance(results, pl.DataFrame) and tuple(by) == ("variant",) and (layout := game_major(results)):
        x = layout.matrix(column)
        t, m = np.nansum(x, axis=1), (~np.isnan(x)).sum(axis=1).astype(np.float64)
        t, m = t[m > 0], m[m > 0]  # a game without a value is no cluster
        keys = pl.DataFrame({"variant": [layout.variant]})
        sums = {"c_t": t, "c_t2": t * t, "c_tm": t * m, "c_m": m, "c_m2": m * m}
        return coded_moments(keys, np.zeros(len(t), dtype=np.int64), {}, sums, count="games")
    x = pl.col(column).cast(pl.Float64)
    per_game = (
        lf0.group_by(*by, "game")
        .agg(x.sum().alias("_t"), x.count().cast(pl.Float64).alias("_m"))
        .filter(pl.col("_m") > 0)  # a game without a value is no cluster
    )
    t, m = pl.col("_t"), pl.col("_m")
    exprs = {"c_t": t, "c_t2": t * t, "c_tm": t * m, "c_m": m, "c_m2": m * m}
    if isinstance(results, pl.DataFrame):  # in memory: sums whose bits do not depend on threads
        games = per_game.sort(*by, "game").collect()
        return group_moments(games, list(by), sums=exprs, count="games")
    return (
        per_game.group_by(*by)
        .agg(pl.len().cast(pl.UInt32).alias("games"), *(e.sum().alias(n) for n, e in exprs.items()))
        .sort(*by)
        .collect(engine="streaming")
    )


def merge_clusters(df: pl.DataFrame, by: tuple[str, ...] = ("variant",)) -> pl.DataFrame:
    """``cluster_partial`` frames of disjoint games (concatenated) added per group."""
    return group_sums(df, list(by), ["games", *CLUSTER_SUMS])


def with_cluster_interval(
    df: pl.DataFrame, clusters: pl.DataFrame, name: str, by: tuple[str, ...], level: float = 0.95
) -> pl.DataFrame:
    """``name`` (a pooled mean per ``by`` group, with ``name_lo``/``name_hi``) given the game-clustered interval
    (``stats.cluster_mean_se``) from ``cluster_partial`` sums; the row-count interval understates the error
    because a game's seats share its luck."""
    z = stats.z_value(level)
    se = {}
    for r in clusters.iter_rows(named=True):
        key = tuple(r[b] for b in by)
        se[key] = stats.cluster_mean_se(r["c_t"], r["c_m"], r["c_t2"], r["c_tm"], r["c_m2"], int(r["games"]))
    keys = df.select(by).rows()
    half = pl.Series([z * se.get(tuple(k), float("nan")) for k in keys], dtype=pl.Float64, nan_to_null=True)
    return df.with_columns((pl.col(name) - half).alias(f"{name}_lo"), (pl.col(name) + half).alias(f"{name}_hi"))


def merge_histogram(hist: pl.DataFrame, by: tuple[str, ...] = ("variant",), width: float | None = None) -> pl.DataFrame:
    """``histogram_partial`` frames (concatenated) merged per group and bin; with ``width`` (a multiple of
    theirs) into wider bins, the same as binning the values at ``width`` directly."""
    if width is not None:
        hist = hist.with_columns(((pl.col("bin") / width).floor() * width).alias("bin"))
    return combine_moments(hist, [*by, "bin"], ["mean"], sums=("count",))


def distribution_from_partial(
    hist: pl.DataFrame,
    column: str,
    width: float,
    games: pl.DataFrame | None = None,
    by: tuple[str, ...] = ("variant",),
    level: float = 0.95,
    bots: str = "",
    clusters: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """``distribution`` from its (merged) bins; ``games`` per group (None: one value per game, as ``turns``).

    Per-seat values (``games`` given) pool the seats of each game, so the mean's interval is clustered by game
    and needs the groups' ``cluster_partial`` sums (``clusters``); one value per game needs none."""
    summary = stats.combine_mean_aggs(hist.drop("bin"), list(by), ["mean"], sums=("count",))
    if games is None:  # one row per game
        summary = summary.with_columns(pl.col("count").alias("games"))
        method = stats.MEAN_METHOD
    else:
        if clusters is None:
            raise AnalysisError(
                "distribution_from_partial: per-seat values need the per-game sums (cluster_partial) for the "
                "mean's game-clustered interval; pass clusters="
            )
        summary = summary.join(games, on=list(by), how="left")
        method = stats.CLUSTER_METHOD
    summary = stats.with_mean_interval(summary.drop("count"), "mean", level)
    if clusters is not None and games is not None:
        summary = with_cluster_interval(summary, clusters, "mean", tuple(by), level)
    return (
        hist.select(*by, "bin", "count")
        .with_columns((pl.col("count") / pl.col("count").sum().over(*by)).alias("fraction"))
        .join(summary, on=list(by), how="left")
        .with_columns(
            pl.lit(column).alias("column"),
            pl.lit(float(width)).alias("width"),
            pl.lit(bots).alias("bots"),
            pl.lit(method).alias("interval"),
        )
        .sort(*by, "bin")
    )


def score_summary(results: Results, by: tuple[str, ...] = ("variant",), level: float = 0.95) -> pl.DataFrame:
    """Per group: rows, mean score with interval, sd and the 10/50/90% quantiles. The interval is clustered
    by game (a group pooling a game's seats holds rows that share its luck)."""
    lf = as_lazy(results)
    # one streaming pass: counts of each (group, score) — scores take few values — from which the rows, the
    # mean, the sd and exact quantiles follow, instead of holding every score for a sort
    counts = (
        lf.group_by(*by, pl.col("score").cast(pl.Float64).alias("_v"))
        .agg(pl.len().alias("_c"))
        .collect(engine="streaming")
    )
    qs = (0.1, 0.5, 0.9)
    rows = []
    for key, d in counts.group_by(*by):
        d = d.sort("_v")
        vals = d.filter(pl.col("_v").is_not_null())
        v, c = vals["_v"].to_numpy(), vals["_c"].to_numpy().astype(np.int64)
        n = int(c.sum())
        mean = float((v * c).sum() / n) if n else None
        sd = float(np.sqrt((c * (v - mean) ** 2).sum() / (n - 1))) if n > 1 else None
        row = dict(zip(by, key, strict=True))
        row.update({"rows": int(d["_c"].sum()), "score__n": n, "score": mean, "score__sd": sd, "sd": sd})
        row.update({f"q{int(q * 100)}": x for q, x in zip(qs, _quantiles(v, c, qs), strict=True)})
        rows.append(row)
    schema = {
        **counts.select(*by).schema,
        "rows": pl.UInt32,
        "score__n": pl.UInt32,
        "score": pl.Float64,
        "score__sd": pl.Float64,
        "sd": pl.Float64,
        **{f"q{int(q * 100)}": pl.Float64 for q in qs},
    }
    df = stats.with_mean_interval(pl.DataFrame(rows, schema=schema).sort(*by), "score", level)
    df = with_cluster_interval(df, cluster_partial(lf, "score", by), "score", by, level)
    return df.with_columns(pl.lit(stats.CLUSTER_METHOD).alias("interval"))
