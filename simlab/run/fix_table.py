"""A ``[fix]`` table checked against the game and its published config: knobs in the config with grids in their
ranges, guards on declared facts, a tolerance above 0 (``simlab.run.fix_question`` holds the types and the
format). Every problem is refused before anything plays, a :class:`FixQuestionError` naming the scenario key,
what is allowed and what to do; the scenario loader (``simlab.run.scenario``) calls it on load.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from simlab.core.config import knob_range, range_text
from simlab.core.errors import SimlabError
from simlab.run.fix_question import (
    DEFAULT_ALPHA,
    DEFAULT_BATCH,
    DEFAULT_BUDGET,
    DEFAULT_CERTIFY_GAMES,
    DEFAULT_OBJECTIVE,
    DEFAULT_TOLERANCE,
    LEAST_BATCH,
    LEAST_CERTIFY_GAMES,
    OBJECTIVES,
    RATES,
    FixQuestion,
    FixQuestionError,
    Guard,
    Knob,
    is_number,
    show_value,
)

#: most values on one grid axis (a range with a tiny step is a mistake, not a question)
MAX_AXIS = 1_000
FIX_KEYS = (
    "tolerance", "alpha", "budget", "batch", "certify_games", "seed", "panel", "objective", "panel_games", "knobs",
    "guards",
)  # fmt: skip
KNOB_KEYS = ("range", "step", "values", "seats")
#: guards on the game's own measures; ``fact.<column>`` guards a declared fact's mean
GUARD_MEASURES = ("length", "draws", "luck")


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
    if not (is_number(tolerance) and 0 < tolerance < 100 / config.players):
        _fail(
            source,
            "fix.tolerance",
            f"points of win share, more than 0 and less than {100 / config.players:g} (the fair share)",
            tolerance,
            f"e.g. tolerance = {DEFAULT_TOLERANCE:g}",
        )
    alpha = table.get("alpha", DEFAULT_ALPHA)
    if not (is_number(alpha) and 0 < alpha < 0.5):
        _fail(source, "fix.alpha", "a probability above 0 and below 0.5", alpha, f"e.g. alpha = {DEFAULT_ALPHA}")
    objective = table.get("objective", DEFAULT_OBJECTIVE)
    if objective not in OBJECTIVES:
        _fail(
            source,
            "fix.objective",
            " or ".join(f'"{o}"' for o in OBJECTIVES) + " (which passing change to prefer)",
            repr(objective) if isinstance(objective, str) else objective,
            f'e.g. objective = "{DEFAULT_OBJECTIVE}" (the fewest knobs and grid steps) or "most_equal"',
        )
    ints = {}
    for key, default, least in (
        ("budget", DEFAULT_BUDGET, 1),
        ("batch", DEFAULT_BATCH, LEAST_BATCH),
        ("certify_games", DEFAULT_CERTIFY_GAMES, LEAST_CERTIFY_GAMES),
        ("seed", seed, 0),
    ):
        value = table.get(key, default)
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= least):
            _fail(source, f"fix.{key}", f"an integer of at least {least}", value, f"e.g. {key} = {default}")
        ints[key] = value
    lineup = list(lineup)
    if len(lineup) != config.players or not all(isinstance(b, str) for b in lineup):
        raise FixQuestionError(
            f"{source}: key 'lineup': expected {config.players} bot specs (one per seat, rotated), found "
            f"{show_value(lineup)}; give one bot per seat"
        )
    _panel(lineup, game, source, "lineup")
    panel = _panel(table.get("panel", list(dict.fromkeys(lineup))), game, source)
    panel_games = _panel_games(table.get("panel_games", {}), panel, source)
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
        objective,
        panel_games,
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
            f"a per-seat list knob; {name} is one value ({show_value(published)})",
            spec["seats"],
            "use range = [lo, hi] with step, or values = [...]",
        )
    step = spec.get("step", 1)
    if "step" in spec and kind == "values":
        _fail(source, f"{key}.step", "no step with an explicit list of values", step, "drop 'step'")
    if not (is_number(step) and step > 0):
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
        if not per_seat and all(is_number(v) for v in values):
            axis = tuple(sorted(set(values) | {published}))
        else:
            axis = (published, *dict.fromkeys(v for v in values if v != published))
        knob = Knob(name, "tables" if per_seat else kind, published, (axis,), (axis.index(published),))
    if knob.most_steps == 0:
        _fail(
            source,
            key,
            "a grid with a value other than the published one",
            show_value(published),
            "add values to the grid",
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
    if is_number(spec):
        if not spec > 0:
            _fail(
                source, key, "a number above 0 (± percent of the published value; points for a rate)", spec, "e.g. 10"
            )
        return Guard(name, within=float(spec) / scale)
    lo, hi = _pair(spec, key, source)
    return Guard(name, band=(lo / scale, hi / scale) if rate else (float(lo), float(hi)))


def _seat_axes(spec: Any, step: float, published: tuple, players: int, key: str, source: str) -> tuple[tuple, ...]:
    """A per-seat grid: one [lo, hi] for every seat, or one per seat; each axis holds the published entry."""
    if isinstance(spec, list) and len(spec) == 2 and all(is_number(v) for v in spec):
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
                        f"{source}: key '{key}': {show_value(item)} is outside the range of {knob.name} "
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
                f"{show_value(knob.value(index))}: {exc}; keep the grid to values it accepts"
            ) from None


def _panel(value: Any, game: Any, source: str, key: str = "fix.panel") -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _fail(source, key, 'a list of bot specs, e.g. ["holder"]', value, "name the game's bots")
    for i, spec in enumerate(value):
        try:
            game.bots.make(spec)
        except SimlabError as exc:
            raise FixQuestionError(f"{source}: key '{key}[{i}]': {exc}") from None
    return tuple(value)


def _panel_games(value: Any, panel: tuple[str, ...], source: str) -> tuple[tuple[str, int], ...]:
    """``fix.panel_games``: a panel bot's own number of certification games, as the panel names it."""
    if not isinstance(value, Mapping):
        _fail(source, "fix.panel_games", 'a table of panel bot = games, e.g. { "race:iterations=32" = 4000 }', value,
              "name a bot of fix.panel and its certification games")  # fmt: skip
    out = []
    for bot, games in value.items():
        key = f"fix.panel_games.{bot}"
        if bot not in panel:
            _fail(source, key, f"a bot of fix.panel ({', '.join(panel)})", bot, "spell it as the panel does")
        if not (isinstance(games, int) and not isinstance(games, bool) and games >= LEAST_CERTIFY_GAMES):
            _fail(source, key, f"an integer of at least {LEAST_CERTIFY_GAMES} (fresh games)", games, "e.g. 4000")
        out.append((str(bot), int(games)))
    return tuple(out)


def _steps(lo: float, hi: float, step: float, key: str, source: str) -> list[float]:
    if hi < lo:
        _fail(source, key, "[lo, hi] with lo ≤ hi", [lo, hi], "swap the ends")
    count = math.floor((hi - lo) / step + 1e-9) + 1
    if count > MAX_AXIS:
        _fail(source, key, f"at most {MAX_AXIS} values per grid", f"{count} values", "use a larger step")
    whole = all(isinstance(v, int) for v in (lo, hi, step))
    return [lo + i * step if whole else round(lo + i * step, 12) for i in range(count)]


def _pair(value: Any, key: str, source: str) -> tuple[Any, Any]:
    if not (isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value)):
        _fail(source, key, "[lo, hi]: two numbers", value, "e.g. [0, 4]")
    if value[1] < value[0]:
        _fail(source, key, "[lo, hi] with lo ≤ hi", value, "swap the ends")
    return value[0], value[1]


def _inside(v: Any, bounds: tuple[Any, Any]) -> bool:
    lo, hi = bounds
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def _fail(source: str, key: str, expected: str, found: Any, todo: str) -> None:
    shown = "[]" if isinstance(found, list | tuple) and not found else show_value(found)  # not an empty word
    raise FixQuestionError(f"{source}: key '{key}': expected {expected}, found {shown}; {todo}")


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
