"""Movement rules: heading and drive before the roll, speed and thrust dice, pilot-level assignments, line
costs, no backtracking, drives, landing, asteroids, navigation spaces, hazards."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.position import edge_to, force, position, space

TO_COLONY = ["gb_cw_1", "gb_cw_2", "gb_cw_3", "gb_cw_4", "cw_loop_6", "cw_loop_5", "cw_loop_4", "Southern Comfort"]


def test_thrust_example_galactic_base_to_colony_world():
    """The seed's example: 4, 2, 1 = 7 MP, short of the 9 needed; the 1 goes to thrust, a 4th die of 5
    makes 12 and the ship reaches a Colony World city."""
    st = position(0, overrides={"players": 2})
    force(st, 4, 2, 1)
    st.apply(R.A_GO)
    s = st.record[0]
    assert st.decision_name() == "assign dice" and int(s["mp"]) == 7
    legal = st.legal_actions()
    assert (
        R.ACTIONS.encode("thrust", 2) in legal
        and R.ACTIONS.encode("thrust", 0) not in legal
        and R.ACTIONS.encode("thrust", 1) not in legal
    )
    force(st, 5)
    st.apply(R.ACTIONS.encode("thrust", 2))
    assert int(s["mp"]) == 12 and int(s["dice_n"]) == 4
    assert not any(R.A_THRUST <= a < R.A_NAV for a in st.legal_actions()), "a level-1 pilot has one assignment"
    st.apply(R.A_DONE)
    for name in TO_COLONY:
        st.apply(edge_to(st, name))
    assert int(s["pos"][0]) == space(st, "Southern Comfort") and int(s["mp"]) == 3
    assert R.A_LAND in st.legal_actions()
    st.apply(R.A_LAND)
    assert st.decision_name() == "trade"


def test_thrust_die_values_knob_allows_a_2():
    st = position(0, overrides={"players": 2, "thrust_die_values": "1,2"})
    force(st, 4, 2, 1)
    st.apply(R.A_GO)
    assert {R.ACTIONS.encode("thrust", 1), R.ACTIONS.encode("thrust", 2)} <= set(st.legal_actions())


def test_no_more_than_four_speed_dice_and_pilot_level_assignments():
    st = position(0, overrides={"players": 2}, pilot={0: 3}, techs={0: []})
    force(st, 1, 1, 1, 1)
    st.apply(R.A_GO)
    st.apply(R.ACTIONS.encode("thrust", 0))
    thrusts = [a for a in st.legal_actions() if R.A_THRUST <= a < R.A_NAV]
    assert thrusts == [], "a fourth die is the most; thrust is one die place"
    st.apply(R.ACTIONS.encode("nav", 1))
    assert not any(R.A_NAV <= a < R.A_BUY_GOOD for a in st.legal_actions()), "one die per die place"


def test_heading_is_declared_before_the_roll_and_the_ship_follows_it():
    st = position(0, overrides={"players": 2}, at={0: "cw_loop_4"}, came_from={0: "cw_loop_5"})
    st.apply(R.A_GO)
    assert st.decision_name() == "declare the heading"
    force(st, 1, 1, 2)
    st.apply(edge_to(st, "Southern Comfort"))
    s = st.record[0]
    assert int(s["mp"]) == 4
    st.apply(R.A_DONE)
    assert st.legal_actions() == [edge_to(st, "Southern Comfort")], "the first edge is the declared heading"
    st.apply(edge_to(st, "Southern Comfort"))
    assert int(s["mp"]) == 2, "a green line costs 2 MP"
    assert R.A_LAND in st.legal_actions()


def test_no_immediate_backtracking():
    st = position(0, overrides={"players": 2}, at={0: "cw_loop_5"}, came_from={0: "cw_loop_6"})
    force(st, 2, 2, 2)
    st.apply(R.A_GO)
    st.apply(edge_to(st, "cw_loop_4"))
    st.apply(R.A_DONE)
    st.apply(edge_to(st, "cw_loop_4"))
    edges = [R.ACTIONS.decode(a) for a in st.legal_actions() if a >= R.A_EDGE]
    assert {family for family, _ in edges} == {"edge"}
    targets = {int(st.cfg[0]["adj"][space(st, "cw_loop_4"), k]) for _, k in edges}
    assert space(st, "cw_loop_5") not in targets


def test_every_mp_must_be_spent_outside_a_landing():
    st = position(0, overrides={"players": 2})
    force(st, 1, 1, 1)
    st.apply(R.A_GO)
    st.apply(R.A_DONE)
    for name in TO_COLONY[:3]:
        assert R.A_LAND not in st.legal_actions()
        st.apply(edge_to(st, name))
    # 3 MP spent on open space: the turn ends there and the next player starts
    assert st.current_player == 1 and st.decision_name() == "start of turn"
    assert int(st.record[0]["pos"][0]) == space(st, "gb_cw_3")


def test_a_drive_skips_spaces_of_its_colour():
    # gb_cw_1 is red: a red drive enters it for 0 MP; switched off, it costs 1 MP
    for a, cost in ((R.A_GO, 0), (R.A_GO_NO_DRIVE, 1)):
        st = position(0, overrides={"players": 2}, drive={0: "red drive"})
        force(st, 3, 3, 3)
        st.apply(a)
        st.apply(R.A_DONE)
        st.apply(edge_to(st, "gb_cw_1"))
        assert int(st.record[0]["mp"]) == 9 - cost


def test_skipping_movement_in_open_space_ends_the_turn_and_in_a_city_goes_to_trade():
    st = position(0, overrides={"players": 2}, at={0: "cw_loop_5"})
    st.apply(R.A_SKIP)
    assert st.current_player == 1 and st.decision_name() == "start of turn"
    st = position(0, overrides={"players": 2}, at={0: "Southern Comfort"})
    st.apply(R.A_SKIP)
    s = st.record[0]
    assert st.decision_name() == "trade" and int(s["buys_left"]) >= 3  # unlimited (or the contact's 3)


def _approach(kind):
    """A space of ``kind`` and a plain open-space neighbour of it (no navigation, grey line), by index."""
    c = position(0, overrides={"players": 2}).cfg[0]
    for t in np.flatnonzero(c["space_kind"][: int(c["n_spaces"])] == kind):
        for k in range(int(c["adj_n"][t])):
            nb = int(c["adj"][t, k])
            if c["space_kind"][nb] == R.K_DOT and not c["is_nav"][nb] and c["adj_kind"][t, k] == R.E_GREY:
                return int(t), nb
    raise AssertionError("no such space")


def _head_for(st, target):
    c = st.cfg[0]
    here = int(st.record[0]["pos"][0])
    return R.ACTIONS.encode("edge", [int(x) for x in c["adj"][here, : c["adj_n"][here]]].index(target))


def test_landing_on_an_asteroid_ends_the_turn_with_a_drill():
    ast, nb = _approach(R.K_ASTEROID)
    st = position(0, overrides={"players": 2}, at={0: nb})
    s = st.record[0]
    st.apply(R.A_GO)
    force(st, 3, 3, 3)
    st.apply(_head_for(st, ast))
    st.apply(R.A_DONE)
    st.apply(_head_for(st, ast))
    assert R.A_LAND in st.legal_actions()
    st.apply(R.A_LAND)
    assert st.decision_name() == "place a drill"
    st.apply(R.A_DRILL)
    assert int(s["drill_owner"][ast]) == 0 and int(s["drills"][0]) == 1 and st.current_player == 1


def test_navigation_die_sets_the_exit_of_a_navigation_space():
    # two MP left after the roll, the navigation die at 3: two steps, onto the navigation space and out of it
    st = position(0, overrides={"players": 2}, phase="move", mp=2, nav=3)
    c = st.cfg[0]
    s = st.record[0]
    nav = space(st, "cloud_body_8")  # next to Galactic Base; die 2 leads back to it, 3 to cloud_body_7
    st.apply(edge_to(st, "cloud_body_8"))
    assert int(s["pos"][0]) == space(st, "cloud_body_7"), "the navigation die 3 leads to cloud_body_7"
    assert int(c["is_nav"][nav]) == 1


def test_navigation_die_pointing_back_ends_the_turn_on_the_navigation_space():
    st = position(0, overrides={"players": 2})
    force(st, 2, 4, 4)
    st.apply(R.A_GO)
    st.apply(R.ACTIONS.encode("nav", 0))  # navigation value 2: back to Galactic Base
    st.apply(R.A_DONE)
    st.apply(edge_to(st, "cloud_body_8"))
    assert int(st.record[0]["pos"][0]) == space(st, "cloud_body_8") and st.current_player == 1


def test_without_a_navigation_die_the_next_player_chooses_the_exit():
    st = position(0, overrides={"players": 2}, phase="move", mp=2)  # no navigation die
    st.apply(edge_to(st, "cloud_body_8"))
    assert st.decision_name() == "choose a navigation exit" and st.current_player == 1
    targets = {st.describe(a) for a in st.legal_actions()}
    body_7 = st._labels()[space(st, "cloud_body_7")]  # the space's readable name in a transcript
    assert "to Galactic Base" not in targets and f"to {body_7}" in targets, "not back the way it came in"
    st.apply(edge_to(st, "cloud_body_7"))
    assert int(st.record[0]["pos"][0]) == space(st, "cloud_body_7")
    assert st.current_player == 1 and st.decision_name() == "start of turn", "MP spent in open space: turn over"


@pytest.mark.parametrize("die,fails", [(2, False), (3, True), (6, True)])
def test_hazard_test_against_the_dial(die, fails):
    hz, nb = _approach(R.K_HAZARD)
    probe = position(0, overrides={"players": 2})
    dial = {R.HZ_LASER: "laser", R.HZ_SHIELD: "shield", R.HZ_PILOT: "pilot"}[int(probe.cfg[0]["hazard_kind"][hz])]
    dials = {"laser": 6, "shield": 6, "pilot": {0: 2}} | {dial: {0: 2}}
    st = position(0, overrides={"players": 2}, at={0: nb}, **dials)
    s = st.record[0]
    st.apply(R.A_GO)
    force(st, 6, 6, 6)
    st.apply(_head_for(st, hz))
    st.apply(R.A_DONE)
    force(st, die)
    st.apply(_head_for(st, hz))
    ended = st.current_player == 1
    assert ended == fails and int(s["f_hazards_failed"][0]) == int(fails)


def test_hazard_six_always_fails_even_with_a_high_dial():
    hz, nb = _approach(R.K_HAZARD)
    st = position(0, overrides={"players": 2}, laser=6, shield=6, pilot={0: 4}, at={0: nb})
    s = st.record[0]
    st.apply(R.A_GO)
    force(st, 6, 6, 6)
    st.apply(_head_for(st, hz))
    st.apply(R.A_DONE)
    force(st, 6)
    st.apply(_head_for(st, hz))
    assert st.current_player == 1 and int(s["f_hazards_failed"][0]) == 1
