"""The counters of the one-pass market analyses (``market_pass``): per batch of rows, each adds mergeable
integer counts and sums in a compiled loop: demand collapses and recoveries per item (``_Collapses``), sale
sums per variant and per game (``_Yields``), and the per-seat win sums of turbulent and calm games
(``_Shift``). Split from ``market_pass`` so each module does one job; the counts are the same.
"""

from __future__ import annotations

import math
from concurrent.futures import Executor, Future

import numpy as np
import polars as pl
from numba import njit

from simlab.analysis.markets import (
    YIELDS,
)

#: the exact integer sale sums per variant (cubes sold x, sale money m, fame f), in ``_yield_sums``' order
YIELD_SUMS = ("n", "sum_x", "sum_xx", "sum_m", "sum_mm", "sum_mx", "sum_f", "sum_ff", "sum_fx")
#: the per-game sums of the game-clustered interval: games, and Σ over games of X², M², M·X, F², F·X with X, M,
#: F a game's totals over its seats (cubes sold, sale money, fame)
YIELD_GAME_SUMS = ("games", "game_xx", "game_mm", "game_mx", "game_ff", "game_fx")


def _as_array(s: pl.Series) -> np.ndarray:
    """A column as numpy: integers as they are, nulls as NaN (compares false, like a null in polars)."""
    return s.to_numpy() if s.null_count() == 0 else s.cast(pl.Float64).to_numpy()


def _same_type(arrays: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Arrays of one dtype (float64 if they differ: a column with nulls), for a compiled loop over them."""
    if len({a.dtype for a in arrays}) > 1:
        arrays = [a.astype(np.float64) for a in arrays]
    return tuple(arrays)


class _Collapses:
    """Per variant and market item: games, collapses, recoveries and the sum of first-collapse rounds, from the
    seat-0 rows of each batch."""

    def __init__(self, demand: dict[str, dict[int, str]], floor: int) -> None:
        self.demand = demand
        self.floor = floor
        self.sums: dict[str, np.ndarray] = {}  # variant -> (item, [games, collapsed, recovered, sum of first])

    def submit(self, pool: Executor, names_: list[str], code: np.ndarray, seat0: pl.DataFrame) -> list[Future]:
        """Count one batch of seat-0 rows on the pool, a task per item."""
        tasks = []
        for by_r in self.demand.values():
            rounds = sorted(by_r)
            tasks.append(
                pool.submit(
                    _collapse_counts,
                    code,
                    _same_type([_as_array(seat0[by_r[r]]) for r in rounds]),
                    np.array(rounds, dtype=np.int64),
                    self.floor,
                    len(names_),
                )
            )
        return tasks

    def merge(self, names_: list[str], per_item: list[np.ndarray]) -> None:
        """Add the counts of the tasks ``submit`` started (each ``(variant, 4)``)."""
        if not per_item:
            return
        got = np.stack(per_item, axis=1)  # (variant, item, 4)
        for i, v in enumerate(names_):
            if got[i, 0, 0]:
                self.sums[v] = self.sums.get(v, 0) + got[i]

    def frame(self) -> pl.DataFrame:
        """The counts per (variant, item), integers as counted (``first_sum``, ``first_sq``: the sum of the
        first rounds and of their squares)."""
        rows = [
            (v, item, *(int(x) for x in self.sums[v][i]))
            for v in sorted(self.sums)
            for i, item in enumerate(self.demand)
        ]
        return pl.DataFrame(
            rows,
            orient="row",
            schema={
                "variant": pl.String,
                "item": pl.String,
                "games": pl.Int64,
                "collapsed": pl.Int64,
                "recovered": pl.Int64,
                "first_sum": pl.Int64,
                "first_sq": pl.Int64,
            },
        )


@njit(cache=True, nogil=True)
def _collapse_counts(code: np.ndarray, rounds_cols: tuple, rounds: np.ndarray, floor: int, groups: int) -> np.ndarray:
    """Per group: [games, games with the demand at ``floor`` after some round, of those games with it above
    ``floor`` after a later round, sum of the first such rounds, sum of their squares] for one item (its
    columns by ascending round)."""
    out = np.zeros((groups, 5), dtype=np.int64)
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
        out[g, 4] += rounds[first] * rounds[first]
        for j in range(len(rounds_cols)):
            if rounds[j] > rounds[first] and rounds_cols[j][i] > floor:
                out[g, 2] += 1
                break
    return out


class _Yields:
    """Per variant: exact integer sums of cubes sold x, sale money m and fame f (n, Σx, Σx², Σm, Σm², Σmx, Σf,
    Σf², Σfx), from which ``sale_yield``'s moments follow rounded once. ``exact`` turns False at the first
    batch whose sales columns are not null-free integers (the caller then scans with ``sale_yield``)."""

    def __init__(self, sold: list[str], income: list[str]) -> None:
        self.sold = sold
        self.income = income  # the money and points earned from sales
        self.exact = True
        self.batches = 0
        self.sums: dict[str, np.ndarray] = {}

    @property
    def whole_games(self) -> bool:
        """The sums are exact and every game's rows were in one batch (the per-game sums of the clustered
        interval need a game's total: a scan of several batches can cut a game in two, and then
        ``sale_yield``'s own group-by by game gives the interval)."""
        return self.exact and self.batches <= 1

    def add(self, batch: pl.DataFrame, names_: list[str], code: np.ndarray) -> None:
        """Add one batch's sums (run on a pool thread: the compiled loop releases the GIL)."""
        cols = [*self.sold, *self.income]
        self.batches += 1
        if not self.exact or any(not batch[c].dtype.is_integer() or batch[c].null_count() for c in cols):
            self.exact = False
            return
        x = np.zeros(len(batch), dtype=np.int64)
        for c in self.sold:
            x += batch[c].to_numpy()
        m = batch[self.income[0]].to_numpy().astype(np.int64, copy=False)
        f = batch[self.income[1]].to_numpy().astype(np.int64, copy=False)
        got = _yield_sums(code, x, m, f, len(names_))
        games = _game_sums(code, batch["game"].to_numpy().astype(np.int64), x, m, f, len(names_))
        for i, v in enumerate(names_):
            if got[i, 0]:
                self.sums[v] = self.sums.get(v, 0) + np.concatenate([got[i], games[i]])

    def frame(self) -> pl.DataFrame:
        """The exact sums per variant (columns ``YIELD_SUMS``)."""
        variants = sorted(self.sums)
        return pl.DataFrame(
            [(v, *(int(x) for x in self.sums[v])) for v in variants],
            orient="row",
            schema={"variant": pl.String, **dict.fromkeys((*YIELD_SUMS, *YIELD_GAME_SUMS), pl.Int64)},
        )


def _yield_moments(s: list[int]) -> dict[str, float | int | None]:
    """Means, sample variances and covariances (null under 2 rows, as polars) from exact integer sums."""
    n, sx, sxx = s[0], s[1], s[2]

    def cov(sa: int, sb: int, sab: int) -> float | None:
        return (n * sab - sa * sb) / (n * (n - 1)) if n > 1 else None

    out: dict[str, float | int | None] = {"rows": n, "cubes_per_seat": sx / n}
    games, gxx, gmm, gmx, gff, gfx = s[9:15]
    for y, (sy, syy, sxy), (gyy, gxy) in ((YIELDS[0], s[3:6], (gmm, gmx)), (YIELDS[1], s[6:9], (gff, gfx))):
        out |= {f"{y}__my": sy / n, f"{y}__vy": cov(sy, sy, syy), f"{y}__cv": cov(sx, sy, sxy)}
        out |= {f"{y}__gyy": float(gyy), f"{y}__gxy": float(gxy)}
    return out | {"__mx": sx / n, "__vx": cov(sx, sx, sxx), "__games": games, "__gxx": float(gxx)}


def _game_sums(
    code: np.ndarray, game: np.ndarray, x: np.ndarray, m: np.ndarray, f: np.ndarray, groups: int
) -> np.ndarray:
    """Per variant code: games, and Σ over its games of X², M², M·X, F², F·X of each game's totals (int64:
    exact). A game is (code, game index) within the batch: a chunk is one batch; after a scan of several
    batches (which may cut a game in two) the pass's yields are not used (``_Yields.whole_games``)."""
    key = code * (int(game.max()) + 1 if len(game) else 1) + game
    uniq, inv = np.unique(key, return_inverse=True)
    tot = np.zeros((len(uniq), 3), dtype=np.int64)
    np.add.at(tot, inv, np.stack([x, m, f], axis=1))
    owner = code[np.unique(inv, return_index=True)[1]]
    gx, gm, gf = tot[:, 0], tot[:, 1], tot[:, 2]
    out = np.zeros((groups, 6), dtype=np.int64)
    for j, v in enumerate((np.ones_like(gx), gx * gx, gm * gm, gm * gx, gf * gf, gf * gx)):
        np.add.at(out[:, j], owner, v)
    return out


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
    is per game but computed on every seat's row (its demand columns are there), so no join of seats to
    games is needed."""

    def __init__(self, demand: list[str], floor: int) -> None:
        self.demand = demand
        self.floor = floor
        self.counts: dict[tuple[str, int, int], list[int]] = {}  # rows, non-null shares
        self.sums: dict[tuple[str, int, int], tuple[list[float], list[float]]] = {}  # per batch: Σw, Σw²
        self.seat_dtype: pl.DataType = pl.Int64

    def add(self, batch: pl.DataFrame, names_: list[str], code: np.ndarray, seat: np.ndarray) -> None:
        """Add one batch's cells (run on a pool thread: the compiled loops release the GIL)."""
        self.seat_dtype = batch["seat"].dtype
        turbulence = np.zeros(len(batch), dtype=np.int64)
        for c in self.demand:
            _add_at_floor(turbulence, _as_array(batch[c]), self.floor)
        w = batch["win_share"].cast(pl.Float64)
        valid = w.is_not_null().to_numpy() if w.null_count() else np.ones(len(w), dtype=np.bool_)
        n, nw, sw, sq = _shift_sums(
            code,
            seat,
            turbulence,
            w.fill_null(0.0).to_numpy(),
            valid,
            len(names_),
            int(seat.max()) + 1,
            int(turbulence.max()) + 1,
        )
        for g, k, t in zip(*np.nonzero(n), strict=True):
            key = (names_[g], int(k), int(t))
            prev = self.counts.setdefault(key, [0, 0])
            prev[0] += int(n[g, k, t])
            prev[1] += int(nw[g, k, t])
            s1, s2 = self.sums.setdefault(key, ([], []))
            s1.append(float(sw[g, k, t]))
            s2.append(float(sq[g, k, t]))

    def cells(self) -> pl.DataFrame:
        """The cells in the layout ``_shift_frame`` reads (batch sums added exactly, rounded once), counts
        as Int64 (they are added over chunks)."""
        keys = sorted(self.counts)
        return pl.DataFrame(
            {
                "variant": pl.Series([k[0] for k in keys], dtype=pl.String),
                "seat": pl.Series([k[1] for k in keys], dtype=self.seat_dtype),
                "_count": pl.Series([k[2] for k in keys], dtype=pl.Int32),
                "count": pl.Series([self.counts[k][0] for k in keys], dtype=pl.Int64),
                "_sw": pl.Series([math.fsum(self.sums[k][0]) for k in keys], dtype=pl.Float64),
                "_sq": pl.Series([math.fsum(self.sums[k][1]) for k in keys], dtype=pl.Float64),
                "_nw": pl.Series([self.counts[k][1] for k in keys], dtype=pl.Int64),
            }
        )


@njit(cache=True, nogil=True)
def _add_at_floor(turbulence: np.ndarray, level: np.ndarray, floor: int) -> None:
    """Count a round end with the demand at ``floor`` or below into each row's turbulence (NaN: a null)."""
    for i in range(len(level)):
        turbulence[i] += level[i] <= floor


@njit(cache=True, nogil=True)
def _shift_sums(
    code: np.ndarray,
    seat: np.ndarray,
    turbulence: np.ndarray,
    w: np.ndarray,
    valid: np.ndarray,
    groups: int,
    seats: int,
    width: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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
