"""A rule-fix question, declared: which knobs may change and on which grid, the target, the guards, the budget.

A scenario's ``[fix]`` table (or the same keys from Python, :func:`fix_question`) says what ``simlab fix`` may
change and what counts as fair; :func:`fix_question_from_table` checks it against the game and the published
config before anything plays, each problem a :class:`FixQuestionError` naming the scenario key, what is allowed
and what to do. The types are pure data (the driver that plays games is ``simlab.experiments.fix``)::

    [fix]
    tolerance = 1.0        # points of win share (as `simlab seats --tolerance`): every seat within 1/N ± 1 point
    alpha = 0.05           # P(certify a change that is not fair within ±tolerance) ≤ alpha
    budget = 200000        # search games (explore + race); certification is extra
    certify_games = 20000  # fresh games per certification lineup (the scenario's, then each panel bot)
    panel = ["holder"]     # bots that each play every seat in a certification (default: the lineup's bots)
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
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from simlab.core.config import knob_range, range_text
from simlab.core.errors import SimlabError
from simlab.run.errors import ScenarioError

#: the target's default: every seat within 1/N ± 1 point of win share (``simlab seats --tolerance``'s default)
DEFAULT_TOLERANCE = 1.0
DEFAULT_ALPHA = 0.05
DEFAULT_BUDGET = 200_000
DEFAULT_BATCH = 1_000
DEFAULT_CERTIFY_GAMES = 20_000
#: most values on one grid axis (a range with a tiny step is a mistake, not a question)
MAX_AXIS = 1_000
FIX_KEYS = ("tolerance", "alpha", "budget", "batch", "certify_games", "seed", "panel", "knobs", "guards")
KNOB_KEYS = ("range", "step", "values", "seats")
#: guards on the game's own measures; ``fact.<column>`` guards a declared fact's mean
GUARD_MEASURES = ("length", "draws", "luck")
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
        return "; ".join(f"{k} {_show(old[k])} -> {_show(v)}" for k, v in self.settings)


@dataclasses.dataclass(frozen=True)
class FixQuestion:
    """What ``simlab fix`` answers: the smallest change of ``knobs`` that puts every seat's win share within
    1/N ± ``tolerance`` points (default 1 point, as ``simlab seats --tolerance``) with the lineup, certified on
    fresh seeds for the lineup and each bot of ``panel`` so that P(certify a change that is not fair) ≤ ``alpha``
    (default 0.05), with ``guards`` held. ``budget``: search games (explore and race); ``certify_games``: fresh
    games per certification lineup."""

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


def fix_question(
    game: Any,
    config: Any,
    lineup: Sequence[str],
    *,
    knobs: Mapping[str, Any],
    source: str = "<fix>",
    **options: Any,
) -> FixQuestion:
    """The Python twin of a ``[fix]`` table: ``fix_question(game, config, lineup, knobs={"start_points": {"seats":
    [0, 30], "step": 5}}, tolerance=1.0, guards={"length": 10})``; the same checks, the same errors."""
    return fix_question_from_table({"knobs": dict(knobs), **options}, game, config, lineup, source)


def fix_question_from_table(
    table: Mapping[str, Any], game: Any, config: Any, lineup: Sequence[str], source: str = "<scenario>", seed: int = 0
) -> FixQuestion:
    """Check a ``[fix]`` table against the game and its published ``config``; ``seed`` is the default seed (the
    scenario's). Raises :class:`FixQuestionError` naming the key, what is allowed and what to do."""
    if not isinstance(table, Mapping):
        _fail(source, "fix", "a table ([fix] with knobs and options)", table, "write it as a [fix] table")
    for key in table:
        if key not in FIX_KEYS:
            raise FixQuestionError(f"{source}: unknown key 'fix.{key}'; expected one of: {', '.join(FIX_KEYS)}")
    tolerance = table.get("tolerance", DEFAULT_TOLERANCE)
    if not (_number(tolerance) and 0 < tolerance < 100 / config.players):
        _fail(
            source,
            "fix.tolerance",
            f"points of win share, more than 0 and less than {100 / config.players:g} (the fair share)",
            tolerance,
            f"e.g. tolerance = {DEFAULT_TOLERANCE:g}",
        )
    alpha = table.get("alpha", DEFAULT_ALPHA)
    if not (_number(alpha) and 0 < alpha < 0.5):
        _fail(source, "fix.alpha", "a probability above 0 and below 0.5", alpha, f"e.g. alpha = {DEFAULT_ALPHA}")
    ints = {}
    for key, default, least in (
        ("budget", DEFAULT_BUDGET, 1),
        ("batch", DEFAULT_BATCH, 10),
        ("certify_games", DEFAULT_CERTIFY_GAMES, 100),
        ("seed", seed, 0),
    ):
        value = table.get(key, default)
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= least):
            _fail(source, f"fix.{key}", f"an integer of at least {least}", value, f"e.g. {key} = {default}")
        ints[key] = value
    panel = _panel(table.get("panel", list(dict.fromkeys(lineup))), game, source)
    raw_knobs = table.get("knobs")
    if not isinstance(raw_knobs, Mapping) or not raw_knobs:
        _fail(
            source,
            "fix.knobs",
            "a table of at least one knob with its grid, e.g. start_money = { seats = [0, 4], step = 1 }",
            raw_knobs,
            f"list the knobs the fix may change (`simlab config {game.name}`)",
        )
    knobs = tuple(parse_knob(name, spec, game, config, source) for name, spec in raw_knobs.items())
    guards = tuple(parse_guards(table.get("guards", {}), game, config, source))
    return FixQuestion(
        game,
        config,
        tuple(lineup),
        knobs,
        float(tolerance),
        float(alpha),
        guards,
        ints["budget"],
        ints["batch"],
        ints["certify_games"],
        ints["seed"],
        panel,
        source,
    )


def parse_knob(name: str, spec: Any, game: Any, config: Any, source: str) -> Knob:
    """One ``[fix.knobs]`` entry: the knob must be a field of the config, its grid non-empty and in its range."""
    key = f"fix.knobs.{name}"
    fields = {f.name: f for f in dataclasses.fields(config)}
    if name not in fields or name == "players":
        allowed = ", ".join(n for n in fields if n != "players")
        what = "the player count is the scenario's" if name == "players" else f"{game.name} has no knob {name!r}"
        raise FixQuestionError(
            f"{source}: key '{key}': {what}; knobs of the config: {allowed} "
            f"(`simlab config {game.name}` lists them with their ranges)"
        )
    if not isinstance(spec, Mapping):
        _fail(
            source,
            key,
            "a table: { range = [lo, hi], step = s }, { values = [...] } or { seats = [[lo, hi], ...], step = s }",
            spec,
            "write the grid as an inline table",
        )
    for k in spec:
        if k not in KNOB_KEYS:
            raise FixQuestionError(f"{source}: unknown key '{key}.{k}'; expected one of: {', '.join(KNOB_KEYS)}")
    published = getattr(config, name)
    per_seat = isinstance(published, tuple)
    grid_keys = [k for k in ("range", "values", "seats") if k in spec]
    if len(grid_keys) != 1:
        _fail(source, key, "exactly one of 'range', 'values' or 'seats'", dict(spec), "give the knob one grid")
    kind = grid_keys[0]
    if per_seat and kind == "range":
        _fail(
            source,
            f"{key}.range",
            "for a list knob: 'seats' (one range per seat) or 'values' (whole alternatives)",
            spec["range"],
            "use seats = [[lo, hi], ...] or values = [[...], [...]]",
        )
    if not per_seat and kind == "seats":
        _fail(
            source,
            f"{key}.seats",
            f"a per-seat list knob; {name} is one value ({_show(published)})",
            spec["seats"],
            "use range = [lo, hi] with step, or values = [...]",
        )
    step = spec.get("step", 1)
    if "step" in spec and kind == "values":
        _fail(source, f"{key}.step", "no step with an explicit list of values", step, "drop 'step'")
    if not (_number(step) and step > 0):
        _fail(source, f"{key}.step", "a number above 0", step, "e.g. step = 1")
    if kind == "seats":
        axes = _seat_axes(spec["seats"], step, published, config.players, f"{key}.seats", source)
        knob = Knob(name, "seats", published, axes, tuple(a.index(p) for a, p in zip(axes, published, strict=False)))
    else:
        if kind == "range":
            lo, hi = _pair(spec["range"], f"{key}.range", source)
            values = _steps(lo, hi, step, f"{key}.range", source)
        else:
            values = spec["values"]
            if not isinstance(values, list) or not values:
                _fail(source, f"{key}.values", "a non-empty list of values", values, "list at least one value")
            values = [tuple(v) if isinstance(v, list) else v for v in values]
        if not per_seat and all(_number(v) for v in values):
            axis = tuple(sorted(set(values) | {published}))
        else:
            axis = (published, *dict.fromkeys(v for v in values if v != published))
        knob = Knob(name, "tables" if per_seat else kind, published, (axis,), (axis.index(published),))
    if knob.most_steps == 0:
        _fail(
            source, key, "a grid with a value other than the published one", _show(published), "add values to the grid"
        )
    _check_grid(knob, fields[name], config, key, source)
    return knob


def parse_guards(table: Any, game: Any, config: Any, source: str) -> Iterator[Guard]:
    """``[fix.guards]``: ``length``, ``draws``, ``luck`` and ``fact.<column>`` (a fact the game declares)."""
    if not isinstance(table, Mapping):
        _fail(source, "fix.guards", "a table of guards", table, "write [fix.guards] with e.g. length = 10")
    for name, value in table.items():
        if name == "fact":
            if not isinstance(value, Mapping) or not value:
                _fail(
                    source,
                    "fix.guards.fact",
                    "a table of fact columns, e.g. fact.final_points = 10",
                    value,
                    "name a fact the game declares",
                )
            declared = game.fact_set.schema(config) if game.fact_set is not None else {}
            for fact, spec in value.items():
                if fact not in declared:
                    shown = ", ".join(list(declared)[:12]) + (", …" if len(declared) > 12 else "") or "none"
                    raise FixQuestionError(
                        f"{source}: key 'fix.guards.fact.{fact}': {game.name} declares no fact "
                        f"{fact!r}; its facts: {shown} (`simlab facts {game.name}`)"
                    )
                yield _guard(f"fact.{fact}", spec, source)
        elif name in GUARD_MEASURES:
            yield _guard(name, value, source)
        else:
            raise FixQuestionError(
                f"{source}: unknown key 'fix.guards.{name}'; expected one of: "
                f"{', '.join(GUARD_MEASURES)}, fact.<column>"
            )


def _guard(name: str, spec: Any, source: str) -> Guard:
    key = f"fix.guards.{name}"
    rate = name in RATES
    scale = 100  # relative: percent of a mean, points of a rate; a rate's band is in percent
    if _number(spec):
        if not spec > 0:
            _fail(
                source, key, "a number above 0 (± percent of the published value; points for a rate)", spec, "e.g. 10"
            )
        return Guard(name, within=float(spec) / scale)
    lo, hi = _pair(spec, key, source)
    return Guard(name, band=(lo / scale, hi / scale) if rate else (float(lo), float(hi)))


def _seat_axes(spec: Any, step: float, published: tuple, players: int, key: str, source: str) -> tuple[tuple, ...]:
    """A per-seat grid: one [lo, hi] for every seat, or one per seat; each axis holds the published entry."""
    if isinstance(spec, list) and len(spec) == 2 and all(_number(v) for v in spec):
        pairs = [spec] * players
    elif isinstance(spec, list) and len(spec) == players:
        pairs = spec
    else:
        _fail(
            source,
            key,
            f"[lo, hi] for every seat, or {players} such pairs (one per seat)",
            spec,
            f"give {players} ranges",
        )
    axes = []
    for seat, pair in enumerate(pairs):
        lo, hi = _pair(pair, f"{key}[{seat}]", source)
        values = _steps(lo, hi, step, f"{key}[{seat}]", source)
        axes.append(tuple(sorted(set(values) | {published[seat]})))
    return tuple(axes)


def _check_grid(knob: Knob, field: dataclasses.Field, config: Any, key: str, source: str) -> None:
    """Every grid value must lie in the knob's range and be a value the config accepts (its type, its rules)."""
    bounds = knob_range(field, config)
    also = field.metadata.get("also", ())
    for axis in knob.axes:
        for item in axis:
            for v in item if isinstance(item, tuple) else (item,):
                if bounds is not None and v not in also and not _inside(v, bounds):
                    raise FixQuestionError(
                        f"{source}: key '{key}': {_show(item)} is outside the range of {knob.name} "
                        f"({range_text(field, config)}); keep the grid within it"
                    )
    probes: list[tuple[int, ...]] = []
    for a in range(len(knob.axes)):  # each axis's ends, the others published
        for end in (0, len(knob.axes[a]) - 1):
            probes.append(tuple(end if j == a else h for j, h in enumerate(knob.home)))
    if knob.kind != "seats":
        probes = [(i,) for i in range(len(knob.axes[0]))]
    for index in probes:
        try:
            config.replace(**{knob.name: knob.value(index)})
        except SimlabError as exc:
            raise FixQuestionError(
                f"{source}: key '{key}': the config refuses {knob.name} = "
                f"{_show(knob.value(index))}: {exc}; keep the grid to values it accepts"
            ) from None


def _index_of(knob: Knob, value: Any, source: str) -> tuple[int, ...]:
    """The grid index of a whole knob value (a per-seat vector: each entry on its axis)."""
    value = tuple(value) if isinstance(value, list) else value
    try:
        if knob.kind == "seats":
            return tuple(axis.index(v) for axis, v in zip(knob.axes, value, strict=False))
        return (knob.axes[0].index(value),)
    except ValueError:
        raise FixQuestionError(f"{source}: {knob.name} = {_show(value)} is not on the question's grid") from None


def _panel(value: Any, game: Any, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _fail(source, "fix.panel", 'a list of bot specs, e.g. ["holder"]', value, "name the game's bots")
    for i, spec in enumerate(value):
        try:
            game.bots.make(spec)
        except SimlabError as exc:
            raise FixQuestionError(f"{source}: key 'fix.panel[{i}]': {exc}") from None
    return tuple(value)


def _steps(lo: float, hi: float, step: float, key: str, source: str) -> list[float]:
    if hi < lo:
        _fail(source, key, "[lo, hi] with lo ≤ hi", [lo, hi], "swap the ends")
    count = math.floor((hi - lo) / step + 1e-9) + 1
    if count > MAX_AXIS:
        _fail(source, key, f"at most {MAX_AXIS} values per grid", f"{count} values", "use a larger step")
    whole = all(isinstance(v, int) for v in (lo, hi, step))
    return [lo + i * step if whole else round(lo + i * step, 12) for i in range(count)]


def _pair(value: Any, key: str, source: str) -> tuple[Any, Any]:
    if not (isinstance(value, list) and len(value) == 2 and all(_number(v) for v in value)):
        _fail(source, key, "[lo, hi]: two numbers", value, "e.g. [0, 4]")
    if value[1] < value[0]:
        _fail(source, key, "[lo, hi] with lo ≤ hi", value, "swap the ends")
    return value[0], value[1]


def _inside(v: Any, bounds: tuple[Any, Any]) -> bool:
    lo, hi = bounds
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Ways to write ``total`` as ``parts`` positive integers, in lexicographic order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _fail(source: str, key: str, expected: str, found: Any, todo: str) -> None:
    raise FixQuestionError(f"{source}: key '{key}': expected {expected}, found {_show(found)}; {todo}")


def _show(value: Any) -> str:
    if isinstance(value, tuple | list):
        return ",".join(_show(v) for v in value)
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple | list) else value


def fix_question_from_scenario(scenario: Any) -> FixQuestion:
    """The question of a scenario's ``[fix]`` table: the published rules are its one variant, the lineup its bots
    (rotated through the seats), the default seed its seed."""
    from simlab.core.registry import get_game

    if not scenario.fix:
        raise FixQuestionError(f"{scenario.source}: no [fix] table; add one (docs/experiments.md, `simlab fix`)")
    game = get_game(scenario.game)
    return fix_question_from_table(
        scenario.fix, game, scenario.variants[0].config, scenario.seats, scenario.source, scenario.seed
    )
