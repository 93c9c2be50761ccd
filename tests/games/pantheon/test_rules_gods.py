"""Three rules the engine once broke (issue 31), each set up as the rulebook would, on the position builder:
a used Surparit is boxed and never brings itself back; the bonus-tile draft shows all 6 tiles; a Gaiviles
jump clears one hex, its piece landing next to it before any further jump."""

from __future__ import annotations

import numpy as np

from simlab.games.pantheon import rules as R
from simlab.games.pantheon.checks import invariants
from simlab.games.pantheon.game import GAME, PantheonState
from simlab.games.pantheon.position import position

from .helpers import STOP, act, neighbours, play

SACRIFICE_HAND = {"gifts": 6, "priests": 6, "dancers": 6, "temples": 6}


def take_god(st, slot):
    """The god action on display ``slot``, paying each group with the first kind the hand allows."""
    play(st, R.A_GOD, act("slot", slot))
    while st.record[0]["phase"] == R.PH_GOD_PAY:
        play(st, int(st.legal_actions()[0]))


def tiles_of(st, god):
    cf = st.cfg[0]
    return [t for t in range(R.NGOD) if int(cf["tile_god"][t]) == god]


def surparit_display(boxed: tuple[int, ...] = ()) -> tuple[PantheonState, list[int]]:
    """Era 3, four players, the display Surparit x4 and a Gadicea, no face-down god, seat 0 holding 6 of each
    sacrifice card; every other tile owned by seats 1-3 except ``boxed`` (left in the box). Also the Surparits."""
    base = position(0, players=4, era=3)
    surparits = tiles_of(base, R.SURPARIT)
    gadicea = tiles_of(base, R.GADICEA)[0]
    others = [t for t in range(R.NGOD) if t not in surparits and t != gadicea and t not in boxed]
    st = position(
        0,
        players=4,
        era=3,
        face_up=[*surparits, gadicea],
        gods={1: others[:12], 2: others[12:24], 3: others[24:]},
        god_stack=[],
        hands={0: SACRIFICE_HAND},
    )
    return st, surparits


def test_surparit_with_an_empty_stack_and_box_gives_only_its_era_points_and_is_boxed():
    """Era 3, four players, the display Surparit x4 and a Gadicea; no face-down god and none boxed (every other
    tile owned): the Surparit taken scores 3 and has no further god to take — it may not take itself back."""
    st, surparits = surparit_display()
    s = st.record[0]
    assert s["god_n"] == 0 and not np.any(s["god_loc"] == R.L_BOX)
    take_god(st, 0)
    assert s["f_points_src"][0, R.P_GODS] == 3 and s["points"][0] == 3
    assert s["f_gods_route"][0, R.SURPARIT, R.R_SURPARIT] == 0 and s["f_gods_route"][0, R.SURPARIT, R.R_ACTION] == 1
    assert s["god_loc"][surparits[0]] == R.L_BOX and s["god_n"] == 0 and s["f_god_reshuffles"] == 0
    invariants(s, st.config)


def test_surparit_with_an_empty_stack_takes_its_further_god_from_the_boxed_ones_not_itself():
    """The same display with one Stonkus boxed: the empty stack is refilled from the box before the Surparit
    goes there, so the further god is the Stonkus (3 + 3 points) and the Surparit stays boxed."""
    stonkus, *_ = tiles_of(position(0, players=4, era=3), R.STONKUS)
    st, surparits = surparit_display(boxed=(stonkus,))
    s = st.record[0]
    assert s["god_loc"][stonkus] == R.L_BOX
    take_god(st, 0)
    assert s["points"][0] == 6 and s["f_gods_route"][0, R.STONKUS, R.R_SURPARIT] == 1
    assert s["god_owner"][stonkus] == 0 and s["god_loc"][surparits[0]] == R.L_BOX
    assert s["f_gods_route"][0, R.SURPARIT].sum() == 1 and s["f_god_reshuffles"] == 1
    invariants(s, st.config)


def test_the_bonus_draft_shows_all_six_tiles_so_every_pick_has_a_choice():
    """Variant: the 6 bonus tiles face up, chosen in reverse turn order after the era-1 set-up (4 players:
    6, 5, 4, 3 choices); the 2 nobody chose go back to the box."""
    config = GAME.make_config(players=4, overrides={"bonus_draft": True})
    st = GAME.new_state(config, 3)
    s = st.record[0]
    choices = []
    while not (len(choices) == 4 and s["phase"] == R.PH_ACTION):  # to the first action of era 1
        legal = st.legal_actions()
        if s["phase"] == R.PH_BONUS_PICK:
            choices.append(len(legal))
            assert len(legal) == int(np.sum(s["bonus_face"] >= 0))
        play(st, int(legal[0]))
        invariants(s, config)
    assert choices == [6, 5, 4, 3]
    assert not np.any(s["bonus_face"] >= 0) and all(int(s["f_bonus_tile"][p]) >= 0 for p in range(4))
    assert int(s["bonus_box"].sum() + s["bonus_kept"].sum()) == 6


def jump_chain(st):
    """Temple - a - b - c, a straight-ish chain of plain land hexes: a next to the temple, b next to a, c next
    to b but not to a or the temple; and y, a free landing next to a (not b)."""
    cf, s = st.cfg[0], st.record[0]
    t = int(s["temple"])

    def plain(h):
        return not cf["column_space"][h] and cf["start_nation"][h] < 0 and h != t

    for a in neighbours(st, t):
        for b in neighbours(st, a):
            for c in neighbours(st, b):
                ys = [y for y in neighbours(st, a) if plain(y) and y not in (b, c) and y not in neighbours(st, t)]
                near = {a, t, *neighbours(st, a), *neighbours(st, t)}
                if all(plain(h) for h in (a, b, c)) and c not in near and b != t and ys:
                    return a, b, c, ys[0]
    raise AssertionError("no temple - a - b - c chain on this map")


def gaiviles_position(**kw):
    base = position(0, players=2, nation="Iberia")
    a, b, c, y = jump_chain(base)
    st = position(
        0,
        players=2,
        nation="Iberia",
        gods={0: ["Gaiviles", "Gaiviles"]},
        steps_tiles={0: 1},
        pieces={1: {"feet": [a, b]}},
        loot={},
        **kw,
    )
    return st, (a, b, c, y)


def test_two_gaiviles_may_not_clear_two_hexes_in_one_go():
    """«egyszerre 1-nél több mezőt nem ugorhat át»: with two Gaiviles and 2 steps (big foot + a steps tile),
    jump, jump, then a foot beyond both is illegal: after a jump the next piece lands next to the hex jumped."""
    st, (a, b, c, _y) = gaiviles_position()
    play(st, R.A_MOVE, act("count", 0))
    assert act("jump", a) in st.legal_actions()
    play(st, act("jump", a))
    legal = st.legal_actions()
    assert act("jump", b) not in legal and act("foot", c) not in legal and STOP not in legal
    places = [x for x in legal if x < R.A_JUMP]
    assert places and all(a in neighbours(st, x % R.MAX_HEX) for x in places)


def test_a_second_jump_follows_the_first_ones_landing():
    """Jump a, land next to it (1 step), then the second Gaiviles jumps b from a and lands beyond it (1 step)."""
    st, (a, b, c, y) = gaiviles_position()
    play(st, R.A_MOVE, act("count", 0), act("jump", a), act("foot", y))
    assert act("jump", b) in st.legal_actions() and STOP in st.legal_actions()
    play(st, act("jump", b))
    assert act("foot", c) in st.legal_actions()
    play(st, act("foot", c))
    s = st.record[0]
    assert s["occ"][y, 0] == 0 and s["occ"][c, 0] == 0 and s["steps_left"] == 0 and s["jumped"] == -1
    invariants(s, st.config)


def test_a_jump_needs_a_landing_the_steps_left_can_pay():
    """1 step (the big foot only), no column in stock and a rival foot on every hex next to a (each costs 2
    there): no jump over a; with a free hex next to a, the jump is legal."""
    base, (a, _b, _c, _y) = gaiviles_position()
    cf, temple = base.cfg[0], int(base.record[0]["temple"])
    around = [x for x in neighbours(base, a) if x != temple and not cf["column_space"][x]]
    for free, legal in (([], False), (around[:1], True)):
        st = position(
            0,
            players=2,
            nation="Iberia",
            gods={0: ["Gaiviles"]},
            pieces={1: {"feet": [a, *[x for x in around if x not in free]]}},
            stock={0: (4, 0)},
            loot={},
        )
        play(st, R.A_MOVE, act("count", 0))
        assert st.record[0]["steps_left"] == 1 and (act("jump", a) in st.legal_actions()) == legal
