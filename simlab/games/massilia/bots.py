"""Massilia's bots: compiled policies over the state record.

- ``random``: a uniformly random legal action at every decision (the baseline).
- ``trader``: sells goods to customers. It values a die by the best immediate use it can make of it:
  walking a customer to its own stocked stall (sesterces at the temple price plus fame at the colour's
  marker), buying the colours whose markers stand high, opening stalls with the consul, taxing the
  rivals' stocked stalls; it modifies dice with tokens or cards only when the gain beats their cost.
- ``priest``: the same one-step evaluation with a temple player's priorities: fame bought with black
  dice is worth more to it, deity cards too (it prays with grey dice and keeps more cards), goods less.

Both are myopic one-step heuristics written from the rules' strategy (sell where the marker is high,
buy fame when the temple is cheap, avoid penalty tokens, keep stalls stocked against the consul). They
read only what their seat may see: the board, the temple, their own money, hand and kept dice.
Parameters (spec strings such as ``trader:token_cost=3``) are declared in ``PARAMS``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.compiled import compiled
from simlab.core.components import cards_left
from simlab.core.params import ParamLayout
from simlab.core.rng import uniform
from simlab.games.massilia import rules as R

# Defaults tuned by round-robin against the trader (1,000 games per candidate, lineups rotated): keeping
# rolled dice rarely pays, so the trader keeps only a die worth more than 5 points now.
PARAMS = ParamLayout.table(
    """
    parameter       trader  priest  meaning
    money_value     0.45    0.45    points per sesterce held (end scoring gives 1/3; money also buys actions)
    token_cost      2.5     2.5     points a penalty token costs (2 at the end, plus the lost option)
    card_value      0.9     1.2     points a deity card in hand is worth
    fame_weight     0.8     1.0     multiplier on fame gained
    sale_weight     1.0     0.8     multiplier on the expected value of goods put on stalls
    stall_weight    1.0     1.0     multiplier on the end points of one more stall
    aggression      0.3     0.2     points per rival cube taxed or stall closed by the consul
    keep_threshold  5.0     3.0     least gain (points) for which a rolled die is kept
    """
)
TRADER, PRIEST = PARAMS.defaults("trader", "priest")
PARAM_NAMES = PARAMS.names
P_MONEY, P_TOKEN, P_CARD, P_FAME = PARAMS.indices("money_value", "token_cost", "card_value", "fame_weight")
P_SALE, P_STALL, P_AGGR, P_KEEP = PARAMS.indices("sale_weight", "stall_weight", "aggression", "keep_threshold")
# per-decision context (see ``context``): own room, payable cards, cards left, temple price, the worth of
# one cube of each colour, then stalls per seat and cubes per space
C_ROOM, C_PAYABLE, C_CARDS, C_TEMPLE, C_CUBE = 0, 1, 2, 3, 4
C_STALLS = C_CUBE + 4
C_TOTAL = C_STALLS + R.P
C_SIZE = C_TOTAL + R.S
# the rest of a decision's work array (one allocation per decision, see ``heuristic_policy``): the move
# table (``move_table``, pawn * S + space), the gains of die uses by (action, value) (``memo_gain``) and
# at a turn the gains of taking each die (``take_table``)
W_MOVE = C_SIZE
MEMO_V = 40  # die totals remembered: 1..39
W_MEMO = W_MOVE + 4 * R.S
W_TAKE = W_MEMO + 4 * MEMO_V  # a turn's gains of taking each die (colour * 6 + value - 1, ``take_table``)
W_SIZE = W_TAKE + 24

#: how much each style wants a deity card of each type (multiplies card_value)
CARD_WISH = np.array([1.3, 0.9, 0.9, 0.8, 1.0, 1.0, 0.7, 0.8, 0.9])


# ==============================================================================================
# immediate value of die uses
# ==============================================================================================
# The evaluators run per legal action or per die value (use_gain, memo_gain, best_move_tab, build_value,
# keep_value) are inlined by numba (inline="always"): a call passing the record and arrays costs more than
# their bodies. The bigger ones (best_move, best_buy, move_table) stay calls, to keep compiling quick.
@compiled
def stall_gain(s, c, p, prm, ctx):
    """Points of one more stall on the market."""
    k = int(ctx[C_STALLS + p])
    last = c.n_stall_points - 1
    a = c.stall_points[min(k, last)]
    b = c.stall_points[min(k + 1, last)]
    return prm[P_STALL] * (b - a)


@compiled
def cube_value(s, c, g, prm):
    """Expected worth of one cube of goods g on a stall (it may still be sold to a customer)."""
    temple = R.eff_price(s, R.TEMPLE)
    if g == R.BEIGE:
        return prm[P_SALE] * 0.5 * temple * prm[P_MONEY]
    return prm[P_SALE] * 0.6 * (s.marker[g] * prm[P_FAME] + temple * prm[P_MONEY])


@compiled
def place_gain(s, c, p, prm, ctx):
    """Gain of the consul stopping at an empty space (the same at every empty space): the stall offered."""
    if s.reserve[p] > 0 and s.money[p] >= c.consul_place_cost:
        return stall_gain(s, c, p, prm, ctx) - c.consul_place_cost * prm[P_MONEY]
    return 0.0


@compiled
def move_gain(s, c, p, pawn, sp, prm, ctx):
    """Immediate gain of stopping ``pawn`` at space ``sp``."""
    o = s.stall_owner[sp]
    if pawn > 0:
        if o != p:
            return 0.0
        temple = ctx[C_TEMPLE]
        g = pawn - 1
        n = s.cubes[sp, g]
        if n > 0:
            return n * (temple * prm[P_MONEY] + s.marker[g] * prm[P_FAME] - ctx[C_CUBE + g] * 0.5)
        nb = s.cubes[sp, R.BEIGE]
        return nb * temple * prm[P_MONEY] * 0.8
    # consul
    if o < 0:
        return place_gain(s, c, p, prm, ctx)
    total = ctx[C_TOTAL + sp]
    if o == p:
        if s.hand[p, R.PLUTON] > 0:
            return -0.5
        if total == 0:
            return -stall_gain(s, c, p, prm, ctx) if ctx[C_STALLS + p] > 1 else 0.0
        return -total * 0.8
    if total == 0:
        return prm[P_AGGR] * 3.0 if ctx[C_STALLS + o] > 1 else 0.0
    return prm[P_AGGR] * total


@compiled
def best_move(s, c, p, v, prm, ctx):
    """(gain, pawn * 2 + direction) of the best brown move by v spaces."""
    owner = s.stall_owner  # array views taken once: the inner loop is hot
    cubes = s.cubes
    pos = s.pawn
    spaces = c.spaces
    sale_money = ctx[C_TEMPLE] * prm[P_MONEY]
    best = -1e9
    arg = 0
    for pawn in range(4):
        for d in range(2):
            sp = (pos[pawn] + (v if d == 0 else spaces - v % spaces)) % spaces
            if pawn == 0:
                gval = move_gain(s, c, p, 0, sp, prm, ctx)
            elif owner[sp] != p:
                gval = 0.0
            else:
                g = pawn - 1
                n = cubes[sp, g]
                if n > 0:
                    gval = n * (sale_money + s.marker[g] * prm[P_FAME] - ctx[C_CUBE + g] * 0.5)
                else:
                    gval = cubes[sp, 3] * sale_money * 0.8
            if gval > best:
                best = gval
                arg = pawn * 2 + d
    return best, arg


@compiled
def move_table(s, c, p, prm, ctx):
    """Fill ``ctx[W_MOVE + pawn * S + sp]`` with the gain ``best_move`` counts for stopping ``pawn`` at
    space ``sp``.

    The board does not change while a decision is evaluated, so each (pawn, space) is evaluated once per
    decision and a brown move by any value is then 8 lookups (``best_move_tab``). The expressions are
    those of ``best_move``, operation for operation, so the values are bit-identical to it.
    """
    owner = s.stall_owner
    cubes = s.cubes
    sale_money = ctx[C_TEMPLE] * prm[P_MONEY]
    fame = prm[P_FAME]
    place = place_gain(s, c, p, prm, ctx)  # the consul at any empty space, evaluated once
    for sp in range(c.spaces):
        o = owner[sp]
        ctx[W_MOVE + sp] = place if o < 0 else move_gain(s, c, p, 0, sp, prm, ctx)
        if o != p:
            ctx[W_MOVE + R.S + sp] = 0.0
            ctx[W_MOVE + 2 * R.S + sp] = 0.0
            ctx[W_MOVE + 3 * R.S + sp] = 0.0
            continue
        beige = cubes[sp, 3] * sale_money * 0.8
        for g in range(3):
            n = cubes[sp, g]
            if n > 0:
                ctx[W_MOVE + (g + 1) * R.S + sp] = n * (sale_money + s.marker[g] * fame - ctx[C_CUBE + g] * 0.5)
            else:
                ctx[W_MOVE + (g + 1) * R.S + sp] = beige


@njit(cache=True, inline="always")
def best_move_tab(s, c, v, ctx):
    """best_move(...)[0] read from a filled ``move_table`` (v >= 1)."""
    spaces = c.spaces
    pos = s.pawn
    step = v % spaces
    best = -1e9
    for pawn in range(4):
        x = pos[pawn]
        row = W_MOVE + pawn * R.S
        sp = x + step
        if sp >= spaces:
            sp -= spaces
        gval = ctx[row + sp]
        if gval > best:
            best = gval
        sp = x - step
        if sp < 0:
            sp += spaces
        gval = ctx[row + sp]
        if gval > best:
            best = gval
    return best


@compiled
def buy_gain(s, c, p, g, k, v, prm):
    cost = k * R.goods_price(s, c, g) + (v - k) * c.beige_price
    return k * cube_value(s, c, g, prm) + (v - k) * cube_value(s, c, R.BEIGE, prm) - cost * prm[P_MONEY]


@compiled
def buy_gain_ctx(s, c, g, k, v, prm, ctx):
    """buy_gain with the cube values read from the decision context."""
    cost = k * R.goods_price(s, c, g) + (v - k) * c.beige_price
    return k * ctx[C_CUBE + g] + (v - k) * ctx[C_CUBE + R.BEIGE] - cost * prm[P_MONEY]


@compiled
def best_buy(s, c, p, v, prm, ctx):
    """(gain, g * 32 + k) of the best affordable purchase of v cubes."""
    best = -1e9
    arg = -1
    if ctx[C_ROOM] < v:
        return best, arg
    for g in range(3):
        if s.harbour[g] < 1:
            continue
        pg = R.goods_price(s, c, g)
        for k in range(1, min(v, s.harbour[g]) + 1):
            if v - k <= s.harbour[R.BEIGE] and k * pg + (v - k) * c.beige_price <= s.money[p]:
                gval = buy_gain_ctx(s, c, g, k, v, prm, ctx)
                if gval > best:
                    best = gval
                    arg = g * 32 + k
    return best, arg


@njit(cache=True, inline="always")
def use_gain(s, c, p, a, v, prm, ctx):
    """Immediate gain (points) of performing die action ``a`` with value ``v`` now (-1e9: impossible)."""
    if v < 1:
        return -1e9
    if a == R.BROWN:
        return best_move(s, c, p, v, prm, ctx)[0]
    if a == R.BEIGE_DIE:
        return best_buy(s, c, p, v, prm, ctx)[0]
    if a == R.BLACK:
        price = R.eff_price(s, R.TEMPLE)
        if s.money[p] < (v * price if c.fame_full == 1 else price):
            return -1e9
        pts = v if c.fame_full == 1 else min(v, s.money[p] // price)
        return pts * (prm[P_FAME] - price * prm[P_MONEY])
    # grey: cards worth card_value each, paid with the cheapest cubes
    if s.hand_n[p] >= c.hand_limit or ctx[C_CARDS] == 0 or ctx[C_PAYABLE] < 1:
        return -1e9
    room = min(v, ctx[C_PAYABLE])
    if c.hand_limit_caps_keep == 1:
        room = min(room, c.hand_limit - s.hand_n[p])
    keep = min(room, 2)
    return keep * (prm[P_CARD] - ctx[C_CUBE + R.BEIGE] * c.beige_per_card - 0.3)


@compiled
def fast_gain(s, c, p, a, v, prm, ctx):
    """use_gain, with brown moves read from the decision's move table (filled on first use; same values)."""
    if a == R.BROWN and v >= 1:
        if np.isnan(ctx[W_MOVE]):
            move_table(s, c, p, prm, ctx)
        return best_move_tab(s, c, v, ctx)
    return use_gain(s, c, p, a, v, prm, ctx)


@njit(cache=True, inline="always")
def memo_gain(s, c, p, a, v, prm, ctx):
    """use_gain, remembered per (action, value) while the board stays as it is."""
    if v >= MEMO_V:
        return fast_gain(s, c, p, a, v, prm, ctx)
    i = W_MEMO + a * MEMO_V + v
    if np.isnan(ctx[i]):
        ctx[i] = fast_gain(s, c, p, a, v, prm, ctx)
    return ctx[i]


@compiled
def current_gain(s, c, p, prm, ctx):
    return memo_gain(s, c, p, s.act_action, R.act_value(s), prm, ctx)


@compiled
def turn_table(s, c, p, prm, ctx):
    """The memo of every die action at every value 1..6 (all of them a turn decision reads)."""
    move_table(s, c, p, prm, ctx)
    for v in range(1, 7):
        ctx[W_MEMO + R.BROWN * MEMO_V + v] = best_move_tab(s, c, v, ctx)
        ctx[W_MEMO + R.GREY * MEMO_V + v] = use_gain(s, c, p, R.GREY, v, prm, ctx)
        ctx[W_MEMO + R.BLACK * MEMO_V + v] = use_gain(s, c, p, R.BLACK, v, prm, ctx)
        ctx[W_MEMO + R.BEIGE_DIE * MEMO_V + v] = use_gain(s, c, p, R.BEIGE_DIE, v, prm, ctx)


@compiled
def context(s, c, p, prm):
    """Per-decision aggregates of the bot's own stalls (they do not change while it evaluates)."""
    ctx = np.empty(C_SIZE)
    fill_context(s, c, p, prm, ctx)
    return ctx


@compiled
def fill_context(s, c, p, prm, ctx):
    """context() written into ``ctx[:C_SIZE]``."""
    for i in range(C_SIZE):
        ctx[i] = 0.0
    room = 0
    coloured = 0
    beige = 0
    for sp in range(c.spaces):
        o = s.stall_owner[sp]
        if o >= 0:
            total = s.cubes[sp, 0] + s.cubes[sp, 1] + s.cubes[sp, 2] + s.cubes[sp, 3]
            ctx[C_STALLS + o] += 1
            ctx[C_TOTAL + sp] = total
            if o == p:
                room += c.stall_capacity - total
                coloured += s.cubes[sp, 0] + s.cubes[sp, 1] + s.cubes[sp, 2]
                beige += s.cubes[sp, 3]
    ctx[C_ROOM] = room
    ctx[C_PAYABLE] = coloured + beige // c.beige_per_card
    ctx[C_CARDS] = cards_left(s.deck_n, s.discard)
    ctx[C_TEMPLE] = R.eff_price(s, R.TEMPLE)
    for g in range(4):
        ctx[C_CUBE + g] = cube_value(s, c, g, prm)


# ==============================================================================================
# the policy
# ==============================================================================================
@compiled
def score_action(s, c, p, a, prm, ctx):
    """Heuristic value of legal action ``a`` at the decision at hand (higher is better)."""
    ph = s.phase
    if ph == R.PH_MAIN or ph == R.PH_BUILD:
        return score_turn_action(s, c, p, a, prm, ctx)
    if ph == R.PH_KEEP:
        return keep_value(c, a, prm, use_gain(s, c, p, s.rolled_col[s.rolled_i], s.rolled_val[s.rolled_i], prm, ctx))
    if ph == R.PH_MOVE:
        x = a - R.A_MOVE
        pawn = x // 2
        step = R.act_value(s) if x % 2 == 0 else -R.act_value(s)
        return move_gain(s, c, p, pawn, (s.pawn[pawn] + step) % c.spaces, prm, ctx)
    if ph == R.PH_CONSUL_PLACE:
        if a == R.A_NO:
            return 0.0
        return stall_gain(s, c, p, prm, ctx) - c.consul_place_cost * prm[P_MONEY]
    if ph == R.PH_PLUTON:
        total = R.stall_total(s, s.consul_space)
        lose = stall_gain(s, c, p, prm, ctx) if total == 0 else total * 0.8
        return lose if a == R.A_YES else prm[P_CARD] * CARD_WISH[R.PLUTON]
    return score_plain(s, c, p, a, prm)


@compiled
def uses_context(ph):
    """Does score_action read the decision context at this phase? (the others are ``score_plain``)"""
    return (
        ph == R.PH_MAIN
        or ph == R.PH_BUILD
        or ph == R.PH_KEEP
        or ph == R.PH_MOVE
        or ph == R.PH_CONSUL_PLACE
        or ph == R.PH_PLUTON
    )


@njit(cache=True, inline="always")
def keep_value(c, a, prm, gval):
    """Value of keeping a rolled die (or not) whose best use now is worth ``gval``."""
    if a == R.A_KEEPDIE_TEMPLE:
        return prm[P_KEEP]
    if a == R.A_KEEPDIE_PAY:
        return gval - c.keep_die_cost * prm[P_MONEY]
    return gval - prm[P_CARD] * CARD_WISH[R.MARS] + 0.01


@compiled
def score_plain(s, c, p, a, prm):
    """score_action at the decisions that need no context (``uses_context`` is False)."""
    ph = s.phase
    if ph == R.PH_SETUP:
        sp = a - R.A_SPACE
        # near customers of the colours on the stall is unknown yet: prefer spaces near a customer
        best = 99
        for pawn in range(1, 4):
            d = abs(s.pawn[pawn] - sp)
            d = min(d, c.spaces - d)
            best = min(best, d)
        return -abs(best - 3)
    if ph == R.PH_ROLL:
        return float(a - R.A_COUNT)  # roll every die: unrolled dice do nothing this round
    if ph == R.PH_MOVECUBES:
        if a == R.A_NO:
            return 0.5 if R.stall_total(s, s.consul_space) == 0 else 1.0
        x = a - R.A_CUBE
        # one cube keeps the new stall from being closed; take it from a stall that can spare it
        return 0.9 if R.stall_total(s, x // 4) >= 2 else 0.0
    if ph == R.PH_TAX:
        k = a - R.A_COUNT
        # keep the best cubes by paying, as long as a cube is worth more than the tax
        worth = 0.0
        left = k
        for g in range(3):
            take = min(left, s.cubes[s.consul_space, g])
            worth += take * cube_value(s, c, g, prm)
            left -= take
        worth += left * cube_value(s, c, R.BEIGE, prm)
        return worth - k * c.tax_per_cube * prm[P_MONEY]
    if ph == R.PH_TAXCUBE or ph == R.PH_PAYCARD:
        g = (a - R.A_COLOUR) if ph == R.PH_TAXCUBE else (a - R.A_CUBE) % 4
        return -cube_value(s, c, g, prm)
    if ph == R.PH_BUY_COLOUR:
        g = a - R.A_COLOUR
        v = R.act_value(s)
        best = -1e9
        for k in range(1, min(v, s.harbour[g]) + 1):
            if v - k <= s.harbour[R.BEIGE] and k * R.goods_price(s, c, g) + (v - k) * c.beige_price <= s.money[p]:
                best = max(best, buy_gain(s, c, p, g, k, v, prm))
        return best
    if ph == R.PH_BUY_COUNT:
        return buy_gain(s, c, p, s.buy_colour, a - R.A_COUNT, R.act_value(s), prm)
    if ph == R.PH_PLACE:
        sp = a - R.A_SPACE
        g = 0
        for i in range(4):
            if s.place_left[i] > 0:
                g = i
                break
        val = 0.0
        if g < 3:
            d = abs(s.pawn[g + 1] - sp)
            d = min(d, c.spaces - d)
            val = -0.2 * d + (1.0 if s.cubes[sp, g] > 0 else 0.0)
        else:
            val = 0.5 if s.cubes[sp, 0] + s.cubes[sp, 1] + s.cubes[sp, 2] == 0 else 0.0
        # the consul closes empty stalls: spread cubes over empty stalls first
        if R.stall_total(s, sp) == 0:
            val += 0.7
        return val
    if ph == R.PH_KEEPCARD:
        t = s.drawn[s.drawn_i]
        if a == R.A_NO:
            return 0.0
        wish = prm[P_CARD] * CARD_WISH[t]
        if t == R.VENUS and s.tokens[p] == 0:
            wish *= 0.3
        return wish - cube_value(s, c, R.BEIGE, prm) * c.beige_per_card - 0.3 * s.kept_n
    return 0.0


@compiled
def pass_value(s, c, p, prm):
    n = c.players
    if s.n_passed == n - 1:
        return 0.3  # the last passer starts next round
    return c.turn_tiles[n - 2 - s.n_passed] * prm[P_MONEY]


@compiled
def score_turn_action(s, c, p, a, prm, ctx):
    """Value of a turn-level choice: pass, a card, modifying the die in use or executing."""
    if a == R.A_PASS:
        return pass_value(s, c, p, prm)
    if a == R.A_EXECUTE:
        return current_gain(s, c, p, prm, ctx)
    if a == R.A_VENUS or R.A_VENUS_FEWER <= a < R.A_TAKE:
        back = R.venus_back(s, c, p, a)
        return back * prm[P_TOKEN] - prm[P_CARD] * CARD_WISH[R.VENUS] + 0.5
    if a < R.A_TAKE:
        if s.phase != R.PH_BUILD:
            return -1e9
        x = a - R.A_MERCURE
        delta = 1 if x % 2 == 1 else -1
        s.price_mod[x // 2] += delta
        gval = use_gain(s, c, p, s.act_action, R.act_value(s), prm, context(s, c, p, prm))
        s.price_mod[x // 2] -= delta
        return gval - prm[P_CARD] * CARD_WISH[R.MERCURE]
    if s.phase != R.PH_BUILD:
        return -1e9
    return build_value(s, c, p, a, prm, ctx, R.act_value(s))


@compiled
def take_table(s, c, p, prm, ctx):
    """Fill ``ctx[W_TAKE + d * 6 + v - 1]`` with the best gain from a die of colour d and value v with one
    ±1 or a change of action (its use as rolled is A_TAKE_EXEC), minus the cheapest way to pay for it.

    Reads the memo of ``turn_table``. A turn offers most dice (from the temple and from kept dice alike):
    the costs are worked out once per decision and each die is then one lookup.
    """
    tok = prm[P_TOKEN] if s.supply > 0 else 1e9
    change = tok
    if s.hand[p, R.JUPITER] > 0:
        change = min(change, prm[P_CARD] * CARD_WISH[R.JUPITER])
    for d in range(4):
        card = R.mod_card_for(d)
        cost = tok
        if card >= 0 and s.hand[p, card] > 0:
            cost = min(cost, prm[P_CARD] * CARD_WISH[card])
        for v in range(1, 7):
            best = -1e9
            for up in range(2):
                best = max(best, ctx[W_MEMO + d * MEMO_V + R.wrap(v, up)] - cost)
            for a in range(4):
                if a != d:
                    best = max(best, ctx[W_MEMO + a * MEMO_V + v] - change)
            ctx[W_TAKE + d * 6 + v - 1] = best


@njit(cache=True, inline="always")
def build_value(s, c, p, a, prm, ctx, total):
    """Gain after one modification of the die use in progress (its dice total ``total``), minus what it
    costs. A die use's gain depends only on its action and total (see ``memo_gain``), so the modified use
    is evaluated from those two numbers, without writing the modification into the record."""
    if a < R.A_CHANGE_TOKEN:
        junon = a >= R.A_EXTRA_JUNON
        x = a - (R.A_EXTRA_JUNON if junon else R.A_EXTRA_TOKEN)
        gval = memo_gain(s, c, p, s.act_action, total + x % 6 + 1, prm, ctx)
        cost = prm[P_CARD] * CARD_WISH[R.JUNON] if junon else prm[P_TOKEN]
        return gval - cost - 0.5  # the extra die is also lost for later
    if a < R.A_MOD_TOKEN:
        jup = a >= R.A_CHANGE_JUPITER
        gval = memo_gain(s, c, p, a - (R.A_CHANGE_JUPITER if jup else R.A_CHANGE_TOKEN), total, prm, ctx)
        cost = prm[P_CARD] * CARD_WISH[R.JUPITER] if jup else prm[P_TOKEN]
        return gval - cost
    card = a >= R.A_MOD_CARD
    x = a - (R.A_MOD_CARD if card else R.A_MOD_TOKEN)
    old = s.act_val[x // 2]
    gval = memo_gain(s, c, p, s.act_action, total - old + R.wrap(old, x % 2), prm, ctx)
    if card:
        return gval - prm[P_CARD] * CARD_WISH[R.mod_card_for(s.act_action)] - 0.05
    return gval - prm[P_TOKEN]


@compiled
def heuristic_policy(params, st, cf, buf, n, bot_rng, seat):
    """The trader's or priest's (by ``params``) best one-step action; ties broken by the bot's own stream."""
    s = st[0]
    c = cf[0]
    best = -1e18
    arg = buf[0]
    ph = s.phase
    if not uses_context(ph):
        for i in range(n):
            a = buf[i]
            val = score_plain(s, c, seat, a, params)
            val += 1e-6 * uniform(bot_rng, seat)
            if val > best:
                best = val
                arg = a
        return arg
    main = ph == R.PH_MAIN
    build = ph == R.PH_BUILD
    # one work array per decision: the context, then the move table and the memo of die uses
    ctx = np.empty(W_SIZE)
    fill_context(s, c, seat, params, ctx)
    if ph == R.PH_KEEP:
        # the rolled die's best use now, once for the (up to three) ways to keep it or not
        gval = use_gain(s, c, seat, s.rolled_col[s.rolled_i], s.rolled_val[s.rolled_i], params, ctx)
        for i in range(n):
            a = buf[i]
            val = keep_value(c, a, params, gval)
            val += 1e-6 * uniform(bot_rng, seat)
            if val > best:
                best = val
                arg = a
        return arg
    if main:
        # a turn reads every die action at every value 1..6: each is evaluated once, brown moves from
        # the per-space move table
        turn_table(s, c, seat, params, ctx)
        take_table(s, c, seat, params, ctx)
    elif build:
        ctx[W_MOVE] = np.nan  # the move table is filled on first use
        for i in range(W_MEMO, W_TAKE):
            ctx[i] = np.nan
    total = R.act_value(s)  # the dice total of the use in progress (read by the modifications of it)
    for i in range(n):
        a = buf[i]
        if main and a >= R.A_TAKE_EXEC:
            x = a - R.A_TAKE_EXEC
            val = ctx[W_MEMO + ((x % 24) // 6) * MEMO_V + x % 6 + 1]
        elif main and a >= R.A_TAKE:
            val = ctx[W_TAKE + (a - R.A_TAKE) % 24]
        elif build and a >= R.A_TAKE:
            val = build_value(s, c, seat, a, params, ctx, total)
        else:
            val = score_action(s, c, seat, a, params, ctx)
        val += 1e-6 * uniform(bot_rng, seat)
        if val > best:
            best = val
            arg = a
    return arg
