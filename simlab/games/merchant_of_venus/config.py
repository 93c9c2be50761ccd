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

from simlab.core.config import GameConfig, knob, require

MAX_PLAYERS = 4
N_CULTURES = 14
N_PASSENGERS_MAX = 40
N_TECH_KINDS_MAX = 24
N_ENCOUNTER_KINDS = 5
MAX_PILOT_LEVEL = 4

#: the two readings of the seat bonus (see the rules page, "Starting-money asymmetry")
SEAT_EXTRA_READINGS = ("turn_order", "literal")
#: where a sold good goes
SOLD_GOODS_TO = ("buyer", "producer")
DEFAULT_BOARD = "/work/shared/data/merchant_of_venus/board_classic.json"

CULTURE_NAMES = (
    "Nillis",
    "Volois",
    "Graw",
    "Niks",
    "Dell",
    "Human",
    "Shenna",
    "Yxklyx",
    "Zum",
    "Eeepeeep",
    "Whynom",
    "Cholos",
    "Wollow",
    "Qossuth",
)
GOOD_NAMES = (
    "Bionic Perfume",
    "Voil Silk",
    "Space Spice",
    "Mulch Wine",
    "Finest Dust",
    "Rock Videos",
    "Melf Pelts",
    "Immortal Grease",
    "Chicle Liquor",
    "Servo Mechanism",
    "Impossible Furniture",
    "Designer Genes",
    "Megalith Paperweight",
    "Psychotic Sculpture",
)
#: buy prices (rules page table: the classic game's, M; Perfume confirmed)
GOOD_BUY = (80, 140, 30, 20, 10, 120, 50, 50, 40, 200, 110, 60, 90, 160)
#: resale at the middle ("active") token (classic sell price; low/high are -/+ resale_step)
GOOD_ACTIVE = (140, 220, 80, 60, 50, 200, 110, 100, 90, 300, 180, 120, 160, 250)
GOODS_TOKENS = (5, 6, 6, 6, 6, 5, 6, 6, 6, 4, 5, 6, 5, 4)
RACE_TECHS = (2, 2, 3, 2, 3, 2, 3, 2, 2, 3, 3, 2, 3, 2)
IOU = (80, 120, 90, 80, 60, 90, 90, 100, 100, 100, 80, 90, 90, 120)

#: equipment: 0 laser, 1 shield, 2 cargo hold, 3 drive (the drive type is chosen when bought)
EQUIPMENT_NAMES = ("laser", "shield", "cargo hold", "drive")
#: drive kinds: 1 yellow, 2 red, 3 combined (a bit mask of the colours skipped)
DRIVE_NAMES = ("no drive", "yellow drive", "red drive", "combined drive")

#: encounter kinds (the proxy table of the rules page): gain credits, lose credits, end the turn, free MP,
#: gain a fame token
ENCOUNTER_NAMES = ("windfall", "toll", "lose the turn", "free move", "fame")


def _equipment_pairs() -> tuple[int, ...]:
    """The equipment pair each culture's low/active/high token offers, as a 4-bit mask (placeholder: a
    fixed round-robin over the six pairs of four equipment types, so every pair occurs 7 times)."""
    pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]
    out = []
    for c in range(N_CULTURES):
        for k in range(3):
            a, b = pairs[(3 * c + k) % 6]
            out.append((1 << a) | (1 << b))
    return tuple(out)


def _tech_of_token() -> tuple[int, ...]:
    """The tech kind of each of the 34 race-tech tokens, culture by culture (placeholder: 17 kinds × 2
    copies spread over the cultures, kind = token index mod 17; kind 0 Thrust Booster, kind 1 Fuzzy Dice)."""
    return tuple(j % 17 for j in range(sum(RACE_TECHS)))


def _tech_prices() -> tuple[int, ...]:
    """Price per tech kind (placeholder within the seed's class bands basic c10-40, premium c50-120, luxury
    c130-200: kinds cycle basic 40, premium 100, luxury 160)."""
    return tuple((40, 100, 160)[k % 3] for k in range(17))


def _passengers() -> tuple[tuple[int, ...], ...]:
    """A seeded-looking but fixed table of 15 passengers (placeholder): origin and destination (culture
    0..13 or 14 = Galactic Base), fare 40-150, fame 0-2, holds (two take 2: the seed's Diva and Caterer)."""
    origin, dest, fare, fame, holds = [], [], [], [], []
    for i in range(15):
        o = (i * 4) % 15
        d = (o + 5 + (i % 4)) % 15
        origin.append(o)
        dest.append(d)
        fare.append(40 + (i * 37) % 111)
        fame.append(i % 3)
        holds.append(2 if i in (3, 11) else 1)
    return tuple(origin), tuple(dest), tuple(fare), tuple(fame), tuple(holds)


_P_ORIGIN, _P_DEST, _P_FARE, _P_FAME, _P_HOLDS = _passengers()


@dataclasses.dataclass(frozen=True)
class MerchantOfVenusConfig(GameConfig):
    """Every number of the Merchant of Venus rules page (see each field's provenance and description)."""

    PRESETS: ClassVar[dict[str, dict[str, object]]] = {
        "standard": {},
        "literal_purses": {"seat_extra_reading": "literal"},
        "short": {"rounds": 10},
    }
    DEFAULT_PRESET: ClassVar[str] = "standard"
    PYTHON_ONLY: ClassVar[dict[str, str]] = {
        "board_file": "read in Python into the config record's board arrays (derive_config)",
    }

    players: int = knob(4, "rulebook", "number of players (2 to 4; the solo challenge is not modelled)")
    board_file: str = knob(DEFAULT_BOARD, "placeholder", "the board graph (JSON): the classic side as a proxy")
    # -- rounds and the round track -----------------------------------------------------------------
    rounds: int = knob(30, "assumption", "rounds in a game (the seed prints '0 körön át': 10, 20 or 30)")
    passenger_every: int = knob(3, "placeholder", "a passenger symbol on every k-th round of the track")
    drill_every: int = knob(5, "placeholder", "a drill symbol on every k-th round of the track")
    # -- starting purses --------------------------------------------------------------------------------
    credits_per_player: int = knob(20, "rulebook", "each player starts with this × the number of players")
    third_seat_extra: int = knob(20, "assumption", "extra credits of the '3rd player' (the seed's digit is lost)")
    fourth_seat_extra: int = knob(40, "rulebook", "extra credits of the '4th player'")
    seat_extra_reading: str = knob(
        "turn_order",
        "assumption",
        "which seats are the '3rd' and '4th': turn_order (3rd/4th to act) or literal (counter-clockwise "
        "from the start player: in 4p the 2nd to act gets the 4th's extra)",
        record=None,
        choices=SEAT_EXTRA_READINGS,
    )
    # -- dashboard ---------------------------------------------------------------------------------------
    start_holds: int = knob(2, "rulebook", "cargo holds each ship starts with")
    max_holds: int = knob(4, "rulebook", "most cargo holds (2 more can be bought)")
    dial_high: int = knob(2, "rulebook", "the chosen dial (laser or shield) starts here; the other at dial_low")
    dial_low: int = knob(1, "rulebook", "the other dial's start")
    max_dial: int = knob(6, "assumption", "highest laser and shield dial value")
    pilot_upgrade_price: tuple[int, ...] = knob(
        (0, 100, 200, 300), "placeholder", "price at Galactic Base of pilot level 1..4 (level 1 is the start)"
    )
    upgrade_slots: int = knob(3, "assumption", "ship-upgrade places on the dashboard")
    # -- movement -------------------------------------------------------------------------------------
    speed_dice: int = knob(3, "rulebook", "speed dice rolled each movement")
    max_dice: int = knob(4, "rulebook", "never more than this many speed dice in a turn")
    thrust_die_values: tuple[int, ...] = knob(
        (1,), "assumption", "die values that may be assigned to thrust (the seed's '-es': 1 or 2)", record=None
    )
    grey_mp: int = knob(1, "rulebook", "MP to move along a grey (solid or dashed) line")
    green_mp: int = knob(2, "rulebook", "MP to move along a green line (orbit to surface city)")
    drive_skips_hazards: bool = knob(True, "assumption", "a hazard or encounter on a space the drive skips is not met")
    hazard_six_fails: bool = knob(True, "derived", "a 6 on the effect die always fails a hazard test")
    # -- goods and markets ---------------------------------------------------------------------------
    good_buy: tuple[int, ...] = knob(GOOD_BUY, "placeholder", "buy price of each culture's good (classic prices)")
    good_active: tuple[int, ...] = knob(GOOD_ACTIVE, "placeholder", "resale at an active market (classic sell)")
    resale_step: int = knob(20, "placeholder", "low = active - step, high = active + step (Perfume high 160: H)")
    goods_tokens: tuple[int, ...] = knob(GOODS_TOKENS, "rulebook", "goods tokens of each culture")
    buyers_ahead: int = knob(4, "derived", "culture i's good sells to cultures i+1..i+k (mod 14)")
    iou: tuple[int, ...] = knob(IOU, "placeholder", "IOU credits on each culture's contact card")
    sold_goods_to: str = knob(
        "buyer",
        "assumption",
        "whose supply a sold good goes to: buyer (the port-fee example) or producer",
        record=None,
        choices=SOLD_GOODS_TO,
    )
    contact_buys: int = knob(3, "rulebook", "buy actions at first contact")
    contact_sells: int = knob(3, "rulebook", "sell actions at first contact")
    contact_trade_stacks: bool = knob(
        False, "assumption", "the Trade step's own allowance comes on top of the contact allowance"
    )
    city_buys: int = knob(1, "rulebook", "buy actions after entering a surface city this turn")
    city_sells: int = knob(1, "rulebook", "sell actions after entering a surface city this turn")
    equipment_pairs: tuple[int, ...] = knob(
        _equipment_pairs(),
        "placeholder",
        "equipment each culture's low/active/high token offers (4-bit mask: laser, shield, hold, drive)",
    )
    laser_price: int = knob(100, "placeholder", "price of a laser (+1 on the dial)")
    shield_price: int = knob(60, "placeholder", "price of a shield (+1 on the dial)")
    hold_price: int = knob(50, "placeholder", "price of a cargo hold")
    drive_price: tuple[int, ...] = knob((80, 120, 300), "placeholder", "price of a yellow, red, combined drive")
    # -- race technologies ---------------------------------------------------------------------------
    race_techs: tuple[int, ...] = knob(RACE_TECHS, "rulebook", "race-tech tokens of each culture")
    tech_of_token: tuple[int, ...] = knob(
        _tech_of_token(),
        "placeholder",
        "tech kind of each race-tech token (culture order); 0 Thrust Booster, 1 Fuzzy Dice",
    )
    tech_price: tuple[int, ...] = knob(_tech_prices(), "placeholder", "price of each tech kind")
    # -- spaceports, drills -----------------------------------------------------------------------------
    port_price: int = knob(200, "derived", "price of a merchant spaceport (the seed's '00': 200 fits the end value)")
    port_fee: int = knob(10, "placeholder", "fee per buy or sell action at another player's port")
    port_end_value: int = knob(200, "rulebook", "what each merchant spaceport sells for at the end")
    multiple_ports: bool = knob(True, "rulebook", "a player may build more than one port in a turn")
    tokens_per_colour: int = knob(12, "rulebook", "port/drill tokens of each colour")
    drill_income: int = knob(30, "placeholder", "credits per drill token taken back on a drill round")
    # -- passengers -------------------------------------------------------------------------------------
    passenger_origin: tuple[int, ...] = knob(_P_ORIGIN, "placeholder", "origin (culture 0..13, 14 Galactic Base)")
    passenger_dest: tuple[int, ...] = knob(_P_DEST, "placeholder", "destination (culture 0..13, 14 Galactic Base)")
    passenger_fare: tuple[int, ...] = knob(_P_FARE, "placeholder", "fare paid on delivery")
    passenger_fame: tuple[int, ...] = knob(_P_FAME, "placeholder", "fame (negative: infamy) on delivery")
    passenger_holds: tuple[int, ...] = knob(_P_HOLDS, "derived", "holds a passenger takes (two take 2, L)")
    # -- missions, rewards, encounters ---------------------------------------------------------------
    mission_copies: int = knob(2, "placeholder", "mission cards per destination (14 systems + 2 anomalies)")
    mission_fame: int = knob(2, "derived", "fame of a completed mission (3 missions = 6 fame)")
    mission_credits: int = knob(50, "placeholder", "credits of a completed mission")
    second_mission_price: int = knob(50, "placeholder", "price of a second mission at Galactic Base")
    reward_cards: int = knob(10, "placeholder", "spare Reward cards for sale at Galactic Base")
    reward_price: int = knob(150, "placeholder", "price of a spare Reward card")
    reward_fame: int = knob(3, "derived", "fame of a Reward card (2 relic rewards = 6 fame)")
    encounter_counts: tuple[int, ...] = knob(
        (4, 4, 3, 2, 1), "placeholder", "encounter cards by kind: windfall, toll, lose the turn, free move, fame"
    )
    encounter_amount: tuple[int, ...] = knob(
        (50, 30, 0, 3, 1), "placeholder", "credits won, credits lost, -, free MP, fame tokens"
    )
    # -- fame and the end -------------------------------------------------------------------------------
    hold_fame: int = knob(3, "derived", "fame per extra cargo hold (2 holds = 6)")
    upgrade_slot_fame: tuple[int, ...] = knob(
        (0, 2, 3), "derived", "fame of the 1st, 2nd, 3rd ship-upgrade place (the 2nd = 2; 1st 0, 3rd L)"
    )
    laser_fame_per_point: int = knob(1, "derived", "fame per laser dial point (laser 4 = 4)")
    shield_fame_per_point: int = knob(0, "derived", "fame per shield dial point (none in the example)")
    pilot_fame_offset: int = knob(1, "derived", "pilot fame = level - offset (level 2 = 1)")
    fame_credits: int = knob(10, "rulebook", "credits per total fame at the end")
    fuzzy_double_credits: int = knob(20, "rulebook", "credits per fame when the Fuzzy Dice roll a double")
    eliminate_below: int = knob(0, "derived", "total fame below this eliminates a player")

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
        require(1 <= self.rounds <= 99, f"rounds must be 1..99, got {self.rounds}")
        require(self.passenger_every >= 1 and self.drill_every >= 1, "passenger_every and drill_every must be >= 1")
        require(Path(self.board_file).is_file(), f"board_file {self.board_file!r} is not a file; give the board JSON")
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
        for name in ("good_buy", "good_active", "goods_tokens", "race_techs", "iou"):
            v = getattr(self, name)
            require(len(v) == N_CULTURES and all(x >= 0 for x in v), f"{name} needs {N_CULTURES} values >= 0")
        require(all(a - self.resale_step >= 0 for a in self.good_active), "resale_step leaves a negative low price")
        require(all(1 <= x <= 8 for x in self.goods_tokens), "goods_tokens must be 1..8 per culture")
        require(1 <= self.buyers_ahead <= 13, "buyers_ahead must be 1..13")
        require(len(self.equipment_pairs) == 3 * N_CULTURES, "equipment_pairs needs 3 masks per culture (42)")
        require(len(self.drive_price) == 3, "drive_price needs yellow, red, combined")
        require(len(self.tech_of_token) == sum(self.race_techs), "tech_of_token needs one kind per race-tech token")
        require(1 <= len(self.tech_price) <= N_TECH_KINDS_MAX, f"tech_price: 1..{N_TECH_KINDS_MAX} kinds")
        require(all(0 <= k < len(self.tech_price) for k in self.tech_of_token), "tech_of_token names an unknown kind")
        require(len(self.tech_price) >= 2, "tech kinds 0 (Thrust Booster) and 1 (Fuzzy Dice) must exist")
        n = len(self.passenger_origin)
        require(1 <= n <= N_PASSENGERS_MAX, f"1..{N_PASSENGERS_MAX} passengers")
        for name in ("passenger_dest", "passenger_fare", "passenger_fame", "passenger_holds"):
            require(len(getattr(self, name)) == n, f"{name} needs one value per passenger ({n})")
        require(
            all(0 <= x <= N_CULTURES for x in self.passenger_origin + self.passenger_dest),
            "passenger origins and destinations are cultures 0..13 or 14 (Galactic Base)",
        )
        require(
            all(o != d for o, d in zip(self.passenger_origin, self.passenger_dest, strict=True)),
            "a passenger's destination must differ from its origin",
        )
        require(all(1 <= h <= 2 for h in self.passenger_holds), "a passenger takes 1 or 2 holds")
        require(
            len(self.encounter_counts) == N_ENCOUNTER_KINDS and len(self.encounter_amount) == N_ENCOUNTER_KINDS,
            f"encounter_counts and encounter_amount need {N_ENCOUNTER_KINDS} values",
        )
        require(sum(self.encounter_counts) >= 1, "the encounter deck needs a card")
        require(self.mission_copies >= 1, "mission_copies must be >= 1")
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
