"""Adaptive compensation search: play only the games needed to pin a seat's fair offset to a given width.

A fixed sweep spends most of its games far from the answer. This search plays a first batch at a few
offsets around 0, fits the logistic curve (``compensation.fit_logistic``), then plays each next batch at
the offsets that bracket the current estimate of the fair point (where the curve crosses 1/N, so where a
game says the most about it; a stochastic-approximation step, rounded to the knob's integer grid), and
stops when the Fieller interval of the fair offset is narrower than ``width`` or ``max_games`` is spent.

Every batch uses fresh game seeds (continuing the game index), shared by all offsets of the batch
(common random numbers), and rotates the lineup through the seats as the runner does (game i shifts
it by i mod N). Games are played through the game contract (``play_batch`` + ``result_columns``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from simlab.analysis.compensation import LogisticFit, cluster_meat, fit_logistic
from simlab.analysis.frames import AnalysisError, NotAvailableError
from simlab.core.facts import not_available
from simlab.run.scenario import rotated_lineup


@dataclasses.dataclass
class SearchStep:
    """One batch of the search: offsets played, games so far, and the estimate after it."""

    offsets: list[float]
    games: int
    fair: float
    lo: float
    hi: float

    @property
    def width(self) -> float:
        return self.hi - self.lo


@dataclasses.dataclass
class SearchResult:
    """The search's answer: the fit, every step, and the observations (game index, offset, win share)."""

    knob: str
    seat: int
    base: tuple[Any, ...]
    fit: LogisticFit | None
    steps: list[SearchStep]
    game: np.ndarray
    offset: np.ndarray
    win_share: np.ndarray
    converged: bool
    level: float

    @property
    def games(self) -> int:
        return len(self.game)

    @property
    def fair(self) -> float:
        return self.steps[-1].fair if self.steps else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return (self.steps[-1].lo, self.steps[-1].hi) if self.steps else (-math.inf, math.inf)


def money_knob(game: Any) -> str:
    """The knob of the game's declared money intervention, or NotAvailableError if it declares none."""
    facts = game.fact_set
    found = next((i for i in (facts.interventions if facts is not None else ()) if i.kind == "money"), None)
    if found is None:
        raise NotAvailableError(not_available("compensate", "money intervention", [], game.name) + "; pass --knob")
    return found.knob


def knob_base(config: Any, knob: str, seat: int) -> tuple[Any, ...]:
    """The preset's per-seat tuple for ``knob``; refuse knobs that are not per-seat tuples."""
    if not hasattr(config, knob):
        raise AnalysisError(f"{type(config).__name__} has no knob {knob!r}")
    value = getattr(config, knob)
    if not isinstance(value, tuple) or len(value) < config.players:
        raise AnalysisError(
            f"knob {knob!r} is not a per-seat value (found {value!r}); compensate adds the offset to one "
            "seat's entry of a per-seat tuple such as the starting money"
        )
    if not 0 <= seat < config.players:
        raise AnalysisError(f"--seat must be 0..{config.players - 1}, got {seat}")
    return value


def play_offset(
    game: Any, config: Any, knob: str, seat: int, offset: float, lineup: Sequence[str], start: int, seeds: np.ndarray
) -> np.ndarray:
    """Win share of ``seat`` in games start.. with ``offset`` added to its entry of ``knob``."""
    base = list(getattr(config, knob))
    kind = type(base[seat])
    base[seat] = kind(base[seat] + offset)
    cfg = config.replace(**{knob: tuple(base)})
    n = cfg.players
    index = np.arange(start, start + len(seeds))
    rotation = index % n
    out = np.empty(len(seeds))
    for r in np.unique(rotation).tolist():
        sel = np.flatnonzero(rotation == r)
        bots = game.make_bots(rotated_lineup(lineup, r), n)
        records = game.play_batch(cfg, seeds[sel].tolist(), bots)
        out[sel] = np.asarray(game.result_columns(records, cfg)["win_share"]).reshape(-1, n)[:, seat]
    return out


def search(
    game: Any,
    config: Any,
    knob: str,
    seat: int,
    lineup: Sequence[str],
    *,
    width: float = 1.0,
    max_games: int = 100_000,
    batch: int = 2_000,
    seed: int = 0,
    level: float = 0.95,
    start_offsets: Sequence[float] = (-2, 0, 2),
    on_step: Callable[[SearchStep], None] | None = None,
    play: Callable[..., np.ndarray] = play_offset,
    jobs: int = 1,
) -> SearchResult:
    """Find the offset of ``knob`` for ``seat`` that gives it a 1/N win share, to an interval of ``width``.

    ``play(game, config, knob, seat, offset, lineup, start, seeds)`` plays a batch (replaceable in tests).
    With ``jobs`` > 1 the offsets of a step are played in parallel worker processes (same results).
    """
    from simlab.run.seeds import game_seeds

    if isinstance(width, bool) or not isinstance(width, int | float) or not (math.isfinite(width) and width > 0):
        raise AnalysisError(f"--width: expected a positive finite number, found {width!r}")
    base = knob_base(config, knob, seat)
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
    next_game = 0
    offsets = [o for o in start_offsets if o >= lowest]
    fit = None
    converged = False
    spread = max(abs(o) for o in start_offsets) or 2.0
    while True:
        room = max_games - sum(len(g) for g in games_idx)
        per = min(batch, room // max(len(offsets), 1))
        if per < 1:
            break
        seeds = game_seeds(seed, next_game, next_game + per)
        for o, w in zip(
            offsets, _play_step(play, game, config, knob, seat, offsets, lineup, next_game, seeds, jobs), strict=True
        ):
            games_idx.append(np.arange(next_game, next_game + per))
            offs.append(np.full(per, float(o)))
            wins.append(w)
        next_game += per
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


def _play_step(
    play: Callable[..., np.ndarray],
    game: Any,
    config: Any,
    knob: str,
    seat: int,
    offsets: Sequence[float],
    lineup: Sequence[str],
    start: int,
    seeds: np.ndarray,
    jobs: int,
) -> list[np.ndarray]:
    if jobs <= 1 or len(offsets) == 1 or play is not play_offset:
        return [play(game, config, knob, seat, o, lineup, start, seeds) for o in offsets]
    from joblib import Parallel, delayed

    # the game travels as its name and address (Game.__reduce_ex__): a game no registry lists plays there too
    tasks = (delayed(play_offset)(game, config, knob, seat, o, lineup, start, seeds) for o in offsets)
    return list(Parallel(n_jobs=min(jobs, len(offsets)), backend="loky")(tasks))


def as_compensation(result: SearchResult, bots: Sequence[str]) -> Any:
    """The search's games as a ``Compensation`` (points, fitted curve, fair point) for the chart."""
    import polars as pl

    from simlab.analysis import stats
    from simlab.analysis.compensation import Compensation

    fit = result.fit
    if fit is None:
        raise AnalysisError("the search played no games")
    z = stats.z_value(result.level)
    xs = np.unique(result.offset)
    rows = []
    for x in xs:
        w = result.win_share[result.offset == x]
        se = w.std(ddof=1) / math.sqrt(len(w)) if len(w) > 1 else math.nan
        rows.append(
            {
                "seat": result.seat,
                "offset": float(x),
                "games": len(w),
                "win_share": float(w.mean()),
                "win_share_lo": float(w.mean() - z * se),
                "win_share_hi": float(w.mean() + z * se),
            }
        )
    grid = np.linspace(xs.min(), xs.max(), 61)
    lo_band, hi_band = fit.band(grid, result.level)
    lo, hi = result.interval
    rate, rate_se = fit.rate(0.0)
    fit_row = {
        "seat": result.seat,
        "games": result.games,
        "offsets": len(xs),
        "a": fit.a,
        "b": fit.b,
        "b_se": math.sqrt(fit.cov[1, 1]),
        "share_at_0": float(fit.p(0.0)),
        "fair_offset": result.fair,
        "fair_lo": lo,
        "fair_hi": hi,
        # the knob's own values (offsets from the published ones for an offset knob), not starting money
        "fair_money": math.nan,
        "fair_others": math.nan,
        "rules_money": math.nan,
        "rules_others": math.nan,
        "rate": rate,
        "rate_se": rate_se,
        "rate_lo": rate - z * rate_se,
        "rate_hi": rate + z * rate_se,
        "interval": stats.FIELLER_METHOD,
    }
    return Compensation(
        fit=pl.DataFrame([fit_row]),
        points=pl.DataFrame(rows),
        curve=pl.DataFrame(
            {
                "seat": [result.seat] * len(grid),
                "offset": grid,
                "win_share": fit.p(grid),
                "win_share_lo": lo_band,
                "win_share_hi": hi_band,
            }
        ),
        players=len(result.base),
        level=result.level,
        games=int(max(r["games"] for r in rows)),
        bots=sorted(set(bots)),
        fits={result.seat: fit},
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
