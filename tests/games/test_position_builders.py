"""Every game's position builder has the one core shape (``simlab.core.position.build``): the same call,
an unknown component refused before anything is built with the nearest names, and a built position that
passes the game's own state checks."""

from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

from simlab.core import position as P
from simlab.core.checks import checks_for
from simlab.core.errors import PositionError

#: per game: a misspelt component and the one it means, and a description touching several components
GAMES = {
    "roma": (
        "hand",
        "hands",
        {"hands": {0: ["Forum", "Legat"]}, "boards": {1: {3: "Mercator"}}, "money": 7, "vp": [8, 9], "dice": [2, 5, 6]},
    ),
    "massilia": (
        "stall",
        "stalls",
        {
            "players": 2,
            "stalls": {0: (0, {"pink": 2}), 12: (1, ["orange"])},
            "hands": {0: ["neptune"]},
            "temple": [("beige", 5)],
            "money": 10,
            "round": 2,
        },
    ),
    "merchant_of_venus": (
        "credit",
        "credits",
        {"overrides": {"players": 2}, "credits": [40, 55], "cargo": {0: {"Bionic Perfume": 1}}, "round_no": 2},
    ),
    "pantheon": (
        "demigod",
        "demigods",
        {"players": 3, "era": 2, "nation": "Gallia", "hands": {0: {"money 1": 2}}, "demigods": {1: [3]}},
    ),
}


def _module(game: str):
    return importlib.import_module(f"simlab.games.{game}.position")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_builder_refuses_an_unknown_component_naming_the_nearest(game):
    wrong, meant, _ = GAMES[game]
    module = _module(game)
    assert meant in module.BUILDER.components and wrong not in module.BUILDER.components
    with pytest.raises(PositionError, match=rf"^{wrong}: .* did you mean '{meant}'") as err:
        module.position(0, **{wrong: None})
    assert "components: " in str(err.value)
    with pytest.raises(PositionError, match="no such position component"):  # before the seat is even looked at
        module.position(99, colour_of_the_sky="blue")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_built_position_passes_the_game_s_state_checks_and_plays_on(game):
    *_, description = GAMES[game]
    module = _module(game)
    st = module.position(1, seed=3, **description)
    checks_for(st.game).invariants(st.record[0], st.config)
    assert st.current_player == 1 and len(st.legal_actions()) > 0
    st.apply(st.legal_actions()[0])
    checks_for(st.game).invariants(st.record[0], st.config)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_game_s_position_is_core_build_with_its_own_game(game):
    *_, description = GAMES[game]
    module = _module(game)
    assert list(inspect.signature(module.position).parameters) == ["seat", "description"]
    assert P.builder_of(module.GAME) is module.BUILDER
    by_game = P.build(module.GAME, 1, seed=3, **description)
    assert np.array_equal(by_game.record, module.position(1, seed=3, **description).record)


def test_a_config_and_its_ingredients_together_are_refused():
    module = _module("roma")
    with pytest.raises(PositionError, match="either a config or preset / players / overrides"):
        module.position(0, config=module.GAME.make_config(), overrides={"action_dice": 3})


def test_a_builder_step_s_components_must_be_keyword_only_and_belong_to_one_step():
    module = _module("roma")

    def positional(setup, hands):
        pass

    def again(setup, *, hands=None):
        pass

    with pytest.raises(TypeError, match="keyword-only"):
        P.Builder(module.GAME, phases=("action",), steps=(positional,))
    with pytest.raises(TypeError, match="also"):
        P.Builder(module.GAME, phases=("action",), steps=(module._cards, again))
