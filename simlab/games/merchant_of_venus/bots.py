"""Merchant of Venus's heuristic bots: one compiled policy over the state record, two styles by parameters.

Both plan a destination with :func:`choose_target`: every landing space (surface cities, neutral ports,
Galactic Base, merchant spaceports; asteroids for drilling) is worth what landing there would bring —
sales of the goods in the hold at the price the top market token sets, buy-low opportunities valued at
the best buyer the seat knows (``best_resale``), passengers to drop off and pick up, a mission completed,
a first contact's allowance and IOU credits, a spaceport site, a drill — less ``turn_cost`` per turn of
travel on the board's precomputed fewest-MP table (``bot_dist`` in the config record, per drive). The
movement decisions then follow a shortest path to it (heading, each edge, a navigation die that points
the right way, a thrust die when the target is out of reach), and each trade action is scored on its own
(sell where no reachable buyer pays more, buy when the expected margin beats ``buy_margin``, …).

- ``trader``: buy-low / sell-high round trips; passengers only when they pay on the way; ports only when
  rich.
- ``porter``: builds spaceports whenever it can keep ``port_reserve`` (ports sell for what they cost at the
  end and earn fees), carries passengers (``passenger_weight``), drills asteroids, trades on the side.

They read only what their seat may see: discovered cultures and their visible top market tokens (not the
cultures on undiscovered systems — only *which* cultures are still undiscovered —, nor the unrevealed
stack order, nor the chance stream), the ships, holds, missions and passengers on the board. No
allocation per decision: every evaluation is a scalar loop over the config record's tables.
Parameters (spec strings such as ``trader:turn_cost=40``) are declared in ``PARAMS``.
"""

from __future__ import annotations

import math

from numba import njit

from simlab.core.compiled import compiled
from simlab.core.params import ParamLayout
from simlab.core.rng import uniform
from simlab.games.merchant_of_venus import rules as R

PARAMS = ParamLayout.table(
    """
    parameter         trader  porter  meaning
    turn_cost         30.0    30.0    credits one turn of travel costs a plan
    mp_per_turn       10.0    10.0    MP counted per turn of movement (3 speed dice: 10.5 on average)
    buy_margin        20.0    30.0    least expected profit (credits) for which a goods token is bought
    passenger_weight  0.6     1.3     multiplier on a passenger's fare and fame
    port_value        0.0     150.0   worth of building a spaceport (fees, unlimited trade there) besides its end value
    port_reserve      400.0   20.0    credits kept after building a spaceport
    drill_weight      0.0     1.2     multiplier on a drill's income (0: never aims for an asteroid)
    explore_value     60.0    40.0    worth of first contact with an undiscovered system (allowance, discovery)
    equip_weight      1.0     1.0     multiplier on what equipment, race techs and pilot levels do for movement and
                                      holds
    cash_reserve      100.0   60.0    credits kept for goods when buying equipment or techs
    unknown_turns     3.0     3.0     turns assumed to reach an undiscovered buyer or destination
    """
)
TRADER, PORTER = PARAMS.defaults("trader", "porter")
PARAM_NAMES = PARAMS.names
P_TURN, P_MPT, P_MARGIN, P_PASS = PARAMS.indices("turn_cost", "mp_per_turn", "buy_margin", "passenger_weight")
P_PORT, P_PRES, P_DRILL, P_EXPLORE = PARAMS.indices("port_value", "port_reserve", "drill_weight", "explore_value")
P_EQUIP, P_CASH, P_UNKNOWN = PARAMS.indices("equip_weight", "cash_reserve", "unknown_turns")

NEG = -1e18
#: worth (credits over a whole game) of a cargo hold's room, a drive's skipped colour, a Thrust Booster
#: and a pilot level's extra die assignment; scaled by equip_weight and the share of the game left
HOLD_ROOM_WORTH = 60.0
DRIVE_COLOUR_WORTH = 150.0
BOOSTER_WORTH = 60.0
PILOT_WORTH = 80.0
#: share of a held good's best known price, and of a passenger aboard's fare and fame, that a search
#: playout cut short counts (``estimate_now``): the sale or drop-off still needs the trip there
HELD_AT_CUT = 0.8
FUZZY_MEAN_FAME = 7.0  # 2d6
IOU_WORTH = 0.5  # an IOU credit buys only from its culture and is lost at the end


# ==============================================================================================
# what the seat knows
# ==============================================================================================
@njit(cache=True, inline="always")
def mp_dist(c, drive, a, b):
    return float(c.bot_dist[drive, a, b])


@njit(cache=True, inline="always")
def turns_for(prm, d):
    """Turns of movement to cover d MP (at least one to go anywhere)."""
    if d <= 0.0:
        return 0.0
    return float(math.ceil(d / prm[P_MPT]))


@compiled
def turns_left(s, c):
    """Turns of this seat still to play, the current one included."""
    return float(c.rounds - s.round_no + 1)


@njit(cache=True, inline="always")
def price_at(s, c, cu, g):
    """What culture cu pays for good g now (its visible top token); cu must be discovered."""
    return float(c.good_resale[3 * g + R.top_token(s, cu)])


@njit(cache=True, inline="always")
def best_token_price(c, g):
    """What good g sells for under the best of the three market tokens."""
    return float(max(c.good_resale[3 * g], c.good_resale[3 * g + 1], c.good_resale[3 * g + 2]))


@compiled
def undiscovered_cultures(s):
    n = 0
    for cu in range(R.NC):
        if s.culture_sys[cu] < 0:
            n += 1
    return n


@compiled
def undiscovered_buyers(s, c, g):
    n = 0
    for cu in range(R.NC):
        if s.culture_sys[cu] < 0 and R.buys_good(c, cu, g):
            n += 1
    return n


@compiled
def best_resale(s, c, prm, g, sy, drive, exclude, horizon):
    """Best worth of one token of good g carried from system sy: a discovered buyer's price less the turns
    to get there, or (an undiscovered buyer left) the active price ``unknown_turns`` away; 0 when no buyer
    can be reached within ``horizon`` turns (an unsold good is worth nothing at the end)."""
    best = 0.0
    unknown = False
    for b in range(R.NC):
        if b == exclude or not R.buys_good(c, b, g):
            continue
        bs = s.culture_sys[b]
        if bs < 0:
            unknown = True
            continue
        t = turns_for(prm, float(c.bot_sys_dist[drive, sy, bs]))
        if t > horizon:
            continue
        v = price_at(s, c, b, g) - prm[P_TURN] * t
        if v > best:
            best = v
    if unknown and prm[P_UNKNOWN] <= horizon:
        v = float(c.good_resale[3 * g + R.TOKEN_ACTIVE]) - prm[P_TURN] * prm[P_UNKNOWN]
        if v > best:
            best = v
    return best


@compiled
def place_turns(s, c, prm, sy, place, drive):
    """Turns from system sy to a passenger place (a culture or Galactic Base 14)."""
    if place == 14:
        return turns_for(prm, float(c.bot_sys_dist[drive, sy, R.SYS_GB]))
    ps = s.culture_sys[place]
    if ps < 0:
        return prm[P_UNKNOWN]
    return turns_for(prm, float(c.bot_sys_dist[drive, sy, ps]))


@compiled
def passenger_worth(c, prm, i):
    return (c.passenger_fare[i] + c.passenger_fame[i] * c.fame_credits) * prm[P_PASS]


@compiled
def effective_price(s, c, p, cu, price):
    """What a buy from culture cu costs p: own credits, and IOU credits at ``IOU_WORTH`` (they buy only from
    their culture and are worth nothing at the end)."""
    if cu >= 0 and s.discoverer[cu] == p:
        iou = min(s.iou_left[cu], price)
        return price - IOU_WORTH * iou
    return float(price)


@compiled
def good_margin(s, c, p, prm, cu, sy, horizon):
    """Expected profit of buying one token of cu's good at system sy (its resale less what it costs)."""
    g = cu
    worth = best_resale(s, c, prm, g, sy, s.drive[p], cu, horizon)
    return worth - effective_price(s, c, p, cu, c.good_buy[cu])


@compiled
def port_wanted(s, c, p, prm, city):
    """Whether p means to build a spaceport from surface city ``city`` (its style, credits, a free site)."""
    if prm[P_PORT] <= 0.0 or c.space_kind[city] != R.K_CITY:
        return False
    if s.credits[p] < c.port_price + prm[P_PRES]:
        return False
    return R.port_sites(s, c, p, city) > 0


# ==============================================================================================
# destinations
# ==============================================================================================
@compiled
def contact_gain(s, c, p, prm, n_undisc):
    """What a first contact would bring p (the same at every undiscovered system): the allowance and
    discovery, half the mean IOU credits, the expected sales of the hold and passengers to that culture."""
    gain = prm[P_EXPLORE]
    if n_undisc == 0:
        return gain
    iou = 0.0
    for cu in range(R.NC):
        if s.culture_sys[cu] < 0:
            iou += c.iou[cu]
    gain += 0.5 * iou / n_undisc
    for g in range(R.NC):
        k = s.cargo[p, g]
        if k > 0:
            nb = undiscovered_buyers(s, c, g)
            gain += k * nb / n_undisc * float(c.good_resale[3 * g + R.TOKEN_ACTIVE])
    for i in range(c.n_passengers):
        dest = c.passenger_dest[i]
        if s.pass_loc[i] == R.LOC_HOLD + p and dest < 14 and s.culture_sys[dest] < 0:
            gain += passenger_worth(c, prm, i) / n_undisc
    return gain


@compiled
def place_bound(s, c, p, prm, place, room, cargo_n):
    """An upper bound of what trading at ``place`` (a discovered culture, or 14 Galactic Base) brings p:
    the hold sold at the best token, as many tokens as the holds and purse allow bought at the best
    token's margin one turn away, a port, the passengers (pick-ups one turn from their destination)."""
    ub = max(0.0, prm[P_PORT])
    sales = 0.0
    if place < 14:
        for g in range(R.NC):
            k = s.cargo[p, g]
            if k > 0 and R.buys_good(c, place, g):
                sales += k * best_token_price(c, g)
        ub += sales
        if s.market_goods[place] > 0:
            price = effective_price(s, c, p, place, c.good_buy[place])
            margin = best_token_price(c, place) - prm[P_TURN] - price
            if margin > 0.0:
                k = min(room + cargo_n, s.market_goods[place])
                if price > 0.0:
                    k = min(k, int((s.credits[p] + sales) // price))
                ub += k * margin
    for i in range(c.n_passengers):
        loc = s.pass_loc[i]
        if loc == R.LOC_HOLD + p and c.passenger_dest[i] == place:
            ub += max(0.0, passenger_worth(c, prm, i))
        elif loc == place:
            ub += max(0.0, 0.7 * (passenger_worth(c, prm, i) - prm[P_TURN]))
    return ub


@compiled
def landing_gain(s, c, p, prm, sp, horizon, room, cargo_n, pass_n, contact, need):
    """What landing on space sp (a city, port, merchant port or Galactic Base) would bring p, with
    ``horizon`` turns left after the landing (``room``: free holds now; ``cargo_n``: goods tokens held;
    ``pass_n``: passengers waiting or carried; ``contact``: :func:`contact_gain`). ``NEG`` as soon as a
    cheap upper bound shows it cannot exceed ``need`` (the best candidate so far)."""
    sy = c.space_system[sp]
    drive = s.drive[p]
    gain = 0.0
    for k in range(2):
        m = s.mission[p, k]
        if m >= 0 and c.mission_target[m] == sy:
            gain += c.mission_credits[m] + c.mission_fame[m] * c.fame_credits
    if sy == R.SYS_GB:
        place = 14
    elif sy >= 0 and s.discovered[sy] == 0:
        return gain + contact  # first contact: one of the undiscovered cultures (which, the seat cannot know)
    elif sy >= 0:
        place = s.sys_culture[sy]  # discovered: visible
    else:
        return gain
    fee = 0.0
    owner = s.port_owner[sp]
    if owner >= 0 and owner != p:
        fee = float(c.port_fee)
    cu = place if place < 14 else -1
    if need > NEG and gain + place_bound(s, c, p, prm, place, room, cargo_n) <= need:
        return NEG
    credits = float(s.credits[p])
    extra = 0  # trade actions beyond a surface city's allowance: one more turn (skipping movement) there
    if cu >= 0:
        if cargo_n > 0:
            sold = 0
            for g in range(R.NC):
                k = s.cargo[p, g]
                if k > 0 and R.buys_good(c, cu, g):
                    price = price_at(s, c, cu, g) - fee
                    if price > best_resale(s, c, prm, g, sy, drive, cu, horizon):
                        gain += k * price
                        credits += k * price
                        sold += k
            room += sold
            if sold > c.city_sells:
                extra = 1
        if s.market_goods[cu] > 0 and room > 0:
            margin = good_margin(s, c, p, prm, cu, sy, horizon - 1.0) - fee
            price = effective_price(s, c, p, cu, c.good_buy[cu]) + fee
            if margin > prm[P_MARGIN]:
                k = min(room, s.market_goods[cu])
                if price > 0:
                    k = min(k, int(credits // price))
                if k > 0:
                    gain += k * margin
                    room -= k
                    if k > c.city_buys:
                        extra = 1
        if port_wanted(s, c, p, prm, sp):
            gain += prm[P_PORT]
    if pass_n > 0:
        for i in range(c.n_passengers):
            loc = s.pass_loc[i]
            if loc == R.LOC_HOLD + p and c.passenger_dest[i] == place:
                gain += passenger_worth(c, prm, i)
            elif loc == place and c.passenger_holds[i] <= room:
                t = place_turns(s, c, prm, sy, c.passenger_dest[i], drive)
                if t <= horizon:
                    v = 0.7 * (passenger_worth(c, prm, i) - prm[P_TURN] * t)
                    if v > 0:
                        gain += v
                        room -= c.passenger_holds[i]
    if extra and not R.is_port(s, c, sp):
        gain -= prm[P_TURN]
    return gain


@compiled
def drill_gain(s, c, p, prm, sp, arrive):
    """A drill on asteroid sp placed ``arrive`` turns from now pays on the next drill round, if any is left."""
    if prm[P_DRILL] <= 0.0 or s.drill_owner[sp] >= 0 or R.tokens_left(s, c, p) <= 0:
        return NEG
    r = s.round_no + int(arrive)
    nxt = (r // c.drill_every + 1) * c.drill_every
    if nxt > c.rounds:
        return NEG
    return c.drill_income * prm[P_DRILL]


@compiled
def gain_bound(s, c, p, prm, contact):
    """An upper bound of :func:`landing_gain` over every landing space (for pruning far candidates): both
    missions, the hold sold at the best token, the free holds filled at the best margin of a discovered
    market with goods, a port, every passenger carried and the best waiting one per free hold."""
    missions = 0.0
    for k in range(2):
        m = s.mission[p, k]
        if m >= 0:
            missions += max(0.0, float(c.mission_credits[m] + c.mission_fame[m] * c.fame_credits))
    cargo = 0.0
    held = 0
    margin = 0.0
    for g in range(R.NC):
        high = best_token_price(c, g)
        k = s.cargo[p, g]
        cargo += k * high
        held += k
        if s.culture_sys[g] >= 0 and s.market_goods[g] > 0:
            margin = max(margin, high - effective_price(s, c, p, g, c.good_buy[g]))
    carried = 0.0
    waiting = 0.0
    n_waiting = 0
    for i in range(c.n_passengers):
        loc = s.pass_loc[i]
        if loc == R.LOC_HOLD + p:
            carried += max(0.0, passenger_worth(c, prm, i))
        elif 0 <= loc <= 14:
            waiting = max(waiting, passenger_worth(c, prm, i))
            n_waiting += 1
    room = s.holds[p] - R.used_holds(s, c, p)
    trade = cargo + (room + held) * margin + max(0.0, prm[P_PORT])
    return missions + max(contact, trade) + carried + 0.7 * waiting * min(room + held, n_waiting)


@compiled
def choose_target(s, c, p, prm, frm, stay):
    """The space p should head for from ``frm``: the best gain per turn of travel.

    ``stay``: ``frm`` itself is a candidate (staying costs the turn: skipping movement to trade there).
    Candidates are visited by turns of travel, nearest first, until no farther one can beat the best
    (``gain_bound`` / turns); asteroids (drills) are few and each is one lookup.
    """
    drive = s.drive[p]
    left = turns_left(s, c)
    n_undisc = undiscovered_cultures(s)
    contact = contact_gain(s, c, p, prm, n_undisc) if n_undisc > 0 else 0.0
    bound = gain_bound(s, c, p, prm, contact)
    room = s.holds[p] - R.used_holds(s, c, p)
    cargo_n = 0
    for g in range(R.NC):
        cargo_n += s.cargo[p, g]
    pass_n = 0
    for i in range(c.n_passengers):
        loc = s.pass_loc[i]
        if (0 <= loc <= 14) or loc == R.LOC_HOLD + p:
            pass_n += 1
    ports = 0
    for q in range(s.n_players):
        ports += s.ports[q]
    n_cand = c.bot_n_land + (c.bot_n_site if ports > 0 else 0)
    best = NEG
    arg = c.gb_space if frm != c.gb_space else c.bot_land[0]
    if prm[P_DRILL] > 0.0:
        for j in range(c.bot_n_ast):
            sp = c.bot_ast[j]
            if sp == frm:
                continue
            d = mp_dist(c, drive, frm, sp)
            t = max(1.0, turns_for(prm, d))
            if t > left:
                continue
            v = drill_gain(s, c, p, prm, sp, t) / t
            if v > best:
                best = v
                arg = sp
    tier = 1.0
    while tier <= left and bound / tier > best:
        farther = False
        for j in range(n_cand):
            if j < c.bot_n_land:
                sp = c.bot_land[j]
                if s.bankrupt[sp] != 0:  # a neutral port closed by an Asteroid System port: no landing
                    continue
            else:
                sp = c.bot_site[j - c.bot_n_land]
                if s.port_owner[sp] < 0:
                    continue
            if sp == frm:
                if not stay:
                    continue
                t = 1.0
            else:
                d = mp_dist(c, drive, frm, sp)
                if d >= R.BOT_FAR:
                    continue
                t = max(1.0, turns_for(prm, d))
            if t != tier:
                if t > tier:
                    farther = True
                continue
            v = landing_gain(s, c, p, prm, sp, left - t, room, cargo_n, pass_n, contact, best * t) / t
            if v > best:
                best = v
                arg = sp
        if not farther:
            break
        tier += 1.0
    return arg


# ==============================================================================================
# movement
# ==============================================================================================
@njit(cache=True, inline="always")
def edge_score(s, c, p, sp, k, target):
    """Minus the MP of going along slot k and on to the target by the fewest MP."""
    t = c.adj[sp, k]
    return -(R.edge_cost(s, c, sp, k) + mp_dist(c, s.drive[p], t, target))


@compiled
def next_slot(s, c, p, sp, back, target):
    """The slot of the shortest way on from sp towards the target, not straight back to ``back``."""
    best = NEG
    arg = -1
    for k in range(c.adj_n[sp]):
        if not R.edge_open(s, c, sp, k) or c.adj[sp, k] == back:
            continue
        v = edge_score(s, c, p, sp, k, target)
        if v > best:
            best = v
            arg = k
    return arg


@compiled
def wanted_nav_die(s, c, p, target, mp):
    """Walk the shortest way towards the target with ``mp`` MP: at the first navigation space on it, the
    die values (bit mask) that lead out the right way; 0 when the walk meets none."""
    sp = s.pos[p]
    back = s.came_from[p] if s.steps > 0 else -1
    left = mp
    for _ in range(64):
        if sp == target:
            return 0
        k = next_slot(s, c, p, sp, back, target)
        if k < 0:
            return 0
        if c.is_nav[sp] != 0:
            return c.nav_mask[sp, k]
        cost = R.edge_cost(s, c, sp, k)
        if cost > left:
            return 0
        left -= cost
        back = sp
        sp = c.adj[sp, k]
    return 0


@compiled
def score_assign(s, c, p, a, target, want):
    """Dice: a navigation die that points the right way first, then thrust when the target is out of reach."""
    if a == R.A_DONE:
        return 0.0
    if a < R.A_NAV:
        d = mp_dist(c, s.drive[p], s.pos[p], target)
        return 1.0 if d > s.mp else -0.5
    i = a - R.A_NAV
    if want != 0 and (want >> s.dice[i]) & 1 == 1:
        return 2.0
    return -1.0


# ==============================================================================================
# trade
# ==============================================================================================
@compiled
def reserve_penalty(s, c, p, prm, cost):
    after = s.credits[p] - cost
    if after < prm[P_CASH]:
        return prm[P_CASH] - after
    return 0.0


@compiled
def equipment_worth(s, c, p, prm, e, share):
    """Worth of equipment e (0 laser, 1 shield, 2 hold, 3.. drives) to p for the rest of the game."""
    if e == 0:
        return float(c.laser_fame_per_point * c.fame_credits)
    if e == 1:
        return float(c.shield_fame_per_point * c.fame_credits)
    if e == 2:
        return c.hold_fame * c.fame_credits + prm[P_EQUIP] * HOLD_ROOM_WORTH * share
    new = e - 2
    gain = ((new & 1) + (new >> 1)) - ((s.drive[p] & 1) + (s.drive[p] >> 1))
    return gain * prm[P_EQUIP] * DRIVE_COLOUR_WORTH * share


@compiled
def tech_worth(s, c, p, prm, j, share):
    kind = R.token_kind(c, j)
    effect = c.tech_effect[kind]
    if effect == R.FX_GENERIC:
        return float(c.upgrade_slot_fame[s.upgrades[p]] * c.fame_credits)
    if effect == R.FX_THRUST_BOOSTER:
        return prm[P_EQUIP] * BOOSTER_WORTH * share
    return FUZZY_MEAN_FAME * c.fame_credits


@compiled
def score_trade(s, c, p, a, prm):
    """Worth of one trade action now against ending the trade (0)."""
    if a == R.A_DONE:
        return 0.0
    sp = s.pos[p]
    sy = c.space_system[sp]
    cu = R.culture_here(s, c, sp)
    horizon = float(c.rounds - s.round_no)  # turns after this one
    share = horizon / c.rounds
    fee = 0.0
    owner = s.port_owner[sp]
    if owner >= 0 and owner != p:
        fee = float(c.port_fee)
    no_buy = 0.0
    if port_wanted(s, c, p, prm, sp):
        no_buy = prm[P_PORT] + 1.0  # a buy would forbid the port this turn
    if R.A_SELL <= a < R.A_EQUIP:
        g = a - R.A_SELL
        # sell here unless a reachable buyer pays more (after the turns to get there)
        return price_at(s, c, cu, g) - fee - best_resale(s, c, prm, g, sy, s.drive[p], cu, horizon) + 1.0
    if a == R.A_BUY_GOOD:
        return good_margin(s, c, p, prm, cu, sy, horizon - 1.0) - fee - prm[P_MARGIN] - no_buy
    if R.A_EQUIP <= a < R.A_TECH:
        e = a - R.A_EQUIP
        cost = effective_price(s, c, p, cu, R.equip_price(c, e)) + fee
        return equipment_worth(s, c, p, prm, e, share) - cost - reserve_penalty(s, c, p, prm, cost) - no_buy - 1.0
    if R.A_TECH <= a < R.A_PICKUP:
        j = a - R.A_TECH
        cost = effective_price(s, c, p, cu, c.tech_price[R.token_kind(c, j)]) + fee
        return tech_worth(s, c, p, prm, j, share) - cost - reserve_penalty(s, c, p, prm, cost) - no_buy - 1.0
    if R.A_PICKUP <= a < R.A_DROP:
        i = a - R.A_PICKUP
        t = place_turns(s, c, prm, sy, c.passenger_dest[i], s.drive[p])
        if t > horizon:
            return -1.0
        return passenger_worth(c, prm, i) - prm[P_TURN] * t - 10.0 * c.passenger_holds[i]
    if R.A_DROP <= a < R.A_PILOT:
        return 1e6  # a delivered passenger pays its fare (any infamy is less than the fare)
    if a == R.A_PILOT:
        cost = float(c.pilot_upgrade_price[s.pilot[p]])
        worth = c.fame_credits + prm[P_EQUIP] * PILOT_WORTH * share
        return worth - cost - reserve_penalty(s, c, p, prm, cost)
    if a == R.A_REWARD:
        cost = float(c.reward_price)
        return c.reward_fame * c.fame_credits - cost - reserve_penalty(s, c, p, prm, cost)
    if a == R.A_MISSION:
        cost = float(c.second_mission_price)
        worth = 0.0
        total = 0
        for m in range(c.n_missions):
            if s.mission_bag[m] > 0:
                worth += c.mission_credits[m] + c.mission_fame[m] * c.fame_credits
                total += 1
        if total > 0:
            worth = 0.5 * worth / total * share
        return worth - cost - reserve_penalty(s, c, p, prm, cost)
    return -1.0


# ==============================================================================================
# the policy
# ==============================================================================================
@compiled
def score_action(s, c, p, a, prm, target, want):
    ph = s.phase
    if ph == R.PH_DIALS:
        diff = float(c.laser_fame_per_point - c.shield_fame_per_point)
        return diff if a == R.A_LASER_HIGH else -diff
    if ph == R.PH_START:
        if a == R.A_SKIP:
            return 1.0 if (target == s.pos[p] and R.is_landing(s, c, s.pos[p])) else -1.0
        return 0.0 if a == R.A_GO else -0.5
    if ph == R.PH_HEADING or ph == R.PH_MOVE:
        if a == R.A_LAND:
            return 1e6 if s.pos[p] == target else NEG
        return edge_score(s, c, p, s.pos[p], a - R.A_EDGE, target)
    if ph == R.PH_NAV_CHOICE:
        return 0.0  # the next player's choice for a rival's ship: any exit (ties broken by the bot's stream)
    if ph == R.PH_ASSIGN:
        return score_assign(s, c, p, a, target, want)
    if ph == R.PH_TRADE:
        return score_trade(s, c, p, a, prm)
    if ph == R.PH_DRILL:
        return 1.0 if a == R.A_DRILL else 0.0
    if ph == R.PH_PORT:
        if a == R.A_DONE:
            return 0.0
        if prm[P_PORT] > 0.0 and s.credits[p] >= c.port_price + prm[P_PRES]:
            return 1.0
        return -1.0
    return 0.0


@compiled
def heuristic_policy(params, st, cf, buf, n, bot_rng, seat):
    """The trader's or porter's (by ``params``) best action; ties broken by the bot's own stream."""
    s = st[0]
    c = cf[0]
    ph = s.phase
    target = -1
    want = 0
    if ph == R.PH_START and R.is_landing(s, c, s.pos[seat]):
        target = choose_target(s, c, seat, params, s.pos[seat], True)  # stay and trade, or go
    elif ph == R.PH_HEADING or ph == R.PH_MOVE or ph == R.PH_ASSIGN:
        target = choose_target(s, c, seat, params, s.turn_start, False)
        if ph == R.PH_ASSIGN:
            want = wanted_nav_die(s, c, seat, target, s.mp)
    best = NEG
    arg = buf[0]
    for i in range(n):
        a = buf[i]
        val = score_action(s, c, seat, a, params, target, want) + 1e-6 * uniform(bot_rng, seat)
        if val > best:
            best = val
            arg = a
    return arg


# ==============================================================================================
# a position cut short (core's search: ismcts:depth=D)
# ==============================================================================================
@compiled
def held_good_worth(s, c, g):
    """What one token of good g in a hold is worth to a seat now: the best price a discovered buyer's top
    token pays, or the active token's price when only undiscovered cultures buy it (0 when nobody does)."""
    best = 0.0
    unknown = False
    for b in range(R.NC):
        if not R.buys_good(c, b, g):
            continue
        if s.culture_sys[b] < 0:
            unknown = True
        else:
            best = max(best, price_at(s, c, b, g))
    if best == 0.0 and unknown:
        best = float(c.good_resale[3 * g + R.TOKEN_ACTIVE])
    return best


@compiled
def estimate_now(st, cf):
    """The game ended where it stands, with what each seat carries counted: every good in its hold at
    ``HELD_AT_CUT`` of :func:`held_good_worth`, every passenger aboard at that share of its fare and fame in
    credits; then the rules' ``end_game`` (ports sell, fame pays, IOUs are lost, most credits wins).

    Core's search scores its cut-short playouts with it (``ismcts:depth=D``, docs/search.md) instead of the
    bare final scoring, which values an unsold good at nothing, so that a playout that trades is not judged
    by the loss of the goods it has just bought. Only the seats' own holds are read, as at the game's end.
    """
    s = st[0]
    c = cf[0]
    for p in range(s.n_players):
        worth = 0.0
        for g in range(R.NC):
            if s.cargo[p, g] > 0:
                worth += s.cargo[p, g] * held_good_worth(s, c, g)
        for i in range(c.n_passengers):
            if s.pass_loc[i] == R.LOC_HOLD + p:
                worth += c.passenger_fare[i] + c.passenger_fame[i] * c.fame_credits
        s.credits[p] += int(HELD_AT_CUT * worth)
    R.end_game(s, c)
