"""Market shifts: how prices, demand levels and goods flows move round by round, and who gains.

Needs a game that declares a market (see ``simlab.core.facts``): the per-game, per-item, per-round roles
``market.price`` and ``market.demand`` (and ``market.bought``, ``market.sale``, ``market.supply`` for more
series), ``market.seat_sold`` with ``market.income`` and ``market.income_points`` per seat for the yield per
unit sold. Columns are found by role, never by name. For a game without them every function raises
``NoMarketError``: "not available for this game", naming the missing roles, so a report or the CLI can say
so instead of crashing. Game-level columns repeat on every seat's row, so
they are read from seat 0 only (one row per game).
"""

from __future__ import annotations

import math
import os
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial

import numpy as np
import polars as pl
from numba import njit

from simlab.analysis import stats
from simlab.analysis.frames import NoMarketError, Results, _roles_for_columns, as_lazy, bots_label, names, roles
from simlab.core.facts import Roles, item_of, not_available

#: series of the trajectories: (name, the fact role whose per-round, per-item columns they read); the names are
#: the roles' words, so they fit a price-tile market and a token-stack one alike
SERIES = (
    ("price", "market.price"),
    ("demand", "market.demand"),
    ("bought", "market.bought"),
    ("sold", "market.sale"),
    ("supply", "market.supply"),
)
#: the series' names before they were made game-neutral (one game's demand marker and harbour), still read as
#: the new ones where they come in: a ``series`` argument, a digest written by an older simlab
SERIES_ALIASES = {"marker": "demand", "harbour": "supply"}
#: the market item's column and the digest's frame of items before they were named for every market (one game's
#: goods colours), still read as the new ones in a digest written by an older simlab
ITEM_ALIASES = {"colour": "item"}
ITEMS_FRAME_ALIASES = {"colours": "items"}
#: the roles without which there is no market to analyse
MARKET = ("market.price", "market.demand")
#: the roles of the yield per unit sold
SALES = ("market.seat_sold", "market.income", "market.income_points")
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
#: the yields per unit sold: money and points earned from sales (internal moment names)
YIELDS = ("income", "income_points")


def series_name(name: str) -> str:
    """The current name of a series given by its current or its old name (``SERIES_ALIASES``)."""
    return SERIES_ALIASES.get(name, name)


def has_market(results: Results) -> bool:
    """True if the game declares a market (roles ``market.price`` and ``market.demand``)."""
    return _roles(results).has(*MARKET)


def _market_columns_in(cols: list[str] | Roles) -> bool:
    return _roles(cols).has(*MARKET)


def _roles(x: Results | list[str] | Roles) -> Roles:
    """Roles given, or of a list of column names (matched against the declarations), or of results."""
    if isinstance(x, Roles):
        return x
    if isinstance(x, list | tuple):
        return _roles_for_columns(tuple(x))
    return roles(x)


def no_market_message(r: Roles) -> str:
    return "this game has no market: " + not_available("market analysis", "role", r.missing(*MARKET), r.game)


def require_market(results: Results) -> pl.LazyFrame:
    """The rows as a LazyFrame, or NoMarketError ("not available for this game", naming the missing roles)."""
    lf = as_lazy(results)
    r = roles(lf)
    if not r.has(*MARKET):
        raise NoMarketError(no_market_message(r))
    return lf


def _columns(cols: list[str] | Roles, r: Roles | None = None) -> list[tuple[str, str, int, str]]:
    """(series, item, round, column) for every market column present (roles ``r``, else matched from the
    column names)."""
    r = r or _roles(cols)
    present = set(cols) if isinstance(cols, list | tuple) else None
    return [
        (series, str(item_of(e)), int(e["at"]["round"]), e["column"])
        for series, role in SERIES
        for e in r.entries(role)
        if "round" in e["at"] and (present is None or e["column"] in present)
    ]


def market_trajectories(results: Results, level: float = 0.95) -> pl.DataFrame:
    """Per variant, series (price, demand, bought, sold, supply), item (the game's own: price
    location, goods, culture) and round:
    games, mean with interval, and the 10/25/50/75/90% quantiles across games (the band of charts).

    One streaming pass over the seat-0 rows counts every value of every market column per variant
    (``value_counts``): the columns hold small integers, so the counts are tiny, and the mean, sd and exact
    quantiles all follow from them — no sort of every round's values, no frame of all games in memory."""
    lf = require_market(results)
    cols = _columns(names(lf), roles(lf))
    counts, games = value_counts(lf.filter(pl.col("seat") == 0), [c for *_x, c in cols])
    return _trajectory_frame(counts, games, cols, level, bots_label(lf))


def _trajectory_frame(
    counts: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]],
    games: dict[str, int],
    cols: list[tuple[str, str, int, str]],
    level: float,
    bots: str,
) -> pl.DataFrame:
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
            row = {
                "variant": variant,
                "series": series,
                "item": item,
                "round": rnd,
                "games": n,
                "mean": mean,
                "mean_lo": None if mean is None else mean - half,
                "mean_hi": None if mean is None else mean + half,
            }
            for q, v in zip(QUANTILES, _quantiles(values, freq, QUANTILES), strict=True):
                row[f"q{int(q * 100)}"] = v
            rows.append(row)
    schema = {
        "variant": pl.String,
        "series": pl.String,
        "item": pl.String,
        "round": pl.Int64,
        "games": pl.Int64,
        "mean": pl.Float64,
        "mean_lo": pl.Float64,
        "mean_hi": pl.Float64,
        **{f"q{int(q * 100)}": pl.Float64 for q in QUANTILES},
    }
    return pl.DataFrame(rows, schema=schema).with_columns(
        pl.lit(bots).alias("bots"), pl.lit(stats.MEAN_METHOD).alias("interval")
    )


#: rows per batch of the streaming value counts (a batch's columns are what is in memory at once)
COUNT_BATCH = 500_000


def value_counts(
    lf: pl.LazyFrame, columns: list[str]
) -> tuple[dict[tuple[str, str], tuple[np.ndarray, np.ndarray]], dict[str, int]]:
    """Per variant and column: the distinct non-null values and their counts, in one streaming pass.

    Integer columns without nulls are counted by a compiled loop per batch (their range is small: counts,
    prices, demand levels), on as many threads as there are cores (it releases the GIL, so the counting of one
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

    def add(self, batch: pl.DataFrame, pool: Executor, codes: tuple[list[str], np.ndarray] | None = None) -> None:
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
        merged[plo - nlo : plo - nlo + len(pfreq)] += pfreq
        merged[lo - nlo : lo - nlo + len(freq)] += freq
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


def _demand_rounds(cols: list[str], r: Roles | None = None) -> dict[str, dict[int, str]]:
    """Demand columns (role ``market.demand``) by item and round."""
    demand: dict[str, dict[int, str]] = {}
    for series, item, rnd, c in _columns(cols, r):
        if series == "demand":
            demand.setdefault(item, {})[rnd] = c
    return demand


def _collapse_frame(wide: pl.DataFrame, items: list[str], level: float) -> pl.DataFrame:
    """The collapses frame from per-variant counts (``games``, ``_collapsed<i>``, ``_recovered<i>``,
    ``_mean<i>`` and, when counted, ``_sd<i>`` for item i), counted by ``market_pass``. The first-collapse
    round's interval is the mean's over the games that collapse (each game is independent)."""
    z = stats.z_value(level)
    frames = []
    for i, item in enumerate(items):
        sd = pl.col(f"_sd{i}") if f"_sd{i}" in wide.columns else pl.lit(None, dtype=pl.Float64)
        half = z * sd / pl.col(f"_collapsed{i}").cast(pl.Float64).sqrt()
        frames.append(
            wide.select(
                "variant",
                "games",
                pl.col(f"_collapsed{i}").alias("collapsed"),
                pl.col(f"_recovered{i}").alias("recovered"),
                pl.col(f"_mean{i}").alias("first_round"),
                (pl.col(f"_mean{i}") - half).alias("first_round_lo"),
                (pl.col(f"_mean{i}") + half).alias("first_round_hi"),
                pl.lit(item).alias("item"),
            )
        )
    df = pl.concat(frames).sort("variant", "item")
    df = stats.with_wilson(df, "collapsed", "games", "collapse_rate", level)
    df = stats.with_wilson(df, "recovered", "collapsed", "recover_rate", level)
    return df.select(
        "variant",
        "item",
        "games",
        "collapsed",
        "collapse_rate",
        "collapse_rate_lo",
        "collapse_rate_hi",
        "recovered",
        "recover_rate",
        "recover_rate_lo",
        "recover_rate_hi",
        "first_round",
        "first_round_lo",
        "first_round_hi",
    ).with_columns(pl.lit(stats.WILSON_METHOD).alias("interval"))


def _sale_columns(results: pl.LazyFrame) -> list[str]:
    """The per-seat units-sold columns, or NoMarketError if the game records no sales."""
    cols = names(results)
    r = roles(results)
    sold = _sold_in(cols, r)
    if not sold:
        missing = [role for role in SALES if not [c for c in r.columns(role) if c in cols]]
        raise NoMarketError(
            "this game records no sales per seat: " + not_available("the yield per unit sold", "role", missing, r.game)
        )
    return sold


def _sold_in(cols: list[str], r: Roles | None = None) -> list[str]:
    """The per-seat units-sold columns (role ``market.seat_sold``) among ``cols``, or none if the money and
    points earned from sales (``market.income``, ``market.income_points``) are not there too."""
    r = r or _roles(cols)
    sold = [c for c in r.columns("market.seat_sold") if c in cols]
    return sold if sold and _income_in(cols, r) else []


def _income_in(cols: list[str], r: Roles | None = None) -> tuple[str, str] | None:
    """The (money, points) earned-from-sales columns among ``cols``, or None."""
    r = r or _roles(cols)
    money, points = r.column("market.income"), r.column("market.income_points")
    return (money, points) if money in cols and points in cols else None


#: ``sale_yield``'s interval
YIELD_METHOD = "ratio of totals, delta-method interval clustered by game (CR1)"


def sale_yield(results: Results, by: tuple[str, ...] = ("variant",), level: float = 0.95) -> pl.DataFrame:
    """Money and fame realised per cube sold (ratio of totals, game-clustered delta-method interval), per ``by``
    group."""
    lf = require_market(results)
    sold = _sale_columns(lf)
    cubes = pl.sum_horizontal([pl.col(c) for c in sold]).cast(pl.Float64).alias("_cubes")
    rows = lf.with_columns(cubes)
    income = _income_in(names(lf), roles(lf)) or ()
    aggs = [pl.len().alias("rows"), pl.col("_cubes").mean().alias("cubes_per_seat")]
    for y, c in zip(YIELDS, income, strict=True):
        v = pl.col(c).cast(pl.Float64)
        aggs += [v.mean().alias(f"{y}__my"), v.var().alias(f"{y}__vy"), pl.cov(v, "_cubes").alias(f"{y}__cv")]
    aggs += [pl.col("_cubes").mean().alias("__mx"), pl.col("_cubes").var().alias("__vx")]
    # a game's seats share its market (the prices everyone sells at), so the interval is clustered by game
    per_game = rows.group_by(*by, "game").agg(
        pl.col("_cubes").sum().alias("_x"),
        *(pl.col(c).cast(pl.Float64).sum().alias(f"_{y}") for y, c in zip(YIELDS, income, strict=True)),
    )
    x = pl.col("_x")
    games = per_game.group_by(*by).agg(
        pl.len().alias("__games"),
        (x * x).sum().alias("__gxx"),
        *(
            e
            for y in YIELDS
            for e in ((pl.col(f"_{y}") ** 2).sum().alias(f"{y}__gyy"), (pl.col(f"_{y}") * x).sum().alias(f"{y}__gxy"))
        ),
    )
    df = rows.group_by(*by).agg(aggs).join(games, on=list(by), how="left").sort(*by).collect()
    return _yield_frame(df, by, level)


#: the points-per-unit columns of ``sale_yield``: left out where no sale earned a point
POINTS_YIELD = ("points_per_cube", "points_per_cube_lo", "points_per_cube_hi")


def earns_points(yields: pl.DataFrame) -> bool:
    """Whether any sale in these results earned points: a game whose sales pay only money (its points from
    sales are zero in every game of every variant) has no points yield to show, and a column of zeros with a
    zero-width interval would only say "0.000" where the question does not apply."""
    values = yields.select(pl.col(c) for c in POINTS_YIELD if c in yields.columns).to_numpy()
    return bool(values.size) and bool(np.any(np.nan_to_num(values.astype(float), nan=0.0) != 0))


def applicable_yields(yields: pl.DataFrame | None) -> pl.DataFrame | None:
    """``sale_yield``'s frame without its points columns when no sale earned a point (``earns_points``)."""
    if yields is None or earns_points(yields):
        return yields
    return yields.drop([c for c in POINTS_YIELD if c in yields.columns])


def _yield_frame(df: pl.DataFrame, by: tuple[str, ...], level: float) -> pl.DataFrame:
    """Ratios of totals R = ΣY/ΣX with game-clustered delta-method intervals, from per-group moments (``rows``,
    ``cubes_per_seat``, ``<y>__my``, ``__mx``) and per-game sums (``__games``, ``__gxx``, ``<y>__gyy``,
    ``<y>__gxy``: Σ over games of X_g², Y_g², Y_g·X_g of each game's totals), shared by ``sale_yield`` and
    ``market_summary``: Var R = G/(G−1) · Σ_g (Y_g − R·X_g)² / (ΣX)². The seats of one game sell into the same
    market, so their rows are not independent draws."""
    z = stats.z_value(level)
    g = pl.col("__games").cast(pl.Float64)
    total_x = pl.col("__mx") * pl.col("rows").cast(pl.Float64)
    # units sold per seat: a mean over rows clustered by game (m = rows / games seats each): Σ_g (X_g − x̄·m)²
    m = pl.col("rows").cast(pl.Float64) / g
    ss_x = (pl.col("__gxx") - pl.col("__mx") ** 2 * m**2 * g).clip(0.0)
    se_x = pl.when(g > 1).then((g / (g - 1) * ss_x).sqrt() / pl.col("rows").cast(pl.Float64))
    out = df.select(
        *by,
        "rows",
        "cubes_per_seat",
        (pl.col("cubes_per_seat") - z * se_x).alias("cubes_per_seat_lo"),
        (pl.col("cubes_per_seat") + z * se_x).alias("cubes_per_seat_hi"),
    )
    for y, name in zip(YIELDS, ("money_per_cube", "points_per_cube"), strict=True):
        ratio = pl.col(f"{y}__my") / pl.col("__mx")
        ss = (pl.col(f"{y}__gyy") - 2 * ratio * pl.col(f"{y}__gxy") + ratio**2 * pl.col("__gxx")).clip(0.0)
        se = pl.when(g > 1).then((g / (g - 1) * ss).sqrt() / total_x)
        extra = df.select(ratio.alias(name), (ratio - z * se).alias(f"{name}_lo"), (ratio + z * se).alias(f"{name}_hi"))
        out = pl.concat([out, extra], how="horizontal")
    return out.with_columns(pl.lit(YIELD_METHOD).alias("interval"))


def _shift_frame(cells: pl.DataFrame, level: float, min_games: int) -> pl.DataFrame:
    """Turbulent vs calm win shares from cells per (variant, seat, turbulence ``_count``): rows ``count``,
    non-null shares ``_nw``, sums ``_sw`` and ``_sq`` of w and w² (counted by ``market_pass``). The variant's
    median (the split) and each seat's median follow exactly from the counts, and the turbulent and calm
    groups are sums over the turbulence values above and below it."""
    median = {
        v: counted_quantiles(d.group_by("_count").agg(pl.col("count").sum()).to_dicts(), "_count", (0.5,))[0]
        for (v,), d in cells.group_by("variant")
    }
    seat_median = {
        (v, k): counted_quantiles(d.to_dicts(), "_count", (0.5,))[0] for (v, k), d in cells.group_by("variant", "seat")
    }
    thresholds = pl.DataFrame(
        {"variant": list(median), "_median": list(median.values())},
        schema={"variant": pl.String, "_median": pl.Float64},
    )
    shift = pl.col("_count") > pl.col("_median")
    sums = (
        cells.join(thresholds, on="variant", how="left")
        .group_by("variant", "seat")
        .agg(
            *(
                pl.when(side).then(pl.col(c)).sum().alias(name)
                for side, suffix in ((shift, "1"), (~shift, "0"))
                for c, name in (
                    ("count", "games_turbulent" if suffix == "1" else "games_calm"),
                    ("_nw", f"_n{suffix}"),
                    ("_sw", f"_s{suffix}"),
                    ("_sq", f"_q{suffix}"),
                )
            )
        )
        .sort("variant", "seat")
    )
    n1, n0 = pl.col("_n1").cast(pl.Float64), pl.col("_n0").cast(pl.Float64)
    m1, m0 = pl.col("_s1") / n1, pl.col("_s0") / n0
    df = sums.with_columns(
        pl.Series(
            "median_collapsed_rounds",
            [seat_median.get((v, k)) for v, k in zip(sums["variant"], sums["seat"], strict=True)],
            dtype=pl.Float64,
        ),
        pl.when(n1 > 0).then(m1).alias("win_share_turbulent"),
        pl.when(n0 > 0).then(m0).alias("win_share_calm"),
        pl.when(n1 > 1).then((pl.col("_q1") - n1 * m1**2) / (n1 - 1)).alias("_v1"),
        pl.when(n0 > 1).then((pl.col("_q0") - n0 * m0**2) / (n0 - 1)).alias("_v0"),
    ).select(
        "variant",
        "seat",
        pl.col("games_turbulent").cast(pl.UInt32),
        pl.col("games_calm").cast(pl.UInt32),
        "median_collapsed_rounds",
        "win_share_turbulent",
        "win_share_calm",
        "_v1",
        "_v0",
    )
    z = stats.z_value(level)
    enough = (pl.col("games_turbulent") >= min_games) & (pl.col("games_calm") >= min_games)
    se = (pl.col("_v1") / pl.col("games_turbulent") + pl.col("_v0") / pl.col("games_calm")).sqrt()
    d = pl.when(enough).then(pl.col("win_share_turbulent") - pl.col("win_share_calm"))
    return (
        df.with_columns(d.alias("diff"), (d - z * se).alias("diff_lo"), (d + z * se).alias("diff_hi"))
        .drop("_v1", "_v0")
        .with_columns(pl.lit("correlational; Welch interval").alias("interval"))
    )


def round_columns(results: Results, role: str, item: str | None = None) -> dict[int, str]:
    """A per-round role's columns by round (of one market ``item`` for a role with items)."""
    r = roles(results)
    return dict(
        sorted((int(e["at"]["round"]), e["column"]) for e in r.entries(role) if item is None or str(item_of(e)) == item)
    )
