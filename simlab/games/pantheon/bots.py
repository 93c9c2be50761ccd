"""Pantheon's compiled heuristic bots: one policy over the state record, the styles as parameters.

- ``builder``: walks out from the temple toward the loot (a foot on a loot hex takes it; other feet are
  worth more the nearer they stand to a loot tile), plants columns on column spaces, more so where
  rivals stand next to them (contested spaces) and by what one more column adds at the remaining
  scorings (the own-total table), buys pieces and sacrifice tiles with its money.
- ``devout``: sacrifice tiles first (a tile level pays a group of every later god, cards do once), then
  the gods whose era points and effects pay most (Plaesiris' demigods, Surparit's second god, the
  permanent gods by what they give over the rest of the game); it moves mostly to take loot.
- ``god_first``: the one-rule baseline: a face-up god whenever one can be paid, otherwise random.

Each is a myopic one-step evaluation of the legal actions written from the game's strategy. They read
only what their seat may see: the board, the loot on it, the face-up gods and cards, the sacrifice tiles
and the own hand (never the deck, the god stack, other hands or face-down demigods). Parameters (spec
strings such as ``builder:column_weight=2``) are declared in ``PARAMS``.
"""

from __future__ import annotations

import numpy as np

from simlab.core.compiled import compiled
from simlab.core.params import ParamLayout
from simlab.core.rng import below

from . import rules as R

PARAMS = ParamLayout.table(
    """
    parameter       builder  devout  meaning
    god_first       0.0      0.0     1: the one-rule baseline (take a payable god, otherwise random); 0: the full
                                     evaluation
    god_weight      0.7      1.5     multiplier on a god's worth when choosing the action
    move_weight     1.3      0.7     multiplier on a move's worth when choosing the action
    buy_weight      0.9      1.2     multiplier on a purchase's worth when choosing the action
    draw_weight     0.5      0.6     points per card drawn by the draw action (scaled down as the hand fills)
    tile_weight     1.0      2.0     points per sacrifice-tile level gained
    column_weight   1.5      0.8     multiplier on the points one more column adds at the remaining scorings
    contest_weight  0.5      0.2     extra share of a column's worth per rival piece next to its space
    loot_weight     3.0      2.5     points per loot tile taken by a foot
    reach_weight    1.0      0.6     worth of a foot next to a loot tile (falls off with the distance)
    card_cost       0.6      0.4     points one sacrifice card spent on a god costs
    max_move_cards  4.0      2.0     most movement cards the mover plays
    join_steps      2.0      3.0     least steps that still reach loot for which a joiner joins (else draws a card)
    piece_weight    0.6      0.3     points per foot or column bought from the supply into the stock
    """
)
BUILDER, DEVOUT = PARAMS.defaults("builder", "devout")
PARAM_NAMES = PARAMS.names
P_GOD_FIRST, P_GOD, P_MOVE, P_BUY = PARAMS.indices("god_first", "god_weight", "move_weight", "buy_weight")
P_DRAW, P_TILE, P_COLUMN, P_CONTEST = PARAMS.indices("draw_weight", "tile_weight", "column_weight", "contest_weight")
P_LOOT, P_REACH, P_CARD = PARAMS.indices("loot_weight", "reach_weight", "card_cost")
P_MAX_MOVE, P_JOIN, P_PIECE = PARAMS.indices("max_move_cards", "join_steps", "piece_weight")

GOD_FIRST = PARAMS.values(0.0, god_first=1.0)

#: a god's worth beyond its era points, per god (``data.GODS`` order), in points per remaining era for the
#: gods that stay, once for those that act at once: Surparit's second god is scored separately; Plaesiris'
#: two demigods (about 3 points each); Taksator a special money card; Traitera one more action; Depraccus
#: 2 cards per era; Vinthrad steps per move; Gaiviles a jump; Stonkus money per purchase; Gadicea one more
#: card per draw; Pietalte the highest tile level at each remaining scoring (added in ``god_worth``).
GOD_ONCE = np.array([0.0, 6.0, 2.0, 1.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
GOD_PER_ERA = np.array([0.0, 0.0, 0.0, 0.0, 1.2, 0.8, 0.5, 1.0, 0.6, 0.0])
#: worth of a loot tile by effect (``data.LOOT_EFFECTS`` order), on top of ``loot_weight``
LOOT_EXTRA = np.array([1.0, 3.0, 3.0, 1.0, 1.5, 1.5, 1.5, 1.0])


@compiled
def remaining_scorings(s, c):
    """Scorings still to come (a column placed now scores at each)."""
    n = 0
    for i in range(6):
        e = c.scoring_eras[i]
        if e > 0 and e >= s.era:
            n += 1
    return max(n, 1)


@compiled
def own_columns(s, c, p):
    n = 0
    for h in range(c.n_hex):
        for i in range(2):
            if s.occ[h, i] == p and s.occ_col[h, i] == 1:
                n += 1
    return n


@compiled
def column_gain(s, c, p, cols):
    """Points one more column adds at one scoring (the own-total table), with ``cols`` on the board."""
    a = cols * c.column_points[min(cols, 12)]
    b = (cols + 1) * c.column_points[min(cols + 1, 12)]
    return float(b - a)


FAR = 99  # the distance of a hex from loot when no loot tile is on the board (or none can be reached)


@compiled
def loot_hexes(s, c, loot):
    """loot[:n] = the hexes holding a loot tile; returns n."""
    n = 0
    for h in range(c.n_hex):
        if s.loot_hex[h] >= 0:
            loot[n] = h
            n += 1
    return n


@compiled
def loot_distance(c, h, loot, n_loot):
    """Steps from hex h to the nearest loot tile (the config's distance table); FAR if none."""
    best = FAR
    row = c.hex_dist[h]
    for i in range(n_loot):
        d = row[loot[i]]
        if d < best:
            best = d
    return best


@compiled
def network_distance(s, c, p, loot, n_loot):
    """Fewest steps from the temple or one of p's feet to a loot tile (FAR with no temple or no loot)."""
    if s.temple < 0 or n_loot == 0:
        return FAR
    best = loot_distance(c, s.temple, loot, n_loot)
    for h in range(c.n_hex):
        if R.own_foot_at(s, p, h):
            d = loot_distance(c, h, loot, n_loot)
            if d < best:
                best = d
    return best


@compiled
def rivals_next_to(s, c, p, h):
    n = 0
    for d in range(R.NDIR):
        x = c.nbr[h, d]
        if x >= 0 and R.other_at(s, p, x):
            n += 1
    return n


@compiled
def free_steps(s, c, p, mover):
    _, vin = R.gods_of(s, c, p, R.VINTHRAD)
    return vin + s.steps_bonus[p] + (c.big_foot_steps if mover else 0)


@compiled
def min_cards(s, c, p, t):
    """Fewest cards seat p spends to pay god tile t (distinct kinds per group); -1 if it cannot. The cost
    of each (group, kind) is looked up once, then every assignment of kinds is tried."""
    ng = c.tile_groups[t]
    cost = np.empty((R.NKIND, R.NKIND), np.int32)
    for g in range(ng):
        for k in range(R.NKIND):
            cost[g, k] = R.group_cost(s, c, p, t, c.tile_req[t, g], k)
    best = -1
    total = 1
    for _ in range(ng):
        total *= R.NKIND
    for code in range(total):
        x = code
        mask = 0
        cards = 0
        ok = True
        for g in range(ng):
            k = x % R.NKIND
            x //= R.NKIND
            if (mask >> k) & 1 or cost[g, k] < 0:
                ok = False
                break
            mask |= 1 << k
            cards += cost[g, k]
        if ok and (best < 0 or cards < best):
            best = cards
    return best


@compiled
def god_worth(s, c, p, t, prm):
    """Points gaining god tile t is worth now: era points (twice for Surparit) and its effect."""
    g = c.tile_god[t]
    era_pts = float(R.era_points_now(s, c))
    left = float(c.eras - s.era)
    v = era_pts + GOD_ONCE[g] + GOD_PER_ERA[g] * left * max(c.tile_amount[t], 1)
    if g == R.SURPARIT:
        v += era_pts + 1.0
    elif g == R.PIETALTE:
        best = 0
        for k in range(R.NKIND):
            best = max(best, s.level[p, k])
        v += (best + 1.0) * remaining_scorings(s, c)
    return v


@compiled
def best_god(s, c, p, prm):
    """(worth net of the cards spent, face-up slot) of the best payable face-up god; slot -1 if none."""
    best = -1e9
    arg = -1
    for i in range(R.MAX_FACE):
        t = s.god_face[i]
        if t < 0:
            continue
        cards = min_cards(s, c, p, t)
        if cards < 0:
            continue
        v = god_worth(s, c, p, t, prm) - prm[P_CARD] * cards
        if v > best:
            best = v
            arg = i
    return best, arg


@compiled
def money_in_hand(s, c, p):
    _, m = R.gods_of(s, c, p, R.STONKUS)
    for k in range(R.C_MONEY1, R.NCARD):
        m += s.hand[p, k] * R.card_money(k)
    return m


@compiled
def best_tile(s, c, p, budget, prm):
    """(worth, kind * 4 + level - 1) of the best sacrifice tile upgrade affordable with ``budget``."""
    best = 0.0
    arg = -1
    for k in range(R.NKIND):
        cur = s.level[p, k]
        for lvl in range(cur + 1, 5):
            cost = R.tile_cost(c, lvl) - R.tile_cost(c, cur)
            if cost <= budget:
                v = prm[P_TILE] * (lvl - cur) + 0.05 * s.hand[p, 1 + k]
                if v > best:
                    best = v
                    arg = k * 4 + lvl - 1
    return best, arg


@compiled
def foot_worth(s, c, p, h, loot, prm, loot_left):
    """A foot on h: the loot it takes, else its nearness to loot; a foot beside an empty column space
    lets a column follow."""
    t = s.loot_hex[h]
    if t >= 0:
        v = prm[P_LOOT] + LOOT_EXTRA[c.loot_effect[t]]
        if loot_left == 1:
            v += c.era_end_bonus
        return v
    v = prm[P_REACH] / (1.0 + loot_distance(c, h, loot, loot_left))
    if s.stock_cols[p] > 0:
        for d in range(R.NDIR):
            x = c.nbr[h, d]
            if x >= 0 and c.column_space[x] and R.pieces_at(s, x) < c.hex_capacity and not R.own_at(s, p, x):
                v += 0.3 * prm[P_COLUMN]
                break
    return v


@compiled
def column_worth(s, c, p, h, cols, prm):
    """A column on h: what it adds at the remaining scorings, more on a space rivals contest."""
    base = column_gain(s, c, p, cols) * remaining_scorings(s, c)
    return prm[P_COLUMN] * base * (1.0 + prm[P_CONTEST] * rivals_next_to(s, c, p, h))


@compiled
def choose_placement(s, c, p, buf, n, prm, buy):
    """The best legal placement (feet, columns, jumps) or purchase; stop when nothing is worth it (after a
    jump no stop is legal: the best landing, worth something or not)."""
    loot = np.empty(R.MAX_HEX, np.int32)
    loot_left = loot_hexes(s, c, loot)
    cols = own_columns(s, c, p)
    best = -1e18
    arg = buf[0]
    for i in range(n):
        if buf[i] == R.A_STOP:
            best = 0.0
            arg = R.A_STOP
    money_left = s.money_left
    for i in range(n):
        a = buf[i]
        if a == R.A_STOP:
            continue
        if buy and a >= R.A_MONEY and a < R.A_TILE:
            return a  # every money card is played first: leftover money is lost at the end anyway
        v = -1e9
        if a < R.A_COL:
            h = a - R.A_FOOT
            v = foot_worth(s, c, p, h, loot, prm, loot_left) - 0.3 * (R.pieces_at(s, h) > 0)
        elif a < R.A_JUMP:
            v = column_worth(s, c, p, a - R.A_COL, cols, prm)
        elif a < R.A_STOP:
            h = a - R.A_JUMP
            v = 0.8 * prm[P_REACH] / (1.0 + loot_distance(c, h, loot, loot_left))
        elif a >= R.A_TILE and a < R.A_BUY_FOOT:
            x = a - R.A_TILE
            k = x // 4
            lvl = x % 4 + 1
            cost = R.tile_cost(c, lvl) - R.tile_cost(c, s.level[p, k])
            v = prm[P_TILE] * (lvl - s.level[p, k]) + 0.05 * s.hand[p, 1 + k] - 0.01 * cost
            if cost > money_left:
                v = -1e9
        elif a == R.A_BUY_FOOT:
            v = prm[P_PIECE] * (1.0 if s.stock_feet[p] < 3 else 0.3)
        elif a == R.A_BUY_COL:
            v = prm[P_PIECE] * (1.0 + 0.5 * prm[P_COLUMN]) if s.stock_cols[p] < 3 else 0.3 * prm[P_PIECE]
        if v > best:
            best = v
            arg = a
    return arg


@compiled
def choose_action(s, c, p, buf, n, prm):
    """Move, purchase, god or draw: each valued by what it brings now (see ``PARAMS``)."""
    best = -1e9
    arg = buf[0]
    hand = R.hand_size(s, p)
    for i in range(n):
        a = buf[i]
        if a == R.A_GOD:
            v = prm[P_GOD] * best_god(s, c, p, prm)[0]
        elif a == R.A_BUY:
            money = money_in_hand(s, c, p)
            tile, _ = best_tile(s, c, p, money, prm)
            v = prm[P_BUY] * (tile + 0.3 * money)
        elif a == R.A_MOVE:
            loot = np.empty(R.MAX_HEX, np.int32)
            n_loot = loot_hexes(s, c, loot)
            if n_loot == 0:
                v = 0.0
            else:
                steps = 2 * min(s.hand[p, R.C_MOVE], int(prm[P_MAX_MOVE])) + free_steps(s, c, p, True)
                room = s.stock_feet[p] + s.stock_cols[p]
                v = prm[P_MOVE] * 0.4 * min(steps, room)
                if network_distance(s, c, p, loot, n_loot) <= steps and s.stock_feet[p] > 0:
                    v += prm[P_MOVE] * prm[P_LOOT]
        else:
            _, gad = R.gods_of(s, c, p, R.GADICEA)
            v = prm[P_DRAW] * (c.draw_action_cards + gad) * max(0.2, 1.0 - hand / 12.0)
        if v > best:
            best = v
            arg = a
    return arg


@compiled
def choose_move_cards(s, c, p, buf, n, prm):
    """The mover plays up to ``max_move_cards``; a joiner joins when its steps reach loot, else draws."""
    mover = p == s.active and s.big_foot == p
    free = free_steps(s, c, p, mover)
    have = s.hand[p, R.C_MOVE]
    want = min(have, int(prm[P_MAX_MOVE]))
    if not mover:
        loot = np.empty(R.MAX_HEX, np.int32)
        n_loot = loot_hexes(s, c, loot)
        need = network_distance(s, c, p, loot, n_loot)
        steps = 2 * want + free
        if need > steps or s.stock_feet[p] == 0 or steps < prm[P_JOIN]:
            for i in range(n):
                if buf[i] == R.A_JOIN_DRAW:
                    return R.A_JOIN_DRAW
        want = min(want, max(0, (need - free + 1) // 2 + 1))
    best = buf[0]
    gap = 1 << 30
    for i in range(n):
        a = buf[i]
        if a >= R.A_COUNT and a < R.A_KIND:
            d = abs(a - R.A_COUNT - want)
            if d < gap:
                gap = d
                best = a
    return best


@compiled
def card_wish(s, c, p, k, prm):
    """Worth of one more card of kind k in seat p's hand."""
    if k == R.C_MOVE:
        return 0.4 * prm[P_MOVE] * (1.0 if s.hand[p, R.C_MOVE] < 4 else 0.3)
    if k >= R.C_MONEY1:
        return 0.3 * prm[P_BUY] * R.card_money(k)
    # a sacrifice card: wanted as much as the face-up gods' groups ask beyond the tile and hand
    need = 0
    for i in range(R.MAX_FACE):
        t = s.god_face[i]
        if t >= 0 and c.tile_groups[t] > 0:
            need = max(need, c.tile_req[t, 0])
    short = need - s.level[p, k - 1] - s.hand[p, k]
    return 0.3 * prm[P_GOD] * (1.0 + (0.5 if short > 0 else 0.0))


@compiled
def choose_card(s, c, p, buf, n, prm):
    """A display card worth more than the deck's average, else the deck."""
    best = 0.35 * (prm[P_GOD] + prm[P_MOVE] * 0.3 + prm[P_BUY] * 0.3)  # the deck, a blind card
    arg = R.A_DECK
    for i in range(n):
        a = buf[i]
        if a >= R.A_SLOT and a < R.A_DECK:
            v = card_wish(s, c, p, s.display[a - R.A_SLOT], prm)
            if v > best:
                best = v
                arg = a
    return arg


@compiled
def choose_pay(s, c, p, buf, n):
    """The kind that pays the current group with the fewest cards (the rest stays payable: ``legal``)."""
    best = 1 << 30
    arg = buf[0]
    t = s.gtile
    for i in range(n):
        a = buf[i]
        if a >= R.A_KIND and a < R.A_SLOT:
            cost = R.group_cost(s, c, p, t, c.tile_req[t, s.pay_g], a - R.A_KIND)
            if cost < best:
                best = cost
                arg = a
    return arg


@compiled
def choose_tile_kind(s, c, p, buf, n, prm):
    """A free sacrifice upgrade: the kind whose tile and hand cards together pay the biggest group."""
    best = -1e9
    arg = buf[0]
    for i in range(n):
        a = buf[i]
        k = a - R.A_KIND
        v = s.level[p, k] + 0.5 * s.hand[p, 1 + k] - (0.5 if s.level[p, k] == 0 else 0.0) * prm[P_TILE]
        if v > best:
            best = v
            arg = a
    return arg


@compiled
def choose_discard(s, c, p, buf, n, prm):
    best = 1e9
    arg = buf[0]
    for i in range(n):
        a = buf[i]
        k = a - R.A_DISCARD
        v = card_wish(s, c, p, k, prm) - 0.1 * s.hand[p, k]
        if v < best:
            best = v
            arg = a
    return arg


@compiled
def choose_bonus_column(s, c, p, buf, n):
    """The era-1 column bonus on the column space with the most column spaces around it (room to grow)."""
    best = -1
    arg = buf[0]
    for i in range(n):
        h = buf[i] - R.A_COL
        v = 0
        for d in range(R.NDIR):
            x = c.nbr[h, d]
            if x >= 0 and c.column_space[x]:
                v += 1
        if v > best:
            best = v
            arg = buf[i]
    return arg


@compiled
def has(buf, n, a):
    for i in range(n):
        if buf[i] == a:
            return True
    return False


@compiled
def heuristic_policy(params, st, cf, buf, n, bot_rng, seat):
    s = st[0]
    c = cf[0]
    p = s.cur
    ph = s.phase
    if params[P_GOD_FIRST] > 0.5:
        if ph == R.PH_ACTION and has(buf, n, R.A_GOD):
            return R.A_GOD
        return buf[below(bot_rng, seat, n)]
    if ph == R.PH_ACTION:
        return choose_action(s, c, p, buf, n, params)
    if ph == R.PH_MOVE_CARDS:
        return choose_move_cards(s, c, p, buf, n, params)
    if ph == R.PH_PLACE:
        return choose_placement(s, c, p, buf, n, params, False)
    if ph == R.PH_BUY:
        return choose_placement(s, c, p, buf, n, params, True)
    if ph == R.PH_GOD_PICK:
        _, slot = best_god(s, c, p, params)
        return R.A_SLOT + slot if slot >= 0 and has(buf, n, R.A_SLOT + slot) else buf[0]
    if ph == R.PH_GOD_PAY:
        return choose_pay(s, c, p, buf, n)
    if ph == R.PH_GALLIA_PAY:
        # pay the flipped god when its worth beats the cards it costs, else box it (A_STOP)
        t = s.gtile
        a = choose_pay(s, c, p, buf, n)
        if a != R.A_STOP:
            cost = R.group_cost(s, c, p, t, c.tile_req[t, 0], a - R.A_KIND)
            if god_worth(s, c, p, t, params) > params[P_CARD] * cost:
                return a
        return R.A_STOP
    if ph == R.PH_DRAW:
        return choose_card(s, c, p, buf, n, params)
    if ph == R.PH_SACRIFICE or ph == R.PH_IBERIA:
        return choose_tile_kind(s, c, p, buf, n, params)
    if ph == R.PH_TRAITERA:
        return R.A_TRAITERA
    if ph == R.PH_GALLIA:
        sac = 0
        for k in range(1, 1 + R.NKIND):
            sac += s.hand[p, k]
        if has(buf, n, R.A_GALLIA_FLIP) and sac + s.level[p].sum() >= 3 and params[P_GOD] >= 1.0:
            return R.A_GALLIA_FLIP
        return R.A_GALLIA_DRAW
    if ph == R.PH_DISCARD:
        return choose_discard(s, c, p, buf, n, params)
    if ph == R.PH_SWAP:
        # columns stay and score; feet go home: the column-minded style trades spare feet for columns
        if params[P_COLUMN] >= 1.0 and s.stock_feet[p] > 3 and has(buf, n, R.A_SWAP_FC):
            return R.A_SWAP_FC
        return R.A_STOP
    if ph == R.PH_BONUS_COLUMN:
        return choose_bonus_column(s, c, p, buf, n)
    # the order of pending loot and the bonus draft: every option is taken in the end, so at random
    return buf[below(bot_rng, seat, n)]
