"""Roma's bots: compiled policies over the state record.

- ``random``: a uniformly random legal action at every decision (the baseline).
- ``builder``: an economy player. It fills every empty disc (each costs 1 VP a turn), builds Forums
  with Basilicas and Templums beside them on discs its dice hit, and spends dice on Forums, Legat,
  Tribunus Plebis and Mercatus; it attacks only when a battle is cheap and likely.
- ``warrior``: the same one-step evaluation with an aggressive player's priorities: battle cards and
  the cards that destroy without a battle are worth more, Essedum before an attack, Praetorianus on the
  opponent's best disc; economy cards less.

Both are myopic heuristics written from the rules' strategy notes (EN-RB "tips": keep every disc
covered, Forums pay best next to Basilica/Templum, a triple may be worth keeping). Every legal action of
the decision at hand gets a value in VP-equivalents (sestertii at ``money_value``, cards in hand at
``card_value``); the best one is taken (ties broken by the bot's own generator). A VP payout that
would end the game while behind is avoided, one that wins it is taken. They read only what their
seat may see: the board (not the opponent's face-down opening cards), the discard pile, both players'
VP and money, their own hand. Parameters (``builder:econ=2``) are declared in ``PARAMS``.
"""

from __future__ import annotations

import numpy as np

from simlab.core.compiled import compiled
from simlab.core.params import ParamLayout
from simlab.core.rng import uniform
from simlab.games.roma import rules as R

# Defaults tuned by one-at-a-time sweeps against the previous defaults (3,000-4,000 games per candidate,
# seats rotated): both styles gained from weighting their own card class more and drawing less.
PARAMS = ParamLayout.table(
    """
    parameter     builder  warrior  meaning
    money_value   0.35     0.35     VP-equivalents per sestertius
    card_value    0.8      0.8      VP-equivalents of a card kept in hand
    empty_value   3.0      4.0      worth of covering an empty space (1 VP lost per turn while it stays empty)
    econ          2.0      1.5      weight of economy cards (Forum, Basilica, Templum, Legat, Tribunus, Mercator,
                                    Mercatus)
    attack        1.2      2.5      weight of attack cards (battles, Sicarius, Nero, Gladiator, Essedum, Praetorianus)
    defend        1.0      0.8      weight of defence (Turris, exposure to attackers opposite)
    draw_value    0.6      0.8      VP-equivalents of one draw action (keeping the best of the drawn cards)
    reroll_below  2.5      2.5      reroll a triple whose best use is worth less than this
    """
)
BUILDER, WARRIOR = PARAMS.defaults("builder", "warrior")
PARAM_NAMES = PARAMS.names
P_MONEY, P_CARD, P_EMPTY, P_ECON = PARAMS.indices("money_value", "card_value", "empty_value", "econ")
P_ATTACK, P_DEFEND, P_DRAW, P_REROLL = PARAMS.indices("attack", "defend", "draw_value", "reroll_below")

OTHER, ECON, ATTACK, DEFEND = 0, 1, 2, 3
#: what kind of card each is, for the style weights (card order of data.CARDS)
CARD_CLASS = np.array(
    [
        ATTACK,
        OTHER,
        OTHER,
        ECON,
        ATTACK,
        ECON,
        OTHER,
        ATTACK,
        ATTACK,
        ATTACK,
        OTHER,
        OTHER,
        OTHER,
        ATTACK,
        ATTACK,
        ECON,
        ATTACK,
        OTHER,
        ECON,
        OTHER,
        ECON,
        ECON,
        ATTACK,
        ECON,
        DEFEND,
    ]
)
#: rough worth of having the card on the board, in VP-equivalents (before style weights)
CARD_BASE = np.array(
    [
        1.5,
        1.0,
        0.3,
        1.5,
        1.5,
        1.5,
        1.0,
        2.0,
        2.0,
        1.0,
        1.5,
        1.2,
        1.0,
        1.5,
        1.0,
        2.5,
        2.5,
        1.0,
        0.8,
        0.3,
        3.0,
        1.2,
        1.5,
        0.5,
        1.5,
    ]
)
HIT = 0.42  # chance that at least one of three dice shows a given number
WIN = 100.0


# ==============================================================================================
# values
# ==============================================================================================
@compiled
def weight(t, prm):
    k = CARD_CLASS[t]
    if k == ECON:
        return prm[P_ECON]
    if k == ATTACK:
        return prm[P_ATTACK]
    if k == DEFEND:
        return prm[P_DEFEND]
    return 1.0


@compiled
def opp_visible(s):
    """The opponent's cards are face up (not during the opening placement)."""
    return s.revealed == 1


@compiled
def place_value(s, c, p, t, d, prm):
    """Worth of p's card t on space d (as if it stood there; the card now on d is ignored)."""
    q = 1 - p
    v = CARD_BASE[t] * weight(t, prm)
    if t == R.FORUM or t == R.BASILICA or t == R.TEMPLUM:
        for e in range(c.spaces):
            if e == d or not R.adjacent(c, d, e):
                continue
            u = s.board[p, e]
            if t == R.FORUM and u == R.BASILICA:
                v += c.basilica_vp * HIT * prm[P_ECON]
            elif t == R.FORUM and u == R.TEMPLUM:
                v += 2.0 * HIT * prm[P_ECON]
            elif u == R.FORUM and t == R.BASILICA:
                v += c.basilica_vp * HIT * prm[P_ECON] * 1.5
            elif u == R.FORUM and t == R.TEMPLUM:
                v += 2.0 * HIT * prm[P_ECON] * 1.5
    elif t == R.TURRIS:
        n = 0
        for e in range(c.spaces):
            if e != d and s.board[p, e] >= 0:
                n += 1
        v += 0.25 * n * prm[P_DEFEND]
    if opp_visible(s):
        o = s.board[q, d]
        if o >= 0 and (t == R.LEGIONARIUS or t == R.CENTURIO):
            v += 0.5 * target_value(s, c, q, d, prm) * prm[P_ATTACK]
        if o == R.LEGIONARIUS or o == R.CENTURIO:
            v -= 0.15 * CARD_BASE[t] * prm[P_DEFEND] * max(0, 7 - c.defence[t]) / 3.0
    if d == R.BRIBE:
        v *= 0.8
    return v


@compiled
def target_value(s, c, q, e, prm):
    """What destroying q's card on space e is worth to its opponent."""
    t = s.board[q, e]
    return CARD_BASE[t] + c.cost[t] * prm[P_MONEY] * 0.5 + prm[P_EMPTY] * 0.4


@compiled
def hit_chance(s, c, q, e, bonus):
    """Chance that the battle die (plus ``bonus`` pips) reaches the defence of q's card on e."""
    need = R.defence(s, c, q, e) - bonus
    sides = c.battle_sides
    if need <= 1:
        return 1.0
    if need > sides:
        return 0.0
    return (sides - need + 1) / sides


@compiled
def lay_value(s, c, p, t, d, prm, free):
    """Laying t from hand onto p's space d now (paid unless ``free``)."""
    v = place_value(s, c, p, t, d, prm) - prm[P_CARD] * 0.3
    old = s.board[p, d]
    if old < 0:
        v += prm[P_EMPTY]
    else:
        v -= place_value(s, c, p, old, d, prm) + 0.5
    if not free:
        v -= c.cost[t] * prm[P_MONEY]
    # a die showing this disc's number can use the card at once
    if d < 6 and R.die_available(s, c, d + 1) and t != R.BASILICA and t != R.TEMPLUM and t != R.TURRIS:
        v += 0.3
    return v


@compiled
def best_lay(s, c, p, t, prm, free):
    best = -1e9
    for d in range(c.spaces):
        best = max(best, lay_value(s, c, p, t, d, prm, free))
    return best


@compiled
def hand_card_value(s, c, p, t, prm):
    """Worth of taking card t into hand."""
    return prm[P_CARD] * (0.6 + 0.25 * CARD_BASE[t] * weight(t, prm)) - 0.04 * c.cost[t]


@compiled
def stock_gain(s, c, p, k):
    """Value of gaining k VP from the stockpile, aware that an empty stockpile ends the game."""
    q = 1 - p
    if k <= 0:
        return 0.0
    if s.stock - k <= 0:
        mine = s.vp[p] + (k if c.full_credit == 1 else min(k, s.stock))
        if mine > s.vp[q]:
            return WIN
        if mine < s.vp[q]:
            return -WIN
        return 0.0
    return float(k)


@compiled
def take_gain(s, c, p, k):
    q = 1 - p
    k = min(k, s.vp[q])
    if k <= 0:
        return 0.0
    if s.vp[q] - k <= 0:
        return WIN
    return 2.0 * k


@compiled
def die_use_value(s, c, p, v, prm, skip_i):
    """Best simple use of one die showing v: money, or activating the card on disc v."""
    best = v * prm[P_MONEY]
    t = s.board[p, v - 1]
    simple = t >= 0 and t != R.CONSUL and t != R.SCAENICUS and t != R.FORUM
    if simple and s.blocked[p, v - 1] == 0 and R.basic_ok(s, c, p, t, v - 1, s.money[p], 0):
        best = max(best, base_value(s, c, p, t, v - 1, prm, 0, skip_i))
    return best


@compiled
def other_dice_best(s, c, p, exclude_v):
    """Highest unused die, less one die showing ``exclude_v`` (0: none)."""
    skipped = exclude_v <= 0
    best = 0
    for i in range(c.n_dice):
        if s.used[i] == 1:
            continue
        if not skipped and s.dice[i] == exclude_v:
            skipped = True
            continue
        best = max(best, s.dice[i])
    return best


@compiled
def ability_value(s, c, p, t, d, prm, exclude_v):
    """Worth of performing ability t from p's space d now (``exclude_v``: the activating die's pips if
    it is still counted as unused)."""
    if t == R.CONSUL:
        return consul_value(s, c, p, prm, exclude_v)
    if t == R.SCAENICUS:
        best = -1e9
        for e in range(c.spaces):
            u = s.board[p, e]
            if u < 0 or u >= R.N_CHAR or u == R.SCAENICUS:
                continue
            if R.basic_ok(s, c, p, u, d, s.money[p], exclude_v):
                if u == R.CONSUL:
                    val = consul_value(s, c, p, prm, exclude_v)
                else:
                    val = base_value(s, c, p, u, d, prm, exclude_v, -1)
                if u == R.SICARIUS or u == R.NERO:
                    val += CARD_BASE[u] * 0.5 - CARD_BASE[R.SCAENICUS]  # the Scaenicus goes, not the original
                best = max(best, val)
        return best
    return base_value(s, c, p, t, d, prm, exclude_v, -1)


@compiled
def consul_value(s, c, p, prm, exclude_v):
    """Best gain from moving one other unused die by the Consul's step."""
    best = -1e9
    skipped = exclude_v <= 0
    for i in range(c.n_dice):
        if s.used[i] == 1:
            continue
        w = s.dice[i]
        if not skipped and w == exclude_v:
            skipped = True
            continue
        base = die_use_value(s, c, p, w, prm, i)
        for up in range(2):
            w2 = w + c.consul_step if up == 1 else w - c.consul_step
            if 1 <= w2 <= 6:
                s.dice[i] = w2
                best = max(best, die_use_value(s, c, p, w2, prm, i) - base)
                s.dice[i] = w
    return best


@compiled
def base_value(s, c, p, t, d, prm, exclude_v, skip_i):
    """ability_value of every card but Consul and Scaenicus (``skip_i``: a die not to count as free)."""
    q = 1 - p
    if t == R.LEGAT:
        return stock_gain(s, c, p, c.legat_vp * R.empty_spaces(s, c, q, True)) * prm[P_ECON]
    if t == R.TRIBUNUS:
        return take_gain(s, c, p, c.tribunus_vp) * prm[P_ECON]
    if t == R.MERCATUS:
        k = c.mercatus_vp * R.count_type_on_board(s, c, q, R.FORUM)
        if c.mercatus_from_opponent == 1:
            return take_gain(s, c, p, k) * prm[P_ECON]
        return stock_gain(s, c, p, k) * prm[P_ECON]
    if t == R.MERCATOR:
        return mercator_value(s, c, p, prm, mercator_max(s, c, p))
    if t == R.FORUM:
        w = other_dice_best(s, c, p, exclude_v)
        if w == 0:
            return -1.0
        nb = 0
        tv = 0
        for e in range(c.spaces):
            if R.adjacent(c, d, e):
                if s.board[p, e] == R.BASILICA:
                    nb += 1
                elif s.board[p, e] == R.TEMPLUM:
                    tv = 1
        if c.basilica_each == 0:
            nb = min(nb, 1)
        k = w + nb * c.basilica_vp
        return stock_gain(s, c, p, k) * prm[P_ECON] - w * prm[P_MONEY] * 0.5 + tv * 1.0
    if t == R.SICARIUS or t == R.NERO or t == R.GLADIATOR:
        best = -1e9
        for e in range(c.spaces):
            u = s.board[q, e]
            if u >= 0 and (u >= R.N_CHAR) == (t == R.NERO):
                best = max(best, target_value(s, c, q, e, prm))
        if t == R.GLADIATOR:
            return 0.6 * best * prm[P_ATTACK]
        return best * prm[P_ATTACK] - CARD_BASE[t] * 0.5
    if t == R.VELITES or t == R.ONAGER:
        best = -1e9
        for e in range(c.spaces):
            u = s.board[q, e]
            if u >= 0 and (u >= R.N_CHAR) == (t == R.ONAGER):
                best = max(best, hit_chance(s, c, q, e, 0) * target_value(s, c, q, e, prm))
        return best * prm[P_ATTACK]
    if t == R.LEGIONARIUS or t == R.CENTURIO:
        bonus = other_dice_best(s, c, p, exclude_v) if t == R.CENTURIO else 0
        return hit_chance(s, c, q, d, bonus) * target_value(s, c, q, d, prm) * prm[P_ATTACK]
    if t == R.ESSEDUM:
        n = 0
        skipped = exclude_v <= 0
        for i in range(c.n_dice):
            if s.used[i] == 1 or i == skip_i:
                continue
            if not skipped and s.dice[i] == exclude_v:
                skipped = True
                continue
            u = s.board[p, s.dice[i] - 1]
            if u == R.LEGIONARIUS or u == R.CENTURIO or u == R.VELITES or u == R.ONAGER:
                n += 1
        return 0.9 * n * prm[P_ATTACK] - 0.2
    if t == R.PRAETORIANUS:
        best = 0.0
        if opp_visible(s):
            for e in range(6):
                u = s.board[q, e]
                if u >= 0:
                    best = max(best, CARD_BASE[u])
        return 0.3 * best * prm[P_ATTACK]
    if t == R.HARUSPEX:
        return prm[P_CARD] * 1.2
    if t == R.AESCULAPINUM:
        best = 0.0
        for u in range(R.N_CHAR):
            if s.discard[u] > 0:
                best = max(best, hand_card_value(s, c, p, u, prm))
        return best
    if t == R.SENATOR or t == R.ARCHITECTUS:
        total = 0.0
        for u in range(R.NCARDS):
            if s.hand[p, u] > 0 and (u >= R.N_CHAR) == (t == R.ARCHITECTUS):
                total += max(0.0, best_lay(s, c, p, u, prm, True)) * min(s.hand[p, u], 2)
        return total
    return 0.0  # Consiliarius, Machina: relaying rarely pays


@compiled
def mercator_max(s, c, p):
    k = min(s.money[p] // c.mercator_price, s.vp[1 - p])
    if c.mercator_cap > 0:
        k = min(k, c.mercator_cap)
    return min(k, R.MAX_COUNT - 1)


@compiled
def mercator_value(s, c, p, prm, k):
    """Buying k VP: two VP of difference each, for sestertii that go to the opponent."""
    if k <= 0:
        return -1e9
    return take_gain(s, c, p, k) * prm[P_ECON] - k * c.mercator_price * prm[P_MONEY] * 2.0


@compiled
def draw_value(s, c, p, v, prm):
    val = prm[P_DRAW] * (0.7 + 0.1 * v)
    if s.hand_n[p] == 0 and R.empty_spaces(s, c, p, False) > 0:
        val += 0.5 * prm[P_EMPTY]
    return val


# ==============================================================================================
# the policy
# ==============================================================================================
@compiled
def score_action(s, c, p, a, prm):
    """Heuristic value of legal action ``a`` at the decision at hand (higher is better)."""
    ph = s.phase
    q = 1 - p
    if ph == R.PH_ACTION:
        if a == R.A_DONE:
            return 0.0
        if a < R.A_MONEY:
            x = a - R.A_LAY
            return lay_value(s, c, p, x // 7, x % 7, prm, False)
        if a < R.A_DRAW:
            return (a - R.A_MONEY + 1) * prm[P_MONEY]
        if a < R.A_ACT:
            return draw_value(s, c, p, a - R.A_DRAW + 1, prm)
        if a < R.A_BRIBE:
            d = a - R.A_ACT
            return ability_value(s, c, p, s.board[p, d], d, prm, d + 1)
        v = a - R.A_BRIBE + 1
        val = ability_value(s, c, p, s.board[p, R.BRIBE], R.BRIBE, prm, v)
        return val - v * c.bribe_pip_cost * prm[P_MONEY]
    if ph == R.PH_SWAP:
        return -hand_card_value(s, c, p, a - R.A_CARD, prm)  # pass the weakest cards
    if ph == R.PH_OPENING:
        x = a - R.A_LAY
        t, d = x // 7, x % 7
        # the opening is free: the dearest and best cards take the discs first
        return place_value(s, c, p, t, d, prm) + 0.1 * c.cost[t]
    if ph == R.PH_REROLL:
        best = 0.0
        for i in range(c.n_dice):
            best = max(best, die_use_value(s, c, p, s.dice[i], prm, i))
        keep = best * 1.5  # three dice of one number activate that card three times
        return keep if a == R.A_DONE else prm[P_REROLL]
    if ph == R.PH_DRAWKEEP or ph == R.PH_HARUSPEX or ph == R.PH_AESCULAPINUM:
        return hand_card_value(s, c, p, a - R.A_CARD, prm)
    if ph == R.PH_TARGET:
        e = a - R.A_DISC
        t = s.act_type
        if t == R.PRAETORIANUS:
            u = s.board[q, e]
            return CARD_BASE[u] if u >= 0 else 0.0
        tv = target_value(s, c, q, e, prm)
        if t == R.VELITES or t == R.ONAGER:
            return hit_chance(s, c, q, e, 0) * tv
        return tv
    if ph == R.PH_FREELAY:
        if a == R.A_DONE:
            return 0.0
        x = a - R.A_LAY
        return lay_value(s, c, p, x // 7, x % 7, prm, True)
    if ph == R.PH_RELAY:
        x = a - R.A_LAY
        t, d = x // 7, x % 7
        v = place_value(s, c, p, t, d, prm)
        old = s.board[p, d]
        if old >= 0:
            v -= place_value(s, c, p, old, d, prm) + prm[P_EMPTY]
        return v
    if ph == R.PH_MERCATOR:
        return mercator_value(s, c, p, prm, a - R.A_COUNT)
    if ph == R.PH_CONSUL:
        x = a - R.A_CONSUL
        w = x // 2 + 1
        w2 = w + c.consul_step if x % 2 == 1 else w - c.consul_step
        i = R.first_die_with(s, c, w)
        base = die_use_value(s, c, p, w, prm, i)
        s.dice[i] = w2
        val = die_use_value(s, c, p, w2, prm, i) - base
        s.dice[i] = w
        return val
    if ph == R.PH_SCAENICUS:
        e = a - R.A_DISC
        t = s.board[p, e]
        if t == R.SCAENICUS:
            return -0.01  # the same choices, one step later
        if t == R.CONSUL:
            val = consul_value(s, c, p, prm, 0)
        else:
            val = base_value(s, c, p, t, s.act_disc, prm, 0, -1)
        if t == R.SICARIUS or t == R.NERO:
            val += CARD_BASE[t] * 0.5 - CARD_BASE[R.SCAENICUS]
        return val
    if ph == R.PH_FORUM:
        return float(a - R.A_DIE)  # the highest die
    if ph == R.PH_TEMPLUM:
        if a == R.A_DONE:
            return 0.0
        v = a - R.A_DIE + 1
        return (
            stock_gain(s, c, p, v + s.forum_vp[0] + s.forum_vp[1])
            - stock_gain(s, c, p, s.forum_vp[0] + s.forum_vp[1])
            - v * prm[P_MONEY] * 0.5
        )
    if ph == R.PH_CENTURIO:
        if a == R.A_DONE:
            return 0.0
        v = a - R.A_DIE + 1
        e = s.battle_target
        if s.battle_roll + v < R.defence(s, c, q, e):
            return -1.0
        return target_value(s, c, q, e, prm) * prm[P_ATTACK] - v * prm[P_MONEY] - 0.01 * v
    return 0.0


@compiled
def heuristic_policy(params, st, cf, buf, n, bot_rng, seat):
    """The builder's or warrior's (by ``params``) best-valued action; ties broken by the bot's own stream."""
    best = -1e18
    arg = buf[0]
    s = st[0]
    c = cf[0]
    for i in range(n):
        a = buf[i]
        val = score_action(s, c, seat, a, params) + 1e-6 * uniform(bot_rng, seat)
        if val > best:
            best = val
            arg = a
    return arg
