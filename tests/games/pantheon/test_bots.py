"""Pantheon's heuristic bots: legal and deterministic over many games; scripted positions where a style's rule
forces its choice (set up with the position builder)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.pantheon import bots as BOTS
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.game import GAME
from simlab.games.pantheon.position import position

from .helpers import act, far_hex, geometry, neighbours, play

STYLES = ("builder", "devout")


def decide(state, name):
    """The bot's choice at the state's decision (it must be legal)."""
    legal = state.legal_actions()
    a = GAME.bots.make(name).act(state, legal, np.random.default_rng(0))
    assert a in legal, f"{name} chose {a} ({state.describe(a)}), not among the legal actions"
    return a


def test_default_bots_are_the_two_styles():
    assert GAME.default_bots == STYLES
    assert GAME.default_lineup(4) == ["builder", "devout", "builder", "devout"]
    for name in STYLES:
        info = GAME.bots.info(name)
        assert list(info.params) == list(BOTS.PARAM_NAMES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_decide_legally_over_many_games(players):
    """Every decision through State.apply, which raises on an illegal action; the games end."""
    config = GAME.config_class(players=players)
    lineup = ["builder", "devout", "god_first", "random"][:players]
    for seed in range(8):
        names = lineup[seed % players :] + lineup[: seed % players]
        state = GAME.play(config, seed, GAME.make_bots(names, players))
        assert state.is_terminal()
        assert int(state.record[0]["era"]) == config.eras


def test_batch_of_heuristic_games_is_deterministic_and_ends():
    config = GAME.config_class(players=4)
    bots = GAME.make_bots(["builder", "devout", "builder", "devout"], 4)
    a = GAME.play_batch(config, list(range(40)), bots)
    b = GAME.play_batch(config, list(range(40)), bots)
    assert a.tobytes() == b.tobytes()
    assert np.all(a["phase"] == R.PH_OVER)
    # different seeds give different games
    assert len({int(x) for x in a["decisions"]}) > 10


def test_batch_equals_the_python_driver():
    """A game of compiled bots replayed through State.apply gives the batch's final record."""
    config = GAME.config_class(players=3)
    bots = GAME.make_bots(["devout", "builder", "random"], 3)
    batch = GAME.play_batch(config, [7], bots)
    state = GAME.play(config, 7, bots)
    assert state.record.tobytes() == batch[:1].tobytes()


def test_devout_pays_for_a_god_when_it_can():
    """A payable god on display, movement cards in hand too (no money, so no tile to buy first): the devout
    takes the god action, picks the payable god and pays each group with the kind that spends the fewest
    cards."""
    st = position(
        0,
        players=2,
        face_up=[("Taksator", 3, 1)],
        tiles={0: {"priests": 2, "dancers": 1}},
        hands={0: {"priests": 1, "dancers": 2, "movement": 2}},
    )
    assert decide(st, "devout") == R.A_GOD
    play(st, R.A_GOD)
    assert decide(st, "devout") == act("slot", 0)
    play(st, R.A_SLOT)
    # the group of 3: the priest tile (2) + 1 priest card beats the dancer tile (1) + 2 dancer cards
    assert decide(st, "devout") == act("kind", 1)
    play(st, act("kind", 1))
    assert decide(st, "devout") == act("kind", 2)  # the group of 1: the dancer tile, no card
    play(st, act("kind", 2))
    s = st.record[0]
    assert s["f_gods"][0] == 1 and s["hand"][0, 2] == 0 and s["hand"][0, 3] == 2


def test_devout_buys_sacrifice_tiles_when_no_god_is_payable():
    """No payable god, 6 money in hand: the devout purchases, plays every money card, then the tile
    upgrade worth most (three levels for 6, printed costs 1, 3, 6)."""
    st = position(0, players=2, face_up=[(5, 2)], hands={0: {"money 5": 1, "money 1": 1, "movement": 1}})
    assert R.A_GOD not in st.legal_actions()
    assert decide(st, "devout") == R.A_BUY
    play(st, R.A_BUY)
    for _ in range(2):
        a = decide(st, "devout")
        assert R.A_MONEY <= a < R.A_TILE
        play(st, a)
    assert st.record[0]["money_left"] == 6
    a = decide(st, "devout")
    family, (_kind, level) = R.ACTIONS.decode(a)
    assert family == "tile" and level + 1 == 3


def _loot_type(effect):
    lt = GAME.kernel.config_record(GAME.config_class(players=2))[0]["loot_effect"]
    return int(np.flatnonzero(lt == effect)[0])


def test_builder_takes_the_loot_next_to_its_network():
    """A move with one movement card: the builder's first foot goes onto the loot hex it can reach."""
    base = position(0, players=2)
    t, f, _ = geometry(base)
    loot_hex = next(h for h in neighbours(base, t) if h != f and not base.cfg[0]["column_space"][h])
    far = far_hex(base, f)
    st = position(
        0,
        players=2,
        hands={0: {"movement": 1}},
        loot={loot_hex: _loot_type(R.E_DRAW), far: _loot_type(R.E_DRAW)},
    )
    assert decide(st, "builder") == R.A_MOVE
    play(st, R.A_MOVE)
    assert decide(st, "builder") == act("count", 1)
    play(st, act("count", 1))
    assert decide(st, "builder") == act("foot", loot_hex)


def test_builder_plants_a_column_next_to_its_foot():
    """With a foot next to a column space and a column in stock, the builder's placement is that column
    (it scores at both scorings), not another foot far from any loot."""
    base = position(0, players=2)
    _, f, c = geometry(base)
    far = far_hex(base, f)
    st = position(0, players=2, hands={0: {"movement": 1}}, pieces={0: {"feet": [f]}}, stock={0: (3, 1)}, loot={far: 0})
    play(st, R.A_MOVE, act("count", 1))
    assert act("col", c) in st.legal_actions()
    assert decide(st, "builder") == act("col", c)


def test_a_contested_column_space_is_worth_more():
    """The column's worth grows with the rival pieces next to its space."""
    base = position(0, players=2)
    t, f, c = geometry(base)
    rival = next(h for h in neighbours(base, c) if h not in (f, t) and not base.cfg[0]["column_space"][h])
    alone = position(0, players=2, pieces={0: {"feet": [f]}})
    contested = position(0, players=2, pieces={0: {"feet": [f]}, 1: {"feet": [rival]}})
    prm = GAME.bots.make("builder").params
    worth = [BOTS.column_worth(s.record[0], s.cfg[0], 0, c, 0, prm) for s in (alone, contested)]
    assert worth[1] > worth[0] > 0


def test_after_a_jump_the_bots_land_even_when_no_landing_is_worth_anything():
    """No stop is legal between a Gaiviles jump and its landing: with no loot on the board, no column in stock
    and a rival foot on every hex around the one jumped (each landing worth less than nothing to the bots),
    the bot still lands."""
    from .test_rules_gods import gaiviles_position

    base, (a, _b, _c, _y) = gaiviles_position()
    cf, temple = base.cfg[0], int(base.record[0]["temple"])
    around = [x for x in neighbours(base, a) if x != temple and not cf["column_space"][x]]
    st = position(
        0,
        players=2,
        nation="Iberia",
        gods={0: ["Gaiviles"]},
        steps_tiles={0: 1},
        pieces={1: {"feet": [a, *[x for x in around if x != a]]}},
        stock={0: (4, 0)},
        loot={},
    )
    play(st, R.A_MOVE, act("count", 0), act("jump", a))
    assert R.A_STOP not in st.legal_actions()
    for name in STYLES:
        assert decide(st, name) != R.A_STOP
