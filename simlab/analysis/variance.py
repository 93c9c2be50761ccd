"""How much of the result is luck: the variance of an outcome split into seat, bot, seat×bot and chance,
with batch-means intervals, from rows or merged from a digest's per-chunk cell sums.

Split from ``metrics`` so each module does one job; the figures are the same.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import (
    GameMajor,
    Results,
    as_lazy,
    bots_label,
    game_major,
    require,
)
from simlab.analysis.moments import coded_moments, group_moments, group_sums

#: batches are made of blocks of 60 consecutive games, so each batch holds every lineup rotation (2-6 seats)
BLOCK = 60


def variance_decomposition(
    results: Results, outcome: str = "score", batches: int = 20, level: float = 0.95
) -> pl.DataFrame:
    """How much of the result is luck? Shares of the variance of ``outcome`` due to seat, bot,
    seat×bot and chance (the rest), per variant.

    An ANOVA on the cells (seat, bot): a component is its sum of squares minus what noise alone would
    give (degrees of freedom × residual mean square, floored at 0), over the total. With a rotated
    lineup seat and bot are balanced, so the parts add up. Intervals by batch means over ``batches``
    batches of games (blocks of 60 consecutive game indices,
    so that every batch holds every lineup rotation).
    """
    lf = as_lazy(results)
    cells = variance_partial(lf, outcome, batches)
    games = variance_games_partial(lf, outcome, batches)
    return variance_from_partial(cells, outcome, level, bots_label(lf), games)


def variance_games_partial(results: Results, outcome: str = "score", batches: int = 20) -> pl.DataFrame:
    """Per (variant, batch): games and Σ_g T_g²/m_g (T_g a game's total of ``outcome`` over its m_g rows), the
    between-game sum of squares the noise term of ``variance_decomposition`` takes out. Sums: they merge over
    disjoint games (``merge_variance_games``)."""
    lf = as_lazy(results)
    y = pl.col(outcome).cast(pl.Float64)
    if isinstance(results, pl.DataFrame) and (layout := game_major(results)) is not None:
        x = layout.matrix(outcome)
        if not np.isnan(x).any():
            t = x.sum(axis=1)
            batch = (layout.game // BLOCK) % batches
            keys, code = np.unique(batch, return_inverse=True)
            frame = pl.DataFrame({"variant": [layout.variant] * len(keys), "_batch": pl.Series(keys, dtype=pl.Int64)})
            return coded_moments(frame, code.astype(np.int64), {}, {"t2m": t * t / layout.seats}, count="games")
    per_game = lf.group_by("variant", "game").agg(
        y.sum().alias("_t"),
        y.count().cast(pl.Float64).alias("_m"),
        ((pl.col("game") // BLOCK) % batches).first().alias("_batch"),
    )
    t2m = pl.when(pl.col("_m") > 0).then(pl.col("_t") ** 2 / pl.col("_m")).otherwise(0.0)
    if isinstance(results, pl.DataFrame):
        df = per_game.sort("variant", "game").collect().with_columns(pl.col("_batch").cast(pl.Int64))
        return group_moments(df, ["variant", "_batch"], sums={"t2m": t2m}, count="games")
    return (
        per_game.group_by("variant", "_batch")
        .agg(pl.len().cast(pl.UInt32).alias("games"), t2m.sum().alias("t2m"))
        .with_columns(pl.col("_batch").cast(pl.Int64))
        .sort("variant", "_batch")
        .collect()
    )


def merge_variance_games(df: pl.DataFrame) -> pl.DataFrame:
    """``variance_games_partial`` frames of disjoint games (concatenated) added per (variant, batch)."""
    return group_sums(df, ["variant", "_batch"], ["games", "t2m"])


def variance_partial(results: Results, outcome: str = "score", batches: int = 20) -> pl.DataFrame:
    """``variance_decomposition``'s cells: per (variant, batch, seat, bot) the rows, Σy and Σy², which add
    up over disjoint sets of games (``merge_variance``)."""
    lf = as_lazy(results)
    require(
        results if isinstance(results, pl.DataFrame) else lf,
        ("variant", "game", "seat", "bot", outcome),
        "variance_decomposition",
    )
    y = pl.col(outcome).cast(pl.Float64)
    rows = lf.select("variant", "seat", "bot", y.alias("_y"), ((pl.col("game") // BLOCK) % batches).alias("_batch"))
    if isinstance(results, pl.DataFrame) and (layout := game_major(results)) is not None:
        fast = _variance_in_order(layout, outcome, batches)
        if fast is not None:
            return fast
    if isinstance(results, pl.DataFrame):  # in memory: sums whose bits do not depend on threads
        return group_moments(
            rows.collect(),
            ["variant", "_batch", "seat", "bot"],
            sums={"s": pl.col("_y"), "ss": pl.col("_y") ** 2},
            count="n",
        ).select("variant", "_batch", "seat", "bot", "n", "s", "ss")
    return (
        rows.group_by("variant", "_batch", "seat", "bot")
        .agg(pl.len().alias("n"), pl.col("_y").sum().alias("s"), (pl.col("_y") ** 2).sum().alias("ss"))
        .sort("variant", "_batch", "seat", "bot")
        .collect()
    )


def _variance_in_order(layout: GameMajor, outcome: str, batches: int) -> pl.DataFrame | None:
    """``variance_partial`` of a chunk as a run writes it: cells coded in numpy, no group-by (None if a bot is
    null: then the group-by, which keeps a null bot as its own cell)."""
    rows, n = layout.rows, layout.seats
    bot = rows["bot"].cast(pl.String)
    if bot.null_count():
        return None
    names_ = bot.unique().sort()
    bot_code = (bot.rank("dense").to_numpy() - 1).astype(np.int64)
    batch = np.repeat((layout.game // BLOCK) % batches, n)
    code = (batch * n + layout.codes()) * len(names_) + bot_code
    cells, inverse = np.unique(code, return_inverse=True)
    keys = pl.DataFrame(
        {
            "variant": [layout.variant] * len(cells),
            "_batch": pl.Series(cells // (n * len(names_)), dtype=pl.Int64),
            "seat": pl.Series(cells // len(names_) % n, dtype=rows["seat"].dtype),
            "bot": names_.gather(cells % len(names_)),
        }
    )
    y = layout.matrix(outcome).ravel()
    return coded_moments(keys, inverse.astype(np.int64), {}, {"s": y, "ss": y * y}, count="n").select(
        "variant", "_batch", "seat", "bot", "n", "s", "ss"
    )


def merge_variance(cells: pl.DataFrame) -> pl.DataFrame:
    """``variance_partial`` frames of disjoint games (concatenated) merged cell by cell."""
    return group_sums(cells, ["variant", "_batch", "seat", "bot"], ["n", "s", "ss"])


def variance_from_partial(
    cells: pl.DataFrame,
    outcome: str = "score",
    level: float = 0.95,
    bots: str = "",
    games: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """``variance_decomposition`` from its (merged) cells and game sums (``variance_games_partial``): the row
    scan and a digest end in this function. Without ``games`` (an older digest) the noise term is the
    residual mean square of independent rows."""
    between = {}
    if games is not None:
        between = {(r["variant"], r["_batch"]): (int(r["games"]), r["t2m"]) for r in games.iter_rows(named=True)}
    parts = []
    for (variant, batch), g in cells.group_by("variant", "_batch"):
        parts.append({"variant": variant, "batch": batch, **_anova(g, between.get((variant, batch)))})
    full = cells.group_by("variant", "seat", "bot").agg(pl.col("n", "s", "ss").sum())
    out = []
    for (variant,), g in full.group_by("variant"):
        mine = [v for (w, _b), v in between.items() if w == variant]
        est = _anova(g, (sum(v[0] for v in mine), sum(v[1] for v in mine)) if mine else None)
        per_batch = [p for p in parts if p["variant"] == variant]
        for comp in ("seat", "bot", "seat_bot", "chance"):
            _m, lo, hi = stats.batch_interval([p[comp] for p in per_batch], level)
            half = (hi - lo) / 2  # batch spread, centred on the full-data estimate (less biased than _m)
            out.append(
                {
                    "variant": variant,
                    "component": comp,
                    "share": est[comp],
                    "share_lo": max(est[comp] - half, 0.0),
                    "share_hi": min(est[comp] + half, 1.0),
                    "games": est["rows"] // max(g["seat"].n_unique(), 1),
                    "outcome": outcome,
                }
            )
    return (
        pl.DataFrame(out)
        .sort("variant", "component")
        .with_columns(pl.lit(bots).alias("bots"), pl.lit(stats.BATCH_METHOD).alias("interval"))
    )


def _anova(cells: pl.DataFrame, between: tuple[int, float] | None = None) -> dict[str, float]:
    """Variance shares from cell counts, sums and sums of squares (n, s, ss per seat and bot).

    The noise a component's sum of squares would show without any effect is its df × the noise mean square.
    The seats of one game share its luck (a long game lifts every score), and seat and bot are compared
    within games (every game seats each seat once, and the same bots), so that shared part cancels from
    their sums of squares: the noise mean square is the residual's *within games*, the between-game sum of
    squares (``between`` = games and Σ_g T_g²/m_g) taken out of it. Counted as independent rows instead, it
    over- or under-states the noise (the share of a seat effect with it). The shared luck stays in chance."""
    n = cells["n"].cast(pl.Float64)
    total_n = float(n.sum())
    mean = float(cells["s"].sum()) / total_n
    ss_total = float(cells["ss"].sum()) - total_n * mean**2
    cell_mean = cells["s"] / n
    ss_cells = float((n * (cell_mean - mean) ** 2).sum())

    def main(key: str) -> tuple[float, int]:
        g = cells.group_by(key).agg(pl.col("n").sum(), pl.col("s").sum())
        m = g["s"] / g["n"]
        return float((g["n"] * (m - mean) ** 2).sum()), g.height - 1

    ss_seat, df_seat = main("seat")
    ss_bot, df_bot = main("bot")
    ss_int = max(ss_cells - ss_seat - ss_bot, 0.0)
    df_int = max(cells.height - 1 - df_seat - df_bot, 0)
    df_res = max(total_n - cells.height, 1)
    ms_res = (ss_total - ss_cells) / df_res
    if between is not None and between[0] > 1 and total_n - cells.height - (between[0] - 1) > 0:
        ss_games = between[1] - total_n * mean**2  # Σ_g m_g (ȳ_g − ȳ)²
        ms_res = max(ss_total - ss_cells - ss_games, 0.0) / (total_n - cells.height - (between[0] - 1))
    if ss_total <= 0:
        return {"seat": 0.0, "bot": 0.0, "seat_bot": 0.0, "chance": 1.0, "rows": int(total_n)}
    seat = max(ss_seat - df_seat * ms_res, 0.0) / ss_total
    bot = max(ss_bot - df_bot * ms_res, 0.0) / ss_total
    inter = max(ss_int - df_int * ms_res, 0.0) / ss_total
    return {"seat": seat, "bot": bot, "seat_bot": inter, "chance": 1.0 - seat - bot - inter, "rows": int(total_n)}
