"""Certification in looks on fresh seeds, and the fallback to the next candidate.

A check of one lineup plays the change on fresh games in looks (``analysis.fix_looks.LookPlan``: a quarter, half,
three quarters and all of the cap) and reads every seat's one-sided tests at the look's group-sequential
boundary: it stops **certified** at the first look where every test passes, **futile** when the predictive
probability of passing by the cap is below ``FUTILITY``, or at the **cap**. A change is certified when the lineup
is, then each panel bot in every seat (the same fresh seeds), and the guards hold.

``certify_attempts`` tries the race's candidates in order, each on its own fresh seeds (``attempt_start``), at
most ``attempts`` of them, attempt k at level α_k (``attempt_levels``: the first, the race's choice and the
likely one, ``FIRST_SHARE`` of α; the others the rest in equal parts): P(certify some change that is not fair
within ±δ) ≤ Σ α_k = α (weighted Bonferroni), whatever the race selected and whatever made an attempt stop.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from simlab.analysis.fix_bands import Measures, SeatBand, seat_band
from simlab.analysis.fix_looks import FUTILITY, LookPlan, attempt_levels, level_of, predictive_pass
from simlab.experiments.engine import CONFIRM_START, Trials
from simlab.experiments.fix_certify import Certification, bot_check, guard_check
from simlab.experiments.fix_play import PlayLineup, arm_player
from simlab.experiments.fix_trials import MakeTrials, make_trials
from simlab.run.fix_question import Change, FixQuestion

#: fresh seeds of attempt k start at CONFIRM_START + k · ATTEMPT_STRIDE (below PUBLISHED_START = 2⁴¹)
ATTEMPT_STRIDE = 1 << 36


@dataclasses.dataclass(frozen=True)
class LookRun:
    """One lineup's games on fresh seeds and how its check ended (certified, futile, cap) at which look."""

    cols: np.ndarray
    band: SeatBand
    outcome: str
    look: int


def attempt_start(k: int) -> int:
    """The first game index of certification attempt ``k`` (0, 1, …): seeds no search game and no other attempt
    used."""
    return CONFIRM_START + k * ATTEMPT_STRIDE


def check_in_looks(
    trials: Trials, change: Change, start: int, plan: LookPlan, layout: Measures, delta: float, futility: float
) -> LookRun:
    """Play ``change`` from ``start`` look by look until every seat passes at the look's boundary, the predictive
    probability of passing by the cap is below ``futility``, or the cap."""
    parts: list[np.ndarray] = []
    played = 0
    band: SeatBand | None = None
    for k, size in enumerate(plan.sizes):
        parts.append(trials.fresh(change, size - played, start + played))
        played = size
        cols = np.concatenate(parts)
        band = seat_band(layout.shares(cols), delta, level_of(plan.z[k]))
        if band.fair:
            return LookRun(cols, band, "certified", k + 1)
        if k + 1 < len(plan.sizes):
            chance = predictive_pass(band.shares, band.se, played, plan.cap, band.fair_share, delta, plan.z[-1])
            if chance < futility:
                return LookRun(cols, band, "futile", k + 1)
    assert band is not None
    return LookRun(np.concatenate(parts), band, "cap", len(plan.sizes))


def certify_in_looks(
    q: FixQuestion,
    change: Change,
    trials: Trials,
    start: int,
    play: PlayLineup | None,
    jobs: int,
    layout: Measures,
    alpha: float,
    *,
    before: Certification | None = None,
    make: MakeTrials = make_trials,
    futility: float = FUTILITY,
) -> Certification:
    """The lineup's check in looks at one-sided level ``alpha``; once it is certified, each panel bot's (every one,
    so the answer names each that fails); the guards against ``before`` on the lineup's games."""
    plan = LookPlan.of(q.certify_games, alpha)
    run = check_in_looks(trials, change, start, plan, layout, q.delta, futility)
    checks = [bot_check("lineup: " + ",".join(q.lineup), run.band)]
    played, outcome = len(run.cols), run.outcome
    stopped_by = "" if outcome == "certified" else "lineup"
    if run.outcome == "certified":
        for bot in q.panel:
            every = (bot,) * q.players
            if every == tuple(q.lineup):
                continue  # the lineup is this bot in every seat already
            fn, worker = arm_player(q, every, play)
            own = plan if q.games_for(bot) == q.certify_games else LookPlan.of(q.games_for(bot), alpha)
            bot_run = check_in_looks(make(fn, q.seed, jobs, worker, ",".join(every)), change, start, own, layout,
                                     q.delta, futility)  # fmt: skip
            played += len(bot_run.cols)
            checks.append(bot_check(bot, bot_run.band))
            if bot_run.outcome != "certified" and outcome == "certified":
                outcome, stopped_by = bot_run.outcome, bot
    guards = ()
    if before is not None:
        guards = tuple(guard_check(g, layout, q, before, run.cols, start) for g in q.guards)
    return Certification(
        change, start, run.cols, run.band, tuple(checks), guards, played, outcome, run.look, alpha, stopped_by
    )


def certify_attempts(
    q: FixQuestion,
    candidates: Sequence[Change],
    attempts: int,
    trials: Trials,
    play: PlayLineup | None,
    jobs: int,
    layout: Measures,
    before: Certification,
    make: MakeTrials = make_trials,
) -> list[Certification]:
    """Certify ``candidates`` in order, each on fresh seeds at its level (``attempt_levels``), until one is
    certified with its guards held or ``attempts`` were made; every attempt made, in order."""
    out: list[Certification] = []
    levels = attempt_levels(q.alpha, attempts)
    for k, change in enumerate(candidates[:attempts]):
        done = certify_in_looks(q, change, trials, attempt_start(k), play, jobs, layout, levels[k],
                                before=before, make=make)  # fmt: skip
        out.append(done)
        if done.fair and done.guards_ok:
            break
    return out
