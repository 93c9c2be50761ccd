"""Bots: spec strings, the per-game registry, parameters, and a strength check of the heuristic bots."""

from __future__ import annotations

import numpy as np
import pytest

from simlab import get_game
from simlab.core.bots import Bot, BotSpec, parse_spec
from simlab.core.errors import BotSpecError, ConfigError
from simlab.games.massilia.bots import PARAM_NAMES, TRADER

GAME = get_game("massilia")


# -- spec strings ---------------------------------------------------------------------------------
def test_parse_spec():
    assert parse_spec("trader:token_cost=3") == BotSpec("trader", {"token_cost": 3.0})
    assert parse_spec(" random ") == BotSpec("random", {})
    spec = parse_spec("priest:card_value=2.5, token_cost=1")
    assert spec.params == {"card_value": 2.5, "token_cost": 1.0}
    assert str(parse_spec("trader:token_cost=3")) == "trader:token_cost=3"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty bot spec"),
        ("trader:token_cost", "must look like key=value"),
        ("trader:token_cost=abc", "must be a number"),
    ],
)
def test_malformed_specs(spec, message):
    with pytest.raises(BotSpecError, match=message):
        parse_spec(spec)


# -- registry -------------------------------------------------------------------------------------
def test_registered_bots():
    assert {"random", "trader", "priest"} <= set(GAME.bots.names())
    for name in GAME.bots.names():
        assert GAME.bots.info(name).doc


def test_make_with_parameters():
    bot = GAME.bots.make("trader:token_cost=3")
    assert bot.name == "trader:token_cost=3"
    params = dict(zip(PARAM_NAMES, bot.params.tolist(), strict=True))
    assert params["token_cost"] == 3.0
    assert all(params[k] == v for k, v in TRADER.items() if k != "token_cost")
    assert GAME.bots.make("trader").params.tolist() == [TRADER[k] for k in PARAM_NAMES]


def test_unknown_bot():
    with pytest.raises(BotSpecError, match=r"unknown bot 'greedy' for game 'massilia'; available: random, trader"):
        GAME.bots.make("greedy")


@pytest.mark.parametrize("spec", ["trader:tokencost=3", "random:token_cost=1"])
def test_unknown_parameter(spec):
    with pytest.raises(BotSpecError, match=r"has no parameter '\w+'( \(did you mean '\w+'\?\))?; allowed: "):
        GAME.bots.make(spec)


def test_make_bots_needs_one_bot_per_seat():
    with pytest.raises(ConfigError, match="4 players need 4 bots, got 2"):
        GAME.make_bots(["trader", "random"], 4)


def test_registered_bots_follow_the_bot_protocol():
    """DESIGN: a bot is an object with act(state, legal_actions, rng) -> action (compiled ones too)."""
    state = GAME.new_state(GAME.make_config(), 0)
    rng = np.random.default_rng(0)
    for name in GAME.bots.names():
        bot = GAME.bots.make(name)
        assert isinstance(bot, Bot), f"{name} has no act(state, legal_actions, rng)"
        legal = state.legal_actions()
        assert bot.act(state, legal, rng) in legal


def test_parameters_change_play():
    config = GAME.make_config(players=3)
    seeds = list(range(40))
    a = GAME.play_batch(config, seeds, GAME.make_bots(["trader", "random", "random"], 3))
    b = GAME.play_batch(config, seeds, GAME.make_bots(["trader:token_cost=0,fame_weight=3", "random", "random"], 3))
    assert a.tobytes() != b.tobytes()


def test_bot_generators_are_separate_from_the_dice():
    """Changing a seat's bot never changes the chance stream: the same setup cubes and round-1 dice."""
    config = GAME.make_config(players=2)

    def first_roll(specs):
        seen = []

        def grab(state, action):
            if state.decision_name() == "dice to roll" and not seen:
                s = state.record[0]
                seen.append((sorted(s["cubes"].sum(1).tolist()), s["bag"].tolist(), s["temple"].tolist()))

        final = GAME.play(config, 4, GAME.make_bots(specs, 2), on_action=grab)
        return seen[0], final.history

    (a, ha), (b, hb) = first_roll(["trader", "random"]), first_roll(["priest", "random"])
    assert ha != hb and a == b


# -- strength (not timing) ------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["trader", "priest"])
def test_heuristic_bot_beats_random_players(name):
    """400 games: the bot against 3 random players, rotated over the 4 seats (100 games per seat)."""
    config = GAME.make_config(players=4)
    shares = []
    for seat in range(4):
        lineup = ["random"] * 4
        lineup[seat] = name
        records = GAME.play_batch(config, list(range(seat * 1000, seat * 1000 + 100)), GAME.make_bots(lineup, 4))
        shares.extend(records["share"][:, seat].tolist())
    assert len(shares) == 400
    assert np.mean(shares) > 0.5


def test_every_compiled_bot_carries_a_full_parameter_vector():
    """random's parameters are zeros of the heuristics' length: a vector handed to the game's heuristic_policy
    (which reads by index, unchecked in compiled code) is never too short."""
    for name in GAME.bots.names():
        bot = GAME.bots.make(name)
        assert bot.params.shape == (len(PARAM_NAMES),), name
    assert not GAME.bots.make("random").params.any()
