"""Adaptive compensation search: play only the games needed to pin a seat's fair offset to a given width.

A fixed sweep spends most of its games far from the answer. This search plays a first batch at a few
offsets around 0, fits the logistic curve (``compensation.fit_logistic``), then plays each next batch at
the offsets that bracket the current estimate of the fair point (where the curve crosses 1/N, so where a
game says the most about it; a stochastic-approximation step, rounded to the knob's integer grid), and
stops when the Fieller interval of the fair offset is narrower than ``width`` or ``max_games`` is spent.

Every batch uses fresh game seeds (continuing the game index), shared by all offsets of the batch
(common random numbers), and rotates the lineup through the seats as the runner does (game i shifts
it by i mod N). Games are played through the experiments engine (``engine.Trials.batch``, arms: the offsets)
and the game contract (``engine.play_vector``); the answer (``analysis.adaptive``) plays no game.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from simlab.analysis.adaptive import SearchResult, SearchStep
from simlab.analysis.compensation import cluster_meat, fit_logistic
from simlab.analysis.frames import AnalysisError
from simlab.experiments.engine import play_vector
from simlab.experiments.knob_search import KnobSearch

#: most games the one-seat search spends when ``KnobSearch.max_games`` is None
MAX_GAMES = 100_000


def play_offset(
    game: Any, config: Any, knob: str, seat: int, offset: float, lineup: Sequence[str], start: int, seeds: np.ndarray
) -> np.ndarray:
    """Win share of ``seat`` in games start.. with ``offset`` added to its entry of ``knob`` (``play_vector``)."""
    value = list(getattr(config, knob))
    value[seat] = type(value[seat])(value[seat] + offset)
    return play_vector(game, config, knob, tuple(value), lineup, start, seeds)[:, seat]


def _offset_arm(
    game: Any, config: Any, knob: str, seat: int, lineup: Sequence[str], offset: float, start: int,
    seeds: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """``play_offset`` with the arm last, for a worker process (the game travels by name and address)."""
    return play_offset(game, config, knob, seat, offset, lineup, start, seeds)


def find_fair_offset(
    search: KnobSearch,
    seat: int,
    *,
    width: float = 1.0,
    start_offsets: Sequence[float] = (-2, 0, 2),
    on_step: Callable[[SearchStep], None] | None = None,
    play: Callable[..., np.ndarray] = play_offset,
) -> SearchResult:
    """Find the offset of the search's knob for ``seat`` that gives it a 1/N win share, to an interval of
    ``width``, in at most ``search.max_games`` games (default ``MAX_GAMES``).

    ``play(game, config, knob, seat, offset, lineup, start, seeds)`` plays a batch (replaceable in tests).
    With ``search.jobs`` > 1 the offsets of a step are played in parallel worker processes (same results).
    """
    game, config, knob, lineup = search.game, search.config, search.knob, search.lineup
    max_games, batch, level = search.budget(MAX_GAMES), search.batch, search.level
    if isinstance(width, bool) or not isinstance(width, int | float) or not (math.isfinite(width) and width > 0):
        raise AnalysisError(f"--width: expected a positive finite number, found {width!r}")
    base = search.base()  # the knob for each seat (a config may hold more entries than it has players)
    if not 0 <= seat < len(base):
        raise AnalysisError(f"--seat must be 0..{len(base) - 1}, got {seat}")
    n = config.players
    integer = isinstance(base[seat], int)
    lowest = -float(base[seat])  # the knob may not go below zero
    first = [o for o in start_offsets if o >= lowest]
    if max_games < 2 * len(first):
        raise AnalysisError(
            f"not enough games to fit (--max-games {max_games:,}); need at least {2 * len(first)} "
            f"(two per starting offset: {', '.join(f'{o:+g}' for o in first)})"
        )
    games_idx: list[np.ndarray] = []
    offs: list[np.ndarray] = []
    wins: list[np.ndarray] = []
    steps: list[SearchStep] = []
    offsets = [o for o in start_offsets if o >= lowest]

    def one(offset: float, start: int, seeds: np.ndarray) -> np.ndarray:
        return play(game, config, knob, seat, offset, lineup, start, seeds)

    worker = functools.partial(_offset_arm, game, config, knob, seat, tuple(lineup)) if play is play_offset else None
    trials = search.trials(one, worker)  # arms: the seat's offsets
    fit = None
    converged = False
    spread = max(abs(o) for o in start_offsets) or 2.0
    while True:
        room = max_games - trials.spent
        per = min(batch, room // max(len(offsets), 1))
        if per < 1:
            break
        start = trials.next_game
        for o, w in zip(offsets, trials.batch(offsets, per), strict=True):
            games_idx.append(np.arange(start, start + per))
            offs.append(np.full(per, float(o)))
            wins.append(w)
        g, x, w = np.concatenate(games_idx), np.concatenate(offs), np.concatenate(wins)
        xs, inv = np.unique(x, return_inverse=True)
        fit = fit_logistic(xs, np.bincount(inv), np.bincount(inv, w), cluster_meat(g, x, w), len(np.unique(g)), 1.0 / n)
        lo, hi = fit.fair_interval(level)
        step = SearchStep(sorted(float(o) for o in offsets), len(g), fit.fair, lo, hi)
        steps.append(step)
        if on_step is not None:
            on_step(step)
        if math.isfinite(lo) and math.isfinite(hi) and hi - lo < width:
            converged = True
            break
        offsets = _next_offsets(fit.fair, lo, hi, xs, lowest, integer, spread)
        if not math.isfinite(hi - lo):
            spread *= 2  # the slope is not yet significant: look further out
    g = np.concatenate(games_idx) if games_idx else np.zeros(0, int)
    if fit is None or not math.isfinite(fit.fair):
        raise AnalysisError(
            f"not enough games to fit (n={len(g):,}): the fair offset is undefined; raise --max-games "
            f"(or --batch) so that every offset gets more games"
        )
    return SearchResult(
        knob,
        seat,
        base,
        fit,
        steps,
        g,
        np.concatenate(offs) if offs else np.zeros(0),
        np.concatenate(wins) if wins else np.zeros(0),
        converged,
        level,
    )


def _next_offsets(
    fair: float, lo: float, hi: float, seen: np.ndarray, lowest: float, integer: bool, spread: float
) -> list[float]:
    """Offsets bracketing the current fair estimate (or a wider bracket while the slope is unclear)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or not math.isfinite(fair):
        centre = fair if math.isfinite(fair) and abs(fair) < 4 * spread else 0.0
        pts = [centre - spread, centre + spread]
    else:
        pts = [fair - 0.5, fair + 0.5]
    if integer:
        pts = sorted({math.floor(pts[0]), math.ceil(pts[1])})
        if len(pts) == 1:
            pts = [pts[0] - 1, pts[0] + 1]
    return [max(float(p), lowest) for p in dict.fromkeys(pts)]


#: the old name of :func:`find_fair_offset` (the compensation search for one seat), kept for callers that import it
search = find_fair_offset
