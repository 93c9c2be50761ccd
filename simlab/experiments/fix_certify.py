"""Certification of a rule fix: the chosen change on fresh seeds with the lineup and with each panel bot in every
seat, judged by ``analysis.fix_bands`` (every seat's one-sided tests at the tolerance), with the guards measured
against the published rules' certification games."""

from __future__ import annotations

import dataclasses

import numpy as np

from simlab.analysis.fix_bands import Measures, SeatBand, seat_band
from simlab.experiments.engine import Trials
from simlab.experiments.fix_play import PlayLineup, arm_player, lineup_bots
from simlab.experiments.fix_question import Alternative, BotCheck, GuardCheck, SeatShare
from simlab.experiments.fix_trials import MakeTrials, make_trials
from simlab.run.fix_question import Change, FixQuestion

#: alternatives listed in an answer
ALTERNATIVES = 5


@dataclasses.dataclass(frozen=True)
class Certification:
    """A change played on fresh games from ``start``: the lineup's games and band, each lineup's check (the lineup
    first, then each panel bot in every seat), the guards against the published rules, the fresh games played."""

    change: Change
    start: int
    cols: np.ndarray
    band: SeatBand
    panel: tuple[BotCheck, ...]
    guards: tuple[GuardCheck, ...]
    games: int

    @property
    def lineup_fair(self) -> bool:
        return self.band.fair

    @property
    def fair(self) -> bool:
        return all(b.fair for b in self.panel)

    @property
    def guards_ok(self) -> bool:
        return all(g.ok for g in self.guards)


def certify(
    q: FixQuestion,
    change: Change,
    trials: Trials,
    start: int,
    play: PlayLineup | None,
    jobs: int,
    layout: Measures,
    *,
    with_panel: bool,
    before: Certification | None = None,
    lineup: Certification | None = None,
    make: MakeTrials = make_trials,
) -> Certification:
    """Play ``change`` on ``q.certify_games`` fresh games from ``start`` with the lineup (``trials``; or reuse
    ``lineup``'s games) and, ``with_panel``, with each panel bot in every seat (same seeds); the guards against
    ``before`` (the published rules' certification)."""
    played = 0
    if lineup is not None and lineup.start == start and lineup.change == change:
        cols = lineup.cols
    else:
        cols = trials.fresh(change, q.certify_games, start)
        played += len(cols)
    band = seat_band(layout.shares(cols), q.delta, q.alpha)
    checks = [bot_check("lineup: " + ",".join(q.lineup), band)]
    if with_panel:
        for bot in q.panel:
            every = (bot,) * q.players
            if every == tuple(q.lineup):
                continue  # the lineup is this bot in every seat already
            fn, worker = arm_player(q, every, play)
            w = make(fn, q.seed, jobs, worker, ",".join(every)).fresh(change, q.games_for(bot), start)
            played += len(w)
            checks.append(bot_check(bot, seat_band(layout.shares(w), q.delta, q.alpha)))
    guards: tuple[GuardCheck, ...] = ()
    if before is not None:
        guards = tuple(guard_check(g, layout, q, before, cols, start) for g in q.guards)
    return Certification(change, start, cols, band, tuple(checks), guards, played)


def guard_check(g, layout: Measures, q: FixQuestion, before: Certification, cols: np.ndarray, start: int) -> GuardCheck:
    """A guard's value on the published rules' certification games and on the change's, and its band."""
    b_bots = lineup_bots(q.lineup, before.start, len(before.cols)) if g.name == "luck" else None
    a_bots = lineup_bots(q.lineup, start, len(cols)) if g.name == "luck" else None
    b = layout.value(g.name, before.cols, b_bots)
    a = layout.value(g.name, cols, a_bots)
    lo, hi = g.bounds(b)
    return GuardCheck(g.name, b, a, (lo, hi), bool(lo <= a <= hi))


def bot_check(name: str, band: SeatBand) -> BotCheck:
    lo, hi = band.worst_interval
    return BotCheck(name, band.fair, band.worst, lo, hi, band.games, seat_shares(band))


def seat_shares(band: SeatBand) -> tuple[SeatShare, ...]:
    return tuple(
        SeatShare(k, float(band.shares[k]), float(band.lo[k]), float(band.hi[k]), band.games)
        for k in range(len(band.shares))
    )


def alternatives(changes: list[Change], trials: Trials, q: FixQuestion, layout: Measures) -> tuple[Alternative, ...]:
    """The first ``ALTERNATIVES`` changes with their search games: largest seat deviation, interval, length."""
    out = []
    for c in changes[:ALTERNATIVES]:
        cols = np.concatenate(trials.pool[c].wins)
        band = seat_band(layout.shares(cols), q.delta, q.alpha)
        lo, hi = band.worst_interval
        out.append(Alternative(c, band.worst, lo, hi, layout.value("length", cols), band.games))
    return tuple(out)


#: how the search ended (``FixResult.search``), in the method's words
ENDED = {
    "settled": "a candidate passed the search's test and no cheaper one was left",
    "exhausted": "every candidate on the grid was played and ruled out",
    "budget": "its budget ran out before a candidate was settled",
}


def method_text(q: FixQuestion, ended: str, status: str = "") -> str:
    """How the selection error is controlled, in one sentence."""
    search = f"; the search ended: {ENDED.get(ended, ended)}" if ended else ""
    if status == "already_fair":
        return (
            f"the published rules were played on {q.games_said()}; every seat, with the "
            f"lineup and with each panel bot in every seat, passed two one-sided tests at ±{q.tolerance:g} points "
            f"of the fair share at level {q.alpha:g} (an intersection-union test), so they are fair within "
            f"±{q.tolerance:g} points unless an event of probability at most {q.alpha:g} occurred"
        )
    return (
        f"the change is certified on {q.games_said()} (seeds no search game used) only "
        f"if every seat, with the lineup and with each panel bot in every seat, passes two one-sided tests at "
        f"±{q.tolerance:g} points of the fair share at level {q.alpha:g} (an intersection-union test), so the "
        f"probability of certifying a change that is not fair within ±{q.tolerance:g} points is at most "
        f"{q.alpha:g} whatever the search selected{search}"
    )
