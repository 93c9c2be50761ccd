"""Scripted rule scenarios for Massilia: one test (or more) per rule of ``shared/rules/massilia.md``.

Each test builds the situation a rule talks about (``scenarios.scenario``; the rulebook's worked examples
with the position builder ``simlab.games.massilia.position``), plays the actions
a player would take and checks the record. Comments cite the section of the rules page.
"""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.errors import IllegalActionError
from simlab.games.massilia import data
from simlab.games.massilia import rules as R
from simlab.games.massilia.position import position

from .scenarios import (
    CCW,
    CONSUL,
    CW,
    LOC_ORANGE,
    LOC_PINK,
    LOC_PURPLE,
    LOC_TEMPLE,
    ORANGE_CUSTOMER,
    PINK_CUSTOMER,
    PURPLE_CUSTOMER,
    assert_conserved,
    change_jupiter,
    change_token,
    colour,
    count,
    cube,
    extra_junon,
    extra_token,
    mercure,
    mod_card,
    mod_token,
    move,
    new_state,
    pass_all,
    play,
    rec,
    scenario,
    space,
    stalls_of,
    take,
)

PINK, ORANGE, PURPLE, BEIGE = R.PINK, R.ORANGE, R.PURPLE, R.BEIGE
GREY, BROWN, BLACK, BEIGE_DIE = R.GREY, R.BROWN, R.BLACK, R.BEIGE_DIE
CORNERS = {15, 0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13}
MIDDLES = {2, 6, 10, 14}
TILES = {2: [2], 3: [3, 2], 4: [4, 3, 2]}  # money of the 1st, 2nd, ... passer
EXECUTE, PASS, YES, NO = R.A_EXECUTE, R.A_PASS, R.A_YES, R.A_NO


def legal(state) -> set[int]:
    return set(state.legal_actions())


def mod_cards(state) -> set[int]:
    return {a for a in state.legal_actions() if R.A_MOD_CARD <= a < R.A_MOVE}


def token_options(state) -> set[int]:
    """Build actions that cost a penalty token."""
    return {
        a
        for a in state.legal_actions()
        if R.A_EXTRA_TOKEN <= a < R.A_EXTRA_JUNON
        or R.A_CHANGE_TOKEN <= a < R.A_CHANGE_JUPITER
        or R.A_MOD_TOKEN <= a < R.A_MOD_CARD
    }


def skip_dice_phase(state):
    """Nobody rolls (phase 2) until the action phase or the end of the game."""
    while rec(state)["phase"] in (R.PH_ROLL, R.PH_KEEP):
        play(state, count(0) if rec(state)["phase"] == R.PH_ROLL else R.A_KEEPDIE_TEMPLE)
    return state


# ==============================================================================================
# Setup
# ==============================================================================================
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_components(players):
    st = new_state(players, seed=3)
    s = rec(st)
    assert st.decision_name() == "setup stall" and st.current_player == 0
    assert s["harbour"].tolist() == [6, 6, 6, 10]  # pink, orange, purple, beige
    assert s["bag"].tolist() == [9, 9, 9, 0]
    assert s["deck_n"] == 55 and s["discard"].sum() == 0
    assert np.bincount(s["deck"][:55], minlength=9).tolist() == list(data.CARD_COPIES)
    assert set(s["pawn"].tolist()) == MIDDLES
    assert sorted(s["price"].tolist()) == [1, 2, 2, 3]
    assert s["marker"].tolist() == [2, 2, 2]
    assert s["money"][:players].tolist() == [6] * players
    assert s["fame"][:players].tolist() == [0] * players
    assert s["supply"] == 10 * players and s["tokens"].sum() == 0
    assert (s["screen"][:players] == 1).all() and s["screen"][players:].sum() == 0
    assert s["temple"].sum(1).tolist() == [1, 1, 1, 1]
    assert s["reserve"][:players].tolist() == [6] * players
    assert s["round_no"] == 1 and s["hand_n"].sum() == 0
    assert st.cfg[0]["turn_tiles"][: players - 1].tolist() == sorted(TILES[players])
    assert_conserved(st)


@pytest.mark.parametrize(("players", "seats"), [(2, [0, 1, 1, 0]), (3, [0, 1, 2]), (4, [0, 1, 2, 3])])
def test_setup_stalls_on_corners_in_turn_order_with_three_cubes(players, seats):
    st = new_state(players, seed=11)
    rng = np.random.default_rng(0)
    order = []
    while rec(st)["phase"] == R.PH_SETUP:
        s = rec(st)
        free = {sp for sp in CORNERS if s["stall_owner"][sp] < 0}
        assert {R.ACTIONS.decode(a) for a in st.legal_actions()} == {("space", sp) for sp in free}  # any free corner
        order.append(st.current_player)
        bag = int(s["bag"].sum())
        a = int(rng.choice(st.legal_actions()))
        play(st, a)
        s = rec(st)
        sp = R.ACTIONS.decode(a).index
        assert s["stall_owner"][sp] == order[-1]
        assert s["cubes"][sp].sum() == 3 and s["bag"].sum() == bag - 3
    assert order == seats  # 2 players: a second lap in reverse order
    s = rec(st)
    for p in range(players):
        assert len(stalls_of(st, p)) == len(seats) // players
    assert s["harbour"].tolist() == [6, 6, 6, 10]  # setup cubes come from the bag only
    assert s["bag"].sum() == 27 - 3 * len(seats)
    # phase 1 is skipped in round 1: straight to the first player's dice
    assert st.decision_name() == "dice to roll" and st.current_player == 0 and s["round_no"] == 1


def test_setup_characters_and_price_tiles_are_random():
    pawns = {tuple(rec(new_state(4, seed=k))["pawn"].tolist()) for k in range(30)}
    prices = {tuple(rec(new_state(4, seed=k))["price"].tolist()) for k in range(30)}
    assert len(pawns) > 5 and len(prices) > 3
    fixed = rec(new_state(4, seed=1, random_pawn_start=False))["pawn"].tolist()
    assert fixed == [2, 6, 10, 14]


@pytest.mark.parametrize(("players", "money"), [(2, [5, 6]), (3, [5, 6, 7]), (4, [5, 6, 7, 8])])
def test_quined2014_starting_money_by_seat(players, money):
    s = rec(new_state(players, preset="quined2014"))
    assert s["money"][:players].tolist() == money
    s = rec(new_state(players, start_money="9,8,7,6"))
    assert s["money"][:players].tolist() == [9, 8, 7, 6][:players]


# ==============================================================================================
# Phase 1: price rotation and harbour refill
# ==============================================================================================
@pytest.mark.parametrize(("players", "refill"), [(2, 8), (3, 10), (4, 12)])
def test_phase1_rotates_prices_and_refills_harbours(players, refill):
    st = scenario(players, prices=(3, 1, 2, 2))
    s = rec(st)
    harbour, bag = s["harbour"].copy(), s["bag"].copy()
    pass_all(st)
    s = rec(st)
    assert s["round_no"] == 2
    # temple -> purple -> orange -> pink -> temple
    assert s["price"].tolist() == [2, 3, 1, 2]
    gained = s["harbour"] - harbour
    assert gained.sum() == refill and (gained >= 0).all()
    assert (bag - s["bag"]).tolist() == gained.tolist()  # each drawn cube went to its own harbour
    assert s["f_harbour_r"][1].tolist() == s["harbour"].tolist()


def test_phase1_refill_stops_when_the_bag_is_empty():
    st = scenario(4, harbour=(13, 13, 12, 10))  # leaves 2 + 2 + 3 = 7 cubes in the bag
    assert rec(st)["bag"].sum() == 7
    pass_all(st)
    s = rec(st)
    assert s["bag"].sum() == 0 and s["harbour"].tolist() == [15, 15, 15, 10]
    pass_all(skip_dice_phase(st))  # a refill from an empty bag draws nothing
    assert rec(st)["round_no"] == 3 and rec(st)["harbour"].tolist() == [15, 15, 15, 10]


def test_game_lasts_seven_rounds():
    st = scenario(3)
    rounds = 0
    while not st.is_terminal():
        pass_all(skip_dice_phase(st))
        rounds += 1
    assert rounds == 7 and rec(st)["round_no"] == 7 and st.current_player == -1


# ==============================================================================================
# Phase 2: dice
# ==============================================================================================
def _to_round2_roll(players=2, money=20, hands=None):
    """Seat 1 passes first, seat 0 last: seat 0 rolls first in round 2."""
    st = scenario(players, seat=1 if players == 2 else 0, money=money, hands=hands)
    pass_all(st)
    assert st.decision_name() == "dice to roll"
    return st


def test_dice_phase_rolls_temple_dice_then_each_player_rolls_kept_for_2():
    st = scenario(2, seat=1, money=5, hands={0: [R.MARS]})
    s = rec(st)
    temple_before = s["temple"].sum(1).copy()
    pass_all(st)  # seat 1 passes first (+2), seat 0 last: seat 0 first in round 2
    s = rec(st)
    assert s["order"][:2].tolist() == [0, 1] and st.current_player == 0
    assert s["temple"].sum(1).tolist() == temple_before.tolist()  # temple dice re-rolled, not moved
    screen = s["screen"][0].copy()
    # any number of each colour from behind the screen
    assert legal(st) == {count(k) for k in range(int(screen[GREY]) + 1)}
    play(st, count(1), count(1), count(1), count(1))
    s = rec(st)
    assert st.decision_name() == "keep rolled die" and s["rolled_n"] == 4
    assert s["rolled_col"][:4].tolist() == [GREY, BROWN, BLACK, BEIGE_DIE]
    assert (s["screen"][0] == screen - 1).all()
    vals = s["rolled_val"][:4].tolist()
    assert all(1 <= v <= 6 for v in vals)
    # grey: keep for 2 sesterces
    assert legal(st) == {R.A_KEEPDIE_TEMPLE, R.A_KEEPDIE_PAY, R.A_KEEPDIE_MARS}
    play(st, R.A_KEEPDIE_PAY)
    assert rec(st)["money"][0] == 3 and rec(st)["kept"][0, GREY, vals[0] - 1] == 1
    # brown: to the temple
    t = rec(st)["temple"][BROWN, vals[1] - 1]
    play(st, R.A_KEEPDIE_TEMPLE)
    assert rec(st)["temple"][BROWN, vals[1] - 1] == t + 1
    # black: Mars keeps it for free
    play(st, R.A_KEEPDIE_MARS)
    s = rec(st)
    assert s["money"][0] == 3 and s["kept"][0, BLACK, vals[2] - 1] == 1
    assert s["hand"][0, R.MARS] == 0 and s["discard"][R.MARS] == 1
    # beige: 3 sesterces left -> keep for 2, then nobody can pay for another
    play(st, R.A_KEEPDIE_PAY)
    assert rec(st)["money"][0] == 1
    # seat 1's turn to roll
    assert st.current_player == 1 and st.decision_name() == "dice to roll"


def test_dice_are_rolled_in_the_new_turn_order():
    st = scenario(3)
    pass_all(st)  # seats pass 0, 1, 2: new order 2, 1, 0
    seen = []
    while rec(st)["phase"] == R.PH_ROLL:
        seen.append(st.current_player)
        play(st, count(0))
    assert list(dict.fromkeys(seen)) == [2, 1, 0]
    assert st.decision_name() == "turn" and st.current_player == 2


def test_keeping_a_die_needs_2_sesterces_or_mars():
    st = scenario(2, seat=1, money=(1, 20))
    pass_all(st)
    play(st, count(1))
    while rec(st)["phase"] == R.PH_ROLL:
        play(st, count(0))
    assert legal(st) == {R.A_KEEPDIE_TEMPLE}


def test_a_player_rolls_only_the_dice_they_have():
    """Regression: a colour the player has no dice of must not be rolled (it used to reuse the previous
    player's count for that colour and create dice behind the screen)."""
    # seat 1 keeps only grey dice behind the screen; its brown, black and beige dice are in the temple
    st = scenario(
        2,
        seat=1,
        temple=[(BROWN, 1), (BLACK, 1), (BEIGE_DIE, 1)],
        screens={0: [2, 2, 2, 2], 1: [1, 0, 0, 0]},
    )
    pass_all(st)
    while st.current_player == 0:  # seat 0 rolls one die of every colour, sends them to the temple
        play(st, count(1) if rec(st)["phase"] == R.PH_ROLL else R.A_KEEPDIE_TEMPLE)
    s = rec(st)
    assert st.decision_name() == "dice to roll" and s["roll_colour"] == GREY
    play(st, count(1))  # seat 1 is asked about grey only
    s = rec(st)
    assert s["rolled_n"] == 1 and s["rolled_col"][0] == GREY
    assert (s["screen"] >= 0).all()


# ==============================================================================================
# Phase 3: using dice and penalty tokens
# ==============================================================================================
def test_die_from_temple_goes_behind_the_users_screen():
    st = scenario(temple=[(BROWN, 3), (BLACK, 5)], pawns=(2, 6, 10, 14))
    screen = rec(st)["screen"][0].copy()
    assert legal(st) >= {PASS, take(BROWN, 3), take(BLACK, 5)}
    play(st, take(BROWN, 3))
    assert rec(st)["temple"][BROWN].sum() == 0
    play(st, EXECUTE, move(PINK_CUSTOMER, CW))  # 6 -> 9, an empty space
    s = rec(st)
    assert s["pawn"][PINK_CUSTOMER] == 9
    assert s["screen"][0, BROWN] == screen[BROWN] + 1
    assert st.current_player == 1 and st.decision_name() == "turn"


def test_own_kept_dice_only():
    st = scenario(kept={0: [(BLACK, 2)], 1: [(BROWN, 5)]}, money=20)
    acts = legal(st)
    assert take(BLACK, 2, own=True) in acts
    assert take(BROWN, 5, own=True) not in acts and take(BROWN, 5) not in acts
    play(st, take(BLACK, 2, own=True), EXECUTE)
    s = rec(st)
    assert s["kept"][0].sum() == 0 and s["fame"][0] == 2 and s["money"][0] == 16


def test_a_player_without_usable_die_must_pass():
    st = scenario(temple=[])
    assert st.legal_actions() == [PASS]


def test_token_performs_another_colours_action():
    st = scenario(temple=[(GREY, 2)], money=10, prices=(3, 2, 1, 2))
    play(st, take(GREY, 2), change_token(BLACK))
    s = rec(st)
    assert s["tokens"][0] == 1 and s["supply"] == 39 and s["act_action"] == BLACK
    play(st, EXECUTE)
    s = rec(st)
    assert s["fame"][0] == 2 and s["money"][0] == 10 - 2 * 3
    assert s["f_actions"][0, BLACK] == 1 and s["f_dice_used"][0, GREY] == 1


@pytest.mark.parametrize(("value", "up", "result"), [(6, True, 1), (1, False, 6), (3, True, 4), (3, False, 2)])
def test_token_changes_value_by_one_with_wrap(value, up, result):
    st = scenario(temple=[(BROWN, value)], pawns=(2, 6, 10, 14))
    play(st, take(BROWN, value), mod_token(0, up))
    assert rec(st)["act_val"][0] == result and rec(st)["tokens"][0] == 1
    play(st, EXECUTE, move(ORANGE_CUSTOMER, CW))
    assert rec(st)["pawn"][ORANGE_CUSTOMER] == (10 + result) % 16


def test_token_modifiers_repeat_while_tokens_last():
    st = scenario(temple=[(BROWN, 2)], tokens={1: 38})  # 2 tokens left in the supply
    play(st, take(BROWN, 2), mod_token(0, True), mod_token(0, True))
    s = rec(st)
    assert s["act_val"][0] == 4 and s["tokens"][0] == 2 and s["supply"] == 0
    assert token_options(st) == set()  # supply exhausted: no penalty option exists


def test_token_extra_die_adds_its_value():
    st = scenario(temple=[(BROWN, 2), (BLACK, 3)], kept={0: [(GREY, 1)]}, pawns=(2, 6, 10, 14))
    screen = rec(st)["screen"][0].copy()
    play(st, take(BROWN, 2))
    assert {extra_token(BLACK, 3), extra_token(GREY, 1, own=True)} <= legal(st)
    play(st, extra_token(BLACK, 3), extra_token(GREY, 1, own=True))
    s = rec(st)
    assert s["act_n"] == 3 and s["tokens"][0] == 2 and s["act_action"] == BROWN
    play(st, EXECUTE, move(PURPLE_CUSTOMER, CCW))
    s = rec(st)
    assert s["pawn"][PURPLE_CUSTOMER] == 14 - 6
    # all dice of the action go behind the screen
    assert (s["screen"][0] - screen).tolist() == [1, 1, 1, 0]
    assert s["temple"].sum() == 0 and s["kept"][0].sum() == 0


def test_no_penalty_option_when_the_supply_is_empty():
    st = scenario(temple=[(BROWN, 2), (BLACK, 3)], tokens={1: 40}, money=0, hands={0: [R.VENUS]})
    play(st, take(BROWN, 2))
    assert token_options(st) == set()
    # a die that needs a modification to be usable cannot even be taken (black 3 costs 6, money 0)
    st = scenario(temple=[(BLACK, 3)], tokens={1: 40}, money=0)
    assert st.legal_actions() == [PASS]
    # ... but can with a token left in the supply (the action can still change to a move)
    st = scenario(temple=[(BLACK, 3)], tokens={1: 39}, money=0)
    assert take(BLACK, 3) in legal(st)


# ==============================================================================================
# Beige: buy goods
# ==============================================================================================
def test_buy_exact_value_coloured_then_beige_top_up():
    st = scenario(
        stalls={0: (0, (0, 0, 0, 0)), 4: (0, (1, 1, 1, 1))},
        temple=[(BEIGE_DIE, 3)],
        harbour=(6, 6, 2, 9),
        prices=(2, 2, 1, 3),
        money=20,
    )
    play(st, take(BEIGE_DIE, 3), EXECUTE)
    assert st.decision_name() == "colour to buy"
    assert legal(st) == {colour(PINK), colour(ORANGE), colour(PURPLE)}  # never beige alone
    play(st, colour(PURPLE))
    assert legal(st) == {count(1), count(2)}  # only 2 purple in the harbour
    play(st, count(1))
    s = rec(st)
    assert s["money"][0] == 20 - 2 - 2 * 1  # purple tile 2, beige printed 1
    assert s["harbour"].tolist() == [6, 6, 1, 7]
    assert s["marker"][PURPLE] == 1
    # placing: any own stall with room
    assert legal(st) == {space(0), space(4)}
    play(st, space(4), space(4), space(0))
    s = rec(st)
    assert s["cubes"][4].tolist() == [1, 1, 2, 2] and s["cubes"][0].tolist() == [0, 0, 0, 1]
    assert st.current_player == 1


def test_buy_places_at_most_six_cubes_per_stall():
    st = scenario(stalls={0: (0, (2, 2, 0, 1)), 4: (0, (0, 0, 0, 0))}, temple=[(BEIGE_DIE, 3)])
    play(st, take(BEIGE_DIE, 3), EXECUTE, colour(ORANGE), count(3))
    assert legal(st) == {space(0), space(4)}
    play(st, space(0))
    assert legal(st) == {space(4)}  # stall 0 is full
    play(st, space(4), space(4))
    assert rec(st)["cubes"][0].sum() == 6


@pytest.mark.parametrize(("money", "ok"), [(3, True), (2, False)])
def test_buy_needs_enough_money(money, ok):
    # cheapest: 1 orange at 1 + 2 beige at 1
    st = scenario(stalls={0: (0, (0, 0, 0, 0))}, temple=[(BEIGE_DIE, 3)], prices=(2, 2, 1, 3), money=money)
    play(st, take(BEIGE_DIE, 3))
    assert (EXECUTE in legal(st)) is ok
    if ok:
        play(st, EXECUTE)
        assert legal(st) == {colour(ORANGE)}
        play(st, colour(ORANGE))
        assert legal(st) == {count(1), count(2), count(3)}  # orange and beige both cost 1 here


@pytest.mark.parametrize(("room", "value", "ok"), [(1, 2, False), (1, 1, True), (2, 2, True)])
def test_buy_needs_stall_room(room, value, ok):
    st = scenario(stalls={0: (0, (6 - room, 0, 0, 0)), 4: (1, (0, 0, 0, 0))}, temple=[(BEIGE_DIE, value)])
    play(st, take(BEIGE_DIE, value))  # (another player's empty stall is no room for us)
    assert (EXECUTE in legal(st)) is ok


@pytest.mark.parametrize(("harbour", "ok"), [((0, 0, 1, 1), False), ((0, 0, 1, 2), True), ((0, 0, 0, 10), False)])
def test_buy_needs_harbour_cubes_and_at_least_one_coloured(harbour, ok):
    st = scenario(stalls={0: (0, (0, 0, 0, 0))}, temple=[(BEIGE_DIE, 3)], harbour=harbour)
    play(st, take(BEIGE_DIE, 3))
    assert (EXECUTE in legal(st)) is ok


@pytest.mark.parametrize(
    ("preset", "marker", "bought", "after"),
    [
        (None, 3, 2, 1),  # rulebook: one step per cube
        (None, 3, 1, 2),
        (None, 2, 3, 1),  # not below 1
        (None, 1, 1, 1),
        ("quined2014", 3, 3, 2),  # one step per purchase
        ("quined2014", 1, 2, 1),
    ],
)
def test_buy_moves_the_colour_marker_down(preset, marker, bought, after):
    st = scenario(
        preset=preset,
        stalls={0: (0, (0, 0, 0, 0))},
        temple=[(BEIGE_DIE, bought)],
        markers=(2, 2, marker),
        money=20,
    )
    play(st, take(BEIGE_DIE, bought), EXECUTE, colour(PURPLE), count(bought))
    assert rec(st)["marker"].tolist() == [2, 2, after]


# ==============================================================================================
# Black: fame
# ==============================================================================================
@pytest.mark.parametrize(("temple_price", "money", "ok"), [(2, 6, True), (2, 5, False), (3, 9, True), (1, 3, True)])
def test_fame_costs_the_temple_price_per_point(temple_price, money, ok):
    others = [2, 2, 1, 3]  # the price tiles
    others.remove(temple_price)  # a position lays out the four price tiles, so the others are the rest
    st = scenario(temple=[(BLACK, 3)], money=money, prices=(temple_price, *others), tokens={1: 40})
    if not ok:  # no way to complete an action: the die cannot even be taken
        assert st.legal_actions() == [PASS]
        return
    play(st, take(BLACK, 3), EXECUTE)
    s = rec(st)
    assert s["fame"][0] == 3 and s["money"][0] == money - 3 * temple_price


# ==============================================================================================
# Grey: sacrifice
# ==============================================================================================
def test_sacrifice_draws_keeps_and_pays_with_cubes():
    st = scenario(
        stalls={0: (0, (1, 0, 0, 2)), 4: (0, (0, 0, 0, 0))},
        temple=[(GREY, 3)],
        deck=[R.VENUS, R.MARS, R.PLUTON],
    )
    s = rec(st)
    bag = s["bag"].copy()
    play(st, take(GREY, 3), EXECUTE)
    s = rec(st)
    assert st.decision_name() == "keep drawn card"
    assert s["drawn"][:3].tolist() == [R.VENUS, R.MARS, R.PLUTON] and s["deck_n"] == 0
    play(st, YES, NO, YES)  # keep Venus and Pluton, Mars goes to the discard pile
    s = rec(st)
    assert st.decision_name() == "pay for kept card"
    assert s["hand"][0, R.VENUS] == 1 and s["hand"][0, R.PLUTON] == 1 and s["hand_n"][0] == 2
    assert s["discard"][R.MARS] >= 1
    # two cards: 1 pink + 2 beige, in any order
    assert legal(st) == {cube(0, PINK), cube(0, BEIGE)}
    play(st, cube(0, BEIGE))
    assert legal(st) == {cube(0, BEIGE)}  # half a card paid: the second beige cube must follow
    play(st, cube(0, BEIGE), cube(0, PINK))
    s = rec(st)
    assert s["cubes"][0].sum() == 0 and st.current_player == 1
    assert (s["bag"] - bag).tolist() == [1, 0, 0, 2]  # discarded cubes (beige too) go to the bag


def test_sacrifice_pays_one_coloured_or_two_beige():
    st = scenario(stalls={0: (0, (0, 0, 1, 1))}, temple=[(GREY, 1)], deck=[R.JUPITER])
    play(st, take(GREY, 1), EXECUTE, YES)
    assert legal(st) == {cube(0, PURPLE)}  # one beige cube is not enough for a card


def test_sacrifice_must_keep_at_least_one_card():
    st = scenario(stalls={0: (0, (3, 0, 0, 0))}, temple=[(GREY, 2)], deck=[R.MARS, R.VENUS])
    play(st, take(GREY, 2), EXECUTE)
    assert legal(st) == {YES, NO}
    play(st, NO)
    assert legal(st) == {YES}
    play(st, YES, cube(0, PINK))
    assert rec(st)["hand"][0].tolist() == [0, 0, 0, 0, 0, 1, 0, 0, 0]


@pytest.mark.parametrize(("cubes", "ok"), [((0, 0, 0, 1), False), ((0, 0, 0, 2), True), ((0, 1, 0, 0), True)])
def test_sacrifice_illegal_without_cubes_for_one_card(cubes, ok):
    st = scenario(stalls={0: (0, cubes)}, temple=[(GREY, 2)])
    play(st, take(GREY, 2))
    assert (EXECUTE in legal(st)) is ok


@pytest.mark.parametrize(
    ("preset", "in_hand", "ok"), [(None, 4, False), (None, 3, True), ("quined2014", 3, False), ("quined2014", 2, True)]
)
def test_sacrifice_hand_limit(preset, in_hand, ok):
    hand = [R.VENUS, R.MARS, R.PLUTON, R.MARS][:in_hand]
    st = scenario(preset=preset, stalls={0: (0, (3, 3, 0, 0))}, temple=[(GREY, 3)], hands={0: hand})
    play(st, take(GREY, 3))
    assert (EXECUTE in legal(st)) is ok
    if ok:  # [assumption hand_limit_caps_keep] keep only up to the hand limit
        play(st, EXECUTE, YES)
        assert legal(st) == {NO}
        play(st, NO, NO, cube(0, PINK))
        assert rec(st)["hand_n"][0] == in_hand + 1


def test_sacrifice_reshuffles_the_discard_pile_when_the_deck_runs_out():
    st = scenario(stalls={0: (0, (3, 0, 0, 0))}, temple=[(GREY, 3)], deck=[R.JUPITER], hands={1: [R.MARS]})
    s = rec(st)
    assert s["deck_n"] == 1 and s["discard"].sum() == 53
    play(st, take(GREY, 3), EXECUTE)
    s = rec(st)
    assert s["drawn_n"] == 3 and s["drawn"][0] == R.JUPITER
    assert s["deck_n"] == 51 and s["discard"].sum() == 0


def test_sacrifice_illegal_when_no_card_can_be_drawn():
    st = scenario(
        overrides={"card_copies": "1,0,0,0,0,0,0,0,0"},
        stalls={0: (0, (3, 0, 0, 0))},
        temple=[(GREY, 3)],
        hands={1: [R.JUPITER]},
    )
    play(st, take(GREY, 3))
    assert EXECUTE not in legal(st)


# ==============================================================================================
# Customers
# ==============================================================================================
def test_customer_buys_all_cubes_of_its_colour():
    st = scenario(
        stalls={5: (0, (2, 0, 1, 1))},
        temple=[(BROWN, 3)],
        pawns=(6, 2, 10, 14),
        prices=(3, 2, 2, 1),
        markers=(2, 2, 2),
        money=10,
    )
    bag = rec(st)["bag"].copy()
    play(st, take(BROWN, 3), EXECUTE, move(PINK_CUSTOMER, CW))
    s = rec(st)
    assert s["pawn"][PINK_CUSTOMER] == 5
    assert s["money"][0] == 10 + 2 * 3  # temple price per cube
    assert s["fame"][0] == 2 * 2  # marker value read before it moves
    assert s["marker"].tolist() == [3, 2, 2]
    assert s["cubes"][5].tolist() == [0, 0, 1, 1]  # beige stays: the customer found its colour
    assert (s["bag"] - bag).tolist() == [2, 0, 0, 0]


def test_customer_marker_does_not_go_above_three():
    st = scenario(stalls={5: (0, (0, 1, 0, 0))}, temple=[(BROWN, 3)], pawns=(6, 2, 2, 14), markers=(2, 3, 2))
    play(st, take(BROWN, 3), EXECUTE, move(ORANGE_CUSTOMER, CW))
    s = rec(st)
    assert s["fame"][0] == 3 and s["marker"].tolist() == [2, 3, 2]


def test_customer_buys_beige_when_its_colour_is_missing():
    st = scenario(
        stalls={5: (0, (0, 3, 0, 2))},
        temple=[(BROWN, 3)],
        pawns=(6, 2, 10, 14),
        prices=(2, 2, 3, 1),  # pink 1 (the price tiles in some order)
        money=10,
    )
    harbour = rec(st)["harbour"].copy()
    play(st, take(BROWN, 3), EXECUTE, move(PINK_CUSTOMER, CW))
    s = rec(st)
    assert s["money"][0] == 14 and s["fame"][0] == 0
    assert s["marker"].tolist() == [2, 2, 2]
    assert s["cubes"][5].tolist() == [0, 3, 0, 0]
    assert (s["harbour"] - harbour).tolist() == [0, 0, 0, 2]  # sold beige go back to the harbour


@pytest.mark.parametrize(
    "stalls",
    [{5: (1, (3, 0, 0, 2))}, {5: (0, (0, 0, 0, 0))}, {}],
    ids=["another-players-stall", "empty-stall", "empty-space"],
)
def test_customer_elsewhere_does_nothing(stalls):
    st = scenario(stalls=stalls, temple=[(BROWN, 3)], pawns=(6, 2, 10, 14))
    before = st.record.copy()[0]
    play(st, take(BROWN, 3), EXECUTE, move(PINK_CUSTOMER, CW))
    s = rec(st)
    assert s["pawn"][PINK_CUSTOMER] == 5
    for field in ("money", "fame", "cubes", "marker", "bag", "harbour"):
        assert (s[field] == before[field]).all(), field


def test_pawns_move_either_way_around_the_ring():
    st = scenario(temple=[(BROWN, 3)], pawns=(2, 14, 1, 6))
    play(st, take(BROWN, 3), EXECUTE, move(PINK_CUSTOMER, CW))
    assert rec(st)["pawn"][PINK_CUSTOMER] == 1  # 14 + 3 wraps to 1
    st = scenario(temple=[(BROWN, 4)], pawns=(2, 14, 1, 6))
    play(st, take(BROWN, 4), EXECUTE, move(ORANGE_CUSTOMER, CCW))
    assert rec(st)["pawn"][ORANGE_CUSTOMER] == 13  # 1 - 4 wraps to 13


# ==============================================================================================
# Consul
# ==============================================================================================
def test_consul_at_an_empty_space_places_a_stall_for_5_and_moves_up_to_6_cubes():
    st = scenario(
        stalls={0: (0, (4, 0, 0, 1)), 8: (0, (0, 0, 0, 3)), 12: (1, (2, 0, 0, 0))},
        temple=[(BROWN, 2)],
        pawns=(2, 6, 10, 14),
        money=12,
    )
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))  # 2 -> 4, an empty space
    assert st.decision_name() == "place stall at consul" and legal(st) == {NO, YES}
    play(st, YES)
    s = rec(st)
    assert s["money"][0] == 7 and s["stall_owner"][4] == 0 and s["reserve"][0] == 3
    # only own cubes from other stalls
    assert legal(st) == {NO, cube(0, PINK), cube(0, BEIGE), cube(8, BEIGE)}
    play(st, cube(0, PINK), cube(0, PINK), cube(0, PINK), cube(0, PINK), cube(0, BEIGE), cube(8, BEIGE))
    s = rec(st)
    assert s["cubes"][4].tolist() == [4, 0, 0, 2]
    assert legal(st) == {NO}  # 6 cubes moved
    play(st, NO)
    assert st.current_player == 1


def test_consul_cube_moves_stop_at_the_chosen_number():
    st = scenario(stalls={0: (0, (4, 0, 0, 1))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14))
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW), YES, cube(0, PINK), NO)
    s = rec(st)
    assert s["cubes"][4].tolist() == [1, 0, 0, 0] and s["cubes"][0].tolist() == [3, 0, 0, 1]
    assert st.current_player == 1


@pytest.mark.parametrize("why", ["money", "no tiles", "declined"])
def test_consul_placement_needs_5_sesterces_and_a_tile(why):
    stalls = {0: (0, (1, 0, 0, 0))}
    if why == "no tiles":
        stalls = {sp: (0, (1, 0, 0, 0)) for sp in (0, 1, 3, 5, 7, 8)}
    st = scenario(stalls=stalls, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14), money=4 if why == "money" else 10)
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    if why == "declined":
        play(st, NO)
    s = rec(st)
    assert s["stall_owner"][4] == -1 and st.current_player == 1
    assert s["money"][0] == (4 if why == "money" else 10)


def test_consul_closes_an_empty_stall_then_offers_the_space():
    st = scenario(stalls={4: (1, (0, 0, 0, 0)), 8: (1, (1, 0, 0, 0))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14))
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    s = rec(st)
    assert s["stall_owner"][4] == -1 and s["reserve"][1] == 5 and s["f_closed"][1] == 1
    assert st.current_player == 0 and st.decision_name() == "place stall at consul"
    play(st, YES, NO)
    assert rec(st)["stall_owner"][4] == 0 and rec(st)["money"][0] == 15


def test_consul_never_closes_the_owners_last_stall():
    st = scenario(stalls={4: (1, (0, 0, 0, 0))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14), hands={1: [R.PLUTON]})
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    s = rec(st)
    assert s["stall_owner"][4] == 1 and s["hand"][1, R.PLUTON] == 1
    assert st.current_player == 1 and st.decision_name() == "turn"


def test_consul_closes_the_active_players_own_empty_stall():
    st = scenario(stalls={4: (0, (0, 0, 0, 0)), 8: (0, (1, 0, 0, 0))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14))
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    assert rec(st)["stall_owner"][4] == -1 and st.decision_name() == "place stall at consul"


def test_consul_tax_paid_in_full():
    st = scenario(3, stalls={4: (2, (1, 1, 0, 1))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14), money=(10, 10, 10))
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    assert st.current_player == 2 and st.decision_name() == "pay consul tax"
    assert legal(st) == {count(k) for k in range(4)}
    play(st, count(3))
    s = rec(st)
    assert s["money"][:3].tolist() == [10, 10, 7] and s["cubes"][4].tolist() == [1, 1, 0, 1]
    assert st.current_player == 1 and s["f_taxed"][2] == 3


def test_consul_tax_unpaid_costs_cubes_and_an_emptied_stall_stays_open():
    st = scenario(
        3,
        stalls={4: (2, (1, 0, 0, 1)), 8: (2, (1, 0, 0, 0))},
        temple=[(BROWN, 2)],
        pawns=(2, 6, 10, 14),
        money=(10, 10, 10),
    )
    bag = rec(st)["bag"].copy()
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW), count(0))
    assert st.current_player == 2 and st.decision_name() == "give up taxed cube"
    assert legal(st) == {colour(PINK), colour(BEIGE)}
    play(st, colour(BEIGE), colour(PINK))
    s = rec(st)
    assert s["cubes"][4].sum() == 0 and s["stall_owner"][4] == 2  # emptied by tax: stays open
    assert s["money"][2] == 10 and (s["bag"] - bag).tolist() == [1, 0, 0, 1]
    assert st.current_player == 1


def test_consul_tax_owner_who_cannot_pay_gives_cubes():
    st = scenario(3, stalls={4: (2, (3, 0, 0, 0))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14), money=(10, 10, 1))
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    assert legal(st) == {count(0), count(1)}
    play(st, count(1), colour(PINK), colour(PINK))
    s = rec(st)
    assert s["money"][2] == 0 and s["cubes"][4].tolist() == [1, 0, 0, 0]


def test_consul_taxes_the_active_players_own_stall():
    st = scenario(stalls={4: (0, (2, 0, 0, 0))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14), money=10)
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    assert st.current_player == 0 and st.decision_name() == "pay consul tax"
    play(st, count(2))
    assert rec(st)["money"][0] == 8


@pytest.mark.parametrize("cubes", [(2, 0, 0, 0), (0, 0, 0, 0)], ids=["tax", "closure"])
def test_pluton_is_played_by_the_owner_on_another_players_turn(cubes):
    stalls = {4: (2, cubes), 8: (2, (1, 0, 0, 0))}
    st = scenario(3, stalls=stalls, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14), hands={2: [R.PLUTON]}, money=10)
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW))
    assert st.current_player == 2 and st.decision_name() == "play Pluton"
    assert legal(st) == {NO, YES}
    play(st, YES)
    s = rec(st)
    assert s["hand"][2, R.PLUTON] == 0 and s["discard"][R.PLUTON] >= 1 and s["f_played"][2, R.PLUTON] == 1
    assert s["stall_owner"][4] == 2 and s["cubes"][4].tolist() == list(cubes) and s["money"][2] == 10
    assert st.current_player == 1 and st.decision_name() == "turn"  # seat 0's turn is over


def test_pluton_declined_then_tax_applies():
    st = scenario(3, stalls={4: (2, (2, 0, 0, 0))}, temple=[(BROWN, 2)], pawns=(2, 6, 10, 14), hands={2: [R.PLUTON]})
    play(st, take(BROWN, 2), EXECUTE, move(CONSUL, CW), NO)
    assert st.current_player == 2 and st.decision_name() == "pay consul tax"
    assert rec(st)["hand"][2, R.PLUTON] == 1


# ==============================================================================================
# Deity cards
# ==============================================================================================
def test_jupiter_changes_the_action_without_a_token():
    st = scenario(temple=[(GREY, 3)], hands={0: [R.JUPITER]}, pawns=(2, 6, 10, 14))
    play(st, take(GREY, 3))
    assert change_jupiter(BROWN) in legal(st)
    play(st, change_jupiter(BROWN), EXECUTE, move(PINK_CUSTOMER, CW))
    s = rec(st)
    assert s["tokens"][0] == 0 and s["hand"][0, R.JUPITER] == 0 and s["discard"][R.JUPITER] >= 1
    assert s["pawn"][PINK_CUSTOMER] == 9


def test_junon_takes_a_second_die_of_the_same_colour_without_a_token():
    st = scenario(temple=[(BROWN, 2), (BROWN, 3), (BLACK, 4)], hands={0: [R.JUNON]}, pawns=(2, 6, 10, 14))
    play(st, take(BROWN, 2))
    acts = legal(st)
    assert extra_junon(BROWN, 3) in acts and extra_junon(BLACK, 4) not in acts
    play(st, extra_junon(BROWN, 3), EXECUTE, move(PINK_CUSTOMER, CW))
    s = rec(st)
    assert s["tokens"][0] == 0 and s["hand"][0, R.JUNON] == 0 and s["pawn"][PINK_CUSTOMER] == 11


@pytest.mark.parametrize(
    ("die", "action", "card"),
    [
        (BROWN, BROWN, R.MINERVE),
        (BEIGE_DIE, BEIGE_DIE, R.NEPTUNE),
        (BLACK, BLACK, R.PHOEBUS),
        (BLACK, BROWN, R.MINERVE),
        (BROWN, BEIGE_DIE, R.NEPTUNE),
        (GREY, BLACK, R.PHOEBUS),
    ],
)
def test_free_plus_minus_card_follows_the_action_performed(die, action, card):
    others = [t for t in (R.MINERVE, R.NEPTUNE, R.PHOEBUS) if t != card]
    for hand, expected in (([card], True), (others, False)):
        st = scenario(stalls={0: (0, (0, 0, 0, 0))}, temple=[(die, 3)], hands={0: hand}, money=30)
        play(st, take(die, 3))
        if action != die:
            play(st, change_token(action))
        assert bool(mod_cards(st)) is expected, (hand, expected)
        if expected:
            assert mod_cards(st) == {mod_card(0, False), mod_card(0, True)}
            play(st, mod_card(0, True))
            s = rec(st)
            assert s["act_val"][0] == 4 and s["hand"][0, card] == 0 and s["discard"][card] >= 1


def test_no_free_card_for_the_sacrifice_action():
    st = scenario(stalls={0: (0, (3, 0, 0, 0))}, temple=[(GREY, 3)], hands={0: [R.MINERVE, R.NEPTUNE, R.PHOEBUS]})
    play(st, take(GREY, 3))
    assert mod_cards(st) == set()


def test_free_card_wraps_six_to_one():
    st = scenario(temple=[(BROWN, 6)], hands={0: [R.MINERVE]}, pawns=(2, 6, 10, 14))
    play(st, take(BROWN, 6), mod_card(0, True))
    assert rec(st)["act_val"][0] == 1 and rec(st)["tokens"][0] == 0


@pytest.mark.parametrize(("held", "left"), [(3, 1), (2, 0), (1, 0)])
def test_venus_returns_up_to_two_tokens(held, left):
    st = scenario(temple=[(BROWN, 2)], hands={0: [R.VENUS]}, tokens={0: held})
    assert R.A_VENUS in legal(st)
    play(st, R.A_VENUS)
    s = rec(st)
    assert s["tokens"][0] == left and s["supply"] == 40 - left and s["hand"][0, R.VENUS] == 0
    assert st.current_player == 0 and st.decision_name() == "turn"  # a card is not the turn's action


@pytest.mark.parametrize(("held", "returned", "left"), [(3, 1, 2), (2, 1, 1)])
def test_venus_may_return_just_one_token(held, returned, left):
    """Rules: a Venus returns *at most* 2 penalty tokens, so returning only one is offered too."""
    st = scenario(temple=[(BROWN, 2)], hands={0: [R.VENUS]}, tokens={0: held})
    assert R.A_VENUS_FEWER in legal(st) and R.ACTIONS.encode("venus_fewer", 1) not in legal(st)
    assert "return only 1 penalty token" in st.describe(R.A_VENUS_FEWER)
    play(st, R.A_VENUS_FEWER)
    s = rec(st)
    assert s["tokens"][0] == left and s["supply"] == 40 - left and s["hand"][0, R.VENUS] == 0
    assert returned == held - left


def test_venus_with_one_token_offers_no_choice_of_how_many():
    st = scenario(temple=[(BROWN, 2)], hands={0: [R.VENUS]}, tokens={0: 1})
    assert R.A_VENUS in legal(st) and R.A_VENUS_FEWER not in legal(st)


def test_venus_needs_a_token_to_return():
    st = scenario(temple=[(BROWN, 2)], hands={0: [R.VENUS]})
    assert R.A_VENUS not in legal(st)


def test_mercure_changes_a_price_until_the_end_of_the_turn():
    st = scenario(
        stalls={5: (0, (2, 0, 0, 0))},
        temple=[(BROWN, 3)],
        hands={0: [R.MERCURE]},
        pawns=(6, 2, 10, 14),
        prices=(2, 3, 1, 2),
        money=10,
    )
    acts = legal(st)
    assert mercure(LOC_TEMPLE, True) in acts and mercure(LOC_TEMPLE, False) in acts
    assert mercure(LOC_PURPLE, True) not in acts and mercure(LOC_ORANGE, False) not in acts  # within 1..3
    assert mercure(LOC_PURPLE, False) in acts and mercure(LOC_PINK, True) in acts
    play(st, mercure(LOC_TEMPLE, True))
    assert rec(st)["price_mod"].tolist() == [1, 0, 0, 0] and st.decision_name() == "turn"
    play(st, take(BROWN, 3), EXECUTE, move(PINK_CUSTOMER, CW))
    s = rec(st)
    assert s["money"][0] == 10 + 2 * 3  # the temple price was 3 during the turn
    assert s["price"].tolist() == [2, 3, 1, 2] and s["price_mod"].tolist() == [0, 0, 0, 0]
    assert s["hand"][0, R.MERCURE] == 0


def test_mercure_on_a_harbour_tile_changes_the_purchase_price():
    st = scenario(
        stalls={0: (0, (0, 0, 0, 0))},
        temple=[(BEIGE_DIE, 2)],
        hands={0: [R.MERCURE]},
        prices=(2, 2, 1, 3),  # pink at 3
        money=3,
        tokens={1: 40},
    )
    play(st, take(BEIGE_DIE, 2), EXECUTE)
    assert legal(st) == {colour(ORANGE), colour(PURPLE)}  # pink at 3 + 1 beige is too dear for 3 sesterces
    st = scenario(
        stalls={0: (0, (0, 0, 0, 0))},
        temple=[(BEIGE_DIE, 2)],
        hands={0: [R.MERCURE]},
        prices=(2, 2, 1, 3),
        money=3,
        tokens={1: 40},
    )
    play(st, mercure(LOC_PINK, False), take(BEIGE_DIE, 2), EXECUTE)
    assert legal(st) == {colour(ORANGE), colour(PURPLE), colour(PINK)}
    play(st, colour(PINK), count(1), space(0), space(0))
    assert rec(st)["money"][0] == 0 and rec(st)["price"][LOC_PINK] == 3


def test_mercure_reverts_when_the_player_passes():
    st = scenario(temple=[(BROWN, 3)], hands={0: [R.MERCURE]}, prices=(2, 3, 1, 2))
    play(st, mercure(LOC_PINK, True), PASS)
    assert rec(st)["price_mod"].tolist() == [0, 0, 0, 0]


def test_cards_are_played_only_on_ones_own_turn_except_pluton():
    st = scenario(3, temple=[(BROWN, 3)], hands={1: [R.VENUS, R.MERCURE, R.JUPITER]}, tokens={1: 2})
    assert st.current_player == 0
    assert not {a for a in legal(st) if R.A_VENUS <= a < R.A_TAKE}  # seat 1's cards wait for its turn


def test_a_full_hand_must_play_a_card_before_a_sacrifice():
    hand = [R.JUPITER, R.MARS, R.MARS, R.PLUTON]
    st = scenario(stalls={0: (0, (3, 0, 0, 0))}, temple=[(BROWN, 3)], hands={0: hand})
    play(st, take(BROWN, 3))
    acts = legal(st)
    assert change_token(GREY) not in acts  # a token leaves 4 cards in hand
    assert change_jupiter(GREY) in acts  # playing Jupiter makes room for the sacrifice it allows
    play(st, change_jupiter(GREY), EXECUTE, YES)
    assert legal(st) == {NO}  # [assumption hand_limit_caps_keep] room for one card only
    play(st, NO, NO, cube(0, PINK))
    assert rec(st)["hand_n"][0] == 4
    # Venus (or any card with an effect) played first works as well
    st = scenario(stalls={0: (0, (3, 0, 0, 0))}, temple=[(GREY, 3)], hands={0: [R.VENUS, *hand[1:]]}, tokens={0: 1})
    play(st, take(GREY, 3))
    assert EXECUTE not in legal(st)
    play(st, R.A_VENUS)
    assert EXECUTE in legal(st)


# ==============================================================================================
# Passing and the turn order
# ==============================================================================================
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pass_tiles_and_the_new_turn_order(players):
    st = scenario(players, temple=[(BROWN, 3)], money=10)
    for i in range(players):
        assert st.current_player == i
        play(st, PASS)
    s = rec(st)
    tiles = [*TILES[players], 0]
    assert s["money"][:players].tolist() == [10 + t for t in tiles]
    assert s["f_pass_money"][:players].tolist() == tiles
    # last passer first, then by tile value ascending
    assert s["order"][:players].tolist() == [players - 1, *range(players - 2, -1, -1)]
    assert s["round_no"] == 2


def test_players_who_have_not_passed_keep_acting():
    st = scenario(4, temple=[(BROWN, 3), (BROWN, 4), (BROWN, 5)], pawns=(2, 6, 10, 14), money=0)
    seq = []

    def act(a, *more):
        seq.append(st.current_player)
        play(st, a, *more)

    act(PASS)  # seat 0: tile 4
    act(take(BROWN, 3), EXECUTE, move(PINK_CUSTOMER, CW))  # seat 1
    act(PASS)  # seat 2: tile 3
    act(PASS)  # seat 3: tile 2
    act(take(BROWN, 4), EXECUTE, move(PINK_CUSTOMER, CW))  # seat 1 again
    act(take(BROWN, 5), EXECUTE, move(PINK_CUSTOMER, CW))  # and again
    act(PASS)  # seat 1 passes last: no tile
    assert seq == [0, 1, 2, 3, 1, 1, 1]
    s = rec(st)
    assert s["money"][:4].tolist() == [4, 0, 3, 2]
    assert s["order"][:4].tolist() == [1, 3, 2, 0]


@pytest.mark.parametrize("to_screen", [True, False])
def test_kept_dice_unused_at_a_pass(to_screen):
    st = scenario(2, overrides={"kept_dice_to_screen_on_pass": to_screen}, kept={0: [(BLACK, 4), (GREY, 1)]}, money=10)
    s = rec(st)
    screen, temple = s["screen"][0].copy(), s["temple"].copy()
    play(st, PASS)
    s = rec(st)
    assert s["kept"][0].sum() == 0
    if to_screen:  # [assumption] behind the screen
        assert (s["screen"][0] - screen).tolist() == [1, 0, 1, 0]
    else:
        assert s["temple"][BLACK, 3] == temple[BLACK, 3] + 1 and s["temple"][GREY, 0] == temple[GREY, 0] + 1


# ==============================================================================================
# End of game and scoring
# ==============================================================================================
def final_state(players, stalls_by_seat, fame, money, tokens):
    """The last round: every seat passes in seat order; ``money`` is the money after the pass income."""
    income = [*TILES[players], 0]
    spaces = iter(range(16))
    stalls = {next(spaces): (p, (0, 0, 0, 0)) for p in range(players) for _ in range(stalls_by_seat[p])}
    st = scenario(
        players,
        round_=7,
        stalls=stalls,
        fame=dict(enumerate(fame)),
        money=[m - i for m, i in zip(money, income, strict=False)],
        tokens=dict(enumerate(tokens)),
    )
    pass_all(st)
    assert st.is_terminal()
    assert rec(st)["money"][:players].tolist() == list(money)
    return st


@pytest.mark.parametrize(("n_stalls", "points"), [(0, 0), (1, 0), (2, 4), (3, 9), (4, 16), (5, 25), (6, 25)])
def test_stall_points(n_stalls, points):
    st = final_state(2, [n_stalls, 1], fame=[0, 0], money=[2, 0], tokens=[0, 0])
    assert rec(st)["score"][0] == points


@pytest.mark.parametrize(("money", "points"), [(2, 0), (3, 1), (5, 1), (6, 2), (17, 5)])
def test_one_point_per_three_sesterces(money, points):
    st = final_state(2, [1, 1], fame=[10, 0], money=[money, 0], tokens=[0, 0])
    assert rec(st)["score"][0] == 10 + points


def test_final_score_formula_and_facts():
    st = final_state(3, [3, 1, 2], fame=[10, 5, 7], money=[12, 8, 3], tokens=[1, 0, 3])
    out = st.outcome()
    assert out.scores == (10 + 9 + 4 - 2, 5 + 0 + 2, 7 + 4 + 1 - 6)
    assert out.ranks == (1, 2, 3) and out.win_shares == (1.0, 0.0, 0.0)
    facts = st.fact_columns()
    assert facts["final_stalls"] == [3, 1, 2] and facts["final_tokens"] == [1, 0, 3]


@pytest.mark.parametrize(
    ("stalls", "fame", "money", "tokens", "ranks", "shares"),
    [
        # equal score: more stalls wins (9 + 0 vs 4 + 5)
        ([3, 2], [0, 5], [2, 2], [0, 0], (1, 2), (1.0, 0.0)),
        # equal score and stalls: more sesterces (5 and 3 both give 1 point)
        ([2, 2], [0, 0], [3, 5], [0, 0], (2, 1), (0.0, 1.0)),
        # then fewer penalty tokens
        ([2, 2], [2, 0], [3, 3], [1, 0], (2, 1), (0.0, 1.0)),
        # a tie that survives everything is shared
        ([2, 2], [3, 3], [4, 4], [1, 1], (1, 1), (0.5, 0.5)),
    ],
    ids=["stalls", "sesterces", "tokens", "shared"],
)
def test_tie_breaks(stalls, fame, money, tokens, ranks, shares):
    st = final_state(2, stalls, fame, money, tokens)
    out = st.outcome()
    assert out.scores[0] == out.scores[1]
    assert out.ranks == ranks and out.win_shares == shares


def test_shared_win_among_three_of_four():
    st = final_state(4, [2, 2, 2, 1], fame=[1, 1, 1, 0], money=[4, 4, 4, 0], tokens=[0, 0, 0, 0])
    out = st.outcome()
    assert out.ranks == (1, 1, 1, 4)
    assert out.win_shares == pytest.approx((1 / 3, 1 / 3, 1 / 3, 0.0))
    assert sum(out.win_shares) == pytest.approx(1.0)


# ==============================================================================================
# The rulebook's worked examples
# ==============================================================================================
# Each is set up with the position builder (``simlab.games.massilia.position``) as the rulebook tells
# it: 2 players, seat 1's stall far off on space 12, price tiles temple 2, purple 2, orange 1, pink 3
# unless the example says otherwise.
PRICES = {"temple": 2, "purple": 2, "orange": 1, "pink": 3}
FAR = {12: (1, [])}  # seat 1's stall, out of every example's way


def test_example_1_beige_5_with_neptune_buys_2_purple_and_2_beige():
    st = position(
        players=2,
        stalls={0: (0, []), **FAR},
        temple=[("beige", 5)],
        hands={0: ["neptune"]},
        prices=PRICES,  # purple harbour tile 2
        money=10,
    )
    play(st, take(BEIGE_DIE, 5), mod_card(0, False))
    assert rec(st)["act_val"][0] == 4
    play(st, EXECUTE, colour(PURPLE), count(2), space(0), space(0), space(0), space(0))
    s = rec(st)
    assert s["money"][0] == 10 - 6 and s["cubes"][0].tolist() == [0, 0, 2, 2]
    assert s["marker"][PURPLE] == 1 and s["hand_n"][0] == 0 and s["discard"][R.NEPTUNE] >= 1


def test_example_2_brown_4_with_a_token_moves_the_purple_customer_3():
    st = position(
        players=2,
        stalls={3: (0, ["purple"]), **FAR},
        temple=[("brown", 4)],
        pawns={"consul": 2, "pink customer": 6, "orange customer": 10, "purple customer": 0},
        prices=PRICES,
        money=5,
    )
    play(st, take(BROWN, 4), mod_token(0, False), EXECUTE, move(PURPLE_CUSTOMER, CW))
    s = rec(st)
    assert s["tokens"][0] == 1 and s["pawn"][PURPLE_CUSTOMER] == 3
    assert s["money"][0] == 5 + 2 and s["fame"][0] == 2 and s["cubes"][3].sum() == 0


def test_example_3_brown_3_with_minerve_and_a_token_sells_2_purple():
    st = position(
        players=2,
        stalls={7: (0, {"purple": 2}), **FAR},
        temple=[("brown", 3)],
        hands={0: ["minerve"]},
        pawns={"consul": 2, "pink customer": 10, "orange customer": 14, "purple customer": 6},
        prices={"temple": 2, "purple": 1, "orange": 3, "pink": 2},
        money=0,
    )
    play(st, take(BROWN, 3), mod_card(0, False), mod_token(0, False))
    assert rec(st)["act_val"][0] == 1
    play(st, EXECUTE, move(PURPLE_CUSTOMER, CW))
    s = rec(st)
    assert s["money"][0] == 4 and s["fame"][0] == 4 and s["marker"][PURPLE] == 3
    assert s["tokens"][0] == 1 and s["hand"][0, R.MINERVE] == 0


def test_example_4_consul_at_an_empty_space():
    st = position(
        players=2,
        stalls={0: (0, {"pink": 2}), **FAR},
        temple=[("brown", 1)],
        pawns={"consul": 2, "pink customer": 6, "orange customer": 10, "purple customer": 14},
        money=5,
    )
    play(st, take(BROWN, 1), EXECUTE, move(CONSUL, CW), YES, cube(0, PINK), NO)
    s = rec(st)
    assert s["stall_owner"][3] == 0 and s["money"][0] == 0 and s["cubes"][3].tolist() == [1, 0, 0, 0]


def test_example_5_jupiter_minerve_and_mercure_in_one_turn():
    st = position(
        players=2,
        stalls={9: (0, ["orange"]), **FAR},
        temple=[("grey", 4)],
        hands={0: ["jupiter", "minerve", "mercure"]},
        pawns={"consul": 2, "pink customer": 6, "orange customer": 6, "purple customer": 14},
        prices={"temple": 2, "purple": 1, "orange": 3, "pink": 2},
        money=0,
    )
    play(st, take(GREY, 4), change_jupiter(BROWN), mod_card(0, False), mercure(LOC_TEMPLE, True), EXECUTE)
    play(st, move(ORANGE_CUSTOMER, CW))  # 6 + 3 = 9
    s = rec(st)
    assert s["money"][0] == 3 and s["fame"][0] == 2
    assert s["hand_n"][0] == 0 and s["tokens"][0] == 0
    assert s["price"][LOC_TEMPLE] == 2 and s["price_mod"][LOC_TEMPLE] == 0


def test_example_6_black_die_for_the_move_action_minerve_yes_phoebus_no():
    st = position(
        players=2,
        stalls={0: (0, []), **FAR},
        temple=[("black", 3)],
        hands={0: ["minerve", "phoebus"]},
        pawns={"consul": 2, "pink customer": 6, "orange customer": 10, "purple customer": 14},
        money=20,
    )
    play(st, take(BLACK, 3))
    assert mod_cards(st)  # as a fame action, Phoebus may modify it
    play(st, change_token(BROWN))
    play(st, mod_card(0, True))
    s = rec(st)
    assert s["hand"][0, R.MINERVE] == 0 and s["hand"][0, R.PHOEBUS] == 1  # Minerve was the card played
    assert mod_cards(st) == set()  # Phoebus cannot modify a move
    play(st, EXECUTE, move(PINK_CUSTOMER, CW))
    assert rec(st)["pawn"][PINK_CUSTOMER] == 10


# ==============================================================================================
# The shortcut "use die as rolled" equals "take die" + "execute"
# ==============================================================================================
@pytest.mark.parametrize(
    ("die", "value", "then"),
    [
        (BROWN, 3, [move(PINK_CUSTOMER, CW)]),
        (BLACK, 2, []),
        (BEIGE_DIE, 2, [colour(ORANGE), count(1), space(0), space(0)]),
        (GREY, 1, [YES, cube(0, PINK)]),
    ],
)
def test_take_and_execute_shortcut(die, value, then):
    kw = dict(stalls={0: (0, (2, 0, 0, 0)), 5: (0, (1, 0, 0, 0))}, temple=[(die, value)], pawns=(2, 2, 10, 14))
    a = play(scenario(**kw), take(die, value), EXECUTE, *then)
    short = R.ACTIONS.encode("take_exec", 0, die, value - 1)
    st = scenario(**kw)
    assert short in legal(st)
    b = play(st, short, *then)
    ra, rb = rec(a), rec(b)
    for field in ra.dtype.names:
        if field not in ("decisions", "act_col", "act_val", "act_action"):
            assert np.array_equal(ra[field], rb[field]), field
    assert ra["decisions"] == rb["decisions"] + 1


# ==============================================================================================
# Errors
# ==============================================================================================
def test_illegal_action_is_refused_and_names_the_decision():
    st = scenario(temple=[(BROWN, 3)])
    st.legal_actions()  # (the query itself rewrites scratch fields of the die in hand; see test_contract)
    before = st.record.copy()
    with pytest.raises(IllegalActionError, match=r"massilia .*seed 0.*'turn'.*seat 0"):
        st.apply(take(BROWN, 4))
    assert st.record.tobytes() == before.tobytes()
