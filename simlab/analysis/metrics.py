"""General balance metrics of any game: length, margin, draws, decisiveness, lead changes.

Score distributions are in ``score_distribution``, the luck split (variance components) in ``variance``.

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
    GameMajor,
    Results,
    as_lazy,
    bots_label,
    game_batches,
    game_major,
    names,
    players,
    require,
    require_roles,
    roles,
)
from simlab.analysis.moments import coded_moments, combine_moments, group_moments

GAME = ("variant", "game")


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
