"""Contract checks on what a game declares: its optional hooks (a misspelt ``determinise`` is named), the
record contract (the state record starts with the core fields; every knob reaches the config record or is
declared Python-only), the knob ranges ``simlab config`` shows (each enforced), and the fact columns."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from simlab.core.config import GameConfig, knob_range, range_text
from simlab.core.errors import ConfigError
from simlab.core.hooks import misspelt_hooks, require_consistent
from simlab.core.record import CORE_FIELDS, core_fields
from simlab.testing.failure import expect

if TYPE_CHECKING:
    from simlab.testing.contract import Contract


def hooks_are_declared(c: Contract) -> None:
    """The hooks the Game class declares are the ones its rules and bots define, and no function there is a
    near miss of a hook's name (a ``determinise`` would leave the game silently unsearchable)."""
    game = c.game
    rules = importlib.import_module(game.rules_module)
    bots = importlib.import_module(game.policy.partition(":")[0])
    problems = misspelt_hooks(game.name, rules, bots)
    expect(not problems, "; ".join(problems))
    require_consistent(game.name, game.hooks, rules, bots)


def state_record_starts_with_the_core_fields(c: Contract) -> None:
    game = c.game
    names = game.kernel.state_dtype.names
    expect(
        names[: len(CORE_FIELDS)] == CORE_FIELDS,
        f"the state record starts {names[: len(CORE_FIELDS)]}, not with the core fields {CORE_FIELDS}: "
        "build STATE_DTYPE with simlab.core.record.state_dtype",
    )
    expected = np.dtype(core_fields(game.max_players))
    for name in CORE_FIELDS:
        expect(game.kernel.state_dtype[name] == expected[name], f"core field {name!r} has another type or shape")


def _nearby(value: Any) -> Iterator[Any]:
    """Other values of a knob's type close to ``value`` (most will pass validation)."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield from (value + 1, value - 1, value + 2, 2 * value, 0, 1)
    elif isinstance(value, float):
        yield from (value + 0.5, value / 2, 0.0, 1.0)
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            for other in _nearby(item):
                yield (*value[:i], other, *value[i + 1 :])


def _bases(game: Any, knob: str) -> Iterator[GameConfig]:
    """The default config, every preset, every choice of a named knob, then (for a knob bounded or gated by
    another) every nearby value of each other knob, the knobs declared nearest to it first."""
    default = game.make_config()
    yield default
    for preset in game.presets():
        yield game.make_config(preset)
    fields = dataclasses.fields(game.config_class)
    for f in fields:
        for choice in f.metadata.get("choices", ()):
            try:
                yield game.make_config(overrides={f.name: choice})
            except ConfigError:
                continue
    at = [f.name for f in fields].index(knob)
    for i in sorted(range(len(fields)), key=lambda i: abs(i - at)):
        f = fields[i]
        if i == at:
            continue
        for other in f.metadata.get("choices", ()) or _nearby(getattr(default, f.name)):
            try:
                yield default.replace(**{f.name: other})
            except ConfigError:
                continue


def reaches_record(game: Any, knob: str) -> bool:
    """Whether changing ``knob`` (to a nearby valid value, on some base config) changes the config record."""
    for base in _bases(game, knob):
        before = game.kernel.config_record(base).tobytes()
        choices = {f.name: f for f in dataclasses.fields(base)}[knob].metadata["choices"]
        for other in choices or _nearby(getattr(base, knob)):
            if other == getattr(base, knob):
                continue
            try:
                changed = base.replace(**{knob: other})
            except ConfigError:
                continue
            if game.kernel.config_record(changed).tobytes() != before:
                return True
    return False


def every_knob_reaches_the_config_record(c: Contract) -> None:
    """A knob that silently does nothing (never copied into the record the compiled rules read) fails, unless
    the config class declares it ``PYTHON_ONLY`` (or ``not_modelled``)."""
    game = c.game
    python_only = game.config_class.PYTHON_ONLY
    for name in python_only:
        expect(name in game.config_class.field_names(), f"PYTHON_ONLY names an unknown knob {name!r}")
    silent = [
        f.name
        for f in dataclasses.fields(game.config_class)
        if f.name not in python_only and not f.metadata.get("not_modelled") and not reaches_record(game, f.name)
    ]
    expect(not silent, f"knobs that never reach the config record: {silent} (copy them, or list them in PYTHON_ONLY)")


def every_shown_range_is_enforced(c: Contract) -> None:
    """On every preset and player count: a value just outside a knob's range is refused naming the knob, its
    ``also`` sentinels are allowed, and the config's own values lie inside."""
    game = c.game
    for preset in game.presets():
        for players in range(game.min_players, game.max_players + 1):
            config = game.make_config(preset, players)
            _ranges_enforced(config, f"preset {preset!r}, {players} players")


def _ranges_enforced(config: GameConfig, where: str) -> None:
    cls = type(config)
    for f in (f for f in dataclasses.fields(cls) if "range" in f.metadata):
        lo, hi = knob_range(f, config)  # type: ignore[misc]
        also = f.metadata.get("also", ())
        value = getattr(config, f.name)
        for outside in (lo - 1 if lo is not None else None, hi + 1 if hi is not None else None):
            if outside is None or outside in also:
                continue
            new = (outside, *value[1:]) if isinstance(value, tuple) else outside
            try:
                cls.from_mapping({**config.as_dict(), f.name: new})
            except ConfigError as exc:
                expect(f.name in str(exc), f"{where}: the error for {f.name}={outside} does not name the knob: {exc}")
            else:
                expect(False, f"{where}: {f.name}={outside} is outside its range {range_text(f, config)} but accepted")
        for item in value if isinstance(value, tuple) else (value,):
            inside = item in also or ((lo is None or item >= lo) and (hi is None or item <= hi))
            expect(inside, f"{where}: {f.name} = {item} lies outside its own range {range_text(f, config)}")


def fact_columns_cover_every_row(c: Contract) -> None:
    """The declared facts give one value per (game, seat) row for each column of the schema."""
    game = c.game
    if game.fact_set is None:
        return
    config = game.make_config()
    n = config.players
    records = game.play_batch(config, [1, 2, 3], game.make_bots(game.default_lineup(n), n))
    columns = game.fact_columns(records, config)
    schema = game.fact_schema(config)
    expect(set(columns) == set(schema), f"fact columns {sorted(set(columns) ^ set(schema))} are not in both")
    for name, values in columns.items():
        expect(len(values) == 3 * n, f"fact column {name!r} has {len(values)} values for 3 games of {n} seats")
