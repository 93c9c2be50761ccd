"""Merchant of Venus's heuristic bots: registered, legal over many games, deterministic, and their rules
forced in scripted positions (the trader sells where the top token pays most among reachable buyers; the
porter builds a spaceport when it can keep its reserve)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.merchant_of_venus import bots as BT
from simlab.games.merchant_of_venus import checks
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.config import CULTURE_NAMES, GOOD_NAMES
from simlab.games.merchant_of_venus.game import GAME
from simlab.games.merchant_of_venus.position import position

STYLES = ("trader", "porter")


def test_the_styles_are_registered_and_the_default_lineup():
    assert set(STYLES) <= set(GAME.bots.names())
    assert GAME.default_bots == STYLES
    assert GAME.policy == "simlab.games.merchant_of_venus.bots:heuristic_policy"
    assert not hasattr(R, "heuristic_policy")  # the placeholder is gone
    for name, defaults in (("trader", BT.TRADER), ("porter", BT.PORTER)):
        assert tuple(GAME.bots.info(name).params) == BT.PARAM_NAMES
        assert GAME.bots.make(name).params.tolist() == [defaults[k] for k in BT.PARAM_NAMES]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_bot_decides_legally_over_many_games(players):
    """``GAME.play`` applies each choice through ``State.apply``, which raises on an illegal action."""
    config = GAME.make_config(overrides={"players": players})
    lineups = [
        ["trader", "porter", "random", "random"][:players],
        ["porter", "trader", "trader", "porter"][:players],
    ]
    decided = {name: 0 for name in STYLES}
    for k, lineup in enumerate(lineups):
        bots = GAME.make_bots(lineup, players)
        for seed in range(6):

            def count(state, action, lineup=lineup):
                if len(state.legal_actions()) > 1 and lineup[state.current_player] in decided:
                    decided[lineup[state.current_player]] += 1

            state = GAME.play(config, 1000 * k + seed, bots, on_action=count)
            assert state.is_terminal()
            checks.invariants(state.record[0], config)
    assert min(decided.values()) > 500, decided


def test_the_bots_beat_random_and_trade():
    """Not the measurement (see the report): a sanity check that both styles make money by their rule."""
    config = GAME.make_config()
    out = GAME.play_batch(config, np.arange(40), GAME.make_bots(["trader", "porter", "random", "random"], 4))
    assert out["f_sales"][:, 0].mean() > 3 and out["f_sales"][:, 2:].mean() < 1
    assert out["ports"][:, 1].mean() >= 1
    assert out["score"][:, :2].mean() > 3 * out["score"][:, 2:].mean()


def test_deterministic_for_a_seed():
    config = GAME.make_config()
    bots = GAME.make_bots(["trader", "porter", "porter", "trader"], 4)
    a = GAME.play_batch(config, np.arange(20), bots)
    b = GAME.play_batch(config, np.arange(20), bots)
    assert a.tobytes() == b.tobytes()
    one = GAME.play(config, 7, bots).record[0]
    assert one.tobytes() == a[7].tobytes()  # the Python driver plays the batch's game


def _two_near_systems(config):
    """The two market systems with a surface city nearest each other (board names), a city of the first,
    and the bots' route cost between them."""
    board = R.board_for(config)
    bd = board["board"]
    cf = GAME.kernel.config_record(config)[0]
    names = [bd.system_names[i] for i in bd.market_systems]
    cities = {
        sy: [i for i in range(bd.n_spaces) if board["kind"][i] == R.K_CITY and board["system"][i] == sy]
        for sy in range(14)
    }
    pairs = [
        (int(cf["bot_sys_dist"][0, x, y]), x, y)
        for x in range(14)
        for y in range(14)
        if x != y and cities[x] and cities[y]
    ]
    d, x, y = min(pairs)
    return names[x], names[y], bd.names[cities[x][0]], d


def _trading_between_two_buyers(here, there, tokens, credits, **kw):
    """Seat 0 trading in a city of culture 2 with ``tokens`` of culture 1's good in its hold; cultures 2 and 3,
    which both buy it, discovered on the two nearest market systems with top tokens ``here`` and ``there``.
    The state, and the bots' route cost between the two systems."""
    config = GAME.make_config()
    x, y, city, d = _two_near_systems(config)
    cf = GAME.kernel.config_record(config)[0]
    assert R.buys_good(cf, 1, 0) and R.buys_good(cf, 2, 0)
    a, b = CULTURE_NAMES[1], CULTURE_NAMES[2]
    st = position(
        0,
        config=config,
        phase="trade",
        at={0: city},
        cultures={x: a, y: b},
        discovered=[x, y],
        top={a: here, b: there},
        cargo={0: {GOOD_NAMES[0]: tokens}},
        credits=credits,
        **kw,
    )
    return st, d


@pytest.mark.parametrize(("here", "there", "sells"), [("high", "low", True), ("low", "high", False)])
def test_the_trader_sells_where_the_top_token_pays_most_among_reachable_buyers(here, there, sells):
    """Cultures 2 and 3 both buy culture 1's good (at 120 / 140 / 160 by token). In a city of culture 2 with
    one token in the hold, the trader sells when the top token here pays at least what the other buyer pays
    less ``turn_cost`` per turn to get there; it keeps the good when that buyer's top token pays 40 more
    and the trip costs less than that (``turn_cost=10``: two turns, 20)."""
    st, d = _trading_between_two_buyers(here, there, tokens=1, credits=0)  # nothing to buy: the sale is the question
    turn_cost = 10.0
    turns = np.ceil(d / BT.TRADER["mp_per_turn"])
    assert turn_cost * turns + 1 < 40  # the rule forces keeping in the second case
    legal = st.legal_actions()
    assert R.ACTIONS.encode("sell", 0) in legal
    bot = GAME.bots.make(f"trader:turn_cost={turn_cost}")
    action = bot.act(st, legal, np.random.default_rng(0))
    assert (action == R.ACTIONS.encode("sell", 0)) == sells, st.describe(action)


def _porter_turn_from_trade(credits):
    config = GAME.make_config()
    x, _, city, _ = _two_near_systems(config)
    st = position(0, config=config, phase="trade", at={0: city}, discovered=[x], credits=credits)
    bot = GAME.bots.make("porter")
    rng = np.random.default_rng(1)
    bought = False
    while st.record[0]["phase"] == R.PH_TRADE:
        a = bot.act(st, st.legal_actions(), rng)
        bought |= a == R.A_BUY_GOOD or R.A_EQUIP <= a < R.A_PICKUP
        st.apply(a)
    return st, bot, rng, bought


def test_the_porter_builds_a_spaceport_when_it_can():
    """With the price and its reserve in hand, the porter buys nothing in the city (a buy forbids the port)
    and builds a spaceport on an orbital space."""
    st, bot, rng, bought = _porter_turn_from_trade(600)
    assert not bought
    assert st.record[0]["phase"] == R.PH_PORT
    a = bot.act(st, st.legal_actions(), rng)
    assert a != R.A_DONE
    st.apply(a)
    assert st.record[0]["ports"][0] >= 1
    assert st.record[0]["credits"][0] <= 600 - 200


def test_the_porter_keeps_its_reserve():
    """With the price but not the reserve on top, the porter declines the port it could build."""
    reserve = BT.PORTER["port_reserve"]
    st, bot, rng, _ = _porter_turn_from_trade(int(200 + reserve) - 5)
    if st.record[0]["phase"] == R.PH_PORT:  # it may have spent on the way; if it is offered, it declines
        assert bot.act(st, st.legal_actions(), rng) == R.A_DONE
    assert st.record[0]["ports"][0] == 0


def test_route_costs_are_cached_per_board_and_hazard_reading():
    """The bots' all-pairs route costs are computed once per board and ``drive_skips_hazards`` reading (not
    per config record), and each reading gets its own: a drive that meets hazards pays for them."""
    skipping, meeting = (GAME.make_config(overrides={"drive_skips_hazards": v}) for v in (True, False))
    for config in (skipping, meeting):
        table = R.route_costs(*R.board_key(config), config.drive_skips_hazards)
        assert np.array_equal(table, R.bot_distances(R.board_for(config), config.drive_skips_hazards))
        assert not table.flags.writeable
        record = GAME.kernel.config_record(config)[0]
        n = int(record["n_spaces"])
        assert np.array_equal(record["bot_dist"][:, :n, :n], table)
    skip_table = R.route_costs(*R.board_key(skipping), True)
    meet_table = R.route_costs(*R.board_key(meeting), False)
    assert (meet_table >= skip_table).all() and (meet_table > skip_table).any()
    assert R.route_costs(*R.board_key(skipping), True) is skip_table


def test_a_search_playout_cut_short_counts_what_the_holds_carry():
    """``estimate_now`` (what core's search scores a cut-short playout with): seat 0 carries two tokens of
    culture 1's good, whose discovered buyers' top tokens pay "high" (culture 2) and "low" (culture 3); seat 1
    carries a passenger. The bare final scoring (``score_now``) counts neither; the estimate adds
    ``HELD_AT_CUT`` of two tokens at the best of those prices to seat 0, and of the passenger's fare and fame
    in credits to seat 1, and leaves the empty holds as the final scoring scores them."""
    st, _ = _trading_between_two_buyers("high", "low", tokens=2, credits=300, passengers={0: 1}, holds={1: 3})
    cf = st.cfg[0]
    bare, cut = st.clone(), st.clone()
    R.score_now(bare.record, bare.cfg)
    BT.estimate_now(cut.record, cut.cfg)
    high = cf["good_resale"][3 * 0 + R.TOKEN_HIGH]
    assert high > cf["good_resale"][3 * 0 + R.TOKEN_LOW] > 0
    fare = cf["passenger_fare"][0] + cf["passenger_fame"][0] * cf["fame_credits"]
    gained = cut.record[0]["credits"] - bare.record[0]["credits"]
    assert gained[:4].tolist() == [int(BT.HELD_AT_CUT * 2 * high), int(BT.HELD_AT_CUT * fare), 0, 0]
    assert cut.is_terminal() and bare.is_terminal()
    assert cut.record[0]["rank"][0] < cut.record[0]["rank"][2]  # the cargo outranks an empty hold


def test_a_held_good_nobody_discovered_buys_is_worth_the_active_price():
    """With no buyer of a good discovered, a token in the hold counts at the active token's price (the price
    an undiscovered buyer shows first), as the trader's plans assume."""
    config = GAME.make_config()
    st = position(0, config=config, phase="trade", cargo={0: {GOOD_NAMES[0]: 1}}, credits=300)
    cf = st.cfg[0]
    assert BT.held_good_worth(st.record[0], cf, 0) == cf["good_resale"][R.TOKEN_ACTIVE]
