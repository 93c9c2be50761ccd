"""Per-group counts, means, sds and sums of an in-memory frame, the same bits on any machine and thread count.

polars adds floats in a group-by in an order that depends on its thread pool (measured: the same chunk's
means and sds differed in the last bits between a run's worker processes and the main process, and between
calls with 4 threads). A chunk's digest is part of its part file, and a run's files must be identical for any
number of workers, so the digest's partials aggregate here instead: sequential compensated sums (Neumaier)
in row order, in a compiled loop. Output columns are those of ``stats.mean_aggs`` (``name__n``, ``name``,
``name__sd``). Merging digests (``group_sums``, ``combine_moments``: ``stats.combine_mean_aggs`` in a fixed
order) adds the same way, so a compacted file's digest and a report's numbers do not depend on threads either.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from numba import njit


def group_moments(
    df: pl.DataFrame,
    by: list[str],
    means: dict[str, pl.Expr] | None = None,
    sums: dict[str, pl.Expr] | None = None,
    count: str | None = None,
) -> pl.DataFrame:
    """One row per ``by`` group (sorted): ``count`` (rows), the ``mean_aggs`` of each of ``means`` (name ->
    value expression; nulls skipped) and the sum of each of ``sums``."""
    means, sums = means or {}, sums or {}
    keys = df.select(by).unique(maintain_order=True).sort(by)
    codes = df.select(by).join(keys.with_row_index("_g"), on=by, how="left", maintain_order="left")["_g"]
    exprs = [e.cast(pl.Float64).alias(n) for n, e in (means | sums).items()]
    values = df.select(exprs).fill_nan(None).to_numpy().astype(np.float64) if exprs else np.zeros((df.height, 0))
    columns = {n: values[:, j] for j, n in enumerate(means | sums)}
    return coded_moments(
        keys, codes.to_numpy().astype(np.int64), {n: columns[n] for n in means}, {n: columns[n] for n in sums}, count
    )


def coded_moments(
    keys: pl.DataFrame,
    codes: np.ndarray,
    means: dict[str, np.ndarray],
    sums: dict[str, np.ndarray] | None = None,
    count: str | None = None,
) -> pl.DataFrame:
    """``group_moments`` of rows already coded: ``codes[i]`` is row i's group, a row of ``keys``; values as
    float arrays, NaN for a null (skipped)."""
    sums = sums or {}
    names = [*means, *sums]
    values = (
        np.column_stack([np.asarray(a, dtype=np.float64) for a in (*means.values(), *sums.values())])
        if names
        else np.zeros((len(codes), 0))
    )
    n, s, ss = _moments(codes, np.ascontiguousarray(values), keys.height)
    counts: dict[str, np.ndarray] = {}  # built into one frame at the end: a polars call per column costs more
    floats: dict[str, np.ndarray] = {}  # than the arithmetic at a chunk's size
    if count:
        counts[count] = np.bincount(codes, minlength=keys.height)
    for j, name in enumerate(means):
        k, total, squares = n[:, j], s[:, j], ss[:, j]
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(k > 0, total / np.maximum(k, 1), np.nan)
            var = np.where(k > 1, np.maximum(squares - k * mean * mean, 0.0) / np.maximum(k - 1, 1), np.nan)
        counts[f"{name}__n"], floats[name], floats[f"{name}__sd"] = k, mean, np.sqrt(var)
    for j, name in enumerate(sums, start=len(means)):
        floats[name] = s[:, j]
    order = ([count] if count else []) + [c for m in means for c in (f"{m}__n", m, f"{m}__sd")] + list(sums)
    if not order:
        return keys
    out = pl.DataFrame({c: counts[c].astype(np.uint32) if c in counts else floats[c] for c in order}, nan_to_null=True)
    return keys.hstack(out.get_columns())


@njit(cache=True, nogil=True)
def _moments(codes: np.ndarray, values: np.ndarray, groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per group and column: non-null values, Σx and Σx², each sum compensated (Neumaier) in row order."""
    cols = values.shape[1]
    n = np.zeros((groups, cols), dtype=np.int64)
    sums = np.zeros((2, groups, cols))
    comp = np.zeros((2, groups, cols))
    for i in range(len(codes)):
        g = codes[i]
        for j in range(cols):
            x = values[i, j]
            if np.isnan(x):
                continue
            n[g, j] += 1
            for p in range(2):
                y = x if p == 0 else x * x
                t = sums[p, g, j]
                u = t + y
                comp[p, g, j] += (t - u) + y if abs(t) >= abs(y) else (y - u) + t
                sums[p, g, j] = u
    total = sums + comp
    return n, total[0], total[1]


def group_sums(df: pl.DataFrame, by: list[str], columns: list[str]) -> pl.DataFrame:
    """One row per ``by`` group (sorted) with the sum of each of ``columns`` (nulls count 0): integers added
    exactly, floats in row order with compensation, so the result is the same on any machine. The merge of
    digests uses it; the rows' order (files, then chunks) is fixed."""
    keys = df.select(by).unique(maintain_order=True).sort(by)
    codes = df.select(by).join(keys.with_row_index("_g"), on=by, how="left", maintain_order="left")["_g"]
    code = codes.to_numpy().astype(np.int64)
    out: dict[str, pl.Series] = {}
    floats = [c for c in columns if not df.schema[c].is_integer()]
    if floats:
        values = df.select(pl.col(c).cast(pl.Float64).fill_null(0.0) for c in floats).to_numpy()
        _n, s, _ss = _moments(code, np.ascontiguousarray(values, dtype=np.float64), keys.height)
        out |= {c: pl.Series(c, s[:, j], dtype=pl.Float64) for j, c in enumerate(floats)}
    for c in columns:
        if c not in out:
            total = np.zeros(keys.height, dtype=np.int64)
            np.add.at(total, code, df[c].fill_null(0).cast(pl.Int64).to_numpy())
            out[c] = pl.Series(c, total, dtype=df.schema[c])
    return keys.with_columns(out[c] for c in columns)


def combine_moments(df: pl.DataFrame, by: list[str], names: list[str], sums: tuple[str, ...] = ()) -> pl.DataFrame:
    """``stats.combine_mean_aggs`` (``mean_aggs`` of disjoint sets merged per ``by`` group, plus ``sums``
    added), with ``group_sums``' fixed order: the same bits on any machine, for merging digests."""
    if df.is_empty():
        return df
    weighted = [pl.col(f"{n}__n").cast(pl.Float64).alias(f"_w{n}") for n in names]
    products = [(pl.col(f"{n}__n").cast(pl.Float64) * pl.col(n).fill_null(0.0)).alias(f"_p{n}") for n in names]
    first = group_sums(
        df.with_columns(*weighted, *products),
        by,
        [*sums, *(f"{n}__n" for n in names), *(f"_w{n}" for n in names), *(f"_p{n}" for n in names)],
    )
    means = first.select(
        *by, *(pl.when(pl.col(f"_w{n}") > 0).then(pl.col(f"_p{n}") / pl.col(f"_w{n}")).alias(f"_m{n}") for n in names)
    )
    spread = [
        (
            (pl.col(f"{n}__sd").fill_null(0.0) ** 2) * (pl.col(f"{n}__n").cast(pl.Float64) - 1).clip(0)
            + pl.col(f"{n}__n").cast(pl.Float64) * (pl.col(n) - pl.col(f"_m{n}")).fill_null(0.0) ** 2
        ).alias(f"_s{n}")
        for n in names
    ]
    second = group_sums(
        df.join(means, on=by, how="left", maintain_order="left").with_columns(spread), by, [f"_s{n}" for n in names]
    )
    out = first.join(means, on=by).join(second, on=by)
    return out.select(
        *by,
        *sums,
        *(
            e
            for n in names
            for e in (
                pl.col(f"{n}__n"),
                pl.col(f"_m{n}").alias(n),
                pl.when(pl.col(f"_w{n}") > 1)
                .then((pl.col(f"_s{n}") / (pl.col(f"_w{n}") - 1)).sqrt())
                .alias(f"{n}__sd"),
            )
        ),
    )
