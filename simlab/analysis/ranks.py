"""Ranks with their uncertainty: which places each item (a card, a god, an item) can plausibly hold.

"The most valuable card" is a *selected* result: with twenty cards of similar value, the one ranked first by
its estimate is often first by luck. So every rank comes with the set of ranks the data cannot rule out,
following Klein, Wright & Wright (2020, "Joint confidence regions for rankings", Journal of Applied
Statistics): from intervals that cover all K values together (Bonferroni, :func:`stats.simultaneous_z`),
item i ranks at least ``1 + #(items whose whole interval lies above i's)`` and at most
``K − #(items whose whole interval lies below i's)``. All K rank intervals hold together with probability at
least ``level``, whatever the correlation between the estimates (paired card values share one control).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.analysis import stats

RANK_METHOD = (
    "plausible ranks: Klein, Wright & Wright (2020), from intervals simultaneous over the {k} {what} "
    "(Bonferroni); all rank intervals hold together at {level}"
)


def rank_intervals(estimates: np.ndarray, ses: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, ...]:
    """``(rank, rank_lo, rank_hi)`` of each estimate, 1 = largest; ties in the estimate keep the input order.

    An item with an undefined standard error (NaN) cannot be placed: its interval is every rank.
    """
    est = np.asarray(estimates, dtype=float)
    se = np.asarray(ses, dtype=float)
    k = est.size
    order = np.argsort(-est, kind="stable")
    rank = np.empty(k, dtype=np.int64)
    rank[order] = np.arange(1, k + 1)
    if k == 0:
        return rank, rank.copy(), rank.copy()
    z = stats.simultaneous_z(level, k)
    known = np.isfinite(est) & np.isfinite(se)
    lo = np.where(known, est - z * se, -np.inf)
    hi = np.where(known, est + z * se, np.inf)
    above = (lo[None, :] > hi[:, None]).sum(axis=1)  # items surely larger than i
    below = (hi[None, :] < lo[:, None]).sum(axis=1)  # items surely smaller than i
    return rank, 1 + above, k - below


def with_ranks(
    frame: pl.DataFrame,
    value: str = "win_share_diff",
    se: str = "win_share_diff_se",
    level: float = 0.95,
    ranked: pl.Expr | None = None,
) -> pl.DataFrame:
    """``frame`` with ``rank``, ``rank_lo`` and ``rank_hi`` for the rows ``ranked`` selects (default: all;
    the card analysis passes ``kind == "card"`` so that money offsets are not ranked among the cards)."""
    mask = frame.select((ranked if ranked is not None else pl.lit(True)).alias("m"))["m"].to_numpy()
    rows = np.flatnonzero(mask)
    rank, lo, hi = rank_intervals(frame[value].to_numpy()[rows], frame[se].to_numpy()[rows], level)
    columns = {}
    for name, values in (("rank", rank), ("rank_lo", lo), ("rank_hi", hi)):
        full: list[int | None] = [None] * frame.height
        for row, v in zip(rows.tolist(), values.tolist(), strict=True):
            full[row] = v
        columns[name] = pl.Series(name, full, dtype=pl.Int64)
    return frame.with_columns(*columns.values())


def rank_range(rank: int, lo: int, hi: int, dash: str = "–") -> str:
    """A table cell or chart label: "2 (1–3)", the rank and its plausible ranks (``dash`` "-" for plain text)."""
    return f"{rank} ({lo}{dash}{hi})"


def rank_text(rank: int, lo: int, hi: int, k: int) -> str:
    """ "ranked 1 of 12 (plausible ranks 1–3)", or "(its rank is settled)" when the interval is one rank."""
    if lo == hi:
        return f"ranked {rank} of {k} (its rank is settled)"
    return f"ranked {rank} of {k} (plausible ranks {lo}–{hi})"


def rank_method(k: int, what: str, level: float) -> str:
    """The caption's words for how the rank intervals were made."""
    return RANK_METHOD.format(k=k, what=what, level=f"{level:.0%}")
