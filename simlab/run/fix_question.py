"""A rule-fix question, declared: which knobs may change and on which grid, the target, the guards, the budget.

A scenario's ``[fix]`` table (or the same keys from Python, ``fix_table.fix_question``) says what ``simlab fix``
may change and what counts as fair; ``simlab.run.fix_table`` checks it against the game and the published config
before anything plays, each problem a :class:`FixQuestionError` naming the scenario key, what is allowed and
what to do. The types here are pure data (the driver that plays games is ``simlab.experiments.fix``)::

    [fix]
    tolerance = 1.0        # points of win share (as `simlab seats --tolerance`): every seat within 1/N ± 1 point
    alpha = 0.05           # P(certify a change that is not fair within ±tolerance) ≤ alpha
    budget = 200000        # search games (explore + race); certification is extra
    certify_games = 20000  # fresh games per certification lineup (the scenario's, then each panel bot)
    panel = ["holder"]     # bots that each play every seat in a certification (default: the lineup's bots)
    objective = "cheapest" # which passing change to prefer: "cheapest" (default) or "most_equal"
    panel_games = { "race:iterations=32" = 4000 }  # a panel bot's own certification games (default certify_games)
    [fix.knobs]
    start_money = { seats = [[0, 4], [0, 4], [0, 4], [0, 4]], step = 1 }   # a per-seat vector, per-entry ranges
    turn_tile_income = { values = [[3, 2, 1, 0], [4, 3, 2, 1]] }          # whole alternatives of a table knob
    rounds = { range = [5, 8], step = 1 }                                  # a number on a range with a step
    hand_limit = { values = [5, 6, 7] }                                    # an explicit list
    [fix.guards]
    length = 10            # mean game length within ±10% of the published rules' (a pair: a band in turns)
    draws = 2              # draw rate within ±2 points of the published rules' (a pair: a band in percent)
    luck = 5               # the luck share of the score's variance within ±5 points (a pair: a band in percent)
    fact.final_points = 10 # a declared fact's mean within ±10% of the published rules' (a pair: its own unit)

Every grid holds the published value (added where the designer's grid leaves it out). The **cost** of a change
is (knobs that differ from the published rules, then grid steps moved in all): index steps on each knob's grid
(each entry's grid for a per-seat vector; for whole alternatives their listed order, the published first).
The **objective** says which of the changes that pass the search prefers (``simlab.experiments.fix_objective``):
``cheapest`` (the default: the smallest cost, then the smallest worst seat deviation) or ``most_equal`` (the
smallest worst seat deviation; changes the paired comparison cannot tell apart from it are tied, and the cheapest
of them wins: ``simlab compensate``'s question).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from simlab.run.errors import ScenarioError

#: the target's default: every seat within 1/N ± 1 point of win share (``simlab seats --tolerance``'s default)
DEFAULT_TOLERANCE = 1.0
DEFAULT_ALPHA = 0.05
DEFAULT_BUDGET = 200_000
DEFAULT_BATCH = 1_000
DEFAULT_CERTIFY_GAMES = 20_000
#: the least games per arm and round and per certification lineup (the `[fix]` table's and `simlab fix`'s check)
LEAST_BATCH = 10
LEAST_CERTIFY_GAMES = 100
#: which passing change a search prefers (``simlab.experiments.fix_objective``): the cheapest, or the most equal
OBJECTIVES = ("cheapest", "most_equal")
DEFAULT_OBJECTIVE = "cheapest"
#: the kind of each measure: a mean (relative band in percent) or a rate (relative band in points)
RATES = ("draws", "luck")


class FixQuestionError(ScenarioError):
    """A ``[fix]`` table (or its Python twin) the game cannot answer: a knob not in the config, a grid outside
    the knob's range or empty, a guard on an undeclared fact, a tolerance ≤ 0. Refused before any game."""


@dataclasses.dataclass(frozen=True)
class Knob:
    """A config field the fix may change, with its grid.

    ``kind``: ``range`` (a number on lo..hi by ``step``), ``values`` (an explicit list of numbers), ``seats``
    (a per-seat vector, each of the first ``players`` entries on its own grid) or ``tables`` (whole alternatives
    of a list knob). ``axes``: each axis's values in grid order, the published one included (one axis, except
    ``seats``: one per seat); ``home``: the published value's index on each axis."""

    name: str
    kind: str
    published: Any
    axes: tuple[tuple[Any, ...], ...]
    home: tuple[int, ...]

    def value(self, index: Sequence[int]) -> Any:
        """The knob's whole config value at grid ``index`` (one index per axis)."""
        if self.kind == "seats":
            head = tuple(axis[i] for axis, i in zip(self.axes, index, strict=True))
            return head + tuple(self.published[len(head) :])
        return self.axes[0][index[0]]

    @property
    def most_steps(self) -> int:
        return sum(max(h, len(a) - 1 - h) for a, h in zip(self.axes, self.home, strict=True))

    def moves(self, steps: int) -> Iterator[tuple[int, ...]]:
        """Every signed move (one per axis) of exactly ``steps`` grid steps in all that stays on the grid, in a
        fixed order (fewest axes moved first, then down before up)."""
        m = len(self.axes)
        for touched in range(1, min(m, steps) + 1):
            for axes in itertools.combinations(range(m), touched):
                for parts in _compositions(steps, touched):
                    options = [
                        [d for d in (-p, p) if 0 <= self.home[a] + d < len(self.axes[a])]
                        for a, p in zip(axes, parts, strict=True)
                    ]
                    for signed in itertools.product(*options):
                        move = [0] * m
                        for a, d in zip(axes, signed, strict=True):
                            move[a] = d
                        yield tuple(move)


@dataclasses.dataclass(frozen=True)
class Guard:
    """A check that the fix does not break the game: ``name`` is ``length``, ``draws``, ``luck`` or
    ``fact.<column>``. ``within`` bounds the change relative to the published rules (a mean: ± that fraction of
    it; a rate: ± that much, as a fraction); ``band`` instead bounds the value itself (lo, hi) in the measure's
    unit (turns, a fraction for rates, the fact's unit)."""

    name: str
    within: float | None = None
    band: tuple[float, float] | None = None

    @property
    def rate(self) -> bool:
        return self.name in RATES

    def bounds(self, before: float) -> tuple[float, float]:
        """The band the changed rules' value must lie in, given the published rules' value."""
        if self.band is not None:
            return self.band
        assert self.within is not None
        half = self.within if self.rate else abs(before) * self.within
        return before - half, before + half

    def ok(self, before: float, after: float) -> bool:
        lo, hi = self.bounds(before)
        return lo <= after <= hi


@dataclasses.dataclass(frozen=True)
class Change:
    """Settings that differ from the published rules: ``settings`` (knob, new value), ``published`` (knob, its
    published value) and ``steps`` (knob, grid steps moved), in the question's knob order; ``moves``: the signed
    grid steps on every axis of every knob of the question (a response model's coordinates)."""

    settings: tuple[tuple[str, Any], ...]
    published: tuple[tuple[str, Any], ...]
    steps: tuple[tuple[str, int], ...]
    moves: tuple[int, ...]

    @property
    def cost(self) -> tuple[int, int]:
        """(knobs changed, total grid steps moved): the lower, the smaller the change."""
        return len(self.settings), sum(s for _, s in self.steps)

    def apply(self, config: Any) -> Any:
        """The config with this change (``config.replace``; the published config itself for no change)."""
        return config.replace(**dict(self.settings)) if self.settings else config

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: every changed knob with its published and new value and steps, and the cost."""
        old, steps = dict(self.published), dict(self.steps)
        knobs, total = self.cost
        return {
            "settings": [
                {"knob": k, "published": _jsonable(old[k]), "value": _jsonable(v), "steps": steps[k]}
                for k, v in self.settings
            ],
            "cost": {"knobs": knobs, "steps": total},
        }

    def describe(self) -> str:
        """``start_money 6,6,6,6 -> 6,6,7,8; rounds 6 -> 7`` (the published rules: ``no change``)."""
        if not self.settings:
            return "no change"
        old = dict(self.published)
        return "; ".join(f"{k} {show_value(old[k])} -> {show_value(v)}" for k, v in self.settings)


@dataclasses.dataclass(frozen=True)
class FixQuestion:
    """What ``simlab fix`` answers: the smallest change of ``knobs`` that puts every seat's win share within
    1/N ± ``tolerance`` points (default 1 point, as ``simlab seats --tolerance``) with the lineup, certified on
    fresh seeds for the lineup and each bot of ``panel`` so that P(certify a change that is not fair) ≤ ``alpha``
    (default 0.05), with ``guards`` held. ``budget``: search games (explore and race); ``certify_games``: fresh
    games per certification lineup. ``objective``: which passing change to prefer (``OBJECTIVES``): the cheapest
    (the issue's default cost) or the most equal (``simlab compensate``'s)."""

    game: Any
    config: Any
    lineup: tuple[str, ...]
    knobs: tuple[Knob, ...]
    tolerance: float = DEFAULT_TOLERANCE
    alpha: float = DEFAULT_ALPHA
    guards: tuple[Guard, ...] = ()
    budget: int = DEFAULT_BUDGET
    batch: int = DEFAULT_BATCH
    certify_games: int = DEFAULT_CERTIFY_GAMES
    seed: int = 0
    panel: tuple[str, ...] = ()
    source: str = "<fix>"
    objective: str = DEFAULT_OBJECTIVE
    #: (bot, games): a panel bot certified on its own number of fresh games (a search bot's cost hundreds of
    #: times a heuristic's); the others play ``certify_games``
    panel_games: tuple[tuple[str, int], ...] = ()

    def games_for(self, bot: str) -> int:
        """Fresh games of the certification with ``bot`` in every seat (``certify_games`` unless the panel says)."""
        return dict(self.panel_games).get(bot, self.certify_games)

    def games_said(self) -> str:
        """The certification's games per lineup in words: "20,000 fresh games per lineup (2,000 for race:...)"."""
        own = "; ".join(f"{n:,} for {bot}" for bot, n in self.panel_games)
        return f"{self.certify_games:,} fresh games per lineup" + (f" ({own})" if own else "")

    @property
    def delta(self) -> float:
        """The tolerance as a share (1 point = 0.01)."""
        return self.tolerance / 100

    @property
    def players(self) -> int:
        return int(self.config.players)

    def no_change(self) -> Change:
        """The published rules as a change of nothing (cost (0, 0))."""
        return self.moved({})

    def change(self, **values: Any) -> Change:
        """The change that sets these knobs (each value on its knob's grid) and keeps the others published."""
        moves = {}
        for name, value in values.items():
            k = self.knob(name)
            moves[name] = tuple(i - h for i, h in zip(_index_of(k, value, self.source), k.home, strict=True))
        return self.moved(moves)

    def knob(self, name: str) -> Knob:
        for k in self.knobs:
            if k.name == name:
                return k
        raise FixQuestionError(
            f"{self.source}: no knob {name!r} in the question; its knobs: {', '.join(k.name for k in self.knobs)}"
        )

    def candidates(self) -> Iterator[Change]:
        """Every change on the grid except the published rules, cheapest first (fewest knobs, then fewest
        steps; a fixed order within a cost), generated lazily: a per-seat vector's grid is a product of its
        entries' grids, too many to list."""
        most = [k.most_steps for k in self.knobs]
        for count in range(1, len(self.knobs) + 1):
            subsets = list(itertools.combinations(range(len(self.knobs)), count))
            top = max(sum(most[i] for i in s) for s in subsets)
            for steps in range(count, top + 1):
                for subset in subsets:
                    for parts in _compositions(steps, count):
                        if any(p > most[i] for p, i in zip(parts, subset, strict=True)):
                            continue
                        per = [self.knobs[i].moves(p) for i, p in zip(subset, parts, strict=True)]
                        for combo in itertools.product(*per):
                            yield self.moved({self.knobs[i].name: m for i, m in zip(subset, combo, strict=True)})

    def moved(self, moves: Mapping[str, tuple[int, ...]]) -> Change:
        """The change that moves each named knob by the signed grid steps given per axis (others published)."""
        settings, published, steps, flat = [], [], [], []
        for k in self.knobs:
            move = moves.get(k.name, (0,) * len(k.axes))
            flat += move
            if any(move):
                settings.append((k.name, k.value([h + d for h, d in zip(k.home, move, strict=True)])))
                published.append((k.name, k.published))
                steps.append((k.name, sum(abs(d) for d in move)))
        return Change(tuple(settings), tuple(published), tuple(steps), tuple(flat))


def _index_of(knob: Knob, value: Any, source: str) -> tuple[int, ...]:
    """The grid index of a whole knob value (a per-seat vector: each entry on its axis)."""
    value = tuple(value) if isinstance(value, list) else value
    try:
        if knob.kind == "seats":
            return tuple(axis.index(v) for axis, v in zip(knob.axes, value, strict=False))
        return (knob.axes[0].index(value),)
    except ValueError:
        raise FixQuestionError(f"{source}: {knob.name} = {show_value(value)} is not on the question's grid") from None


def is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Ways to write ``total`` as ``parts`` positive integers, in lexicographic order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def show_value(value: Any) -> str:
    if isinstance(value, tuple | list):
        return ",".join(show_value(v) for v in value)
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple | list) else value
