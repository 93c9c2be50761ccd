"""Config knobs that exist for experiments (card-value interventions), not in the printed rules."""

import numpy as np
import pytest

from simlab import get_game
from simlab.core.errors import ConfigError
from simlab.games.massilia import rules as R


@pytest.mark.parametrize("seat", [0, 3])
def test_bonus_card_is_dealt_from_the_deck_to_the_seat(seat: int) -> None:
    game = get_game("massilia")
    config = game.make_config(overrides={"bonus_card": "mercure", "bonus_card_seat": seat})
    s = game.new_state(config, seed=4).record[0]
    assert s["hand"][seat, R.MERCURE] == 1 and s["hand_n"][seat] == 1
    assert s["hand_n"].sum() == 1
    deck = np.bincount(s["deck"][: s["deck_n"]], minlength=9)
    assert deck[R.MERCURE] == config.card_copies[R.MERCURE] - 1
    assert s["deck_n"] == sum(config.card_copies) - 1


def test_control_and_bonus_share_the_rest_of_the_setup() -> None:
    """Common random numbers: the bonus changes the hand, not the dice, pawns or prices of the game."""
    game = get_game("massilia")
    control = game.new_state(game.make_config(), seed=8).record[0]
    bonus = game.new_state(game.make_config(overrides={"bonus_card": "pluton", "bonus_card_seat": 1}), 8).record[0]
    for field in ("pawn", "price", "harbour", "bag"):
        assert np.array_equal(control[field], bonus[field])


def test_bonus_card_errors() -> None:
    game = get_game("massilia")
    with pytest.raises(ConfigError, match="bonus_card must be"):
        game.make_config(overrides={"bonus_card": "thor", "bonus_card_seat": 0})
    with pytest.raises(ConfigError, match="bonus_card_seat"):
        game.make_config(players=2, overrides={"bonus_card": "mars", "bonus_card_seat": 3})
    with pytest.raises(ConfigError, match="no copies"):
        game.make_config(overrides={"bonus_card": "mars", "bonus_card_seat": 0, "card_copies": "5,5,7,7,7,9,5,0,5"})
