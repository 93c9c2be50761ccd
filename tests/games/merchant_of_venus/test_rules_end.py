"""The end: ports sell for 200, fame pays 10 per point (20 on a Fuzzy Dice double), IOUs are lost, most
credits wins, ties by fame, then shared; a player below 0 fame is eliminated. The seed's scoring example."""

from __future__ import annotations

from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.position import force, position, space

PORT_SITES = ["cw_loop_1", "cw_loop_4", "dw_loop_1", "dw_loop_4", "jw_loop_1"]


def last_turn(**kw):
    """Seat 0 takes the last turn of the last round at Galactic Base (seat 1 started the round)."""
    kw.setdefault("overrides", {"players": 2, "rounds": 10})
    return position(0, first=1, round_no=kw["overrides"].get("rounds", 30), **kw)


def finish(st):
    st.apply(R.A_SKIP)  # at Galactic Base: straight to trade
    st.apply(R.A_DONE)
    assert st.is_terminal()
    return st.record[0]


def green_example(dice):
    """The seed's green player: 4 fame tokens, 2 relic rewards (6), 3 missions (6), 2 extra holds (6), the
    second ship upgrade (2), laser at 4 (4), a level-2 pilot (1) = 29 fame; Fuzzy Dice; 2 infamy; 5 ports."""
    st = last_turn(
        fame_tokens={0: 4},
        rewards={0: 2},
        missions_done={0: 3},
        mission_fame_won={0: 6},
        holds={0: 4},
        upgrades={0: 2},
        laser={0: 4},
        shield={0: 3},
        pilot={0: 2},
        techs={0: ["Fuzzy Dice"]},
        infamy={0: 2},
        ports={0: PORT_SITES},
        credits={0: 3700, 1: 0},
    )
    assert R.fame_before_dice(st.record[0], st.cfg[0], 0) == 29
    force(st, *dice)
    return finish(st)


def test_scoring_example_fame_35_doubles_pay_700_and_5_ports_1000():
    s = green_example((4, 4))
    assert int(s["total_fame"][0]) == 35  # 29 + dice 8 - 2 infamy
    assert int(s["f_fame_credits"][0]) == 700 and int(s["f_port_credits"][0]) == 1000
    assert int(s["score"][0]) == 3700 + 1000 + 700


def test_without_a_double_fame_pays_10_per_point():
    s = green_example((3, 5))
    assert int(s["total_fame"][0]) == 35 and int(s["f_fame_credits"][0]) == 350


def test_iou_credits_are_lost_at_the_end():
    st = last_turn(credits={0: 100, 1: 100}, discovered={"Colony World": 0})
    culture = int(st.record[0]["sys_culture"][int(st.cfg[0]["space_system"][space(st, "Southern Comfort")])])
    assert int(st.record[0]["iou_left"][culture]) > 0 and int(st.record[0]["discoverer"][culture]) == 0
    s = finish(st)
    assert int(s["score"][0]) == 100 + 10 * int(s["total_fame"][0])


def test_most_credits_wins_ties_by_fame_then_shared():
    st = last_turn(credits={0: 500, 1: 510}, fame_tokens={0: 2, 1: 1})  # 500+20+... vs 510+10+...
    s = finish(st)
    assert int(s["score"][0]) == int(s["score"][1])
    assert s["rank"][:2].tolist() == [1, 2] and s["share"][:2].tolist() == [1.0, 0.0]
    st = last_turn(credits={0: 500, 1: 500})
    s = finish(st)
    assert s["rank"][:2].tolist() == [1, 1] and s["share"][:2].tolist() == [0.5, 0.5]


def test_below_zero_fame_is_eliminated():
    st = last_turn(credits={0: 5000, 1: 0}, infamy={0: 20})
    s = finish(st)
    assert int(s["eliminated"][0]) == 1 and int(s["rank"][1]) == 1 and int(s["rank"][0]) == 2


def test_game_ends_after_the_last_round_and_round_symbols_fire():
    overrides = {"players": 2, "rounds": 6, "drill_every": 2, "passenger_every": 3}
    st = position(0, overrides=overrides, first=0, drills={1: ["AS_2_2"]})
    s = st.record[0]
    in_pile = int(s["pass_bag"].sum())
    credits = int(s["credits"][1])
    rounds = []
    while not st.is_terminal():
        rounds.append(int(s["round_no"]))
        st.apply(R.A_SKIP)
        if st.decision_name() == "trade":
            st.apply(R.A_DONE)
    assert max(rounds) == 6
    assert int(s["drills"][1]) == 0 and int(s["f_drill_income"][1]) == st.config.drill_income
    assert int(s["credits"][1]) >= credits + st.config.drill_income
    assert int(s["pass_bag"].sum()) == in_pile - 2  # rounds 3 and 6
