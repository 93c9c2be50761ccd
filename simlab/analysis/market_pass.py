"""Market analyses counted in one streaming pass over the rows: ``market_summary`` (all four, for the report),
``marker_collapses`` and ``shift_winners`` (the same pass with only their counts switched on).

Market columns are per game but stored on every seat's row, so each analysis in its own scan decodes them
again. Here each batch is decoded once and every analysis switched on adds mergeable counts and sums from
it, in compiled loops on a thread per core. The collapse and turbulence rules live only here; the frames
are finished by ``simlab.analysis.markets`` (trajectories and sale yield also have their own scans there).
"""

from __future__ import annotations

import math
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import polars as pl
from numba import njit

from simlab.analysis.frames import NoMarketError, Results, bots_label, names
from simlab.analysis.markets import (
    SERIES,
    _collapse_frame,
    _columns,
    _marker_rounds,
    _sale_columns,
    _shift_frame,
    _trajectory_frame,
    _ValueCounter,
    _variant_codes,
    _yield_frame,
    require_market,
    sale_yield,
)

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

    Memory: one batch plus the counts per variant, seat, colour and value. The trajectories and sale yield
    equal their own scans' (counts exactly; sums of floats to rounding, as summation order differs; integer
    moments are exact sums rounded once). A game whose sales columns are not null-free integers gets
    ``sale_yield`` from its own scan.
    """
    lf = require_market(results)
    cols = names(lf)
    try:
        sold: list[str] = _sale_columns(lf)
    except NoMarketError:
        sold = []
    acc = _pass(lf, _MarketPass([t for t in _columns(cols) if t[0] in series], _marker_rounds(cols), sold, floor))
    counts, games = acc.counter.result()
    yield_frame = None
    if sold:
        yield_frame = acc.yields.frame(level) if acc.yields.exact else sale_yield(lf, level=level)
    return MarketSummary(_trajectory_frame(counts, games, acc.traj, level, bots_label(lf)),
                         _collapse_frame(acc.collapses.wide(), list(acc.markers), level), yield_frame,
                         _shift_frame(acc.shift.cells(), level, min_games))


def marker_collapses(results: Results, floor: int = 1, level: float = 0.95) -> pl.DataFrame:
    """Per variant and colour: how often the demand marker falls to ``floor`` and how often it recovers.

    ``collapse_rate``: games in which the marker stood at ``floor`` (or below) after some round;
    ``recover_rate``: of those, games in which it stood above ``floor`` after a later round; ``first_round``:
    mean round of the first collapse. A null marker (a round the game did not reach) is neither. Rates have
    Wilson intervals. Read from the seat-0 rows (one per game), every colour in one pass.
    """
    lf = require_market(results)
    markers = _marker_rounds(names(lf))
    acc = _pass(lf, _MarketPass([], markers, [], floor, shift=False))
    return _collapse_frame(acc.collapses.wide(), list(markers), level)


def shift_winners(results: Results, floor: int = 1, level: float = 0.95, min_games: int = 30) -> pl.DataFrame:
    """CORRELATIONAL: per variant and seat, win share in turbulent vs calm games.

    A game's turbulence is the number of round ends at which a demand marker stood at ``floor`` or below
    (summed over colours; a null marker counts nothing); games above the variant's median are "turbulent",
    the others "calm". Tells which seat does well when the market shifts hard, not that the shift caused it
    (for that, compare variants that change the market on the same seeds with ``compare_variants``). Groups
    under ``min_games`` games give no difference (null) rather than a falsely precise one.
    """
    lf = require_market(results)
    acc = _pass(lf, _MarketPass([], _marker_rounds(names(lf)), [], floor, collapses=False))
    return _shift_frame(acc.shift.cells(), level, min_games)


def _pass(lf: pl.LazyFrame, acc: _MarketPass) -> _MarketPass:
    """Stream the columns ``acc`` reads through it, batch by batch, its compiled loops on a thread per core."""
    query = lf.select(acc.wanted()).collect_batches(chunk_size=SUMMARY_BATCH, maintain_order=False,
                                                    engine="streaming")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for batch in query:
            if not batch.is_empty():
                acc.add(batch, pool)
    return acc


class _MarketPass:
    """The accumulators of one pass, fed batch by batch: value counts for the trajectories (of ``traj``),
    collapses (of ``markers``, unless ``collapses`` is off), sale sums (of ``sold``) and turbulence cells
    (unless ``shift`` is off). An analysis with nothing to count adds nothing and reads no column for it."""

    def __init__(self, traj: list[tuple[str, str, int, str]], markers: dict[str, dict[int, str]],
                 sold: list[str], floor: int, collapses: bool = True, shift: bool = True) -> None:
        self.traj, self.sold = traj, sold
        self.markers = markers if collapses else {}
        marker_cols = [c for by_r in markers.values() for c in by_r.values()]
        self.counter = _ValueCounter([c for *_x, c in traj])
        self.collapses, self.yields = _Collapses(self.markers, floor), _Yields(sold)
        self.shift = _Shift(marker_cols if shift else [], floor)
        # the game-level columns, read from seat 0
        self.game_columns = list(dict.fromkeys([*self.counter.columns, *(
            c for by_r in self.markers.values() for c in by_r.values())]))

    def wanted(self) -> list[str]:
        """The columns the pass reads."""
        sales = [*self.sold, "sale_money", "sale_fame"] if self.sold else []
        shift = ["win_share", *self.shift.markers] if self.shift.markers else []
        return list(dict.fromkeys(["variant", "seat", *self.game_columns, *shift, *sales]))

    def add(self, batch: pl.DataFrame, pool: ThreadPoolExecutor) -> None:
        """Feed one batch to every analysis switched on, the compiled loops on the pool's threads."""
        names_, code = _variant_codes(batch)
        seat = batch["seat"].to_numpy()
        jobs = []
        if self.shift.markers:
            jobs.append(pool.submit(self.shift.add, batch, names_, code, seat))
        if self.sold:
            jobs.append(pool.submit(self.yields.add, batch, names_, code))
        per_colour: list[Future] = []
        if self.game_columns:
            first = seat == 0  # the game-level analyses read seat 0 (one row per game)
            seat0, code0 = batch.select("variant", *self.game_columns).filter(pl.Series(first)), code[first]
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
    seat-0 rows of each batch."""

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
    """Cells per (variant, seat, turbulence): rows, non-null win shares and the sums of w and w². Turbulence
    is per game but computed on every seat's row (its marker columns are there), so no join of seats to
    games is needed."""

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
