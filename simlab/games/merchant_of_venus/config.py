"""Merchant of Venus (standard game) rule numbers: a frozen config, every field with its provenance.

The contract is ``shared/rules/merchant_of_venus.md`` (a model of the standard game: the Hungarian seed
lost every digit 1, 2 and 3 and stops before the component lists). Each knob's source says how sure it
is: ``rulebook`` (stated in the seed or checked against its worked examples), ``derived`` (inferred from
the seed's examples), ``assumption`` (a reading of an ambiguous rule; the rules page's default) and
``placeholder`` (a proxy table standing in for a component list that is not public). Results that depend
on a placeholder or assumption must say so; a sensitivity sweep is one override away.

The per-culture tables are indexed by culture number − 1 (1 Nillis … 14 Qossuth).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import ClassVar

from simlab.core.config import GameConfig, knob, not_modelled, require
from simlab.games.merchant_of_venus import data
from simlab.games.merchant_of_venus.board import DEFAULT_BOARD_PATH, HAZARD_SEED, load_board
from simlab.games.merchant_of_venus.board_check import check_board, mission_problem

MAX_PLAYERS = 4
N_CULTURES = 14
N_PASSENGERS_MAX = 40
N_TECH_KINDS_MAX = 24
N_ENCOUNTER_KINDS = 8
N_MISSIONS_MAX = 32
MAX_PILOT_LEVEL = 4
#: most rounds a game may have (the per-round fact series are this long in the record)
MAX_ROUNDS = 99

#: the two readings of the seat bonus (see the rules page, "Starting-money asymmetry")
SEAT_EXTRA_READINGS = ("turn_order", "literal")
#: where a sold good goes
SOLD_GOODS_TO = ("buyer", "producer")


def board_path(board_file: str) -> Path:
    """The board file a config names: '' is the shipped classic side (a name, not a path, so the config's
    hash does not depend on where simlab is installed)."""
    return Path(board_file) if board_file else DEFAULT_BOARD_PATH


#: equipment: 0 laser, 1 shield, 2 cargo hold, 3 drive (the drive type is chosen when bought)
EQUIPMENT_NAMES = data.EQUIPMENT_TYPES
DRIVE_NAMES = ("no drive", "yellow drive", "red drive", "combined drive")
#: encounter effects (data.ENCOUNTER_EFFECTS): credits (+/-), lose the turn, free MP
ENCOUNTER_EFFECTS = data.ENCOUNTER_EFFECTS

#: the tables of the default model (data.py), flattened into knob defaults so a scenario can change any entry
_D = data.DEFAULT_DATA
CULTURE_NAMES = tuple(c.name for c in _D.cultures)
GOOD_NAMES = tuple(c.good for c in _D.cultures)
#: the engine's passenger places: culture 0..13, 14 Galactic Base (data: culture number 1..14, 0 GB)
GB_PLACE = 14


#: what ``bonus_item`` may give a seat at the start: an equipment item, or one race-tech token of a kind
#: (the default data's tech names, lower case with underscores; the kind's index follows the tech tables)
BONUS_EQUIPMENT = data.EQUIPMENT_ITEMS
BONUS_TECHS = tuple(t.name.lower().replace(" ", "_") for t in _D.race_techs)
BONUS_ITEMS = ("none", *BONUS_EQUIPMENT, *BONUS_TECHS)


def _last_seat(c: MerchantOfVenusConfig) -> int:
    return c.players - 1


def _ints(name: str) -> tuple[int, ...]:
    return tuple(int(x) for x in _D.array(name).reshape(-1))


def _place(number: int) -> int:
    return GB_PLACE if number == data.GALACTIC_BASE else number - 1


_BUYER_MASKS = tuple(int(sum(1 << b for b in range(N_CULTURES) if row[b])) for row in _D.array("buys_from"))


def _masks(d: data.GameData) -> tuple[int, ...]:
    return tuple(int(sum(1 << b for b in range(N_CULTURES) if row[b])) for row in d.array("buys_from"))


def table_preset(buyers: str = "derived", prices: str = "standard") -> dict[str, object]:
    """The knob overrides that play data.py's named buyer and price tables (a sensitivity preset)."""
    d = data.load_data(buyers=buyers, prices=prices)
    return {"buyer_masks": _masks(d), "good_resale": tuple(int(x) for x in d.array("resale").reshape(-1))}


_EQUIP_MASKS = tuple(int((1 << int(e[0])) | (1 << int(e[1]))) for cu in _D.array("market_equipment") for e in cu)


def mission_targets(board_file: str) -> tuple[int, ...]:
    """The data's mission targets in the engine's codes: a market system's index (the board's order, as in
    ``rules.board_arrays``) or 100 + a route's line index on the board."""
    bd = load_board(board_path(board_file))
    market = list(bd.market_systems)
    out = []
    for m in _D.missions:
        if m.kind == data.MISSION_KINDS.index("system"):
            out.append(market.index(bd.system_names.index(m.target)))
        else:
            out.append(100 + bd.line_names.index(m.target))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class MerchantOfVenusConfig(GameConfig):
    """Every number of the Merchant of Venus rules page (see each field's provenance and description)."""

    PRESETS: ClassVar[dict[str, dict[str, object]]] = {
        "rulebook": {},
        "literal_purses": {"seat_extra_reading": "literal"},
        "short": {"rounds": 10},
        # data.py's alternative tables (sensitivity): the classic game's buyer lists, other price spreads
        "classic_buyers": table_preset(buyers="classic"),
        "narrow_prices": table_preset(prices="narrow"),
        "wide_prices": table_preset(prices="wide"),
        "flat_prices": table_preset(prices="flat"),
    }
    DEFAULT_PRESET: ClassVar[str] = "rulebook"
    PRESET_ALIASES: ClassVar[dict[str, str]] = {"standard": "rulebook"}
    PYTHON_ONLY: ClassVar[dict[str, str]] = {
        "board_file": "read in Python into the config record's board arrays (derive_config)",
    }

    players: int = knob(4, "rulebook", "number of players (2 to 4; the solo challenge is not modelled)", range=(2, 4))
    board_file: str = knob(
        "",
        "placeholder",
        "the board graph (JSON; '' = the shipped data/board_classic.json, the classic side as a proxy)",
    )
    # -- rounds and the round track -----------------------------------------------------------------
    rounds: int = knob(
        30, "assumption", "rounds in a game (the seed prints '0 körön át': 10, 20 or 30)", range=(1, None)
    )
    passenger_every: int = knob(
        3, "placeholder", "a passenger symbol on every k-th round of the track", range=(1, None)
    )
    drill_every: int = knob(5, "placeholder", "a drill symbol on every k-th round of the track", range=(1, None))
    # -- starting purses --------------------------------------------------------------------------------
    credits_per_player: int = knob(
        20, "rulebook", "each player starts with this × the number of players", range=(0, None)
    )
    third_seat_extra: int = knob(
        20, "assumption", "extra credits of the '3rd player' (the seed's digit is lost)", range=(0, None)
    )
    fourth_seat_extra: int = knob(40, "rulebook", "extra credits of the '4th player'", range=(0, None))
    seat_extra_reading: str = knob(
        "turn_order",
        "assumption",
        "which seats are the '3rd' and '4th': turn_order (3rd/4th to act) or literal (counter-clockwise "
        "from the start player: in 4p the 2nd to act gets the 4th's extra)",
        record=None,
        choices=SEAT_EXTRA_READINGS,
    )
    start_player: int = knob(
        0,
        "derived",
        "seat that takes the first turn: -1 drawn at random (the rulebook); k: seat k, so seat numbers are "
        "turn-order positions (a relabelling of the same games, which seat analyses need)",
        range=(0, _last_seat),
        also=(-1,),
        hash_default=False,
    )
    purse_offset: tuple[int, ...] = knob(
        (0, 0, 0, 0),
        "intervention",
        "experiment knob: credits added to each seat's rulebook purse (the compensation knob; may be negative)",
        hash_default=False,
    )
    bonus_item: str = knob(
        "none",
        "intervention",
        "experiment knob: an equipment item or a race tech (by name) bonus_item_seat starts with",
        record=None,
        choices=BONUS_ITEMS,
        hash_default=False,
    )
    bonus_item_seat: int = knob(
        -1,
        "intervention",
        "seat that starts with bonus_item (-1: nobody)",
        record=None,
        range=(0, _last_seat),
        also=(-1,),
        hash_default=False,
    )
    # -- dashboard ---------------------------------------------------------------------------------------
    start_holds: int = knob(2, "rulebook", "cargo holds each ship starts with", range=(0, None))
    max_holds: int = knob(4, "rulebook", "most cargo holds (2 more can be bought)", range=(0, None))
    dial_high: int = knob(
        2, "rulebook", "the chosen dial (laser or shield) starts here; the other at dial_low", range=(0, None)
    )
    dial_low: int = knob(1, "rulebook", "the other dial's start", range=(0, None))
    max_dial: int = knob(6, "assumption", "highest laser and shield dial value", range=(1, None))
    pilot_upgrade_price: tuple[int, ...] = knob(
        (0, 100, 200, 300), "placeholder", "price at Galactic Base of pilot level 1..4 (level 1 is the start)"
    )
    upgrade_slots: int = knob(3, "assumption", "ship-upgrade places on the dashboard", range=(0, None))
    # -- movement -------------------------------------------------------------------------------------
    speed_dice: int = knob(3, "rulebook", "speed dice rolled each movement", range=(1, None))
    max_dice: int = knob(4, "rulebook", "never more than this many speed dice in a turn", range=(1, None))
    thrust_die_values: tuple[int, ...] = knob(
        (1,), "assumption", "die values that may be assigned to thrust (the seed's '-es': 1 or 2)", record=None
    )
    grey_mp: int = knob(1, "rulebook", "MP to move along a grey (solid or dashed) line", record=None, range=(1, None))
    green_mp: int = knob(
        2, "rulebook", "MP to move along a green line (orbit to surface city)", record=None, range=(1, None)
    )
    surface_mp: int = knob(
        2, "placeholder", "MP to move along a surface line (city to city; not in the seed)", record=None
    )
    hazard_seed: int = knob(
        HAZARD_SEED, "placeholder", "seed of the board's table of which dial each hazard space tests", record=None
    )
    drive_skips_hazards: bool = knob(True, "assumption", "a hazard or encounter on a space the drive skips is not met")
    hazard_six_fails: bool = knob(True, "derived", "a 6 on the effect die always fails a hazard test")
    # -- goods and markets ---------------------------------------------------------------------------
    good_buy: tuple[int, ...] = knob(
        _ints("buy"), "placeholder", "buy price of each culture's good (data: cultures)", range=(0, None)
    )
    good_resale: tuple[int, ...] = knob(
        _ints("resale"), "placeholder", "resale at a low, active, high market, culture by culture (data: cultures)"
    )
    goods_tokens: tuple[int, ...] = knob(
        _ints("goods_tokens"), "rulebook", "goods tokens of each culture", range=(0, None)
    )
    buyer_masks: tuple[int, ...] = knob(
        _BUYER_MASKS, "derived", "per good: bit b set when culture b+1 buys it (data: i+1..i+4; Perfume: 2-5 H)"
    )
    iou: tuple[int, ...] = knob(_ints("iou"), "placeholder", "IOU credits on each culture's contact card")
    sold_goods_to: str = knob(
        "buyer",
        "assumption",
        "whose supply a sold good goes to: buyer (the port-fee example) or producer",
        record=None,
        choices=SOLD_GOODS_TO,
    )
    market_shifts: bool = knob(
        True,
        "rulebook",
        "the market shifts after a turn with a sale there (False: frozen markets, a counterfactual: the top "
        "token never moves, so no production either)",
        hash_default=False,
    )
    contact_buys: int = knob(3, "rulebook", "buy actions at first contact", range=(0, None))
    contact_sells: int = knob(3, "rulebook", "sell actions at first contact", range=(0, None))
    contact_trade_stacks: bool = knob(
        False, "assumption", "the Trade step's own allowance comes on top of the contact allowance"
    )
    city_buys: int = knob(1, "rulebook", "buy actions after entering a surface city this turn", range=(0, None))
    city_sells: int = knob(1, "rulebook", "sell actions after entering a surface city this turn", range=(0, None))
    equipment_pairs: tuple[int, ...] = knob(
        _EQUIP_MASKS,
        "placeholder",
        "equipment each culture's low/active/high token offers (4-bit mask: laser, shield, hold, drive; data)",
    )
    laser_price: int = knob(
        int(_D.array("item_price")[0]), "placeholder", "price of a laser (+1 on the dial)", range=(0, None)
    )
    shield_price: int = knob(
        int(_D.array("item_price")[1]), "placeholder", "price of a shield (+1 on the dial)", range=(0, None)
    )
    hold_price: int = knob(int(_D.array("item_price")[2]), "placeholder", "price of a cargo hold", range=(0, None))
    drive_price: tuple[int, ...] = knob(
        _ints("item_price")[3:6], "placeholder", "price of a yellow, red, combined drive"
    )
    # -- race technologies ---------------------------------------------------------------------------
    race_techs: tuple[int, ...] = knob(
        _ints("race_tech_tokens"), "rulebook", "race-tech tokens of each culture", range=(0, None)
    )
    culture_tech: tuple[int, ...] = knob(
        _ints("culture_tech"), "placeholder", "the tech kind each culture offers (all its tokens; data)"
    )
    tech_effect: tuple[int, ...] = knob(
        _ints("tech_effect"),
        "placeholder",
        "effect of each tech kind: 0 generic upgrade, 1 Thrust Booster, 2 Fuzzy Dice",
    )
    tech_price: tuple[int, ...] = knob(_ints("tech_price"), "placeholder", "price of each tech kind (class bands)")
    tech_max_owned: tuple[int, ...] = knob(
        _ints("tech_max_owned"), "rulebook", "copies of a tech kind one player may own (only the Data Probe: 2)"
    )
    # -- spaceports, drills -----------------------------------------------------------------------------
    port_price: int = knob(
        200, "derived", "price of a merchant spaceport (the seed's '00': 200 fits the end value)", range=(0, None)
    )
    port_fee: int = knob(10, "placeholder", "fee per buy or sell action at another player's port", range=(0, None))
    port_end_value: int = knob(200, "rulebook", "what each merchant spaceport sells for at the end", range=(0, None))
    multiple_ports: bool = knob(True, "rulebook", "a player may build more than one port in a turn")
    tokens_per_colour: int = knob(_D.tokens_per_colour, "rulebook", "port/drill tokens of each colour", range=(0, None))
    drill_income: int = knob(
        _D.drill_income, "placeholder", "credits per drill token taken back on a drill round", range=(0, None)
    )
    # -- passengers -------------------------------------------------------------------------------------
    passenger_origin: tuple[int, ...] = knob(
        tuple(_place(x) for x in _ints("passenger_origin")), "placeholder", "origin (culture 0..13, 14 Galactic Base)"
    )
    passenger_dest: tuple[int, ...] = knob(
        tuple(_place(x) for x in _ints("passenger_destination")),
        "placeholder",
        "destination (culture 0..13, 14 Galactic Base)",
    )
    passenger_fare: tuple[int, ...] = knob(_ints("passenger_fare"), "placeholder", "fare paid on delivery")
    passenger_fame: tuple[int, ...] = knob(_ints("passenger_fame"), "placeholder", "fame (negative: infamy)")
    passenger_holds: tuple[int, ...] = knob(_ints("passenger_holds"), "derived", "holds a passenger takes")
    # -- missions, rewards, encounters ---------------------------------------------------------------
    mission_target: tuple[int, ...] = knob(
        mission_targets(""),
        "placeholder",
        "each mission card's target: a market system 0..13 (the board's order) or 100 + a route line (data)",
    )
    mission_fame: tuple[int, ...] = knob(_ints("mission_fame"), "derived", "fame of each mission (3 missions = 6)")
    mission_credits: tuple[int, ...] = knob(_ints("mission_credits"), "placeholder", "credits of each mission")
    second_mission_price: int = knob(50, "placeholder", "price of a second mission at Galactic Base", range=(0, None))
    reward_cards: int = knob(10, "placeholder", "spare Reward cards for sale at Galactic Base", range=(0, None))
    reward_price: int = knob(150, "placeholder", "price of a spare Reward card", range=(0, None))
    reward_fame: int = knob(3, "derived", "fame of a Reward card (2 relic rewards = 6 fame)", range=(0, None))
    encounter_effect: tuple[int, ...] = knob(
        _ints("encounter_effect"), "placeholder", "each encounter card's effect: 0 credits, 1 lose the turn, 2 free MP"
    )
    encounter_amount: tuple[int, ...] = knob(_ints("encounter_amount"), "placeholder", "credits (+/-) or free MP")
    encounter_copies: tuple[int, ...] = knob(
        (4, 4, 3, 3), "placeholder", "copies of each encounter card in the deck (14 cards: one reading of '4')"
    )
    # -- fame and the end -------------------------------------------------------------------------------
    hold_fame: int = knob(3, "derived", "fame per extra cargo hold (2 holds = 6)", range=(0, None))
    upgrade_slot_fame: tuple[int, ...] = knob(
        (0, 2, 3), "derived", "fame of the 1st, 2nd, 3rd ship-upgrade place (the 2nd = 2; 1st 0, 3rd L)"
    )
    laser_fame_per_point: int = knob(1, "derived", "fame per laser dial point (laser 4 = 4)", range=(0, None))
    shield_fame_per_point: int = knob(0, "derived", "fame per shield dial point (none in the example)", range=(0, None))
    pilot_fame_offset: int = knob(1, "derived", "pilot fame = level - offset (level 2 = 1)")
    fame_credits: int = knob(10, "rulebook", "credits per total fame at the end", range=(0, None))
    fuzzy_double_credits: int = knob(
        20, "rulebook", "credits per fame when the Fuzzy Dice roll a double", range=(0, None)
    )
    eliminate_below: int = knob(0, "derived", "total fame below this eliminates a player")
    # -- named gaps: parts of the game the seed's pages do not have (setting one is an error) ---------------
    pirates_and_relics: bool = not_modelled("pirates and relic rewards: not in the seed's pages; off by default")
    telegates: bool = not_modelled("telegate spaces: on the standard board only; the proxy (classic) board has none")
    pilot_abilities: bool = not_modelled("the pilot kinds' own abilities: not in the seed; pilots have levels only")
    jettison: bool = not_modelled("making room by jettisoning cargo: not in the seed's pages")

    def bonus_code(self) -> int:
        """The engine's code of ``bonus_item``: -1 none, 0..5 an equipment item (data.EQUIPMENT_ITEMS order),
        6 + k one token of race-tech kind k."""
        return BONUS_ITEMS.index(self.bonus_item) - 1 if self.bonus_item in BONUS_ITEMS else -1

    def validate(self) -> None:
        require(2 <= self.players <= MAX_PLAYERS, f"players must be 2 to {MAX_PLAYERS}, got {self.players}")
        require(
            self.seat_extra_reading in SEAT_EXTRA_READINGS,
            f"seat_extra_reading must be one of {', '.join(SEAT_EXTRA_READINGS)}, got {self.seat_extra_reading!r}",
        )
        require(
            self.sold_goods_to in SOLD_GOODS_TO,
            f"sold_goods_to must be one of {', '.join(SOLD_GOODS_TO)}, got {self.sold_goods_to!r}",
        )
        require(1 <= self.rounds <= MAX_ROUNDS, f"rounds must be 1..{MAX_ROUNDS}, got {self.rounds}")
        n = self.players
        require(
            -1 <= self.start_player < n,
            f"start_player must be -1 (random) or a seat 0..{n - 1}, got {self.start_player}",
        )
        require(
            len(self.purse_offset) == MAX_PLAYERS,
            f"purse_offset needs {MAX_PLAYERS} values (one per seat), got {self.purse_offset}",
        )
        require(
            self.bonus_item in BONUS_ITEMS,
            f"bonus_item must be one of {', '.join(BONUS_ITEMS)}, got {self.bonus_item!r}",
        )
        require(
            -1 <= self.bonus_item_seat < n,
            f"bonus_item_seat must be -1 or a seat 0..{n - 1}, got {self.bonus_item_seat}",
        )
        require(self.passenger_every >= 1 and self.drill_every >= 1, "passenger_every and drill_every must be >= 1")
        require(
            min(self.grey_mp, self.green_mp, self.surface_mp) >= 1,
            f"line costs grey_mp, green_mp and surface_mp must be >= 1 MP, got {self.grey_mp}, {self.green_mp}, "
            f"{self.surface_mp}",
        )
        board = check_board(board_path(self.board_file))  # the whole board, before a run: a broken file says what
        require(
            all(1 <= v <= 6 for v in self.thrust_die_values) and len(self.thrust_die_values) >= 1,
            f"thrust_die_values must be die faces 1..6, got {self.thrust_die_values}",
        )
        require(1 <= self.speed_dice <= self.max_dice <= 4, "need 1 <= speed_dice <= max_dice <= 4")
        require(1 <= self.start_holds <= self.max_holds <= 8, "need 1 <= start_holds <= max_holds <= 8")
        require(
            0 <= self.dial_low <= self.dial_high <= self.max_dial <= 9, "need dial_low <= dial_high <= max_dial <= 9"
        )
        require(len(self.pilot_upgrade_price) == MAX_PILOT_LEVEL, "pilot_upgrade_price needs one price per level 1..4")
        require(
            1 <= self.upgrade_slots <= 3 and len(self.upgrade_slot_fame) >= self.upgrade_slots,
            "upgrade_slots must be 1..3 with a fame for each",
        )
        for name in ("good_buy", "goods_tokens", "race_techs", "iou", "buyer_masks", "culture_tech"):
            v = getattr(self, name)
            require(len(v) == N_CULTURES and all(x >= 0 for x in v), f"{name} needs {N_CULTURES} values >= 0")
        require(len(self.good_resale) == 3 * N_CULTURES, "good_resale needs low, active, high per culture (42)")
        require(all(1 <= x <= 8 for x in self.goods_tokens), "goods_tokens must be 1..8 per culture")
        require(len(self.equipment_pairs) == 3 * N_CULTURES, "equipment_pairs needs 3 masks per culture (42)")
        require(len(self.drive_price) == 3, "drive_price needs yellow, red, combined")
        k = len(self.tech_price)
        require(1 <= k <= N_TECH_KINDS_MAX, f"tech_price: 1..{N_TECH_KINDS_MAX} tech kinds")
        require(
            len(self.tech_effect) == k and len(self.tech_max_owned) == k, "tech_effect, tech_max_owned: one per kind"
        )
        require(all(0 <= x < k for x in self.culture_tech), "culture_tech names an unknown tech kind")
        require(all(0 <= e <= 2 for e in self.tech_effect), "tech_effect must be 0, 1 or 2")
        require(sum(self.race_techs) <= 40, "at most 40 race-tech tokens")
        n = len(self.passenger_origin)
        require(1 <= n <= N_PASSENGERS_MAX, f"1..{N_PASSENGERS_MAX} passengers")
        for name in ("passenger_dest", "passenger_fare", "passenger_fame", "passenger_holds"):
            require(len(getattr(self, name)) == n, f"{name} needs one value per passenger ({n})")
        require(
            all(0 <= x <= GB_PLACE for x in self.passenger_origin + self.passenger_dest),
            "passenger origins and destinations are cultures 0..13 or 14 (Galactic Base)",
        )
        require(all(1 <= h <= 2 for h in self.passenger_holds), "a passenger takes 1 or 2 holds")
        m = len(self.mission_target)
        problem = mission_problem(board, self.mission_target)
        require(not problem, problem + "; give the board the lines its missions name, or set mission_target")
        require(1 <= m <= N_MISSIONS_MAX, f"1..{N_MISSIONS_MAX} missions")
        require(len(self.mission_fame) == m and len(self.mission_credits) == m, "mission_fame/credits: one per mission")
        e = len(self.encounter_effect)
        require(1 <= e <= N_ENCOUNTER_KINDS, f"1..{N_ENCOUNTER_KINDS} encounter cards")
        require(len(self.encounter_amount) == e and len(self.encounter_copies) == e, "encounter tables: one per card")
        require(all(0 <= x <= 2 for x in self.encounter_effect), "encounter_effect must be 0, 1 or 2")
        require(sum(self.encounter_copies) >= 1, "the encounter deck needs a card")
        require(self.tokens_per_colour >= 0, "tokens_per_colour must be >= 0")
        for name in (
            "port_price",
            "port_fee",
            "port_end_value",
            "drill_income",
            "credits_per_player",
            "third_seat_extra",
            "fourth_seat_extra",
            "fame_credits",
            "fuzzy_double_credits",
        ):
            require(getattr(self, name) >= 0, f"{name} must be >= 0")
        seats, base = self.players, self.credits_per_player * self.players
        require(
            base + min(self.purse_offset[:seats]) >= 0,
            f"purse_offset {self.purse_offset[:seats]} makes a starting purse negative ({base} + the offset); "
            f"keep every offset >= -{base}",
        )
        code = self.bonus_code()
        if code >= len(BONUS_EQUIPMENT) and self.bonus_item_seat >= 0:
            kind = code - len(BONUS_EQUIPMENT)
            require(
                kind < len(self.tech_price)
                and any(k == kind and m > 0 for k, m in zip(self.culture_tech, self.race_techs, strict=True)),
                f"bonus_item {self.bonus_item!r}: no culture offers a token of that race tech under these tables",
            )
