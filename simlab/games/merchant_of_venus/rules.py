"""Merchant of Venus (standard game) as a compiled state machine over one structured record.

Summary (full text: ``shared/rules/merchant_of_venus.md``): 2-4 merchants start on Galactic Base with a
2-hold ship, laser and shield dials at 2/1 (each player's choice which), a level-1 pilot, a mission and
``20 × players`` credits (+20/+40 for the "3rd"/"4th" player). 14 contact cards lie face down on the 14
systems. Each round every player takes a turn: Movement (declare the heading and whether the drive is
on, roll 3 speed dice, assign up to pilot-level dice to thrust (a 4th die) or navigation, move spending
every MP unless landing in a city or port; asteroids end the turn; hazards test a dial; encounters draw a
card), Contact (landing in an undiscovered system reveals its culture and gives 3 buys and 3 sells),
Trade (buy goods, equipment, race techs; sell to buyer cultures at the price the top market token sets;
passengers; the market shifts after a turn's sales), Spaceport (in a surface city without a buy: build a
port for 200 on an orbital space). Passenger rounds draw a passenger, drill rounds pay drills. At the end
ports sell for 200, fame pays 10 (20 on a Fuzzy Dice double) per point, most credits wins.

Every decision is small (the PH_* phases): the heading is one edge, each step of movement is one edge, a
die assignment is one action, each buy, sell, pick-up and drop-off is one action. The next player chooses
a navigation exit for a ship without a navigation die (PH_NAV_CHOICE: ``cur`` is that player).

Settled points (each a config knob or listed in docs/games/merchant_of_venus.md "Readings"):
- a ship that cannot spend its remaining MP (a dead end, a green line with 1 MP left) stops there;
- a drive skips (costs 0 MP for) entering a space of its colour; a skipped hazard or encounter is not met
  (``drive_skips_hazards``); entering such spaces with 0 MP left is not possible (movement ends at 0);
- a merchant port closes its green line down to the city (the seed's direction; up from the city stays
  open); on a board with ``green_lines`` a port is also built from a neutral port onto an orbital space
  three green lines away and that neutral port goes bankrupt (no longer a port: ships pass it as an empty
  space); the proxy board has no such lines;
- IOU credits are spent before own credits on buys from their culture (they are worth nothing later);
- market production takes the culture's good from its own supply area, else from the lowest-numbered
  area holding one (sold goods go to the buyer's area by default);
- one drill per asteroid space; a drill is placed only where movement ended.

Action ids are global (``describe_action`` in game.py names them); see the A_* constants.
"""

from __future__ import annotations

import functools

import numpy as np

from simlab.core.actions import ActionLayout
from simlab.core.compiled import compiled
from simlab.core.components import draw_counts, finish, roll, shuffle_canonical
from simlab.core.errors import DataFileError
from simlab.core.record import state_dtype
from simlab.core.rng import below, next_u64
from simlab.games.merchant_of_venus import board as B
from simlab.games.merchant_of_venus.board import load_board
from simlab.games.merchant_of_venus.config import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    N_CULTURES,
    N_ENCOUNTER_KINDS,
    N_MISSIONS_MAX,
    N_PASSENGERS_MAX,
    N_TECH_KINDS_MAX,
    SEAT_EXTRA_READINGS,
    SOLD_GOODS_TO,
    MerchantOfVenusConfig,
    board_path,
)

MAX_SPACES = 300
DEG = 6
NC = N_CULTURES
NSYS = 14
SYS_GB = 14  # Galactic Base's system index
ROUTE_TARGET = 100  # a mission target >= 100 is the route line (target - 100)
NM = N_MISSIONS_MAX
MAX_TOKENS = 40  # race-tech tokens
NP = N_PASSENGERS_MAX
NTK = N_TECH_KINDS_MAX
MAX_LOG = 512  # sales logged per game (round, culture, token, good, price, seller)
BOT_MAX_LAND, BOT_MAX_AST, BOT_MAX_SITES = 48, 32, 64  # the bots' tables (config record, derive_bot_tables)
BOT_FAR = 9999  # bot_dist of an unreachable space
#: the bots' route costs: entering a hazard, navigation or encounter space counts these MP on top of the
#: line (a failed hazard test or an encounter ends the turn; a navigation space's exit is not the ship's own)
BOT_HAZARD_MP, BOT_NAV_MP, BOT_ENCOUNTER_MP = 4, 2, 1

# -- space kinds, colours, edge kinds, hazard kinds ----------------------------------------------
K_DOT, K_HAZARD, K_ENCOUNTER, K_CITY, K_ASTEROID, K_STATION = 0, 1, 2, 3, 4, 5
KIND_OF_TYPE = {
    "dot": K_DOT,
    "penalty": K_HAZARD,
    "qbox": K_ENCOUNTER,
    "city": K_CITY,
    "asteroid": K_ASTEROID,
    "station": K_STATION,
}
COL_NONE, COL_YELLOW, COL_RED, COL_BLUE = 0, 1, 2, 3
COLOUR_OF = {None: COL_NONE, "yellow": COL_YELLOW, "red": COL_RED, "blue": COL_BLUE}
E_GREY, E_GREEN = 0, 1
HZ_LASER, HZ_SHIELD, HZ_PILOT = 0, 1, 2
FX_GENERIC, FX_THRUST_BOOSTER, FX_FUZZY_DICE = 0, 1, 2  # tech effects
TOKEN_LOW, TOKEN_ACTIVE, TOKEN_HIGH = 0, 1, 2
EN_CREDITS, EN_LOSE_TURN, EN_FREE_MOVE = 0, 1, 2  # encounter effects
LOC_BAG, LOC_DELIVERED, LOC_HOLD = -1, -2, 20  # passenger places: culture 0..13, 14 Galactic Base, 20 + seat
UNLIMITED = 99

# -- phases --------------------------------------------------------------------------------------
PH_DIALS, PH_START, PH_HEADING, PH_ASSIGN, PH_MOVE, PH_NAV_CHOICE, PH_TRADE, PH_DRILL, PH_PORT, PH_OVER = range(10)
PHASE_NAMES = (
    "set the dials",
    "start of turn",
    "declare the heading",
    "assign dice",
    "move",
    "choose a navigation exit",
    "trade",
    "place a drill",
    "build a spaceport",
    "game over",
)

# -- actions (ids declared once by family: simlab.core.actions) ----------------------------------
ACTIONS = ActionLayout(
    "done",  # end trading / no more dice / no drill / no (more) port
    "skip",  # skip movement
    "go",  # move with the drive on
    "go_no_drive",  # move with the drive switched off
    "laser_high",  # dials: laser at dial_high, shield at dial_low
    "shield_high",
    "land",  # land here (a city, a port or an asteroid with MP left)
    "drill",  # place a drill token on this asteroid
    f"edge[{DEG}]",  # slot: along this edge (heading, movement, navigation exit, port site)
    "thrust[4]",  # die index: assign the die to thrust (roll a 4th die)
    "nav[4]",  # die index: assign the die to navigation
    "buy_good",  # buy one goods token of the culture here
    f"sell[{NC}]",  # good: sell one token of this good
    "equip[6]",  # 0 laser, 1 shield, 2 hold, 3 yellow drive, 4 red drive, 5 combined drive
    f"tech[{MAX_TOKENS}]",  # token: buy this race-tech token
    f"pickup[{NP}]",  # passenger
    f"drop[{NP}]",  # passenger
    "pilot",  # Galactic Base: pilot up one level
    "reward",  # Galactic Base: buy a spare Reward card
    "mission",  # Galactic Base: buy a second mission
)
A_DONE, A_SKIP, A_GO, A_GO_NO_DRIVE = ACTIONS.starts("done", "skip", "go", "go_no_drive")
A_LASER_HIGH, A_SHIELD_HIGH, A_LAND, A_DRILL = ACTIONS.starts("laser_high", "shield_high", "land", "drill")
A_EDGE, A_THRUST, A_NAV, A_BUY_GOOD, A_SELL = ACTIONS.starts("edge", "thrust", "nav", "buy_good", "sell")
A_EQUIP, A_TECH, A_PICKUP, A_DROP = ACTIONS.starts("equip", "tech", "pickup", "drop")
A_PILOT, A_REWARD, A_MISSION = ACTIONS.starts("pilot", "reward", "mission")
MAX_ACTIONS = ACTIONS.size

STATE_DTYPE = state_dtype(
    MAX_PLAYERS,
    [
        ("n_players", np.int32),
        ("first", np.int32),  # start player
        ("round_no", np.int32),  # 1..rounds
        ("turn_k", np.int32),  # 0..players-1: position in turn order this round
        ("active", np.int32),  # seat whose turn it is
        ("dials_left", np.int32),  # seats still to set their dials (set-up)
        # -- the players ---------------------------------------------------------------------------
        ("credits", np.int32, (MAX_PLAYERS,)),
        ("start_credits", np.int32, (MAX_PLAYERS,)),
        ("fame_tokens", np.int32, (MAX_PLAYERS,)),
        ("infamy", np.int32, (MAX_PLAYERS,)),
        ("pos", np.int32, (MAX_PLAYERS,)),
        ("came_from", np.int32, (MAX_PLAYERS,)),  # the space the ship last moved from (its facing)
        ("holds", np.int32, (MAX_PLAYERS,)),
        ("laser", np.int32, (MAX_PLAYERS,)),
        ("shield", np.int32, (MAX_PLAYERS,)),
        ("pilot", np.int32, (MAX_PLAYERS,)),
        ("drive", np.int32, (MAX_PLAYERS,)),  # colour mask skipped: 1 yellow, 2 red, 3 combined
        ("cargo", np.int32, (MAX_PLAYERS, NC)),  # goods tokens in the holds, by good
        ("upgrades", np.int32, (MAX_PLAYERS,)),  # ship-upgrade places used
        ("rewards", np.int32, (MAX_PLAYERS,)),
        ("missions_done", np.int32, (MAX_PLAYERS,)),
        ("mission_fame_won", np.int32, (MAX_PLAYERS,)),
        ("mission", np.int32, (MAX_PLAYERS, 2)),  # mission card held (face up), -1 none
        ("ports", np.int32, (MAX_PLAYERS,)),  # merchant spaceports owned
        ("drills", np.int32, (MAX_PLAYERS,)),  # drill tokens on the board
        # -- board and decks ---------------------------------------------------------------------
        ("sys_culture", np.int32, (NSYS,)),  # the contact card on each system (hidden until discovered)
        ("discovered", np.int32, (NSYS,)),
        ("culture_sys", np.int32, (NC,)),  # system of each discovered culture, -1 undiscovered
        ("discoverer", np.int32, (NC,)),
        ("iou_left", np.int32, (NC,)),  # IOU credits on the culture's contact card
        ("market_goods", np.int32, (NC,)),  # the culture's own goods on its market
        ("supply", np.int32, (NC, NC)),  # supply[area culture, good]: off-board goods tokens
        ("stack", np.int32, (NC, 3)),  # market token stack (token 0 low, 1 active, 2 high)
        ("stack_top", np.int32, (NC,)),
        ("stack_seen", np.int32, (NC,)),  # tokens of the stack revealed so far (1..3 once discovered)
        ("tech_owner", np.int32, (MAX_TOKENS,)),  # -1 supply or market, else the owning seat
        ("port_owner", np.int32, (MAX_SPACES,)),  # merchant spaceport on an orbital space
        ("bankrupt", np.int8, (MAX_SPACES,)),  # 1: a neutral port a merchant port three green lines away closed
        ("drill_owner", np.int32, (MAX_SPACES,)),
        ("pass_loc", np.int32, (NP,)),
        ("pass_bag", np.int32, (NP,)),  # 1: still in the face-down pile
        ("mission_bag", np.int32, (NM,)),
        ("encounter_bag", np.int32, (N_ENCOUNTER_KINDS,)),
        ("encounter_used", np.int32, (N_ENCOUNTER_KINDS,)),
        ("rewards_left", np.int32),
        # -- the turn in progress ----------------------------------------------------------------------
        ("mp", np.int32),
        ("dice", np.int32, (4,)),
        ("dice_n", np.int32),
        ("assigned", np.int32, (4,)),  # 0 free, 1 navigation, 2 thrust
        ("assignments", np.int32),
        ("nav_value", np.int32),  # 0: no navigation die
        ("thrust_used", np.int32),
        ("drive_on", np.int32),
        ("heading", np.int32),  # slot of the declared first edge, -1 none
        ("steps", np.int32),
        ("turn_start", np.int32),  # the space the turn started on
        ("entered_city", np.int32),
        ("skipped_move", np.int32),
        ("buys_left", np.int32),
        ("sells_left", np.int32),
        ("bought", np.int32),  # buy actions this turn (a port needs none)
        ("sold", np.int32),  # sell actions this turn at this market
        ("port_city", np.int32),  # the city (or neutral port: green_lines boards) a port is being built from
        # -- the end --------------------------------------------------------------------------------
        ("fuzzy_dice", np.int32, (MAX_PLAYERS, 2)),
        ("total_fame", np.int32, (MAX_PLAYERS,)),
        ("eliminated", np.int32, (MAX_PLAYERS,)),
        # -- facts ------------------------------------------------------------------------------
        ("f_sales", np.int32, (MAX_PLAYERS,)),
        ("f_sale_income", np.int32, (MAX_PLAYERS,)),
        ("f_buys", np.int32, (MAX_PLAYERS,)),
        ("f_fees_paid", np.int32, (MAX_PLAYERS,)),
        ("f_fees_earned", np.int32, (MAX_PLAYERS,)),
        ("f_fares", np.int32, (MAX_PLAYERS,)),
        ("f_drill_income", np.int32, (MAX_PLAYERS,)),
        ("f_discoveries", np.int32, (MAX_PLAYERS,)),
        ("f_port_credits", np.int32, (MAX_PLAYERS,)),
        ("f_fame_credits", np.int32, (MAX_PLAYERS,)),
        ("f_hazards_failed", np.int32, (MAX_PLAYERS,)),
        ("sale_log", np.int32, (MAX_LOG, 6)),
        ("sale_n", np.int32),
        # -- fact series (facts.py reads them): filled by record_round at each round's end, by sales, buys
        # and market shifts; rounds beyond config.rounds stay unused -------------------------------------
        ("f_credits_r", np.int32, (MAX_PLAYERS, MAX_ROUNDS)),  # credits at the end of each round
        ("f_fame_r", np.int32, (MAX_PLAYERS, MAX_ROUNDS)),  # total fame then (no Fuzzy Dice roll)
        ("f_score_r", np.int32, (MAX_PLAYERS, MAX_ROUNDS)),  # final credits if the game ended then
        ("f_top_r", np.int16, (MAX_ROUNDS, NC)),  # top market token at the round's end, -1 undiscovered
        ("f_sales_r", np.int16, (MAX_ROUNDS, NC)),  # goods sold at the culture's market in the round
        ("f_sale_sum_r", np.int32, (MAX_ROUNDS, NC)),  # credits those sales paid
        ("f_shifter_r", np.int16, (MAX_ROUNDS, NC)),  # seat whose sales last shifted the market, -1 none
        ("f_bought_good", np.int32, (MAX_PLAYERS, NC)),  # goods tokens bought, by good (= its culture)
        ("f_sold_good", np.int32, (MAX_PLAYERS, NC)),  # goods tokens sold, by good
        ("f_sold_at", np.int32, (MAX_PLAYERS, NC)),  # goods tokens sold, by the culture bought from
        ("f_shifts_made", np.int32, (MAX_PLAYERS, NC)),  # market shifts the seat's sales caused, by culture
        ("f_mission_credits", np.int32, (MAX_PLAYERS,)),
        ("f_encounter_credits", np.int32, (MAX_PLAYERS,)),  # net: rewards less fines
    ],
)

CONFIG_DTYPE = np.dtype(
    [
        ("players", np.int32),
        ("rounds", np.int32),
        ("passenger_every", np.int32),
        ("drill_every", np.int32),
        ("credits_per_player", np.int32),
        ("third_seat_extra", np.int32),
        ("fourth_seat_extra", np.int32),
        ("seat_literal", np.int32),  # derived: seat_extra_reading == "literal"
        ("start_holds", np.int32),
        ("max_holds", np.int32),
        ("dial_high", np.int32),
        ("dial_low", np.int32),
        ("max_dial", np.int32),
        ("pilot_upgrade_price", np.int32, (4,)),
        ("upgrade_slots", np.int32),
        ("speed_dice", np.int32),
        ("max_dice", np.int32),
        ("thrust_mask", np.int32),  # derived: bit v set when die value v may go to thrust
        ("drive_skips_hazards", np.int32),
        ("hazard_six_fails", np.int32),
        ("good_buy", np.int32, (NC,)),
        ("good_resale", np.int32, (3 * NC,)),
        ("goods_tokens", np.int32, (NC,)),
        ("buyer_masks", np.int32, (NC,)),
        ("iou", np.int32, (NC,)),
        ("sold_to_producer", np.int32),  # derived: sold_goods_to == "producer"
        ("contact_buys", np.int32),
        ("contact_sells", np.int32),
        ("contact_trade_stacks", np.int32),
        ("city_buys", np.int32),
        ("city_sells", np.int32),
        ("equipment_pairs", np.int32, (3 * NC,)),
        ("laser_price", np.int32),
        ("shield_price", np.int32),
        ("hold_price", np.int32),
        ("drive_price", np.int32, (3,)),
        ("race_techs", np.int32, (NC,)),
        ("culture_tech", np.int32, (NC,)),
        ("tech_effect", np.int32, (NTK,)),
        ("tech_price", np.int32, (NTK,)),
        ("tech_max_owned", np.int32, (NTK,)),
        ("token_culture", np.int32, (MAX_TOKENS,)),  # derived: the culture each tech token belongs to
        ("n_tokens", np.int32),
        ("port_price", np.int32),
        ("port_fee", np.int32),
        ("port_end_value", np.int32),
        ("multiple_ports", np.int32),
        ("tokens_per_colour", np.int32),
        ("drill_income", np.int32),
        ("passenger_origin", np.int32, (NP,)),
        ("passenger_dest", np.int32, (NP,)),
        ("passenger_fare", np.int32, (NP,)),
        ("passenger_fame", np.int32, (NP,)),
        ("passenger_holds", np.int32, (NP,)),
        ("n_passengers", np.int32),
        ("mission_target", np.int32, (NM,)),
        ("mission_fame", np.int32, (NM,)),
        ("mission_credits", np.int32, (NM,)),
        ("n_missions", np.int32),
        ("second_mission_price", np.int32),
        ("reward_cards", np.int32),
        ("reward_price", np.int32),
        ("reward_fame", np.int32),
        ("encounter_effect", np.int32, (N_ENCOUNTER_KINDS,)),
        ("encounter_amount", np.int32, (N_ENCOUNTER_KINDS,)),
        ("encounter_copies", np.int32, (N_ENCOUNTER_KINDS,)),
        ("hold_fame", np.int32),
        ("upgrade_slot_fame", np.int32, (3,)),
        ("laser_fame_per_point", np.int32),
        ("shield_fame_per_point", np.int32),
        ("pilot_fame_offset", np.int32),
        ("fame_credits", np.int32),
        ("fuzzy_double_credits", np.int32),
        ("eliminate_below", np.int32),
        # -- experiment knobs (interventions, counterfactuals) -----------------------------------------
        ("start_player", np.int32),  # -1 random
        ("purse_offset", np.int32, (MAX_PLAYERS,)),
        ("bonus_item", np.int32),  # derived: config.bonus_code() (-1 none, 0..5 equipment, 6 + tech kind)
        ("bonus_seat", np.int32),  # derived: bonus_item_seat
        ("market_shifts", np.int32),
        # -- the board (derived from board_file) ---------------------------------------------------
        ("n_spaces", np.int32),
        ("gb_space", np.int32),
        ("space_kind", np.int32, (MAX_SPACES,)),
        ("space_colour", np.int32, (MAX_SPACES,)),
        ("space_system", np.int32, (MAX_SPACES,)),  # 0..13 market systems, 14 GB, -1 none
        ("space_line", np.int32, (MAX_SPACES,)),  # the board's route line, -1 none
        ("hazard_kind", np.int32, (MAX_SPACES,)),
        ("adj", np.int32, (MAX_SPACES, DEG)),
        ("adj_kind", np.int32, (MAX_SPACES, DEG)),
        ("adj_mp", np.int32, (MAX_SPACES, DEG)),
        ("adj_n", np.int32, (MAX_SPACES,)),
        ("nav_mask", np.int32, (MAX_SPACES, DEG)),  # die values (bit v) leaving a navigation space along a slot
        ("is_nav", np.int32, (MAX_SPACES,)),
        ("port_far", np.int32, (MAX_SPACES, DEG)),  # a neutral port's sites three green lines away (-1 pad)
        ("port_far_n", np.int32, (MAX_SPACES,)),
        # -- the bots' tables (derived from the board; read by bots.py only, see derive_bot_tables) ----------
        ("bot_dist", np.int16, (4, MAX_SPACES, MAX_SPACES)),  # fewest MP a -> b per drive (board.dist)
        ("bot_land", np.int32, (BOT_MAX_LAND,)),  # landing spaces: surface cities and neutral ports (GB too)
        ("bot_n_land", np.int32),
        ("bot_ast", np.int32, (BOT_MAX_AST,)),  # asteroid spaces (drill sites)
        ("bot_n_ast", np.int32),
        ("bot_site", np.int32, (BOT_MAX_SITES,)),  # orbital spaces a merchant port may be built on
        ("bot_n_site", np.int32),
        ("bot_sys_dist", np.int16, (4, NSYS + 1, NSYS + 1)),  # fewest MP between two systems' landing spaces
    ],
    align=True,
)


# ==============================================================================================
# the board: the JSON graph as arrays
# ==============================================================================================
@functools.cache
def board_arrays(path: str, edge_mp: tuple[int, int, int], hazard_seed: int) -> dict:
    """The board file (loaded and checked by ``board.load_board``) in the engine's numbering: market systems
    0..13 in the board's order, Galactic Base 14; navigation exits as die-value masks per adjacency slot;
    the dial each hazard space tests from the board's seeded table (``hazard_seed``: the rules page's
    round-robin proxy)."""
    bd = load_board(path, edge_mp, hazard_seed)
    n = bd.n_spaces
    if n > MAX_SPACES or bd.adj.shape[1] > DEG:
        raise DataFileError(f"{path}: at most {MAX_SPACES} spaces of degree {DEG} fit the engine's record")
    to_engine = {sy: i for i, sy in enumerate(bd.market_systems)}
    to_engine[int(bd.system[bd.galactic_base])] = SYS_GB
    kind_of = {
        B.KIND_EMPTY: K_DOT,
        B.KIND_CITY: K_CITY,
        B.KIND_PORT: K_STATION,
        B.KIND_ASTEROID: K_ASTEROID,
        B.KIND_HAZARD: K_HAZARD,
        B.KIND_ENCOUNTER: K_ENCOUNTER,
        B.KIND_GALACTIC_BASE: K_STATION,
    }
    kind = np.array([kind_of[int(k)] for k in bd.kind], np.int32)
    system = np.array([to_engine.get(int(sy), -1) for sy in bd.system], np.int32)
    hazard = bd.hazard_dial.astype(np.int32)  # laser / shield / pilot: HZ_* follow data.HAZARD_DIALS
    deg = bd.adj.shape[1]
    adj = np.full((n, DEG), -1, np.int32)
    adj[:, :deg] = bd.adj
    adj_kind = np.zeros((n, DEG), np.int32)
    adj_kind[:, :deg] = np.where(bd.adj_kind == B.EDGE_GREEN, E_GREEN, E_GREY)
    adj_mp = np.zeros((n, DEG), np.int32)
    adj_mp[:, :deg] = np.maximum(bd.adj_mp, 0)
    far = np.full((n, DEG), -1, np.int32)
    far_n = np.zeros(n, np.int32)
    for port, sites in bd.port_sites.items():
        if len(sites) > DEG:
            raise DataFileError(
                f"{path}: neutral port {bd.names[port]!r} has {len(sites)} orbital spaces three green lines away; "
                f"the engine's record holds at most {DEG}"
            )
        far[port, : len(sites)] = sites
        far_n[port] = len(sites)
    nav = np.zeros((n, DEG), np.int32)
    for i in np.flatnonzero(bd.navigation):
        for v in range(1, 7):
            target = int(bd.nav_exit[i, v - 1])
            if target >= 0:
                slot = [int(x) for x in bd.adj[i, : bd.degree[i]]].index(target)
                nav[i, slot] |= 1 << v
    return {
        "names": list(bd.names),
        "board": bd,
        "kind": kind,
        "colour": bd.colour.astype(np.int32),
        "system": system,
        "hazard": hazard,
        "line": bd.line.astype(np.int32),
        "adj": adj,
        "adj_kind": adj_kind,
        "adj_mp": adj_mp,
        "adj_n": bd.degree.astype(np.int32),
        "nav": nav,
        "is_nav": bd.navigation.astype(np.int32),
        "port_far": far,
        "port_far_n": far_n,
        "gb": bd.galactic_base,
    }


def board_key(config: MerchantOfVenusConfig) -> tuple[str, tuple[int, int, int], int]:
    """What a config's board arrays depend on: its board file, line costs and hazard seed."""
    return str(board_path(config.board_file)), (config.grey_mp, config.green_mp, config.surface_mp), config.hazard_seed


def board_for(config: MerchantOfVenusConfig) -> dict:
    """The board arrays a config plays on (its board file and line costs)."""
    return board_arrays(*board_key(config))


@functools.cache
def route_costs(path: str, edge_mp: tuple[int, int, int], hazard_seed: int, skips_hazards: bool) -> np.ndarray:
    """``bot_distances`` of a board, computed once per board and hazard reading: four all-pairs Dijkstras
    take ~50 ms, and a config record is built for every config a run, a test or an analysis makes."""
    out = bot_distances(board_arrays(path, edge_mp, hazard_seed), skips_hazards)
    out.setflags(write=False)
    return out


def derive_config(config: MerchantOfVenusConfig, c: np.void) -> None:
    """Config-record fields computed from knobs: readings as flags, the thrust mask, the tech tokens'
    cultures, table lengths and the board arrays of ``board_file``."""
    c["seat_literal"] = SEAT_EXTRA_READINGS.index(config.seat_extra_reading)
    c["sold_to_producer"] = SOLD_GOODS_TO.index(config.sold_goods_to)
    c["thrust_mask"] = sum(1 << v for v in set(config.thrust_die_values))
    cultures = [cu for cu in range(NC) for _ in range(config.race_techs[cu])]
    c["token_culture"][: len(cultures)] = cultures
    c["n_tokens"] = len(cultures)
    c["n_passengers"] = len(config.passenger_origin)
    c["n_missions"] = len(config.mission_target)
    c["bonus_item"] = config.bonus_code()
    c["bonus_seat"] = config.bonus_item_seat
    b = board_for(config)
    n = len(b["names"])
    c["n_spaces"] = n
    c["gb_space"] = b["gb"]
    c["space_kind"][:n] = b["kind"]
    c["space_colour"][:n] = b["colour"]
    c["space_system"][:] = -1
    c["space_system"][:n] = b["system"]
    c["hazard_kind"][:n] = b["hazard"]
    c["space_line"][:] = -1
    c["space_line"][:n] = b["line"]
    c["adj"][:] = -1
    c["adj"][:n] = b["adj"]
    c["adj_kind"][:n] = b["adj_kind"]
    c["adj_mp"][:n] = b["adj_mp"]
    c["adj_n"][:n] = b["adj_n"]
    c["nav_mask"][:n] = b["nav"]
    c["is_nav"][:n] = b["is_nav"]
    c["port_far"][:] = -1
    c["port_far"][:n] = b["port_far"]
    c["port_far_n"][:] = 0
    c["port_far_n"][:n] = b["port_far_n"]
    derive_bot_tables(b, c, route_costs(*board_key(config), config.drive_skips_hazards))


def bot_distances(b: dict, skips_hazards: bool) -> np.ndarray:
    """Fewest route cost a -> b per drive (0 none, 1 yellow, 2 red, 3 combined) as the bots count it: the
    line's MP (0 into a space the drive skips), plus ``BOT_*_MP`` into a hazard, navigation or encounter
    space the ship meets (scipy's Dijkstra)."""
    from scipy.sparse.csgraph import csgraph_from_dense, shortest_path

    n = len(b["names"])
    kind, colour = b["kind"], b["colour"]
    risk = np.where(kind == K_HAZARD, BOT_HAZARD_MP, 0) + np.where(kind == K_ENCOUNTER, BOT_ENCOUNTER_MP, 0)
    nav = np.where(b["is_nav"] != 0, BOT_NAV_MP, 0)
    out = np.full((4, n, n), BOT_FAR, np.int32)
    for drive in range(4):
        skip = ((colour == COL_YELLOW) & (drive & 1 != 0)) | ((colour == COL_RED) & (drive & 2 != 0))
        met = risk * np.where(skip & skips_hazards, 0, 1)
        weights = np.full((n, n), np.inf)
        for a in range(n):
            for k in range(b["adj_n"][a]):
                t = int(b["adj"][a, k])
                weights[a, t] = (0 if skip[t] else b["adj_mp"][a, k]) + met[t] + nav[t]
        d = shortest_path(csgraph_from_dense(weights, null_value=np.inf), method="D", directed=True)
        out[drive] = np.where(np.isfinite(d), np.minimum(d, BOT_FAR), BOT_FAR)
    return out


def city_site(b: dict, sp: int) -> bool:
    """Whether space sp is one green line from a surface city (``board_arrays``' dict ``b``): a port there is
    built from the city; elsewhere only from a neutral port three green lines away."""
    return any(b["adj_kind"][sp, k] == E_GREEN and b["kind"][b["adj"][sp, k]] == K_CITY for k in range(b["adj_n"][sp]))


def derive_bot_tables(b: dict, c: np.void, dist: np.ndarray) -> None:
    """The bots' precomputed tables (bots.py reads them; the rules never do): all-pairs route costs per
    drive (``dist``: ``bot_distances``), the landing, asteroid and port-site spaces, and route costs between
    systems."""
    n = len(b["names"])
    kind, system = b["kind"], b["system"]
    c["bot_dist"][:] = BOT_FAR
    c["bot_dist"][:, :n, :n] = dist
    land = [i for i in range(n) if kind[i] in (K_CITY, K_STATION)]
    ast = [i for i in range(n) if kind[i] == K_ASTEROID]
    sites = sorted(
        {
            int(b["adj"][i, k])
            for i in land
            if kind[i] == K_CITY
            for k in range(b["adj_n"][i])
            if b["adj_kind"][i, k] == E_GREEN and kind[b["adj"][i, k]] != K_STATION
        }
        | {int(t) for i in land for t in b["port_far"][i, : b["port_far_n"][i]]}
    )
    if len(land) > BOT_MAX_LAND or len(ast) > BOT_MAX_AST or len(sites) > BOT_MAX_SITES:
        raise DataFileError(
            f"{b['board'].path}: {len(land)} landing spaces, {len(ast)} asteroids, {len(sites)} port sites; "
            f"the bots' tables hold at most {BOT_MAX_LAND}, {BOT_MAX_AST}, {BOT_MAX_SITES}"
        )
    for name, spaces in (("land", land), ("ast", ast), ("site", sites)):
        c["bot_" + name][: len(spaces)] = spaces
        c["bot_n_" + name] = len(spaces)
    c["bot_sys_dist"][:] = BOT_FAR
    for a in range(NSYS + 1):
        la = [i for i in land if system[i] == a]
        for z in range(NSYS + 1):
            lz = [i for i in land if system[i] == z]
            if la and lz:
                c["bot_sys_dist"][:, a, z] = np.minimum(dist[:, la][:, :, lz].min(axis=(1, 2)), BOT_FAR)


# ==============================================================================================
# small helpers
# ==============================================================================================
@compiled
def seat_at(s, k):
    """The seat k-th in turn order (clockwise from the start player)."""
    return (s.first + k) % s.n_players


@compiled
def is_port(s, c, sp):
    """A neutral port (station, Galactic Base too) not bankrupt, or a merchant spaceport."""
    return (c.space_kind[sp] == K_STATION and s.bankrupt[sp] == 0) or s.port_owner[sp] >= 0


@compiled
def is_landing(s, c, sp):
    """Where movement may end by landing: a surface city or a port."""
    return c.space_kind[sp] == K_CITY or is_port(s, c, sp)


@compiled
def edge_open(s, c, sp, k):
    """An orbital space with a merchant port no longer leads down its green line to the city (the seed
    forbids only that direction; a ship may still climb from the city onto the port)."""
    return not (c.adj_kind[sp, k] == E_GREEN and s.port_owner[sp] >= 0 and c.space_kind[c.adj[sp, k]] == K_CITY)


@compiled
def skipped(s, c, t):
    """Whether the drive in use skips space t (its colour)."""
    col = c.space_colour[t]
    if s.drive_on == 0 or col == COL_NONE or col == COL_BLUE:
        return False
    p = s.active
    return (s.drive[p] & (1 << (col - 1))) != 0


@compiled
def edge_cost(s, c, sp, k):
    t = c.adj[sp, k]
    if skipped(s, c, t):
        return 0
    return c.adj_mp[sp, k]


@compiled
def culture_here(s, c, sp):
    """The culture one trades with at space sp (-1: none, or undiscovered)."""
    sy = c.space_system[sp]
    if sy < 0 or sy >= NSYS or s.discovered[sy] == 0:
        return -1
    return s.sys_culture[sy]


@compiled
def place_of(s, c, sp):
    """Passenger place of a space: the culture there, 14 at Galactic Base, -1 elsewhere."""
    if c.space_system[sp] == SYS_GB:
        return 14
    return culture_here(s, c, sp)


@compiled
def used_holds(s, c, p):
    n = 0
    for g in range(NC):
        n += s.cargo[p, g]
    for i in range(c.n_passengers):
        if s.pass_loc[i] == LOC_HOLD + p:
            n += c.passenger_holds[i]
    return n


@compiled
def token_kind(c, j):
    """The tech kind of race-tech token j (its culture's kind)."""
    return c.culture_tech[c.token_culture[j]]


@compiled
def owned_of_kind(s, c, p, kind):
    n = 0
    for j in range(c.n_tokens):
        if s.tech_owner[j] == p and token_kind(c, j) == kind:
            n += 1
    return n


@compiled
def owns_effect(s, c, p, effect):
    for j in range(c.n_tokens):
        if s.tech_owner[j] == p and c.tech_effect[token_kind(c, j)] == effect:
            return True
    return False


@compiled
def buys_good(c, culture, good):
    """Whether ``culture`` buys ``good`` (the good's buyer list)."""
    return (c.buyer_masks[good] >> culture) & 1 == 1


@compiled
def top_token(s, cu):
    return s.stack[cu, s.stack_top[cu]]


@compiled
def sale_price(s, c, cu, good):
    return c.good_resale[3 * good + top_token(s, cu)]


@compiled
def fee_to(s, sp, p):
    """The port owner owed a fee for trading at sp (-1: none), or p itself (the bank pays p)."""
    return s.port_owner[sp]


@compiled
def can_pay(s, c, p, cu, price, sp):
    """Price (IOU credits of cu first, if p discovered it) and the port fee from own credits."""
    iou = s.iou_left[cu] if (cu >= 0 and s.discoverer[cu] == p) else 0
    own = price - iou if price > iou else 0
    fee = 0
    owner = s.port_owner[sp]
    if owner >= 0 and owner != p:
        fee = c.port_fee
    return s.credits[p] >= own + fee


@compiled
def pay(s, c, p, cu, price, sp):
    """Pay a buy action: IOU first, then credits; then the port fee (or the bank's fee at p's own port)."""
    if cu >= 0 and s.discoverer[cu] == p:
        use = s.iou_left[cu] if s.iou_left[cu] < price else price
        s.iou_left[cu] -= use
        price -= use
    s.credits[p] -= price
    port_fee(s, c, p, sp)


@compiled
def port_fee(s, c, p, sp):
    owner = s.port_owner[sp]
    if owner < 0:
        return
    if owner == p:
        s.credits[p] += c.port_fee
        s.f_fees_earned[p] += c.port_fee
    else:
        s.credits[p] -= c.port_fee
        s.credits[owner] += c.port_fee
        s.f_fees_paid[p] += c.port_fee
        s.f_fees_earned[owner] += c.port_fee


@compiled
def tokens_left(s, c, p):
    return c.tokens_per_colour - s.ports[p] - s.drills[p]


@compiled
def equipment_offered(s, c, cu):
    return c.equipment_pairs[3 * cu + top_token(s, cu)]


@compiled
def equip_price(c, e):
    if e == 0:
        return c.laser_price
    if e == 1:
        return c.shield_price
    if e == 2:
        return c.hold_price
    return c.drive_price[e - 3]


# ==============================================================================================
# set-up
# ==============================================================================================
@compiled
def init(st, cf, rng):
    s, c = st[0], cf[0]
    s.rng[0] = rng[0]
    n = c.players
    s.n_players = n
    drawn = below(s.rng, 0, n)  # drawn even when fixed: the chance stream stays the same
    s.first = drawn if c.start_player < 0 else c.start_player
    s.round_no = 1
    s.turn_k = 0
    # contact cards shuffled, one face down on each system
    for i in range(NSYS):
        s.sys_culture[i] = i
    for i in range(NSYS - 1, 0, -1):
        j = below(s.rng, 0, i + 1)
        t = s.sys_culture[i]
        s.sys_culture[i] = s.sys_culture[j]
        s.sys_culture[j] = t
    for cu in range(NC):
        s.culture_sys[cu] = -1
        s.discoverer[cu] = -1
        s.supply[cu, cu] = c.goods_tokens[cu]
        for k in range(3):
            s.stack[cu, k] = k
    for j in range(MAX_TOKENS):
        s.tech_owner[j] = -1
    for sp in range(MAX_SPACES):
        s.port_owner[sp] = -1
        s.drill_owner[sp] = -1
    for i in range(NP):
        s.pass_loc[i] = LOC_BAG
        s.pass_bag[i] = 1 if i < c.n_passengers else 0
    for m in range(c.n_missions):
        s.mission_bag[m] = 1
    for k in range(N_ENCOUNTER_KINDS):
        s.encounter_bag[k] = c.encounter_copies[k]
    s.rewards_left = c.reward_cards
    # dashboards, purses, missions, ships on Galactic Base
    base = c.credits_per_player * n
    for p in range(n):
        s.credits[p] = base
    if n >= 3:
        third, fourth = 2, 3  # turn order: the 3rd and 4th to act
        if c.seat_literal:  # counter-clockwise from the start player: 3rd is start-2, 4th start-3
            third, fourth = n - 2, n - 3
        s.credits[seat_at(s, third)] += c.third_seat_extra
        if n >= 4:
            s.credits[seat_at(s, fourth)] += c.fourth_seat_extra
    for p in range(n):
        s.credits[p] += c.purse_offset[p]
        s.start_credits[p] = s.credits[p]
        s.holds[p] = c.start_holds
        s.pilot[p] = 1
        s.pos[p] = c.gb_space
        s.came_from[p] = -1
        s.mission[p, 0] = draw_counts(s, s.mission_bag)
        s.mission[p, 1] = -1
    give_bonus_item(s, c)
    for r in range(c.rounds):
        for cu in range(NC):
            s.f_shifter_r[r, cu] = -1
    draw_passenger(s, c)
    s.dials_left = n
    s.phase = PH_DIALS
    s.cur = s.first
    s.active = s.first


@compiled
def give_bonus_item(s, c):
    """The item-value experiment: seat ``bonus_seat`` starts with one extra equipment item (a laser or shield
    point is added when the dials are set, see apply) or one race-tech token of a kind, taken from its
    culture's tokens."""
    p, item = c.bonus_seat, c.bonus_item
    if p < 0 or item < 0:
        return
    if item == 2 and s.holds[p] < c.max_holds:
        s.holds[p] += 1
    elif 3 <= item <= 5:
        s.drive[p] = item - 2
    elif item >= 6:
        for j in range(c.n_tokens):
            kind = token_kind(c, j)
            if kind == item - 6 and s.tech_owner[j] < 0:
                s.tech_owner[j] = p
                if c.tech_effect[kind] == FX_GENERIC:
                    s.upgrades[p] += 1
                return


@compiled
def draw_passenger(s, c):
    """A passenger from the face-down pile to its origin (its culture's tray while undiscovered)."""
    i = draw_counts(s, s.pass_bag)
    if i >= 0:
        s.pass_loc[i] = c.passenger_origin[i]


# ==============================================================================================
# legal actions
# ==============================================================================================
@compiled
def legal(st, cf, buf):
    s, c = st[0], cf[0]
    ph = s.phase
    p = s.cur
    n = 0
    if ph == PH_DIALS:
        buf[0] = A_LASER_HIGH
        buf[1] = A_SHIELD_HIGH
        return 2
    if ph == PH_START:
        buf[n] = A_SKIP
        n += 1
        buf[n] = A_GO
        n += 1
        if s.drive[p] > 0:
            buf[n] = A_GO_NO_DRIVE
            n += 1
        return n
    if ph == PH_HEADING:
        sp = s.pos[p]
        for k in range(c.adj_n[sp]):
            if edge_open(s, c, sp, k):
                buf[n] = A_EDGE + k
                n += 1
        return n
    if ph == PH_ASSIGN:
        buf[n] = A_DONE
        n += 1
        if s.assignments < s.pilot[p]:
            booster = owns_effect(s, c, p, FX_THRUST_BOOSTER)
            for i in range(s.dice_n):
                if s.assigned[i] != 0:
                    continue
                thrust_ok = booster or (c.thrust_mask & (1 << s.dice[i])) != 0
                if s.thrust_used == 0 and s.dice_n < c.max_dice and thrust_ok:
                    buf[n] = A_THRUST + i
                    n += 1
                if s.nav_value == 0:
                    buf[n] = A_NAV + i
                    n += 1
        return n
    if ph == PH_MOVE:
        return legal_move(s, c, buf)
    if ph == PH_NAV_CHOICE:
        return move_options(s, c, buf, 0)  # the active ship's exits, chosen by the next player
    if ph == PH_TRADE:
        return legal_trade(s, c, buf)
    if ph == PH_DRILL:
        buf[0] = A_DONE
        buf[1] = A_DRILL
        return 2
    if ph == PH_PORT:
        buf[n] = A_DONE
        n += 1
        if s.credits[p] >= c.port_price and tokens_left(s, c, p) > 0:
            city = s.port_city
            for k in range(DEG):
                if port_site(s, c, city, k) >= 0:
                    buf[n] = A_EDGE + k
                    n += 1
        return n
    return 0


@compiled
def move_options(s, c, buf, n):
    """The edges the active ship may take next: open, affordable, not straight back, the heading first."""
    p = s.active
    sp = s.pos[p]
    for k in range(c.adj_n[sp]):
        if not edge_open(s, c, sp, k):
            continue
        t = c.adj[sp, k]
        if s.steps > 0 and t == s.came_from[p]:
            continue
        if s.steps == 0 and s.heading >= 0 and k != s.heading:
            continue
        if edge_cost(s, c, sp, k) > s.mp:
            continue
        buf[n] = A_EDGE + k
        n += 1
    return n


@compiled
def legal_move(s, c, buf):
    p = s.active
    sp = s.pos[p]
    n = 0
    if s.steps > 0 and (is_landing(s, c, sp) or c.space_kind[sp] == K_ASTEROID):
        buf[n] = A_LAND
        n += 1
    return move_options(s, c, buf, n)


@compiled
def legal_trade(s, c, buf):
    p = s.cur
    sp = s.pos[p]
    n = 0
    buf[n] = A_DONE
    n += 1
    cu = culture_here(s, c, sp)
    room = s.holds[p] - used_holds(s, c, p)
    if cu >= 0:
        if s.buys_left > 0:
            if s.market_goods[cu] > 0 and room >= 1 and can_pay(s, c, p, cu, c.good_buy[cu], sp):
                buf[n] = A_BUY_GOOD
                n += 1
            offer = equipment_offered(s, c, cu)
            for e in range(6):
                kind = e if e < 3 else 3
                if (offer & (1 << kind)) == 0:
                    continue
                if e == 0 and s.laser[p] >= c.max_dial:
                    continue
                if e == 1 and s.shield[p] >= c.max_dial:
                    continue
                if e == 2 and s.holds[p] >= c.max_holds:
                    continue
                if e >= 3 and s.drive[p] == e - 2:
                    continue
                if can_pay(s, c, p, cu, equip_price(c, e), sp):
                    buf[n] = A_EQUIP + e
                    n += 1
            for j in range(c.n_tokens):
                if c.token_culture[j] != cu or s.tech_owner[j] >= 0:
                    continue
                kind = token_kind(c, j)
                if owned_of_kind(s, c, p, kind) >= c.tech_max_owned[kind]:
                    continue
                if c.tech_effect[kind] == FX_GENERIC and s.upgrades[p] >= c.upgrade_slots:
                    continue
                if can_pay(s, c, p, cu, c.tech_price[kind], sp):
                    buf[n] = A_TECH + j
                    n += 1
        if s.sells_left > 0:
            for g in range(NC):
                if s.cargo[p, g] > 0 and buys_good(c, cu, g):
                    buf[n] = A_SELL + g
                    n += 1
    place = place_of(s, c, sp)
    if place >= 0:
        for i in range(c.n_passengers):
            if s.pass_loc[i] == place and c.passenger_holds[i] <= room:
                buf[n] = A_PICKUP + i
                n += 1
            elif s.pass_loc[i] == LOC_HOLD + p and c.passenger_dest[i] == place:
                buf[n] = A_DROP + i
                n += 1
    if c.space_system[sp] == SYS_GB:
        lv = s.pilot[p]
        if lv < 4 and s.credits[p] >= c.pilot_upgrade_price[lv]:
            buf[n] = A_PILOT
            n += 1
        if s.rewards_left > 0 and s.credits[p] >= c.reward_price:
            buf[n] = A_REWARD
            n += 1
        if s.mission[p, 1] < 0 and s.credits[p] >= c.second_mission_price:
            total = 0
            for m in range(NM):
                total += s.mission_bag[m]
            if total > 0:
                buf[n] = A_MISSION
                n += 1
    return n


# ==============================================================================================
# apply
# ==============================================================================================
@compiled
def apply(st, cf, a):
    s, c = st[0], cf[0]
    s.decisions += 1
    ph = s.phase
    if ph == PH_DIALS:
        p = s.cur
        high = a == A_LASER_HIGH
        s.laser[p] = c.dial_high if high else c.dial_low
        s.shield[p] = c.dial_low if high else c.dial_high
        if p == c.bonus_seat and (c.bonus_item == 0 or c.bonus_item == 1):  # the bonus laser or shield point
            if c.bonus_item == 0:
                s.laser[p] = min(s.laser[p] + 1, c.max_dial)
            else:
                s.shield[p] = min(s.shield[p] + 1, c.max_dial)
        s.dials_left -= 1
        if s.dials_left > 0:
            s.cur = (p + 1) % s.n_players
        else:
            start_turn(s, c, 0)
    elif ph == PH_START:
        p = s.active
        if a == A_SKIP:
            s.skipped_move = 1
            if is_landing(s, c, s.pos[p]):
                begin_trade(s, c)
            else:
                end_turn(s, c)
            return
        s.drive_on = 0 if a == A_GO_NO_DRIVE else 1
        sp = s.pos[p]
        if is_landing(s, c, sp) or c.is_nav[sp] != 0:
            roll_speed(s, c)  # no heading from a city or port; a navigation space sets its own exit
        else:
            s.phase = PH_HEADING
    elif ph == PH_HEADING:
        s.heading = a - A_EDGE
        roll_speed(s, c)
    elif ph == PH_ASSIGN:
        if a == A_DONE:
            s.phase = PH_MOVE
            move_along(s, c, continue_move(s, c))
            return
        if a < A_NAV:
            i = a - A_THRUST
            s.assigned[i] = 2
            s.thrust_used = 1
            v = roll(s, 6)
            s.dice[s.dice_n] = v
            s.dice_n += 1
            s.mp += v
        else:
            i = a - A_NAV
            s.assigned[i] = 1
            s.nav_value = s.dice[i]
        s.assignments += 1
    elif ph == PH_MOVE:
        if a == A_LAND:
            land(s, c)
            return
        move_along(s, c, a - A_EDGE)
    elif ph == PH_NAV_CHOICE:
        s.cur = s.active
        s.phase = PH_MOVE
        move_along(s, c, a - A_EDGE)
    elif ph == PH_TRADE:
        apply_trade(s, c, a)
    elif ph == PH_DRILL:
        p = s.active
        if a == A_DRILL:
            s.drill_owner[s.pos[p]] = p
            s.drills[p] += 1
        end_turn(s, c)
    elif ph == PH_PORT:
        p = s.active
        if a == A_DONE:
            end_turn(s, c)
            return
        t = port_site(s, c, s.port_city, a - A_EDGE)
        s.credits[p] -= c.port_price
        s.port_owner[t] = p
        s.ports[p] += 1
        s.came_from[p] = s.port_city
        s.pos[p] = t
        if c.space_kind[s.port_city] == K_STATION:
            s.bankrupt[s.port_city] = 1  # the neutral port built from goes bankrupt: no more ports from it
        if c.multiple_ports == 0 or port_sites(s, c, p, s.port_city) == 0:
            end_turn(s, c)


@compiled
def start_turn(s, c, k):
    """Turn k of the round: reset the turn's counters, the active seat decides to move or not."""
    s.turn_k = k
    p = seat_at(s, k)
    s.active = p
    s.cur = p
    s.turns += 1
    s.mp = 0
    s.dice_n = 0
    for i in range(4):
        s.dice[i] = 0
        s.assigned[i] = 0
    s.assignments = 0
    s.nav_value = 0
    s.thrust_used = 0
    s.drive_on = 1
    s.heading = -1
    s.steps = 0
    s.turn_start = s.pos[p]
    s.entered_city = 0
    s.skipped_move = 0
    s.buys_left = 0
    s.sells_left = 0
    s.bought = 0
    s.sold = 0
    s.port_city = -1
    s.phase = PH_START


@compiled
def roll_speed(s, c):
    s.dice_n = c.speed_dice
    s.mp = 0
    for i in range(c.speed_dice):
        s.dice[i] = roll(s, 6)
        s.mp += s.dice[i]
    s.phase = PH_ASSIGN


@compiled
def nav_exit(s, c, sp):
    """The slot the navigation die leads out of sp, -1 when none matches."""
    for k in range(c.adj_n[sp]):
        if (c.nav_mask[sp, k] & (1 << s.nav_value)) != 0:
            return k
    return -1


@compiled
def continue_move(s, c):
    """After a step (or the roll): the next decision, or the slot a navigation die forces (-1: none).

    A ship with no MP left, or none it can spend, stops; a navigation space with a navigation die sets the
    exit (returned, for :func:`move_along` to take), without one the next player chooses it.
    """
    p = s.active
    sp = s.pos[p]
    if s.mp <= 0:
        stop_here(s, c)
        return -1
    if c.is_nav[sp] != 0:
        if s.nav_value > 0:
            k = nav_exit(s, c, sp)
            if k < 0 or (s.steps > 0 and c.adj[sp, k] == s.came_from[p]):
                end_turn(s, c)  # the navigation die points back the way the ship came in
                return -1
            if not edge_open(s, c, sp, k) or edge_cost(s, c, sp, k) > s.mp:
                end_turn(s, c)
                return -1
            return k
        buf = np.zeros(DEG, np.int32)
        s.heading = -1
        if move_options(s, c, buf, 0) == 0:
            end_turn(s, c)
            return -1
        s.phase = PH_NAV_CHOICE
        s.cur = (p + 1) % s.n_players  # the next player chooses the route
        return -1
    buf = np.zeros(DEG + 1, np.int32)
    if legal_move(s, c, buf) == 0:
        stop_here(s, c)  # no way to spend the MP left: the ship stops here
        return -1
    s.phase = PH_MOVE
    s.cur = p
    return -1


@compiled
def move_along(s, c, k):
    """Take slot k, then every exit navigation dice force, until a decision or the end of the movement (a
    loop, not recursion: numba's cache does not load mutually recursive functions safely)."""
    while k >= 0:
        if not step(s, c, k):
            return
        k = continue_move(s, c)


@compiled
def step(s, c, k):
    """Move the active ship along slot k, meeting what the new space holds; False: the turn ended there."""
    p = s.active
    sp = s.pos[p]
    t = c.adj[sp, k]
    cost = edge_cost(s, c, sp, k)
    skip = cost == 0
    s.mp -= cost
    s.came_from[p] = sp
    s.pos[p] = t
    s.steps += 1
    s.heading = -1
    reach_missions(s, c, p, t)
    met = not (skip and c.drive_skips_hazards != 0)
    if met and c.space_kind[t] == K_HAZARD:
        kind = c.hazard_kind[t]
        dial = s.laser[p] if kind == HZ_LASER else (s.shield[p] if kind == HZ_SHIELD else s.pilot[p])
        d = roll(s, 6)
        if d > dial or (d == 6 and c.hazard_six_fails != 0):
            s.f_hazards_failed[p] += 1
            end_turn(s, c)
            return False
    if met and c.space_kind[t] == K_ENCOUNTER and encounter(s, c, p):
        end_turn(s, c)
        return False
    return True


@compiled
def encounter(s, c, p):
    """Draw an encounter card (the discards reshuffled when the deck is out); True: the turn ends."""
    total = 0
    for k in range(N_ENCOUNTER_KINDS):
        total += s.encounter_bag[k]
    if total == 0:
        for k in range(N_ENCOUNTER_KINDS):
            s.encounter_bag[k] = s.encounter_used[k]
            s.encounter_used[k] = 0
    e = draw_counts(s, s.encounter_bag)
    if e < 0:
        return False
    s.encounter_used[e] += 1
    amount = c.encounter_amount[e]
    effect = c.encounter_effect[e]
    if effect == EN_CREDITS:
        got = amount if amount >= -s.credits[p] else -s.credits[p]  # a fine takes what there is
        s.credits[p] += got
        s.f_encounter_credits[p] += got
    elif effect == EN_LOSE_TURN:
        return True
    else:
        s.mp += amount
    return False


@compiled
def stop_here(s, c):
    """Movement ends with the MP spent (or none spendable): landing if this is a city or port."""
    p = s.active
    sp = s.pos[p]
    if is_landing(s, c, sp) and s.steps > 0:
        land(s, c)
    elif c.space_kind[sp] == K_ASTEROID and s.steps > 0:
        land(s, c)
    else:
        end_turn(s, c)


@compiled
def land(s, c):
    """Landing: an asteroid ends the turn (a drill may go down); a city or port goes on to Contact/Trade."""
    p = s.active
    sp = s.pos[p]
    if c.space_kind[sp] == K_ASTEROID:
        if s.drill_owner[sp] < 0 and tokens_left(s, c, p) > 0:
            s.phase = PH_DRILL
            s.cur = p
        else:
            end_turn(s, c)
        return
    begin_trade(s, c)


@compiled
def begin_trade(s, c):
    """Contact (a face-down card here is revealed) and the Trade allowance; system missions complete."""
    p = s.active
    sp = s.pos[p]
    s.cur = p
    s.phase = PH_TRADE
    s.entered_city = 1 if (c.space_kind[sp] == K_CITY and s.skipped_move == 0) else 0
    if s.skipped_move != 0 or is_port(s, c, sp):
        s.buys_left = UNLIMITED
        s.sells_left = UNLIMITED
    else:
        s.buys_left = c.city_buys
        s.sells_left = c.city_sells
    sy = c.space_system[sp]
    if 0 <= sy < NSYS and s.discovered[sy] == 0:
        discover(s, c, p, sy)
        if c.contact_trade_stacks != 0:
            s.buys_left = min(UNLIMITED, s.buys_left + c.contact_buys)
            s.sells_left = min(UNLIMITED, s.sells_left + c.contact_sells)
        else:
            s.buys_left = max(s.buys_left, c.contact_buys)
            s.sells_left = max(s.sells_left, c.contact_sells)


@compiled
def discover(s, c, p, sy):
    """Reveal the contact card: its market tokens shuffled into a stack (top face up), its goods and race
    techs on the market, its waiting passengers there, its IOU credits on the card for the discoverer."""
    cu = s.sys_culture[sy]
    s.discovered[sy] = 1
    s.culture_sys[cu] = sy
    s.discoverer[cu] = p
    s.f_discoveries[p] += 1
    for i in range(2, 0, -1):
        j = roll(s, i + 1) - 1  # the chance stream's below(i + 1), or a forced draw (position.force(stack=...))
        t = s.stack[cu, i]
        s.stack[cu, i] = s.stack[cu, j]
        s.stack[cu, j] = t
    s.stack_top[cu] = 0
    s.stack_seen[cu] = 1
    s.market_goods[cu] += s.supply[cu, cu]
    s.supply[cu, cu] = 0
    s.iou_left[cu] = c.iou[cu]


@compiled
def reach_missions(s, c, p, sp):
    """Missions completed by entering space sp: its market system, or its route line."""
    for k in range(2):
        m = s.mission[p, k]
        if m < 0:
            continue
        target = c.mission_target[m]
        if (target < ROUTE_TARGET and target == c.space_system[sp]) or (
            target >= ROUTE_TARGET and target - ROUTE_TARGET == c.space_line[sp]
        ):
            s.mission[p, k] = -1
            s.missions_done[p] += 1
            s.mission_fame_won[p] += c.mission_fame[m]
            s.credits[p] += c.mission_credits[m]
            s.f_mission_credits[p] += c.mission_credits[m]
    if s.mission[p, 0] < 0 and s.mission[p, 1] >= 0:
        s.mission[p, 0] = s.mission[p, 1]
        s.mission[p, 1] = -1


@compiled
def apply_trade(s, c, a):
    p = s.active
    sp = s.pos[p]
    cu = culture_here(s, c, sp)
    if a == A_DONE:
        end_trade(s, c)
        return
    if a == A_BUY_GOOD:
        pay(s, c, p, cu, c.good_buy[cu], sp)
        s.market_goods[cu] -= 1
        s.cargo[p, cu] += 1
        s.f_bought_good[p, cu] += 1
        bought(s, p)
    elif A_SELL <= a < A_EQUIP:
        g = a - A_SELL
        price = sale_price(s, c, cu, g)
        s.cargo[p, g] -= 1
        if c.sold_to_producer != 0:
            s.supply[g, g] += 1
        else:
            s.supply[cu, g] += 1
        s.credits[p] += price  # paid first, then the fee
        port_fee(s, c, p, sp)
        s.sells_left -= 1
        s.sold += 1
        s.f_sales[p] += 1
        s.f_sale_income[p] += price
        s.f_sales_r[s.round_no - 1, cu] += 1
        s.f_sale_sum_r[s.round_no - 1, cu] += price
        s.f_sold_good[p, g] += 1
        s.f_sold_at[p, cu] += 1
        if s.sale_n < MAX_LOG:
            k = s.sale_n
            s.sale_log[k, 0] = s.round_no
            s.sale_log[k, 1] = cu
            s.sale_log[k, 2] = top_token(s, cu)
            s.sale_log[k, 3] = g
            s.sale_log[k, 4] = price
            s.sale_log[k, 5] = p
            s.sale_n += 1
    elif A_EQUIP <= a < A_TECH:
        e = a - A_EQUIP
        pay(s, c, p, cu, equip_price(c, e), sp)
        if e == 0:
            s.laser[p] += 1
        elif e == 1:
            s.shield[p] += 1
        elif e == 2:
            s.holds[p] += 1
        else:
            s.drive[p] = e - 2
        bought(s, p)
    elif A_TECH <= a < A_PICKUP:
        j = a - A_TECH
        kind = token_kind(c, j)
        pay(s, c, p, cu, c.tech_price[kind], sp)
        s.tech_owner[j] = p
        if c.tech_effect[kind] == FX_GENERIC:
            s.upgrades[p] += 1
        bought(s, p)
    elif A_PICKUP <= a < A_DROP:
        s.pass_loc[a - A_PICKUP] = LOC_HOLD + p
    elif A_DROP <= a < A_PILOT:
        i = a - A_DROP
        s.pass_loc[i] = LOC_DELIVERED
        s.credits[p] += c.passenger_fare[i]
        s.f_fares[p] += c.passenger_fare[i]
        if c.passenger_fame[i] >= 0:
            s.fame_tokens[p] += c.passenger_fame[i]
        else:
            s.infamy[p] -= c.passenger_fame[i]
    elif a == A_PILOT:
        s.credits[p] -= c.pilot_upgrade_price[s.pilot[p]]
        s.pilot[p] += 1
    elif a == A_REWARD:
        s.credits[p] -= c.reward_price
        s.rewards_left -= 1
        s.rewards[p] += 1
    elif a == A_MISSION:
        s.credits[p] -= c.second_mission_price
        s.mission[p, 1 if s.mission[p, 0] >= 0 else 0] = draw_counts(s, s.mission_bag)


@compiled
def bought(s, p):
    s.buys_left -= 1
    s.bought += 1
    s.f_buys[p] += 1


@compiled
def end_trade(s, c):
    """The market shifts after the turn's sales (an active token revealed produces a good); then the
    Spaceport phase if the ship is in a surface city (or a neutral port with sites three green lines away)
    and bought nothing this turn."""
    p = s.active
    sp = s.pos[p]
    cu = culture_here(s, c, sp)
    if s.sold > 0 and cu >= 0 and c.market_shifts != 0:
        s.f_shifter_r[s.round_no - 1, cu] = p
        s.f_shifts_made[p, cu] += 1
        s.stack_top[cu] = (s.stack_top[cu] + 1) % 3
        if s.stack_seen[cu] < 3:
            s.stack_seen[cu] += 1
        if top_token(s, cu) == TOKEN_ACTIVE:
            produce(s, cu)
    s.sold = 0
    if s.bought == 0 and port_sites(s, c, p, sp) > 0:
        s.port_city = sp
        s.phase = PH_PORT
        s.cur = p
        return
    end_turn(s, c)


@compiled
def port_sites(s, c, p, sp):
    """The places where p can build a port now from space sp (0: none, or p cannot pay or has no token)."""
    if s.credits[p] < c.port_price or tokens_left(s, c, p) <= 0:
        return 0
    n = 0
    for k in range(DEG):
        if port_site(s, c, sp, k) >= 0:
            n += 1
    return n


@compiled
def port_site(s, c, sp, k):
    """Site k of space sp, if empty (-1: none): from a surface city the orbital space along adjacency slot k
    (a green line); from a neutral port that is not bankrupt the k-th orbital space three green lines away
    (``port_far``, boards with ``green_lines`` only)."""
    if c.space_kind[sp] == K_CITY:
        if k >= c.adj_n[sp] or c.adj_kind[sp, k] != E_GREEN:
            return -1
        t = c.adj[sp, k]
        if c.space_kind[t] == K_STATION:
            return -1
    elif c.space_kind[sp] == K_STATION and s.bankrupt[sp] == 0:
        if k >= c.port_far_n[sp]:
            return -1
        t = c.port_far[sp, k]
    else:
        return -1
    return t if s.port_owner[t] < 0 else -1


@compiled
def produce(s, cu):
    """One of the culture's goods returns from the supply to its market (its own area first)."""
    if s.supply[cu, cu] > 0:
        s.supply[cu, cu] -= 1
        s.market_goods[cu] += 1
        return
    for area in range(NC):
        if s.supply[area, cu] > 0:
            s.supply[area, cu] -= 1
            s.market_goods[cu] += 1
            return


@compiled
def end_turn(s, c):
    """The next player's turn; after the last, a new round (its symbol resolved) or the end."""
    k = s.turn_k + 1
    if k < s.n_players:
        start_turn(s, c, k)
        return
    record_round(s, c)
    s.round_no += 1
    if s.round_no > c.rounds:
        s.round_no = c.rounds
        end_game(s, c)
        return
    if s.round_no % c.passenger_every == 0:
        draw_passenger(s, c)
    if s.round_no % c.drill_every == 0:
        for sp in range(c.n_spaces):
            q = s.drill_owner[sp]
            if q >= 0:
                s.drill_owner[sp] = -1
                s.drills[q] -= 1
                s.credits[q] += c.drill_income
                s.f_drill_income[q] += c.drill_income
    start_turn(s, c, 0)


@compiled
def record_round(s, c):
    """The round's fact series at its end: each seat's credits, fame (before any Fuzzy Dice roll) and the
    score if the game ended now (ports sold, fame paid at fame_credits); each culture's top market token."""
    r = s.round_no - 1
    for p in range(s.n_players):
        fame = fame_before_dice(s, c, p) - s.infamy[p]
        s.f_credits_r[p, r] = s.credits[p]
        s.f_fame_r[p, r] = fame
        paid = fame * c.fame_credits if fame >= c.eliminate_below else 0
        s.f_score_r[p, r] = s.credits[p] + s.ports[p] * c.port_end_value + paid
    for cu in range(NC):
        s.f_top_r[r, cu] = top_token(s, cu) if s.culture_sys[cu] >= 0 else -1


@compiled
def fame_before_dice(s, c, p):
    """Fame of tokens, rewards, missions and the dashboard (extra holds, upgrade places, dials, pilot)."""
    f = s.fame_tokens[p] + s.rewards[p] * c.reward_fame + s.mission_fame_won[p]
    f += (s.holds[p] - c.start_holds) * c.hold_fame
    for k in range(s.upgrades[p]):
        f += c.upgrade_slot_fame[k]
    f += s.laser[p] * c.laser_fame_per_point + s.shield[p] * c.shield_fame_per_point
    f += s.pilot[p] - c.pilot_fame_offset
    return f


@compiled
def end_game(s, c):
    """Ports sell, fame pays (Fuzzy Dice: 2d6 fame, a double pays double), IOUs are lost; most credits wins,
    ties by total fame, then shared; a player below the fame threshold is eliminated."""
    n = s.n_players
    keys = np.zeros((n, 3), np.int64)
    for p in range(n):
        value = s.ports[p] * c.port_end_value
        s.credits[p] += value
        s.f_port_credits[p] += value
        fame = fame_before_dice(s, c, p)
        per = c.fame_credits
        if owns_effect(s, c, p, FX_FUZZY_DICE):
            a = roll(s, 6)
            b = roll(s, 6)
            s.fuzzy_dice[p, 0] = a
            s.fuzzy_dice[p, 1] = b
            fame += a + b
            if a == b:
                per = c.fuzzy_double_credits
        fame -= s.infamy[p]
        s.total_fame[p] = fame
        if fame < c.eliminate_below:
            s.eliminated[p] = 1
        else:
            s.credits[p] += fame * per
            s.f_fame_credits[p] += fame * per
        s.score[p] = s.credits[p]
        keys[p, 0] = 1 - s.eliminated[p]
        keys[p, 1] = s.credits[p]
        keys[p, 2] = fame
    s.phase = PH_OVER
    finish(s, keys, n)


@compiled
def score_now(st, cf):
    """The game ended where it stands: ``end_game``'s scoring applied to the position now (ports sell, fame
    pays, IOUs are lost). Core's search cuts its playouts short with it (``ismcts:depth=D``, docs/search.md)."""
    end_game(st[0], cf[0])


# ==============================================================================================
# hidden information
# ==============================================================================================
@compiled
def determinize(st, cf, seat, rng):
    """Resample in place what ``seat`` cannot see, drawing only from ``rng`` (``below(rng, 0, n)``): the
    cultures on undiscovered systems (among themselves), the unrevealed order of market stacks, and the
    chance stream (so passenger, encounter, mission and dice draws to come are redrawn too)."""
    s = st[0]
    hidden = np.zeros(NSYS, np.int32)
    m = 0
    for sy in range(NSYS):
        if s.discovered[sy] == 0:
            hidden[m] = s.sys_culture[sy]
            m += 1
    # sorted first, so the view depends on which cultures are unseen, not on where they lie
    shuffle_canonical(rng, hidden, m)
    m = 0
    for sy in range(NSYS):
        if s.discovered[sy] == 0:
            s.sys_culture[sy] = hidden[m]
            m += 1
    for cu in range(NC):
        if s.culture_sys[cu] >= 0 and s.stack_seen[cu] == 1:
            # the two unrevealed tokens in either order, drawn afresh (not swapped from their true order)
            a = (s.stack_top[cu] + 1) % 3
            b = (s.stack_top[cu] + 2) % 3
            lo = min(s.stack[cu, a], s.stack[cu, b])
            hi = max(s.stack[cu, a], s.stack[cu, b])
            first = below(rng, 0, 2) == 1
            s.stack[cu, a] = hi if first else lo
            s.stack[cu, b] = lo if first else hi
    x = next_u64(rng, 0)
    if x == 0:
        x = np.uint64(0x9E3779B97F4A7C15)
    s.rng[0] = x
