"""Every range ``simlab config`` shows is enforced: a value just outside it is refused with a message that
names the knob, the bounds themselves and the ``also`` sentinels are allowed, and every preset's values lie
inside. Runs over every built-in game, so a range declared on a new knob is checked the moment it exists."""

from __future__ import annotations

import dataclasses

import pytest

from simlab import available_games, get_game
from simlab.core.config import GameConfig, knob_range, range_text
from simlab.core.errors import ConfigError


def _ranged(config_class: type[GameConfig]) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(config_class) if "range" in f.metadata]


def _configs() -> list[tuple[str, GameConfig]]:
    out = []
    for name in available_games():
        game = get_game(name)
        for preset in game.presets():
            for players in range(game.min_players, game.max_players + 1):
                out.append((f"{name}-{preset}-{players}p", game.make_config(preset, players)))
    return out


CONFIGS = _configs()


def _with(config: GameConfig, f: dataclasses.Field, item: int) -> dict:
    """The config's values with the knob set to ``item`` (every entry of a list knob: the first one)."""
    value = getattr(config, f.name)
    new = (item, *value[1:]) if isinstance(value, tuple) else item
    return {**config.as_dict(), f.name: new}


@pytest.mark.parametrize("name", available_games())
def test_games_declare_ranges_on_their_numeric_knobs(name: str) -> None:
    ranged = {f.name for f in _ranged(get_game(name).config_class)}
    assert "players" in ranged and len(ranged) >= 20


@pytest.mark.parametrize(("label", "config"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_every_shown_range_is_enforced(label: str, config: GameConfig) -> None:
    cls = type(config)
    for f in _ranged(cls):
        lo, hi = knob_range(f, config)
        also = f.metadata.get("also", ())
        shown = range_text(f, config)
        for outside in (lo - 1 if lo is not None else None, hi + 1 if hi is not None else None):
            if outside is None or outside in also:
                continue
            with pytest.raises(ConfigError, match=f.name):
                cls.from_mapping(_with(config, f, outside))
        for sentinel in also:  # a sentinel is allowed although it is outside the range
            assert getattr(cls.from_mapping(_with(config, f, sentinel)), f.name) is not None
        value = getattr(config, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            assert item in also or ((lo is None or item >= lo) and (hi is None or item <= hi)), (f.name, shown)


def test_a_range_bound_by_another_knob_follows_it() -> None:
    game = get_game("massilia")
    f = next(f for f in dataclasses.fields(game.config_class) if f.name == "bonus_card_seat")
    assert range_text(f, game.make_config(players=3)) == "-1 or 0..2"
    assert range_text(f, game.make_config(players=4)) == "-1 or 0..3"
    with pytest.raises(ConfigError, match=r"bonus_card_seat must be -1 or a seat 0\.\.2"):
        game.make_config(players=3, overrides={"bonus_card_seat": 3})


def test_the_core_check_backs_a_game_whose_validate_forgot_a_bound() -> None:
    """The range is enforced by the config base class itself, not only by a game's validate()."""
    massilia = get_game("massilia")
    with pytest.raises(ConfigError, match=r"refill_by_players values must be >= 0, got -1,10,12"):
        massilia.make_config(overrides={"refill_by_players": "-1,10,12"})
