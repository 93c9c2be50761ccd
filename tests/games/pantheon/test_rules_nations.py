"""The nations' abilities in the era set-up (rules page §8), reached by ending an era on the position builder."""

from __future__ import annotations

from simlab.games.pantheon import data as D
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.position import position

from .helpers import STOP, act, play


def next_era(nation, hands=None, **kw):
    """Seat 0 takes the last face-up god; the next era is ``nation``'s, started by seat 1."""
    hands = {0: {"dancers": 4, "temples": 1}, **(hands or {})}
    this = D.ROMA if nation != D.ROMA else D.PERSIA  # the era before: another nation (each is played once)
    st = position(0, players=2, nation=this, face_up=[("Vinthrad", 4, 1)], hands=hands, next_nation=nation, **kw)
    s = st.record[0]
    play(st, R.A_GOD, act("slot", 0), act("kind", D.DANCERS), act("kind", D.TEMPLES))
    assert s["nation"] == nation and s["era"] == 2
    return st


def test_iberia_each_player_takes_a_level_1_tile_or_upgrades_one():
    st = next_era(D.IBERIA, tiles={0: {"gifts": 2}})
    s = st.record[0]
    assert st.decision_name() == "Iberia: sacrifice tile" and s["cur"] == 1
    play(st, act("kind", D.PRIESTS))
    assert s["level"][1, D.PRIESTS] == 1 and s["cur"] == 0
    play(st, act("kind", D.GIFTS))
    assert s["level"][0, D.GIFTS] == 3 and s["temple"] >= 0


def test_germania_sets_every_hand_to_seven_drawing_or_discarding_by_choice():
    st = next_era(D.GERMANIA, hands={1: {"money 1": 9}})
    s = st.record[0]
    assert st.decision_name() == "discard down to the hand size" and s["cur"] == 1
    play(st, act("discard", R.C_MONEY1), act("discard", R.C_MONEY1))
    assert s["hand"][1].sum() == 7 and s["hand"][0].sum() == 7


def test_aegyptus_swaps_feet_and_columns_with_the_supply_one_way():
    st = next_era(D.AEGYPTUS)
    s = st.record[0]
    feet, cols = int(s["stock_feet"][1]), int(s["stock_cols"][1])
    assert st.decision_name() == "Aegyptus: swap pieces"
    play(st, R.A_SWAP_FC, R.A_SWAP_FC)
    assert R.A_SWAP_CF not in st.legal_actions()
    play(st, STOP)
    assert (s["stock_feet"][1], s["stock_cols"][1]) == (feet - 2, cols + 2)


def test_cartago_spends_two_money_with_no_cards_and_no_placement_before_the_temple():
    st = next_era(D.CARTAGO, hands={1: {"money 1": 3}}, gods={1: ["Stonkus"]})
    s = st.record[0]
    assert st.decision_name() == "purchase" and s["cur"] == 1 and s["money_left"] == 2 and s["temple"] == -1
    legal = st.legal_actions()
    assert not any(R.A_MONEY <= a < R.A_TILE for a in legal)  # no hand cards, no Stonkus
    assert not any(a < R.A_JUMP for a in legal)  # nothing can be placed yet
    play(st, R.A_BUY_COL, R.A_BUY_COL)
    assert s["money_left"] == 0 and s["hand"][1].sum() == 3


def test_gallia_draw_two_from_the_deck():
    st = position(0, players=2, phase="gallia", nation="Gallia", hands={0: {}})
    play(st, R.A_GALLIA_DRAW)
    assert st.record[0]["hand"][0].sum() == 2 and st.record[0]["cur"] == 1
