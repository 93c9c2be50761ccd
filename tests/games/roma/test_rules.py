"""Scripted rule scenarios for Roma: one test (or more) per card ability and per rule of
``shared/rules/roma.md``, including the worked examples of the rulebook (the example turn, the Onager
battle). Each test builds the situation (``scenarios.scenario``; the rulebook's worked examples with the
position builder ``simlab.games.roma.position``), plays the actions a player would take and checks the
record. Comments cite the section of the rules page.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.errors import ConfigError, IllegalActionError
from simlab.games.roma import data
from simlab.games.roma import rules as R
from simlab.games.roma.position import position

from .scenarios import (
    BRIBE_DISC,
    DONE,
    YES,
    act,
    assert_conserved,
    board,
    bribe,
    card,
    config,
    consul,
    count,
    die,
    draw,
    end_turn,
    force_rolls,
    laid,
    lay,
    legal,
    money,
    new_state,
    play,
    rec,
    scenario,
    target,
)

(
    SICARIUS,
    ARCHITECTUS,
    CONSILIARIUS,
    LEGAT,
    GLADIATOR,
    MERCATOR,
    CONSUL,
    LEGIONARIUS,
    NERO,
    PRAETORIANUS,
    SCAENICUS,
    HARUSPEX,
    SENATOR,
    VELITES,
    ESSEDUM,
    TRIBUNUS,
    CENTURIO,
    AESCULAPINUM,
    BASILICA,
    MACHINA,
    FORUM,
    MERCATUS,
    ONAGER,
    TEMPLUM,
    TURRIS,
) = range(25)


def vp(state) -> list[int]:
    return rec(state)["vp"].tolist()


def stock(state) -> int:
    return int(rec(state)["stock"])


def unused(state) -> list[int]:
    s = rec(state)
    return sorted(int(s["dice"][i]) for i in range(state.config.action_dice) if s["used"][i] == 0)


# ==============================================================================================
# §1 the deck
# ==============================================================================================
def test_card_table():
    assert len(data.CARDS) == 25 and sum(data.CARD_COPIES) == 52
    chars = sum(k for k, kind in zip(data.CARD_COPIES, data.CARD_KIND, strict=True) if kind == data.CHARACTER)
    assert chars == 32 and 52 - chars == 20
    table = {
        name: (cost, d, k)
        for name, cost, d, k in zip(data.CARDS, data.CARD_COST, data.CARD_DEFENCE, data.CARD_COPIES, strict=True)
    }
    assert table["Sicarius"] == (9, 2, 1) and table["Nero"] == (8, 9, 1) and table["Mercator"] == (7, 2, 1)
    assert table["Legionarius"] == (4, 5, 3) and table["Forum"] == (5, 5, 6) and table["Turris"] == (6, 6, 2)
    assert table["Essedum"] == (6, 3, 2) and data.CARD_KIND[ESSEDUM] == data.CHARACTER
    assert table["Templum"] == (2, 2, 2) and table["Centurio"] == (9, 5, 2)


# ==============================================================================================
# §2 setup
# ==============================================================================================
def test_setup_deals_four_each_with_36_vp():
    st = new_state(seed=3)
    s = rec(st)
    assert st.decision_name() == "pass a card" and st.current_player == 0
    assert s["hand_n"].tolist() == [4, 4] and s["deck_n"] == 44
    assert s["vp"].tolist() == [10, 10] and s["stock"] == 16 and s["money"].tolist() == [0, 0]
    assert (s["board"] == -1).all()
    assert_conserved(st)


@pytest.mark.parametrize("seat", [0, 1])
def test_bonus_card_goes_into_the_seats_opening_hand(seat):
    """The card intervention: seat k's opening hand holds one more card, a Mercator (one copy in the game),
    taken from the deck before the deal; everything else is dealt as in the control game."""
    for seed in (3, 4, 5, 6):
        control = rec(new_state(seed=seed))
        st = new_state(seed=seed, bonus_card="mercator", bonus_card_seat=seat)
        s = rec(st)
        assert s["hand"][seat, MERCATOR] == 1 and s["hand"][1 - seat, MERCATOR] == 0
        assert s["hand_n"][seat] == 5 and s["hand_n"][1 - seat] == 4 and s["deck_n"] == 43
        assert MERCATOR not in s["deck"][: s["deck_n"]].tolist()
        assert_conserved(st)
        if control["hand"][:, MERCATOR].sum() == 0:  # the Mercator was not dealt: the same hands plus it
            extra = np.zeros_like(control["hand"])
            extra[seat, MERCATOR] = 1
            assert (s["hand"] == control["hand"] + extra).all()


def test_bonus_card_knobs_leave_existing_config_hashes_alone():
    """hash_default=False: the knobs enter the config hash only when set (golden transcripts, old folders)."""
    assert config().config_hash() == "b2daf38e11dc2ddc"  # the hash before the knobs existed
    assert config(None, bonus_card="forum", bonus_card_seat=0).config_hash() != config().config_hash()


def test_bonus_card_is_validated():
    with pytest.raises(ConfigError, match="bonus_card must be 'none' or one of"):
        config(None, **{"bonus_card": "jupiter", "bonus_card_seat": 0})
    with pytest.raises(ConfigError, match=r"bonus_card_seat must be -1 or a seat 0\.\.1"):
        config(None, **{"bonus_card": "forum", "bonus_card_seat": 2})
    with pytest.raises(ConfigError, match="opening cards must fit"):
        config(None, **{"bonus_card": "forum", "bonus_card_seat": 0, "hand_size": 6})


def test_two_cards_pass_face_down_both_ways():
    st = new_state(seed=5)
    s = rec(st)
    hand0, hand1 = s["hand"][0].copy(), s["hand"][1].copy()
    assert legal(st) == {card(t) for t in np.flatnonzero(hand0)}
    t0 = int(np.flatnonzero(hand0)[0])
    play(st, card(t0))
    t0b = int(np.flatnonzero(rec(st)["hand"][0])[0])
    play(st, card(t0b))
    # seat 1 chooses from its own dealt cards, not yet holding seat 0's
    assert st.current_player == 1 and rec(st)["hand_n"].tolist() == [2, 4]
    assert legal(st) == {card(t) for t in np.flatnonzero(hand1)}
    t1 = [int(t) for t in np.flatnonzero(hand1) for _ in range(int(hand1[t]))][-2:]
    play(st, card(t1[0]), card(t1[1]))
    s = rec(st)
    assert st.decision_name() == "opening placement" and st.current_player == 0
    assert s["hand_n"].tolist() == [4, 4]
    expect0 = hand0.copy()
    expect0[t0] -= 1
    expect0[t0b] -= 1
    expect0[t1[0]] += 1
    expect0[t1[1]] += 1
    assert s["hand"][0].tolist() == expect0.tolist()


def _through_swap(st):
    while rec(st)["phase"] == R.PH_SWAP:
        play(st, st.legal_actions()[0])
    return st


def test_opening_placement_is_free_one_card_per_disc_then_start_player_loses_two():
    st = _through_swap(new_state(seed=7))
    hand0 = rec(st)["hand"][0].copy()
    # any card on any free disc (not the bribe space: no variant), no cost
    assert legal(st) == {lay(t, d) for t in np.flatnonzero(hand0) for d in range(1, 7)}
    for d in (1, 2, 3, 4):
        t = int(np.flatnonzero(rec(st)["hand"][0])[0])
        play(st, lay(t, d))
        if d < 4:  # one card per disc
            assert not any(laid(a)[1] == d - 1 for a in st.legal_actions())
    s = rec(st)
    assert st.current_player == 1 and s["money"][0] == 0 and s["revealed"] == 0
    assert {laid(a)[1] for a in st.legal_actions()} == set(range(6))  # seat 1: its own side is free
    for d in (6, 5, 4, 3):
        t = int(np.flatnonzero(rec(st)["hand"][1])[0])
        play(st, lay(t, d))
    s = rec(st)
    assert s["revealed"] == 1 and s["hand_n"].tolist() == [0, 0]
    assert s["f_laid"].sum() == 8
    # EN-RB example: the start player has 4 cards on 6 discs and returns 2 VP in the first turn
    assert st.current_player == 0 and s["turns"] == 1
    assert vp(st) == [8, 10] and stock(st) == 18


def test_bribe_disc_preset_deals_five_and_start_player_loses_two_on_seven_spaces():
    st = _through_swap(new_state(seed=2, preset="bribe_disc"))
    assert rec(st)["hand_n"].tolist() == [5, 5]
    assert {laid(a)[1] for a in st.legal_actions()} == set(range(7))  # the bribe space too
    for p in range(2):
        for d in range(5):
            t = int(np.flatnonzero(rec(st)["hand"][p])[0])
            play(st, lay(t, d + 1))
    assert vp(st) == [8, 10]  # ARENA: 5 cards on 7 spaces -> 2 VP


# ==============================================================================================
# §3 phase 1: empty-disc loss
# ==============================================================================================
def test_each_empty_disc_costs_one_vp_at_the_start_of_the_own_turn():
    st = scenario(0, boards={0: {1: FORUM, 2: FORUM}, 1: {1: FORUM, 2: FORUM, 3: FORUM, 4: FORUM, 5: LEGAT}})
    end_turn(st)
    assert vp(st) == [10, 9] and stock(st) == 17 and rec(st)["f_vp_lost_empty"].tolist() == [0, 1]
    end_turn(st)
    assert vp(st) == [6, 9] and stock(st) == 21


def test_an_empty_board_loses_seven_in_the_bribe_variant_and_six_without():
    st = scenario(1, preset="bribe_disc")
    end_turn(st)
    assert vp(st) == [3, 10]
    st = scenario(1, preset="bribe_disc", overrides={"bribe_counts_empty": False})
    end_turn(st)
    assert vp(st) == [4, 10]


def test_losing_the_last_vp_to_empty_discs_ends_the_game():
    st = scenario(1, vp=(2, 10))
    end_turn(st)
    s = rec(st)
    assert st.is_terminal() and s["vp"][0] == 0 and s["end_reason"] == R.END_ZERO_VP
    assert s["share"].tolist() == [0.0, 1.0] and s["rank"].tolist() == [2, 1]


# ==============================================================================================
# §3 phase 2: dice, triples
# ==============================================================================================
def _full_board():
    return {1: FORUM, 2: FORUM, 3: FORUM, 4: TURRIS, 5: BASILICA, 6: TEMPLUM}


def test_a_triple_may_be_rerolled_repeatedly():
    st = scenario(1, boards={0: _full_board(), 1: _full_board()})
    force_rolls(st, 4, 4, 4)
    play(st, DONE)
    assert st.decision_name() == "reroll the triple" and legal(st) == {DONE, YES}
    assert unused(st) == [4, 4, 4]
    force_rolls(st, 2, 2, 2)
    play(st, YES)
    assert st.decision_name() == "reroll the triple" and unused(st) == [2, 2, 2]
    force_rolls(st, 1, 5, 6)
    play(st, YES)
    assert st.decision_name() == "action" and unused(st) == [1, 5, 6]
    assert rec(st)["f_rerolls"][0] == 2


def test_a_triple_may_be_kept():
    st = scenario(1, boards={0: _full_board(), 1: _full_board()})
    force_rolls(st, 3, 3, 3)
    play(st, DONE, DONE)
    assert st.decision_name() == "action" and unused(st) == [3, 3, 3]
    # the same card can be activated once per die showing its number
    assert act(3) in legal(st)


def test_triple_reroll_knobs():
    st = scenario(1, boards={0: _full_board(), 1: _full_board()}, overrides={"triple_reroll": False})
    force_rolls(st, 4, 4, 4)
    play(st, DONE)
    assert st.decision_name() == "action"
    st = scenario(1, boards={0: _full_board(), 1: _full_board()}, overrides={"triple_reroll_limit": 1})
    force_rolls(st, 4, 4, 4)
    play(st, DONE)
    force_rolls(st, 2, 2, 2)
    play(st, YES)
    assert st.decision_name() == "action" and unused(st) == [2, 2, 2]


# ==============================================================================================
# §3 phase 3: actions
# ==============================================================================================
def test_laying_a_card_costs_its_price_and_covering_discards_the_old_card():
    st = scenario(hands={0: [FORUM, NERO]}, money=12, boards={0: {2: LEGAT}})
    acts = legal(st)
    assert {lay(FORUM, d) for d in range(1, 7)} <= acts and {lay(NERO, d) for d in range(1, 7)} <= acts
    play(st, lay(NERO, 2))
    s = rec(st)
    assert s["money"][0] == 4 and board(st, 0) == {2: NERO} and s["discard"][LEGAT] == 1
    assert lay(FORUM, 1) not in legal(st)  # 4 < 5 sestertii
    assert s["f_laid"][0, NERO] == 1 and s["f_money_spent"][0] == 8


def test_money_disc_gives_the_pips_and_a_die_is_used_once():
    st = scenario(dice=(6, 2, 2))
    play(st, money(6))
    assert rec(st)["money"][0] == 6 and money(6) not in legal(st) and unused(st) == [2, 2]
    play(st, money(2), money(2))
    assert rec(st)["money"][0] == 10 and legal(st) == {DONE}


def test_card_disc_draws_the_pips_keeps_one_discards_the_rest_face_up():
    # HU example: a 4 on the card disc draws 4 cards, one is kept
    st = position(dice=[4, 1, 1], hands={0: []}, deck=["Legat", "Forum", "Nero", "Forum"])
    discard = rec(st)["discard"].copy()
    play(st, draw(4))
    assert st.decision_name() == "keep a drawn card" and legal(st) == {card(LEGAT), card(FORUM), card(NERO)}
    play(st, card(FORUM))
    s = rec(st)
    assert s["hand"][0, FORUM] == 1 and s["hand_n"][0] == 1
    assert (s["discard"] - discard).tolist() == np.bincount([LEGAT, NERO, FORUM], minlength=25).tolist()


def test_drawing_from_an_empty_draw_pile_reshuffles_the_discard_pile():
    st = scenario(dice=(3, 1, 1), deck=[TEMPLUM])
    s = rec(st)
    # everything but one Templum and the cards below it goes to the discard pile
    s["discard"][:] = np.bincount(s["deck"][: s["deck_n"] - 1], minlength=25)
    s["deck"][0] = TEMPLUM
    s["deck_n"] = 1
    assert_conserved(st)
    play(st, draw(3))
    s = rec(st)
    assert s["deck_n"] + s["discard"].sum() + s["drawn_n"] == 52 and s["drawn"][0] == TEMPLUM
    assert s["discard"].sum() == 0 and s["drawn_n"] == 3


def test_a_draw_of_one_kind_needs_no_choice():
    st = scenario(dice=(2, 1, 1), deck=[FORUM, FORUM])
    play(st, draw(2))
    s = rec(st)
    assert st.decision_name() == "action" and s["hand"][0, FORUM] == 1 and s["discard"][FORUM] == 1


def test_activation_needs_the_die_of_the_disc_number():
    st = scenario(dice=(2, 2, 5), boards={0: {2: TRIBUNUS, 5: LEGAT, 3: TRIBUNUS}, 1: {1: FORUM}})
    acts = legal(st)
    assert act(2) in acts and act(5) in acts and act(3) not in acts
    play(st, act(2), act(2))  # two 2s: the Tribunus acts twice
    assert vp(st) == [12, 8] and rec(st)["f_act"][0, TRIBUNUS] == 2
    assert act(2) not in legal(st)


def test_rulebook_example_turn():
    """HU/EN-RB example turn: Stefan returns 1 VP (one empty disc), rolls 3, 4 and 6; the 3 draws 3
    cards, he keeps a Legat; the 6 takes 6 sestertii; he lays the Legat (5) on disc 4; the 4 activates
    it: 2 VP, for the opponent's two empty discs."""
    st = position(
        1,  # the opponent ends its turn; Stefan is seat 0
        boards={
            0: {1: "Forum", 2: "Turris", 3: "Machina", 5: "Consul", 6: "Nero"},
            1: {1: "Forum", 2: "Senator", 3: "Mercatus", 4: "Essedum"},
        },
        hands={0: [], 1: []},
        deck=["Forum", "Legat", "Templum"],
        money=0,
        vp=10,
    )
    force_rolls(st, 3, 4, 6)
    play(st, DONE)
    assert vp(st) == [9, 10] and unused(st) == [3, 4, 6]
    play(st, draw(3))
    drawn = sorted(int(t) for t in rec(st)["drawn"][:3])
    assert LEGAT in drawn
    play(st, card(LEGAT), money(6))
    assert rec(st)["money"][0] == 6
    play(st, lay(LEGAT, 4))
    assert rec(st)["money"][0] == 1 and board(st, 0)[4] == LEGAT
    play(st, act(4))
    assert vp(st) == [11, 10] and rec(st)["f_vp"][0, R.SRC_LEGAT] == 2


# ==============================================================================================
# battles (§3 Battle) and their thresholds
# ==============================================================================================
def test_onager_example_battle():
    """HU example: a 3 activates the Onager, which attacks an opposing building; the battle die shows 4,
    the building's defence is only 3: it is defeated and discarded."""
    st = position(dice=[3, 1, 1], boards={0: {3: "Onager"}, 1: {1: "Mercatus", 3: "Forum", 6: "Legat"}})
    play(st, act(3))
    assert st.decision_name() == "choose target" and legal(st) == {target(1), target(3)}  # buildings, any disc
    force_rolls(st, 4)
    play(st, target(1))
    s = rec(st)
    assert board(st, 1) == {3: FORUM, 6: LEGAT} and s["discard"][MERCATUS] == 1
    assert s["battle_roll"] == 4 and s["battle_def"] == 3 and s["f_destroyed"][1, MERCATUS] == 1
    assert s["f_battles"][0] == 1 and s["f_battles_won"][0] == 1


@pytest.mark.parametrize(
    ("turris", "essedum", "roll", "destroyed"),
    [
        (0, 0, 4, False),
        (0, 0, 5, True),  # Legionarius defence 5
        (1, 0, 5, False),
        (1, 0, 6, True),  # + 1 for a Turris
        (2, 0, 6, False),  # two Turris: 7, out of reach
        (0, 1, 2, False),
        (0, 1, 3, True),  # − 2 for an Essedum
        (0, 2, 1, True),  # two Essedum activations: defence 1
        (1, 1, 3, False),
        (1, 1, 4, True),  # Turris and Essedum
    ],
)
def test_battle_thresholds_with_modifiers(turris, essedum, roll, destroyed):
    own = {1: LEGIONARIUS}
    if essedum:
        own[2] = ESSEDUM
    opp = {1: LEGIONARIUS}
    for d in range(turris):
        opp[5 + d] = TURRIS
    dice = (2,) * essedum + (1,)
    st = scenario(dice=dice + (4,) * (3 - len(dice)), boards={0: own, 1: opp})
    for _ in range(essedum):
        play(st, act(2))
    assert rec(st)["essedum"][1] == 2 * essedum
    force_rolls(st, roll)
    play(st, act(1))
    assert (1 not in board(st, 1)) == destroyed
    assert rec(st)["battle_def"] == 5 + turris - 2 * essedum


def test_two_turris_raise_each_other():
    st = scenario(dice=(4, 1, 1), boards={0: {4: ONAGER}, 1: {2: TURRIS, 3: TURRIS}})
    play(st, act(4))
    force_rolls(st, 6)
    play(st, target(2))
    assert rec(st)["battle_def"] == 7 and board(st, 1) == {2: TURRIS, 3: TURRIS}


def test_essedum_lasts_the_turn_only():
    st = scenario(dice=(2, 2, 6), boards={0: {2: ESSEDUM, 1: FORUM}, 1: {1: FORUM, 2: FORUM}})
    play(st, act(2), act(2))
    assert rec(st)["essedum"].tolist() == [0, 4]
    end_turn(st)
    assert rec(st)["essedum"].tolist() == [0, 0]


def test_legionarius_attacks_only_the_card_opposite():
    st = scenario(dice=(2, 3, 1), boards={0: {2: LEGIONARIUS, 3: LEGIONARIUS}, 1: {2: TEMPLUM, 4: FORUM}})
    assert act(2) in legal(st) and act(3) not in legal(st)  # nothing opposite disc 3
    force_rolls(st, 2)
    play(st, act(2))
    assert board(st, 1) == {4: FORUM} and st.decision_name() == "action"


def test_velites_attack_any_character():
    st = scenario(dice=(5, 1, 1), boards={0: {5: VELITES}, 1: {1: LEGAT, 3: FORUM, 6: NERO}})
    play(st, act(5))
    assert legal(st) == {target(1), target(6)}
    force_rolls(st, 6)
    play(st, target(6))
    assert rec(st)["battle_def"] == 9 and 6 in board(st, 1)  # Nero's 9 is out of reach
    st = scenario(dice=(5, 1, 1), boards={0: {5: VELITES}, 1: {3: FORUM}})
    assert act(5) not in legal(st)  # no opposing character: no activation


def test_centurio_adds_an_unused_die_after_a_failed_roll():
    st = scenario(dice=(4, 3, 1), boards={0: {4: CENTURIO}, 1: {4: TURRIS}})
    force_rolls(st, 3)
    play(st, act(4))
    assert st.decision_name() == "Centurio: add a die" and legal(st) == {DONE, die(3), die(1)}
    play(st, die(3))  # 3 + 3 = 6 >= 6
    assert board(st, 1) == {} and unused(st) == [1] and rec(st)["f_battles_won"][0] == 1


def test_centurio_may_keep_its_dice_and_a_won_roll_asks_nothing():
    st = scenario(dice=(4, 1, 1), boards={0: {4: CENTURIO}, 1: {4: TURRIS}})
    force_rolls(st, 2)
    play(st, act(4))
    play(st, DONE)
    assert board(st, 1) == {4: TURRIS} and unused(st) == [1, 1]
    st = scenario(dice=(4, 1, 1), boards={0: {4: CENTURIO}, 1: {4: LEGAT}})
    force_rolls(st, 2)
    play(st, act(4))
    assert st.decision_name() == "action" and board(st, 1) == {}
    st = scenario(dice=(4, 1, 1), boards={0: {4: CENTURIO}, 1: {4: TURRIS}})
    force_rolls(st, 1)
    play(st, act(4), die(1))  # 1 + 1 < 6: the die is spent for nothing
    assert board(st, 1) == {4: TURRIS} and unused(st) == [1]


# ==============================================================================================
# the other card abilities
# ==============================================================================================
def test_sicarius_destroys_a_character_without_battle_and_is_discarded():
    st = scenario(dice=(1, 2, 3), boards={0: {1: SICARIUS}, 1: {2: NERO, 3: FORUM, 5: CENTURIO}})
    play(st, act(1))
    assert legal(st) == {target(2), target(5)}
    play(st, target(2))
    s = rec(st)
    assert board(st, 0) == {} and board(st, 1) == {3: FORUM, 5: CENTURIO}
    assert s["discard"][SICARIUS] == 1 and s["discard"][NERO] == 1 and s["f_destroyed"][1, NERO] == 1
    assert s["f_battles"][0] == 0


def test_nero_destroys_a_building_without_battle_and_is_discarded():
    st = scenario(dice=(6, 2, 3), boards={0: {6: NERO}, 1: {2: TURRIS, 3: LEGAT}})
    play(st, act(6))
    assert legal(st) == {target(2)}
    play(st, target(2))
    assert board(st, 0) == {} and board(st, 1) == {3: LEGAT} and rec(st)["discard"][NERO] == 1


def test_gladiator_returns_a_character_to_the_opponents_hand():
    st = scenario(dice=(4, 2, 3), boards={0: {4: GLADIATOR}, 1: {1: LEGAT, 2: FORUM}})
    play(st, act(4))
    assert legal(st) == {target(1)}
    play(st, target(1))
    s = rec(st)
    assert board(st, 1) == {2: FORUM} and s["hand"][1, LEGAT] == 1 and s["discard"][LEGAT] == 0
    assert board(st, 0) == {4: GLADIATOR} and s["f_returned"][1] == 1


def test_architectus_lays_buildings_free_covering_any_card_itself_included():
    st = scenario(dice=(1, 2, 3), hands={0: [FORUM, TURRIS, LEGAT]}, boards={0: {1: ARCHITECTUS, 2: SENATOR}})
    play(st, act(1))
    acts = legal(st)
    assert acts == {DONE} | {lay(t, d) for t in (FORUM, TURRIS) for d in range(1, 7)}
    play(st, lay(TURRIS, 2), lay(FORUM, 1))
    s = rec(st)
    assert board(st, 0) == {1: FORUM, 2: TURRIS} and s["money"][0] == 0
    assert s["discard"][SENATOR] == 1 and s["discard"][ARCHITECTUS] == 1
    assert legal(st) == {DONE}
    play(st, DONE)
    assert st.decision_name() == "action"


def test_senator_lays_characters_free():
    st = scenario(dice=(5, 2, 3), hands={0: [CENTURIO, NERO, FORUM]}, boards={0: {5: SENATOR}})
    play(st, act(5))
    assert {laid(a)[0] for a in legal(st) if a != DONE} == {CENTURIO, NERO}
    play(st, lay(CENTURIO, 1), lay(NERO, 6), DONE)
    assert board(st, 0) == {1: CENTURIO, 5: SENATOR, 6: NERO} and rec(st)["f_laid"][0].sum() == 2
    st = scenario(dice=(5, 2, 3), hands={0: [FORUM]}, boards={0: {5: SENATOR}})
    assert act(5) not in legal(st)  # no character in hand: nothing to do


def test_consiliarius_relays_all_characters_and_may_cover_buildings():
    st = scenario(dice=(2, 2, 3), boards={0: {1: LEGAT, 2: CONSILIARIUS, 3: FORUM, 5: TURRIS}})
    play(st, act(2))
    s = rec(st)
    assert st.decision_name() == "relay card" and board(st, 0) == {3: FORUM, 5: TURRIS}
    assert s["relay"][LEGAT] == 1 and s["relay"][CONSILIARIUS] == 1
    play(st, lay(LEGAT, 3))  # covers the Forum
    assert rec(st)["discard"][FORUM] == 1
    assert not any(laid(a)[1] == 2 for a in st.legal_actions())  # one relayed card per disc
    play(st, lay(CONSILIARIUS, 6))
    assert board(st, 0) == {3: LEGAT, 5: TURRIS, 6: CONSILIARIUS} and st.decision_name() == "action"
    assert rec(st)["f_laid"][0].sum() == 0


def test_machina_relays_all_buildings():
    st = scenario(dice=(4, 2, 3), boards={0: {1: LEGAT, 3: FORUM, 4: MACHINA}})
    play(st, act(4))
    assert board(st, 0) == {1: LEGAT}
    play(st, lay(MACHINA, 1), lay(FORUM, 2))
    s = rec(st)
    assert board(st, 0) == {1: MACHINA, 2: FORUM} and s["discard"][LEGAT] == 1


def test_legat_gains_one_vp_per_opposing_empty_disc_from_the_stockpile():
    st = scenario(dice=(3, 2, 1), boards={0: {3: LEGAT}, 1: {1: FORUM, 2: FORUM}})
    play(st, act(3))
    assert vp(st) == [14, 10] and stock(st) == 12
    st = scenario(dice=(3, 2, 1), boards={0: {3: LEGAT}, 1: {d: FORUM for d in range(1, 7)}})
    assert act(3) not in legal(st)


def test_legat_counts_the_bribe_space_in_the_variant():
    st = scenario(dice=(3, 2, 1), preset="bribe_disc", boards={0: {3: LEGAT}, 1: {d: FORUM for d in range(1, 7)}})
    play(st, act(3))
    assert vp(st) == [11, 10]
    st = scenario(
        dice=(3, 2, 1),
        preset="bribe_disc",
        overrides={"bribe_counts_legat": False},
        boards={0: {3: LEGAT}, 1: {d: FORUM for d in range(1, 7)}},
    )
    assert act(3) not in legal(st)


def test_mercator_buys_vp_from_the_opponent_at_two_each():
    st = scenario(dice=(6, 2, 1), money=(11, 3), vp=(10, 4), boards={0: {6: MERCATOR}, 1: {1: FORUM}})
    play(st, act(6))
    assert legal(st) == {count(k) for k in range(1, 5)}  # 11 // 2 = 5, but the opponent has 4 VP
    play(st, count(3))
    s = rec(st)
    assert vp(st) == [13, 1] and s["money"].tolist() == [5, 9] and s["f_vp"][0, R.SRC_MERCATOR] == 3
    st = scenario(dice=(6, 2, 1), money=(20, 0), boards={0: {6: MERCATOR}}, overrides={"mercator_cap": 2})
    play(st, act(6))
    assert legal(st) == {count(1), count(2)}
    st = scenario(dice=(6, 2, 1), money=(1, 0), boards={0: {6: MERCATOR}})
    assert act(6) not in legal(st)


def test_mercator_buying_the_last_vp_ends_the_game():
    st = scenario(dice=(6, 2, 1), money=(10, 0), vp=(10, 2), boards={0: {6: MERCATOR}})
    play(st, act(6), count(2))
    assert st.is_terminal() and rec(st)["end_reason"] == R.END_ZERO_VP and rec(st)["share"][0] == 1.0


def test_consul_changes_another_unused_die_by_one_within_1_to_6():
    st = scenario(dice=(2, 6, 1), boards={0: {2: CONSUL, 5: TRIBUNUS}})
    play(st, act(2))
    assert legal(st) == {consul(6, False), consul(1, True)}  # no 7, no 0
    play(st, consul(6, False))
    assert unused(st) == [1, 5]
    play(st, act(5))
    assert vp(st) == [11, 9]
    st = scenario(dice=(2, 1, 1), boards={0: {2: CONSUL}})
    play(st, act(2))
    assert legal(st) == {consul(1, True)}  # equal dice are one choice
    st = scenario(dice=(2, 4, 4), boards={0: {2: CONSUL}})
    play(st, money(4), money(4))
    assert act(2) not in legal(st)  # no other unused die


def test_praetorianus_blocks_an_opposing_disc_for_their_next_turn():
    st = scenario(
        dice=(5, 1, 1), boards={0: {5: PRAETORIANUS}, 1: {3: TRIBUNUS, 4: LEGAT}}, hands={1: [TRIBUNUS]}, money=10
    )
    play(st, act(5))
    assert legal(st) == {target(d) for d in range(1, 7)}
    play(st, target(3))
    end_turn(st, dice=(3, 4, 3))
    assert rec(st)["blocked"][1].tolist()[:6] == [0, 0, 1, 0, 0, 0]
    assert act(3) not in legal(st) and act(4) in legal(st)
    play(st, lay(TRIBUNUS, 3))  # a card laid there this turn cannot act either
    assert act(3) not in legal(st)
    end_turn(st)
    end_turn(st, dice=(3, 1, 2))
    assert act(3) in legal(st)  # the block has expired
    assert rec(st)["blocked"].sum() == 0


def test_praetorianus_and_the_bribe_space():
    st = scenario(dice=(5, 1, 1), preset="bribe_disc", boards={0: {5: PRAETORIANUS}})
    play(st, act(5))
    assert target(BRIBE_DISC) not in legal(st)
    st = scenario(
        dice=(5, 1, 1),
        preset="bribe_disc",
        overrides={"praetorianus_blocks_bribe": True},
        boards={0: {5: PRAETORIANUS}},
    )
    play(st, act(5))
    assert target(BRIBE_DISC) in legal(st)


def test_haruspex_takes_any_card_from_the_draw_pile_then_shuffles():
    st = scenario(dice=(4, 1, 2), boards={0: {4: HARUSPEX}})
    n = int(rec(st)["deck_n"])
    before = rec(st)["deck"][:n].copy()
    play(st, act(4))
    assert legal(st) == {card(t) for t in np.unique(before)}
    play(st, card(SICARIUS))
    s = rec(st)
    assert s["hand"][0, SICARIUS] == 1 and s["deck_n"] == n - 1
    assert SICARIUS not in s["deck"][: n - 1].tolist()
    assert s["deck"][: n - 1].tolist() != [t for t in before.tolist() if t != SICARIUS]  # reshuffled


def test_tribunus_plebis_takes_one_vp():
    st = scenario(dice=(1, 2, 3), boards={0: {1: TRIBUNUS}})
    play(st, act(1))
    assert vp(st) == [11, 9] and stock(st) == 16 and rec(st)["f_vp_lost_taken"][1] == 1


def test_aesculapinum_takes_a_character_from_the_discard_pile():
    st = scenario(dice=(2, 2, 3), boards={0: {2: AESCULAPINUM}}, discard=[NERO, FORUM, LEGAT])
    play(st, act(2))
    assert legal(st) == {card(NERO), card(LEGAT)}
    play(st, card(NERO))
    assert rec(st)["hand"][0, NERO] == 1 and rec(st)["discard"][NERO] == 0
    st = scenario(dice=(2, 2, 3), boards={0: {2: AESCULAPINUM}}, discard=[FORUM])
    assert act(2) not in legal(st)


def test_aesculapinum_costs_five():
    # HU example: laying the Aesculapinum costs 5 sestertii
    st = position(hands={0: ["Aesculapinum"]}, money=5, dice=[1, 2, 3])
    play(st, lay(AESCULAPINUM, 1))
    assert rec(st)["money"][0] == 0


def test_forum_needs_two_dice_the_second_gives_vp():
    st = scenario(dice=(3, 5, 2), boards={0: {3: FORUM}})
    play(st, act(3))
    assert st.decision_name() == "Forum: second die" and legal(st) == {die(5), die(2)}
    play(st, die(5))
    assert vp(st) == [15, 10] and stock(st) == 11 and unused(st) == [2]
    st = scenario(dice=(3, 5, 2), boards={0: {3: FORUM}})
    play(st, money(5), money(2))
    assert act(3) not in legal(st)  # no second die


@pytest.mark.parametrize(
    ("cards", "each", "gain"),
    [
        ({2: BASILICA}, True, 6),
        ({2: BASILICA, 4: BASILICA}, True, 8),
        ({2: BASILICA, 4: BASILICA}, False, 6),
        ({1: BASILICA}, True, 4),
    ],
)
def test_basilica_adds_two_per_adjacent_basilica(cards, each, gain):
    st = scenario(dice=(3, 4, 4), boards={0: {3: FORUM, **cards}}, overrides={"basilica_each": each})
    assert act(2) not in legal(st) and act(4) not in legal(st)  # never activated itself
    play(st, act(3), die(4))
    assert vp(st)[0] == 10 + gain


def test_templum_spends_the_third_die_for_more_vp():
    st = scenario(dice=(3, 5, 6), boards={0: {3: FORUM, 4: TEMPLUM, 2: BASILICA}})
    play(st, act(3), die(5))
    assert st.decision_name() == "Templum: third die" and legal(st) == {DONE, die(6)}
    play(st, die(6))
    s = rec(st)
    assert vp(st) == [23, 10] and unused(st) == []
    assert s["f_vp"][0, :3].tolist() == [5, 2, 6]


def test_templum_needs_an_unused_third_die():
    st = scenario(dice=(3, 5, 6), boards={0: {3: FORUM, 4: TEMPLUM}})
    play(st, money(6), act(3), die(5))
    assert st.decision_name() == "action" and vp(st) == [15, 10]


def test_mercatus_takes_one_vp_per_opposing_forum():
    st = scenario(dice=(6, 2, 1), boards={0: {6: MERCATUS}, 1: {1: FORUM, 2: FORUM, 5: BASILICA}})
    play(st, act(6))
    assert vp(st) == [12, 8] and stock(st) == 16
    st = scenario(dice=(6, 2, 1), boards={0: {6: MERCATUS}, 1: {1: FORUM}}, overrides={"mercatus_from_opponent": False})
    play(st, act(6))
    assert vp(st) == [11, 10] and stock(st) == 15


def test_turris_is_never_activated():
    st = scenario(dice=(6, 6, 6), boards={0: {6: TURRIS}})
    assert act(6) not in legal(st)


# ==============================================================================================
# Scaenicus (§4.9)
# ==============================================================================================
def test_scaenicus_copies_an_own_character_and_may_change_each_time():
    st = scenario(dice=(2, 2, 1), boards={0: {2: SCAENICUS, 5: TRIBUNUS, 6: LEGAT, 1: FORUM}, 1: {1: FORUM}})
    play(st, act(2))
    assert st.decision_name() == "Scaenicus: copy a card" and legal(st) == {target(5), target(6)}  # no building
    play(st, target(5))
    assert vp(st) == [11, 9]
    play(st, act(2), target(6))
    assert vp(st) == [16, 9] and rec(st)["f_act"][0, SCAENICUS] == 2 and rec(st)["f_act"][0, TRIBUNUS] == 0


def test_scaenicus_attacks_from_its_own_disc():
    st = scenario(dice=(2, 1, 1), boards={0: {2: SCAENICUS, 5: LEGIONARIUS}, 1: {2: TEMPLUM, 5: FORUM}})
    play(st, act(2))
    force_rolls(st, 2)
    play(st, target(5))
    assert board(st, 1) == {5: FORUM}  # the Templum opposite the Scaenicus fell
    st = scenario(dice=(2, 1, 1), boards={0: {2: SCAENICUS, 5: LEGIONARIUS}, 1: {5: FORUM}})
    assert act(2) not in legal(st)  # nothing opposite the Scaenicus


def test_scaenicus_copying_sicarius_discards_the_scaenicus():
    st = scenario(dice=(2, 1, 1), boards={0: {2: SCAENICUS, 5: SICARIUS}, 1: {3: LEGAT}})
    play(st, act(2), target(5), target(3))
    assert board(st, 0) == {5: SICARIUS} and board(st, 1) == {}
    assert rec(st)["discard"][SCAENICUS] == 1 and rec(st)["discard"][LEGAT] == 1


def test_scaenicus_may_copy_another_scaenicus():
    st = scenario(dice=(2, 1, 1), boards={0: {2: SCAENICUS, 4: SCAENICUS, 6: TRIBUNUS}})
    play(st, act(2))
    assert legal(st) == {target(4), target(6)}
    play(st, target(4))
    assert legal(st) == {target(6)}
    play(st, target(6))
    assert vp(st) == [11, 9]
    st = scenario(
        dice=(2, 1, 1),
        boards={0: {2: SCAENICUS, 4: SCAENICUS, 6: TRIBUNUS}},
        overrides={"scaenicus_copies_scaenicus": False},
    )
    play(st, act(2))
    assert legal(st) == {target(6)}


def test_scaenicus_without_a_character_to_copy_cannot_act():
    st = scenario(dice=(2, 1, 1), boards={0: {2: SCAENICUS, 4: SCAENICUS, 3: FORUM}})
    assert act(2) not in legal(st) and act(4) not in legal(st)


def test_scaenicus_copying_consul_and_centurio():
    st = scenario(dice=(2, 3, 1), boards={0: {2: SCAENICUS, 5: CONSUL, 4: TRIBUNUS}})
    play(st, act(2), target(5), consul(3, True), act(4))
    assert vp(st) == [11, 9]
    st = scenario(dice=(2, 3, 1), boards={0: {2: SCAENICUS, 5: CENTURIO}, 1: {2: FORUM}})
    force_rolls(st, 2)
    play(st, act(2), target(5))
    assert st.decision_name() == "Centurio: add a die"
    play(st, die(3))
    assert board(st, 1) == {}


# ==============================================================================================
# the bribe disc (§4.1)
# ==============================================================================================
def test_bribe_space_card_activates_with_any_die_for_its_pips():
    st = scenario(dice=(4, 2, 6), preset="bribe_disc", money=5, boards={0: {BRIBE_DISC: TRIBUNUS}})
    assert {bribe(4), bribe(2)} <= legal(st) and bribe(6) not in legal(st)  # 6 > 5 sestertii
    play(st, bribe(4))
    assert vp(st) == [11, 9] and rec(st)["money"][0] == 1 and unused(st) == [2, 6]
    assert bribe(2) not in legal(st)


def test_bribe_space_forum_templum_next_to_disc_six():
    st = scenario(dice=(1, 5, 3), preset="bribe_disc", money=5, boards={0: {BRIBE_DISC: FORUM, 6: BASILICA}})
    play(st, bribe(1), die(5))
    assert vp(st) == [17, 10]


def test_cards_can_be_laid_and_relayed_onto_the_bribe_space():
    st = scenario(dice=(2, 1, 1), preset="bribe_disc", money=5, hands={0: [FORUM]}, boards={0: {2: CONSILIARIUS}})
    assert lay(FORUM, BRIBE_DISC) in legal(st)
    play(st, act(2), lay(CONSILIARIUS, BRIBE_DISC))
    assert board(st, 0) == {BRIBE_DISC: CONSILIARIUS}
    st = scenario(hands={0: [FORUM]}, money=5)
    assert lay(FORUM, BRIBE_DISC) not in legal(st)


# ==============================================================================================
# the end of the game (§3 End of game)
# ==============================================================================================
def test_an_empty_stockpile_ends_the_game_at_once():
    st = scenario(dice=(3, 5, 2), vp=(15, 17), boards={0: {3: FORUM}})
    assert stock(st) == 4
    play(st, act(3), die(5))
    s = rec(st)
    assert st.is_terminal() and s["end_reason"] == R.END_STOCKPILE and st.current_player == -1
    # full credit: 5 VP although only 4 were left
    assert vp(st) == [20, 17] and stock(st) == 0 and s["minted"] == 1
    assert s["share"].tolist() == [1.0, 0.0] and s["score"].tolist() == [20, 17]


def test_without_full_credit_only_the_stockpile_pays():
    st = scenario(dice=(3, 5, 2), vp=(15, 17), boards={0: {3: FORUM}}, overrides={"full_credit": False})
    play(st, act(3), die(5))
    assert vp(st) == [19, 17] and rec(st)["minted"] == 0 and st.is_terminal()


def test_a_tie_is_a_draw():
    st = scenario(dice=(3, 2, 2), vp=(16, 18), boards={0: {3: FORUM}})
    play(st, act(3), die(2))
    s = rec(st)
    assert st.is_terminal() and vp(st) == [18, 18]
    assert s["share"].tolist() == [0.5, 0.5] and s["rank"].tolist() == [1, 1]
    assert st.outcome().win_shares == (0.5, 0.5)


def test_tribunus_taking_the_last_vp_ends_the_game():
    st = scenario(dice=(1, 1, 3), vp=(3, 1), boards={0: {1: TRIBUNUS}})
    play(st, act(1))
    assert st.is_terminal() and rec(st)["end_reason"] == R.END_ZERO_VP and vp(st) == [4, 0]
    with pytest.raises(IllegalActionError):
        st.apply(act(1))


def test_turn_limit_is_a_safety_net():
    st = scenario(1, boards={0: _full_board(), 1: _full_board()}, overrides={"max_turns": 3})
    end_turn(st)
    end_turn(st)
    assert not st.is_terminal()
    end_turn(st)
    assert st.is_terminal() and rec(st)["end_reason"] == R.END_TURN_LIMIT and rec(st)["turns"] == 3


# ==============================================================================================
# errors, config
# ==============================================================================================
def test_an_illegal_action_names_game_seed_and_decision():
    st = scenario(dice=(1, 2, 3), seed=4)
    before = st.record.tobytes()
    with pytest.raises(IllegalActionError, match=r"roma \(seed 4\): action 189 is not legal at decision 'action'"):
        st.apply(act(1))
    assert st.record.tobytes() == before


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players": 3}, r"two-player game"),
        ({"start_vp": "18,18"}, r"total_vp must exceed"),
        ({"hand_size": 7}, r"must fit on the 6 spaces"),
        ({"card_copies": "1,2,3"}, r"card_copies needs 25"),
        ({"mercator_cap": 0}, r"mercator_cap must be -1"),
        ({"swap_size": 5}, r"swap_size must be 0..hand_size"),
    ],
)
def test_bad_configs_are_refused_with_a_clear_message(overrides, message):
    with pytest.raises(ConfigError, match=message):
        new_state(**overrides)


def test_presets():
    from simlab.games.roma.game import GAME

    assert GAME.presets() == ["rulebook", "bribe_disc"]
    assert GAME.make_config("original") == GAME.make_config("rulebook")  # the old name still works
    o, b = GAME.make_config(), GAME.make_config("bribe_disc")
    changed = {k for k, v in b.as_dict().items() if o.as_dict()[k] != v}
    assert changed == {"bribe_disc", "hand_size"}
    assert o.start_money == (0, 0) and o.start_vp == (10, 10) and o.total_vp == 36
    st = new_state(start_money="3,0", start_vp="10,11")
    assert rec(st)["money"].tolist() == [3, 0] and rec(st)["vp"].tolist() == [10, 11] and stock(st) == 15


def test_swap_size_zero_skips_the_pass():
    st = new_state(swap_size=0)
    assert st.decision_name() == "opening placement"


# ==============================================================================================
# more corners of the rules
# ==============================================================================================
def test_scaenicus_copying_nero_discards_the_scaenicus():
    st = scenario(dice=(3, 1, 1), boards={0: {3: SCAENICUS, 6: NERO}, 1: {1: TURRIS, 2: LEGAT}})
    play(st, act(3), target(6))
    assert legal(st) == {target(1)}
    play(st, target(1))
    assert board(st, 0) == {6: NERO} and board(st, 1) == {2: LEGAT} and rec(st)["discard"][SCAENICUS] == 1


def test_scaenicus_copying_gladiator_and_velites():
    st = scenario(dice=(3, 3, 1), boards={0: {3: SCAENICUS, 5: GLADIATOR, 6: VELITES}, 1: {1: LEGAT, 4: CENTURIO}})
    play(st, act(3), target(5))
    assert legal(st) == {target(1), target(4)}
    play(st, target(1))
    assert rec(st)["hand"][1, LEGAT] == 1
    play(st, act(3), target(6))
    force_rolls(st, 5)
    play(st, target(4))
    assert board(st, 1) == {} and board(st, 0) == {3: SCAENICUS, 5: GLADIATOR, 6: VELITES}


def test_essedum_only_for_the_next_battle_when_so_configured():
    st = scenario(
        dice=(2, 1, 1), boards={0: {2: ESSEDUM, 1: LEGIONARIUS}, 1: {1: FORUM}}, overrides={"essedum_whole_turn": False}
    )
    play(st, act(2))
    force_rolls(st, 2)
    play(st, act(1))  # defence 5 - 2 = 3 > 2: the attack fails and the Essedum is spent
    assert rec(st)["battle_def"] == 3 and rec(st)["essedum"].tolist() == [0, 0]
    force_rolls(st, 4)
    play(st, act(1))
    assert rec(st)["battle_def"] == 5 and board(st, 1) == {1: FORUM}


def test_legat_emptying_the_stockpile_ends_the_game_with_full_credit():
    st = scenario(dice=(3, 2, 1), vp=(14, 20), boards={0: {3: LEGAT}, 1: {1: FORUM, 2: FORUM, 4: FORUM}})
    assert stock(st) == 2
    play(st, act(3))
    s = rec(st)
    assert st.is_terminal() and vp(st) == [17, 20] and s["minted"] == 1 and s["share"].tolist() == [0.0, 1.0]


def test_forum_basilica_and_templum_are_one_payout_when_the_stockpile_runs_out():
    st = scenario(dice=(3, 2, 6), vp=(15, 18), boards={0: {3: FORUM, 2: BASILICA, 4: TEMPLUM}})
    assert stock(st) == 3
    play(st, act(3), die(2))
    assert not st.is_terminal() and st.decision_name() == "Templum: third die"
    play(st, die(6))
    s = rec(st)
    assert st.is_terminal() and vp(st) == [25, 18] and s["f_vp"][0, :3].tolist() == [2, 2, 6]
    assert s["end_reason"] == R.END_STOCKPILE and s["minted"] == 7


def test_the_empty_disc_loss_refills_the_stockpile():
    st = scenario(dice=(3, 5, 2), vp=(15, 17), boards={0: {3: FORUM}, 1: {1: FORUM}})
    end_turn(st)  # seat 1 returns 5 VP: the stockpile grows from 4 to 9
    assert stock(st) == 9 and vp(st) == [15, 12] and not st.is_terminal()


def test_bribe_disc_legionarius_attacks_the_opposing_bribe_space():
    st = scenario(
        dice=(2, 1, 1), preset="bribe_disc", money=5, boards={0: {BRIBE_DISC: LEGIONARIUS}, 1: {BRIBE_DISC: TEMPLUM}}
    )
    force_rolls(st, 2)
    play(st, bribe(2))
    assert board(st, 1) == {} and rec(st)["money"][0] == 3


def test_the_opening_placement_is_hidden_from_the_second_player():
    st = _through_swap(new_state(seed=11))
    for _ in range(4):
        play(st, st.legal_actions()[0])
    assert st.current_player == 1 and rec(st)["revealed"] == 0
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(20):
        det = st.determinize(1, rng)
        b = rec(det)["board"][0]
        assert ((b >= 0) == (rec(st)["board"][0] >= 0)).all()  # where the face-down cards lie is known
        seen.add(tuple(b.tolist()))
    assert len(seen) > 1  # what they are is not


def test_haruspex_view_keeps_the_draw_pile_contents():
    st = scenario(dice=(4, 1, 2), boards={0: {4: HARUSPEX}}, hands={1: [FORUM, NERO]})
    play(st, act(4))
    det = st.determinize(0, np.random.default_rng(1))
    n = int(rec(st)["deck_n"])
    assert sorted(rec(det)["deck"][:n].tolist()) == sorted(rec(st)["deck"][:n].tolist())
    assert legal(det) == legal(st)
