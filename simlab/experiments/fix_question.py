"""``simlab fix``'s question and answer: the question's types and parser (``simlab.run.fix_question`` and
``simlab.run.fix_table``, in the run layer because a scenario's ``[fix]`` table is checked on load; re-exported
here) and :class:`FixResult`, what the driver
(``simlab.experiments.fix.find_fix``) returns and ``to_dict()`` writes as JSON for the CLI and the report.

Units in ``to_dict()``: shares, deviations and their bounds are fractions (0.25 is a quarter of the wins);
``tolerance`` is in points, as the ``[fix]`` table and ``simlab seats --tolerance`` say it (1.0 = 0.01).
The schema is in docs/experiments.md ("simlab fix: the answer").
"""

from __future__ import annotations

import dataclasses
from typing import Any

from simlab.run.fix_question import DEFAULT_ALPHA, DEFAULT_TOLERANCE, Change, FixQuestion, FixQuestionError, Guard, Knob
from simlab.run.fix_table import fix_question, fix_question_from_scenario, fix_question_from_table

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_TOLERANCE",
    "STATUSES",
    "Alternative",
    "BotCheck",
    "Change",
    "FixQuestion",
    "FixQuestionError",
    "FixResult",
    "Guard",
    "GuardCheck",
    "Knob",
    "SeatShare",
    "fix_question",
    "fix_question_from_scenario",
    "fix_question_from_table",
]

#: how a fix search ends: a change certified fair for every lineup; the chosen change not certified on fresh
#: seeds; the published rules already fair; no change on the grid can be fair (every one ruled out); the
#: budget spent before a candidate was settled
STATUSES = ("certified", "not_certified", "already_fair", "none_on_grid", "budget")


@dataclasses.dataclass(frozen=True)
class SeatShare:
    """One seat's win share over ``n`` games with its interval (the level is the result's ``method``'s)."""

    seat: int
    share: float
    lo: float
    hi: float
    n: int

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class GuardCheck:
    """A guard on the certification games: the published rules' value, the change's, the band it must lie in."""

    name: str
    before: float
    after: float
    band: tuple[float, float]
    ok: bool

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "band": list(self.band)}


@dataclasses.dataclass(frozen=True)
class BotCheck:
    """The change certified with one lineup (the scenario's, or a panel bot in every seat): ``fair`` when every
    seat's one-sided tests at the tolerance pass; ``worst_deviation`` max_k |p_k − 1/N| with its interval."""

    bot: str
    fair: bool
    worst_deviation: float
    lo: float
    hi: float
    n: int
    seats: tuple[SeatShare, ...]

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "seats": [s.as_dict() for s in self.seats]}


@dataclasses.dataclass(frozen=True)
class Alternative:
    """Another change the search found within the tolerance: its worst seat deviation (with interval) and mean
    game length, on its ``n`` search games; its cost is the change's own (``Change.as_dict()``), said once."""

    change: Change
    worst_deviation: float
    lo: float
    hi: float
    mean_length: float
    n: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "change": self.change.as_dict(),
            "worst_deviation": self.worst_deviation,
            "lo": self.lo,
            "hi": self.hi,
            "mean_length": self.mean_length,
            "n": self.n,
        }


#: what every ``lo``/``hi`` of a fix answer is (at ``level`` = 1 − 2α, as ``simlab seats --json`` says its own)
INTERVAL = (
    "normal interval of the mean (sample sd); each bound a one-sided test at alpha; a certification's are drawn at "
    "the boundary of the look it stopped at, for its attempt's share of alpha: level is their least coverage"
)


@dataclasses.dataclass(frozen=True)
class FixResult:
    """The answer of ``simlab fix``: how the search ended (``status``), the change (None when there is none to
    recommend), the seats before (published) and after on certification games, the guards, the panel, the
    cheapest alternatives, the games spent, and ``method``: how the selection error is controlled."""

    status: str
    change: Change | None
    before: tuple[SeatShare, ...]
    after: tuple[SeatShare, ...]
    guards: tuple[GuardCheck, ...]
    panel: tuple[BotCheck, ...]
    alternatives: tuple[Alternative, ...]
    games: dict[str, int]
    tolerance: float
    alpha: float
    method: str
    #: how the search ended: settled, exhausted or budget ("" when nothing was searched: already fair)
    search: str = ""
    #: the published rules' certification checks (the lineup, then each panel bot when the lineup passed): why they
    #: are not already fair; empty when they are
    published_panel: tuple[BotCheck, ...] = ()
    #: the certification attempts in order (``fix_certify.attempt_record``): each change tried on its own fresh
    #: seeds at its share of α, how its check ended and at which look
    attempts: tuple[dict[str, Any], ...] = ()
    #: which passing change the search preferred: cheapest or most_equal (``fix_objective``)
    objective: str = "cheapest"

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``simlab fix --json`` prints and the report reads (docs/experiments.md)."""
        return {
            "status": self.status,
            "change": self.change.as_dict() if self.change is not None else None,
            "before": [s.as_dict() for s in self.before],
            "after": [s.as_dict() for s in self.after],
            "guards": [g.as_dict() for g in self.guards],
            "panel": [b.as_dict() for b in self.panel],
            "published_panel": [b.as_dict() for b in self.published_panel],
            "alternatives": [a.as_dict() for a in self.alternatives],
            "attempts": [dict(a) for a in self.attempts],
            "games": dict(self.games),
            "search": self.search,
            "tolerance": self.tolerance,
            "alpha": self.alpha,
            "level": round(1 - 2 * self.alpha, 12),
            "interval": INTERVAL,
            "method": self.method,
            "objective": self.objective,
        }
