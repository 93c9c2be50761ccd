"""The Massilia position builder (``simlab.games.massilia.position``): positions play on, what is not
given is rebalanced, every validation error names its field, chance outcomes are fixed by value."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.checks import checks_for
from simlab.core.errors import PositionError
from simlab.core.position import forced_pending
from simlab.games.massilia import rules as R
from simlab.games.massilia.game import GAME
from simlab.games.massilia.position import force, position

from .scenarios import count, pass_all

ONE_EACH = {0: (0, []), 4: (1, []), 8: (2, []), 12: (3, [])}
PRICES = {"temple": 2, "purple": 2, "orange": 1, "pink": 3}


def invariants(state) -> None:
    checks_for(GAME).invariants(state.record[0], state.config)


def test_a_described_position_is_a_normal_state_that_plays_to_the_end():
    st = position(
        players=3,
        seat=1,
        stalls={0: (0, {"pink": 2}), 4: (1, ["orange", "beige"]), 8: (2, [])},
        hands={1: ["mars", "venus"]},
        money=[10, 8, 6],
        fame={2: 7},
        tokens={0: 2},
        temple=[("grey", 3), ("black", 6)],
        kept={1: {"brown": [4]}},
        deck=["junon", "pluton"],
        round=3,
        prices=PRICES,
        pawns={"consul": 5},
    )
    s = st.record[0]
    assert st.decision_name() == "turn" and st.current_player == 1 and s["round_no"] == 3
    assert s["stall_owner"][[0, 4, 8]].tolist() == [0, 1, 2] and (s["stall_owner"] >= 0).sum() == 3
    assert s["cubes"][0].tolist() == [2, 0, 0, 0] and s["cubes"][4].tolist() == [0, 1, 0, 1]
    assert s["reserve"][:3].tolist() == [5, 5, 5]
    assert s["hand"][1, R.MARS] == 1 and s["hand"][1, R.VENUS] == 1 and s["hand_n"][:3].tolist() == [0, 2, 0]
    assert s["deck"][s["deck_n"] - 1] == R.JUNON and s["deck"][s["deck_n"] - 2] == R.PLUTON  # top first
    assert s["money"][:3].tolist() == [10, 8, 6] and s["fame"][:3].tolist() == [0, 0, 7]
    assert s["tokens"][:3].tolist() == [2, 0, 0] and s["supply"] == 28
    assert s["temple"][R.GREY, 2] == 1 and s["temple"][R.BLACK, 5] == 1 and s["temple"].sum() == 2
    assert s["kept"][1, R.BROWN, 3] == 1
    assert s["price"].tolist() == [2, 2, 1, 3] and s["pawn"][0] == 5
    invariants(st)
    rng = np.random.default_rng(0)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
        invariants(st)


def test_what_is_not_given_keeps_the_set_up_and_the_totals():
    normal = GAME.new_state(GAME.make_config(players=4), 5)
    st = position(players=4, seed=5)
    a, s = normal.record[0], st.record[0]
    # the setup stalls (first free corners), their cubes, pawns, prices, markers and money stay
    for field in ("pawn", "price", "marker", "money", "fame", "tokens", "supply"):
        assert np.array_equal(a[field], s[field]), field
    assert (s["stall_owner"] >= 0).sum() == 4 and s["cubes"].sum() == 12
    assert (s["screen"][:4] == 1).all()
    assert st.decision_name() == "turn" and st.current_player == 0
    # cubes put on stalls come from the bag; the harbours keep the set-up's cubes
    st = position(players=2, stalls={0: (0, {"pink": 4}), 12: (1, {"pink": 4})})
    s = st.record[0]
    assert s["harbour"].tolist() == [6, 6, 6, 10] and s["bag"].tolist() == [1, 9, 9, 0]
    # ... and from the harbour when the bag runs out
    st = position(
        players=2, stalls={0: (0, {"pink": 4}), 12: (1, {"pink": 4}), 4: (0, {"pink": 4}), 8: (1, {"pink": 3})}
    )
    s = st.record[0]
    assert s["bag"][0] == 0 and s["harbour"].tolist() == [0, 6, 6, 10]
    # cards put in hands come out of the deck, which keeps its shuffled order otherwise
    st = position(players=2, seed=5, hands={0: ["mars", "mars"]})
    s = st.record[0]
    assert s["deck_n"] == 53 and np.bincount(s["deck"][:53], minlength=9)[R.MARS] == 3
    # discard="rest": the deck is exactly what is given
    st = position(players=2, deck=["venus", "mars"], discard="rest")
    s = st.record[0]
    assert s["deck_n"] == 2 and s["deck"][:2].tolist() == [R.MARS, R.VENUS] and s["discard"].sum() == 53


def test_the_dice_phase_decision():
    st = position(
        players=3, seat=2, phase="dice to roll", round=2, screens={0: {"grey": 1}, 1: [0, 1, 1, 1], 2: [2, 2, 2, 2]}
    )
    assert st.decision_name() == "dice to roll" and st.current_player == 2
    st.apply(count(2))  # 2 grey dice
    assert st.decision_name() == "dice to roll"


@pytest.mark.parametrize(
    ("description", "field"),
    [
        ({"seat": 4}, r"^seat: seat 4 is not one of 0\.\.3"),
        ({"phase": "market"}, r"^phase: unknown 'market'; allowed: turn, dice to roll"),
        ({"round": 8}, r"^round: 8 is more than the 7 allowed"),
        ({"stalls": {0: (0, {"red": 1})}}, r"^stalls\[0\] cubes: unknown 'red'; allowed: pink, orange, purple, beige"),
        ({"stalls": {0: (0, {"pink": 7})}}, r"^stalls\[0\]: 7 cubes on a stall that holds 6"),
        ({"stalls": {16: (0, [])}}, r"^stalls: space 16 is not one of 0\.\.15"),
        ({"stalls": {0: (0, [])}}, r"^stalls: seat 1 has no stall on the market"),
        ({"stalls": {0: (5, [])}}, r"^stalls\[0\] owner: seat 5 is not one of 0\.\.3"),
        ({"stalls": {0: (0, [])}, "no_stall": [0, 1, 2, 3]}, r"^no_stall: seat 0 has 1 stall\(s\) in stalls"),
        ({"no_stall": [1]}, r"^no_stall: give stalls too"),
        ({"stalls": {0: (0, [])}, "no_stall": [4]}, r"^no_stall: seat 4 is not one of 0\.\.3"),
        (
            {"stalls": ONE_EACH, "harbour": {"pink": 16}},
            r"^harbour: the description uses 16 pink cubes, the game has 15",
        ),
        ({"stalls": ONE_EACH, "bag": {"orange": 16}}, r"^bag: the description uses 16 orange cubes, the game has 15"),
        ({"stalls": ONE_EACH, "harbour": [6, 6, 6, 10], "bag": [9, 9, 9, 1]}, r"^cubes: beige: 0 on stalls \+ 10 in"),
        ({"bag": {"pink": -1}}, r"^bag\[pink\]: -1 is negative"),
        ({"hands": {0: ["zeus"]}}, r"^hands\[0\]: unknown 'zeus'; allowed: jupiter, junon, .*, pluton"),
        ({"hands": {0: ["mars"] * 5}}, r"^hands\[0\]: 5 cards, the hand limit is 4"),
        ({"hands": {0: ["mars"] * 4, 1: ["mars"] * 2}}, r"^cards: 6 mars cards placed .*, the game has 5"),
        ({"deck": ["pluton"] * 6}, r"^cards: 6 pluton cards placed \(hands 0, deck 6, discard 0\)"),
        ({"temple": [("red", 3)]}, r"^temple die colour: unknown 'red'; allowed: grey, brown, black, beige"),
        ({"temple": [("grey", 7)]}, r"^temple grey die face: 7 is more than the 6 allowed"),
        ({"temple": [("grey", 1)] * 6}, r"^dice: 6 grey dice placed .*, the game has 5"),
        ({"screens": {0: {"grey": 1}}}, r"^screens: \d+ grey dice are placed nowhere"),
        ({"money": -1}, r"^money: -1 is negative"),
        ({"money": [1, 2]}, r"^money: 4 players need 4 values, got 2"),
        ({"tokens": [10, 10, 10, 11]}, r"^tokens: the seats hold 41 penalty tokens, the game has 40"),
        ({"prices": [2, 2, 2, 3]}, r"^prices: \[2, 2, 2, 3\] are not the price tiles \[1, 2, 2, 3\]"),
        ({"pawns": {"consul": 16}}, r"^pawns\[consul\]: 16 is more than the 15 allowed"),
        ({"pawns": {"king": 3}}, r"^pawns: unknown 'king'; allowed: consul, pink customer"),
        ({"markers": {"pink": 9}}, r"^markers\[pink\]: 9 is more than the"),
        ({"order": [0, 0, 1, 2]}, r"^order: \[0, 0, 1, 2\] is not an order of the seats 0\.\.3"),
    ],
)
def test_each_validation_error_names_its_field(description, field):
    with pytest.raises(PositionError, match=field):
        position(players=4, **description)


def test_force_validates_its_values_and_queues_them_in_order():
    st = position(players=2, stalls={0: (0, []), 12: (1, [])})
    with pytest.raises(PositionError, match=r"^dice die face: 7 is more than the 6 allowed"):
        force(st, dice=[7])
    with pytest.raises(PositionError, match=r"^cubes cube colour: unknown 'red'"):
        force(st, cubes=["red"])
    with pytest.raises(PositionError, match=r"^force: unknown outcome kind 'battle'; allowed: dice, cubes"):
        force(st, battle=3)
    with pytest.raises(PositionError, match=r"^cubes: no beige cube left in the bag to draw"):
        force(st, cubes=["beige"])
    force(st, cubes=["pink"], dice=[3, 5])
    force(st, "orange", 6)
    assert forced_pending(st) == [R.PINK, 3, 5, R.ORANGE, 6]  # in the order written


def test_forced_refill_cubes_and_temple_dice_at_the_start_of_a_round():
    """Phase 1 of round 2 draws 8 cubes for the harbours (2 players), then the temple dice are rolled in
    colour order (grey, brown, black, beige): both come out as forced."""
    st = position(
        players=2,
        seat=0,
        stalls={0: (0, []), 12: (1, [])},
        temple=[("grey", 1), ("brown", 1), ("black", 1), ("beige", 1)],
        harbour=[6, 6, 6, 10],
    )
    before = st.record[0]["harbour"].copy()
    force(st, cubes=["purple"] * 8, dice=[6, 5, 4, 3])
    pass_all(st)
    s = st.record[0]
    assert s["round_no"] == 2
    assert (s["harbour"] - before).tolist() == [0, 0, 8, 0]
    assert [int(np.flatnonzero(s["temple"][d])[0]) + 1 for d in range(4)] == [6, 5, 4, 3]
    assert forced_pending(st) == []


def test_forced_dice_of_a_players_roll():
    """Seat 0 rolls its two grey dice openly: they show the forced 2 and 6."""
    st = position(
        players=2,
        seat=0,
        phase="dice to roll",
        round=2,
        stalls={0: (0, []), 12: (1, [])},
        temple=[("grey", 1), ("brown", 1), ("black", 1), ("beige", 1)],
        screens={0: {"grey": 2}, 1: {"brown": 2, "black": 2, "beige": 2}},
    )
    force(st, dice=[2, 6])
    st.apply(count(2))
    s = st.record[0]
    assert st.decision_name() == "keep rolled die"
    assert s["rolled_col"][:2].tolist() == [R.GREY, R.GREY] and s["rolled_val"][:2].tolist() == [2, 6]


def test_a_seat_with_no_stall():
    """``no_stall``: a seat with every stall tile in reserve (play never gets there: nobody loses their last
    stall), for rule tests that keep a seat out of the market; the tiles and every other total still add up
    (the builder runs the game's invariants with that one rule set aside), and the game plays on."""
    st = position(players=2, stalls={0: (0, ["pink"])}, no_stall=[1])
    s = st.record[0]
    assert int((s["stall_owner"] == 1).sum()) == 0 and int(s["reserve"][1]) == st.config.stalls_per_player
    assert int(s["reserve"][0]) == st.config.stalls_per_player - 1 and s["cubes"][:, 0].sum() == 1
    with pytest.raises(AssertionError, match="seat 1 lost its last stall"):
        checks_for(GAME).invariants(s, st.config)  # the rule a position with no_stall breaks on purpose
    pass_all(st)
    assert int(st.record[0]["round_no"]) == 2
