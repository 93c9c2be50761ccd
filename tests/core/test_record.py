"""The record contract (simlab.core.record): every state starts with the core fields, and every knob
reaches the config record the compiled rules read — or is declared as used only in Python.

A knob that silently does nothing (a field added to the config but never copied into the record) fails
here: each knob is changed to every nearby valid value, on the default config, on every preset, on every
choice of the knobs that take names and on one nearby change of any other knob, until the record changes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from simlab import available_games, get_game
from simlab.core.config import GameConfig
from simlab.core.errors import ConfigError
from simlab.core.record import CORE_FIELDS, MAX_FORCED, config_record, core_fields, force_chance
from tests.examples.pig.game import GAME as PIG

GAMES = [get_game(name) for name in available_games()] + [PIG]
IDS = [game.name for game in GAMES]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_state_dtype_starts_with_the_core_fields(game) -> None:
    names = game.kernel.state_dtype.names
    assert names[: len(CORE_FIELDS)] == CORE_FIELDS
    expected = np.dtype(core_fields(game.max_players))
    for name in CORE_FIELDS:
        assert game.kernel.state_dtype[name] == expected[name], name


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


def _bases(game, knob: str) -> Iterator[GameConfig]:
    """The default config, every preset, every choice of a named knob, then (for a knob bounded or gated by
    another, such as a minimum by the values it bounds) every nearby value of each other knob, the knobs
    declared nearest to it first."""
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
    # the knobs declared next to this one first: a knob that gates another (Roma's bonus_card_seat for
    # bonus_card) is declared beside it, so the search ends after a few bases instead of hundreds
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


def _reaches_record(game, knob: str) -> bool:
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


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_knob_reaches_the_config_record_or_is_python_only(game) -> None:
    python_only = game.config_class.PYTHON_ONLY
    for name in python_only:
        assert name in game.config_class.field_names(), f"PYTHON_ONLY names an unknown knob {name!r}"
    silent = [
        f.name
        for f in dataclasses.fields(game.config_class)
        if f.name not in python_only and not f.metadata.get("not_modelled") and not _reaches_record(game, f.name)
    ]
    assert not silent, f"{game.name}: knobs that never reach the config record: {silent}"


def test_a_knob_without_a_record_field_is_named() -> None:
    from tests.examples.pig import rules

    narrow = np.dtype([d for d in rules.CONFIG_DTYPE.descr if d[0] != "bust_face"], align=True)
    with pytest.raises(TypeError, match=r"PigConfig.bust_face: no config-record field 'bust_face'"):
        config_record(PIG.make_config(), narrow)


def test_forced_chance_outcomes_come_first_then_the_stream() -> None:
    """A die fixed by value is rolled as that value; afterwards the chance stream continues as before."""
    config = PIG.make_config()
    plain = PIG.new_state(config, 5)
    forced = PIG.new_state(config, 5)
    force_chance(forced.record, [4, 6])
    forced.apply(0)
    forced.apply(0)
    assert int(forced.record[0]["turn_total"]) == 10
    plain.apply(0)
    forced.apply(0)
    assert int(forced.record[0]["last_roll"]) == int(plain.record[0]["last_roll"])
    with pytest.raises(ValueError, match=f"at most {MAX_FORCED}"):
        force_chance(forced.record, [1] * (MAX_FORCED + 1))
