"""What a certification of a rule fix holds and how the answer says it: the change's fresh games with the lineup
and each panel bot in every seat (played in looks by ``fix_sequential``), judged by ``analysis.fix_bands`` (every
seat's one-sided tests at the tolerance), the guards measured against the published rules' games, the
alternatives, and the method in words."""

from __future__ import annotations

import dataclasses

import numpy as np

from simlab.analysis.fix_bands import Measures, SeatBand, seat_band
from simlab.experiments.engine import Trials
from simlab.experiments.fix_play import lineup_bots
from simlab.experiments.fix_question import Alternative, BotCheck, GuardCheck, SeatShare
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
    #: how the lineup's check in looks ended (certified, futile, cap; a fixed-size check: cap) and at which look
    outcome: str = "cap"
    look: int = 1
    #: the one-sided level of each test (the question's α, or its share of it when attempts split it)
    alpha: float | None = None
    #: the check that ended it uncertified: "lineup" or a panel bot ("" when certified)
    stopped_by: str = ""

    @property
    def lineup_fair(self) -> bool:
        return self.band.fair

    @property
    def fair(self) -> bool:
        return all(b.fair for b in self.panel)

    @property
    def guards_ok(self) -> bool:
        return all(g.ok for g in self.guards)


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


def method_text(q: FixQuestion, ended: str, status: str = "", race_alpha: float = 0.2, attempts: int = 1) -> str:
    """How the selection error is controlled, in words: the looks, the race's level, the attempts' split of α."""
    from simlab.analysis.fix_looks import FUTILITY, LookPlan, attempt_levels

    search = f"; the search ended: {ENDED.get(ended, ended)}" if ended else ""
    plan = LookPlan.of(q.certify_games, q.alpha)
    looks = (
        f"in looks at {', '.join(f'{n:,}' for n in plan.sizes)} fresh games per lineup{_own_games(q)} (seeds no "
        "search game used), "
        f"stopping at the first look where every test passes at that look's group-sequential boundary "
        f"(alpha spending α·t²; each test keeps its level however the run stops) or, for futility, when the "
        f"chance of passing by {q.certify_games:,} games is below {FUTILITY:.0%}"
    )
    if status == "already_fair":
        return (
            f"the published rules were played {looks}; every seat, with the lineup and with each panel bot in every "
            f"seat, passed two one-sided tests at ±{q.tolerance:g} points of the fair share at level {q.alpha:g} "
            f"(an intersection-union test), so they are fair within ±{q.tolerance:g} points unless an event of "
            f"probability at most {q.alpha:g} occurred"
        )
    levels = attempt_levels(q.alpha, attempts)
    split = (
        f"level {levels[0]:g} for the first and {levels[1]:g} for each other ({q.alpha:g} split over the "
        f"{attempts} attempts, a weighted Bonferroni)"
        if attempts > 1
        else f"level {q.alpha:g}"
    )
    return (
        f"the race chose which change to certify at a modest level (a change passes when every seat's one-sided "
        f"{1 - race_alpha:.0%} bounds lie inside ±{q.tolerance:g} points, or when its point estimates do and the "
        f"response model puts its largest deviation inside with probability {1 - race_alpha:.0%}; it is ruled out "
        f"when some seat's {1 - race_alpha:.0%} interval, simultaneous over the seats, lies outside; when the "
        f"budget ends with nothing passed, the changes whose point estimates lie inside go, the smallest predicted "
        f"deviation first): its choice costs games or optimality, never validity; certification tries at most "
        f"{attempts} of its changes, cheapest first, each on its own fresh seeds {looks}, and certifies one only "
        f"if every seat, with the lineup and with each panel bot in every seat, passes two one-sided tests at "
        f"±{q.tolerance:g} points of the fair share at {split}; an intersection-union test, so the probability "
        f"of certifying a change that is not fair within ±{q.tolerance:g} points is at most {q.alpha:g} whatever "
        f"the search selected{search}"
    )


def _own_games(q: FixQuestion) -> str:
    """The panel bots certified on their own number of games (``fix.panel_games``), their looks in the same
    fractions of their own cap."""
    from simlab.analysis.bot_words import bot_words
    from simlab.analysis.fix_looks import LookPlan

    own = [
        f"{bot_words(bot)}: {', '.join(f'{n:,}' for n in LookPlan.of(g, q.alpha).sizes)}" for bot, g in q.panel_games
    ]
    return f" ({'; '.join(own)})" if own else ""


def attempt_record(c: Certification, k: int) -> dict[str, object]:
    """One certification attempt as the answer lists it: the change, its fresh seeds' first game, its level, how
    it ended (certified, futile, cap) and which check ended it, the lineup's look and largest deviation."""
    lo, hi = c.band.worst_interval
    return {
        "attempt": k + 1,
        "change": c.change.as_dict(),
        "start": int(c.start),
        "alpha": c.alpha,
        "outcome": c.outcome,
        "look": c.look,
        "stopped_by": c.stopped_by,
        "games": c.games,
        "certified": bool(c.fair and c.guards_ok),
        "worst_deviation": c.band.worst,
        "lo": lo,
        "hi": hi,
        "n": c.band.games,
    }
