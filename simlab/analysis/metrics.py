"""General balance metrics of any game: length, margin, draws, decisiveness, lead changes, luck.

Every figure comes per variant with its interval and game count. Decisiveness and lead changes read the
columns of role ``score.round`` (the score if the game ended after round K); a game that declares no such
role gets "not available for this game" (``NotAvailableError``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import polars as pl
from numba import njit

from simlab.analysis import stats
from simlab.analysis.frames import (
    AnalysisError,
    GameMajor,
    Results,
    as_lazy,
    bots_label,
    game_batches,
    game_major,
    games_per_variant,
    names,
    players,
    require,
    require_roles,
    roles,
)
from simlab.analysis.markets import _quantiles
from simlab.analysis.moments import coded_moments, combine_moments, group_moments, group_sums

GAME = ("variant", "game")
#: batches are made of blocks of 60 consecutive games, so each batch holds every lineup rotation (2-6 seats)
BLOCK = 60


#: games per batch of a per-game pipeline: bounds the memory of its per-game state (about 0.5 KB a game
#: for the decisiveness pivot, a quarter of that for length and margin)
LEAD_BATCH = 2_500_000
SUMMARY_BATCH = 6_000_000


def _seat_pivot(lf: pl.LazyFrame, n: int, columns: dict[str, pl.Expr], extra: list[pl.Expr]) -> pl.LazyFrame:
    """One row per game with ``<name>_<seat>`` for every seat: simple per-game aggregates (a max of one value)
    instead of sorting or windowing inside every game. ``columns`` maps a name to a row value."""
    seat = pl.col("seat")
    aggs = [pl.when(seat == k).then(x).max().alias(f"{name}_{k}") for name, x in columns.items() for k in range(n)]
    return (
        lf.with_columns(pl.col("variant").cast(pl.Categorical))  # a smaller per-game key than a string
        .group_by(*GAME)
        .agg(*extra, *aggs)
    )


class _NotInOrder(Exception):
    """The rows are not one block of ``players`` consecutive rows per game, seats 0..n-1 in order."""


#: rows per batch of ``_pivot_in_order`` (a batch's columns, decoded, are what is in memory at once)
ORDERED_BATCH = 1_000_000


def _pivot_in_order(lf: pl.LazyFrame, n: int, columns: dict[str, pl.Expr]) -> Iterator[pl.DataFrame]:
    """``_seat_pivot`` (with the game's first ``turns``) of rows stored game-major, without a group-by.

    A run writes each game's seats on consecutive rows, seat 0 first, so in file order every ``n`` rows are
    one game: each seat's column is every n-th value. This checks that layout batch by batch (seats 0..n-1,
    one game and variant per block) and raises ``_NotInOrder`` at the first block that breaks it, before
    the caller has used anything of that batch. A block cut by a batch's end is carried to the next batch.
    """
    query = lf.select("variant", "game", "seat", "turns", *(x.alias(name) for name, x in columns.items()))
    carry: pl.DataFrame | None = None
    for batch in query.collect_batches(chunk_size=ORDERED_BATCH, maintain_order=True, engine="streaming"):
        if carry is not None and carry.height:
            batch = pl.concat([carry, batch], how="vertical_relaxed")
        whole = batch.height - batch.height % n
        carry = batch.slice(whole)
        if whole:
            yield _reshape_games(batch.slice(0, whole), n, list(columns))
    if carry is not None and carry.height:
        raise _NotInOrder


def _reshape_games(rows: pl.DataFrame, n: int, columns: list[str]) -> pl.DataFrame:
    """One row per game from blocks of ``n`` rows (see ``_pivot_in_order``); ``_NotInOrder`` if not blocks."""
    games = rows.height // n
    seat, game, variant = rows["seat"], rows["game"], rows["variant"]
    if seat.null_count() or game.null_count() or variant.null_count():
        raise _NotInOrder
    if not np.array_equal(seat.to_numpy().reshape(games, n), np.broadcast_to(np.arange(n), (games, n))):
        raise _NotInOrder
    g = game.to_numpy().reshape(games, n)
    runs = variant.rle_id().to_numpy().reshape(games, n)  # a new run wherever the variant changes
    if not (g == g[:, :1]).all() or not (runs == runs[:, :1]).all():
        raise _NotInOrder
    wide = {"variant": variant.gather_every(n), "turns": rows["turns"].gather_every(n)}
    for name in columns:
        col = rows[name]
        if col.null_count():
            for k in range(n):
                wide[f"{name}_{k}"] = col.gather_every(n, k)
        else:  # seat k's values are every n-th: one transposed copy instead of n strided gathers
            by_seat = np.ascontiguousarray(col.to_numpy().reshape(games, n).T)
            for k in range(n):
                wide[f"{name}_{k}"] = pl.Series(by_seat[k], dtype=col.dtype)
    return pl.DataFrame(wide)


def balance_summary(results: Results, level: float = 0.95) -> pl.DataFrame:
    """Per variant: games, mean turns, mean margin of victory (winner minus runner-up), draw rate."""
    return game_metrics(results, level, lead=False)[0]


def game_metrics(results: Results, level: float = 0.95, lead: bool = True) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """``balance_summary`` and ``lead_metrics`` together, from one pivot of each batch of games (what a report
    needs, for the cost of one); the second is None without per-round scores or ``lead=False``."""
    lf0 = as_lazy(results)
    return game_metrics_from_partial(game_metrics_partial(lf0, lead), level, bots_label(lf0))


def game_metrics_partial(results: Results, lead: bool = True) -> pl.DataFrame:
    """Per variant: games, shared wins and the ``mean_aggs`` of turns, margin (and the lead figures with
    per-round scores), which merge over disjoint sets of games (``merge_game_metrics``)."""
    in_memory = isinstance(results, pl.DataFrame)
    lf0 = as_lazy(results)
    source = results if isinstance(results, pl.DataFrame) else lf0  # a DataFrame's columns need no schema
    require(source, ("variant", "game", "seat", "score", "rank", "turns"), "balance_summary (and lead_metrics)")
    rounds = score_rounds(source) if lead else {}
    if in_memory and (layout := game_major(results)) is not None:
        fast = _game_metrics_in_order(layout, rounds)
        if fast is not None:
            return fast
    if rounds:
        require(lf0, ("win_share",), "lead_metrics")
    lf = lf0.select(
        "variant", "game", "seat", "score", "rank", "turns", *(["win_share", *rounds.values()] if rounds else [])
    )
    n = players(lf0)
    ks = list(rounds)
    lead_cols = _lead_columns(ks)
    columns = {"_s": pl.col("score").cast(pl.Float64), "_r": (pl.col("rank") == 1).cast(pl.Int32)}
    if rounds:
        columns |= {**{f"_s{k}": pl.col(c) for k, c in rounds.items()}, "_w": pl.col("win_share").cast(pl.Float64)}

    def per_variant(wide: pl.LazyFrame) -> pl.DataFrame:
        per_game = wide.select(
            "variant",
            "turns",
            _winners(n).alias("winners"),
            _margin(n).alias("margin"),
            *(_lead_exprs(ks, n) if rounds else []),
        )
        if in_memory:  # a chunk: sums whose bits do not depend on threads (its games are in row order)
            df = group_moments(
                per_game.with_columns(pl.col("variant").cast(pl.String)).collect(),
                ["variant"],
                {c: pl.col(c) for c in ("turns", "margin", *lead_cols)},
                {"draws": (pl.col("winners") > 1)},
                count="games",
            )
            return df.with_columns(pl.col("draws").cast(pl.UInt32)).select(
                "variant",
                "games",
                "draws",
                *(f"{c}{s}" for c in ("turns", "margin", *lead_cols) for s in ("__n", "", "__sd")),
            )
        return (
            per_game.group_by("variant")
            .agg(
                pl.len().alias("games"),
                (pl.col("winners") > 1).sum().alias("draws"),
                *(a for c in ("turns", "margin", *lead_cols) for a in stats.mean_aggs(c)),
            )
            .with_columns(pl.col("variant").cast(pl.String))
            .sort("variant")
            .collect()
        )

    try:  # rows as a run stores them (a game's seats on consecutive rows): the pivot is a reshape
        parts = [per_variant(wide.lazy()) for wide in _pivot_in_order(lf, n, columns)]
        if not parts:
            raise _NotInOrder  # no rows: the group-by gives the empty frames
    except _NotInOrder:  # any other order (a user's sorted or filtered frame): a group-by per batch of games
        parts = [
            per_variant(_seat_pivot(batch, n, columns, [pl.col("turns").first().alias("turns")]))
            for batch in game_batches(lf, LEAD_BATCH if rounds else SUMMARY_BATCH, of=lf0)
        ]
    return merge_game_metrics(pl.concat(parts, how="vertical_relaxed")) if len(parts) > 1 else parts[0]


def _game_metrics_in_order(layout: GameMajor, rounds: dict[int, str]) -> pl.DataFrame | None:
    """``game_metrics_partial`` of a chunk as a run writes it, the per-game figures from (games, seats)
    matrices in numpy (the same definitions as ``_winners``, ``_margin`` and ``_lead_exprs``: a few ms where
    polars' horizontal expressions take tens). None if a value is null (then the polars expressions, whose
    null rules those are)."""
    rows, ks = layout.rows, list(rounds)
    needed = ["score", "rank", "turns", *(["win_share", *rounds.values()] if ks else [])]
    if any(c not in rows.columns or rows[c].null_count() for c in needed):
        return None
    score = layout.matrix("score")
    by_round = np.stack([layout.matrix(c) for c in rounds.values()]) if ks else np.zeros((0, *score.shape))
    w = layout.matrix("win_share") if ks else np.zeros(score.shape)
    figures = _per_game_figures(score, layout.matrix("rank") == 1, w, by_round, np.array(ks, dtype=np.float64))
    values = {"turns": layout.matrix("turns")[:, 0], "margin": figures[:, 1]}
    if ks:
        values |= {f"leader_wins_r{k}": figures[:, 2 + i] for i, k in enumerate(ks)}
        values |= {"lead_from": figures[:, 2 + len(ks)], "lead_changes": figures[:, 3 + len(ks)]}
    keys = pl.DataFrame({"variant": [layout.variant]})
    df = coded_moments(keys, np.zeros(len(score), dtype=np.int64), values, {"draws": figures[:, 0]}, count="games")
    return df.with_columns(pl.col("draws").cast(pl.UInt32)).select(
        "variant",
        "games",
        "draws",
        *(f"{c}{s}" for c in ("turns", "margin", *_lead_columns(ks)) for s in ("__n", "", "__sd")),
    )


@njit(cache=True, nogil=True)
def _per_game_figures(
    score: np.ndarray, first: np.ndarray, w: np.ndarray, by_round: np.ndarray, ks: np.ndarray
) -> np.ndarray:
    """Per game: [shared win (0/1), margin, leader_wins_r<k> for each round, lead_from, lead_changes] — the
    definitions of ``_winners``, ``_margin`` and ``_lead_exprs`` for values without nulls, in one compiled pass
    (numpy's reductions over 2-6 seats cost more per call than the work)."""
    games, n = score.shape
    rounds = len(ks)
    out = np.full((games, 4 + rounds), np.nan)
    lead = np.zeros((rounds, n), dtype=np.bool_)
    for g in range(games):
        winners = 0
        top = -np.inf
        for j in range(n):
            winners += first[g, j]
            top = max(top, score[g, j])
        tied = 0
        below = -np.inf
        for j in range(n):
            if score[g, j] == top:
                tied += 1
            elif score[g, j] < top:
                below = max(below, score[g, j])
        out[g, 0] = 1.0 if winners > 1 else 0.0
        out[g, 1] = 0.0 if tied > 1 else (top - below if below > -np.inf else np.nan)
        if rounds == 0:
            continue
        for r in range(rounds):
            best = -np.inf
            for j in range(n):
                best = max(best, by_round[r, g, j])
            leaders = 0
            won = 0.0
            for j in range(n):
                lead[r, j] = by_round[r, g, j] == best
                if lead[r, j]:
                    leaders += 1
                    won += w[g, j]
            out[g, 2 + r] = won / leaders if leaders > 0 else np.nan
        behind = 0.0
        for j in range(n):  # per winner: the last round after which it was not leading (0: led after every round)
            if first[g, j]:
                last = 0.0
                for r in range(rounds):
                    if not lead[r, j]:
                        last = max(last, ks[r])
                behind += last
        out[g, 2 + rounds] = behind / winners + 1 if winners > 0 else np.nan
        changes = 0.0
        for r in range(1, rounds):
            kept = False
            for j in range(n):
                kept = kept or (lead[r - 1, j] and lead[r, j])
            changes += 0.0 if kept else 1.0
        out[g, 3 + rounds] = changes
    return out


def _lead_columns(ks: list[int]) -> list[str]:
    return [*(f"leader_wins_r{k}" for k in ks), "lead_from", "lead_changes"] if ks else []


def _partial_lead_columns(df: pl.DataFrame) -> list[str]:
    """The lead figures a ``game_metrics_partial`` holds (none without per-round scores)."""
    return _lead_columns(
        sorted(
            int(c.removeprefix("leader_wins_r"))
            for c in df.columns
            if c.startswith("leader_wins_r") and c.removeprefix("leader_wins_r").isdigit()
        )
    )


def merge_game_metrics(df: pl.DataFrame) -> pl.DataFrame:
    """``game_metrics_partial`` frames of disjoint games (concatenated) merged into one row per variant."""
    return combine_moments(df, ["variant"], ["turns", "margin", *_partial_lead_columns(df)], sums=("games", "draws"))


def game_metrics_from_partial(
    df: pl.DataFrame, level: float = 0.95, bots: str = ""
) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """``game_metrics`` from its (merged) partial: the row scan and a digest end in this one function."""
    lead_cols = _partial_lead_columns(df)
    summary = df.select("variant", "games", *(c for c in df.columns if c.startswith(("turns", "margin"))), "draws")
    for c in ("turns", "margin"):
        summary = stats.with_mean_interval(summary, c, level)
    summary = stats.with_wilson(summary, "draws", "games", "draw_rate", level).with_columns(
        pl.lit(bots).alias("bots"), pl.lit(f"{stats.MEAN_METHOD}; draw rate: {stats.WILSON_METHOD}").alias("interval")
    )
    if not lead_cols:
        return summary, None
    lead_df = df.select("variant", "games", *(c for c in df.columns if c.startswith(tuple(lead_cols))))
    for c in lead_cols:
        lead_df = stats.with_mean_interval(lead_df, c, level)
    return summary, lead_df.with_columns(pl.lit(bots).alias("bots"), pl.lit(stats.MEAN_METHOD).alias("interval"))


def _winners(n: int) -> pl.Expr:
    """Seats ranked first in the game (more than one: a shared win)."""
    return pl.sum_horizontal([pl.col(f"_r_{k}").fill_null(0) for k in range(n)])


def _margin(n: int) -> pl.Expr:
    """Winner's score minus the runner-up's (0 when the top is shared)."""
    s = [pl.col(f"_s_{k}") for k in range(n)]
    top = pl.max_horizontal(s)
    tied = pl.sum_horizontal([(c == top).fill_null(False).cast(pl.Int32) for c in s])
    second = pl.max_horizontal([pl.when(c < top).then(c) for c in s])
    return pl.when(tied > 1).then(pl.lit(0.0)).otherwise(top - second)


def distribution(
    results: Results,
    column: str = "score",
    width: float = 1.0,
    per_game: bool = False,
    by: tuple[str, ...] = ("variant",),
    level: float = 0.95,
) -> pl.DataFrame:
    """Histogram counts of ``column`` in bins of ``width`` per ``by`` group (tidy, for charts).

    ``per_game`` counts one value per game (for game-level columns such as ``turns``). Each row also
    carries its group's games, mean and the mean's interval, and the bots, for the chart's legend and caption.
    One scan: each bin's count, mean and sd, from which the group's exact mean and sd follow.
    """
    lf0 = as_lazy(results)
    hist = histogram_partial(lf0, column, width, per_game, by)
    games = None
    known = games_per_variant(lf0) if tuple(by) == ("variant",) and not per_game else None
    if known is not None:  # the games behind the rows are known (a report registers the manifest's)
        games = pl.DataFrame(
            {"variant": list(known), "games": list(known.values())}, schema={"variant": pl.String, "games": pl.Int64}
        )
    elif not per_game:  # within a variant a game is its index: counting distinct indices avoids hashing pairs
        games = (
            lf0.group_by(*by)
            .agg(
                (pl.col("game").n_unique() if "variant" in by else pl.struct("variant", "game").n_unique()).alias(
                    "games"
                )
            )
            .collect()
        )
    clusters = None if per_game else cluster_partial(lf0, column, by)
    return distribution_from_partial(hist, column, width, games, by, level, bots_label(lf0), clusters)


def histogram_partial(
    results: Results,
    column: str = "score",
    width: float = 1.0,
    per_game: bool = False,
    by: tuple[str, ...] = ("variant",),
) -> pl.DataFrame:
    """``distribution``'s bins: per ``by`` group and bin of ``width`` the count and the ``mean_aggs`` of the
    values, which merge over disjoint sets of games, and into wider bins (``merge_histogram``)."""
    lf0 = as_lazy(results)
    require(results if isinstance(results, pl.DataFrame) else lf0, (*by, column), "distribution")
    lf = lf0.filter(pl.col("seat") == 0) if per_game else lf0
    x = pl.col(column).cast(pl.Float64)
    if isinstance(results, pl.DataFrame) and tuple(by) == ("variant",) and (layout := game_major(results)):
        x = layout.matrix(column)
        x = x[:, 0] if per_game else x.ravel()
        if not np.isnan(x).any():  # (a null value is a bin of its own in the group-by)
            bins, inverse = np.unique(np.floor(x / width) * width, return_inverse=True)
            keys = pl.DataFrame({"variant": [layout.variant] * len(bins), "bin": bins})
            return coded_moments(keys, inverse.astype(np.int64), {"mean": x}, count="count").select(
                "variant", "bin", "count", "mean__n", "mean", "mean__sd"
            )
    if isinstance(results, pl.DataFrame):  # in memory: sums whose bits do not depend on threads
        binned = lf.select(*by, ((x / width).floor() * width).alias("bin"), x.alias("_x")).collect()
        return group_moments(binned, [*by, "bin"], {"mean": pl.col("_x")}, count="count").select(
            *by, "bin", "count", "mean__n", "mean", "mean__sd"
        )
    return (
        lf.with_columns(((x / width).floor() * width).alias("bin"))
        .group_by(*by, "bin")
        .agg(pl.len().alias("count"), *stats.mean_aggs(column, "mean"))
        .sort(*by, "bin")
        .collect()
    )


#: the per-game sums of a pooled per-seat mean (``cluster_partial``): T = Σ of a game's values, m = its rows
CLUSTER_SUMS = ("c_t", "c_t2", "c_tm", "c_m", "c_m2")


def cluster_partial(results: Results, column: str = "score", by: tuple[str, ...] = ("variant",)) -> pl.DataFrame:
    """Per ``by`` group: games (clusters) and Σ T_g, Σ T_g², Σ T_g·m_g, Σ m_g, Σ m_g² over its games, where
    T_g is the sum of ``column`` over game g's rows in the group and m_g their number (nulls skipped). Sums,
    so they merge over disjoint sets of games (``merge_clusters``); ``with_cluster_interval`` turns them into
    the mean's game-clustered interval. A game is its index (within the group: variants that share seeds
    share the game's luck, so a group pooling variants clusters them together)."""
    lf0 = as_lazy(results)
    require(results if isinstance(results, pl.DataFrame) else lf0, (*by, "game", column), "cluster_partial")
    if isinstance(results, pl.DataFrame) and tuple(by) == ("variant",) and (layout := game_major(results)):
        x = layout.matrix(column)
        t, m = np.nansum(x, axis=1), (~np.isnan(x)).sum(axis=1).astype(np.float64)
        t, m = t[m > 0], m[m > 0]  # a game without a value is no cluster
        keys = pl.DataFrame({"variant": [layout.variant]})
        sums = {"c_t": t, "c_t2": t * t, "c_tm": t * m, "c_m": m, "c_m2": m * m}
        return coded_moments(keys, np.zeros(len(t), dtype=np.int64), {}, sums, count="games")
    x = pl.col(column).cast(pl.Float64)
    per_game = (
        lf0.group_by(*by, "game")
        .agg(x.sum().alias("_t"), x.count().cast(pl.Float64).alias("_m"))
        .filter(pl.col("_m") > 0)  # a game without a value is no cluster
    )
    t, m = pl.col("_t"), pl.col("_m")
    exprs = {"c_t": t, "c_t2": t * t, "c_tm": t * m, "c_m": m, "c_m2": m * m}
    if isinstance(results, pl.DataFrame):  # in memory: sums whose bits do not depend on threads
        games = per_game.sort(*by, "game").collect()
        return group_moments(games, list(by), sums=exprs, count="games")
    return (
        per_game.group_by(*by)
        .agg(pl.len().cast(pl.UInt32).alias("games"), *(e.sum().alias(n) for n, e in exprs.items()))
        .sort(*by)
        .collect(engine="streaming")
    )


def merge_clusters(df: pl.DataFrame, by: tuple[str, ...] = ("variant",)) -> pl.DataFrame:
    """``cluster_partial`` frames of disjoint games (concatenated) added per group."""
    return group_sums(df, list(by), ["games", *CLUSTER_SUMS])


def with_cluster_interval(
    df: pl.DataFrame, clusters: pl.DataFrame, name: str, by: tuple[str, ...], level: float = 0.95
) -> pl.DataFrame:
    """``name`` (a pooled mean per ``by`` group, with ``name_lo``/``name_hi``) given the game-clustered interval
    (``stats.cluster_mean_se``) from ``cluster_partial`` sums; the row-count interval understates the error
    because a game's seats share its luck."""
    z = stats.z_value(level)
    se = {}
    for r in clusters.iter_rows(named=True):
        key = tuple(r[b] for b in by)
        se[key] = stats.cluster_mean_se(r["c_t"], r["c_m"], r["c_t2"], r["c_tm"], r["c_m2"], int(r["games"]))
    keys = df.select(by).rows()
    half = pl.Series([z * se.get(tuple(k), float("nan")) for k in keys], dtype=pl.Float64, nan_to_null=True)
    return df.with_columns((pl.col(name) - half).alias(f"{name}_lo"), (pl.col(name) + half).alias(f"{name}_hi"))


def merge_histogram(hist: pl.DataFrame, by: tuple[str, ...] = ("variant",), width: float | None = None) -> pl.DataFrame:
    """``histogram_partial`` frames (concatenated) merged per group and bin; with ``width`` (a multiple of
    theirs) into wider bins, the same as binning the values at ``width`` directly."""
    if width is not None:
        hist = hist.with_columns(((pl.col("bin") / width).floor() * width).alias("bin"))
    return combine_moments(hist, [*by, "bin"], ["mean"], sums=("count",))


def distribution_from_partial(
    hist: pl.DataFrame,
    column: str,
    width: float,
    games: pl.DataFrame | None = None,
    by: tuple[str, ...] = ("variant",),
    level: float = 0.95,
    bots: str = "",
    clusters: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """``distribution`` from its (merged) bins; ``games`` per group (None: one value per game, as ``turns``).

    Per-seat values (``games`` given) pool the seats of each game, so the mean's interval is clustered by game
    and needs the groups' ``cluster_partial`` sums (``clusters``); one value per game needs none."""
    summary = stats.combine_mean_aggs(hist.drop("bin"), list(by), ["mean"], sums=("count",))
    if games is None:  # one row per game
        summary = summary.with_columns(pl.col("count").alias("games"))
        method = stats.MEAN_METHOD
    else:
        if clusters is None:
            raise AnalysisError(
                "distribution_from_partial: per-seat values need the per-game sums (cluster_partial) for the "
                "mean's game-clustered interval; pass clusters="
            )
        summary = summary.join(games, on=list(by), how="left")
        method = stats.CLUSTER_METHOD
    summary = stats.with_mean_interval(summary.drop("count"), "mean", level)
    if clusters is not None and games is not None:
        summary = with_cluster_interval(summary, clusters, "mean", tuple(by), level)
    return (
        hist.select(*by, "bin", "count")
        .with_columns((pl.col("count") / pl.col("count").sum().over(*by)).alias("fraction"))
        .join(summary, on=list(by), how="left")
        .with_columns(
            pl.lit(column).alias("column"),
            pl.lit(float(width)).alias("width"),
            pl.lit(bots).alias("bots"),
            pl.lit(method).alias("interval"),
        )
        .sort(*by, "bin")
    )


def score_summary(results: Results, by: tuple[str, ...] = ("variant",), level: float = 0.95) -> pl.DataFrame:
    """Per group: rows, mean score with interval, sd and the 10/50/90% quantiles. The interval is clustered
    by game (a group pooling a game's seats holds rows that share its luck)."""
    lf = as_lazy(results)
    # one streaming pass: counts of each (group, score) — scores take few values — from which the rows, the
    # mean, the sd and exact quantiles follow, instead of holding every score for a sort
    counts = (
        lf.group_by(*by, pl.col("score").cast(pl.Float64).alias("_v"))
        .agg(pl.len().alias("_c"))
        .collect(engine="streaming")
    )
    qs = (0.1, 0.5, 0.9)
    rows = []
    for key, d in counts.group_by(*by):
        d = d.sort("_v")
        vals = d.filter(pl.col("_v").is_not_null())
        v, c = vals["_v"].to_numpy(), vals["_c"].to_numpy().astype(np.int64)
        n = int(c.sum())
        mean = float((v * c).sum() / n) if n else None
        sd = float(np.sqrt((c * (v - mean) ** 2).sum() / (n - 1))) if n > 1 else None
        row = dict(zip(by, key, strict=True))
        row.update({"rows": int(d["_c"].sum()), "score__n": n, "score": mean, "score__sd": sd, "sd": sd})
        row.update({f"q{int(q * 100)}": x for q, x in zip(qs, _quantiles(v, c, qs), strict=True)})
        rows.append(row)
    schema = {
        **counts.select(*by).schema,
        "rows": pl.UInt32,
        "score__n": pl.UInt32,
        "score": pl.Float64,
        "score__sd": pl.Float64,
        "sd": pl.Float64,
        **{f"q{int(q * 100)}": pl.Float64 for q in qs},
    }
    df = stats.with_mean_interval(pl.DataFrame(rows, schema=schema).sort(*by), "score", level)
    df = with_cluster_interval(df, cluster_partial(lf, "score", by), "score", by, level)
    return df.with_columns(pl.lit(stats.CLUSTER_METHOD).alias("interval"))


def lead_metrics(results: Results, level: float = 0.95) -> pl.DataFrame:
    """Decisiveness and lead changes from the per-round scores, per variant.

    ``leader_wins_rK``: expected win share of the seat leading after round K (ties: a random one of the
    leaders), the chance the leader goes on to win; ``lead_from``: the round from which the eventual
    winner leads (or shares the lead) to the end, lower = decided earlier (rounds + 1: only the final
    scoring put the winner ahead); ``lead_changes``: rounds
    after which none of the previous leaders still leads.

    One row per game with every seat's score after every round (a pivot of simple per-game maxima), from
    which leaders, lead changes and the winner's lead are horizontal expressions; batches of games bound
    the memory.
    """
    lf0 = as_lazy(results)
    if not score_rounds(lf0):
        require_roles(lf0, "lead_metrics (decisiveness, lead changes)", "score.round")
    lead = game_metrics(lf0, level)[1]
    assert lead is not None  # per-round scores exist
    return lead


def score_rounds(results: pl.LazyFrame | pl.DataFrame) -> dict[int, str]:
    """The per-round score columns (role ``score.round``) present in the rows, by round."""
    present = set(names(results))
    return {k: c for k, c in roles(results).by_round("score.round").items() if c in present}


def _lead_exprs(ks: list[int], n: int) -> list[pl.Expr]:
    """Per game, from the seat pivot: leader_wins_rK, lead_from and lead_changes (as ``lead_metrics``)."""
    seats = range(n)
    lead, raw = {}, {}
    for k in ks:
        s = [pl.col(f"_s{k}_{j}") for j in seats]
        top = pl.max_horizontal(s)
        raw[k] = [c == top for c in s]
        lead[k] = [x.fill_null(False) for x in raw[k]]  # a seat without a row (or score) does not lead
    w = [pl.col(f"_w_{j}").fill_null(0.0) for j in seats]
    r = [pl.col(f"_r_{j}").fill_null(0) for j in seats]
    out = []
    for k in ks:
        leaders = pl.sum_horizontal([x.cast(pl.Int32) for x in lead[k]])
        won = pl.sum_horizontal([pl.when(x).then(wj).otherwise(0.0) for x, wj in zip(lead[k], w, strict=True)])
        out.append(pl.when(leaders > 0).then(won / leaders).alias(f"leader_wins_r{k}"))
    # per seat: the last round in which it was not leading (0: it led after every round)
    last_behind = [
        pl.max_horizontal([pl.when(~raw[k][j]).then(pl.lit(k)).otherwise(pl.lit(0)) for k in ks]) for j in seats
    ]
    winners = pl.sum_horizontal(r)
    behind = pl.sum_horizontal([rj * lb for rj, lb in zip(r, last_behind, strict=True)])
    out.append(pl.when(winners > 0).then(behind / winners + 1).alias("lead_from"))
    if len(ks) < 2:
        out.append(pl.lit(0).alias("lead_changes"))
    else:
        kept = [
            (~pl.any_horizontal([lead[a][j] & lead[b][j] for j in seats])).cast(pl.Int32)
            for a, b in itertools.pairwise(ks)
        ]
        out.append(pl.sum_horizontal(kept).alias("lead_changes"))
    return out


def leader_curve(lead: pl.DataFrame) -> pl.DataFrame:
    """``lead_metrics`` reshaped for a chart: variant, round, leader_wins with its interval."""
    out = []
    for k in sorted(
        {
            int(c.removeprefix("leader_wins_r"))
            for c in lead.columns
            if c.startswith("leader_wins_r") and c[-1].isdigit()
        }
    ):
        c = f"leader_wins_r{k}"
        out.append(
            lead.select(
                "variant",
                "games",
                "bots",
                pl.lit(k).alias("round"),
                pl.col(c).alias("leader_wins"),
                pl.col(f"{c}_lo").alias("leader_wins_lo"),
                pl.col(f"{c}_hi").alias("leader_wins_hi"),
            )
        )
    return pl.concat(out).sort("variant", "round")


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
