"""The Merchant of Venus position builder's parts the rule tests need: passengers, drills, goods in supply
areas, IOU credits, the discoverer, whole market stacks (and forcing the shuffle of a discovery in play),
mid-move positions. Each keeps the component totals (the game's invariants run on every built position)
and a bad description is a PositionError naming the field."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.core.errors import PositionError
from simlab.games.merchant_of_venus import narrate
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.position import edge_to, force, position, space

NILLIS, VOLOIS, PERFUME = 0, 1, 0
TWO = {"players": 2}
ASTEROID = "AS_2_2"  # an asteroid space of the Asteroid System


def _goods_total(s) -> np.ndarray:
    return s["supply"].sum(0) + s["market_goods"] + s["cargo"].sum(0)


def test_passengers_in_the_bag_waiting_delivered_and_aboard():
    st = position(0, overrides=TWO, passengers={0: 1, 1: "waiting", 2: "delivered", 3: "bag"})
    s, cfg = st.record[0], st.config
    assert int(s["pass_loc"][0]) == R.LOC_HOLD + 1 and int(s["pass_bag"][0]) == 0
    assert int(s["pass_loc"][1]) == cfg.passenger_origin[1] and int(s["pass_bag"][1]) == 0
    assert int(s["pass_loc"][2]) == R.LOC_DELIVERED and int(s["pass_loc"][3]) == R.LOC_BAG
    assert int(s["pass_bag"][3]) == 1
    assert R.used_holds(s, st.cfg[0], 1) == cfg.passenger_holds[0]


def test_passengers_are_checked():
    with pytest.raises(PositionError, match=r"passengers\[0\]: unknown 'nowhere'; allowed: bag, waiting, delivered"):
        position(0, overrides=TWO, passengers={0: "nowhere"})
    with pytest.raises(PositionError, match=r"passengers\[0\]: seat 5"):
        position(0, overrides=TWO, passengers={0: 5})
    with pytest.raises(PositionError, match=r"passengers: 99 is more than"):
        position(0, overrides=TWO, passengers={99: "bag"})
    with pytest.raises(PositionError, match=r"holds over capacity"):  # two holds, full of cargo
        position(0, overrides=TWO, cargo={0: {"Bionic Perfume": 2}}, passengers={0: 0})


def test_drills_on_asteroids_share_the_colours_tokens():
    st = position(0, overrides=TWO, drills={1: [ASTEROID]})
    s = st.record[0]
    assert int(s["drill_owner"][space(st, ASTEROID)]) == 1 and int(s["drills"][1]) == 1
    with pytest.raises(PositionError, match=r"drills\[1\]: Galactic Base is not an asteroid space without a drill"):
        position(0, overrides=TWO, drills={1: ["Galactic Base"]})
    with pytest.raises(PositionError, match=r"drills\[0\]: AS_2_2 is not an asteroid space without a drill"):
        position(0, overrides=TWO, drills={1: [ASTEROID], 0: [ASTEROID]})
    with pytest.raises(PositionError, match=r"ports/drills\[1\]: 0 ports \+ 1 drills, more than the colour's 0"):
        position(0, overrides={"players": 2, "tokens_per_colour": 0}, drills={1: [ASTEROID]})


def test_goods_in_a_supply_area_come_from_the_culture_and_keep_the_total():
    st = position(
        0,
        overrides=TWO,
        cultures={"Colony World": "Nillis"},
        discovered=["Colony World"],
        supply={"Volois": {"Bionic Perfume": 2}},
    )
    s = st.record[0]
    assert int(s["supply"][VOLOIS, PERFUME]) == 2
    assert int(s["market_goods"][NILLIS]) == st.config.goods_tokens[NILLIS] - 2
    assert _goods_total(s).tolist() == list(st.config.goods_tokens)
    undiscovered = position(0, overrides=TWO, supply={"Volois": {"Bionic Perfume": 1}})
    assert int(undiscovered.record[0]["supply"][NILLIS, PERFUME]) == st.config.goods_tokens[NILLIS] - 1
    too_many = st.config.goods_tokens[NILLIS] + 1
    with pytest.raises(PositionError, match=r"supply\[Volois\]\[Bionic Perfume\]: no Bionic Perfume left"):
        position(0, overrides=TWO, supply={"Volois": {"Bionic Perfume": too_many}})
    with pytest.raises(PositionError, match=r"supply: unknown 'Venus'"):
        position(0, overrides=TWO, supply={"Venus": {"Bionic Perfume": 1}})


def test_iou_credits_and_the_discoverer():
    st = position(
        0, overrides=TWO, cultures={"Colony World": "Nillis"}, discovered={"Colony World": 1}, iou={"Nillis": 30}
    )
    s = st.record[0]
    assert int(s["discoverer"][NILLIS]) == 1 and int(s["iou_left"][NILLIS]) == 30
    assert int(s["f_discoveries"].sum()) == 0, "found before the position: not a discovery of the game's facts"
    most = st.config.iou[NILLIS]
    with pytest.raises(PositionError, match=rf"iou\[Nillis\]: {most + 1} is more than the {most} allowed"):
        position(
            0, overrides=TWO, cultures={"Colony World": "Nillis"}, discovered=["Colony World"], iou={"Nillis": most + 1}
        )
    with pytest.raises(PositionError, match=r"iou\[Nillis\]: the culture is not discovered"):
        position(0, overrides=TWO, iou={"Nillis": 0})
    with pytest.raises(PositionError, match=r"discovered\[Colony World\]: seat 3"):
        position(0, overrides=TWO, discovered={"Colony World": 3})


def test_a_whole_market_stack():
    st = position(
        0,
        overrides=TWO,
        cultures={"Colony World": "Nillis"},
        discovered=["Colony World"],
        stacks={"Nillis": ["high", "low", "active"]},
    )
    s = st.record[0]
    assert int(R.top_token(s, NILLIS)) == R.TOKEN_HIGH and s["stack"][NILLIS].tolist() == [2, 0, 1]
    with pytest.raises(
        PositionError, match=r"stacks\[Nillis\]: \['high', 'high', 'low'\] is not the tokens low, active, high"
    ):
        position(
            0,
            overrides=TWO,
            cultures={"Colony World": "Nillis"},
            discovered=["Colony World"],
            stacks={"Nillis": ["high", "high", "low"]},
        )


@pytest.mark.parametrize("order", [("low", "active", "high"), ("high", "active", "low"), ("active", "high", "low")])
def test_force_fixes_the_market_stack_of_a_discovery_in_play(order):
    st = position(
        0,
        overrides=TWO,
        cultures={"Colony World": "Nillis"},
        phase="move",
        at={0: "cw_loop_4"},
        came_from={0: "cw_loop_5"},
        mp=2,
    )
    force(st, stack=list(order))
    st.apply(edge_to(st, "Southern Comfort"))  # the green line takes the last 2 MP: a landing, then contact
    s = st.record[0]
    assert int(s["discovered"][int(st.cfg[0]["space_system"][space(st, "Southern Comfort")])]) == 1
    tokens = {"low": 0, "active": 1, "high": 2}
    top = int(s["stack_top"][NILLIS])
    assert [int(s["stack"][NILLIS, (top + k) % 3]) for k in range(3)] == [tokens[t] for t in order]


def test_mid_move_positions():
    st = position(0, overrides=TWO, phase="move", at={0: "cw_loop_5"}, came_from={0: "cw_loop_6"}, mp=3)
    s = st.record[0]
    assert st.decision_name() == "move" and int(s["mp"]) == 3 and int(s["steps"]) == 1
    targets = {st.describe(a) for a in st.legal_actions()}
    labels = narrate.labels_for(st.config)  # a move names its space as a reader sees it
    assert f"to {labels[space(st, 'cw_loop_4')]}" in targets, "the next space on"
    assert f"to {labels[space(st, 'cw_loop_6')]}" not in targets, "never straight back"
    fresh = position(0, overrides=TWO, phase="move", mp=4)  # on Galactic Base, not moved yet: no landing
    assert R.A_LAND not in fresh.legal_actions() and int(fresh.record[0]["steps"]) == 0
    with pytest.raises(PositionError, match=r"mp: phase 'move' needs the MP left"):
        position(0, overrides=TWO, phase="move")
    with pytest.raises(PositionError, match=r"mp/nav: only for phase 'move'"):
        position(0, overrides=TWO, mp=3)
    with pytest.raises(PositionError, match=r"nav: 7 is more than the 6 allowed"):
        position(0, overrides=TWO, phase="move", mp=3, nav=7)


def test_a_navigation_die_in_a_mid_move_position_takes_its_exit():
    st = position(0, overrides=TWO, phase="move", mp=2, nav=3)  # cloud_body_8: die 3 leads to cloud_body_7
    st.apply(edge_to(st, "cloud_body_8"))
    assert int(st.record[0]["pos"][0]) == space(st, "cloud_body_7")
