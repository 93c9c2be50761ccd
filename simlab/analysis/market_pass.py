"""Market analyses counted in one streaming pass over the rows: ``market_summary`` (all four, for the report),
``demand_collapses`` and ``shift_winners`` (the same pass with only their counts switched on).

Market columns are per game but stored on every seat's row, so each analysis in its own scan decodes them
again. Here each batch is decoded once and every analysis switched on adds mergeable counts and sums from
it, in compiled loops on a thread per core. The collapse and turbulence rules live only in its counters
(``market_counters``); the frames are finished by ``simlab.analysis.markets`` (trajectories and sale
yield also have their own scans there).

The state of a pass is exported as plain frames that merge by adding (a *partial*): a worker computes the
partial of its chunk (``market_partial``), the report merges the chunks' (``merge_market_partials``) and
finishes (``market_summary_from_partial``). ``market_summary`` finishes its own pass through the same
frames, so a digest and a row scan differ at most by the order floats were summed in.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.frames import Results, as_lazy, bots_label, names, roles
from simlab.analysis.market_counters import YIELD_GAME_SUMS, YIELD_SUMS, _Collapses, _Shift, _yield_moments, _Yields
from simlab.analysis.markets import (
    ITEM_ALIASES,
    ITEMS_FRAME_ALIASES,
    SERIES,
    SERIES_ALIASES,
    YIELDS,
    _collapse_frame,
    _columns,
    _demand_rounds,
    _income_in,
    _market_columns_in,
    _shift_frame,
    _sold_in,
    _trajectory_frame,
    _ValueCounter,
    _variant_codes,
    _yield_frame,
    require_market,
    sale_yield,
    series_name,
)
from simlab.analysis.moments import group_sums
from simlab.core.facts import Roles

#: rows (of all seats) per batch of ``market_summary``: each holds every market column, so fewer rows than
#: ``COUNT_BATCH`` keep the decoded batches in flight small
SUMMARY_BATCH = 200_000

#: the settings a digest's market partial is computed with (the report's): floor 1, series demand and price
PARTIAL_FLOOR = 1
PARTIAL_SERIES: tuple[str, ...] = ("demand", "price")

#: the keys each frame of a partial adds by; () for the frames that describe the columns (kept once)
PARTIAL_KEYS: dict[str, tuple[str, ...]] = {
    "columns": (),
    "items": (),
    "counts": ("variant", "column", "value"),
    "games": ("variant",),
    "collapses": ("variant", "item"),
    "yields": ("variant",),
    "shift": ("variant", "seat", "_count"),
}


@dataclass(frozen=True)
class MarketSummary:
    """The four market analyses of one set of rows; ``sale_yield`` is None if the game records no sales."""

    trajectories: pl.DataFrame
    collapses: pl.DataFrame
    sale_yield: pl.DataFrame | None
    shift_winners: pl.DataFrame


def market_summary(
    results: Results,
    level: float = 0.95,
    floor: int = 1,
    min_games: int = 30,
    series: tuple[str, ...] = tuple(s for s, _p in SERIES),
) -> MarketSummary:
    """``market_trajectories`` (of the given ``series``), ``demand_collapses``, ``sale_yield`` (per variant)
    and ``shift_winners`` from ONE streaming pass over the rows instead of four scans.

    Memory: one batch plus the counts per variant, seat, item and value. The trajectories and sale yield
    equal their own scans' (counts exactly; sums of floats to rounding, as summation order differs; integer
    moments are exact sums rounded once). A game whose sales columns are not null-free integers gets
    ``sale_yield`` from its own scan. Finished from the pass's partial, as a digest's is.
    """
    lf = require_market(results)
    acc = _pass(lf, _summary_pass(names(lf), floor, series, roles(lf)))
    summary = market_summary_from_partial(acc.frames(), level, min_games, bots_label(lf))
    if acc.sold and not acc.yields.whole_games:
        summary = replace(summary, sale_yield=sale_yield(lf, level=level))
    return summary


def market_partial(
    rows: pl.DataFrame | pl.LazyFrame, floor: int = PARTIAL_FLOOR, series: tuple[str, ...] = PARTIAL_SERIES
) -> dict[str, pl.DataFrame] | None:
    """The state of market_summary's pass over these rows as plain frames that merge by adding (see
    merge_market_partials); None when the rows have no market columns, or when the sales columns are not
    null-free integers (then sale_yield needs its own scan and a partial cannot stand in for it).

    Frames (String, integer and Float64 columns only, so they round-trip through Arrow IPC): ``columns``
    (series, item, round, column: the trajectory columns in order), ``counts`` (variant, column, value,
    count), ``games`` (variant, games: seat-0 rows), ``items`` (item, in order), ``collapses`` (variant,
    item, games, collapsed, recovered, first_sum, first_sq), ``yields`` (variant and ``YIELD_SUMS``; absent if
    the game records no sales) and ``shift`` (variant, seat, ``_count`` turbulence, count, ``_sw``, ``_sq``,
    ``_nw``). A chunk's frame (one batch) is counted on the calling thread: a pool costs more than its loops.
    """
    lf = as_lazy(rows)
    cols = rows.columns if isinstance(rows, pl.DataFrame) else names(lf)  # a DataFrame's without a schema
    if not _market_columns_in(cols):
        return None
    acc = _summary_pass(cols, floor, series)
    if isinstance(rows, pl.DataFrame) and rows.height <= SUMMARY_BATCH:
        if rows.height:
            acc.add(rows, _Inline())  # no select: it reads its columns by name
        elif "seat" in cols:
            acc.shift.seat_dtype = rows["seat"].dtype  # an empty chunk's cells keep the rows' seat type
    else:
        _pass(lf, acc)
    if acc.sold and not acc.yields.whole_games:
        return None
    return acc.frames()


def merge_market_partials(parts: Sequence[dict[str, pl.DataFrame]]) -> dict[str, pl.DataFrame]:
    """Several chunks' partials as one (counts and sums added; deterministic for a given order of parts).

    A frame missing from some part is dropped (a sum over only some chunks would be wrong, not partial)."""
    if not parts:
        raise ValueError("no market partials to merge")
    parts = [with_current_series(p) for p in parts]  # a resumed folder may hold old and new names
    out = {}
    for kind in [k for k in parts[0] if all(k in p for p in parts[1:])]:
        df = pl.concat([p[kind] for p in parts], how="diagonal_relaxed")
        keys = PARTIAL_KEYS[kind]
        sums = [c for c in df.columns if c not in keys]
        out[kind] = group_sums(df, list(keys), sums) if keys else df.unique(maintain_order=True)
    return out


def market_summary_from_partial(
    part: dict[str, pl.DataFrame], level: float = 0.95, min_games: int = 30, bots: str = ""
) -> MarketSummary:
    """market_summary's result from a (merged) partial: the one finish of the row scan and the digest."""
    part = with_current_series(part)
    counts, games = _counts_of(part["counts"], part["games"])
    columns = [
        (s, i, int(r), c) for s, i, r, c in part["columns"].select("series", "item", "round", "column").iter_rows()
    ]
    yields = _yields_of(part["yields"], level) if "yields" in part else None
    return MarketSummary(
        _trajectory_frame(counts, games, columns, level, bots),
        _collapses_of(part, level),
        yields,
        _shift_of(part["shift"], level, min_games),
    )


def with_current_series(part: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """A partial with its series under their current names: a digest written before the series were named
    after the roles says ``marker``/``harbour`` (``SERIES_ALIASES``); it is read as ``demand``/``supply``. One
    written before the items were named for every market has a ``colours`` frame and ``colour`` columns
    (``ITEMS_FRAME_ALIASES``, ``ITEM_ALIASES``); they are read as ``items`` and ``item``."""
    out = {ITEMS_FRAME_ALIASES.get(k, k): v for k, v in part.items()}
    for kind, frame in out.items():
        if set(frame.columns) & set(ITEM_ALIASES):
            out[kind] = frame.rename({old: new for old, new in ITEM_ALIASES.items() if old in frame.columns})
    if "columns" in out and set(out["columns"]["series"].unique()) & set(SERIES_ALIASES):
        out["columns"] = out["columns"].with_columns(pl.col("series").replace(SERIES_ALIASES))
    return out


def demand_collapses(results: Results, floor: int = 1, level: float = 0.95) -> pl.DataFrame:
    """Per variant and item: how often the demand level falls to ``floor`` and how often it recovers.

    ``collapse_rate``: games in which the demand stood at ``floor`` (or below) after some round;
    ``recover_rate``: of those, games in which it stood above ``floor`` after a later round; ``first_round``:
    mean round of the first collapse, with its interval (the games that collapse are independent). A null
    demand level (a round the game did not reach) is neither. Rates have Wilson intervals. Read from the seat-0 rows
    (one per game), every item in one pass.
    """
    lf = require_market(results)
    acc = _pass(lf, _MarketPass([], _demand_rounds(names(lf), roles(lf)), [], floor, shift=False))
    return _collapses_of(acc.frames(), level)


#: the old name of ``demand_collapses`` (before the market words were made game-neutral), kept for callers
marker_collapses = demand_collapses


def shift_winners(results: Results, floor: int = 1, level: float = 0.95, min_games: int = 30) -> pl.DataFrame:
    """CORRELATIONAL: per variant and seat, win share in turbulent vs calm games.

    A game's turbulence is the number of round ends at which a demand level stood at ``floor`` or below
    (summed over items; a null demand level counts nothing); games above the variant's median are "turbulent",
    the others "calm". Tells which seat does well when the market shifts hard, not that the shift caused it
    (for that, compare variants that change the market on the same seeds with ``compare_variants``). Groups
    under ``min_games`` games give no difference (null) rather than a falsely precise one.
    """
    lf = require_market(results)
    acc = _pass(lf, _MarketPass([], _demand_rounds(names(lf), roles(lf)), [], floor, collapses=False))
    return _shift_of(acc.frames()["shift"], level, min_games)


def _summary_pass(cols: list[str], floor: int, series: tuple[str, ...], r: Roles | None = None) -> _MarketPass:
    """The accumulators of ``market_summary``'s pass over rows of these columns (not yet fed)."""
    series = tuple(series_name(s) for s in series)  # an old name (``marker``) asks for the same series
    sold = _sold_in(cols, r)
    traj = [t for t in _columns(cols, r) if t[0] in series]
    return _MarketPass(traj, _demand_rounds(cols, r), sold, floor, income=_income_in(cols, r) if sold else None)


def _pass(lf: pl.LazyFrame, acc: _MarketPass) -> _MarketPass:
    """Stream the columns ``acc`` reads through it, batch by batch, its compiled loops on a thread per core."""
    query = lf.select(acc.wanted()).collect_batches(chunk_size=SUMMARY_BATCH, maintain_order=False, engine="streaming")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for batch in query:
            if not batch.is_empty():
                acc.add(batch, pool)
    return acc


class _Inline(Executor):
    """An executor that runs each task at once on the calling thread (for one small batch, where starting
    and handing work to a pool costs more than the compiled loops themselves)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as e:  # handed to whoever asks for the result, as a pool would
            future.set_exception(e)
        return future

    def map(
        self, fn: Callable[..., Any], *iterables: Any, timeout: float | None = None, chunksize: int = 1
    ) -> Iterator[Any]:
        """The results in order, computed as they are asked for (no future per task)."""
        return map(fn, *iterables)


def _counts_of(
    counts: pl.DataFrame, games: pl.DataFrame
) -> tuple[dict[tuple[str, str], tuple[np.ndarray, np.ndarray]], dict[str, int]]:
    """The value counts per (variant, column), values ascending, and games per variant, as
    ``_trajectory_frame`` reads them."""
    lists = (
        counts.sort("variant", "column", "value")
        .group_by("variant", "column", maintain_order=True)
        .agg("value", "count")
    )
    out = {
        (v, c): (np.array(vals, dtype=np.float64), np.array(k, dtype=np.int64)) for v, c, vals, k in lists.iter_rows()
    }
    return out, {v: int(n) for v, n in games.select("variant", "games").iter_rows()}


def _collapses_of(part: dict[str, pl.DataFrame], level: float) -> pl.DataFrame:
    """The collapses frame from a partial's ``collapses`` and ``items``."""
    items = part["items"]["item"].to_list()
    by = {
        (v, c): k
        for v, c, *k in part["collapses"]
        .select("variant", "item", "games", "collapsed", "recovered", "first_sum", "first_sq")
        .iter_rows()
    }
    variants = sorted({v for v, _c in by})
    zero = (0, 0, 0, 0, 0)
    data: dict[str, pl.Series] = {
        "variant": pl.Series(variants, dtype=pl.String),
        "games": pl.Series([max(by.get((v, c), zero)[0] for c in items) for v in variants], dtype=pl.UInt32),
    }
    for i, item in enumerate(items):
        got = [by.get((v, item), zero) for v in variants]
        data[f"_collapsed{i}"] = pl.Series([g[1] for g in got], dtype=pl.UInt32)
        data[f"_recovered{i}"] = pl.Series([g[2] for g in got], dtype=pl.UInt32)
        data[f"_mean{i}"] = pl.Series([g[3] / g[1] if g[1] else None for g in got], dtype=pl.Float64)
        data[f"_sd{i}"] = pl.Series([_sd(g[1], g[3], g[4]) for g in got], dtype=pl.Float64)
    return _collapse_frame(pl.DataFrame(data), items, level)


def _sd(n: int, total: int, squares: int) -> float | None:
    """The sample standard deviation of ``n`` values from their sum and sum of squares (None under two)."""
    if n < 2:
        return None
    return math.sqrt(max(squares - total * total / n, 0.0) / (n - 1))


def _yields_of(sums: pl.DataFrame, level: float) -> pl.DataFrame:
    """``sale_yield``'s frame per variant from the exact integer sale sums (moments rounded once)."""
    rows = sums.sort("variant").select("variant", *YIELD_SUMS, *YIELD_GAME_SUMS).iter_rows()
    df = pl.DataFrame(
        [{"variant": v, **_yield_moments([int(x) for x in s])} for v, *s in rows],
        schema={
            "variant": pl.String,
            "rows": pl.UInt32,
            "cubes_per_seat": pl.Float64,
            **{f"{y}__{k}": pl.Float64 for y in YIELDS for k in ("my", "vy", "cv", "gyy", "gxy")},
            "__mx": pl.Float64,
            "__vx": pl.Float64,
            "__games": pl.Int64,
            "__gxx": pl.Float64,
        },
    )
    return _yield_frame(df, ("variant",), level)


def _shift_of(cells: pl.DataFrame, level: float, min_games: int) -> pl.DataFrame:
    """The turbulence frame from a partial's ``shift`` cells (counts as ``_shift_frame`` has them)."""
    return _shift_frame(cells.with_columns(pl.col("count", "_nw").cast(pl.UInt32)), level, min_games)


class _MarketPass:
    """The accumulators of one pass, fed batch by batch: value counts for the trajectories (of ``traj``),
    collapses (of ``demand``, unless ``collapses`` is off), sale sums (of ``sold``) and turbulence cells
    (unless ``shift`` is off). An analysis with nothing to count adds nothing and reads no column for it."""

    def __init__(
        self,
        traj: list[tuple[str, str, int, str]],
        demand: dict[str, dict[int, str]],
        sold: list[str],
        floor: int,
        collapses: bool = True,
        shift: bool = True,
        income: tuple[str, str] | None = None,
    ) -> None:
        self.traj, self.sold = traj, sold
        self.income = list(income or ())
        self.demand = demand if collapses else {}
        demand_cols = [c for by_r in demand.values() for c in by_r.values()]
        self.counter = _ValueCounter([c for *_x, c in traj])
        self.collapses, self.yields = _Collapses(self.demand, floor), _Yields(sold, self.income)
        self.shift = _Shift(demand_cols if shift else [], floor)
        # the game-level columns, read from seat 0
        self.game_columns = list(
            dict.fromkeys([*self.counter.columns, *(c for by_r in self.demand.values() for c in by_r.values())])
        )

    def wanted(self) -> list[str]:
        """The columns the pass reads."""
        sales = ["game", *self.sold, *self.income] if self.sold else []  # the game: clustered intervals
        shift = ["win_share", *self.shift.demand] if self.shift.demand else []
        return list(dict.fromkeys(["variant", "seat", *self.game_columns, *shift, *sales]))

    def add(self, batch: pl.DataFrame, pool: Executor) -> None:
        """Feed one batch to every analysis switched on, the compiled loops on the pool's threads."""
        names_, code = _variant_codes(batch)
        seat = batch["seat"].to_numpy()
        jobs = []
        if self.shift.demand:
            jobs.append(pool.submit(self.shift.add, batch, names_, code, seat))
        if self.sold:
            jobs.append(pool.submit(self.yields.add, batch, names_, code))
        per_item: list[Future] = []
        if self.game_columns:
            first = seat == 0  # the game-level analyses read seat 0 (one row per game)
            seat0 = pl.DataFrame([batch[c] for c in ("variant", *self.game_columns)]).filter(pl.Series(first))
            code0 = code[first]
            per_item = self.collapses.submit(pool, names_, code0, seat0)
            self.counter.add(seat0, pool, (names_, code0))
        for job in jobs:
            job.result()
        self.collapses.merge(names_, [job.result() for job in per_item])

    def frames(self) -> dict[str, pl.DataFrame]:
        """The pass's state as a partial (see ``market_partial``); ``yields`` only if the sales were exact."""
        counts, games = self.counter.result()
        keys = sorted(counts)
        out = {
            "columns": pl.DataFrame(
                self.traj,
                orient="row",
                schema={"series": pl.String, "item": pl.String, "round": pl.Int64, "column": pl.String},
            ),
            "counts": pl.DataFrame(
                {
                    "variant": [k[0] for k in keys for _ in counts[k][0]],
                    "column": [k[1] for k in keys for _ in counts[k][0]],
                    "value": np.concatenate([np.zeros(0), *(counts[k][0] for k in keys)]).astype(np.float64),
                    "count": np.concatenate([np.zeros(0, dtype=np.int64), *(counts[k][1] for k in keys)]),
                },
                schema={"variant": pl.String, "column": pl.String, "value": pl.Float64, "count": pl.Int64},
            ),
            "games": pl.DataFrame(
                {"variant": sorted(games), "games": [games[v] for v in sorted(games)]},
                schema={"variant": pl.String, "games": pl.Int64},
            ),
            "items": pl.DataFrame({"item": list(self.demand)}, schema={"item": pl.String}),
            "collapses": self.collapses.frame(),
            "shift": self.shift.cells(),
        }
        if self.sold and self.yields.exact:
            out["yields"] = self.yields.frame()
        return out
