"""Paired win shares from a digest: each game's winners as one byte, so variants pair game by game cheaply.

``compare_variants`` pairs game i of a variant with game i of the base: its variance needs Σ over games of
w_variant·w_base, which no per-chunk sum can give (the two games are in different chunks). But a game's win
shares are fixed by who won: every winner gets 1/(number of winners), everyone else 0. So a chunk keeps one
byte per game — the bit mask of its winners (``win_masks``) — about a KB per 2,500 games once compressed,
and ``compare_variants_from_partial`` pairs ten million games by counting each (variant mask, base mask) pair
in one ``bincount``, then sums over the 65,536 possible pairs with exact integers (shares counted in 840ths,
a whole number for any 1 to 8 tied winners).

A game whose shares are not split equally among its winners (a plug-in game with another rule) gets no
masks, so its report pairs the rows as before.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import AnalysisError, game_major
from simlab.core.suggest import unknown_name

#: a win share in these units is a whole number for 1 to 8 tied winners (the least common multiple of 1..8)
UNITS = 840
#: seats a one-byte mask holds
MAX_SEATS = 8
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def win_masks(rows: pl.DataFrame) -> pl.DataFrame | None:
    """One row for a chunk's rows (one variant, consecutive games, each game's seats in order): variant,
    ``first`` game and ``masks``, a byte per game from ``first`` to the last (0 for a game not in the rows).
    None if the shares are not 1/(winners) for every winner, or the rows are not laid out as a run writes them."""
    layout = game_major(rows)
    if layout is None or layout.seats > MAX_SEATS or rows["win_share"].null_count():
        return None
    n, game = layout.seats, layout.game
    share = layout.matrix("win_share")
    won = share > 0
    mask = (won * (1 << np.arange(n))).sum(axis=1).astype(np.uint8)
    expected = np.where(won, 1.0 / np.maximum(won.sum(axis=1, keepdims=True), 1), 0.0)
    if not np.allclose(share, expected, rtol=0, atol=1e-12) or (mask == 0).any():
        return None
    first = int(game[0])
    out = np.zeros(int(game[-1]) - first + 1, dtype=np.uint8)
    out[game - first] = mask
    return pl.DataFrame(
        {"variant": [layout.variant], "first": [first], "seats": [n], "masks": [out.tobytes()]},
        schema={"variant": pl.String, "first": pl.Int64, "seats": pl.Int32, "masks": pl.Binary},
    )


def _by_variant(masks: pl.DataFrame) -> dict[str, np.ndarray]:
    """Per variant, its games' masks laid out by game index (0 where a game is missing)."""
    out: dict[str, np.ndarray] = {}
    for (variant,), d in masks.sort("variant", "first").group_by("variant", maintain_order=True):
        pieces = [(int(f), np.frombuffer(m, dtype=np.uint8)) for f, m in zip(d["first"], d["masks"], strict=True)]
        end = max(f + len(m) for f, m in pieces)
        arr = np.zeros(end, dtype=np.uint8)
        for f, m in pieces:
            arr[f : f + len(m)] |= m
        out[str(variant)] = arr
    return out


def compare_variants_from_partial(masks: pl.DataFrame, base: str, level: float = 0.95) -> pl.DataFrame:
    """``compare_variants(rows, base)`` (win share by seat, paired by game) from the chunks' ``win_masks``."""
    by = _by_variant(masks)
    if base not in by:
        raise AnalysisError(f"these results: {unknown_name('variant', base, sorted(by))}")
    n = int(masks["seats"].max())
    codes = np.arange(256)
    # a seat's share in 840ths for every mask: the pairs of masks are all a comparison needs to know
    share = np.stack([((codes >> k) & 1) * (UNITS // np.maximum(_POPCOUNT, 1)) for k in range(n)], axis=1)
    rows = []
    for variant in sorted(v for v in by if v != base):
        x, b = by[variant], by[base]
        m = min(len(x), len(b))
        x, b = x[:m].astype(np.int64), b[:m].astype(np.int64)
        both = (x > 0) & (b > 0)  # a game missing from either (0: not played) is not a pair
        pairs = np.bincount(x[both] * 256 + b[both], minlength=256 * 256).reshape(256, 256)
        games = int(pairs.sum())
        for k in range(n):
            wx, wb = share[:, k][:, None], share[:, k][None, :]
            d = wx - wb
            sd, sdd = int((pairs * d).sum()), int((pairs * d * d).sum())  # exact: integers throughout
            mean = sd / games / UNITS if games else None
            var = (sdd - sd * sd / games) / (games - 1) / UNITS**2 if games > 1 else None
            rows.append(
                {
                    "variant": variant,
                    "seat": k,
                    "games": games,
                    "base": int((pairs * wb).sum()) / games / UNITS if games else None,
                    "value": int((pairs * wx).sum()) / games / UNITS if games else None,
                    "diff__n": games,
                    "diff": mean,
                    "diff__sd": max(var, 0.0) ** 0.5 if var is not None else None,
                }
            )
    schema = {
        "variant": pl.String,
        "seat": pl.Int32,
        "games": pl.UInt32,
        "base": pl.Float64,
        "value": pl.Float64,
        "diff__n": pl.UInt32,
        "diff": pl.Float64,
        "diff__sd": pl.Float64,
    }
    out = pl.DataFrame(rows, schema=schema)
    return finish_comparison(out, base, level)


def finish_comparison(out: pl.DataFrame, base: str, level: float) -> pl.DataFrame:
    """The paired differences' intervals and p-values (``compare_variants``'s last step, shared).

    Every (variant, seat) row is one test of a family: four seats of one null variant give some p < .05 in
    about 17% of comparisons, sixteen tests in 40%. So besides each row's own interval and ``p`` there are
    ``p_adjusted`` (Holm over every row of the frame: all seats and all variants compared) and
    ``diff_slo``/``diff_shi``, intervals simultaneous over the same rows (Bonferroni): the "largest change"
    a report picks out is covered by its simultaneous interval however it was selected.
    """
    out = stats.with_mean_interval(out, "diff", level, keep_se=True)
    p = stats.normal_p(out["diff"].to_numpy(), out["diff_se"].to_numpy())
    tested = np.isfinite(p)
    p_adj = np.full(len(p), np.nan)
    p_adj[tested] = stats.holm(p[tested])
    m = int(tested.sum())
    z = stats.simultaneous_z(level, m)
    return out.with_columns(
        pl.Series("p", p),
        pl.Series("p_adjusted", p_adj),
        (pl.col("diff") - z * pl.col("diff_se")).alias("diff_slo"),
        (pl.col("diff") + z * pl.col("diff_se")).alias("diff_shi"),
        pl.lit(base).alias("base_variant"),
        pl.lit(stats.PAIRED_METHOD).alias("interval"),
        pl.lit(stats.simultaneous_method(level, m, "seat-and-variant changes") + "; p adjusted: Holm").alias(
            "simultaneous"
        ),
    ).drop("diff_se")
