"""The Roma position builder (``simlab.games.roma.position``): positions play on, what is not given is
rebalanced (VP moved from the stockpile), every validation error names its field, chance outcomes are
fixed by value."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.checks import checks_for
from simlab.core.errors import PositionError
from simlab.core.position import forced_pending
from simlab.games.roma import rules as R
from simlab.games.roma.game import GAME
from simlab.games.roma.position import force, position

from .scenarios import DONE, YES, act, target

FORUM, LEGAT, ONAGER, MERCATUS, NERO, TURRIS = 20, 3, 22, 21, 8, 24


def invariants(state) -> None:
    checks_for(GAME).invariants(state.record[0], state.config)


def test_a_described_position_is_a_normal_state_that_plays_to_the_end():
    st = position(
        1,
        preset="bribe_disc",
        boards={0: {1: "Forum", 6: "nero"}, 1: {3: "Onager", "bribe": "Legat"}},
        hands={0: [], 1: ["Tribunus Plebis", "Turris"]},
        deck=["Mercatus", "Forum"],
        dice=[3, 1, 1],
        vp=(4, 12),
        money={1: 5},
    )
    s = st.record[0]
    assert st.decision_name() == "action" and st.current_player == 1
    assert s["board"][0, 0] == FORUM and s["board"][0, 5] == NERO
    assert s["board"][1, 2] == ONAGER and s["board"][1, R.BRIBE] == LEGAT
    assert s["hand_n"].tolist() == [0, 2] and s["hand"][1, TURRIS] == 1
    assert s["deck"][s["deck_n"] - 1] == MERCATUS and s["deck"][s["deck_n"] - 2] == FORUM  # top first
    assert s["vp"].tolist() == [4, 12] and s["stock"] == 36 - 16  # moved from the stockpile
    assert s["money"].tolist() == [0, 5]
    assert [int(s["dice"][i]) for i in range(3)] == [3, 1, 1] and s["used"][:3].tolist() == [0, 0, 0]
    assert act(3) in st.legal_actions()
    invariants(st)
    rng = np.random.default_rng(0)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
        invariants(st)


def test_what_is_not_given_keeps_the_set_up_and_the_totals():
    normal = GAME.new_state(GAME.make_config(), 4)
    st = position(seed=4)
    a, s = normal.record[0], st.record[0]
    assert np.array_equal(a["hand"], s["hand"]) and s["hand_n"].tolist() == [4, 4]  # the dealt hands
    assert np.array_equal(a["deck"][: a["deck_n"]], s["deck"][: s["deck_n"]])  # in the shuffled order
    assert s["vp"].tolist() == [10, 10] and s["stock"] == 16 and (s["board"] == -1).all()
    # a card the description needs elsewhere comes out of the dealt hand when the deck has no more
    dealt = [int(t) for t in np.flatnonzero(a["hand"][0])]
    t = dealt[0]
    copies = GAME.make_config().card_copies[t]
    st = position(seed=4, boards={1: {d + 1: t for d in range(copies)}} if copies <= 6 else {1: {1: t}})
    s = st.record[0]
    assert s["hand"].sum() + (s["board"] >= 0).sum() + s["deck_n"] + s["discard"].sum() == 52
    # discard="rest": the draw pile is exactly what is given
    st = position(hands={0: [], 1: []}, deck=["Forum", "Legat"], discard="rest")
    s = st.record[0]
    assert s["deck_n"] == 2 and s["deck"][:2].tolist() == [LEGAT, FORUM] and s["discard"].sum() == 50


@pytest.mark.parametrize(
    ("description", "field"),
    [
        ({"seat": 2}, r"^seat: seat 2 is not one of 0\.\.1"),
        ({"phase": "opening placement"}, r"^phase: unknown 'opening placement'; allowed: action"),
        ({"boards": {0: {7: "Forum"}}}, r"^boards\[0\]: disc 7 \(the bribe disc\) needs the bribe_disc variant"),
        ({"boards": {0: {0: "Forum"}}}, r"^boards\[0\]: disc 0 is not one of 1\.\.6"),
        ({"boards": {0: {1: "Caesar"}}}, r"^boards\[0\]\[1\]: unknown 'Caesar'; allowed: Sicarius, Architectus"),
        ({"boards": {2: {1: "Forum"}}}, r"^boards: seat 2 is not one of 0\.\.1"),
        ({"hands": {0: ["Nero"] * 3}}, r"^cards: 3 Nero cards placed \(boards 0, hands 3, deck 0, discard 0\)"),
        ({"deck": ["Forum"] * 7}, r"^cards: 7 Forum cards placed .*, the game has 6"),
        ({"discard": {"Turris": -1}}, r"^discard\[Turris\]: -1 is negative"),
        ({"vp": (20, 16)}, r"^vp: the seats hold 36 VP, which leaves 0 in the stockpile of 36"),
        ({"vp": (0, 10)}, r"^vp\[0\]: a seat with 0 VP has lost"),
        ({"vp": -1}, r"^vp: -1 is negative"),
        ({"money": [1, 2, 3]}, r"^money: 2 players need 2 values, got 3"),
        ({"dice": [1, 2, 7]}, r"^dice: 7 is more than the 6 allowed"),
        ({"dice": [1, 2, 3, 4]}, r"^dice: 4 action dice given, the game has 3"),
    ],
)
def test_each_validation_error_names_its_field(description, field):
    with pytest.raises(PositionError, match=field):
        position(**description)


def test_force_validates_its_values_and_queues_them_in_order():
    st = position(dice=[1, 2, 3])
    with pytest.raises(PositionError, match=r"^battle value: 7 is more than the 6 allowed"):
        force(st, battle=7)
    with pytest.raises(PositionError, match=r"^force: unknown outcome kind 'cubes'; allowed: dice, battle"):
        force(st, cubes=[1])
    force(st, battle=4, dice=[2, 2, 2])
    assert forced_pending(st) == [4, 2, 2, 2]  # in the order written


def test_the_onager_example_with_a_forced_battle_die():
    """HU example: a 3 activates the Onager, which attacks an opposing building; the battle die shows 4,
    the building's defence is only 3: it is defeated and discarded."""
    st = position(dice=[3, 1, 1], boards={0: {3: "Onager"}, 1: {1: "Mercatus", 3: "Forum", 6: "Legat"}})
    st.apply(act(3))
    force(st, battle=4)
    st.apply(target(1))
    s = st.record[0]
    assert s["battle_roll"] == 4 and s["battle_def"] == 3 and s["board"][1, 0] == -1
    assert s["discard"][MERCATUS] >= 1 and forced_pending(st) == []


def test_a_forced_triple_is_offered_a_reroll():
    full = {1: "Forum", 2: "Forum", 3: "Forum", 4: "Turris", 5: "Basilica", 6: "Templum"}
    st = position(1, boards={0: full, 1: full}, hands={0: [], 1: []})
    force(st, dice=[4, 4, 4, 2, 2, 2])
    st.apply(DONE)
    assert st.decision_name() == "reroll the triple"
    st.apply(YES)
    s = st.record[0]
    assert sorted(int(s["dice"][i]) for i in range(3)) == [2, 2, 2]


def test_fewer_dice_than_the_game_has_leaves_the_others_used_up():
    """The docstring's promise: fewer action dice given, the others are used up (they once kept no face and the
    built position failed the game's own invariant that dice in play show 1..6)."""
    st = position(dice=[4, 5])
    s = st.record[0]
    assert s["used"][:3].tolist() == [0, 0, 1] and s["dice"][:2].tolist() == [4, 5]
    used_face = int(s["dice"][2])
    assert 1 <= used_face <= 6 and used_face not in (4, 5)  # the seed's roll for the third die (seed 0: a 2)
    dice_offered = {st.describe(a).split(" on ")[0] for a in st.legal_actions() if st.describe(a).startswith("die ")}
    assert dice_offered == {"die 4", "die 5"}
