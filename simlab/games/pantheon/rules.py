"""Pantheon's rules as a compiled state machine (rules page ``shared/rules/pantheon.md``; docs/games/pantheon.md).

Every decision is small: which action; how many movement cards; each placement's hex (foot, column or a
Gaiviles jump); each money card played and each thing bought; which face-up god and which kind pays each of
its requirement groups; each card drawn (display slot or deck); which pending loot resolves first; each
sacrifice upgrade; the joiner's choice (join with k cards or draw 1); the nations' set-up choices. Between
decisions an automatic driver (``run``) carries the game on: era set-up, loot resolution, joiners, the turn's
end, the era's end and both scorings. ``s.step`` names the automatic continuation; ``s.phase`` the decision.
"""

from __future__ import annotations

import functools

import numpy as np

from simlab.core.actions import ActionLayout
from simlab.core.compiled import compiled
from simlab.core.components import draw, draw_counts, finish, shuffle, shuffle_canonical, sort_in_place
from simlab.core.record import state_dtype
from simlab.games.pantheon import board as B
from simlab.games.pantheon import data as D

from .config import MAX_PLAYERS, PantheonConfig

MAX_HEX = 256
NDIR = 6
NNAT = 8
NSYM = 5
NKIND = 4
NCARD = 10  # card kinds: 0 movement, 1..4 sacrifice (gifts, priests, dancers, temples), 5 money 1, 6..9 money 2..5
C_MOVE, C_MONEY1 = 0, 5
MAX_DECK = 96
NSPECIAL = 7
NGOD = 40
NGODTYPE = 10
MAX_FACE = 5
NDEMI = 21
NVAL = 7
NLOOT = 13
NBONUS = 6
MAX_PEND = 16

# gods (data.GODS order)
SURPARIT, PLAESIRIS, TAKSATOR, TRAITERA, DEPRACCUS, VINTHRAD, GAIVILES, STONKUS, GADICEA, PIETALTE = range(10)
# loot effects (data.LOOT_EFFECTS order)
E_SUPPLY, E_DEMIGOD, E_GOD, E_COLUMN, E_SACRIFICE, E_DRAW, E_MONEY, E_STEPS = range(8)
# nation abilities (data.NATION_ABILITIES order)
N_TILE, N_GALLIA, N_HAND, N_DRAW, N_SWAP, N_PERSIA, N_PURCHASE = range(7)
# where a god tile is
L_STACK, L_FACE, L_BOX, L_OWNED, L_FLIPPED = range(5)
# routes by which a god is gained (facts: f_gods_route); every route but the action gives face-down demigods
R_ACTION, R_LOOT, R_BONUS, R_SURPARIT, R_GALLIA, R_GIVEN = range(6)
NROUTE = 6
R_OTHER = R_LOOT  # any route but the action (callers that need not say which)
# points sources (facts: f_points_src): era points of gods, era-end bonus, demigods, columns, Pietalte
P_GODS, P_ERA_END, P_DEMIGODS, P_COLUMNS, P_PIETALTE = range(5)
NPSRC = 5
# what ended an era (facts: f_era_end_by)
END_LOOT, END_GODS, END_BOTH = 1, 2, 3
#: the era reached ``era_turn_limit`` turns (no rule ends it; a guard against play that never ends)
END_TURN_LIMIT = 4
#: ``era_ender`` of an era the turn limit ended: nobody scores the era-end bonus
NO_ENDER = -2

# decisions (phase)
(
    PH_ACTION,
    PH_MOVE_CARDS,
    PH_PLACE,
    PH_BUY,
    PH_GOD_PICK,
    PH_GOD_PAY,
    PH_DRAW,
    PH_LOOT,
    PH_SACRIFICE,
    PH_TRAITERA,
    PH_GALLIA,
    PH_GALLIA_PAY,
    PH_DISCARD,
    PH_SWAP,
    PH_IBERIA,
    PH_BONUS_PICK,
    PH_BONUS_COLUMN,
    PH_OVER,
) = range(18)
PHASE_NAMES = (
    "choose an action",
    "movement cards to play (or draw instead)",
    "place a piece",
    "purchase",
    "choose a god",
    "pay a requirement group",
    "draw a card",
    "choose the loot to resolve",
    "sacrifice tile to take or upgrade",
    "use Traitera",
    "Gallia: draw or flip a god",
    "Gallia: pay the top number",
    "discard down to the hand size",
    "Aegyptus: swap pieces",
    "Iberia: sacrifice tile",
    "choose a bonus tile",
    "place the bonus column",
    "game over",
)

# actions (ids declared once by family: simlab.core.actions)
ACTIONS = ActionLayout(
    f"foot[{MAX_HEX}]",  # hex
    f"col[{MAX_HEX}]",  # hex
    f"jump[{MAX_HEX}]",  # hex
    "stop",
    "move",
    "buy",
    "god",
    "draw",
    "count[21]",  # number of movement cards (0..20)
    f"kind[{NKIND}]",  # sacrifice kind
    "slot[8]",  # god slot / display slot
    "deck",
    "money[5]",  # card kind - C_MONEY1
    f"tile[{NKIND},4]",  # kind, level - 1
    "buy_foot",
    "buy_col",
    "join_draw",
    "traitera",
    "gallia_draw",
    "gallia_flip",
    f"discard[{NCARD}]",  # card kind
    "swap_fc",
    "swap_cf",
    f"loot[{MAX_PEND}]",  # pending index
    f"bonus[{NBONUS}]",  # face-up bonus slot
)
A_FOOT, A_COL, A_JUMP, A_STOP = ACTIONS.starts("foot", "col", "jump", "stop")
A_MOVE, A_BUY, A_GOD, A_DRAW = ACTIONS.starts("move", "buy", "god", "draw")
A_COUNT, A_KIND, A_SLOT, A_DECK, A_MONEY, A_TILE = ACTIONS.starts("count", "kind", "slot", "deck", "money", "tile")
A_BUY_FOOT, A_BUY_COL, A_JOIN_DRAW, A_TRAITERA = ACTIONS.starts("buy_foot", "buy_col", "join_draw", "traitera")
A_GALLIA_DRAW, A_GALLIA_FLIP, A_DISCARD = ACTIONS.starts("gallia_draw", "gallia_flip", "discard")
A_SWAP_FC, A_SWAP_CF, A_LOOT, A_BONUS = ACTIONS.starts("swap_fc", "swap_cf", "loot", "bonus")
MAX_ACTIONS = ACTIONS.size

# automatic continuations (step)
(
    S_WAIT,
    S_BONUS_DEAL,
    S_ERA_BEGIN,
    S_ABILITY,
    S_TEMPLE,
    S_DRAFT,
    S_COLUMN_BONUS,
    S_TURN_BEGIN,
    S_LOOT,
    S_JOIN,
    S_ACTION_DONE,
    S_TURN_END,
    S_ERA_END,
) = range(13)
# what follows a loot resolution
AF_MOVE, AF_JOIN, AF_BUY, AF_BONUS, AF_DRAFT, AF_CARTAGO = range(6)

STATE_DTYPE = state_dtype(
    MAX_PLAYERS,
    [
        ("n_players", np.int32),
        ("step", np.int32),
        ("after", np.int32),
        ("era", np.int32),
        ("nation", np.int32),
        ("nation_deck", np.int32, (NNAT,)),
        ("nation_n", np.int32),
        ("nations_played", np.int32, (6,)),
        ("start_player", np.int32),
        ("active", np.int32),
        ("temple", np.int32),
        ("big_foot", np.int32),
        ("points", np.int32, (MAX_PLAYERS,)),
        # cards
        ("deck", np.int32, (MAX_DECK,)),
        ("deck_n", np.int32),
        ("discard", np.int32, (NCARD,)),
        ("hand", np.int32, (MAX_PLAYERS, NCARD)),
        ("display", np.int32, (4,)),
        ("special", np.int32, (NSPECIAL,)),
        ("special_n", np.int32),
        ("money_desc", np.int32),
        # gods
        ("god_stack", np.int32, (NGOD,)),
        ("god_n", np.int32),
        ("god_face", np.int32, (MAX_FACE,)),
        ("god_loc", np.int32, (NGOD,)),
        ("god_owner", np.int32, (NGOD,)),
        # demigods
        ("demi_down", np.int32, (NDEMI,)),
        ("demi_down_n", np.int32),
        ("demi_up", np.int32, (NDEMI,)),
        ("demi_up_n", np.int32),
        ("demi_own", np.int32, (MAX_PLAYERS, NVAL)),
        ("demi_box", np.int32, (NVAL,)),
        # loot and bonus tiles
        ("bag", np.int32, (NLOOT,)),
        ("loot_hex", np.int32, (MAX_HEX,)),
        ("loot_box", np.int32, (NLOOT,)),
        ("loot_kept", np.int32, (MAX_PLAYERS, NLOOT)),
        ("bonus_pile", np.int32, (NBONUS,)),
        ("bonus_n", np.int32),
        ("bonus_face", np.int32, (NBONUS,)),
        ("bonus_box", np.int32, (NLOOT,)),
        ("bonus_kept", np.int32, (MAX_PLAYERS, NLOOT)),
        ("column_bonus", np.int32, (MAX_PLAYERS,)),
        ("steps_bonus", np.int32, (MAX_PLAYERS,)),
        # sacrifice tiles
        ("level", np.int32, (MAX_PLAYERS, NKIND)),
        ("pile_used", np.int32, (NKIND, 2)),
        # pieces
        ("supply_feet", np.int32, (MAX_PLAYERS,)),
        ("supply_cols", np.int32, (MAX_PLAYERS,)),
        ("stock_feet", np.int32, (MAX_PLAYERS,)),
        ("stock_cols", np.int32, (MAX_PLAYERS,)),
        ("occ", np.int32, (MAX_HEX, 2)),  # owner of each of the hex's two places, -1 empty
        ("occ_col", np.int32, (MAX_HEX, 2)),  # 1 if that piece is a column
        ("virt", np.uint8, (MAX_PLAYERS, MAX_HEX)),  # hexes a Gaiviles jump made count as own
        # the decision in progress
        ("dp", np.int32),  # the seat deciding in a sub-process (joiner, ability seat, loot owner)
        ("sq", np.int32),  # position in a round of seats (abilities, joiners, bonuses)
        ("steps_left", np.int32),
        ("jumps_left", np.int32),
        ("jumped", np.int32),  # the hex a Gaiviles jump went over, until a piece lands next to it (-1: none)
        ("in_move", np.int32),
        ("money_left", np.int32),
        ("cartago", np.int32),
        ("pend", np.int32, (MAX_PEND,)),
        ("pend_n", np.int32),
        ("pend_bonus", np.int32),  # 1: the pending tiles are bonus tiles (boxed as bonus)
        ("sac_left", np.int32),
        ("gtile", np.int32),
        ("pay_g", np.int32),
        ("pay_used", np.int32),
        ("draws_left", np.int32),
        ("trait_left", np.int32),
        ("era_over", np.int32),
        ("era_ender", np.int32),
        ("swap_dir", np.int32),
        # facts
        ("f_gods", np.int32, (MAX_PLAYERS,)),
        ("f_loot", np.int32, (MAX_PLAYERS,)),
        ("f_columns_placed", np.int32, (MAX_PLAYERS,)),
        ("f_moves", np.int32, (MAX_PLAYERS,)),
        ("f_buys", np.int32, (MAX_PLAYERS,)),
        ("f_god_actions", np.int32, (MAX_PLAYERS,)),
        ("f_draws", np.int32, (MAX_PLAYERS,)),
        ("f_era_ends", np.int32, (MAX_PLAYERS,)),
        ("f_scoring1", np.int32, (MAX_PLAYERS,)),
        ("f_handins", np.int32),
        # facts for simlab.games.pantheon.facts (counters only: no rule reads them)
        ("f_points_src", np.int32, (MAX_PLAYERS, NPSRC)),  # points gained by source (P_*)
        ("f_points_era", np.int32, (MAX_PLAYERS, 6)),  # points at the end of each era (after its scoring)
        ("f_gods_route", np.int32, (MAX_PLAYERS, NGODTYPE, NROUTE)),  # god tiles gained by god and route
        ("f_gods_era", np.int32, (MAX_PLAYERS, 7)),  # god tiles gained by era (0: before era 1)
        ("f_cols_scored", np.int32, (MAX_PLAYERS, 6)),  # own columns on the board at each scoring
        ("f_scorings", np.int32),  # scorings held so far
        ("f_drawn", np.int32, (MAX_PLAYERS, NCARD)),  # cards into the hand by kind (deal, deck, display, special)
        ("f_played", np.int32, (MAX_PLAYERS, NCARD)),  # cards played by kind (movement, god payments, money)
        ("f_bonus_tile", np.int32, (MAX_PLAYERS,)),  # the seat's bonus tile type (-1: none yet)
        ("f_era_turns", np.int32, (6,)),  # turns taken in each era
        ("f_era_end_by", np.int32, (6,)),  # what ended each era (END_*; 0: not played)
        ("f_god_reshuffles", np.int32),  # boxed gods reshuffled into an empty stack
    ],
)

CONFIG_DTYPE = np.dtype(
    [
        ("players", np.int32),
        ("eras", np.int32),
        ("scoring_eras", np.int32, (6,)),
        ("columns_per_player", np.int32),
        ("feet_per_player", np.int32),
        ("start_columns", np.int32),
        ("start_feet", np.int32),
        ("start_stock_by_player_count", np.int32),
        ("stock_feet", np.int32),
        ("stock_cols", np.int32),
        ("start_hand", np.int32),
        ("display_cards", np.int32),
        ("bonus_draft", np.int32),
        ("gods_per_era_extra", np.int32),
        ("loot_per_era_extra", np.int32),
        ("nations_in_deck", np.int32),
        ("movement_cards", np.int32),
        ("sacrifice_cards", np.int32, (NKIND,)),
        ("money_cards", np.int32),
        ("special_money", np.int32, (4,)),
        ("movement_card_steps", np.int32),
        ("sacrifice_tile_cost", np.int32, (NKIND,)),
        ("tiles_per_pile", np.int32),
        ("big_foot_steps", np.int32),
        ("occupied_extra", np.int32),
        ("hex_capacity", np.int32),
        ("piece_cost", np.int32),
        ("place_cost", np.int32),
        ("purchase_takes_loot", np.int32),
        ("jump_reached_connected", np.int32),
        ("feet_on_starts", np.int32),
        ("era_points", np.int32, (6,)),
        ("era_end_bonus", np.int32),
        ("column_points", np.int32, (13,)),
        ("pietalte_points_highest_level", np.int32),
        ("depraccus_cards", np.int32),
        ("depraccus_stacks", np.int32),
        ("bonus_god_era_points", np.int32),
        ("cartago_before_temple", np.int32),
        ("cartago_money", np.int32),
        ("gallia_cards", np.int32),
        ("gallia_plaesiris_reveals", np.int32),
        ("plaesiris_demigods", np.int32),
        ("demigods_low_values", np.int32),
        ("face_up_demigod_newest_first", np.int32),
        ("traitera_after_era_end", np.int32),
        ("era_turn_limit", np.int32),
        ("hand_to_cards", np.int32),
        ("roma_cards", np.int32),
        ("draw_action_cards", np.int32),
        ("join_draw_cards", np.int32),
        # experiment knobs (interventions, simlab.games.pantheon.facts)
        ("start_points", np.int32, (MAX_PLAYERS,)),
        ("extra_start_feet", np.int32, (MAX_PLAYERS,)),
        ("start_god", np.int32),  # god type gained by start_god_seat before era 1 (-1: none)
        ("start_god_seat", np.int32),
        # derived from the data tables and the map
        ("n_hex", np.int32),
        ("nbr", np.int32, (MAX_HEX, NDIR)),
        ("hex_dist", np.int16, (MAX_HEX, MAX_HEX)),  # steps between two hexes over the map (NO_PATH if none)
        ("column_space", np.int32, (MAX_HEX,)),
        ("start_nation", np.int32, (MAX_HEX,)),
        ("start_hex", np.int32, (NNAT,)),
        ("symbols", np.int32, (NNAT, NSYM)),
        ("symbol_min", np.int32, (NNAT, NSYM)),
        ("nation_ability", np.int32, (NNAT,)),
        ("tile_god", np.int32, (NGOD,)),
        ("tile_amount", np.int32, (NGOD,)),
        ("tile_req", np.int32, (NGOD, NKIND)),
        ("tile_groups", np.int32, (NGOD,)),
        ("tile_cards_only", np.int32, (NGOD,)),
        ("demigod_values", np.int32, (NDEMI,)),
        ("loot_effect", np.int32, (NLOOT,)),
        ("loot_cols", np.int32, (NLOOT,)),
        ("loot_feet", np.int32, (NLOOT,)),
        ("loot_amount", np.int32, (NLOOT,)),
        ("loot_count", np.int32, (NLOOT,)),
        ("bonus_count", np.int32, (NLOOT,)),
    ],
    align=True,
)


NO_PATH = 999


def hex_distances(neighbours: np.ndarray, n: int) -> np.ndarray:
    """All-pairs steps over the map's neighbour table (a BFS per hex), padded to MAX_HEX with NO_PATH: read by
    the bots, which would otherwise search the map at every placement. Computed once per map (70 ms each in
    Python; every config record needs it), read-only."""
    table = np.ascontiguousarray(neighbours[:n])
    return _hex_distances(table.tobytes(), table.shape, str(table.dtype), n)


@functools.lru_cache(maxsize=8)
def _hex_distances(key: bytes, shape: tuple[int, ...], dtype: str, n: int) -> np.ndarray:
    neighbours = np.frombuffer(key, dtype=dtype).reshape(shape)
    out = np.full((MAX_HEX, MAX_HEX), NO_PATH, np.int16)
    for src in range(n):
        row = out[src]
        row[src] = 0
        frontier = [src]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for h in frontier:
                for x in neighbours[h]:
                    if x >= 0 and row[x] == NO_PATH:
                        row[x] = d
                        nxt.append(int(x))
            frontier = nxt
    out.flags.writeable = False
    return out


def derive_config(config: PantheonConfig, c: np.void) -> None:
    """The fields the compiled rules read that are not copied one-to-one: the stock, the map, the tables."""
    feet, cols = config.stock()
    c["stock_feet"], c["stock_cols"] = feet, cols
    board = B.load_map(config.map_file) if config.map_file else B.load_map()
    n = board.n_hexes
    if n > MAX_HEX:
        raise ValueError(f"{board.path}: {n} hexes; the engine holds at most {MAX_HEX}")
    c["n_hex"] = n
    c["nbr"][:] = -1
    c["nbr"][:n] = board.neighbours
    c["hex_dist"][:] = hex_distances(board.neighbours, n)
    c["column_space"][:n] = board.column_space
    c["start_nation"][:] = -1
    c["start_nation"][:n] = board.start_nation
    c["start_hex"][:] = board.start
    c["symbols"][:] = board.symbols
    c["symbol_min"][:] = board.symbol_min_players
    c["nation_ability"][:] = D.nation_ability()
    tiles = D.god_tiles(config.god_tiles)
    c["tile_god"][:] = tiles.god
    c["tile_amount"][:] = tiles.amount
    c["tile_req"][:] = tiles.requirement
    c["tile_groups"][:] = tiles.n_groups
    c["tile_cards_only"][:] = tiles.cards_only
    c["demigod_values"][:] = D.demigod_values(config.demigods)
    loot = D.loot_types(config.loot_table or None)
    c["loot_effect"][:] = loot.effect
    c["loot_cols"][:] = loot.columns
    c["loot_feet"][:] = loot.feet
    c["loot_amount"][:] = loot.amount
    c["loot_count"][:] = loot.loot
    c["bonus_count"][:] = loot.bonus
    c["scoring_eras"][:] = 0
    c["scoring_eras"][: len(config.scoring_eras)] = config.scoring_eras
    c["start_god"], c["start_god_seat"] = config.start_god_index()


# --- small helpers ---------------------------------------------------------------------------------------


@compiled
def card_money(k):
    return k - C_MONEY1 + 1 if k >= C_MONEY1 else 0


@compiled
def hand_size(s, p):
    n = 0
    for k in range(NCARD):
        n += s.hand[p, k]
    return n


@compiled
def gods_of(s, c, p, g):
    """Tiles of god ``g`` that seat p owns, and the sum of their printed amounts."""
    n = 0
    amount = 0
    for t in range(NGOD):
        if s.god_loc[t] == L_OWNED and s.god_owner[t] == p and c.tile_god[t] == g:
            n += 1
            amount += c.tile_amount[t]
    return n, amount


@compiled
def add_points(s, p, v):
    s.points[p] += v
    s.score[p] = s.points[p]


@compiled
def score_points(s, p, v, src):
    """Points to seat p from source ``src`` (P_*), counted by source for the facts."""
    add_points(s, p, v)
    s.f_points_src[p, src] += v


@compiled
def era_points_now(s, c):
    if s.era <= 0:
        return c.bonus_god_era_points
    return c.era_points[s.era - 1]


@compiled
def next_seat(s, p):
    return (p + 1) % s.n_players


@compiled
def demigod_count(s, p):
    n = 0
    for v in range(NVAL):
        n += s.demi_own[p, v]
    return n


# --- cards -----------------------------------------------------------------------------------------------


@compiled
def hand_in_all(s):
    """Deck and discard pile both empty: every player hands in all hand cards; they become the new deck."""
    n = s.deck_n
    for p in range(s.n_players):
        for k in range(NCARD):
            for _ in range(s.hand[p, k]):
                s.deck[n] = k
                n += 1
            s.hand[p, k] = 0
    shuffle(s, s.deck, n)
    s.deck_n = n
    s.f_handins += 1


@compiled
def draw_card(s, p):
    """Seat p draws the deck's top card (discards shuffled in; if none, everyone's hands); False if none exist."""
    k, n = draw(s, s.deck, s.deck_n, s.discard)
    s.deck_n = n
    if k < 0:
        hand_in_all(s)
        k, n = draw(s, s.deck, s.deck_n, s.discard)
        s.deck_n = n
        if k < 0:
            return False
    s.hand[p, k] += 1
    s.f_drawn[p, k] += 1
    return True


@compiled
def draw_cards(s, p, n):
    for _ in range(n):
        if not draw_card(s, p):
            return


@compiled
def refill_display(s, c):
    """Empty display slots are refilled from the deck (discards shuffled in; hands are not handed in)."""
    for i in range(c.display_cards):
        if s.display[i] < 0:
            k, n = draw(s, s.deck, s.deck_n, s.discard)
            s.deck_n = n
            s.display[i] = k


@compiled
def spend(s, p, k, n):
    s.hand[p, k] -= n
    s.discard[k] += n


@compiled
def play_cards(s, p, k, n):
    """Seat p plays n cards of kind k (to the discard pile), counted for the facts."""
    spend(s, p, k, n)
    s.f_played[p, k] += n


@compiled
def take_special_money(s, p):
    """The top special money card to seat p's hand; False if the stack is empty (the god gives only points)."""
    if s.special_n == 0:
        return False
    s.special_n -= 1
    v = s.special[s.special_n]
    s.hand[p, C_MONEY1 + v - 1] += 1
    s.f_drawn[p, C_MONEY1 + v - 1] += 1
    return True


@compiled
def sort_special(s, largest_on_top):
    """Order the special stack so its top (the end) is the smallest value, or the largest once Persia ruled."""
    n = s.special_n
    sort_in_place(s.special, n)
    if not largest_on_top:
        for i in range(n // 2):
            s.special[i], s.special[n - 1 - i] = s.special[n - 1 - i], s.special[i]


# --- demigods --------------------------------------------------------------------------------------------


@compiled
def reveal_demigods(s, n):
    for _ in range(n):
        if s.demi_down_n == 0:
            return
        s.demi_down_n -= 1
        s.demi_up[s.demi_up_n] = s.demi_down[s.demi_down_n]
        s.demi_up_n += 1


@compiled
def take_face_up_demigod(s, c, p):
    """The 'top' face-up demigod (newest or oldest, by config); the face-down top if none is face up."""
    if s.demi_up_n == 0:
        take_face_down_demigod(s, p)
        return
    if c.face_up_demigod_newest_first:
        s.demi_up_n -= 1
        v = s.demi_up[s.demi_up_n]
    else:
        v = s.demi_up[0]
        for i in range(s.demi_up_n - 1):
            s.demi_up[i] = s.demi_up[i + 1]
        s.demi_up_n -= 1
    s.demi_up[s.demi_up_n] = 0
    s.demi_own[p, v] += 1


@compiled
def take_face_down_demigod(s, p):
    if s.demi_down_n == 0:
        return
    s.demi_down_n -= 1
    s.demi_own[p, s.demi_down[s.demi_down_n]] += 1
    s.demi_down[s.demi_down_n] = 0


# --- gods ------------------------------------------------------------------------------------------------


@compiled
def stack_top(s):
    """Take the top of the face-down god stack (boxed gods reshuffled when it is empty); -1 if none."""
    if s.god_n == 0:
        n = 0
        for t in range(NGOD):
            if s.god_loc[t] == L_BOX:
                s.god_stack[n] = t
                s.god_loc[t] = L_STACK
                n += 1
        shuffle(s, s.god_stack, n)
        s.god_n = n
        if n == 0:
            return -1
        s.f_god_reshuffles += 1
    s.god_n -= 1
    t = s.god_stack[s.god_n]
    s.god_stack[s.god_n] = -1
    return t


@compiled
def gain_god(s, c, p, t, route):
    """Seat p gains god tile t: era points and its effect; Surparit takes one more from the stack (no chain)."""
    chain = True
    while t >= 0:
        score_points(s, p, era_points_now(s, c), P_GODS)
        s.f_gods[p] += 1
        g = c.tile_god[t]
        s.f_gods_route[p, g, route] += 1
        s.f_gods_era[p, s.era] += 1
        nxt = -1
        s.god_owner[t] = -1
        if g == SURPARIT:  # the further god first, then the box: a box refilling the stack cannot hold it
            if chain:
                nxt = stack_top(s)
                chain = False
                route = R_SURPARIT
            s.god_loc[t] = L_BOX
        elif g == PLAESIRIS:
            s.god_loc[t] = L_BOX
            for _ in range(c.plaesiris_demigods):
                if route == R_ACTION:
                    take_face_up_demigod(s, c, p)
                else:
                    take_face_down_demigod(s, p)
        elif g == TAKSATOR:
            s.god_loc[t] = L_BOX
            take_special_money(s, p)
        else:
            s.god_loc[t] = L_OWNED
            s.god_owner[t] = p
        t = nxt


@compiled
def face_count(s):
    n = 0
    for i in range(MAX_FACE):
        if s.god_face[i] >= 0:
            n += 1
    return n


@compiled
def group_cost(s, c, p, t, need, k):
    """Cards of kind k seat p must play to pay a group of ``need`` with kind k (tile levels count unless
    the god takes cards only); -1 if the hand cannot."""
    have = 0 if c.tile_cards_only[t] else s.level[p, k]
    cards = need - have
    if cards < 0:
        cards = 0
    return cards if s.hand[p, 1 + k] >= cards else -1


@compiled
def payable_from(s, c, p, t, g0, used, ngroups):
    """Whether groups g0.. of tile t can be paid with kinds outside the bitmask ``used`` (distinct kinds).

    Tries every assignment of kinds to the (at most 4) groups; iterative, because numba's on-disk cache
    cannot load a self-recursive function."""
    m = ngroups - g0
    if m <= 0:
        return True
    # which kinds can pay each group, worked out once (group_cost is pure), then the assignments tried
    can = np.zeros(NKIND, np.int64)
    for g in range(g0, ngroups):
        for k in range(NKIND):
            if not (used >> k) & 1 and group_cost(s, c, p, t, c.tile_req[t, g], k) >= 0:
                can[g - g0] |= 1 << k
        if can[g - g0] == 0:
            return False
    total = 1
    for _ in range(m):
        total *= NKIND
    for code in range(total):
        x = code
        mask = used
        ok = True
        for g in range(m):
            k = x % NKIND
            x //= NKIND
            if (mask >> k) & 1 or not (can[g] >> k) & 1:
                ok = False
                break
            mask |= 1 << k
        if ok:
            return True
    return False


@compiled
def payable(s, c, p, t, ngroups):
    return payable_from(s, c, p, t, 0, 0, ngroups)


@compiled
def check_era_over(s, c):
    if s.era_over:
        return
    loot = 0
    for h in range(c.n_hex):
        if s.loot_hex[h] >= 0:
            loot += 1
    if loot == 0 or face_count(s) == 0:
        s.era_over = 1
        s.era_ender = s.active
        if s.era >= 1:
            s.f_era_end_by[s.era - 1] = (END_LOOT if loot == 0 else 0) + (END_GODS if face_count(s) == 0 else 0)


# --- sacrifice tiles -------------------------------------------------------------------------------------


@compiled
def set_level(s, p, k, lvl):
    """Seat p's tile of kind k becomes level ``lvl``: a flip within a pile, else a tile from the other pile."""
    old = s.level[p, k]
    if old == 0 or (old <= 2) != (lvl <= 2):
        s.pile_used[k, 0 if lvl <= 2 else 1] += 1
    s.level[p, k] = lvl


@compiled
def tile_cost(c, lvl):
    return 0 if lvl == 0 else c.sacrifice_tile_cost[lvl - 1]


# --- the board -------------------------------------------------------------------------------------------


@compiled
def pieces_at(s, h):
    n = 0
    for i in range(2):
        if s.occ[h, i] >= 0:
            n += 1
    return n


@compiled
def own_at(s, p, h):
    return s.occ[h, 0] == p or s.occ[h, 1] == p


@compiled
def own_foot_at(s, p, h):
    for i in range(2):
        if s.occ[h, i] == p and s.occ_col[h, i] == 0:
            return True
    return False


@compiled
def other_at(s, p, h):
    for i in range(2):
        if s.occ[h, i] >= 0 and s.occ[h, i] != p:
            return True
    return False


@compiled
def connected(s, c, p, mark):
    """mark[h] = 1 for seat p's pieces (and jumped hexes) joined to the temple through own pieces."""
    mark[:] = 0
    if s.temple < 0:
        return
    stack = np.empty(MAX_HEX, np.int32)
    n = 0
    for d in range(NDIR):
        h = c.nbr[s.temple, d]
        if h >= 0 and mark[h] == 0 and (own_at(s, p, h) or s.virt[p, h]):
            mark[h] = 1
            stack[n] = h
            n += 1
    while n > 0:
        n -= 1
        h = stack[n]
        for d in range(NDIR):
            x = c.nbr[h, d]
            if x >= 0 and mark[x] == 0 and x != s.temple and (own_at(s, p, x) or s.virt[p, x]):
                mark[x] = 1
                stack[n] = x
                n += 1


@compiled
def frontier(s, c, mark, near):
    """near[h] = 1 for every hex next to the temple or to a hex in ``mark``: exactly where ``reachable`` holds."""
    if s.temple < 0:
        return
    for d in range(NDIR):
        x = c.nbr[s.temple, d]
        if x >= 0:
            near[x] = 1
    for h in range(c.n_hex):
        if mark[h]:
            for d in range(NDIR):
                x = c.nbr[h, d]
                if x >= 0:
                    near[x] = 1


@compiled
def reachable(s, c, h, mark):
    """h touches the temple or a connected own piece."""
    for d in range(NDIR):
        x = c.nbr[h, d]
        if x >= 0 and (x == s.temple or mark[x]):
            return True
    return False


@compiled
def next_to_own_foot(s, c, p, h, mark):
    for d in range(NDIR):
        x = c.nbr[h, d]
        if x >= 0 and mark[x] and (own_foot_at(s, p, x) or s.virt[p, x]):
            return True
    return False


@compiled
def place_cost(s, c, p, h, column, mark):
    """What placing a foot (or column) of p on h costs in steps (or money above place_cost-1); -1 if illegal."""
    if s.temple < 0 or h == s.temple or pieces_at(s, h) >= c.hex_capacity or own_at(s, p, h):
        return -1
    if column:
        if not c.column_space[h] or s.stock_cols[p] == 0 or not next_to_own_foot(s, c, p, h, mark):
            return -1
    else:
        if c.column_space[h] or s.stock_feet[p] == 0:
            return -1
        if not c.feet_on_starts and c.start_nation[h] >= 0:
            return -1
    if not reachable(s, c, h, mark):
        return -1
    return 1 + (c.occupied_extra if pieces_at(s, h) > 0 else 0)


@compiled
def put_piece(s, c, p, h, column, take_loot):
    i = 0 if s.occ[h, 0] < 0 else 1
    s.occ[h, i] = p
    s.occ_col[h, i] = 1 if column else 0
    if column:
        s.stock_cols[p] -= 1
        s.f_columns_placed[p] += 1
    else:
        s.stock_feet[p] -= 1
        if take_loot and s.loot_hex[h] >= 0:
            s.pend[s.pend_n] = s.loot_hex[h]
            s.pend_n += 1
            s.pend_bonus = 0
            s.loot_hex[h] = -1
            s.f_loot[p] += 1
            check_era_over(s, c)


# --- set-up ----------------------------------------------------------------------------------------------


@compiled
def init(st, cf, rng):
    s = st[0]
    c = cf[0]
    s.rng[0] = rng[0]
    n = c.players
    s.n_players = n
    for p in range(MAX_PLAYERS):
        s.rank[p] = 0
    # action deck (75) + special money stack (7)
    k = 0
    for _ in range(c.movement_cards):
        s.deck[k] = C_MOVE
        k += 1
    for kind in range(NKIND):
        for _ in range(c.sacrifice_cards[kind]):
            s.deck[k] = 1 + kind
            k += 1
    for _ in range(c.money_cards):
        s.deck[k] = C_MONEY1
        k += 1
    s.deck_n = k
    shuffle(s, s.deck, k)
    m = 0
    for v in range(3, -1, -1):  # the stack's bottom (5) first, so the top (the end) is a 2
        for _ in range(c.special_money[v]):
            s.special[m] = v + 2
            m += 1
    s.special_n = m
    # gods
    for t in range(NGOD):
        s.god_stack[t] = t
        s.god_loc[t] = L_STACK
        s.god_owner[t] = -1
    s.god_n = NGOD
    shuffle(s, s.god_stack, NGOD)
    for i in range(MAX_FACE):
        s.god_face[i] = -1
    # demigods: values 1..low shuffled on top of the rest, shuffled
    nh = 0
    for i in range(NDEMI):
        if c.demigod_values[i] > c.demigods_low_values:
            s.demi_down[nh] = c.demigod_values[i]
            nh += 1
    shuffle(s, s.demi_down, nh)
    nl = nh
    for i in range(NDEMI):
        if c.demigod_values[i] <= c.demigods_low_values:
            s.demi_down[nl] = c.demigod_values[i]
            nl += 1
    shuffle(s, s.demi_down[nh:], nl - nh)  # in place: a copy assigned back compiles numba's shape-error text
    s.demi_down_n = NDEMI
    # loot and bonus tiles
    for t in range(NLOOT):
        s.bag[t] = c.loot_count[t]
    for h in range(MAX_HEX):
        s.loot_hex[h] = -1
        s.occ[h, 0] = -1
        s.occ[h, 1] = -1
    b = 0
    for t in range(NLOOT):
        for _ in range(c.bonus_count[t]):
            s.bonus_pile[b] = t
            b += 1
    shuffle(s, s.bonus_pile, b)
    s.bonus_n = b
    for i in range(NBONUS):
        s.bonus_face[i] = -1
    # nations
    for i in range(NNAT):
        s.nation_deck[i] = i
    shuffle(s, s.nation_deck, NNAT)
    s.nation_n = c.nations_in_deck
    # players
    for p in range(n):
        s.supply_feet[p] = c.feet_per_player - c.stock_feet - c.extra_start_feet[p]
        s.supply_cols[p] = c.columns_per_player - c.stock_cols
        s.stock_feet[p] = c.stock_feet + c.extra_start_feet[p]
        s.stock_cols[p] = c.stock_cols
        s.points[p] = c.start_points[p]
        s.score[p] = c.start_points[p]
        s.f_bonus_tile[p] = -1
        draw_cards(s, p, c.start_hand)
    for i in range(4):
        s.display[i] = -1
    refill_display(s, c)
    s.temple = -1
    s.big_foot = -1
    s.active = 0
    s.start_player = 0
    s.era = 0
    s.nation = -1
    s.gtile = -1
    s.era_ender = -1
    s.jumped = -1
    s.sq = 0
    if c.bonus_draft:  # every bonus tile face up, so the last of the reverse-order picks still has a choice
        for i in range(b):
            s.bonus_n -= 1
            s.bonus_face[i] = s.bonus_pile[s.bonus_n]
            s.bonus_pile[s.bonus_n] = -1
        s.step = S_ERA_BEGIN
    else:
        s.step = S_BONUS_DEAL
    if c.start_god >= 0:  # experiment knob, after every shuffle so the rest of the game matches the control's
        give_start_god(s, c, c.start_god_seat, c.start_god)
    run(s, c)


@compiled
def give_start_god(s, c, p, g):
    """Experiment knob: seat p gains the topmost tile of god g in the stack before era 1, like a bonus-tile god
    (era points ``bonus_god_era_points`` and its effect); the rest of the stack keeps its order."""
    i = s.god_n - 1
    while i >= 0 and c.tile_god[s.god_stack[i]] != g:
        i -= 1
    if i < 0:  # no tile of the god (validation rules this out)
        return
    t = s.god_stack[i]
    s.god_n -= 1
    for j in range(i, s.god_n):
        s.god_stack[j] = s.god_stack[j + 1]
    s.god_stack[s.god_n] = -1
    gain_god(s, c, p, t, R_GIVEN)


@compiled
def resolve_bonus(s, c, p, t, after):
    """Bonus tile t for seat p: the column bonus is placed after the era-1 set-up, the rest resolves now."""
    s.f_bonus_tile[p] = t
    if c.loot_effect[t] == E_COLUMN:
        s.column_bonus[p] += 1
        s.bonus_box[t] += 1
        s.step = after_step(after)
        return
    s.pend[0] = t
    s.pend_n = 1
    s.pend_bonus = 1
    s.dp = p
    s.after = after
    s.step = S_LOOT


@compiled
def after_step(after):
    if after == AF_BONUS:
        return S_BONUS_DEAL
    if after == AF_DRAFT:
        return S_DRAFT
    if after == AF_MOVE or after == AF_JOIN:
        return S_JOIN
    if after == AF_CARTAGO:
        return S_ABILITY
    return S_ACTION_DONE


@compiled
def era_begin(s, c):
    """Reveal the nation, players+1 gods (Plaesiris turns 2 demigods up), place players+1 loot tiles."""
    s.era += 1
    s.nation_n -= 1
    s.nation = s.nation_deck[s.nation_n]
    s.nations_played[s.era - 1] = s.nation
    n = s.n_players
    for i in range(MAX_FACE):
        s.god_face[i] = -1
    for i in range(n + c.gods_per_era_extra):
        t = stack_top(s)
        if t < 0:
            break
        s.god_face[i] = t
        s.god_loc[t] = L_FACE
        if c.tile_god[t] == PLAESIRIS:
            reveal_demigods(s, c.plaesiris_demigods)
    placed = 0
    for j in range(NSYM):
        h = c.symbols[s.nation, j]
        if h < 0 or c.symbol_min[s.nation, j] > n or placed >= n + c.loot_per_era_extra:
            continue
        t = draw_counts(s, s.bag)
        if t < 0:
            break
        s.loot_hex[h] = t
        placed += 1
        if c.loot_effect[t] == E_DEMIGOD:
            reveal_demigods(s, 1)
    ab = c.nation_ability[s.nation]
    if ab == N_PERSIA:
        s.money_desc = 1
        sort_special(s, True)
    if ab == N_DRAW:
        for i in range(n):
            draw_cards(s, (s.start_player + i) % n, c.roma_cards)
    if ab == N_HAND:
        for i in range(n):
            p = (s.start_player + i) % n
            short = c.hand_to_cards - hand_size(s, p)
            if short > 0:
                draw_cards(s, p, short)
    if ab == N_PURCHASE and not c.cartago_before_temple:
        s.temple = c.start_hex[s.nation]
    s.sq = 0
    s.step = S_ABILITY


@compiled
def ability_turn(s, c):
    """The next seat's choice in the nation's ability round, or on to the temple when all have chosen."""
    n = s.n_players
    ab = c.nation_ability[s.nation]
    while s.sq < n:
        p = (s.start_player + s.sq) % n
        s.dp = p
        if ab == N_TILE:
            for k in range(NKIND):
                if s.level[p, k] < 4:
                    s.phase = PH_IBERIA
                    s.cur = p
                    s.step = S_WAIT
                    return
        elif ab == N_GALLIA:
            s.phase = PH_GALLIA
            s.cur = p
            s.step = S_WAIT
            return
        elif ab == N_HAND:
            if hand_size(s, p) > c.hand_to_cards:
                s.phase = PH_DISCARD
                s.cur = p
                s.step = S_WAIT
                return
        elif ab == N_SWAP:
            s.swap_dir = 0
            s.phase = PH_SWAP
            s.cur = p
            s.step = S_WAIT
            return
        elif ab == N_PURCHASE:
            begin_purchase(s, c, p, True)
            return
        s.sq += 1
    s.step = S_TEMPLE


@compiled
def temple_and_depraccus(s, c):
    s.temple = c.start_hex[s.nation]
    n = s.n_players
    for i in range(n):
        p = (s.start_player + i) % n
        cnt, _ = gods_of(s, c, p, DEPRACCUS)
        if cnt > 0:
            draw_cards(s, p, c.depraccus_cards * (cnt if c.depraccus_stacks else 1))
    if s.era == 1:
        s.sq = 0
        s.step = S_DRAFT if c.bonus_draft else S_COLUMN_BONUS
    else:
        s.step = S_TURN_BEGIN


# --- turns -----------------------------------------------------------------------------------------------


@compiled
def begin_purchase(s, c, p, cartago):
    s.dp = p
    s.cartago = 1 if cartago else 0
    s.in_move = 0
    if cartago:
        s.money_left = c.cartago_money
    else:
        _, st = gods_of(s, c, p, STONKUS)
        s.money_left = st
    s.phase = PH_BUY
    s.cur = p
    s.step = S_WAIT


@compiled
def begin_move(s, c, p, cards, mover):
    """Seat p moves: big foot (mover only) + cards x 2 + Vinthrad + steps tiles; Gaiviles jumps."""
    play_cards(s, p, C_MOVE, cards)
    _, vin = gods_of(s, c, p, VINTHRAD)
    jumps, _ = gods_of(s, c, p, GAIVILES)
    s.steps_left = cards * c.movement_card_steps + vin + s.steps_bonus[p] + (c.big_foot_steps if mover else 0)
    s.jumps_left = jumps
    s.jumped = -1
    s.in_move = 1
    s.dp = p
    s.f_moves[p] += 1
    s.phase = PH_PLACE
    s.cur = p
    s.step = S_WAIT


@compiled
def end_placement(s, c, after):
    """A move or purchase is over: jumped hexes are forgotten unless they count later, then the loot."""
    p = s.dp
    if s.in_move and not c.jump_reached_connected:
        s.virt[p, :] = 0
    s.in_move = 0
    s.jumped = -1
    s.after = after
    s.step = S_LOOT


@compiled
def end_action(s):
    s.step = S_ACTION_DONE


@compiled
def resolve_loot(s, c, i):
    """Resolve pending tile i for seat dp (loot, or a bonus tile when pend_bonus)."""
    p = s.dp
    t = s.pend[i]
    s.pend_n -= 1
    s.pend[i] = s.pend[s.pend_n]
    s.pend[s.pend_n] = 0
    e = c.loot_effect[t]
    kept = False
    if e == E_SUPPLY:
        k = min(c.loot_cols[t], s.supply_cols[p])
        s.supply_cols[p] -= k
        s.stock_cols[p] += k
        k = min(c.loot_feet[t], s.supply_feet[p])
        s.supply_feet[p] -= k
        s.stock_feet[p] += k
    elif e == E_DEMIGOD:
        if s.pend_bonus:
            take_face_down_demigod(s, p)
        else:
            take_face_up_demigod(s, c, p)
    elif e == E_GOD:
        gain_god(s, c, p, stack_top(s), R_BONUS if s.pend_bonus else R_LOOT)
    elif e == E_SACRIFICE:
        s.sac_left = c.loot_amount[t]
    elif e == E_DRAW:
        draw_cards(s, p, c.loot_amount[t])
    elif e == E_MONEY:
        take_special_money(s, p)
    elif e == E_STEPS:
        s.steps_bonus[p] += c.loot_amount[t]
        kept = True
    elif e == E_COLUMN:
        s.column_bonus[p] += 1
    if s.pend_bonus:
        if kept:
            s.bonus_kept[p, t] += 1
        else:
            s.bonus_box[t] += 1
    elif kept:
        s.loot_kept[p, t] += 1
    else:
        s.loot_box[t] += 1


@compiled
def loot_step(s, c):
    """Resolve pending loot: a sacrifice upgrade waits for its choice; a choice of order when they differ."""
    p = s.dp
    if s.sac_left > 0:
        for k in range(NKIND):
            if s.level[p, k] < 4:
                s.phase = PH_SACRIFICE
                s.cur = p
                s.step = S_WAIT
                return
        s.sac_left = 0
    if s.pend_n == 0:
        s.step = after_step(s.after)
        if s.after == AF_MOVE:
            s.sq = 1
        elif s.after == AF_JOIN:
            s.sq += 1
        return
    distinct = False
    for i in range(1, s.pend_n):
        if s.pend[i] != s.pend[0]:
            distinct = True
    if distinct:
        s.phase = PH_LOOT
        s.cur = p
        s.step = S_WAIT
        return
    resolve_loot(s, c, 0)


@compiled
def join_step(s, c):
    """The next other player (turn order from the mover) joins the movement or draws a card instead."""
    n = s.n_players
    if s.sq >= n:
        s.big_foot = -1
        s.step = S_ACTION_DONE
        return
    p = (s.active + s.sq) % n
    s.dp = p
    s.phase = PH_MOVE_CARDS
    s.cur = p
    s.step = S_WAIT


@compiled
def turn_begin(s, c):
    p = s.active
    s.trait_left, _ = gods_of(s, c, p, TRAITERA)
    s.phase = PH_ACTION
    s.cur = p
    s.dp = p
    s.step = S_WAIT


@compiled
def action_done(s, c):
    p = s.active
    cnt, _ = gods_of(s, c, p, TRAITERA)
    if s.trait_left > 0 and cnt > 0 and (not s.era_over or c.traitera_after_era_end):
        s.phase = PH_TRAITERA
        s.cur = p
        s.dp = p
        s.step = S_WAIT
        return
    s.step = S_TURN_END


@compiled
def turn_end(s, c):
    s.turns += 1
    if s.era >= 1:
        s.f_era_turns[s.era - 1] += 1
    if not s.era_over and c.era_turn_limit > 0 and s.era >= 1 and s.f_era_turns[s.era - 1] >= c.era_turn_limit:
        s.era_over = 1
        s.era_ender = NO_ENDER
        s.f_era_end_by[s.era - 1] = END_TURN_LIMIT
    if s.era_over:
        s.step = S_ERA_END
        return
    s.active = next_seat(s, s.active)
    s.step = S_TURN_BEGIN


@compiled
def scoring(s, c):
    """Demigods (kept), then columns by the owner's total, then Pietalte by the highest tile level."""
    for p in range(s.n_players):
        v = 0
        for x in range(NVAL):
            v += x * s.demi_own[p, x]
        score_points(s, p, v, P_DEMIGODS)
    for p in range(s.n_players):
        cols = 0
        for h in range(c.n_hex):
            for i in range(2):
                if s.occ[h, i] == p and s.occ_col[h, i] == 1:
                    cols += 1
        score_points(s, p, cols * c.column_points[min(cols, 12)], P_COLUMNS)
        if s.f_scorings < 6:
            s.f_cols_scored[p, s.f_scorings] = cols
    for p in range(s.n_players):
        cnt, _ = gods_of(s, c, p, PIETALTE)
        best = 0
        total = 0
        for k in range(NKIND):
            best = max(best, s.level[p, k])
            total += s.level[p, k]
        score_points(s, p, cnt * (best if c.pietalte_points_highest_level else total), P_PIETALTE)
    s.f_scorings += 1


@compiled
def era_end(s, c):
    """+3 to the player whose turn ended the era, temple to the left, feet home, leftovers boxed, scoring."""
    ender = s.era_ender if s.era_ender >= 0 else s.active
    if s.era_ender != NO_ENDER:
        score_points(s, ender, c.era_end_bonus, P_ERA_END)
        s.f_era_ends[ender] += 1
    s.start_player = next_seat(s, ender)
    for h in range(c.n_hex):
        for i in range(2):
            q = s.occ[h, i]
            if q >= 0 and s.occ_col[h, i] == 0:
                s.stock_feet[q] += 1
                s.occ[h, i] = -1
        if s.occ[h, 0] < 0 and s.occ[h, 1] >= 0:
            s.occ[h, 0] = s.occ[h, 1]
            s.occ_col[h, 0] = s.occ_col[h, 1]
            s.occ[h, 1] = -1
            s.occ_col[h, 1] = 0
        if s.occ[h, 1] < 0:
            s.occ_col[h, 1] = 0
        if s.occ[h, 0] < 0:
            s.occ_col[h, 0] = 0
        if s.loot_hex[h] >= 0:
            s.loot_box[s.loot_hex[h]] += 1
            s.loot_hex[h] = -1
    s.virt[:, :] = 0
    for i in range(MAX_FACE):
        t = s.god_face[i]
        if t >= 0:
            s.god_loc[t] = L_BOX
            s.god_face[i] = -1
    for i in range(s.demi_up_n):
        s.demi_box[s.demi_up[i]] += 1
        s.demi_up[i] = 0
    s.demi_up_n = 0
    s.temple = -1
    s.era_over = 0
    s.era_ender = -1
    scored = False
    for i in range(6):
        if c.scoring_eras[i] == s.era and not scored:
            scoring(s, c)
            scored = True
            if i == 0:
                for p in range(s.n_players):
                    s.f_scoring1[p] = s.points[p]
    if s.era >= c.eras and not scored:
        scoring(s, c)
    for p in range(s.n_players):
        s.f_points_era[p, s.era - 1] = s.points[p]
    if s.era >= c.eras:
        game_over(s, c)
        return
    s.active = s.start_player
    s.step = S_ERA_BEGIN


@compiled
def game_over(s, c):
    n = s.n_players
    keys = np.empty((n, 2), np.int64)
    for p in range(n):
        s.score[p] = s.points[p]
        keys[p, 0] = s.points[p]
        keys[p, 1] = demigod_count(s, p)
    s.phase = PH_OVER
    s.step = S_WAIT
    finish(s, keys, n)


@compiled
def score_now(st, cf):
    """The game ended where it stands (more points wins, ties by demigods). Core's search
    cuts its playouts short with it (``ismcts:depth=D``, docs/search.md)."""
    game_over(st[0], cf[0])


@compiled
def run(s, c):
    """Carry the game on automatically until a decision is due (or the game is over)."""
    while s.step != S_WAIT:
        st = s.step
        if st == S_BONUS_DEAL:
            if s.sq >= s.n_players:
                s.sq = 0
                s.step = S_ERA_BEGIN
            else:
                p = s.sq
                s.sq += 1
                s.bonus_n -= 1
                t = s.bonus_pile[s.bonus_n]
                s.bonus_pile[s.bonus_n] = -1
                resolve_bonus(s, c, p, t, AF_BONUS)
        elif st == S_ERA_BEGIN:
            era_begin(s, c)
        elif st == S_ABILITY:
            ability_turn(s, c)
        elif st == S_TEMPLE:
            temple_and_depraccus(s, c)
        elif st == S_DRAFT:
            if s.sq >= s.n_players:  # the tiles nobody chose go back to the box
                for i in range(NBONUS):
                    if s.bonus_face[i] >= 0:
                        s.bonus_box[s.bonus_face[i]] += 1
                        s.bonus_face[i] = -1
                s.sq = 0
                s.step = S_COLUMN_BONUS
            else:
                p = (s.start_player + s.n_players - 1 - s.sq) % s.n_players
                s.dp = p
                s.phase = PH_BONUS_PICK
                s.cur = p
                s.step = S_WAIT
        elif st == S_COLUMN_BONUS:
            placed = False
            while s.sq < s.n_players:
                p = (s.start_player + s.sq) % s.n_players
                if s.column_bonus[p] > 0 and s.supply_cols[p] > 0 and any_column_space(s, c, p):
                    s.dp = p
                    s.phase = PH_BONUS_COLUMN
                    s.cur = p
                    s.step = S_WAIT
                    placed = True
                    break
                s.column_bonus[p] = 0
                s.sq += 1
            if not placed:
                s.active = s.start_player
                s.step = S_TURN_BEGIN
        elif st == S_TURN_BEGIN:
            turn_begin(s, c)
        elif st == S_LOOT:
            loot_step(s, c)
        elif st == S_JOIN:
            join_step(s, c)
        elif st == S_ACTION_DONE:
            action_done(s, c)
        elif st == S_TURN_END:
            turn_end(s, c)
        elif st == S_ERA_END:
            era_end(s, c)
        else:
            s.step = S_WAIT


@compiled
def any_column_space(s, c, p):
    for h in range(c.n_hex):
        if c.column_space[h] and pieces_at(s, h) < c.hex_capacity and not own_at(s, p, h):
            return True
    return False


# --- legal actions ---------------------------------------------------------------------------------------


@compiled
def legal(st, cf, buf):
    s = st[0]
    c = cf[0]
    p = s.cur
    n = 0
    ph = s.phase
    if p < 0 or ph == PH_OVER:
        return 0
    if ph == PH_ACTION:
        buf[n] = A_MOVE
        n += 1
        _, st_amount = gods_of(s, c, p, STONKUS)
        money = st_amount
        for k in range(C_MONEY1, NCARD):
            money += s.hand[p, k]
        if money > 0:
            buf[n] = A_BUY
            n += 1
        for i in range(MAX_FACE):
            t = s.god_face[i]
            if t >= 0 and payable(s, c, p, t, c.tile_groups[t]):
                buf[n] = A_GOD
                n += 1
                break
        buf[n] = A_DRAW
        n += 1
    elif ph == PH_MOVE_CARDS:
        mover = p == s.active and s.big_foot == p
        _, vin = gods_of(s, c, p, VINTHRAD)
        free = vin + s.steps_bonus[p] + (c.big_foot_steps if mover else 0)
        for k in range(min(s.hand[p, C_MOVE], 20) + 1):
            if k > 0 or free > 0:
                buf[n] = A_COUNT + k
                n += 1
        if not mover:
            buf[n] = A_JOIN_DRAW
            n += 1
    elif ph == PH_PLACE or ph == PH_BUY or ph == PH_BONUS_COLUMN:
        n = legal_placement(s, c, p, buf, ph)
    elif ph == PH_GOD_PICK:
        for i in range(MAX_FACE):
            t = s.god_face[i]
            if t >= 0 and payable(s, c, p, t, c.tile_groups[t]):
                buf[n] = A_SLOT + i
                n += 1
    elif ph == PH_GOD_PAY or ph == PH_GALLIA_PAY:
        t = s.gtile
        ng = c.tile_groups[t] if ph == PH_GOD_PAY else 1
        for k in range(NKIND):
            if (s.pay_used >> k) & 1:
                continue
            if group_cost(s, c, p, t, c.tile_req[t, s.pay_g], k) >= 0 and payable_from(
                s, c, p, t, s.pay_g + 1, s.pay_used | (1 << k), ng
            ):
                buf[n] = A_KIND + k
                n += 1
        if ph == PH_GALLIA_PAY:
            buf[n] = A_STOP
            n += 1
    elif ph == PH_DRAW:
        for i in range(c.display_cards):
            if s.display[i] >= 0:
                buf[n] = A_SLOT + i
                n += 1
        buf[n] = A_DECK
        n += 1
    elif ph == PH_LOOT:
        for i in range(s.pend_n):
            dup = False
            for j in range(i):
                if s.pend[j] == s.pend[i]:
                    dup = True
            if not dup:
                buf[n] = A_LOOT + i
                n += 1
    elif ph == PH_SACRIFICE or ph == PH_IBERIA:
        for k in range(NKIND):
            if s.level[p, k] < 4:
                buf[n] = A_KIND + k
                n += 1
    elif ph == PH_TRAITERA:
        buf[n] = A_TRAITERA
        buf[n + 1] = A_STOP
        n += 2
    elif ph == PH_GALLIA:
        buf[n] = A_GALLIA_DRAW
        n += 1
        if s.god_n > 0 or boxed_gods(s) > 0:
            buf[n] = A_GALLIA_FLIP
            n += 1
    elif ph == PH_DISCARD:
        for k in range(NCARD):
            if s.hand[p, k] > 0:
                buf[n] = A_DISCARD + k
                n += 1
    elif ph == PH_SWAP:
        if s.swap_dir != 2 and s.stock_feet[p] > 0 and s.supply_cols[p] > 0:
            buf[n] = A_SWAP_FC
            n += 1
        if s.swap_dir != 1 and s.stock_cols[p] > 0 and s.supply_feet[p] > 0:
            buf[n] = A_SWAP_CF
            n += 1
        buf[n] = A_STOP
        n += 1
    elif ph == PH_BONUS_PICK:
        for i in range(NBONUS):
            if s.bonus_face[i] >= 0:
                buf[n] = A_BONUS + i
                n += 1
    return n


@compiled
def boxed_gods(s):
    n = 0
    for t in range(NGOD):
        if s.god_loc[t] == L_BOX:
            n += 1
    return n


@compiled
def next_to(c, h, x):
    for d in range(NDIR):
        if c.nbr[h, d] == x:
            return True
    return False


@compiled
def jump_ok(s, c, p, h, mark):
    """A Gaiviles jump over h: a jump left, no earlier jump still waiting for its landing, h held by another
    player and reached, and a piece the steps left can land next to h (one jump clears one hex)."""
    if s.jumps_left <= 0 or s.jumped >= 0 or s.steps_left <= 0 or not other_at(s, p, h) or own_at(s, p, h):
        return False
    if s.virt[p, h] or h == s.temple or not reachable(s, c, h, mark):
        return False
    # as if jumped: is there a landing? A hex next to h is reached, and a column there stands next to an own
    # foot, through h alone, so marking h (not the whole network again) decides it
    s.virt[p, h] = 1
    mark[h] = 1
    ok = False
    for d in range(NDIR):
        x = c.nbr[h, d]
        if x >= 0 and not ok:
            cost = place_cost(s, c, p, x, c.column_space[x] != 0, mark)
            ok = 0 < cost <= s.steps_left
    mark[h] = 0
    s.virt[p, h] = 0
    return ok


@compiled
def legal_placement(s, c, p, buf, ph):
    n = 0
    if ph == PH_BONUS_COLUMN:
        for h in range(c.n_hex):
            if c.column_space[h] and pieces_at(s, h) < c.hex_capacity and not own_at(s, p, h):
                buf[n] = A_COL + h
                n += 1
        return n
    mark = np.zeros(MAX_HEX, np.uint8)
    connected(s, c, p, mark)
    budget = s.steps_left
    if ph == PH_BUY:
        budget = s.money_left
        if not s.cartago:
            for k in range(C_MONEY1, NCARD):
                if s.hand[p, k] > 0:
                    buf[n] = A_MONEY + k - C_MONEY1
                    n += 1
        for k in range(NKIND):
            cur_lvl = s.level[p, k]
            for lvl in range(cur_lvl + 1, 5):
                if tile_cost(c, lvl) - tile_cost(c, cur_lvl) <= budget:
                    buf[n] = A_TILE + k * 4 + lvl - 1
                    n += 1
        if budget >= c.piece_cost and s.supply_feet[p] > 0:
            buf[n] = A_BUY_FOOT
            n += 1
        if budget >= c.piece_cost and s.supply_cols[p] > 0:
            buf[n] = A_BUY_COL
            n += 1
    extra = c.place_cost - 1 if ph == PH_BUY else 0
    if budget > 0:
        # the hexes ``reachable`` accepts (next to the temple or to a connected own piece), marked once, so
        # only they are tried; hexes are still visited in index order, so the legal list is unchanged
        near = np.zeros(MAX_HEX, np.uint8)
        frontier(s, c, mark, near)
        for h in range(c.n_hex):
            if not near[h]:
                continue
            if ph == PH_PLACE and s.jumped >= 0 and not next_to(c, h, s.jumped):
                continue  # after a jump, the next piece lands beyond the hex jumped
            if c.column_space[h]:
                cost = place_cost(s, c, p, h, True, mark)
                if cost > 0 and cost + extra <= budget:
                    buf[n] = A_COL + h
                    n += 1
            else:
                cost = place_cost(s, c, p, h, False, mark)
                if cost > 0 and cost + extra <= budget:
                    buf[n] = A_FOOT + h
                    n += 1
            if jump_ok(s, c, p, h, mark) and ph == PH_PLACE:
                buf[n] = A_JUMP + h
                n += 1
    if n == 0 or not (ph == PH_PLACE and s.jumped >= 0):  # a jump is followed by its landing, not a stop
        buf[n] = A_STOP
        n += 1
    return n


# --- applying an action ----------------------------------------------------------------------------------


@compiled
def apply(st, cf, a):
    s = st[0]
    c = cf[0]
    p = s.cur
    ph = s.phase
    s.decisions += 1
    if ph == PH_ACTION:
        if a == A_MOVE:
            s.big_foot = p
            s.phase = PH_MOVE_CARDS
        elif a == A_BUY:
            s.f_buys[p] += 1
            begin_purchase(s, c, p, False)
        elif a == A_GOD:
            s.f_god_actions[p] += 1
            s.phase = PH_GOD_PICK
        else:
            s.f_draws[p] += 1
            _, gad = gods_of(s, c, p, GADICEA)
            s.draws_left = c.draw_action_cards + gad
            s.phase = PH_DRAW
    elif ph == PH_MOVE_CARDS:
        if a == A_JOIN_DRAW:
            draw_cards(s, p, c.join_draw_cards)
            s.sq += 1
            s.step = S_JOIN
        else:
            begin_move(s, c, p, a - A_COUNT, p == s.active and s.big_foot == p)
    elif ph == PH_PLACE:
        apply_place(s, c, p, a)
    elif ph == PH_BUY:
        apply_buy(s, c, p, a)
    elif ph == PH_BONUS_COLUMN:
        h = a - A_COL
        i = 0 if s.occ[h, 0] < 0 else 1
        s.occ[h, i] = p
        s.occ_col[h, i] = 1
        s.supply_cols[p] -= 1
        s.f_columns_placed[p] += 1
        s.column_bonus[p] -= 1
        s.step = S_COLUMN_BONUS
    elif ph == PH_GOD_PICK:
        i = a - A_SLOT
        s.gtile = s.god_face[i]
        s.god_face[i] = -1
        s.god_loc[s.gtile] = L_FLIPPED
        s.pay_g = 0
        s.pay_used = 0
        s.phase = PH_GOD_PAY
    elif ph == PH_GOD_PAY or ph == PH_GALLIA_PAY:
        t = s.gtile
        if a == A_STOP:  # Gallia: not bought, boxed
            s.god_loc[t] = L_BOX
            s.gtile = -1
            s.sq += 1
            s.step = S_ABILITY
        else:
            k = a - A_KIND
            cards = group_cost(s, c, p, t, c.tile_req[t, s.pay_g], k)
            play_cards(s, p, 1 + k, cards)
            s.pay_used |= 1 << k
            s.pay_g += 1
            if ph == PH_GALLIA_PAY:
                gain_god(s, c, p, t, R_GALLIA)
                s.gtile = -1
                s.sq += 1
                s.step = S_ABILITY
            elif s.pay_g >= c.tile_groups[t]:
                s.gtile = -1
                gain_god(s, c, p, t, R_ACTION)
                check_era_over(s, c)
                s.step = S_ACTION_DONE
    elif ph == PH_DRAW:
        if a == A_DECK:
            draw_card(s, p)
        else:
            i = a - A_SLOT
            s.hand[p, s.display[i]] += 1
            s.f_drawn[p, s.display[i]] += 1
            s.display[i] = -1
            refill_display(s, c)
        s.draws_left -= 1
        if s.draws_left <= 0:
            s.step = S_ACTION_DONE
    elif ph == PH_LOOT:
        resolve_loot(s, c, a - A_LOOT)
        s.step = S_LOOT
    elif ph == PH_SACRIFICE:
        k = a - A_KIND
        set_level(s, p, k, s.level[p, k] + 1)
        s.sac_left -= 1
        s.step = S_LOOT
    elif ph == PH_IBERIA:
        k = a - A_KIND
        set_level(s, p, k, s.level[p, k] + 1)
        s.sq += 1
        s.step = S_ABILITY
    elif ph == PH_TRAITERA:
        if a == A_TRAITERA:
            for t in range(NGOD):
                if s.god_loc[t] == L_OWNED and s.god_owner[t] == p and c.tile_god[t] == TRAITERA:
                    s.god_loc[t] = L_BOX
                    s.god_owner[t] = -1
                    break
            s.trait_left -= 1
            s.phase = PH_ACTION
        else:
            s.step = S_TURN_END
    elif ph == PH_GALLIA:
        if a == A_GALLIA_DRAW:
            draw_cards(s, p, c.gallia_cards)
            s.sq += 1
            s.step = S_ABILITY
        else:
            t = stack_top(s)
            s.gtile = t
            s.god_loc[t] = L_FLIPPED
            if c.tile_god[t] == PLAESIRIS and c.gallia_plaesiris_reveals:
                reveal_demigods(s, c.plaesiris_demigods)
            s.pay_g = 0
            s.pay_used = 0
            s.phase = PH_GALLIA_PAY
    elif ph == PH_DISCARD:
        spend(s, p, a - A_DISCARD, 1)
        if hand_size(s, p) <= c.hand_to_cards:
            s.sq += 1
            s.step = S_ABILITY
    elif ph == PH_SWAP:
        if a == A_SWAP_FC:
            s.stock_feet[p] -= 1
            s.supply_feet[p] += 1
            s.supply_cols[p] -= 1
            s.stock_cols[p] += 1
            s.swap_dir = 1
        elif a == A_SWAP_CF:
            s.stock_cols[p] -= 1
            s.supply_cols[p] += 1
            s.supply_feet[p] -= 1
            s.stock_feet[p] += 1
            s.swap_dir = 2
        else:
            s.sq += 1
            s.step = S_ABILITY
    elif ph == PH_BONUS_PICK:
        i = a - A_BONUS
        t = s.bonus_face[i]
        s.bonus_face[i] = -1
        s.sq += 1
        resolve_bonus(s, c, p, t, AF_DRAFT)
    run(s, c)


@compiled
def apply_place(s, c, p, a):
    if a == A_STOP:
        end_placement(s, c, AF_MOVE if p == s.active and s.big_foot == p else AF_JOIN)
        return
    if a >= A_JUMP:
        s.virt[p, a - A_JUMP] = 1
        s.jumps_left -= 1
        s.jumped = a - A_JUMP
        return
    s.jumped = -1
    column = a >= A_COL
    h = a - (A_COL if column else A_FOOT)
    mark = np.zeros(MAX_HEX, np.uint8)
    connected(s, c, p, mark)
    s.steps_left -= place_cost(s, c, p, h, column, mark)
    put_piece(s, c, p, h, column, True)
    if s.steps_left <= 0:
        end_placement(s, c, AF_MOVE if p == s.active and s.big_foot == p else AF_JOIN)


@compiled
def apply_buy(s, c, p, a):
    if a == A_STOP:
        s.money_left = 0
        if s.cartago:
            s.cartago = 0
            s.sq += 1
            s.after = AF_CARTAGO
            s.step = S_LOOT
        else:
            end_placement(s, c, AF_BUY)
        return
    if a >= A_MONEY and a < A_TILE:
        k = C_MONEY1 + a - A_MONEY
        play_cards(s, p, k, 1)
        s.money_left += card_money(k)
        return
    if a >= A_TILE and a < A_BUY_FOOT:
        k = (a - A_TILE) // 4
        lvl = (a - A_TILE) % 4 + 1
        s.money_left -= tile_cost(c, lvl) - tile_cost(c, s.level[p, k])
        set_level(s, p, k, lvl)
        return
    if a == A_BUY_FOOT:
        s.money_left -= c.piece_cost
        s.supply_feet[p] -= 1
        s.stock_feet[p] += 1
        return
    if a == A_BUY_COL:
        s.money_left -= c.piece_cost
        s.supply_cols[p] -= 1
        s.stock_cols[p] += 1
        return
    column = a >= A_COL
    h = a - (A_COL if column else A_FOOT)
    mark = np.zeros(MAX_HEX, np.uint8)
    connected(s, c, p, mark)
    s.money_left -= place_cost(s, c, p, h, column, mark) + c.place_cost - 1
    put_piece(s, c, p, h, column, c.purchase_takes_loot)


# --- hidden information ----------------------------------------------------------------------------------


@compiled
def determinize(st, cf, seat, rng):
    """Resample in place what ``seat`` cannot see, consistent with what it has seen, drawing only from ``rng``.

    Resampled: the other hands (sizes kept) and the deck, from their pooled cards; the order of the god stack
    (its contents are known: every other god tile has been seen), of the nation deck and of the bonus pile;
    the face-down demigods of the others and of the stack, within the low (1..demigods_low_values) and the
    high values separately (the low ones lie on top, so whether a taken demigod was low is known). The loot
    bag is kept as counts by type, all of them known, so it holds nothing to resample.
    """
    s = st[0]
    c = cf[0]
    n = s.n_players
    pool = np.empty(MAX_DECK + NCARD * MAX_PLAYERS * 8, np.int32)
    m = 0
    for i in range(s.deck_n):
        pool[m] = s.deck[i]
        m += 1
    for q in range(n):
        if q != seat:
            for k in range(NCARD):
                for _ in range(s.hand[q, k]):
                    pool[m] = k
                    m += 1
    shuffle_canonical(rng, pool, m)
    i = 0
    for q in range(n):
        if q != seat:
            size = hand_size(s, q)
            for k in range(NCARD):
                s.hand[q, k] = 0
            for _ in range(size):
                s.hand[q, pool[i]] += 1
                i += 1
    for j in range(s.deck_n):
        s.deck[j] = pool[i]
        i += 1
    shuffle_canonical(rng, s.god_stack, s.god_n)
    shuffle_canonical(rng, s.nation_deck, s.nation_n)
    shuffle_canonical(rng, s.bonus_pile, s.bonus_n)
    vals = np.empty(NDEMI, np.int32)
    for band in range(2):
        m = 0
        for j in range(s.demi_down_n):
            if (s.demi_down[j] > c.demigods_low_values) == (band == 1):
                vals[m] = s.demi_down[j]
                m += 1
        for q in range(n):
            if q != seat:
                for v in range(1, NVAL):
                    if (v > c.demigods_low_values) == (band == 1):
                        for _ in range(s.demi_own[q, v]):
                            vals[m] = v
                            m += 1
        shuffle_canonical(rng, vals, m)
        i = 0
        for j in range(s.demi_down_n):
            if (s.demi_down[j] > c.demigods_low_values) == (band == 1):
                s.demi_down[j] = vals[i]
                i += 1
        for q in range(n):
            if q != seat:
                cnt = 0
                for v in range(1, NVAL):
                    if (v > c.demigods_low_values) == (band == 1):
                        cnt += s.demi_own[q, v]
                        s.demi_own[q, v] = 0
                for _ in range(cnt):
                    s.demi_own[q, vals[i]] += 1
                    i += 1
