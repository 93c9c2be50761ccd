"""``simlab compensate`` answered by ``simlab fix``'s engine: compensate's question as a fix preset
(``fix_presets.compensate_question`` with objective ``most_equal``, the lineup alone), read back as compensate's
answer (``analysis.fair_vector.FairVector``), so every key of ``compensate --json`` keeps its meaning.

- The question: the per-seat knob on the published value .. + ``most`` steps for every seat, every seat within
  1/N ± ``within`` (compensate's ``--fair-within``), objective ``most_equal`` (its race ends when every vector
  left is within half of ``within`` of the most equal: compensate's default ``--tolerance``), budget and batch
  compensate's, certification on ``confirm_games`` fresh games with the lineup (compensate's confirmation).
- The confirmations are the fix's certification games (the published rules from ``PUBLISHED_START``, the chosen
  vector from ``CONFIRM_START``): the same seeds, so the same games, as compensate's own driver plays. When the
  search ends without a change (budget, nothing on the grid), compensate still confirms its best so far: the
  best open vector (or the least unequal played) is played on the same fresh seeds.
- Outcome and headline are compensate's (``fair_outcome``), read from those confirmations; with δ and α equal,
  compensate's "fair" is exactly fix's lineup certification (every seat's 90% interval inside the band).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from simlab.analysis import stats
from simlab.analysis.arms import Candidate
from simlab.analysis.confirmation import confirmation_of
from simlab.analysis.fair_vector import FairVector, is_integer
from simlab.analysis.fix_bands import seat_band
from simlab.analysis.frames import AnalysisError
from simlab.experiments.engine import CONFIRM_START, PUBLISHED_START, PlayArm, Trials
from simlab.experiments.fair_vector import check_within_and_budget
from simlab.experiments.fix import find_fix
from simlab.experiments.fix_play import PlayLineup
from simlab.experiments.fix_presets import COMPENSATE_STEPS, compensate_question
from simlab.experiments.fix_question import FixResult
from simlab.experiments.knob_search import KnobSearch
from simlab.run.fix_question import Change, FixQuestion

#: the budget when compensate's ``--max-games`` is not given (its own driver's default)
MAX_GAMES = 200_000
#: compensate's confirmations are 95% intervals (its ``level``); the band's tests are one-sided at 1 − level
LEVEL = 0.95


@dataclasses.dataclass
class _KeptTrials(Trials):
    """``Trials`` that keep each fresh run, so the answer reads the certification games instead of replaying them."""

    kept: dict[tuple[Any, int, int], np.ndarray] = dataclasses.field(default_factory=dict)

    def fresh(self, arm: Any, games: int, start: int = CONFIRM_START) -> np.ndarray:
        key = (arm, games, start)
        if key not in self.kept:
            self.kept[key] = super().fresh(arm, games, start)
        return self.kept[key]


def compensate_by_fix(
    search: KnobSearch,
    *,
    confirm_games: int = 20_000,
    within: float = stats.DEFAULT_TOLERANCE,
    most: int = COMPENSATE_STEPS,
    progress: Callable[[dict[str, Any]], None] | None = None,
    play: PlayLineup | None = None,
) -> tuple[FairVector, FixResult]:
    """Compensate's answer to ``search`` (its knob, lineup, batch, budget, seed, jobs) through ``find_fix``: the
    answer as compensate gives it, and the fix's own. ``within`` (a share) is δ; ``play`` replaces the game
    contract in tests (``fix_play.PlayLineup``)."""
    base = search.base()  # refuses a knob that is not per seat, in compensate's words
    n, budget, batch = len(base), search.budget(MAX_GAMES), search.batch
    if not is_integer(base):
        raise AnalysisError(
            f"--method fix: {search.knob} takes fractional values and the fix preset searches whole steps of it; "
            "use --method softmax for the model's continuous answer"
        )
    if batch < 10:
        raise AnalysisError(f"--batch: need at least 10 games per vector and step, got {batch}")
    check_within_and_budget(within, batch, n, budget)
    if confirm_games < 100:
        raise AnalysisError(f"--confirm-games: the fix preset certifies on at least 100 games, got {confirm_games}")
    q = compensate_question(
        search.game, search.config, search.knob, search.lineup, fair_within=within * 100, most=most,
        budget=budget, batch=batch, certify_games=confirm_games, seed=search.seed,
    )  # fmt: skip
    made: list[_KeptTrials] = []

    def keep(fn: PlayArm, seed: int, jobs: int = 1, worker: PlayArm | None = None, scope: str = "") -> Trials:
        made.append(_KeptTrials(fn, seed, jobs, worker))
        return made[-1]

    fixed = find_fix(q, jobs=search.jobs, progress=progress, play=play, trials=keep)
    return as_fair_vector(q, fixed, made[0], base), fixed


def as_fair_vector(q: FixQuestion, fixed: FixResult, trials: _KeptTrials, base: tuple[Any, ...]) -> FairVector:
    """The fix's answer in compensate's terms: the vector, how the search ended, every vector it played, the
    published and the chosen vector's confirmations (their fresh games; the best so far when none was chosen)."""
    n, knob = len(base), q.knobs[0].name
    integer = is_integer(base)
    published = confirmation_of(base, _shares(trials.fresh(q.no_change(), q.certify_games, PUBLISHED_START), n), LEVEL)
    search_games = fixed.games["explore"] + fixed.games["race"]
    pool = [_candidate(c, trials, n, base, q) for c in trials.pool if c.settings and trials.pool[c].games]
    common = dict(fit=None, level=LEVEL, tolerance=q.delta / 2, published=published, within=q.delta)
    if fixed.status == "already_fair":
        zero = tuple(0 if integer else 0.0 for _ in base)
        return FairVector(knob, base, integer, base, zero, "published", 0, [], confirmation=published, **common)
    chosen = fixed.change or _best_so_far(fixed, trials, q, n)
    value = tuple(dict(chosen.settings)[knob][:n]) if chosen.settings else base
    conf = confirmation_of(value, _shares(trials.fresh(chosen, q.certify_games, CONFIRM_START), n), LEVEL)
    offsets = tuple(v - b for v, b in zip(value, base, strict=True))
    status = {"settled": "settled", "exhausted": "exhausted"}.get(fixed.search, "budget")
    return FairVector(
        knob, base, integer, value, offsets, status, search_games, pool, confirmation=conf, _pool=pool, **common
    )


def _best_so_far(fixed: FixResult, trials: Trials, q: FixQuestion, n: int) -> Change:
    """The vector compensate confirms when the search chose none: the best open one, else the least unequal
    played (the published rules when nothing else was)."""
    if fixed.alternatives:
        return fixed.alternatives[0].change
    played = [c for c in trials.pool if c.settings and trials.pool[c].games]
    if not played:
        return q.no_change()
    return min(played, key=lambda c: _worst(_shares(np.concatenate(trials.pool[c].wins), n)))


def _candidate(c: Change, trials: Trials, n: int, base: tuple[Any, ...], q: FixQuestion) -> Candidate:
    """A vector the search played, as compensate lists it: its search games, and whether a seat was shown outside
    the band on them (the fix search's "ruled out") or it was simply not chosen."""
    value = dict(c.settings)[next(iter(dict(c.settings)))][:n]
    offsets = tuple(v - b for v, b in zip(value, base, strict=True))
    played = trials.pool[c]
    wins = [_shares(w, n) for w in played.wins]
    ruled = seat_band(np.concatenate(wins), q.delta, q.alpha).beyond
    note = "ruled out: a seat outside the band on its games" if ruled else "not chosen"
    return Candidate(offsets, list(played.game), wins, note=note)


def _shares(cols: np.ndarray, n: int) -> np.ndarray:
    return np.asarray(cols, float)[:, :n]


def _worst(w: np.ndarray) -> float:
    s = w.mean(axis=0)
    return float(np.abs(s - 1 / len(s)).max())
