"""Contact, trade, market shifts, spaceports and their fees, passengers, Galactic Base services."""

from __future__ import annotations

import pytest

from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.config import GOOD_NAMES
from simlab.games.merchant_of_venus.game import GAME
from simlab.games.merchant_of_venus.position import edge_to, position, space

NILLIS, PERFUME, GENES, SPICE = 0, 0, 11, 2
DEFAULT_DEST = GAME.make_config().passenger_dest
#: passenger 0 bound for Nillis, passenger 1 for Galactic Base (14)
DESTS = ",".join(str(d) for d in (0, 14, *DEFAULT_DEST[2:]))
BOUND_FOR_NILLIS = 0  # passenger 0 with DESTS
CITY, ORBIT = "Southern Comfort", "cw_loop_4"  # a Colony World city and its orbital space (green line)


def at_colony(phase="trade", **kw):
    kw.setdefault("overrides", {"players": 2})
    return position(0, phase=phase, at={0: kw.pop("where", CITY)}, cultures={"Colony World": "Nillis"}, **kw)


def test_contact_reveals_the_culture_with_its_goods_iou_and_three_buys_and_sells():
    st = at_colony(credits={0: 500})
    s = st.record[0]
    sy = int(st.cfg[0]["space_system"][space(st, CITY)])
    assert int(s["discovered"][sy]) == 1 and int(s["culture_sys"][NILLIS]) == sy and int(s["discoverer"][NILLIS]) == 0
    assert int(s["market_goods"][NILLIS]) == st.config.goods_tokens[NILLIS] and int(s["supply"][NILLIS, NILLIS]) == 0
    assert int(s["iou_left"][NILLIS]) == st.config.iou[NILLIS]
    assert sorted(s["stack"][NILLIS].tolist()) == [0, 1, 2] and int(s["stack_seen"][NILLIS]) == 1
    assert (int(s["buys_left"]), int(s["sells_left"])) == (3, 3)
    for _ in range(2):  # two holds
        st.apply(R.A_BUY_GOOD)
    assert R.A_BUY_GOOD not in st.legal_actions(), "no hold room"


def test_contact_allowance_stacks_only_with_the_knob():
    st = at_colony(overrides={"players": 2, "contact_trade_stacks": True})
    assert (int(st.record[0]["buys_left"]), int(st.record[0]["sells_left"])) == (4, 4)


def test_a_surface_city_landing_allows_one_buy_and_one_sell():
    st = at_colony(discovered=["Colony World"], credits={0: 500}, holds={0: 4}, cargo={0: {"Designer Genes": 2}})
    s = st.record[0]
    assert (int(s["buys_left"]), int(s["sells_left"])) == (1, 1)
    st.apply(R.ACTIONS.encode("sell", GENES))
    assert R.ACTIONS.encode("sell", GENES) not in st.legal_actions()
    st.apply(R.A_BUY_GOOD)
    assert R.A_BUY_GOOD not in st.legal_actions()


def test_after_skipping_movement_trade_is_unlimited():
    st = at_colony(discovered=["Colony World"], skipped=True, credits={0: 900}, holds={0: 4})
    for _ in range(4):
        st.apply(R.A_BUY_GOOD)
    assert int(st.record[0]["cargo"][0, PERFUME]) == 4


def test_sell_only_to_a_culture_that_buys_the_good():
    st = at_colony(discovered=["Colony World"], cargo={0: {"Designer Genes": 1, "Space Spice": 1}})
    legal = st.legal_actions()
    assert R.ACTIONS.encode("sell", GENES) in legal and R.ACTIONS.encode("sell", SPICE) not in legal


@pytest.mark.parametrize("token", ["low", "active", "high"])
def test_sale_price_is_set_by_the_top_market_token(token):
    st = at_colony(discovered=["Colony World"], top={"Nillis": token}, cargo={0: {"Designer Genes": 1}}, credits={0: 0})
    st.apply(R.ACTIONS.encode("sell", GENES))
    k = ("low", "active", "high").index(token)
    assert int(st.record[0]["credits"][0]) == st.config.good_resale[3 * GENES + k]
    log = st.record[0]["sale_log"][0].tolist()
    assert log == [1, NILLIS, k, GENES, st.config.good_resale[3 * GENES + k], 0]


@pytest.mark.parametrize("to,area", [("buyer", NILLIS), ("producer", GENES)])
def test_sold_goods_go_to_the_buyer_or_producer_supply(to, area):
    st = at_colony(
        overrides={"players": 2, "sold_goods_to": to}, discovered=["Colony World"], cargo={0: {"Designer Genes": 1}}
    )
    before = int(st.record[0]["supply"][area, GENES])
    st.apply(R.ACTIONS.encode("sell", GENES))
    assert int(st.record[0]["supply"][area, GENES]) == before + 1


def test_the_market_shifts_after_the_sells_and_an_active_token_produces():
    st = at_colony(
        discovered=["Colony World"],
        top={"Nillis": "low"},
        cargo={0: {"Designer Genes": 1}},
        supply={3: {"Bionic Perfume": 1}},  # one Perfume back in a supply area, to be produced
    )
    s = st.record[0]
    # the token under "low" in this stack
    nxt = int(s["stack"][NILLIS, (int(s["stack_top"][NILLIS]) + 1) % 3])
    before = int(s["market_goods"][NILLIS])
    st.apply(R.ACTIONS.encode("sell", GENES))
    assert int(R.top_token(s, NILLIS)) == R.TOKEN_LOW, "the shift waits for the end of the sells"
    st.apply(R.A_DONE)
    assert int(R.top_token(s, NILLIS)) == nxt and int(s["stack_seen"][NILLIS]) == 2
    assert int(s["market_goods"][NILLIS]) == before + (1 if nxt == R.TOKEN_ACTIVE else 0)


def test_no_sale_no_market_shift():
    st = at_colony(discovered=["Colony World"], top={"Nillis": "high"})
    st.apply(R.A_DONE)
    assert int(R.top_token(st.record[0], NILLIS)) == R.TOKEN_HIGH


def test_iou_credits_are_spent_first_and_only_there():
    st = at_colony(credits={0: 100})
    st.apply(R.A_BUY_GOOD)  # Perfume 80, the IOU pays
    s = st.record[0]
    assert int(s["credits"][0]) == 100 and int(s["iou_left"][NILLIS]) == st.config.iou[NILLIS] - 80


def test_spaceport_built_without_a_buy_moves_the_ship_and_closes_the_green_line():
    st = at_colony(discovered=["Colony World"], credits={0: 250})
    st.apply(R.A_DONE)
    assert st.decision_name() == "build a spaceport"
    st.apply(edge_to(st, ORBIT))
    s = st.record[0]
    orbit = space(st, ORBIT)
    assert int(s["port_owner"][orbit]) == 0 and int(s["ports"][0]) == 1 and int(s["credits"][0]) == 50
    assert int(s["pos"][0]) == orbit and st.current_player == 1
    k = [int(x) for x in st.cfg[0]["adj"][orbit]].index(space(st, CITY))
    assert not R.edge_open(s, st.cfg[0], orbit, k)


def test_no_spaceport_after_a_buy():
    st = at_colony(discovered=["Colony World"], credits={0: 500})
    st.apply(R.A_BUY_GOOD)
    st.apply(R.A_DONE)
    assert st.decision_name() == "start of turn" and st.current_player == 1


def test_ports_and_drills_share_the_colours_tokens():
    st = at_colony(overrides={"players": 2, "tokens_per_colour": 0}, discovered=["Colony World"], credits={0: 500})
    st.apply(R.A_DONE)
    assert st.current_player == 1


def test_fee_at_another_players_port_after_the_sale_and_none_for_passengers():
    st = at_colony(
        overrides={"players": 2, "passenger_dest": DESTS},
        where=ORBIT,
        ports={1: [ORBIT]},
        discovered=["Colony World"],
        cargo={0: {"Designer Genes": 1}},
        credits={0: 0},
        holds={0: 4},
        passengers={BOUND_FOR_NILLIS: 0},
    )
    s = st.record[0]
    assert (int(s["buys_left"]), int(s["sells_left"])) == (R.UNLIMITED, R.UNLIMITED), "a port: unlimited"
    other = int(s["credits"][1])
    st.apply(R.ACTIONS.encode("sell", GENES))
    price = st.config.good_resale[3 * GENES + int(R.top_token(s, NILLIS))]
    assert int(s["credits"][0]) == price - st.config.port_fee and int(s["credits"][1]) == other + st.config.port_fee
    i = BOUND_FOR_NILLIS
    before = int(s["credits"][0])
    st.apply(R.ACTIONS.encode("drop", i))
    assert int(s["credits"][0]) == before + st.config.passenger_fare[i]
    assert int(s["credits"][1]) == other + st.config.port_fee


def test_a_player_who_cannot_pay_the_fee_cannot_buy():
    def at_the_port(credits):  # Perfume 80 and the fee 10, no IOU left
        return at_colony(
            where=ORBIT, ports={1: [ORBIT]}, discovered=["Colony World"], credits={0: credits}, iou={"Nillis": 0}
        )

    assert R.A_BUY_GOOD not in at_the_port(80).legal_actions()
    assert R.A_BUY_GOOD in at_the_port(90).legal_actions()


def test_at_your_own_port_the_bank_pays_you_the_fee():
    st = at_colony(where=ORBIT, ports={0: [ORBIT]}, discovered=["Colony World"], credits={0: 200}, iou={"Nillis": 0})
    st.apply(R.A_BUY_GOOD)
    assert int(st.record[0]["credits"][0]) == 200 - st.config.good_buy[NILLIS] + st.config.port_fee


def test_passengers_picked_up_and_delivered_for_fare_and_fame():
    config = GAME.make_config(players=2)
    i = next(i for i, o in enumerate(config.passenger_origin) if o == NILLIS and config.passenger_holds[i] == 1)
    everyone = dict.fromkeys(range(len(config.passenger_origin)), "bag")
    st = at_colony(discovered=["Colony World"], passengers=everyone | {i: "waiting"})
    s = st.record[0]
    st.apply(R.ACTIONS.encode("pickup", i))
    assert int(s["pass_loc"][i]) == R.LOC_HOLD + 0
    assert int(s["holds"][0]) - R.used_holds(s, st.cfg[0], 0) == 1, "a passenger takes its hold"
    assert R.ACTIONS.encode("drop", i) not in st.legal_actions(), "delivered only at its destination"


def test_passenger_delivered_at_galactic_base():
    i = 1  # bound for Galactic Base (DESTS)
    st = position(0, overrides={"players": 2, "passenger_dest": DESTS}, phase="trade", skipped=True, passengers={i: 0})
    s = st.record[0]
    credits, fame = int(s["credits"][0]), int(s["fame_tokens"][0])
    st.apply(R.ACTIONS.encode("drop", i))
    assert int(s["credits"][0]) == credits + st.config.passenger_fare[i]
    assert int(s["fame_tokens"][0]) == fame + st.config.passenger_fame[i] and int(s["pass_loc"][i]) == R.LOC_DELIVERED


def test_galactic_base_services():
    st = position(0, overrides={"players": 2}, phase="trade", skipped=True, credits={0: 1000})
    legal = st.legal_actions()
    assert {R.A_PILOT, R.A_REWARD, R.A_MISSION} <= set(legal)
    s = st.record[0]
    st.apply(R.A_PILOT)
    assert int(s["pilot"][0]) == 2 and int(s["credits"][0]) == 1000 - st.config.pilot_upgrade_price[1]
    st.apply(R.A_MISSION)
    assert int(s["mission"][0, 1]) >= 0 and R.A_MISSION not in st.legal_actions()
    st.apply(R.A_REWARD)
    assert int(s["rewards"][0]) == 1


def test_goods_names_match_the_data():
    assert GOOD_NAMES[PERFUME] == "Bionic Perfume" and GOOD_NAMES[GENES] == "Designer Genes"
