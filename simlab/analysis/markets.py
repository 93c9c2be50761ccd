"""Market shifts: how prices, demand markers and goods flows move round by round, and who gains.

Needs a game with market fact columns (Massilia: ``price_<location>_rK``, ``marker_<colour>_rK``,
``harbour_/bag_/round_bought_/round_sold_<colour>_rK`` per game, ``sale_money``/``sale_fame``/``sold_<colour>``
per seat). For a game without them every function raises ``NoMarketError`` with the reason, so a report
can say "this game has no market" instead of crashing. Game-level columns repeat on every seat's row, so
they are read from seat 0 only (one row per game).
"""

from __future__ import annotations

import math
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np
import polars as pl
from numba import njit

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

    One streaming pass over the seat-0 rows counts every value of every market column per variant
    (``value_counts``): the columns hold small integers, so the counts are tiny, and the mean, sd and exact
    quantiles all follow from them — no sort of every round's values, no frame of all games in memory."""
    lf = require_market(results)
    cols = _columns(names(lf))
    counts, games = value_counts(lf.filter(pl.col("seat") == 0), [c for *_x, c in cols])
    return _trajectory_frame(counts, games, cols, level, bots_label(lf))


def _trajectory_frame(counts: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]], games: dict[str, int],
                      cols: list[tuple[str, str, int, str]], level: float, bots: str) -> pl.DataFrame:
    """The trajectories frame from value counts per (variant, column) and games per variant (shared by
    ``market_trajectories`` and ``market_summary``, so both give the same frame from the same counts)."""
    z = stats.z_value(level)
    rows = []
    for variant in sorted(games):
        n = games[variant]
        for series, item, rnd, c in cols:
            values, freq = counts.get((variant, c), (np.zeros(0), np.zeros(0, dtype=np.int64)))
            mean, sd = _moments(values, freq)
            half = z * (sd or 0.0) / math.sqrt(n) if n else math.nan
            row = {"variant": variant, "series": series, "item": item, "round": rnd, "games": n,
                   "mean": mean, "mean_lo": None if mean is None else mean - half,
                   "mean_hi": None if mean is None else mean + half}
            for q, v in zip(QUANTILES, _quantiles(values, freq, QUANTILES), strict=True):
                row[f"q{int(q * 100)}"] = v
            rows.append(row)
    schema = {"variant": pl.String, "series": pl.String, "item": pl.String, "round": pl.Int64, "games": pl.Int64,
              "mean": pl.Float64, "mean_lo": pl.Float64, "mean_hi": pl.Float64,
              **{f"q{int(q * 100)}": pl.Float64 for q in QUANTILES}}
    return pl.DataFrame(rows, schema=schema).with_columns(pl.lit(bots).alias("bots"),
                                                          pl.lit(stats.MEAN_METHOD).alias("interval"))


#: rows per batch of the streaming value counts (a batch's columns are what is in memory at once)
COUNT_BATCH = 500_000


def value_counts(lf: pl.LazyFrame, columns: list[str]) -> tuple[dict[tuple[str, str], tuple[np.ndarray, np.ndarray]],
                                                                dict[str, int]]:
    """Per variant and column: the distinct non-null values and their counts, in one streaming pass.

    Integer columns without nulls are counted by a compiled loop per batch (their range is small: counts,
    prices, markers), on as many threads as there are cores (it releases the GIL, so the counting of one
    batch overlaps the decoding of the next); any other column with polars' ``value_counts``. Also returns
    the rows per variant.
    """
    counter = _ValueCounter(columns)
    query = lf.select("variant", *columns)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for batch in query.collect_batches(chunk_size=COUNT_BATCH, maintain_order=False, engine="streaming"):
            counter.add(batch, pool)
    return counter.result()


def _variant_codes(batch: pl.DataFrame) -> tuple[list[str], np.ndarray]:
    """The batch's variants (sorted) and each row's index among them, for the compiled loops."""
    s = batch["variant"]
    if len(s) and s.null_count() == 0 and (s == s[0]).all():  # the usual batch: a part file is one variant
        return [s[0]], np.zeros(len(s), dtype=np.int32)
    names_ = s.unique().sort().to_list()
    code = batch["variant"].replace_strict({v: i for i, v in enumerate(names_)}, return_dtype=pl.Int64)
    return names_, code.to_numpy().astype(np.int32)


class _ValueCounter:
    """Counts of every value per (variant, column), merged batch by batch: mergeable, so a streaming pass
    never holds more than one batch and the (small) counts."""

    def __init__(self, columns: list[str]) -> None:
        self.columns = columns
        self.acc: dict[tuple[str, str], dict[float, int] | tuple[int, np.ndarray]] = {}
        self.rows: dict[str, int] = {}

    def add(self, batch: pl.DataFrame, pool: ThreadPoolExecutor,
            codes: tuple[list[str], np.ndarray] | None = None) -> None:
        """Count one batch (``variant`` and the columns); dense integer columns on the pool's threads.
        ``codes``: the variants and each row's index among them, if known (variants without rows here are
        skipped)."""
        names_, code = codes if codes is not None else _variant_codes(batch)
        for i, v in enumerate(names_):
            if k := int((code == i).sum()):
                self.rows[v] = self.rows.get(v, 0) + k
        dense = [c for c in self.columns if batch[c].dtype.is_integer() and batch[c].null_count() == 0 and len(batch)]
        counted = pool.map(partial(_dense_counts, batch, code, len(names_)), dense)
        for c, (lo, freq) in zip(dense, counted, strict=True):
            if freq.size:
                for i, v in enumerate(names_):
                    _merge(self.acc, (v, c), lo, freq[i])
            else:  # too wide a range for a dense count
                _count_by_variant(self.acc, names_, code, c, batch[c])
        for c in self.columns:
            if c not in dense:
                _count_by_variant(self.acc, names_, code, c, batch[c])

    def result(self) -> tuple[dict[tuple[str, str], tuple[np.ndarray, np.ndarray]], dict[str, int]]:
        """Sorted values and their counts per (variant, column), and the rows per variant."""
        out = {}
        for key, a in self.acc.items():
            if isinstance(a, tuple):
                lo, freq = a
                nz = np.flatnonzero(freq)
                out[key] = ((nz + lo).astype(np.float64), freq[nz])
            else:
                vals = sorted(a)
                out[key] = (np.array(vals, dtype=np.float64), np.array([a[v] for v in vals], dtype=np.int64))
        return out, self.rows


def _dense_counts(batch: pl.DataFrame, code: np.ndarray, groups: int, column: str) -> tuple[int, np.ndarray]:
    """One column's counts per variant code (run on a pool thread: the compiled loop releases the GIL)."""
    return _bincount_by_code(code, batch[column].to_numpy(), groups)


def _count_by_variant(acc: dict, variants: list[str], code: np.ndarray, column: str, s: pl.Series) -> None:
    """Add one batch's counts of ``column`` per variant the general way (nulls, floats or a wide range)."""
    for i, v in enumerate(variants):
        _count_into(acc, (v, column), s.filter(pl.Series(code == i)))


@njit(cache=True, nogil=True)
def _bincount_by_code(code: np.ndarray, values: np.ndarray, groups: int) -> tuple[int, np.ndarray]:
    """Counts of every value per group code in one pass (min and max first): ``(lo, freq[group, value - lo])``.
    An empty ``freq`` when the values span more than 2**20 / groups (too wide to count densely)."""
    lo, hi = values[0], values[0]
    for x in values:
        lo = min(lo, x)
        hi = max(hi, x)
    width = np.int64(hi) - np.int64(lo) + 1
    if width * groups > 1 << 20:
        return np.int64(lo), np.zeros((0, 0), dtype=np.int64)
    freq = np.zeros((groups, width), dtype=np.int64)
    for i in range(len(values)):
        freq[code[i], np.int64(values[i]) - lo] += 1
    return np.int64(lo), freq


def _merge(acc: dict, key: tuple[str, str], lo: int, freq: np.ndarray) -> None:
    prev = acc.get(key)
    if isinstance(prev, dict):
        for j in np.flatnonzero(freq):
            prev[float(lo + j)] = prev.get(float(lo + j), 0) + int(freq[j])
        return
    if prev is not None:
        plo, pfreq = prev
        nlo, nhi = min(lo, plo), max(lo + len(freq), plo + len(pfreq))
        merged = np.zeros(nhi - nlo, dtype=np.int64)
        merged[plo - nlo: plo - nlo + len(pfreq)] += pfreq
        merged[lo - nlo: lo - nlo + len(freq)] += freq
        freq, lo = merged, nlo
    acc[key] = (lo, freq)


def _count_into(acc: dict, key: tuple[str, str], s: pl.Series) -> None:
    s = s.drop_nulls()
    if s.is_empty():
        return
    prev = acc.get(key)
    if s.dtype.is_integer() and not isinstance(prev, dict):
        arr = s.to_numpy().astype(np.int64, copy=False)
        lo, hi = int(arr.min()), int(arr.max())
        if hi - lo < 1 << 16:
            _merge(acc, key, lo, np.bincount(arr - lo))
            return
    # a float column, or integers spread too widely for a bincount: a dict of counts
    if isinstance(prev, tuple):
        plo, pfreq = prev
        prev = {float(plo + i): int(f) for i, f in enumerate(pfreq) if f}
    counts = prev if isinstance(prev, dict) else {}
    for d in s.cast(pl.Float64).value_counts().iter_rows():
        counts[d[0]] = counts.get(d[0], 0) + int(d[1])
    acc[key] = counts


def _moments(values: np.ndarray, freq: np.ndarray) -> tuple[float | None, float | None]:
    """Mean and sample sd from value counts (exact sums for integer values, then one rounding)."""
    n = int(freq.sum())
    if n == 0:
        return None, None
    if np.all(values == np.round(values)):
        v = [int(x) for x in values]
        f = [int(x) for x in freq]
        s1 = sum(a * b for a, b in zip(v, f, strict=True))
        s2 = sum(a * a * b for a, b in zip(v, f, strict=True))
        mean = s1 / n
        sd = math.sqrt((n * s2 - s1 * s1) / (n * (n - 1))) if n > 1 else None
        return mean, sd
    mean = float((values * freq).sum() / n)
    sd = float(math.sqrt((freq * (values - mean) ** 2).sum() / (n - 1))) if n > 1 else None
    return mean, sd


def _quantiles(values: np.ndarray, freq: np.ndarray, qs: tuple[float, ...]) -> list[float | None]:
    """Linear-interpolation quantiles (as polars' ``quantile(q, "linear")``) from sorted values and counts."""
    total = int(freq.sum())
    if total == 0:
        return [None] * len(qs)
    ends = np.cumsum(freq)  # one past the position of the last copy of each value

    def at(pos: int) -> float:
        return float(values[np.searchsorted(ends, pos, side="right")])

    out = []
    for q in qs:
        h = q * (total - 1)
        lo = math.floor(h)
        a = at(lo)
        out.append(a if h == lo else a + (h - lo) * (at(min(lo + 1, total - 1)) - a))
    return out


def counted_quantiles(counts: list[dict], column: str, qs: tuple[float, ...]) -> list[float | None]:
    """Quantiles with linear interpolation (as polars' ``quantile(q, "linear")``) from polars value counts
    (a list of ``{column: value, "count": k}``): the order statistic at any position is a lookup in the
    cumulative counts, exact, without sorting the values themselves."""
    pairs = sorted((float(d[column]), int(d["count"])) for d in counts if d[column] is not None)
    return _quantiles(np.array([v for v, _ in pairs]), np.array([c for _, c in pairs], dtype=np.int64), qs)


def marker_collapses(results: Results, floor: int = 1, level: float = 0.95) -> pl.DataFrame:
    """Per variant and colour: how often the demand marker falls to ``floor`` and how often it recovers.

    ``collapse_rate``: games in which the marker stood at ``floor`` after some round; ``recover_rate``:
    of those, games in which it stood above ``floor`` after a later round; ``first_round``: mean round of
    the first collapse. Rates have Wilson intervals. One scan of the seat-0 rows for every colour.
    """
    lf = require_market(results)
    markers = _marker_rounds(names(lf))
    games = lf.filter(pl.col("seat") == 0)
    firsts, recs = [], []
    aggs: list[pl.Expr] = [pl.len().alias("games")]
    for i, (_colour, by_r) in enumerate(markers.items()):
        rounds = sorted(by_r)
        firsts.append(pl.min_horizontal([pl.when(pl.col(by_r[r]) <= floor).then(pl.lit(r)) for r in rounds])
                      .alias(f"_first{i}"))
        first = pl.col(f"_first{i}")  # computed once, then read by the recovery test of every round
        recs.append(pl.any_horizontal([(first < r) & (pl.col(by_r[r]) > floor) for r in rounds]).fill_null(False)
                    .alias(f"_rec{i}"))
        aggs += [first.is_not_null().sum().alias(f"_collapsed{i}"),
                 pl.col(f"_rec{i}").sum().alias(f"_recovered{i}"), first.mean().alias(f"_mean{i}")]
    wide = (games.select("variant", *(c for by_r in markers.values() for c in by_r.values()))
            .with_columns(firsts).with_columns(recs)
            .group_by("variant").agg(aggs).collect(engine="streaming"))
    return _collapse_frame(wide, list(markers), level)


def _marker_rounds(cols: list[str]) -> dict[str, dict[int, str]]:
    """Demand-marker columns by colour and round."""
    markers: dict[str, dict[int, str]] = {}
    for series, item, rnd, c in _columns(cols):
        if series == "marker":
            markers.setdefault(item, {})[rnd] = c
    return markers


def _collapse_frame(wide: pl.DataFrame, colours: list[str], level: float) -> pl.DataFrame:
    """The collapses frame from per-variant counts (``games``, ``_collapsed<i>``, ``_recovered<i>``,
    ``_mean<i>`` for colour i), shared by ``marker_collapses`` and ``market_summary``."""
    frames = [
        wide.select("variant", "games", pl.col(f"_collapsed{i}").alias("collapsed"),
                    pl.col(f"_recovered{i}").alias("recovered"), pl.col(f"_mean{i}").alias("first_round"),
                    pl.lit(colour).alias("colour"))
        for i, colour in enumerate(colours)
    ]
    df = pl.concat(frames).sort("variant", "colour")
    df = stats.with_wilson(df, "collapsed", "games", "collapse_rate", level)
    df = stats.with_wilson(df, "recovered", "collapsed", "recover_rate", level)
    return df.select("variant", "colour", "games", "collapsed", "collapse_rate", "collapse_rate_lo",
                     "collapse_rate_hi", "recovered", "recover_rate", "recover_rate_lo", "recover_rate_hi",
                     "first_round").with_columns(pl.lit(stats.WILSON_METHOD).alias("interval"))


def _sale_columns(results: pl.LazyFrame) -> list[str]:
    """The per-seat ``sold_<colour>`` columns, or NoMarketError if the game records no sales."""
    cols = names(results)
    sold = [c for c in cols if c.startswith("sold_")]
    if not sold or "sale_money" not in cols:
        raise NoMarketError("this game records no sales per seat (sold_<colour>, sale_money columns)")
    return sold


def sale_yield(results: Results, by: tuple[str, ...] = ("variant",), level: float = 0.95) -> pl.DataFrame:
    """Money and fame realised per cube sold (ratio of totals, delta-method interval), per ``by`` group."""
    lf = require_market(results)
    sold = _sale_columns(lf)
    cubes = pl.sum_horizontal([pl.col(c) for c in sold]).cast(pl.Float64).alias("_cubes")
    rows = lf.with_columns(cubes)
    aggs = [pl.len().alias("rows"), pl.col("_cubes").mean().alias("cubes_per_seat")]
    for y in ("sale_money", "sale_fame"):
        v = pl.col(y).cast(pl.Float64)
        aggs += [v.mean().alias(f"{y}__my"), v.var().alias(f"{y}__vy"), pl.cov(v, "_cubes").alias(f"{y}__cv")]
    aggs += [pl.col("_cubes").mean().alias("__mx"), pl.col("_cubes").var().alias("__vx")]
    return _yield_frame(rows.group_by(*by).agg(aggs).sort(*by).collect(), by, level)


def _yield_frame(df: pl.DataFrame, by: tuple[str, ...], level: float) -> pl.DataFrame:
    """Ratios of totals with delta-method intervals from per-group moments (``rows``, ``cubes_per_seat``,
    ``<y>__my/__vy/__cv``, ``__mx``, ``__vx``), shared by ``sale_yield`` and ``market_summary``."""
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
    # one pass: per variant, seat and turbulence (a small integer per row) the rows and the sums of w and w²
    w = pl.col("win_share").cast(pl.Float64)
    cells = (lf.select("variant", "seat", count, w.alias("_w"))
             .group_by("variant", "seat", "_count")
             .agg(pl.len().alias("count"), pl.col("_w").sum().alias("_sw"), (pl.col("_w") ** 2).sum().alias("_sq"),
                  pl.col("_w").count().alias("_nw"))
             .collect(engine="streaming"))
    return _shift_frame(cells, level, min_games)


def _shift_frame(cells: pl.DataFrame, level: float, min_games: int) -> pl.DataFrame:
    """Turbulent vs calm win shares from cells per (variant, seat, turbulence ``_count``): rows ``count``,
    non-null shares ``_nw``, sums ``_sw`` and ``_sq`` of w and w² (shared by ``shift_winners`` and
    ``market_summary``). The variant's median (the split) and each seat's median follow exactly from the
    counts, and the turbulent and calm groups are sums over the turbulence values above and below it."""
    median = {v: counted_quantiles(d.group_by("_count").agg(pl.col("count").sum()).to_dicts(), "_count", (0.5,))[0]
              for (v,), d in cells.group_by("variant")}
    seat_median = {(v, k): counted_quantiles(d.to_dicts(), "_count", (0.5,))[0]
                   for (v, k), d in cells.group_by("variant", "seat")}
    thresholds = pl.DataFrame({"variant": list(median), "_median": list(median.values())},
                              schema={"variant": pl.String, "_median": pl.Float64})
    shift = pl.col("_count") > pl.col("_median")
    sums = (
        cells.join(thresholds, on="variant", how="left")
        .group_by("variant", "seat")
        .agg(*(pl.when(side).then(pl.col(c)).sum().alias(name)
               for side, suffix in ((shift, "1"), (~shift, "0"))
               for c, name in (("count", "games_turbulent" if suffix == "1" else "games_calm"),
                               ("_nw", f"_n{suffix}"), ("_sw", f"_s{suffix}"), ("_sq", f"_q{suffix}"))))
        .sort("variant", "seat")
    )
    n1, n0 = pl.col("_n1").cast(pl.Float64), pl.col("_n0").cast(pl.Float64)
    m1, m0 = pl.col("_s1") / n1, pl.col("_s0") / n0
    df = sums.with_columns(
        pl.Series("median_collapsed_rounds", [seat_median.get((v, k)) for v, k in
                                              zip(sums["variant"], sums["seat"], strict=True)], dtype=pl.Float64),
        pl.when(n1 > 0).then(m1).alias("win_share_turbulent"),
        pl.when(n0 > 0).then(m0).alias("win_share_calm"),
        pl.when(n1 > 1).then((pl.col("_q1") - n1 * m1**2) / (n1 - 1)).alias("_v1"),
        pl.when(n0 > 1).then((pl.col("_q0") - n0 * m0**2) / (n0 - 1)).alias("_v0"),
    ).select("variant", "seat", pl.col("games_turbulent").cast(pl.UInt32), pl.col("games_calm").cast(pl.UInt32),
             "median_collapsed_rounds", "win_share_turbulent", "win_share_calm", "_v1", "_v0")
    z = stats.z_value(level)
    enough = (pl.col("games_turbulent") >= min_games) & (pl.col("games_calm") >= min_games)
    se = (pl.col("_v1") / pl.col("games_turbulent") + pl.col("_v0") / pl.col("games_calm")).sqrt()
    d = pl.when(enough).then(pl.col("win_share_turbulent") - pl.col("win_share_calm"))
    return df.with_columns(d.alias("diff"), (d - z * se).alias("diff_lo"), (d + z * se).alias("diff_hi")).drop(
        "_v1", "_v0"
    ).with_columns(pl.lit("correlational; Welch interval").alias("interval"))


# -- the report's four analyses in one pass -----------------------------------------------------------
#: rows (of all seats) per batch of ``market_summary``: each holds every market column, so fewer rows than
#: ``COUNT_BATCH`` keep the decoded batches in flight small
SUMMARY_BATCH = 200_000


@dataclass(frozen=True)
class MarketSummary:
    """The four market analyses of one set of rows; ``sale_yield`` is None if the game records no sales."""

    trajectories: pl.DataFrame
    collapses: pl.DataFrame
    sale_yield: pl.DataFrame | None
    shift_winners: pl.DataFrame


def market_summary(results: Results, level: float = 0.95, floor: int = 1, min_games: int = 30,
                   series: tuple[str, ...] = tuple(s for s, _p in SERIES)) -> MarketSummary:
    """``market_trajectories`` (of the given ``series``), ``marker_collapses``, ``sale_yield`` (per variant)
    and ``shift_winners`` from ONE streaming pass over the rows instead of four scans.

    Market columns are per game but stored on every seat's row, so separate scans decode them again and
    again; here each batch is decoded once, and every analysis adds mergeable counts and sums from it
    (compiled loops, on a thread per core). Memory: one batch plus the counts per variant, seat,
    colour and value. The frames equal the four functions' (counts exactly; sums of floats to rounding, as
    summation order differs; integer moments are exact sums rounded once). A game whose sales columns are
    not null-free integers gets ``sale_yield`` from its own scan.
    """
    lf = require_market(results)
    cols = names(lf)
    try:
        sold: list[str] = _sale_columns(lf)
    except NoMarketError:
        sold = []
    acc = _MarketPass([t for t in _columns(cols) if t[0] in series], _marker_rounds(cols), sold, floor)
    query = lf.select(acc.wanted()).collect_batches(chunk_size=SUMMARY_BATCH, maintain_order=False,
                                                    engine="streaming")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for batch in query:
            if not batch.is_empty():
                acc.add(batch, pool)
    counts, games = acc.counter.result()
    yield_frame = None
    if sold:
        yield_frame = acc.yields.frame(level) if acc.yields.exact else sale_yield(lf, level=level)
    return MarketSummary(_trajectory_frame(counts, games, acc.traj, level, bots_label(lf)),
                         _collapse_frame(acc.collapses.wide(), list(acc.markers), level), yield_frame,
                         _shift_frame(acc.shift.cells(), level, min_games))


class _MarketPass:
    """The four accumulators of ``market_summary``, fed batch by batch."""

    def __init__(self, traj: list[tuple[str, str, int, str]], markers: dict[str, dict[int, str]],
                 sold: list[str], floor: int) -> None:
        self.traj, self.markers, self.sold = traj, markers, sold
        marker_cols = [c for by_r in markers.values() for c in by_r.values()]
        self.counter = _ValueCounter([c for *_x, c in traj])
        self.collapses, self.yields = _Collapses(markers, floor), _Yields(sold)
        self.shift = _Shift(marker_cols, floor)
        self.market = list(dict.fromkeys([*self.counter.columns, *marker_cols]))

    def wanted(self) -> list[str]:
        """The columns the pass reads."""
        sales = [*self.sold, "sale_money", "sale_fame"] if self.sold else []
        return ["variant", "seat", "win_share", *self.market, *sales]

    def add(self, batch: pl.DataFrame, pool: ThreadPoolExecutor) -> None:
        """Feed one batch to every analysis, the compiled loops on the pool's threads."""
        names_, code = _variant_codes(batch)
        seat = batch["seat"].to_numpy()
        first = seat == 0  # the game-level analyses read seat 0 (one row per game)
        seat0, code0 = batch.select("variant", *self.market).filter(pl.Series(first)), code[first]
        jobs = [pool.submit(self.shift.add, batch, names_, code, seat)]
        if self.sold:
            jobs.append(pool.submit(self.yields.add, batch, names_, code))
        per_colour = self.collapses.submit(pool, names_, code0, seat0)
        self.counter.add(seat0, pool, (names_, code0))
        for job in jobs:
            job.result()
        self.collapses.merge(names_, [job.result() for job in per_colour])


def _as_array(s: pl.Series) -> np.ndarray:
    """A column as numpy: integers as they are, nulls as NaN (compares false, like a null in polars)."""
    return s.to_numpy() if s.null_count() == 0 else s.cast(pl.Float64).to_numpy()


def _same_type(arrays: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Arrays of one dtype (float64 if they differ: a column with nulls), for a compiled loop over them."""
    if len({a.dtype for a in arrays}) > 1:
        arrays = [a.astype(np.float64) for a in arrays]
    return tuple(arrays)


class _Collapses:
    """Per variant and colour: games, collapses, recoveries and the sum of first-collapse rounds, from the
    seat-0 rows of each batch (the counts ``marker_collapses`` aggregates with polars)."""

    def __init__(self, markers: dict[str, dict[int, str]], floor: int) -> None:
        self.markers = markers
        self.floor = floor
        self.sums: dict[str, np.ndarray] = {}  # variant -> (colour, [games, collapsed, recovered, sum of first])

    def submit(self, pool: ThreadPoolExecutor, names_: list[str], code: np.ndarray,
               seat0: pl.DataFrame) -> list[Future]:
        """Count one batch of seat-0 rows on the pool, a task per colour."""
        tasks = []
        for by_r in self.markers.values():
            rounds = sorted(by_r)
            tasks.append(pool.submit(_collapse_counts, code, _same_type([_as_array(seat0[by_r[r]]) for r in rounds]),
                                     np.array(rounds, dtype=np.int64), self.floor, len(names_)))
        return tasks

    def merge(self, names_: list[str], per_colour: list[np.ndarray]) -> None:
        """Add the counts of the tasks ``submit`` started (each ``(variant, 4)``)."""
        if not per_colour:
            return
        got = np.stack(per_colour, axis=1)  # (variant, colour, 4)
        for i, v in enumerate(names_):
            if got[i, 0, 0]:
                self.sums[v] = self.sums.get(v, 0) + got[i]

    def wide(self) -> pl.DataFrame:
        """One row per variant in the layout ``_collapse_frame`` reads."""
        variants = sorted(self.sums)
        data: dict[str, pl.Series] = {
            "variant": pl.Series(variants, dtype=pl.String),
            "games": pl.Series([int(self.sums[v][0, 0]) for v in variants], dtype=pl.UInt32)}
        for i in range(len(self.markers)):
            got = [self.sums[v][i] for v in variants]
            data[f"_collapsed{i}"] = pl.Series([int(g[1]) for g in got], dtype=pl.UInt32)
            data[f"_recovered{i}"] = pl.Series([int(g[2]) for g in got], dtype=pl.UInt32)
            data[f"_mean{i}"] = pl.Series([int(g[3]) / int(g[1]) if g[1] else None for g in got], dtype=pl.Float64)
        return pl.DataFrame(data)


@njit(cache=True, nogil=True)
def _collapse_counts(code: np.ndarray, rounds_cols: tuple, rounds: np.ndarray, floor: int,
                     groups: int) -> np.ndarray:
    """Per group: [games, games with the marker at ``floor`` after some round, of those games with it above
    ``floor`` after a later round, sum of the first such rounds] for one colour (its columns by ascending
    round)."""
    out = np.zeros((groups, 4), dtype=np.int64)
    for i in range(len(code)):
        g = code[i]
        out[g, 0] += 1
        first = -1
        for j in range(len(rounds_cols)):
            if rounds_cols[j][i] <= floor:
                first = j
                break
        if first < 0:
            continue
        out[g, 1] += 1
        out[g, 3] += rounds[first]
        for j in range(len(rounds_cols)):
            if rounds[j] > rounds[first] and rounds_cols[j][i] > floor:
                out[g, 2] += 1
                break
    return out


class _Yields:
    """Per variant: exact integer sums of cubes sold x, sale money m and fame f (n, Σx, Σx², Σm, Σm², Σmx, Σf,
    Σf², Σfx), from which ``sale_yield``'s moments follow rounded once. ``exact`` turns False at the first
    batch whose sales columns are not null-free integers (the caller then scans with ``sale_yield``)."""

    def __init__(self, sold: list[str]) -> None:
        self.sold = sold
        self.exact = True
        self.sums: dict[str, np.ndarray] = {}

    def add(self, batch: pl.DataFrame, names_: list[str], code: np.ndarray) -> None:
        """Add one batch's sums (run on a pool thread: the compiled loop releases the GIL)."""
        cols = [*self.sold, "sale_money", "sale_fame"]
        if not self.exact or any(not batch[c].dtype.is_integer() or batch[c].null_count() for c in cols):
            self.exact = False
            return
        x = np.zeros(len(batch), dtype=np.int64)
        for c in self.sold:
            x += batch[c].to_numpy()
        got = _yield_sums(code, x, batch["sale_money"].to_numpy().astype(np.int64, copy=False),
                          batch["sale_fame"].to_numpy().astype(np.int64, copy=False), len(names_))
        for i, v in enumerate(names_):
            if got[i, 0]:
                self.sums[v] = self.sums.get(v, 0) + got[i]

    def frame(self, level: float) -> pl.DataFrame:
        """``sale_yield``'s frame per variant, from the exact sums."""
        variants = sorted(self.sums)
        moments = [_yield_moments([int(x) for x in self.sums[v]]) for v in variants]
        df = pl.DataFrame([{"variant": v, **m} for v, m in zip(variants, moments, strict=True)],
                          schema={"variant": pl.String, "rows": pl.UInt32, "cubes_per_seat": pl.Float64,
                                  **{f"{y}__{k}": pl.Float64 for y in ("sale_money", "sale_fame")
                                     for k in ("my", "vy", "cv")}, "__mx": pl.Float64, "__vx": pl.Float64})
        return _yield_frame(df, ("variant",), level)


def _yield_moments(s: list[int]) -> dict[str, float | int | None]:
    """Means, sample variances and covariances (null under 2 rows, as polars) from exact integer sums."""
    n, sx, sxx = s[0], s[1], s[2]

    def cov(sa: int, sb: int, sab: int) -> float | None:
        return (n * sab - sa * sb) / (n * (n - 1)) if n > 1 else None

    out: dict[str, float | int | None] = {"rows": n, "cubes_per_seat": sx / n}
    for y, (sy, syy, sxy) in (("sale_money", s[3:6]), ("sale_fame", s[6:9])):
        out |= {f"{y}__my": sy / n, f"{y}__vy": cov(sy, sy, syy), f"{y}__cv": cov(sx, sy, sxy)}
    return out | {"__mx": sx / n, "__vx": cov(sx, sx, sxx)}


@njit(cache=True, nogil=True)
def _yield_sums(code: np.ndarray, x: np.ndarray, m: np.ndarray, f: np.ndarray, groups: int) -> np.ndarray:
    """Per group: n, Σx, Σx², Σm, Σm², Σmx, Σf, Σf², Σfx with x the cubes sold (int64: exact)."""
    out = np.zeros((groups, 9), dtype=np.int64)
    for i in range(len(code)):
        g = code[i]
        out[g, 0] += 1
        out[g, 1] += x[i]
        out[g, 2] += x[i] * x[i]
        out[g, 3] += m[i]
        out[g, 4] += m[i] * m[i]
        out[g, 5] += m[i] * x[i]
        out[g, 6] += f[i]
        out[g, 7] += f[i] * f[i]
        out[g, 8] += f[i] * x[i]
    return out


class _Shift:
    """Cells per (variant, seat, turbulence): rows, non-null win shares and the sums of w and w² — what
    ``shift_winners`` aggregates with polars. Turbulence is per game but computed on every seat's row (its
    marker columns are there), so no join of seats to games is needed."""

    def __init__(self, markers: list[str], floor: int) -> None:
        self.markers = markers
        self.floor = floor
        self.counts: dict[tuple[str, int, int], list[int]] = {}  # rows, non-null shares
        self.sums: dict[tuple[str, int, int], tuple[list[float], list[float]]] = {}  # per batch: Σw, Σw²
        self.seat_dtype: pl.DataType = pl.Int64

    def add(self, batch: pl.DataFrame, names_: list[str], code: np.ndarray, seat: np.ndarray) -> None:
        """Add one batch's cells (run on a pool thread: the compiled loops release the GIL)."""
        self.seat_dtype = batch["seat"].dtype
        turbulence = np.zeros(len(batch), dtype=np.int64)
        for c in self.markers:
            _add_at_floor(turbulence, _as_array(batch[c]), self.floor)
        w = batch["win_share"].cast(pl.Float64)
        valid = w.is_not_null().to_numpy() if w.null_count() else np.ones(len(w), dtype=np.bool_)
        n, nw, sw, sq = _shift_sums(code, seat, turbulence, w.fill_null(0.0).to_numpy(), valid, len(names_),
                                    int(seat.max()) + 1, int(turbulence.max()) + 1)
        for g, k, t in zip(*np.nonzero(n), strict=True):
            key = (names_[g], int(k), int(t))
            prev = self.counts.setdefault(key, [0, 0])
            prev[0] += int(n[g, k, t])
            prev[1] += int(nw[g, k, t])
            s1, s2 = self.sums.setdefault(key, ([], []))
            s1.append(float(sw[g, k, t]))
            s2.append(float(sq[g, k, t]))

    def cells(self) -> pl.DataFrame:
        """The cells in the layout ``_shift_frame`` reads (batch sums added exactly, rounded once)."""
        keys = list(self.counts)
        return pl.DataFrame({
            "variant": pl.Series([k[0] for k in keys], dtype=pl.String),
            "seat": pl.Series([k[1] for k in keys], dtype=self.seat_dtype),
            "_count": pl.Series([k[2] for k in keys], dtype=pl.Int32),
            "count": pl.Series([self.counts[k][0] for k in keys], dtype=pl.UInt32),
            "_sw": pl.Series([math.fsum(self.sums[k][0]) for k in keys], dtype=pl.Float64),
            "_sq": pl.Series([math.fsum(self.sums[k][1]) for k in keys], dtype=pl.Float64),
            "_nw": pl.Series([self.counts[k][1] for k in keys], dtype=pl.UInt32),
        })


@njit(cache=True, nogil=True)
def _add_at_floor(turbulence: np.ndarray, marker: np.ndarray, floor: int) -> None:
    """Count a round end with the marker at ``floor`` or below into each row's turbulence (NaN: a null)."""
    for i in range(len(marker)):
        turbulence[i] += marker[i] <= floor


@njit(cache=True, nogil=True)
def _shift_sums(code: np.ndarray, seat: np.ndarray, turbulence: np.ndarray, w: np.ndarray, valid: np.ndarray,
                groups: int, seats: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (group, seat, turbulence): rows, non-null w, Σw and Σw² (compensated sums: Neumaier's, so the
    rounding does not grow with the rows)."""
    n = np.zeros((groups, seats, width), dtype=np.int64)
    nw = np.zeros((groups, seats, width), dtype=np.int64)
    sums = np.zeros((2, groups, seats, width), dtype=np.float64)
    comp = np.zeros((2, groups, seats, width), dtype=np.float64)
    for i in range(len(code)):
        g, k, t = code[i], seat[i], turbulence[i]
        n[g, k, t] += 1
        if not valid[i]:
            continue
        nw[g, k, t] += 1
        for j in range(2):
            x = w[i] if j == 0 else w[i] * w[i]
            s = sums[j, g, k, t]
            u = s + x
            comp[j, g, k, t] += (s - u) + x if abs(s) >= abs(x) else (x - u) + s
            sums[j, g, k, t] = u
    total = sums + comp
    return n, nw, total[0], total[1]


def round_columns(results: Results, prefix: str) -> dict[int, str]:
    """Per-round columns ``<prefix>_rK`` by round (e.g. ``price_temple``)."""
    return by_round(names(as_lazy(results)), rf"{prefix}_r(\d+)")
