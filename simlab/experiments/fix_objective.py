"""Which change a fix search prefers among those that pass: the question's declared ``objective``.

- ``cheapest`` (the issue's default cost): the fewest knobs changed, then the fewest grid steps moved
  (``Change.cost``); between changes of one cost, the smaller worst seat deviation. Settled when a change passed
  and no cheaper one is open. The model's shortlist is drawn cheapest first.
- ``most_equal`` (``simlab compensate``'s question): the smallest worst seat deviation max_k |p_k − 1/N|, cost as
  the tie-break. The changes in play (open or passed) are compared after every round as compensate's race
  compares its vectors (``race.race_round``: a paired bootstrap over the game indices, one-sided at α divided
  over the round's comparisons): one detectably less equal than the most equal is *outdone* (out of play while
  it stays so); those left are tied with it, since the games cannot tell them apart, and the cheapest of them
  that passed is preferred (so 6,7,7,7 and 7,8,8,8 are one answer, as compensate's normalisation makes them).
  Settled when a change passed and the race is over: one change left, or every change left within
  ``EQUAL_MARGIN`` × the tolerance of the most equal (compensate's ``--tolerance``, half its ``--fair-within``:
  the choice between them does not matter). The model's shortlist is drawn most equal first (predicted), and
  once a change passed only changes predicted more equal than it join.

Certification is the same for both objectives: the preference decides which change is certified, never whether.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from simlab.analysis.arms import Candidate
from simlab.experiments.engine import Trials
from simlab.experiments.race import race_round
from simlab.run.fix_question import Change, FixQuestion

#: most_equal's race is over when every change left is within this fraction of the tolerance of the most equal
EQUAL_MARGIN = 0.5
#: two predicted deviations this close (relatively) are the model's tie; the shortlist's order rounds them to
#: ``PLACES`` decimals (a share), so rounding error does not put a dearer alike change first
ALIKE = 1e-9
PLACES = 10

Worst = Callable[[Change], float]


@dataclasses.dataclass
class Preference:
    """A search's objective and, for ``most_equal``, the state of its race (the outdone changes, whether it is
    over)."""

    objective: str
    margin: float = 0.0  # most_equal: the race's equivalence margin (a share)
    outdone: set[Change] = dataclasses.field(default_factory=set)
    race: str = "open"  # most_equal: decided | equivalent | open
    compared: set[Change] = dataclasses.field(default_factory=set)  # most_equal: what the race last compared

    @classmethod
    def of(cls, q: FixQuestion) -> Preference:
        return cls(q.objective, EQUAL_MARGIN * q.delta)

    def in_play(self, c: Change) -> bool:
        """Whether ``c`` is still a contender (not outdone by a more equal change)."""
        return c not in self.outdone

    def order(self, passed: list[Change], worst: Worst) -> list[Change]:
        """The passed changes, preferred first (the first is the one certified): the cheapest, then the most
        equal. For ``most_equal`` only those not outdone: once its race is over they are tied (the games cannot
        tell them apart, or the difference is within the margin), so the cheapest first; while it is open (the
        budget ran out) the most equal on its games first, as compensate's race picks."""
        key = (lambda c: (worst(c), c.cost)) if self.objective == "most_equal" and self.race == "open" else None
        return sorted((c for c in passed if self.in_play(c)), key=key or (lambda c: (c.cost, worst(c))))

    def to_play(self, open_: list[Change], passed: list[Change], best: Change | None) -> list[Change]:
        """The changes the next round plays (none: settled, when ``best`` is not None), ``best`` being the preferred
        passed one: ``cheapest`` the open ones cheaper than it; ``most_equal`` while its race is open every change
        in play, the passed ones too (the race compares them), and always any the race has not compared yet."""
        if best is None:
            return list(open_)
        if self.objective == "cheapest":
            return [c for c in open_ if c.cost < best.cost]
        if self.race == "open":
            return [c for c in [*open_, *passed] if self.in_play(c)]
        return [c for c in open_ if self.in_play(c) and c not in self.compared]

    def cost_cap(self, best: Change | None) -> tuple[int, int] | None:
        """Untried changes must cost less than this to join the shortlist (None: any)."""
        return best.cost if best is not None and self.objective == "cheapest" else None

    def predicted_bar(self, best: Change | None, worst: Worst, delta: float) -> float:
        """Untried changes must be predicted below this worst deviation to join the shortlist."""
        if self.objective == "most_equal" and best is not None:
            return min(delta, worst(best))
        return delta

    @property
    def first_found(self) -> bool:
        """Whether the cheapest-first scan may stop at the first changes it finds (``most_equal`` reads the whole
        scan to draw the most equal)."""
        return self.objective == "cheapest"

    def may_widen(self, best: Change | None) -> bool:
        """Whether, with no change predicted within the bar, those the model cannot rule out may join: always for
        ``cheapest`` (only cheaper ones can); for ``most_equal`` only before a change passed."""
        return self.objective == "cheapest" or best is None

    def widened(self, possible: list[tuple[float, Change]], known: Callable[[], np.ndarray]) -> list[Change]:
        """The order the changes the model cannot rule out join in (``possible``: in the scan's order): the best
        predicted first, the cheaper first between equal predictions; ``most_equal`` as its shortlist (alike
        changes once)."""
        if self.objective == "cheapest":
            return [c for _d, c in sorted(possible, key=lambda dc: dc[0])]
        return self.shortlist(possible, known)

    def shortlist(self, found: list[tuple[float, Change]], known: Callable[[], np.ndarray]) -> list[Change]:
        """The order the model's finds join the shortlist in (``found``: (predicted deviation, change) in the
        cheapest-first scan's order): ``cheapest`` as scanned; ``most_equal`` the most equal predicted first, and
        of changes the model predicts exactly alike (7,8,8,8 beside 6,7,7,7: the same offsets between the seats)
        only the cheapest, and none alike a change already tried (``known()``: their predictions): the model
        cannot tell them apart, so they would tie and the cheaper would win."""
        if self.objective == "cheapest" or not found:
            return [c for _d, c in found]
        taken = list(known())
        out = []
        for d, c in sorted(found, key=lambda dc: round(dc[0], PLACES)):  # stable: the cheaper first between alike
            if not any(abs(d - k) <= ALIKE * max(abs(k), 1e-6) for k in taken):
                out.append(c)
                taken.append(d)
        return out

    def compare(self, changes: list[Change], trials: Trials, players: int, alpha: float, rounds: int) -> None:
        """``most_equal``: compare the changes in play on their search games (paired), marking the outdone."""
        if self.objective != "most_equal":
            return
        played = [c for c in changes if trials.pool.get(c) is not None and trials.pool[c].games > 1]
        self.compared = set(played)
        if len(played) < 2:
            self.outdone.clear()
            self.race = "decided" if played else "open"
            return
        views = [_shares_only(c, trials.pool[c], players) for c in played]
        _best, self.race = race_round(views, alpha, self.margin, trials.seed, rounds)
        self.outdone = {c for c, v in zip(played, views, strict=True) if v.dropped is not None}


#: each objective in the answer's method sentence
SAID = {
    "cheapest": "the cheapest change that passed (fewest knobs, then fewest grid steps; ties: the most equal)",
    "most_equal": (
        "the most equal change that passed (the smallest worst seat deviation; changes a paired comparison on the "
        "search games could not tell apart from it are tied, and the cheapest of them is chosen)"
    ),
}


def objective_text(objective: str, searched: bool) -> str:
    """The method's clause on what the search chose (empty when nothing was searched)."""
    return f"; objective {objective}: the search chooses {SAID[objective]}" if searched else ""


def _shares_only(change: Change, played: Candidate, players: int) -> Candidate:
    """A view of a change's games with the seats' win shares alone (the race scores those)."""
    return Candidate(change, list(played.game), [np.asarray(w)[:, :players] for w in played.wins])
