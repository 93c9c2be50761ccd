"""Merchant of Venus's component tables (cultures, market tokens, equipment, race techs, passengers, missions,
hazards, encounters), loaded from the JSON files beside this module and checked on load.

Every row carries a ``provenance`` per field ("rulebook" / "derived" / "proxy" / "placeholder"), so analyses can
flag results that rest on proxies. Alternative tables (buyer lists, price spreads, passengers) are chosen by name
in :func:`load_data`, which keeps a sensitivity sweep one scenario away. :class:`GameData` also holds int32 numpy
arrays the compiled engine reads; culture arrays are indexed by culture number − 1 (Nillis = 0 … Qossuth = 13).
Rule logic lives in rules.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.datafile import read_json
from simlab.core.errors import DataFileError

DATA_DIR = Path(__file__).with_name("data")
PROVENANCE_LEVELS = ("rulebook", "derived", "proxy", "placeholder")

N_CULTURES = 14
#: culture number of Galactic Base in passenger origins / destinations
GALACTIC_BASE = 0
#: goods tokens and race-tech tokens in the box (component list «76 Áru Jelző»; 34 race techs, rules page)
TOTAL_GOODS_TOKENS = 76
TOTAL_RACE_TECHS = 34

# Market demand of a market token; resale[c, demand] is the price a sale at that token pays.
DEMAND_LOW, DEMAND_ACTIVE, DEMAND_HIGH = 0, 1, 2
DEMANDS = ("low", "active", "high")

# Equipment types a market token offers (two of the four) and the six items bought under them.
EQ_LASER, EQ_SHIELD, EQ_HOLD, EQ_DRIVE = 0, 1, 2, 3
EQUIPMENT_TYPES = ("laser", "shield", "hold", "drive")
ITEM_LASER, ITEM_SHIELD, ITEM_HOLD, ITEM_YELLOW_DRIVE, ITEM_RED_DRIVE, ITEM_COMBINED_DRIVE = range(6)
EQUIPMENT_ITEMS = ("laser", "shield", "hold", "yellow_drive", "red_drive", "combined_drive")
# Drive on a dashboard (an item's drive code): which space colours it skips is board.SKIPS_COLOUR's business.
DRIVE_NONE, DRIVE_YELLOW, DRIVE_RED, DRIVE_COMBINED = 0, 1, 2, 3

# Race technologies.
TECH_GENERIC, TECH_THRUST_BOOSTER, TECH_FUZZY_DICE = 0, 1, 2
TECH_EFFECTS = ("generic", "thrust_booster", "fuzzy_dice")
TECH_CATEGORIES = ("ship_upgrade", "special", "accessory", "structural")
CLASS_BASIC, CLASS_PREMIUM, CLASS_LUXURY = 0, 1, 2
TECH_CLASSES = ("basic", "premium", "luxury")

# Missions and encounters.
MISSION_SYSTEM, MISSION_ROUTE = 0, 1
MISSION_KINDS = ("system", "route")
ENC_CREDITS, ENC_LOSE_TURN, ENC_FREE_MOVE = 0, 1, 2
ENCOUNTER_EFFECTS = ("credits", "lose_turn", "free_move")
HAZARD_DIALS = ("laser", "shield", "pilot")

BUYER_TABLES = ("derived", "classic")
PRICE_TABLES = ("standard", "narrow", "wide", "flat")
PASSENGER_TABLES = ("seeded", "classic")


# ---------------------------------------------------------------------------------------------- row checking
class _Rows:
    """Reads fields of the rows of one file, raising DataFileError that names the file, the row and the field."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, message: str) -> DataFileError:
        return DataFileError(f"{self.path}: {where}: {message}")

    def load(self) -> dict[str, Any]:
        if not self.path.exists() and not self.path.is_symlink():
            raise DataFileError(f"{self.path}: file not found (the data directory must hold it)")
        doc = read_json(self.path)  # bounded: no folder, FIFO or device; UTF-8 JSON, nested at most 64
        if not isinstance(doc, dict):
            raise DataFileError(f"{self.path}: expected a JSON object at the top level")
        return doc

    def section(self, doc: Mapping[str, Any], key: str, kind: type) -> Any:
        if key not in doc:
            raise self.fail(key, f"missing; the file must have a {kind.__name__} '{key}'")
        if not isinstance(doc[key], kind):
            raise self.fail(key, f"expected a {kind.__name__}, got {type(doc[key]).__name__}")
        return doc[key]

    def integer(self, row: Mapping[str, Any], where: str, field: str, lo: int, hi: int) -> int:
        if field not in row:
            raise self.fail(where, f"field '{field}' is missing; expected an integer in {lo}..{hi}")
        value = row[field]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(where, f"field '{field}' = {value!r}; expected an integer in {lo}..{hi}")
        return value

    def text(self, row: Mapping[str, Any], where: str, field: str) -> str:
        value = row.get(field)
        if not isinstance(value, str) or not value:
            raise self.fail(where, f"field '{field}' = {value!r}; expected a non-empty string")
        return value

    def choice(self, row: Mapping[str, Any], where: str, field: str, allowed: tuple[str, ...]) -> int:
        value = row.get(field)
        if value not in allowed:
            raise self.fail(where, f"field '{field}' = {value!r}; allowed: {', '.join(allowed)}")
        return allowed.index(value)

    def provenance(self, row: Mapping[str, Any], where: str, fields: tuple[str, ...]) -> dict[str, str]:
        prov = row.get("provenance")
        if not isinstance(prov, dict):
            raise self.fail(where, f"field 'provenance' is missing; expected {{field: level}} for {', '.join(fields)}")
        for field in fields:
            if prov.get(field) not in PROVENANCE_LEVELS:
                raise self.fail(
                    where,
                    f"provenance of '{field}' = {prov.get(field)!r}; allowed: {', '.join(PROVENANCE_LEVELS)}",
                )
        return {field: prov[field] for field in fields}

    def culture(self, row: Mapping[str, Any], where: str, field: str, base_allowed: bool = False) -> int:
        lo = GALACTIC_BASE if base_allowed else 1
        if field not in row:
            raise self.fail(where, f"field '{field}' is missing; expected a culture number {lo}..{N_CULTURES}")
        value = row[field]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= N_CULTURES:
            base = " (0 = Galactic Base)" if base_allowed else ""
            raise self.fail(
                where, f"field '{field}' = {value!r} is not a known culture; allowed: {lo}..{N_CULTURES}{base}"
            )
        return value


# ---------------------------------------------------------------------------------------------- row types
@dataclass(frozen=True)
class Culture:
    """One culture: its good, buy price, resale values by demand, token counts and IOU contact credits."""

    number: int
    name: str
    good: str
    buy: int
    resale: tuple[int, int, int]  # low, active, high
    goods_tokens: int
    race_techs: int
    iou: int
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class MarketToken:
    culture: int
    demand: int  # DEMAND_*
    equipment: tuple[int, int]  # EQ_* of the two types offered
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class EquipmentItem:
    name: str
    type: int  # EQ_*
    price: int
    effect: str
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class RaceTech:
    name: str
    culture: int
    category: str
    effect: int  # TECH_*
    tech_class: int  # CLASS_*
    price: int
    copies: int
    max_owned: int
    needs_die: bool
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class Passenger:
    name: str
    origin: int  # culture number, 0 = Galactic Base
    destination: int
    fare: int
    fame: int
    holds: int
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class Mission:
    name: str
    kind: int  # MISSION_*
    target: str  # a board system name (kind system) or route line id (kind route)
    fame: int
    credits: int
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class Encounter:
    name: str
    effect: int  # ENC_*
    amount: int
    provenance: Mapping[str, str]


@dataclass(frozen=True)
class GameData:
    """Every table of one model variant, as rows (for docs and reports) and int32 arrays (for the engine).

    Arrays (all int32, culture axes indexed by culture number − 1):
      buy[14], resale[14, 3] (culture, DEMAND_*), goods_tokens[14], race_tech_tokens[14], iou[14],
      buys_from[14, 14] (1 where culture b buys culture a's good: buys_from[a, b]),
      market_demand[14, 3], market_equipment[14, 3, 2] (EQ_* codes of the culture's token t, t = DEMAND_*),
      item_type[6], item_price[6] (ITEM_* order), item_drive[6] (DRIVE_* a drive item installs, else DRIVE_NONE),
      culture_tech[14] (index into the tech arrays of the tech the culture offers),
      tech_culture[n], tech_effect[n], tech_class[n], tech_price[n], tech_copies[n], tech_max_owned[n],
      tech_needs_die[n], passenger_origin/destination/fare/fame/holds[p] (origin/destination: culture number,
      0 = Galactic Base), mission_kind/fame/credits[m], encounter_effect/amount[e],
      hazard_dial[h] (index into HAZARD_DIALS).
    """

    buyers_table: str
    prices_table: str
    passengers_table: str
    cultures: tuple[Culture, ...]
    buyers: Mapping[int, tuple[int, ...]]
    buyers_provenance: str
    prices_provenance: str
    market_tokens: tuple[MarketToken, ...]
    equipment: tuple[EquipmentItem, ...]
    race_techs: tuple[RaceTech, ...]
    passengers: tuple[Passenger, ...]
    missions: tuple[Mission, ...]
    encounters: tuple[Encounter, ...]
    hazards: tuple[str, ...]
    hazard_test: Mapping[str, Any]
    drill_income: int
    tokens_per_colour: int
    arrays: Mapping[str, np.ndarray]

    def array(self, name: str) -> np.ndarray:
        """One int32 array by name (see the class docstring); an unknown name lists the known ones."""
        if name not in self.arrays:
            raise KeyError(f"no data array {name!r}; known: {', '.join(sorted(self.arrays))}")
        return self.arrays[name]

    def proxy_fields(self) -> list[str]:
        """'table[row].field' of every value that is not from the rulebook, for a report's proxy flag."""
        out = [f"buyers[{self.buyers_table}]"] if self.buyers_provenance != "rulebook" else []
        if self.prices_table != "standard":
            out.append(f"prices[{self.prices_table}]")
        groups: list[tuple[str, tuple[Any, ...]]] = [
            ("cultures", self.cultures),
            ("market_tokens", self.market_tokens),
            ("equipment", self.equipment),
            ("race_techs", self.race_techs),
            (f"passengers[{self.passengers_table}]", self.passengers),
            ("missions", self.missions),
            ("encounters", self.encounters),
        ]
        for table, rows in groups:
            for i, row in enumerate(rows):
                out += [f"{table}[{i}].{f}" for f, level in row.provenance.items() if level != "rulebook"]
        return out


# ---------------------------------------------------------------------------------------------- loaders
_CULTURE_FIELDS = ("name", "good", "buy", "low", "active", "high", "goods_tokens", "race_techs", "iou")


def load_cultures(path: Path) -> tuple[Culture, ...]:
    """The 14-row culture table; numbers 1..14 once each, low <= active <= high, token totals as in the box."""
    rows = _Rows(path)
    table = rows.section(rows.load(), "cultures", list)
    if len(table) != N_CULTURES:
        raise rows.fail("cultures", f"{len(table)} rows; expected {N_CULTURES} (one per culture number 1..14)")
    out: list[Culture] = []
    for i, row in enumerate(table):
        where = f"cultures[{i}]" + (f" ({row['name']})" if isinstance(row, dict) and "name" in row else "")
        if not isinstance(row, dict):
            raise rows.fail(where, f"expected an object with fields {', '.join(_CULTURE_FIELDS)}")
        number = rows.culture(row, where, "number")
        if number != i + 1:
            raise rows.fail(where, f"field 'number' = {number}; rows must be in culture order, expected {i + 1}")
        low, active, high = (rows.integer(row, where, f, 0, 10_000) for f in ("low", "active", "high"))
        if not low <= active <= high:
            raise rows.fail(where, f"resale low/active/high = {low}/{active}/{high}; expected low <= active <= high")
        out.append(
            Culture(
                number=number,
                name=rows.text(row, where, "name"),
                good=rows.text(row, where, "good"),
                buy=rows.integer(row, where, "buy", 1, 10_000),
                resale=(low, active, high),
                goods_tokens=rows.integer(row, where, "goods_tokens", 1, 20),
                race_techs=rows.integer(row, where, "race_techs", 0, 10),
                iou=rows.integer(row, where, "iou", 0, 10_000),
                provenance=rows.provenance(row, where, _CULTURE_FIELDS),
            )
        )
    for field, total, got in (
        ("goods_tokens", TOTAL_GOODS_TOKENS, sum(c.goods_tokens for c in out)),
        ("race_techs", TOTAL_RACE_TECHS, sum(c.race_techs for c in out)),
    ):
        if got != total:
            raise rows.fail("cultures", f"field '{field}' sums to {got}; the box holds {total}")
    return tuple(out)


def load_buyers(path: Path, name: str) -> tuple[dict[int, tuple[int, ...]], str]:
    """A named buyer table: culture -> the cultures that buy its good (never itself), and its provenance."""
    rows = _Rows(path)
    tables = rows.section(rows.section(rows.load(), "buyers", dict), name, dict) if name in BUYER_TABLES else None
    if tables is None:
        raise DataFileError(f"{path}: buyers: unknown table {name!r}; allowed: {', '.join(BUYER_TABLES)}")
    where = f"buyers[{name}]"
    prov = tables.get("provenance")
    if prov not in PROVENANCE_LEVELS:
        raise rows.fail(where, f"field 'provenance' = {prov!r}; allowed: {', '.join(PROVENANCE_LEVELS)}")
    lists = rows.section(tables, "lists", dict)
    out: dict[int, tuple[int, ...]] = {}
    for number in range(1, N_CULTURES + 1):
        buyers = lists.get(str(number))
        row = f"{where}.lists[{number}]"
        if not isinstance(buyers, list) or not buyers:
            raise rows.fail(row, f"missing or empty; expected a list of culture numbers 1..{N_CULTURES}")
        for b in buyers:
            if isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= N_CULTURES or b == number:
                raise rows.fail(row, f"buyer {b!r} is not a known culture other than {number}; allowed: 1..14")
        if len(set(buyers)) != len(buyers):
            raise rows.fail(row, f"buyer list {buyers} repeats a culture")
        out[number] = tuple(buyers)
    extra = sorted(set(lists) - {str(n) for n in range(1, N_CULTURES + 1)})
    if extra:
        raise rows.fail(f"{where}.lists", f"unknown culture(s) {', '.join(extra)}; allowed: 1..{N_CULTURES}")
    return out, prov


def load_prices(path: Path, name: str, cultures: tuple[Culture, ...]) -> tuple[tuple[Culture, ...], str]:
    """The cultures with resale values of the named spread (active ± spread); 'standard' keeps the culture table."""
    rows = _Rows(path)
    if name not in PRICE_TABLES:
        raise DataFileError(f"{path}: prices: unknown table {name!r}; allowed: {', '.join(PRICE_TABLES)}")
    table = rows.section(rows.section(rows.load(), "prices", dict), name, dict)
    where = f"prices[{name}]"
    prov = table.get("provenance")
    if prov not in PROVENANCE_LEVELS:
        raise rows.fail(where, f"field 'provenance' = {prov!r}; allowed: {', '.join(PROVENANCE_LEVELS)}")
    spread = rows.integer(table, where, "spread", 0, 1000)
    if name == "standard":
        return cultures, prov
    out = []
    for c in cultures:
        active = c.resale[DEMAND_ACTIVE]
        if active - spread < 0:
            raise rows.fail(where, f"spread {spread} makes {c.name}'s low resale negative (active {active})")
        levels = dict(c.provenance, low=prov, high=prov)
        out.append(
            Culture(
                c.number,
                c.name,
                c.good,
                c.buy,
                (active - spread, active, active + spread),
                c.goods_tokens,
                c.race_techs,
                c.iou,
                levels,
            )
        )
    return tuple(out), prov


def load_equipment(path: Path) -> tuple[EquipmentItem, ...]:
    """The six equipment items in ITEM_* order, each of a known type."""
    rows = _Rows(path)
    items = rows.section(rows.load(), "items", list)
    if [row.get("name") if isinstance(row, dict) else row for row in items] != list(EQUIPMENT_ITEMS):
        raise rows.fail("items", f"expected the items {', '.join(EQUIPMENT_ITEMS)} in that order")
    out = []
    for i, row in enumerate(items):
        where = f"items[{i}] ({row['name']})"
        out.append(
            EquipmentItem(
                name=row["name"],
                type=rows.choice(row, where, "type", EQUIPMENT_TYPES),
                price=rows.integer(row, where, "price", 1, 10_000),
                effect=rows.text(row, where, "effect"),
                provenance=rows.provenance(row, where, ("price", "effect")),
            )
        )
    return tuple(out)


def load_market_tokens(path: Path) -> tuple[MarketToken, ...]:
    """Three tokens per culture, one of each demand, each offering two different equipment types."""
    rows = _Rows(path)
    table = rows.section(rows.load(), "tokens", list)
    out = []
    for i, row in enumerate(table):
        where = f"tokens[{i}]"
        if not isinstance(row, dict):
            raise rows.fail(where, "expected an object with fields culture, demand, equipment, provenance")
        culture = rows.culture(row, where, "culture")
        demand = rows.choice(row, where, "demand", DEMANDS)
        eq = row.get("equipment")
        if not isinstance(eq, list) or len(eq) != 2 or len(set(eq)) != 2 or not set(eq) <= set(EQUIPMENT_TYPES):
            raise rows.fail(
                where, f"field 'equipment' = {eq!r}; expected two different types of {', '.join(EQUIPMENT_TYPES)}"
            )
        pair = (EQUIPMENT_TYPES.index(eq[0]), EQUIPMENT_TYPES.index(eq[1]))
        out.append(MarketToken(culture, demand, pair, rows.provenance(row, where, ("demand", "equipment"))))
    for number in range(1, N_CULTURES + 1):
        demands = sorted(t.demand for t in out if t.culture == number)
        if demands != [DEMAND_LOW, DEMAND_ACTIVE, DEMAND_HIGH]:
            got = ", ".join(DEMANDS[d] for d in demands) or "none"
            raise rows.fail("tokens", f"culture {number} has tokens [{got}]; expected one each of low, active, high")
    return tuple(sorted(out, key=lambda t: (t.culture, t.demand)))


_TECH_FIELDS = ("name", "culture", "category", "effect", "class", "price", "copies", "max_owned", "needs_die")


def load_race_techs(path: Path, cultures: tuple[Culture, ...]) -> tuple[RaceTech, ...]:
    """One tech kind per culture, as many copies as the culture's race-tech tokens, priced inside its class band."""
    rows = _Rows(path)
    doc = rows.load()
    table = rows.section(doc, "techs", list)
    bands = rows.section(doc, "class_bands", dict)
    out = []
    for i, row in enumerate(table):
        where = f"techs[{i}]" + (f" ({row['name']})" if isinstance(row, dict) and "name" in row else "")
        if not isinstance(row, dict):
            raise rows.fail(where, f"expected an object with fields {', '.join(_TECH_FIELDS)}")
        culture = rows.culture(row, where, "culture")
        tech_class = rows.choice(row, where, "class", TECH_CLASSES)
        lo, hi = bands.get(TECH_CLASSES[tech_class], (0, 0))
        price = rows.integer(row, where, "price", lo, hi)
        copies = rows.integer(row, where, "copies", 1, 10)
        if copies != cultures[culture - 1].race_techs:
            raise rows.fail(
                where,
                f"field 'copies' = {copies}; culture {culture} has {cultures[culture - 1].race_techs} race-tech tokens",
            )
        needs_die = row.get("needs_die")
        if not isinstance(needs_die, bool):
            raise rows.fail(where, f"field 'needs_die' = {needs_die!r}; expected true or false")
        out.append(
            RaceTech(
                name=rows.text(row, where, "name"),
                culture=culture,
                category=TECH_CATEGORIES[rows.choice(row, where, "category", TECH_CATEGORIES)],
                effect=rows.choice(row, where, "effect", TECH_EFFECTS),
                tech_class=tech_class,
                price=price,
                copies=copies,
                max_owned=rows.integer(row, where, "max_owned", 1, 2),
                needs_die=needs_die,
                provenance=rows.provenance(row, where, _TECH_FIELDS),
            )
        )
    offered = sorted(t.culture for t in out)
    if offered != list(range(1, N_CULTURES + 1)):
        raise rows.fail("techs", f"cultures offering a tech: {offered}; expected each of 1..14 exactly once")
    for effect in (TECH_THRUST_BOOSTER, TECH_FUZZY_DICE):
        if sum(t.effect == effect for t in out) != 1:
            raise rows.fail("techs", f"expected exactly one tech with effect '{TECH_EFFECTS[effect]}'")
    return tuple(out)


_PASSENGER_FIELDS = ("name", "origin", "destination", "fare", "fame", "holds")


def load_passengers(path: Path, name: str) -> tuple[Passenger, ...]:
    """A named passenger table; origin and destination are culture numbers (0 = Galactic Base) and differ."""
    rows = _Rows(path)
    if name not in PASSENGER_TABLES:
        raise DataFileError(f"{path}: tables: unknown passenger table {name!r}; allowed: {', '.join(PASSENGER_TABLES)}")
    table = rows.section(rows.section(rows.load(), "tables", dict), name, list)
    out = []
    for i, row in enumerate(table):
        where = f"tables[{name}][{i}]"
        if not isinstance(row, dict):
            raise rows.fail(where, f"expected an object with fields {', '.join(_PASSENGER_FIELDS)}")
        origin = rows.culture(row, where, "origin", base_allowed=True)
        destination = rows.culture(row, where, "destination", base_allowed=True)
        if origin == destination:
            raise rows.fail(where, f"origin and destination are both {origin}; a passenger must travel")
        out.append(
            Passenger(
                name=rows.text(row, where, "name"),
                origin=origin,
                destination=destination,
                fare=rows.integer(row, where, "fare", 0, 10_000),
                fame=rows.integer(row, where, "fame", -5, 5),
                holds=rows.integer(row, where, "holds", 1, 2),
                provenance=rows.provenance(row, where, _PASSENGER_FIELDS),
            )
        )
    if not out:
        raise rows.fail(f"tables[{name}]", "empty; expected at least one passenger")
    return tuple(out)


def _load_misc(path: Path) -> dict[str, Any]:
    rows = _Rows(path)
    doc = rows.load()
    missions = []
    for i, row in enumerate(rows.section(doc, "missions", list)):
        where = f"missions[{i}]"
        missions.append(
            Mission(
                name=rows.text(row, where, "name"),
                kind=rows.choice(row, where, "kind", MISSION_KINDS),
                target=rows.text(row, where, "target"),
                fame=rows.integer(row, where, "fame", 0, 10),
                credits=rows.integer(row, where, "credits", 0, 10_000),
                provenance=rows.provenance(row, where, ("kind", "target", "fame", "credits")),
            )
        )
    encounters = []
    for i, row in enumerate(rows.section(doc, "encounters", list)):
        where = f"encounters[{i}]"
        encounters.append(
            Encounter(
                name=rows.text(row, where, "name"),
                effect=rows.choice(row, where, "effect", ENCOUNTER_EFFECTS),
                amount=rows.integer(row, where, "amount", -10_000, 10_000),
                provenance=rows.provenance(row, where, ("effect", "amount")),
            )
        )
    hazards = []
    for i, row in enumerate(rows.section(doc, "hazards", list)):
        where = f"hazards[{i}]"
        rows.provenance(row, where, ("name", "dial"))
        hazards.append((rows.text(row, where, "name"), rows.choice(row, where, "dial", HAZARD_DIALS)))
    drills = rows.section(doc, "drills", dict)
    rows.provenance(drills, "drills", ("income_per_drill", "tokens_per_colour"))
    test = rows.section(doc, "hazard_test", dict)
    rows.provenance(test, "hazard_test", ("dice", "always_fails", "fail_if", "effect"))
    for table, got in (("missions", missions), ("encounters", encounters), ("hazards", hazards)):
        if not got:
            raise rows.fail(table, "empty; expected at least one row")
    return {
        "missions": tuple(missions),
        "encounters": tuple(encounters),
        "hazards": tuple(hazards),
        "hazard_test": dict(test),
        "drill_income": rows.integer(drills, "drills", "income_per_drill", 0, 10_000),
        "tokens_per_colour": rows.integer(drills, "drills", "tokens_per_colour", 1, 100),
    }


def _i32(values: Any) -> np.ndarray:
    out = np.asarray(values, dtype=np.int32)
    out.setflags(write=False)
    return out


def _arrays(
    cultures: tuple[Culture, ...],
    buyers: Mapping[int, tuple[int, ...]],
    tokens: tuple[MarketToken, ...],
    equipment: tuple[EquipmentItem, ...],
    techs: tuple[RaceTech, ...],
    passengers: tuple[Passenger, ...],
    misc: Mapping[str, Any],
) -> dict[str, np.ndarray]:
    buys_from = np.zeros((N_CULTURES, N_CULTURES), dtype=np.int32)
    for seller, bs in buyers.items():
        for b in bs:
            buys_from[seller - 1, b - 1] = 1
    market_demand = np.zeros((N_CULTURES, 3), dtype=np.int32)
    market_equipment = np.zeros((N_CULTURES, 3, 2), dtype=np.int32)
    for t in tokens:
        market_demand[t.culture - 1, t.demand] = t.demand
        market_equipment[t.culture - 1, t.demand] = t.equipment
    culture_tech = np.zeros(N_CULTURES, dtype=np.int32)
    for k, t in enumerate(techs):
        culture_tech[t.culture - 1] = k
    drives = {"yellow_drive": DRIVE_YELLOW, "red_drive": DRIVE_RED, "combined_drive": DRIVE_COMBINED}
    return {
        "buy": _i32([c.buy for c in cultures]),
        "resale": _i32([c.resale for c in cultures]),
        "goods_tokens": _i32([c.goods_tokens for c in cultures]),
        "race_tech_tokens": _i32([c.race_techs for c in cultures]),
        "iou": _i32([c.iou for c in cultures]),
        "buys_from": _i32(buys_from),
        "market_demand": _i32(market_demand),
        "market_equipment": _i32(market_equipment),
        "item_type": _i32([e.type for e in equipment]),
        "item_price": _i32([e.price for e in equipment]),
        "item_drive": _i32([drives.get(e.name, DRIVE_NONE) for e in equipment]),
        "culture_tech": _i32(culture_tech),
        "tech_culture": _i32([t.culture for t in techs]),
        "tech_effect": _i32([t.effect for t in techs]),
        "tech_class": _i32([t.tech_class for t in techs]),
        "tech_price": _i32([t.price for t in techs]),
        "tech_copies": _i32([t.copies for t in techs]),
        "tech_max_owned": _i32([t.max_owned for t in techs]),
        "tech_needs_die": _i32([t.needs_die for t in techs]),
        "passenger_origin": _i32([p.origin for p in passengers]),
        "passenger_destination": _i32([p.destination for p in passengers]),
        "passenger_fare": _i32([p.fare for p in passengers]),
        "passenger_fame": _i32([p.fame for p in passengers]),
        "passenger_holds": _i32([p.holds for p in passengers]),
        "mission_kind": _i32([m.kind for m in misc["missions"]]),
        "mission_fame": _i32([m.fame for m in misc["missions"]]),
        "mission_credits": _i32([m.credits for m in misc["missions"]]),
        "encounter_effect": _i32([e.effect for e in misc["encounters"]]),
        "encounter_amount": _i32([e.amount for e in misc["encounters"]]),
        "hazard_dial": _i32([dial for _, dial in misc["hazards"]]),
    }


def load_data(
    buyers: str = "derived",
    prices: str = "standard",
    passengers: str = "seeded",
    data_dir: Path | str = DATA_DIR,
) -> GameData:
    """All tables of one variant from ``data_dir``; a malformed file raises DataFileError naming file, row and field."""
    d = Path(data_dir)
    for name, allowed, kind in (
        (buyers, BUYER_TABLES, "buyers"),
        (prices, PRICE_TABLES, "prices"),
        (passengers, PASSENGER_TABLES, "passengers"),
    ):
        if name not in allowed:
            raise DataFileError(f"unknown {kind} table {name!r}; allowed: {', '.join(allowed)}")
    cultures = load_cultures(d / "cultures.json")
    buyer_lists, buyers_prov = load_buyers(d / "proxy_tables.json", buyers)
    cultures, prices_prov = load_prices(d / "proxy_tables.json", prices, cultures)
    tokens = load_market_tokens(d / "market_tokens.json")
    equipment = load_equipment(d / "equipment.json")
    techs = load_race_techs(d / "race_techs.json", cultures)
    riders = load_passengers(d / "passengers.json", passengers)
    misc = _load_misc(d / "misc_tables.json")
    return GameData(
        buyers_table=buyers,
        prices_table=prices,
        passengers_table=passengers,
        cultures=cultures,
        buyers=buyer_lists,
        buyers_provenance=buyers_prov,
        prices_provenance=prices_prov,
        market_tokens=tokens,
        equipment=equipment,
        race_techs=techs,
        passengers=riders,
        missions=misc["missions"],
        encounters=misc["encounters"],
        hazards=tuple(name for name, _ in misc["hazards"]),
        hazard_test=misc["hazard_test"],
        drill_income=misc["drill_income"],
        tokens_per_colour=misc["tokens_per_colour"],
        arrays=_arrays(cultures, buyer_lists, tokens, equipment, techs, riders, misc),
    )


#: the default model: derived buyer lists, the rules page's price table, the seeded passengers
DEFAULT_DATA = load_data()
