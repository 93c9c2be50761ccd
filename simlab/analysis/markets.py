"""Market shifts: how prices, demand markers and goods flows move round by round, and who gains.

Needs a game with market fact columns (Massilia: ``price_<location>_rK``, ``marker_<colour>_rK``,
``harbour_/bag_/round_bought_/round_sold_<colour>_rK`` per game, ``sale_money``/``sale_fame``/``sold_<colour>``
per seat). For a game without them every function raises ``NoMarketError`` with the reason, so a report
can say "this game has no market" instead of crashing. Game-level columns repeat on every seat's row, so
they are read from seat 0 only (one row per game).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import NoMarketError, Results, as_lazy, bots_label, by_round, names

#: series of the trajectories: (name, column regex with item and round groups)
SERIES = (
    ("price", r"price_(?P<item>[a-z]+)_r(\d+)"),
    ("marker", r"marker_(?P<item>[a-z]+)_r(\d+)"),
    ("bought", r"round_bought_(?P<item>[a-z]+)_r(\d+)"),
    ("sold", r"round_sold_(?P<item>[a-z]+)_r(\d+)"),
    ("harbour", r"harbour_(?P<item>[a-z]+)_r(\d+)"),
)
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


def has_market(results: Results) -> bool:
    """True if the rows carry per-round price and demand-marker columns."""
    cols = names(as_lazy(results))
    return any(c.startswith("price_") for c in cols) and any(c.startswith("marker_") for c in cols)


def require_market(results: Results) -> pl.LazyFrame:
    """The rows as a LazyFrame, or NoMarketError saying why there is nothing to analyse."""
    lf = as_lazy(results)
    if not has_market(lf):
        raise NoMarketError(
            "this game has no market: its results carry no per-round price_* and marker_* columns, so there "
            "are no market shifts to analyse"
        )
    return lf


def _columns(cols: list[str]) -> list[tuple[str, str, int, str]]:
    """(series, item, round, column) for every market column present."""
    import re

    out = []
    for series, pattern in SERIES:
        rx = re.compile(pattern)
        for c in cols:
            m = rx.fullmatch(c)
            if m and not (series == "harbour" and c.startswith("round_")):
                out.append((series, m.group("item"), int(m.group(2)), c))
    return out


def market_trajectories(results: Results, level: float = 0.95) -> pl.DataFrame:
    """Per variant, series (price, marker, bought, sold, harbour), item (location/colour) and round:
    games, mean with interval, and the 10/25/50/75/90% quantiles across games (the band of charts).

    One scan of the seat-0 rows: means and sds directly, quantiles exactly from each column's value counts
    (market columns hold small integers, so a count per value replaces a sort of every round's values)."""
    lf = require_market(results)
    cols = _columns(names(lf))
    games = lf.filter(pl.col("seat") == 0)
    aggs: list[pl.Expr] = [pl.len().alias("__games")]
    for i, (_s, _item, _r, c) in enumerate(cols):
        x = pl.col(c).cast(pl.Float64)
        aggs += [x.mean().alias(f"{i}__mean"), x.std().alias(f"{i}__sd"),
                 pl.col(c).drop_nulls().value_counts().alias(f"{i}__vc")]
    wide = games.group_by("variant").agg(aggs).sort("variant").collect()
    z = stats.z_value(level)
    rows = []
    for r in wide.iter_rows(named=True):
        n = r["__games"]
        for i, (series, item, rnd, c) in enumerate(cols):
            mean, sd = r[f"{i}__mean"], r[f"{i}__sd"] or 0.0
            half = z * sd / math.sqrt(n) if n else math.nan
            row = {"variant": r["variant"], "series": series, "item": item, "round": rnd, "games": n,
                   "mean": mean, "mean_lo": mean - half, "mean_hi": mean + half}
            qs = counted_quantiles(r[f"{i}__vc"], c, QUANTILES)
            for q, v in zip(QUANTILES, qs, strict=True):
                row[f"q{int(q * 100)}"] = v
            rows.append(row)
    return pl.DataFrame(rows).with_columns(pl.lit(bots_label(lf)).alias("bots"),
                                           pl.lit(stats.MEAN_METHOD).alias("interval"))


def counted_quantiles(counts: list[dict], column: str, qs: tuple[float, ...]) -> list[float | None]:
    """Quantiles with linear interpolation (as polars' ``quantile(q, "linear")``) from value counts.

    The sorted values are implied by the counts: value v fills the positions from the cumulative count
    before it to the one after it, so the order statistic at any position is a lookup, exact, without
    sorting the values themselves."""
    pairs = sorted((float(d[column]), int(d["count"])) for d in counts if d[column] is not None)
    if not pairs:
        return [None] * len(qs)
    values = np.array([v for v, _ in pairs])
    ends = np.cumsum([c for _, c in pairs])  # position of the last copy of each value, plus one
    total = int(ends[-1])

    def at(pos: int) -> float:
        return float(values[np.searchsorted(ends, pos, side="right")])

    out = []
    for q in qs:
        h = q * (total - 1)
        lo = math.floor(h)
        a = at(lo)
        out.append(a if h == lo else a + (h - lo) * (at(min(lo + 1, total - 1)) - a))
    return out


def marker_collapses(results: Results, floor: int = 1, level: float = 0.95) -> pl.DataFrame:
    """Per variant and colour: how often the demand marker falls to ``floor`` and how often it recovers.

    ``collapse_rate``: games in which the marker stood at ``floor`` after some round; ``recover_rate``:
    of those, games in which it stood above ``floor`` after a later round; ``first_round``: mean round of
    the first collapse. Rates have Wilson intervals. One scan of the seat-0 rows for every colour.
    """
    lf = require_market(results)
    markers: dict[str, dict[int, str]] = {}
    for series, item, rnd, c in _columns(names(lf)):
        if series == "marker":
            markers.setdefault(item, {})[rnd] = c
    games = lf.filter(pl.col("seat") == 0)
    per_game = []
    aggs: list[pl.Expr] = [pl.len().alias("games")]
    for i, (_colour, by_r) in enumerate(markers.items()):
        rounds = sorted(by_r)
        first = pl.min_horizontal([pl.when(pl.col(by_r[r]) <= floor).then(pl.lit(r)) for r in rounds])
        recovered = pl.any_horizontal([(first < r) & (pl.col(by_r[r]) > floor) for r in rounds]).fill_null(False)
        per_game += [first.alias(f"_first{i}"), recovered.alias(f"_rec{i}")]
        aggs += [pl.col(f"_first{i}").is_not_null().sum().alias(f"_collapsed{i}"),
                 pl.col(f"_rec{i}").sum().alias(f"_recovered{i}"), pl.col(f"_first{i}").mean().alias(f"_mean{i}")]
    wide = games.select("variant", *per_game).group_by("variant").agg(aggs).collect()
    frames = [
        wide.select("variant", "games", pl.col(f"_collapsed{i}").alias("collapsed"),
                    pl.col(f"_recovered{i}").alias("recovered"), pl.col(f"_mean{i}").alias("first_round"),
                    pl.lit(colour).alias("colour"))
        for i, colour in enumerate(markers)
    ]
    df = pl.concat(frames).sort("variant", "colour")
    df = stats.with_wilson(df, "collapsed", "games", "collapse_rate", level)
    df = stats.with_wilson(df, "recovered", "collapsed", "recover_rate", level)
    return df.select("variant", "colour", "games", "collapsed", "collapse_rate", "collapse_rate_lo",
                     "collapse_rate_hi", "recovered", "recover_rate", "recover_rate_lo", "recover_rate_hi",
                     "first_round").with_columns(pl.lit(stats.WILSON_METHOD).alias("interval"))


def sale_yield(results: Results, by: tuple[str, ...] = ("variant",), level: float = 0.95) -> pl.DataFrame:
    """Money and fame realised per cube sold (ratio of totals, delta-method interval), per ``by`` group."""
    lf = require_market(results)
    sold = [c for c in names(lf) if c.startswith("sold_")]
    if not sold or "sale_money" not in names(lf):
        raise NoMarketError("this game records no sales per seat (sold_<colour>, sale_money columns)")
    cubes = pl.sum_horizontal([pl.col(c) for c in sold]).cast(pl.Float64).alias("_cubes")
    rows = lf.with_columns(cubes)
    aggs = [pl.len().alias("rows"), pl.col("_cubes").mean().alias("cubes_per_seat")]
    for y in ("sale_money", "sale_fame"):
        v = pl.col(y).cast(pl.Float64)
        aggs += [v.mean().alias(f"{y}__my"), v.var().alias(f"{y}__vy"), pl.cov(v, "_cubes").alias(f"{y}__cv")]
    aggs += [pl.col("_cubes").mean().alias("__mx"), pl.col("_cubes").var().alias("__vx")]
    df = rows.group_by(*by).agg(aggs).sort(*by).collect()
    z = stats.z_value(level)
    out = df.select(*by, "rows", "cubes_per_seat")
    for y, name in (("sale_money", "money_per_cube"), ("sale_fame", "fame_per_cube")):
        ratio = pl.col(f"{y}__my") / pl.col("__mx")
        var = (pl.col(f"{y}__vy") - 2 * ratio * pl.col(f"{y}__cv") + ratio**2 * pl.col("__vx"))
        se = (var / pl.col("rows") ).sqrt() / pl.col("__mx")
        extra = df.select(ratio.alias(name), (ratio - z * se).alias(f"{name}_lo"), (ratio + z * se).alias(f"{name}_hi"))
        out = pl.concat([out, extra], how="horizontal")
    return out.with_columns(pl.lit("ratio of totals, delta-method interval").alias("interval"))


def shift_winners(results: Results, floor: int = 1, level: float = 0.95, min_games: int = 30) -> pl.DataFrame:
    """CORRELATIONAL: per variant and seat, win share in turbulent vs calm games.

    A game's turbulence is the number of round ends at which a demand marker stood at ``floor`` (summed
    over colours); games above the variant's median are "turbulent", the others "calm". Tells which seat
    does well when the market shifts hard, not that the shift caused it (for that, compare variants that
    change the market on the same seeds with ``compare_variants``). Groups under ``min_games`` games give
    no difference (null) rather than a falsely precise one.
    """
    lf = require_market(results)
    markers = [c for s, _i, _r, c in _columns(names(lf)) if s == "marker"]
    count = pl.sum_horizontal([(pl.col(c) <= floor).cast(pl.Int32) for c in markers]).alias("_count")
    w = pl.col("win_share")
    # the variant's median turbulence from the counts of its values (exact; a small integer per row), so
    # that no window over every row is held in memory; then one pass splits the games by it
    med = lf.select("variant", count).group_by("variant").agg(pl.col("_count").value_counts()).collect()
    median = {r["variant"]: counted_quantiles(r["_count"], "_count", (0.5,))[0] for r in med.iter_rows(named=True)}
    threshold = pl.col("variant").replace_strict(median, default=None, return_dtype=pl.Float64)
    turbulent = (pl.col("_count") > threshold).alias("_shift")
    df = (
        lf.with_columns(count).with_columns(turbulent)
        .group_by("variant", "seat")
        .agg(
            pl.col("_shift").sum().alias("games_turbulent"), (~pl.col("_shift")).sum().alias("games_calm"),
            pl.col("_count").value_counts().alias("_vc"),
            w.filter(pl.col("_shift")).mean().alias("win_share_turbulent"),
            w.filter(~pl.col("_shift")).mean().alias("win_share_calm"),
            w.filter(pl.col("_shift")).var().alias("_v1"), w.filter(~pl.col("_shift")).var().alias("_v0"),
        )
        .sort("variant", "seat")
        .collect()
    )
    df = df.with_columns(pl.Series("median_collapsed_rounds",
                                   [counted_quantiles(vc, "_count", (0.5,))[0] for vc in df["_vc"].to_list()],
                                   dtype=pl.Float64)).drop("_vc")
    df = df.select("variant", "seat", "games_turbulent", "games_calm", "median_collapsed_rounds",
                   *(c for c in df.columns if c not in ("variant", "seat", "games_turbulent", "games_calm",
                                                        "median_collapsed_rounds")))
    z = stats.z_value(level)
    enough = (pl.col("games_turbulent") >= min_games) & (pl.col("games_calm") >= min_games)
    se = (pl.col("_v1") / pl.col("games_turbulent") + pl.col("_v0") / pl.col("games_calm")).sqrt()
    d = pl.when(enough).then(pl.col("win_share_turbulent") - pl.col("win_share_calm"))
    return df.with_columns(d.alias("diff"), (d - z * se).alias("diff_lo"), (d + z * se).alias("diff_hi")).drop(
        "_v1", "_v0"
    ).with_columns(pl.lit("correlational; Welch interval").alias("interval"))


def round_columns(results: Results, prefix: str) -> dict[int, str]:
    """Per-round columns ``<prefix>_rK`` by round (e.g. ``price_temple``)."""
    return by_round(names(as_lazy(results)), rf"{prefix}_r(\d+)")
