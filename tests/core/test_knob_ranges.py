"""Every range ``simlab config`` shows is enforced: a value just outside it is refused with a message that
names the knob, the bounds themselves and the ``also`` sentinels are allowed, and every preset's values lie
inside. The shipped kit checks it for every game (simlab.testing, "knob_ranges"), so a range declared on a new
knob is checked the moment it exists."""

from __future__ import annotations

import dataclasses

import pytest

from simlab import available_games, get_game
from simlab.core.config import GameConfig, range_text
from simlab.core.errors import ConfigError


def _ranged(config_class: type[GameConfig]) -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(config_class) if "range" in f.metadata]


@pytest.mark.parametrize("name", available_games())
def test_games_declare_ranges_on_their_numeric_knobs(name: str) -> None:
    ranged = {f.name for f in _ranged(get_game(name).config_class)}
    assert "players" in ranged and len(ranged) >= 20


def test_a_range_the_config_does_not_enforce_fails_the_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shown range is enforced on every preset and player count: checked for every game by the shipped kit
    (simlab.testing, check "knob_ranges", run by tests/core/test_contract.py); here a range that lets a value
    outside it through is caught."""
    from simlab.core import config as config_module
    from simlab.testing import ContractFailure, check_game

    monkeypatch.setattr(config_module, "_check_range", lambda f, config: None)  # the core check switched off
    with pytest.raises(ContractFailure, match=r"check 'knob_ranges' failed: .* is outside its range .* but accepted"):
        check_game(get_game("massilia"), ["knob_ranges"])


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
