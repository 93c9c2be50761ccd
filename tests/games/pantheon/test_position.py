"""The Pantheon position builder's reach (issue 31): the next nation and the start player, the deck order, the
discard pile, the god box, bonus tiles given, and points booked to their sources. Each keeps every component
total (the invariants) and refuses what cannot be, naming the field."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.errors import PositionError
from simlab.games.pantheon import data as D
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.checks import invariants
from simlab.games.pantheon.position import position

from .helpers import act, far_hex, geometry, play

TAKE_LAST_GOD = (R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
LAST_GOD = {"face_up": [("Vinthrad", 4, 1)], "hands": {0: {"dancers": 4, "temples": 1}}}


def test_the_next_nation_and_the_start_player_are_given():
    st = position(0, players=3, next_nation="Persia", start_player=2, **LAST_GOD)
    s = st.record[0]
    assert s["nation_deck"][int(s["nation_n"]) - 1] == D.PERSIA and s["start_player"] == 2 and s["active"] == 0
    invariants(s, st.config)
    play(st, *TAKE_LAST_GOD)
    assert s["era"] == 2 and s["nation"] == D.PERSIA and s["start_player"] == 1  # left of the era's ender
    with pytest.raises(PositionError, match=r"next_nation: .* this era's nation"):
        position(0, players=2, nation="Roma", next_nation="Roma")
    with pytest.raises(PositionError, match="next_nation: era 6 is the last"):
        position(0, players=2, era=6, next_nation="Roma")
    with pytest.raises(PositionError, match="start_player: seat 3"):
        position(0, players=3, start_player=3)


def test_deck_top_fixes_the_next_draws_and_the_display_keeps_its_cards():
    st = position(0, players=2, hands={0: {}}, deck_top=["temples", "gifts", "money 1"])
    s = st.record[0]
    display = s["display"].copy()
    play(st, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)
    assert s["hand"][0, 1 + D.TEMPLES] == 1 and s["hand"][0, 1 + D.GIFTS] == 1 and s["hand"][0, R.C_MONEY1] == 1
    assert np.array_equal(s["display"], display)
    with pytest.raises(PositionError, match=r"deck_top: 2 money 2 card\(s\)"):
        position(0, players=2, deck_top=["money 2", "money 2"])
    with pytest.raises(PositionError, match="deck_top: give either deck"):
        position(0, players=2, deck=["movement"], deck_top=["movement"])


def test_the_whole_deck_and_the_discard_pile_are_given():
    st = position(0, players=2, hands={0: {}, 1: {}}, deck=["priests", "movement"])
    s = st.record[0]
    assert s["deck_n"] == 2 and s["deck"][1] == 1 + D.PRIESTS and s["deck"][0] == R.C_MOVE
    assert s["discard"].sum() == 75 - 2 - 4  # the rest of the action deck, less the display
    invariants(s, st.config)
    pile = position(0, players=2, discard={"movement": 3, "gifts": 2})
    assert pile.record[0]["discard"].tolist()[:2] == [3, 2] and pile.record[0]["discard"].sum() == 5
    invariants(pile.record[0], pile.config)
    with pytest.raises(PositionError, match=r"deck/discard: .* in neither"):
        position(0, players=2, deck=["movement"], discard={"gifts": 1})
    with pytest.raises(PositionError, match=r"discard: 17 movement card\(s\)"):
        position(0, players=2, discard={"movement": 17})


def test_the_god_stack_and_box_are_given():
    st = position(0, players=2, face_up=["Stonkus"], god_stack=["Vinthrad", "Gadicea"])
    s, cf = st.record[0], st.cfg[0]
    top = [int(cf["tile_god"][s["god_stack"][int(s["god_n"]) - i]]) for i in (1, 2)]
    assert s["god_n"] == 2 and top == [D.GODS.index("Vinthrad"), D.GODS.index("Gadicea")]
    assert int(np.sum(s["god_loc"] == R.L_BOX)) == R.NGOD - 3
    invariants(s, st.config)
    boxed = position(0, players=2, god_box=["Surparit", "Surparit"])
    assert int(np.sum(boxed.record[0]["god_loc"] == R.L_BOX)) == 2
    invariants(boxed.record[0], boxed.config)
    with pytest.raises(PositionError, match=r"god_stack/god_box: .* in neither"):
        position(0, players=2, face_up=["Stonkus"], god_stack=[], god_box=["Surparit"])
    with pytest.raises(PositionError, match="god_box"):
        position(0, players=2, god_box=["Surparit"] * 5)


def test_bonus_tiles_are_given_kept_or_boxed_and_recorded():
    st = position(0, players=3, bonus={0: "steps_1", 1: "god"})
    s = st.record[0]
    steps = D.LOOT_TYPES.index("steps_1")
    assert s["f_bonus_tile"][:3].tolist() == [steps, D.LOOT_TYPES.index("god"), -1]
    assert s["steps_bonus"][0] == 1 and s["bonus_kept"][0, steps] == 1 and s["bonus_box"].sum() == 5
    invariants(s, st.config)
    with pytest.raises(PositionError, match="bonus\\[1\\]: no god bonus tile left"):
        position(0, players=2, bonus={0: "god", 1: "god"})
    with pytest.raises(PositionError, match="bonus\\[0\\]: unknown 'gold'"):
        position(0, players=2, bonus={0: "gold"})


def test_points_are_booked_to_their_sources_and_the_set_up_facts_cleared():
    st = position(0, players=2, points={0: {"gods": 3, "columns": 10}, 1: 7}, overrides={"start_points": [2, 0, 0, 0]})
    s = st.record[0]
    start = np.asarray(st.config.start_points[:2])
    assert s["score"][:2].tolist() == [15, 7]
    assert np.array_equal(start + s["f_points_src"][:2].sum(axis=1), s["score"][:2])
    assert s["f_points_src"][1, R.P_GODS] == 7 and s["f_points_src"][0, R.P_COLUMNS] == 10
    # the set-up's own facts (its bonus deal, its draws) are not this position's
    for seed in range(6):
        s = position(0, players=4, seed=seed).record[0]
        assert s["f_gods_route"].sum() == 0 and s["f_drawn"].sum() == 0 and s["f_points_src"].sum() == 0
    with pytest.raises(PositionError, match=r"points\[0\]: 1 is below the seat's start points 2"):
        position(0, players=2, points={0: 1}, overrides={"start_points": [2, 0, 0, 0]})
    with pytest.raises(PositionError, match=r"points\[1\]: unknown 'luck'"):
        position(0, players=2, points={1: {"luck": 2}})


def test_an_empty_board_side_ends_the_era_at_the_next_taking_not_by_itself():
    """The docs' reading: an era ends when its last loot tile or last face-up god leaves the board. With
    ``loot={}`` a draw leaves the era running and the next god action ends it; with ``face_up=[]`` the next
    loot tile taken does."""
    no_loot = position(0, players=2, loot={}, **LAST_GOD | {"face_up": [("Vinthrad", 4, 1), "Stonkus"]})
    play(no_loot, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)
    assert no_loot.record[0]["era"] == 1
    play(no_loot, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)  # seat 1's turn
    play(no_loot, *TAKE_LAST_GOD)
    assert no_loot.record[0]["era"] == 2 and no_loot.record[0]["f_era_end_by"][0] == R.END_LOOT
    _t, f, _c = geometry(position(0, players=2))
    no_gods = position(0, players=2, face_up=[], loot={f: "draw_2", far_hex(position(0, players=2), f): "draw_3"})
    play(no_gods, R.A_DRAW, R.A_DECK, R.A_DECK, R.A_DECK)
    assert no_gods.record[0]["era"] == 1
    play(no_gods, R.A_MOVE, act("count", 0), act("foot", f))  # seat 1's foot next to the temple takes the loot
    while no_gods.record[0]["era"] == 1 and not no_gods.is_terminal():
        play(no_gods, int(no_gods.legal_actions()[0]))
    assert no_gods.record[0]["f_era_end_by"][0] == R.END_GODS
