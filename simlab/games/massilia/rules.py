"""Massilia's rules as a compiled state machine over one structured record.

Summary (full text: ``shared/rules/massilia.md``): 2–4 merchants, 7 rounds of three phases. Phase 1
rotates the price tiles and refills the harbours from the bag; phase 2 rolls the temple dice and lets
each player roll dice from behind the screen, keeping some for 2 sesterces each (Mars: one free); in
phase 3 players in turn order either use a die (brown: move the consul or a customer; beige: buy
goods; grey: draw deity cards paid with cubes; black: buy fame), modified by penalty tokens and deity
cards, or pass for a turn-order tile. Customers stopped at your stall buy their colour (or beige); the
consul taxes, closes or lets you open a stall. Score: fame + stall points + sesterces/3 − 2 per token.

Every decision is small: a turn is "take a die" → any number of modifications (tokens, cards) →
"execute" → the action's own choices (pawn and direction, colour and count, where each cube goes,
which drawn cards to keep and which cubes pay for them). The consul's victim decides Pluton and tax.

Deviations and settled points (each a config field or listed here):
- legality looks one step ahead: a die may be taken (or modified) only if some action can still be
  completed with it (brown is always possible when the action can still be changed); a path that
  needs Mercure to become affordable must play Mercure before taking the die.
- a sacrifice keeps at most ``hand_limit`` minus the cards already in hand (``hand_limit_caps_keep``).
- Pluton is played only as a reaction when the consul stops at its owner's stall; no card is played
  without its effect (e.g. to make room in hand).
- a player takes at most one change of action per die use, and not after a free ±1 card was played
  (the card must follow the action performed).

Action ids are global, declared once in ``ACTIONS`` (``describe`` in game.py names them); the compiled code
reads the A_* constants it generates.
"""

from __future__ import annotations

import numpy as np

from simlab.core.actions import ActionLayout, reserved
from simlab.core.compiled import compiled
from simlab.core.components import (
    cards_left,
    deck_from_counts,
    draw,
    draw_counts,
    finish,
    roll,
    shuffle,
    shuffle_from,
)
from simlab.core.record import state_dtype
from simlab.games.massilia.config import MAX_PLAYERS, MAX_ROUNDS, MAX_SPACES, MAX_VENUS_RETURNS, MassiliaConfig
from simlab.games.massilia.data import CARDS as CARD_NAMES

# -- phases (the decision at hand) --------------------------------------------------------------
PH_SETUP, PH_ROLL, PH_KEEP, PH_MAIN, PH_BUILD, PH_MOVE = 0, 1, 2, 3, 4, 5
PH_CONSUL_PLACE, PH_MOVECUBES, PH_PLUTON, PH_TAX, PH_TAXCUBE = 6, 7, 8, 9, 10
PH_BUY_COLOUR, PH_BUY_COUNT, PH_PLACE, PH_KEEPCARD, PH_PAYCARD, PH_OVER = 11, 12, 13, 14, 15, 16
PHASE_NAMES = (
    "setup stall",
    "dice to roll",
    "keep rolled die",
    "turn",
    "use die",
    "move pawn",
    "place stall at consul",
    "move cubes to new stall",
    "play Pluton",
    "pay consul tax",
    "give up taxed cube",
    "colour to buy",
    "coloured cubes to buy",
    "place cube",
    "keep drawn card",
    "pay for kept card",
    "game over",
)

# -- actions (ids declared once by family: simlab.core.actions) --------------------------------
MAX_DICE = 24
MAX_COUNT = 31
ACTIONS = ActionLayout(
    "pass",
    "execute",
    "no",
    "yes",
    "venus",
    "mercure[4,2]",  # price location, up
    f"venus_fewer[{MAX_VENUS_RETURNS - 1}]",  # Venus returning only k tokens: k - 1
    "take[2,4,6]",  # source (0 temple, 1 own kept dice), die colour, value - 1
    "extra_token[2,4,6]",  # an extra die for a penalty token (take's layout)
    "extra_junon[2,4,6]",  # an extra die with Junon (take's layout)
    "change_token[4]",  # a token changes the die's action to this action colour
    "change_jupiter[4]",  # Jupiter changes it
    f"mod_token[{MAX_DICE},2]",  # a token moves die index up (1) or down (0)
    f"mod_card[{MAX_DICE},2]",  # a free ±1 card does
    "move[4,2]",  # pawn, direction (0 clockwise = +, 1 counter-clockwise = −)
    f"space[{MAX_SPACES}]",
    f"cube[{MAX_SPACES},4]",  # space, goods colour
    f"count[{MAX_COUNT + 1}]",  # k
    "colour[4]",  # goods colour
    "keepdie_temple",
    "keepdie_pay",
    "keepdie_mars",
    reserved(9, "unused ids 471..479: take_exec keeps the ids 480.. that result folders and transcripts hold"),
    "take_exec[2,4,6]",  # take a die and perform its own action unmodified (take's layout); saves a decision
)
A_PASS, A_EXECUTE, A_NO, A_YES, A_VENUS = ACTIONS.starts("pass", "execute", "no", "yes", "venus")
A_MERCURE, A_VENUS_FEWER = ACTIONS.starts("mercure", "venus_fewer")
A_TAKE, A_EXTRA_TOKEN, A_EXTRA_JUNON = ACTIONS.starts("take", "extra_token", "extra_junon")
A_CHANGE_TOKEN, A_CHANGE_JUPITER = ACTIONS.starts("change_token", "change_jupiter")
A_MOD_TOKEN, A_MOD_CARD = ACTIONS.starts("mod_token", "mod_card")
A_MOVE, A_SPACE, A_CUBE, A_COUNT, A_COLOUR = ACTIONS.starts("move", "space", "cube", "count", "colour")
A_KEEPDIE_TEMPLE, A_KEEPDIE_PAY, A_KEEPDIE_MARS = ACTIONS.starts("keepdie_temple", "keepdie_pay", "keepdie_mars")
A_TAKE_EXEC = ACTIONS.start("take_exec")
MAX_ACTIONS = ACTIONS.size

# colours, locations, cards (numbers duplicated from data.py as compile-time constants)
PINK, ORANGE, PURPLE, BEIGE = 0, 1, 2, 3
GREY, BROWN, BLACK, BEIGE_DIE = 0, 1, 2, 3
TEMPLE = 0
JUPITER, JUNON, MINERVE, NEPTUNE, PHOEBUS, VENUS, MERCURE, MARS, PLUTON = 0, 1, 2, 3, 4, 5, 6, 7, 8
NCARDS = 9

P, S, R = MAX_PLAYERS, MAX_SPACES, MAX_ROUNDS

STATE_DTYPE = state_dtype(
    P,
    [
        ("n_players", np.int32),
        ("round_no", np.int32),
        ("active", np.int32),
        ("order", np.int32, (P,)),
        ("order_pos", np.int32),
        ("setup_step", np.int32),
        ("passed", np.int32, (P,)),
        ("n_passed", np.int32),
        ("tile_of", np.int32, (P,)),
        ("last_passer", np.int32),
        ("roll_colour", np.int32),
        ("roll_count", np.int32, (4,)),
        ("rolled_col", np.int32, (MAX_DICE,)),
        ("rolled_val", np.int32, (MAX_DICE,)),
        ("rolled_n", np.int32),
        ("rolled_i", np.int32),
        ("money", np.int32, (P,)),
        ("fame", np.int32, (P,)),
        ("tokens", np.int32, (P,)),
        ("supply", np.int32),
        ("stall_owner", np.int32, (S,)),
        ("cubes", np.int32, (S, 4)),
        ("reserve", np.int32, (P,)),
        ("pawn", np.int32, (4,)),
        ("harbour", np.int32, (4,)),
        ("bag", np.int32, (4,)),
        ("price", np.int32, (4,)),
        ("price_mod", np.int32, (4,)),
        ("marker", np.int32, (3,)),
        ("deck", np.int32, (64,)),
        ("deck_n", np.int32),
        ("discard", np.int32, (NCARDS,)),
        ("hand", np.int32, (P, NCARDS)),
        ("hand_n", np.int32, (P,)),
        ("drawn", np.int32, (64,)),
        ("drawn_n", np.int32),
        ("drawn_i", np.int32),
        ("kept_n", np.int32),
        ("keep_room", np.int32),
        ("screen", np.int32, (P, 4)),
        ("temple", np.int32, (4, 6)),
        ("kept", np.int32, (P, 4, 6)),
        ("act_col", np.int32, (MAX_DICE,)),
        ("act_val", np.int32, (MAX_DICE,)),
        ("act_n", np.int32),
        ("act_action", np.int32),
        ("act_changed", np.int32),
        ("act_cardmod", np.int32),
        ("buy_colour", np.int32),
        ("place_left", np.int32, (4,)),
        ("consul_space", np.int32),
        ("tax_owner", np.int32),
        ("tax_left", np.int32),
        ("moved_cubes", np.int32),
        ("pay_owed", np.int32),
        # facts: per seat
        ("f_start_money", np.int32, (P,)),
        ("f_money_r", np.int32, (P, R)),
        ("f_fame_r", np.int32, (P, R)),
        ("f_stalls_r", np.int32, (P, R)),
        ("f_score_r", np.int32, (P, R)),
        ("f_drawn", np.int32, (P, NCARDS)),
        ("f_kept", np.int32, (P, NCARDS)),
        ("f_played", np.int32, (P, NCARDS)),
        ("f_first_played", np.int32, (P, NCARDS)),
        ("f_tokens_taken", np.int32, (P,)),
        ("f_bought", np.int32, (P, 4)),
        ("f_sold", np.int32, (P, 4)),
        ("f_sale_money", np.int32, (P,)),
        ("f_sale_fame", np.int32, (P,)),
        ("f_fame_bought", np.int32, (P,)),
        ("f_taxed", np.int32, (P,)),
        ("f_closed", np.int32, (P,)),
        ("f_pass_money", np.int32, (P,)),
        ("f_dice_used", np.int32, (P, 4)),
        ("f_actions", np.int32, (P, 4)),
        # facts: per round (market)
        ("f_price_r", np.int32, (R, 4)),
        ("f_marker_r", np.int32, (R, 3)),
        ("f_harbour_r", np.int32, (R, 4)),
        ("f_bag_r", np.int32, (R, 4)),
        ("f_round_bought", np.int32, (R, 4)),
        ("f_round_sold", np.int32, (R, 4)),
    ],
)

CONFIG_DTYPE = np.dtype(
    [
        ("players", np.int32),
        ("rounds", np.int32),
        ("start_money", np.int32, (P,)),
        ("cubes_total", np.int32, (4,)),
        ("harbour_start", np.int32, (4,)),
        ("refill", np.int32),
        ("card_copies", np.int32, (NCARDS,)),
        ("price_tiles", np.int32, (4,)),
        ("beige_price", np.int32),
        ("price_min", np.int32),
        ("price_max", np.int32),
        ("turn_tiles", np.int32, (P,)),
        ("tokens_per_player", np.int32),
        ("marker_start", np.int32),
        ("marker_min", np.int32),
        ("marker_max", np.int32),
        ("marker_drop_per_cube", np.int32),
        ("marker_drop_counts_beige", np.int32),
        ("stalls_per_player", np.int32),
        ("stall_capacity", np.int32),
        ("setup_stalls", np.int32),
        ("setup_cubes", np.int32),
        ("keep_die_cost", np.int32),
        ("consul_place_cost", np.int32),
        ("consul_move_cubes", np.int32),
        ("tax_per_cube", np.int32),
        ("hand_limit", np.int32),
        ("hand_limit_caps_keep", np.int32),
        ("beige_per_card", np.int32),
        ("venus_returns", np.int32),
        ("stall_points", np.int32, (16,)),
        ("n_stall_points", np.int32),
        ("money_per_point", np.int32),
        ("token_penalty", np.int32),
        ("removed_beige_to_bag", np.int32),
        ("kept_to_screen", np.int32),
        ("fame_full", np.int32),
        ("spaces", np.int32),
        ("is_corner", np.int32, (S,)),
        ("middles", np.int32, (4,)),
        ("random_pawns", np.int32),
        ("bonus_card", np.int32),
        ("bonus_seat", np.int32),
    ],
    align=True,
)


def derive_config(config: MassiliaConfig, c: np.void) -> None:
    """The config-record fields computed from knobs declared ``record=None`` (core copies the others)."""
    n = config.players
    c["refill"] = config.refill_by_players[n - 2]
    c["turn_tiles"][: n - 1] = sorted(config.turn_tiles)[: n - 1]
    c["setup_stalls"] = config.setup_stalls_by_players[n - 2]
    points = list(config.stall_points)[:16]
    c["stall_points"][: len(points)] = points
    c["n_stall_points"] = len(points)
    spaces = config.market_spaces
    side = spaces // 4
    c["spaces"] = spaces
    c["middles"][:] = [k * side + side // 2 for k in range(4)]
    for sp in range(spaces):
        c["is_corner"][sp] = 0 if sp in c["middles"] else 1
    c["bonus_card"] = -1 if config.bonus_card == "none" else CARD_NAMES.index(config.bonus_card)
    c["bonus_seat"] = config.bonus_card_seat if c["bonus_card"] >= 0 else -1


# ==============================================================================================
# small helpers
# ==============================================================================================
@compiled
def eff_price(s, loc):
    return s.price[loc] + s.price_mod[loc]


@compiled
def goods_price(s, c, g):
    """Price of one cube of goods colour g at its harbour (beige is printed)."""
    if g == BEIGE:
        return c.beige_price
    # harbour price locations: pink 3, orange 2, purple 1
    return eff_price(s, 3 - g)


@compiled
def stall_count(s, c, p):
    owner = s.stall_owner
    n = 0
    for sp in range(c.spaces):
        if owner[sp] == p:
            n += 1
    return n


@compiled
def stall_total(s, sp):
    return s.cubes[sp, 0] + s.cubes[sp, 1] + s.cubes[sp, 2] + s.cubes[sp, 3]


@compiled
def own_room(s, c, p):
    owner = s.stall_owner  # views taken once: these loops run inside legal()
    cubes = s.cubes
    room = 0
    for sp in range(c.spaces):
        if owner[sp] == p:
            room += c.stall_capacity - (cubes[sp, 0] + cubes[sp, 1] + cubes[sp, 2] + cubes[sp, 3])
    return room


@compiled
def own_goods(s, c, p, g):
    owner = s.stall_owner
    cubes = s.cubes
    n = 0
    for sp in range(c.spaces):
        if owner[sp] == p:
            n += cubes[sp, g]
    return n


@compiled
def room_and_payable(s, c, p):
    """(own_room, payable_cards) in one pass over the market."""
    owner = s.stall_owner
    cubes = s.cubes
    room = 0
    coloured = 0
    beige = 0
    for sp in range(c.spaces):
        if owner[sp] == p:
            col = cubes[sp, 0] + cubes[sp, 1] + cubes[sp, 2]
            room += c.stall_capacity - (col + cubes[sp, 3])
            coloured += col
            beige += cubes[sp, BEIGE]
    return room, coloured + beige // c.beige_per_card


@compiled
def payable_cards(s, c, p):
    """How many kept cards the player's stall cubes can pay for."""
    return room_and_payable(s, c, p)[1]


@compiled
def act_value(s):
    v = 0
    for i in range(s.act_n):
        v += s.act_val[i]
    return v


@compiled
def wrap(v, up):
    if up == 1:
        return 1 if v == 6 else v + 1
    return 6 if v == 1 else v - 1


@compiled
def score_of(s, c, p):
    n = stall_count(s, c, p)
    if n >= c.n_stall_points:
        n = c.n_stall_points - 1
    return s.fame[p] + c.stall_points[n] + s.money[p] // c.money_per_point - c.token_penalty * s.tokens[p]


@compiled
def draw_cube(s):
    """Draw one random cube from the bag; returns its colour or -1 if the bag is empty."""
    return draw_counts(s, s.bag)


@compiled
def return_removed_cube(s, c, g):
    """A cube discarded for a card or taxed: to the bag (beige to the harbour if so configured)."""
    if g == BEIGE and c.removed_beige_to_bag == 0:
        s.harbour[BEIGE] += 1
    else:
        s.bag[g] += 1


@compiled
def play_card(s, p, t):
    s.hand[p, t] -= 1
    s.hand_n[p] -= 1
    s.discard[t] += 1
    s.f_played[p, t] += 1
    if s.f_first_played[p, t] == 0:
        s.f_first_played[p, t] = s.round_no


@compiled
def take_token(s, p):
    s.supply -= 1
    s.tokens[p] += 1
    s.f_tokens_taken[p] += 1


# ==============================================================================================
# feasibility of die actions (legality looks one step ahead, see module docstring)
# ==============================================================================================
@compiled
def buy_feasible_colour(s, c, p, g, v):
    """Can the player buy exactly v cubes with at least one of goods colour g?"""
    if s.harbour[g] < 1:
        return False
    pg = goods_price(s, c, g)
    for k in range(1, min(v, s.harbour[g]) + 1):
        if v - k <= s.harbour[BEIGE] and k * pg + (v - k) * c.beige_price <= s.money[p]:
            return True
    return False


@compiled
def action_feasible(s, c, p, a, v):
    """Is die action ``a`` with total ``v`` possible for player p now?"""
    room, payable = room_and_payable(s, c, p)
    return action_feasible_agg(s, c, p, a, v, room, payable, cards_left(s.deck_n, s.discard))


@compiled
def action_feasible_agg(s, c, p, a, v, room, payable, cards):
    """action_feasible with the player's stall room, payable cards and available cards precomputed
    (they do not change while the legal actions of one decision are enumerated)."""
    if v < 1:
        return False
    if a == BROWN:
        return True
    if a == BLACK:
        if c.fame_full == 0:
            return s.money[p] >= eff_price(s, TEMPLE)
        return s.money[p] >= v * eff_price(s, TEMPLE)
    if a == BEIGE_DIE:
        if room < v:
            return False
        for g in range(3):
            if buy_feasible_colour(s, c, p, g, v):
                return True
        return False
    # grey: sacrifice
    return s.hand_n[p] < c.hand_limit and cards > 0 and payable >= 1


@compiled
def min_reachable_value(s, budget):
    """Smallest die total reachable with ``budget`` ±1 steps (6+1 wraps to 1, a 5 wraps in 2 steps)."""
    v = act_value(s)
    b = budget
    for i in range(s.act_n):
        if b >= 1 and s.act_val[i] == 6:
            v -= 5
            b -= 1
    for i in range(s.act_n):
        if b >= 2 and s.act_val[i] == 5:
            v -= 4
            b -= 2
    for i in range(s.act_n):
        d = s.act_val[i]
        if d == 6 or (d == 5 and budget >= 2):
            continue
        step = min(b, d - 1)
        v -= step
        b -= step
    return max(v, s.act_n)


@compiled
def feasible_soon(s, c, p):
    """Can the die use in progress still end in a legal action?"""
    room, payable = room_and_payable(s, c, p)
    return feasible_soon_agg(s, c, p, room, payable, cards_left(s.deck_n, s.discard))


@compiled
def feasible_soon_agg(s, c, p, room, payable, cards):
    """feasible_soon with the aggregates of action_feasible_agg precomputed."""
    if s.act_changed == 0 and s.act_cardmod == 0 and (s.supply > 0 or s.hand[p, JUPITER] > 0):
        return True  # the action can still be changed to brown, which is always possible
    a = s.act_action
    v = act_value(s)
    if action_feasible_agg(s, c, p, a, v, room, payable, cards):
        return True
    budget = s.supply
    if a == BROWN:
        budget += s.hand[p, MINERVE]
    elif a == BLACK:
        budget += s.hand[p, PHOEBUS]
    elif a == BEIGE_DIE:
        budget += s.hand[p, NEPTUNE]
    return budget > 0 and action_feasible_agg(s, c, p, a, min_reachable_value(s, budget), room, payable, cards)


@compiled
def mod_card_for(a):
    if a == BROWN:
        return MINERVE
    if a == BLACK:
        return PHOEBUS
    if a == BEIGE_DIE:
        return NEPTUNE
    return -1


# ==============================================================================================
# flow: setup, rounds, turns
# ==============================================================================================
@compiled
def init(st, cf, rng):
    """Set up a new game (rules page 'Setup') and advance to the first decision."""
    s = st[0]
    c = cf[0]
    s.rng[0] = rng[0]
    n = c.players
    s.n_players = n
    for g in range(4):
        s.harbour[g] = c.harbour_start[g]
        s.bag[g] = c.cubes_total[g] - c.harbour_start[g]
    s.deck_n = deck_from_counts(s.deck, 0, c.card_copies)
    shuffle(s, s.deck, s.deck_n)
    if c.bonus_seat >= 0:
        deal_bonus_card(s, c.bonus_seat, c.bonus_card)
    for sp in range(S):
        s.stall_owner[sp] = -1
    # characters on the middle spaces in random order
    for i in range(4):
        s.pawn[i] = c.middles[i]
    if c.random_pawns == 1:
        shuffle(s, s.pawn, 4)
    # price tiles at random on temple and the three harbours
    for i in range(4):
        s.price[i] = c.price_tiles[i]
    shuffle(s, s.price, 4)
    for g in range(3):
        s.marker[g] = c.marker_start
    s.supply = c.tokens_per_player * n
    for p in range(n):
        s.order[p] = p
        s.reserve[p] = c.stalls_per_player
        s.money[p] = c.start_money[p]
        s.f_start_money[p] = c.start_money[p]
        for d in range(4):
            s.screen[p, d] = 1
    for d in range(4):
        s.temple[d, 0] = 1  # values are rolled in phase 2
    s.round_no = 1
    s.setup_step = 0
    s.phase = PH_SETUP
    s.cur = 0
    s.last_passer = -1


@compiled
def deal_bonus_card(s, p, t):
    """Experiment knob: move the topmost card of type t from the deck to p's hand."""
    for i in range(s.deck_n - 1, -1, -1):
        if s.deck[i] == t:
            for j in range(i, s.deck_n - 1):
                s.deck[j] = s.deck[j + 1]
            s.deck_n -= 1
            s.hand[p, t] += 1
            s.hand_n[p] += 1
            return


@compiled
def setup_seat(s, c, step):
    """Seat placing the ``step``-th setup stall: turn order, then reversed for a second pass."""
    n = c.players
    lap = step // n
    i = step % n
    return i if lap % 2 == 0 else n - 1 - i


@compiled
def record_round_market(s, c):
    r = s.round_no - 1
    for i in range(4):
        s.f_price_r[r, i] = s.price[i]
        s.f_harbour_r[r, i] = s.harbour[i]
        s.f_bag_r[r, i] = s.bag[i]


@compiled
def start_round(s, c):
    """Phase 1 (skipped in round 1) and the start of phase 2."""
    if s.round_no > 1:
        last = s.price[3]
        for i in range(3, 0, -1):
            s.price[i] = s.price[i - 1]
        s.price[0] = last
        for _ in range(c.refill):
            g = draw_cube(s)
            if g < 0:
                break
            s.harbour[g] += 1
    record_round_market(s, c)
    # roll every die in the temple
    for d in range(4):
        n = 0
        for v in range(6):
            n += s.temple[d, v]
            s.temple[d, v] = 0
        for _ in range(n):
            s.temple[d, roll(s, 6) - 1] += 1
    s.order_pos = 0
    begin_roll(s, c)


@compiled
def begin_roll(s, c):
    """Find the next player (from order_pos) with dice behind the screen and ask how many to roll."""
    while s.order_pos < c.players:
        p = s.order[s.order_pos]
        for d in range(4):
            s.roll_count[d] = 0  # all colours: a colour without dice is never asked about
        for d in range(4):
            if s.screen[p, d] > 0:
                s.phase = PH_ROLL
                s.roll_colour = d
                s.cur = p
                return
        s.order_pos += 1
    begin_actions(s, c)


@compiled
def next_roll_colour(s, c):
    p = s.cur
    for d in range(s.roll_colour + 1, 4):
        if s.screen[p, d] > 0:
            s.roll_colour = d
            return
    # every colour chosen: roll openly
    s.rolled_n = 0
    for d in range(4):
        for _ in range(s.roll_count[d]):
            s.rolled_col[s.rolled_n] = d
            s.rolled_val[s.rolled_n] = roll(s, 6)
            s.rolled_n += 1
        s.screen[p, d] -= s.roll_count[d]
    if s.rolled_n == 0:
        s.order_pos += 1
        begin_roll(s, c)
    else:
        s.rolled_i = 0
        s.phase = PH_KEEP


@compiled
def begin_actions(s, c):
    s.order_pos = 0
    s.n_passed = 0
    for p in range(c.players):
        s.passed[p] = 0
        s.tile_of[p] = 0
    s.active = s.order[0]
    s.cur = s.active
    s.phase = PH_MAIN
    s.turns += 1


@compiled
def end_turn(s, c):
    """The die (or dice) go behind the user's screen; Mercure reverts; the next player acts."""
    p = s.active
    for i in range(s.act_n):
        s.screen[p, s.act_col[i]] += 1
    s.act_n = 0
    for i in range(4):
        s.price_mod[i] = 0
    next_turn(s, c)


@compiled
def next_turn(s, c):
    n = c.players
    if s.n_passed >= n:
        end_round(s, c)
        return
    pos = s.order_pos
    for _ in range(n):
        pos = (pos + 1) % n
        if s.passed[s.order[pos]] == 0:
            break
    s.order_pos = pos
    s.active = s.order[pos]
    s.cur = s.active
    s.phase = PH_MAIN
    s.turns += 1


@compiled
def end_round(s, c):
    n = c.players
    r = s.round_no - 1
    for p in range(n):
        s.f_money_r[p, r] = s.money[p]
        s.f_fame_r[p, r] = s.fame[p]
        s.f_stalls_r[p, r] = stall_count(s, c, p)
        s.f_score_r[p, r] = score_of(s, c, p)
    for g in range(3):
        s.f_marker_r[r, g] = s.marker[g]
    # new turn order: last passer first, then by tile value ascending
    s.order[0] = s.last_passer
    k = 1
    for t in range(n - 1):
        for p in range(n):
            if s.tile_of[p] == c.turn_tiles[t] and p != s.last_passer:
                # equal tile values cannot occur (one tile each), but guard against a duplicate
                dup = False
                for j in range(k):
                    if s.order[j] == p:
                        dup = True
                if not dup:
                    s.order[k] = p
                    k += 1
    s.last_passer = -1
    if s.round_no >= c.rounds:
        final_scoring(s, c)
        return
    s.round_no += 1
    start_round(s, c)


@compiled
def final_scoring(s, c):
    """Score every seat; ties break on stalls, then sesterces, then fewer penalty tokens (rules 'End')."""
    n = c.players
    keys = np.empty((n, 4), np.int64)
    for p in range(n):
        s.score[p] = score_of(s, c, p)
        keys[p, 0] = s.score[p]
        keys[p, 1] = stall_count(s, c, p)
        keys[p, 2] = s.money[p]
        keys[p, 3] = -s.tokens[p]
    s.phase = PH_OVER
    finish(s, keys, n)


@compiled
def score_now(st, cf):
    """The game ended where it stands: ``final_scoring`` applied to the position now. Core's search cuts its
    playouts short with it (``ismcts:depth=D``, docs/search.md)."""
    final_scoring(st[0], cf[0])


# ==============================================================================================
# legal actions
# ==============================================================================================
@compiled
def legal(st, cf, buf):
    """Write the legal actions of the decision at hand into ``buf``; return how many."""
    s = st[0]
    c = cf[0]
    ph = s.phase
    p = s.cur
    n = 0
    if ph == PH_SETUP:
        for sp in range(c.spaces):
            if c.is_corner[sp] == 1 and s.stall_owner[sp] < 0:
                buf[n] = A_SPACE + sp
                n += 1
    elif ph == PH_ROLL:
        for k in range(s.screen[p, s.roll_colour] + 1):
            buf[n] = A_COUNT + k
            n += 1
    elif ph == PH_KEEP:
        buf[n] = A_KEEPDIE_TEMPLE
        n += 1
        if s.money[p] >= c.keep_die_cost:
            buf[n] = A_KEEPDIE_PAY
            n += 1
        if s.hand[p, MARS] > 0:
            buf[n] = A_KEEPDIE_MARS
            n += 1
    elif ph == PH_MAIN:
        buf[n] = A_PASS
        n += 1
        room, payable = room_and_payable(s, c, p)
        cards = cards_left(s.deck_n, s.discard)
        n = legal_cards_any_time(s, c, p, buf, n, False, room, payable, cards)
        # a fresh die use can change its action (to brown, always possible) with a token or a Jupiter:
        # then take_ok holds for every die
        any_die = s.supply > 0 or s.hand[p, JUPITER] > 0
        # take_ok and action_feasible_agg depend on the die's colour and value, not on where it lies:
        # bit d * 6 + v of ``known`` says the pair was evaluated (temple and kept dice share it)
        known = 0
        take_bits = 0
        exec_bits = 0
        for src in range(2):
            for d in range(4):
                for v in range(6):
                    cnt = s.temple[d, v] if src == 0 else s.kept[p, d, v]
                    if cnt == 0:
                        continue
                    bit = 1 << (d * 6 + v)
                    if known & bit == 0:
                        known |= bit
                        # a die usable as rolled can be taken (take_ok asks the same question first)
                        if action_feasible_agg(s, c, p, d, v + 1, room, payable, cards):
                            take_bits |= bit
                            exec_bits |= bit
                        elif any_die or take_ok(s, c, p, d, v + 1, room, payable, cards):
                            take_bits |= bit
                    if take_bits & bit != 0:
                        buf[n] = A_TAKE + src * 24 + d * 6 + v
                        n += 1
                        if exec_bits & bit != 0:
                            buf[n] = A_TAKE_EXEC + src * 24 + d * 6 + v
                            n += 1
    elif ph == PH_BUILD:
        room, payable = room_and_payable(s, c, p)
        n = legal_build(s, c, p, buf, n, room, payable, cards_left(s.deck_n, s.discard))
    elif ph == PH_MOVE:
        for a in range(8):
            buf[n] = A_MOVE + a
            n += 1
    elif ph == PH_CONSUL_PLACE or ph == PH_PLUTON:
        buf[n] = A_NO
        buf[n + 1] = A_YES
        n += 2
    elif ph == PH_MOVECUBES:
        buf[n] = A_NO
        n += 1
        if s.moved_cubes < c.consul_move_cubes and stall_total(s, s.consul_space) < c.stall_capacity:
            for sp in range(c.spaces):
                if s.stall_owner[sp] == p and sp != s.consul_space:
                    for g in range(4):
                        if s.cubes[sp, g] > 0:
                            buf[n] = A_CUBE + sp * 4 + g
                            n += 1
    elif ph == PH_TAX:
        cubes = stall_total(s, s.consul_space)
        for k in range(cubes + 1):
            if k * c.tax_per_cube <= s.money[p]:
                buf[n] = A_COUNT + k
                n += 1
    elif ph == PH_TAXCUBE:
        for g in range(4):
            if s.cubes[s.consul_space, g] > 0:
                buf[n] = A_COLOUR + g
                n += 1
    elif ph == PH_BUY_COLOUR:
        v = act_value(s)
        for g in range(3):
            if buy_feasible_colour(s, c, p, g, v):
                buf[n] = A_COLOUR + g
                n += 1
    elif ph == PH_BUY_COUNT:
        v = act_value(s)
        g = s.buy_colour
        pg = goods_price(s, c, g)
        for k in range(1, min(v, s.harbour[g]) + 1):
            if v - k <= s.harbour[BEIGE] and k * pg + (v - k) * c.beige_price <= s.money[p]:
                buf[n] = A_COUNT + k
                n += 1
    elif ph == PH_PLACE:
        for sp in range(c.spaces):
            if s.stall_owner[sp] == p and stall_total(s, sp) < c.stall_capacity:
                buf[n] = A_SPACE + sp
                n += 1
    elif ph == PH_KEEPCARD:
        if s.kept_n < s.keep_room:
            buf[n] = A_YES
            n += 1
        if not (s.drawn_i == s.drawn_n - 1 and s.kept_n == 0):
            buf[n] = A_NO
            n += 1
    elif ph == PH_PAYCARD:
        # the player's coloured and beige cubes, counted once for every candidate cube (see pay_ok)
        coloured = own_goods(s, c, p, 0) + own_goods(s, c, p, 1) + own_goods(s, c, p, 2)
        beige = own_goods(s, c, p, BEIGE)
        for sp in range(c.spaces):
            if s.stall_owner[sp] == p:
                for g in range(4):
                    if s.cubes[sp, g] > 0 and pay_ok_agg(s, c, g, coloured, beige):
                        buf[n] = A_CUBE + sp * 4 + g
                        n += 1
    return n


@compiled
def legal_cards_any_time(s, c, p, buf, n, check, room, payable, cards):
    """Venus and Mercure may be played at any point of one's own turn."""
    if s.hand[p, VENUS] > 0 and s.tokens[p] > 0:
        buf[n] = A_VENUS  # return as many as allowed ...
        n += 1
        for k in range(1, min(c.venus_returns, s.tokens[p])):  # ... or fewer: "at most 2"
            buf[n] = A_VENUS_FEWER + k - 1
            n += 1
    if s.hand[p, MERCURE] > 0:
        for loc in range(4):
            for up in range(2):
                np_ = eff_price(s, loc) + (1 if up == 1 else -1)
                if c.price_min <= np_ <= c.price_max:
                    ok = True
                    if check:
                        s.price_mod[loc] += 1 if up == 1 else -1
                        s.hand_n[p] -= 1  # the played Mercure leaves the hand
                        ok = feasible_soon_agg(s, c, p, room, payable, cards)
                        s.hand_n[p] += 1
                        s.price_mod[loc] -= 1 if up == 1 else -1
                    if ok:
                        buf[n] = A_MERCURE + loc * 2 + up
                        n += 1
    return n


@compiled
def take_ok(s, c, p, d, v, room, payable, cards):
    """Taking this die as the first die of an action leaves a way to complete it (the scratch fields
    are restored, so asking for legal actions leaves the record byte-identical)."""
    saved = (s.act_n, s.act_col[0], s.act_val[0], s.act_action, s.act_changed, s.act_cardmod)
    s.act_n = 1
    s.act_col[0] = d
    s.act_val[0] = v
    s.act_action = d
    s.act_changed = 0
    s.act_cardmod = 0
    ok = feasible_soon_agg(s, c, p, room, payable, cards)
    s.act_n, s.act_col[0], s.act_val[0], s.act_action, s.act_changed, s.act_cardmod = saved
    return ok


@compiled
def legal_build(s, c, p, buf, n, room, payable, cards):
    a = s.act_action
    if action_feasible_agg(s, c, p, a, act_value(s), room, payable, cards):
        buf[n] = A_EXECUTE
        n += 1
    n = legal_cards_any_time(s, c, p, buf, n, True, room, payable, cards)
    # an extra die (token, or Junon for a die of the first die's colour)
    spare = min(s.act_n, MAX_DICE - 1)
    spare_col, spare_val = s.act_col[spare], s.act_val[spare]
    # whether the use stays feasible with one more die depends on the die's value only (not on its
    # colour or where it lies): bit v of ``*_known`` / ``*_ok`` remembers it, for a token and for Junon
    tok_known = 0
    tok_ok = 0
    jun_known = 0
    jun_ok = 0
    if s.act_n < MAX_DICE:
        for src in range(2):
            for d in range(4):
                for v in range(6):
                    cnt = s.temple[d, v] if src == 0 else s.kept[p, d, v]
                    if cnt == 0:
                        continue
                    bit = 1 << v
                    if s.supply > 0:
                        if tok_known & bit == 0:
                            tok_known |= bit
                            s.act_val[s.act_n] = v + 1
                            s.act_n += 1
                            s.supply -= 1
                            if feasible_soon_agg(s, c, p, room, payable, cards):
                                tok_ok |= bit
                            s.supply += 1
                            s.act_n -= 1
                        if tok_ok & bit != 0:
                            buf[n] = A_EXTRA_TOKEN + src * 24 + d * 6 + v
                            n += 1
                    if s.hand[p, JUNON] > 0 and d == s.act_col[0]:
                        if jun_known & bit == 0:
                            jun_known |= bit
                            s.act_val[s.act_n] = v + 1
                            s.act_n += 1
                            s.hand[p, JUNON] -= 1
                            s.hand_n[p] -= 1
                            if feasible_soon_agg(s, c, p, room, payable, cards):
                                jun_ok |= bit
                            s.hand_n[p] += 1
                            s.hand[p, JUNON] += 1
                            s.act_n -= 1
                        if jun_ok & bit != 0:
                            buf[n] = A_EXTRA_JUNON + src * 24 + d * 6 + v
                            n += 1
    s.act_col[spare], s.act_val[spare] = spare_col, spare_val
    # change of action (once, and not after a free ±1 card)
    if s.act_changed == 0 and s.act_cardmod == 0:
        for na in range(4):
            if na == a:
                continue
            s.act_action = na
            s.act_changed = 1
            if s.supply > 0:
                s.supply -= 1
                if feasible_soon_agg(s, c, p, room, payable, cards):
                    buf[n] = A_CHANGE_TOKEN + na
                    n += 1
                s.supply += 1
            if s.hand[p, JUPITER] > 0:
                s.hand[p, JUPITER] -= 1
                s.hand_n[p] -= 1  # the played Jupiter makes room in a full hand for a sacrifice
                if feasible_soon_agg(s, c, p, room, payable, cards):
                    buf[n] = A_CHANGE_JUPITER + na
                    n += 1
                s.hand_n[p] += 1
                s.hand[p, JUPITER] += 1
            s.act_action = a
            s.act_changed = 0
    # ±1 on one die (token, or the free card of the action performed)
    card = mod_card_for(a)
    for i in range(s.act_n):
        old = s.act_val[i]
        for up in range(2):
            s.act_val[i] = wrap(old, up)
            if s.supply > 0:
                s.supply -= 1
                if feasible_soon_agg(s, c, p, room, payable, cards):
                    buf[n] = A_MOD_TOKEN + i * 2 + up
                    n += 1
                s.supply += 1
            if card >= 0 and s.hand[p, card] > 0:
                s.hand[p, card] -= 1
                s.act_cardmod += 1
                if feasible_soon_agg(s, c, p, room, payable, cards):
                    buf[n] = A_MOD_CARD + i * 2 + up
                    n += 1
                s.act_cardmod -= 1
                s.hand[p, card] += 1
        s.act_val[i] = old
    return n


@compiled
def pay_ok(s, c, p, g):
    """May this cube pay towards the kept cards, leaving the rest payable?"""
    coloured = own_goods(s, c, p, 0) + own_goods(s, c, p, 1) + own_goods(s, c, p, 2)
    beige = own_goods(s, c, p, BEIGE)
    return pay_ok_agg(s, c, g, coloured, beige)


@compiled
def pay_ok_agg(s, c, g, coloured, beige):
    """pay_ok with the player's coloured and beige cube counts precomputed."""
    owed = s.pay_owed
    bpc = c.beige_per_card
    if g < 3:
        if owed % bpc != 0 or owed < bpc:
            return False
        owed -= bpc
    else:
        owed -= 1
    if g < 3:
        coloured -= 1
    else:
        beige -= 1
    part = owed % bpc
    if part > beige:
        return False
    return (owed - part) // bpc <= coloured + (beige - part) // bpc


# ==============================================================================================
# applying actions
# ==============================================================================================
@compiled
def take_die(s, p, src, d, v):
    if src == 0:
        s.temple[d, v - 1] -= 1
    else:
        s.kept[p, d, v - 1] -= 1
    s.act_col[s.act_n] = d
    s.act_val[s.act_n] = v
    s.act_n += 1


@compiled
def apply(st, cf, a):
    """Apply action ``a`` (assumed legal: the Python layer checks) and advance to the next decision."""
    s = st[0]
    c = cf[0]
    p = s.cur
    ph = s.phase
    s.decisions += 1
    if ph == PH_SETUP:
        sp = a - A_SPACE
        s.stall_owner[sp] = p
        s.reserve[p] -= 1
        for _ in range(c.setup_cubes):
            g = draw_cube(s)
            if g >= 0:
                s.cubes[sp, g] += 1
        s.setup_step += 1
        if s.setup_step >= c.setup_stalls * c.players:
            start_round(s, c)
        else:
            s.cur = setup_seat(s, c, s.setup_step)
    elif ph == PH_ROLL:
        s.roll_count[s.roll_colour] = a - A_COUNT
        next_roll_colour(s, c)
    elif ph == PH_KEEP:
        d = s.rolled_col[s.rolled_i]
        v = s.rolled_val[s.rolled_i]
        if a == A_KEEPDIE_TEMPLE:
            s.temple[d, v - 1] += 1
        else:
            if a == A_KEEPDIE_PAY:
                s.money[p] -= c.keep_die_cost
            else:
                play_card(s, p, MARS)
            s.kept[p, d, v - 1] += 1
        s.rolled_i += 1
        if s.rolled_i >= s.rolled_n:
            s.order_pos += 1
            begin_roll(s, c)
    elif ph == PH_MAIN:
        if a == A_PASS:
            do_pass(s, c, p)
        elif a < A_TAKE:
            apply_any_time_card(s, c, p, a)
        else:
            x = a - (A_TAKE_EXEC if a >= A_TAKE_EXEC else A_TAKE)
            take_die(s, p, x // 24, (x % 24) // 6, x % 6 + 1)
            s.act_action = s.act_col[0]
            s.act_changed = 0
            s.act_cardmod = 0
            s.phase = PH_BUILD
            if a >= A_TAKE_EXEC:
                execute(s, c, p)
    elif ph == PH_BUILD:
        apply_build(s, c, p, a)
    elif ph == PH_MOVE:
        x = a - A_MOVE
        move_pawn(s, c, p, x // 2, x % 2)
    elif ph == PH_CONSUL_PLACE:
        if a == A_YES:
            sp = s.consul_space
            s.money[p] -= c.consul_place_cost
            s.stall_owner[sp] = p
            s.reserve[p] -= 1
            s.moved_cubes = 0
            s.phase = PH_MOVECUBES
        else:
            end_turn(s, c)
    elif ph == PH_MOVECUBES:
        if a == A_NO:
            end_turn(s, c)
        else:
            x = a - A_CUBE
            s.cubes[x // 4, x % 4] -= 1
            s.cubes[s.consul_space, x % 4] += 1
            s.moved_cubes += 1
    elif ph == PH_PLUTON:
        o = s.tax_owner
        if a == A_YES:
            play_card(s, o, PLUTON)
            s.cur = s.active
            end_turn(s, c)
        else:
            consul_effect(s, c, o)
    elif ph == PH_TAX:
        k = a - A_COUNT
        sp = s.consul_space
        s.money[p] -= k * c.tax_per_cube
        s.tax_left = stall_total(s, sp) - k
        s.f_taxed[p] += k * c.tax_per_cube
        if s.tax_left > 0:
            s.phase = PH_TAXCUBE
        else:
            s.cur = s.active
            end_turn(s, c)
    elif ph == PH_TAXCUBE:
        g = a - A_COLOUR
        s.cubes[s.consul_space, g] -= 1
        return_removed_cube(s, c, g)
        s.tax_left -= 1
        if s.tax_left == 0:
            s.cur = s.active
            end_turn(s, c)
    elif ph == PH_BUY_COLOUR:
        s.buy_colour = a - A_COLOUR
        s.phase = PH_BUY_COUNT
    elif ph == PH_BUY_COUNT:
        buy(s, c, p, s.buy_colour, a - A_COUNT)
    elif ph == PH_PLACE:
        sp = a - A_SPACE
        for g in range(4):
            if s.place_left[g] > 0:
                s.place_left[g] -= 1
                s.cubes[sp, g] += 1
                break
        if s.place_left[0] + s.place_left[1] + s.place_left[2] + s.place_left[3] == 0:
            end_turn(s, c)
    elif ph == PH_KEEPCARD:
        t = s.drawn[s.drawn_i]
        if a == A_YES:
            s.hand[p, t] += 1
            s.hand_n[p] += 1
            s.kept_n += 1
            s.f_kept[p, t] += 1
        else:
            s.discard[t] += 1
        s.drawn_i += 1
        if s.drawn_i >= s.drawn_n:
            s.drawn_n = 0
            s.pay_owed = s.kept_n * c.beige_per_card
            s.phase = PH_PAYCARD
    elif ph == PH_PAYCARD:
        x = a - A_CUBE
        g = x % 4
        s.cubes[x // 4, g] -= 1
        return_removed_cube(s, c, g)
        s.pay_owed -= c.beige_per_card if g < 3 else 1
        if s.pay_owed <= 0:
            end_turn(s, c)


@compiled
def venus_back(s, c, p, a):
    """Penalty tokens a Venus action returns: all it may (A_VENUS) or the k chosen (A_VENUS_FEWER + k - 1)."""
    if a == A_VENUS:
        return min(c.venus_returns, s.tokens[p])
    return a - A_VENUS_FEWER + 1


@compiled
def apply_any_time_card(s, c, p, a):
    if a == A_VENUS or A_VENUS_FEWER <= a < A_TAKE:
        play_card(s, p, VENUS)
        back = venus_back(s, c, p, a)
        s.tokens[p] -= back
        s.supply += back
    else:
        x = a - A_MERCURE
        play_card(s, p, MERCURE)
        s.price_mod[x // 2] += 1 if x % 2 == 1 else -1


@compiled
def apply_build(s, c, p, a):
    if a == A_EXECUTE:
        execute(s, c, p)
    elif a < A_TAKE:
        apply_any_time_card(s, c, p, a)
    elif a < A_EXTRA_JUNON:
        x = a - A_EXTRA_TOKEN
        take_token(s, p)
        take_die(s, p, x // 24, (x % 24) // 6, x % 6 + 1)
    elif a < A_CHANGE_TOKEN:
        x = a - A_EXTRA_JUNON
        play_card(s, p, JUNON)
        take_die(s, p, x // 24, (x % 24) // 6, x % 6 + 1)
    elif a < A_CHANGE_JUPITER:
        take_token(s, p)
        s.act_action = a - A_CHANGE_TOKEN
        s.act_changed = 1
    elif a < A_MOD_TOKEN:
        play_card(s, p, JUPITER)
        s.act_action = a - A_CHANGE_JUPITER
        s.act_changed = 1
    elif a < A_MOD_CARD:
        x = a - A_MOD_TOKEN
        take_token(s, p)
        s.act_val[x // 2] = wrap(s.act_val[x // 2], x % 2)
    else:
        x = a - A_MOD_CARD
        play_card(s, p, mod_card_for(s.act_action))
        s.act_cardmod += 1
        s.act_val[x // 2] = wrap(s.act_val[x // 2], x % 2)


@compiled
def execute(s, c, p):
    a = s.act_action
    v = act_value(s)
    for i in range(s.act_n):
        s.f_dice_used[p, s.act_col[i]] += 1
    s.f_actions[p, a] += 1
    if a == BROWN:
        s.phase = PH_MOVE
    elif a == BLACK:
        price = eff_price(s, TEMPLE)
        points = v if c.fame_full == 1 else min(v, s.money[p] // price)
        s.money[p] -= points * price
        s.fame[p] += points
        s.f_fame_bought[p] += points
        end_turn(s, c)
    elif a == BEIGE_DIE:
        s.phase = PH_BUY_COLOUR
    else:
        sacrifice(s, c, p, v)


@compiled
def sacrifice(s, c, p, v):
    """Grey: draw v cards (reshuffling the discard pile when the deck runs out), then keep/discard."""
    s.drawn_n = 0
    for _ in range(v):
        t, left = draw(s, s.deck, s.deck_n, s.discard)
        s.deck_n = left
        if t < 0:
            break
        s.drawn[s.drawn_n] = t
        s.drawn_n += 1
        s.f_drawn[p, t] += 1
    s.drawn_i = 0
    s.kept_n = 0
    room = payable_cards(s, c, p)
    if c.hand_limit_caps_keep == 1:
        room = min(room, c.hand_limit - s.hand_n[p])
    s.keep_room = room
    s.phase = PH_KEEPCARD


@compiled
def buy(s, c, p, g, k):
    v = act_value(s)
    cost = k * goods_price(s, c, g) + (v - k) * c.beige_price
    s.money[p] -= cost
    s.harbour[g] -= k
    s.harbour[BEIGE] -= v - k
    s.f_bought[p, g] += k
    s.f_bought[p, BEIGE] += v - k
    r = s.round_no - 1
    s.f_round_bought[r, g] += k
    s.f_round_bought[r, BEIGE] += v - k
    drop = 1
    if c.marker_drop_per_cube == 1:
        drop = v if c.marker_drop_counts_beige == 1 else k
    s.marker[g] = max(c.marker_min, s.marker[g] - drop)
    for i in range(4):
        s.place_left[i] = 0
    s.place_left[g] = k
    s.place_left[BEIGE] = v - k
    s.phase = PH_PLACE


@compiled
def move_pawn(s, c, p, pawn, direction):
    v = act_value(s)
    step = v if direction == 0 else -v
    sp = (s.pawn[pawn] + step) % c.spaces
    s.pawn[pawn] = sp
    if pawn == 0:
        consul_stops(s, c, p, sp)
    else:
        customer_stops(s, c, p, pawn - 1, sp)
        end_turn(s, c)


@compiled
def customer_stops(s, c, p, g, sp):
    """A customer of goods colour g stops at space sp: it buys from the active player's stall only."""
    if s.stall_owner[sp] != p:
        return
    temple = eff_price(s, TEMPLE)
    r = s.round_no - 1
    n = s.cubes[sp, g]
    if n > 0:
        money = n * temple
        fame = n * s.marker[g]
        s.money[p] += money
        s.fame[p] += fame
        s.f_sale_money[p] += money
        s.f_sale_fame[p] += fame
        s.f_sold[p, g] += n
        s.f_round_sold[r, g] += n
        s.marker[g] = min(c.marker_max, s.marker[g] + 1)
        s.cubes[sp, g] = 0
        s.bag[g] += n
        return
    nb = s.cubes[sp, BEIGE]
    if nb > 0:
        s.money[p] += nb * temple
        s.f_sale_money[p] += nb * temple
        s.f_sold[p, BEIGE] += nb
        s.f_round_sold[r, BEIGE] += nb
        s.cubes[sp, BEIGE] = 0
        s.harbour[BEIGE] += nb


@compiled
def consul_stops(s, c, p, sp):
    s.consul_space = sp
    o = s.stall_owner[sp]
    if o < 0:
        offer_stall(s, c, p)
        return
    if stall_total(s, sp) == 0 and stall_count(s, c, o) <= 1:
        end_turn(s, c)  # an owner's last stall is never closed
        return
    s.tax_owner = o
    if s.hand[o, PLUTON] > 0:
        s.phase = PH_PLUTON
        s.cur = o
        return
    consul_effect(s, c, o)


@compiled
def consul_effect(s, c, o):
    """Closure of an empty stall or tax on a stocked one (Pluton was not played)."""
    sp = s.consul_space
    if stall_total(s, sp) == 0:
        s.stall_owner[sp] = -1
        s.reserve[o] += 1
        s.f_closed[o] += 1
        s.cur = s.active
        offer_stall(s, c, s.active)
    else:
        s.phase = PH_TAX
        s.cur = o


@compiled
def offer_stall(s, c, p):
    if s.reserve[p] > 0 and s.money[p] >= c.consul_place_cost:
        s.phase = PH_CONSUL_PLACE
        s.cur = p
    else:
        s.cur = p
        end_turn(s, c)


@compiled
def do_pass(s, c, p):
    n = c.players
    if s.n_passed == n - 1:
        s.last_passer = p
    else:
        tile = c.turn_tiles[n - 2 - s.n_passed]
        s.tile_of[p] = tile
        s.money[p] += tile
        s.f_pass_money[p] += tile
    # kept dice not used go back behind the screen (or to the temple)
    for d in range(4):
        for v in range(6):
            k = s.kept[p, d, v]
            if k > 0:
                if c.kept_to_screen == 1:
                    s.screen[p, d] += k
                else:
                    s.temple[d, v] += k
                s.kept[p, d, v] = 0
    s.passed[p] = 1
    s.n_passed += 1
    s.act_n = 0
    for i in range(4):
        s.price_mod[i] = 0
    next_turn(s, c)


# -- hidden information ------------------------------------------------------------------------------
@compiled
def determinize(st, cf, seat, rng):
    """Resample in place what ``seat`` cannot see: the other seats' hand cards and the deck order.

    Hand sizes, the face-up discard pile and everything on the board stay; money, tokens and the dice behind
    the screens are public (every change to them is a public action). The unseen cards are laid out by type
    before the shuffle, so the result depends only on what the seat knows and on ``rng`` (``below(rng, 0,
    n)``): the no-cheating check of the search bot rests on it. No allocation: the first other seat's hand row
    counts the pool while it is gathered.
    """
    s = st[0]
    n = s.n_players
    dn = s.deck_n
    pool_row = 1 if seat == 0 else 0  # the first other seat's hand row counts the unseen cards
    for i in range(dn):
        s.hand[pool_row, s.deck[i]] += 1
    for q in range(n):
        if q != seat and q != pool_row:
            for t in range(NCARDS):
                s.hand[pool_row, t] += s.hand[q, t]
                s.hand[q, t] = 0
    k = deck_from_counts(s.deck, 0, s.hand[pool_row])
    s.hand[pool_row, :] = 0
    shuffle_from(rng, s.deck, k)  # from the seat's stream
    pos = 0
    for q in range(n):
        if q != seat:
            for _ in range(s.hand_n[q]):
                s.hand[q, s.deck[pos]] += 1
                pos += 1
    for i in range(k - pos):
        s.deck[i] = s.deck[pos + i]
