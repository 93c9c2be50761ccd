"""The fair vector of a per-seat knob: the value for every seat, on the knob's own grid, that makes the seats equal.

One seat compensated at a time leaves the others unequal, and a fractional answer (+1.65 coins) on a knob
that takes whole numbers does not say which whole number to print in the rules. This search answers with a
whole vector, verified:

1. **Explore.** Play the base vector and base + step for each seat alone, on the same seeds (common random
   numbers), and fit a softmax model ``p_k(d) ∝ exp(α_k + β·d_k)`` of the seats' win shares against the
   offsets ``d`` (quasi-likelihood: split wins are fractions; covariance clustered by game index). While β is
   under ``SLOPE_Z`` standard errors the step doubles (exploring spends at most half of ``max_games``).
2. **Shortlist.** Offsets are normalised so the smallest is 0 (the strongest seat keeps the base value; 6,6,6,7
   and 7,7,7,8 are one answer, not two). For an integer knob the candidates are the whole vectors within one of
   the model's continuous answer, ranked by the model's largest deviation ``max_k |p_k − 1/N|``; the best few
   are raced.
3. **Race.** Each round plays one batch at every surviving candidate on the same seeds, and drops a candidate
   whose largest deviation exceeds the current best one's: a paired bootstrap over game indices (the same
   weights for every candidate, so the shared luck cancels), one-sided at ``alpha`` divided over the round's
   comparisons (Bonferroni). It stops when one candidate is left, when the survivors are within
   ``tolerance`` of the best (the choice between them does not matter), or when ``max_games`` are spent. Games
   go only to candidates still in the race: where the decision is close.
4. **Confirm.** The chosen vector is played again on fresh seeds (game indices from ``CONFIRM_START``, never
   used by the search), and its seat shares (normal intervals), largest deviation and the Wald equal-seats
   test are reported. Selection error is not certified by the race; the confirmation run is what verifies.

Before all this the published vector is confirmed on its own fresh seeds (from ``PUBLISHED_START``): when every
seat is within ``within`` of 1/N there (simultaneous intervals), the rules are already fair and nothing is
searched. What the search may conclude is read from the confirmations alone (``fair_outcome``): already fair,
fair vector found and confirmed, no vector on the grid fair within the tolerance, or the budget ran out.

A continuous knob (float entries) gets the model's continuous answer, with a parametric-bootstrap interval
of each offset, confirmed the same way. Games are played through the experiments engine
(``engine.Trials``: explore and race rounds are batches on shared seeds, confirmations fresh runs; the race is
``race.race``), lineup rotated through the seats as the runner does. The answer (``analysis.fair_vector``) and
the model (``analysis.softmax_fit``) play no game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from simlab.analysis import stats
from simlab.analysis.arms import Candidate
from simlab.analysis.confirmation import Confirmation, confirmation_of
from simlab.analysis.fair_outcome import band
from simlab.analysis.fair_vector import FairVector, is_integer, with_offsets
from simlab.analysis.fair_vector import show_value as _show
from simlab.analysis.frames import AnalysisError, NotAvailableError
from simlab.analysis.softmax_fit import SHORTLIST, fit_softmax, largest_deviation, shortlist
from simlab.core.facts import not_available
from simlab.experiments.engine import CONFIRM_START, PUBLISHED_START, Trials, play_vector, vector_worker
from simlab.experiments.knob_search import KnobSearch
from simlab.experiments.race import race

#: the slope must be this many standard errors above 0 before the shortlist is drawn
SLOPE_Z = 4.0
#: most games the search spends (confirmations not included) when ``KnobSearch.max_games`` is None
MAX_GAMES = 200_000

Play = Callable[..., np.ndarray]
Progress = Callable[[str], None]


# -- the knob -------------------------------------------------------------------------------------------
def intervention_knob(game: Any, kind: str = "money") -> str:
    """The knob of the game's declared ``kind`` intervention (money or points), or NotAvailableError."""
    facts = game.fact_set
    found = next((i for i in (facts.interventions if facts is not None else ()) if i.kind == kind), None)
    if found is None:
        raise NotAvailableError(not_available("compensate", f"{kind} intervention", [], game.name) + "; pass --knob")
    return found.knob


def _trials(search: KnobSearch, play: Play, base: tuple[Any, ...] | None = None) -> Trials:
    """The engine for the search's knob: an arm is the knob's value, or with ``base`` its offsets from ``base``.
    ``play(game, config, knob, value, lineup, start, seeds)`` (replaceable in tests) plays in this process;
    the game contract's ``play_vector`` also in worker processes."""
    game, config, knob, lineup = search.game, search.config, search.knob, search.lineup

    def one(arm: tuple, start: int, seeds: np.ndarray) -> np.ndarray:
        value = arm if base is None else with_offsets(base, arm)
        return play(game, config, knob, value, lineup, start, seeds)

    return search.trials(one, vector_worker(game, config, knob, lineup, base) if play is play_vector else None)


def confirm(
    search: KnobSearch, value: tuple[Any, ...], games: int, *, play: Play = play_vector, start: int = CONFIRM_START
) -> Confirmation:
    """Play ``games`` fresh games (indices from ``start``) at ``value`` and test the seats' equality."""
    if games < 2:
        raise AnalysisError(f"--confirm-games: need at least 2 games, got {games}")
    return confirmation_of(value, _trials(search, play).fresh(value, games, start), search.level)


# -- the search -------------------------------------------------------------------------------------------------
def check_within_and_budget(within: float, batch: int, n: int, max_games: int) -> None:
    """compensate's ``--fair-within`` and whether ``--max-games`` covers the first step of n + 1 vectors (both
    methods refuse the same inputs the same way)."""
    if not (isinstance(within, int | float) and math.isfinite(within) and within > 0):
        raise AnalysisError(f"--fair-within: expected a finite number > 0, found {within!r}")
    if batch * (n + 1) > max_games:
        raise AnalysisError(
            f"not enough games to explore (--max-games {max_games:,}); the first step needs {batch * (n + 1):,} "
            f"({n + 1} vectors × --batch {batch:,})"
        )


def find_fair_vector(
    search: KnobSearch,
    *,
    confirm_games: int = 20_000,
    tolerance: float = 0.005,
    within: float = stats.DEFAULT_TOLERANCE,
    step: float = 2,
    alpha: float = 0.05,
    size: int = SHORTLIST,
    progress: Progress | None = None,
    play: Play = play_vector,
) -> FairVector:
    """Find and confirm the vector of the search's knob values (one per seat) that makes the seats' win shares
    equal.

    ``tolerance`` (a share: 0.005 is half a point) ends the race when the survivors are that close to the best.
    ``search.max_games`` (default ``MAX_GAMES``) bounds the search (not the confirmations); exploring stops at
    half of it. ``within`` (δ, a share) is the band 1/N ± δ a fair seat lies in; the published vector is
    confirmed against it first. ``play(game, config, knob, value, lineup, start, seeds)`` returns the games' win
    shares (replaceable in tests).
    """
    config, knob = search.config, search.knob
    batch, max_games, level, seed = search.batch, search.budget(MAX_GAMES), search.level, search.seed
    say = progress or (lambda _line: None)
    base = search.base()
    n = len(base)
    integer = is_integer(base)
    if batch < 10:
        raise AnalysisError(f"--batch: need at least 10 games per vector and step, got {batch}")
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and tolerance >= 0):
        raise AnalysisError(f"--tolerance: expected a finite number ≥ 0, found {tolerance!r}")
    check_within_and_budget(within, batch, n, max_games)
    # 0. the published rules first, on their own fresh seeds: already fair within ±δ means nothing to search
    say(f"  confirming the published {_show(base)} on {confirm_games:,} fresh games")
    published = confirm(search, base, confirm_games, play=play, start=PUBLISHED_START)
    if band(published, within).state == "inside":
        zero = tuple(0 if integer else 0.0 for _ in base)
        return FairVector(knob, base, integer, base, zero, "published", 0, [], None, published, level, tolerance,
                          published=published, within=within)  # fmt: skip
    trials = _trials(search, play, base)  # arms: offsets from the base
    pool = trials.pool

    # 1. explore until the slope is clear
    fit = None
    while True:
        design = [tuple([0.0] * n)] + [tuple(step if j == k else 0.0 for j in range(n)) for k in range(n)]
        if integer:
            design = [tuple(int(x) for x in o) for o in design]
        if trials.spent + batch * len(design) > max_games // 2 and fit is not None:
            break  # half of the budget at most goes to exploring: the race needs the rest
        if trials.spent + batch * len(design) > max_games:
            raise AnalysisError(
                f"not enough games to explore (--max-games {max_games:,}); the first step needs "
                f"{batch * len(design):,} ({len(design)} vectors × --batch {batch:,})"
            )
        trials.batch(design, batch)
        fit = fit_softmax(*trials.observations())
        z = fit.beta / fit.beta_se if fit.beta_se > 0 else math.inf
        say(
            f"  explored step {step:g}: {trials.spent:,} games; one unit of {knob} is worth β = {fit.beta:.3f} "
            f"(z = {z:.1f}) on the logit scale"
        )
        if z >= SLOPE_Z:
            break
        step = step * 2 if integer or step else 1
    if not fit.beta > 0:
        raise AnalysisError(
            f"{knob} has no detectable effect on the win shares after {trials.spent:,} games (β = {fit.beta:.3g}); "
            "raise --max-games or --batch"
        )
    fair = fit.fair()
    say("  model's continuous answer: " + ", ".join(f"{x:+.2f}" for x in fair))
    if not integer:
        lo, hi = fit.fair_interval(level, seed)
        value = with_offsets(base, fair)
        say(f"  confirming {_show(value)} on {confirm_games:,} fresh games")
        conf = confirm(search, value, confirm_games, play=play)
        return FairVector(knob, base, False, value, tuple(float(x) for x in fair), "continuous", trials.spent,
                          list(pool.values()), fit, conf, level, tolerance, lo, hi, list(pool.values()),
                          published, within)  # fmt: skip

    # 2. shortlist (vectors the config allows: a weakly determined slope can point past the knob's range), 3. race
    short = [c for c in shortlist(fit, size) if _playable(config, knob, with_offsets(base, c))]
    if not short:
        raise AnalysisError(
            f"the model's answer ({', '.join(f'{x:+.1f}' for x in fair)}) lies outside the range {knob} allows "
            f"after {trials.spent:,} games: the slope is not yet well determined; raise --max-games or --batch"
        )
    say("  shortlist: " + "; ".join(_show(with_offsets(base, c)) for c in short))
    for c in short:
        pool.setdefault(tuple(c), Candidate(tuple(c)))
    racers = [pool[tuple(c)] for c in short]

    def on_round(rounds: int, best: int) -> None:
        left = [c for c in racers if c.dropped is None]
        say(
            f"  race round {rounds}: {trials.spent:,} games; best {_show(with_offsets(base, racers[best].offsets))} "
            f"(largest deviation {largest_deviation(racers[best].shares()) * 100:.2f} points); "
            f"{len(left)} left"
        )

    def widen() -> None:
        """The refitted model may now rank a vector outside the race first: it joins (at most 2 × size racers)."""
        top = tuple(shortlist(fit_softmax(*trials.observations()), 1)[0])
        if (
            len(racers) < 2 * size
            and all(c.offsets != top for c in racers)
            and _playable(config, knob, with_offsets(base, top))
        ):
            racers.append(pool.setdefault(top, Candidate(top)))
            say(f"  the refitted model adds {_show(with_offsets(base, top))} to the race")

    status, _rounds = race(
        trials, racers, batch=batch, max_games=max_games, alpha=alpha, tolerance=tolerance, on_round=on_round,
        widen=widen,
    )  # fmt: skip
    if all(c.games == 0 for c in racers):
        raise AnalysisError(f"not enough games to race (--max-games {max_games:,}): raise --max-games")
    played = [c for c in racers if c.games > 0 and c.dropped is None] or [c for c in racers if c.games > 0]
    chosen = min(played, key=lambda c: float(largest_deviation(c.shares())))
    fit = fit_softmax(*trials.observations())
    value = with_offsets(base, chosen.offsets)
    say(f"  confirming {_show(value)} on {confirm_games:,} fresh games")
    conf = confirm(search, value, confirm_games, play=play)
    return FairVector(
        knob, base, True, value, chosen.offsets, status, trials.spent, racers, fit, conf, level, tolerance,
        _pool=list(pool.values()), published=published, within=within,
    )  # fmt: skip


def _playable(config: Any, knob: str, value: tuple[Any, ...]) -> bool:
    """Whether the config accepts ``knob`` = ``value`` (a config without ``replace``, a test's, accepts all)."""
    if not hasattr(config, "replace"):
        return True
    from simlab.core.errors import ConfigError

    full = list(getattr(config, knob))
    full[: len(value)] = value
    try:
        config.replace(**{knob: tuple(full)})
    except ConfigError:
        return False
    return True


#: the old name of :func:`find_fair_vector` (the compensation search for every seat), kept for callers that import it
search = find_fair_vector
