"""Pantheon's data tables (rules page ``shared/rules/pantheon.md`` §1-§7): cards, sacrifice tiles, gods,
demigods, loot and bonus tiles, nations, scoring. Rule logic lives in rules.py.

The numbers live in the JSON files of ``tables/`` beside this module, every row with its provenance
("rulebook" = stated, H; "derived" = from a worked example, M; "placeholder" = not found anywhere, L), so the
real tile lists can replace the placeholders without code changes. The accessors return read-only int32 arrays
the compiled engine can take as they are. Tables with placeholder alternatives (god tiles, demigods) are chosen
by name (``GOD_TILE_TABLES``, ``DEMIGOD_TABLES``) or by the path of a designer's own file; a table that breaks
a stated total, names an unknown god or misses a field raises ``DataFileError`` naming the file, row and field.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from simlab.games.pantheon.table_loader import (
    PROVENANCES,
    Table,
    boolean,
    fail,
    integer,
    integer_list,
    load_table,
    one_of,
    text,
)

TABLES_DIR = Path(__file__).with_name("tables")

# Sacrifice kinds (cards and tiles).
GIFTS, PRIESTS, DANCERS, TEMPLES = range(4)
SACRIFICE_KINDS = ("gifts", "priests", "dancers", "temples")
MAX_TILE_LEVEL = 4

# Action card types, in deck-count order.
MOVEMENT, CARD_GIFTS, CARD_PRIESTS, CARD_DANCERS, CARD_TEMPLES, MONEY_1 = range(6)
CARD_TYPES = ("movement", "gifts", "priests", "dancers", "temples", "money_1")
CARD_EFFECTS = ("movement", "sacrifice", "money")

# Gods.
SURPARIT, PLAESIRIS, TAKSATOR, TRAITERA, DEPRACCUS, VINTHRAD, GAIVILES, STONKUS, GADICEA, PIETALTE = range(10)
GODS = (
    "Surparit",
    "Plaesiris",
    "Taksator",
    "Traitera",
    "Depraccus",
    "Vinthrad",
    "Gaiviles",
    "Stonkus",
    "Gadicea",
    "Pietalte",
)
YELLOW, BLUE = range(2)
COLOURS = ("yellow", "blue")
IMMEDIATE, ONCE, PERMANENT = range(3)
TIMINGS = ("immediate", "once", "permanent")
#: a requirement has 1 to 4 groups (one per kind at most); unused groups are 0 in the matrix
MAX_REQUIREMENT_GROUPS = 4

# Loot and bonus tile types and their effects.
LOOT_TYPES = (
    "supply_2_columns",
    "supply_2_feet",
    "supply_column_foot",
    "demigod",
    "god",
    "column",
    "sacrifice_1",
    "sacrifice_2",
    "draw_2",
    "draw_3",
    "money_card",
    "steps_1",
    "steps_2",
)
SUPPLY, DEMIGOD, GOD, COLUMN, SACRIFICE, DRAW, MONEY, STEPS = range(8)
LOOT_EFFECTS = ("supply", "demigod", "god", "column", "sacrifice", "draw", "money", "steps")

# Nations.
IBERIA, GALLIA, GERMANIA, ROMA, GRAECIA, AEGYPTUS, PERSIA, CARTAGO = range(8)
NATIONS = ("Iberia", "Gallia", "Germania", "Roma", "Graecia", "Aegyptus", "Persia", "Cartago")
NATION_ABILITIES = (
    "sacrifice_tile",
    "draw_or_flip_god",
    "hand_to",
    "draw_deck",
    "swap_pieces",
    "money_descending",
    "purchase",
)

#: component totals stated in the rulebook (§1); a table that breaks one is refused
TOTALS = {
    "action_cards": 75,
    "special_money": 7,
    "sacrifice_tiles": 32,
    "god_tiles": 40,
    "demigods": 21,
    "loot": 40,
    "bonus": 6,
}
MAX_DEMIGOD_VALUE = 6
MAX_COLUMNS = 12
ERAS = 6

#: bundled alternatives a scenario selects by name (any other value is taken as a file path)
GOD_TILE_TABLES = {"even": "god_tiles_even.json", "permanent_weighted": "god_tiles_permanent_weighted.json"}
DEMIGOD_TABLES = {"default": "demigods_default.json", "triangular": "demigods_triangular.json"}

SCORING_CONSTANTS = (
    "era_end_bonus",
    "first_scoring_era",
    "second_scoring_era",
    "eras",
    "columns_per_player",
    "feet_per_player",
    "start_columns",
    "start_feet",
    "start_hand",
    "display_cards",
    "draw_action_cards",
    "big_foot_steps",
    "nation_cards",
    "nations_per_game",
)

SCHEMAS = {
    "action_cards": (
        {
            "card": one_of(*CARD_TYPES),
            "effect": one_of(*CARD_EFFECTS),
            "sacrifice_kind": one_of(None, *SACRIFICE_KINDS),
            "value": integer(1, 10),
            "count": integer(0, 75),
        },
        "card",
    ),
    "special_money": ({"value": integer(1, 10), "count": integer(0, 7)}, "value"),
    "sacrifice_tiles": (
        {"kind": one_of(*SACRIFICE_KINDS), "tiles_level_1_2": integer(0, 32), "tiles_level_3_4": integer(0, 32)},
        "kind",
    ),
    "sacrifice_costs": ({"level": integer(1, MAX_TILE_LEVEL), "cost": integer(0, 100)}, "level"),
    "gods": ({"god": one_of(*GODS), "colour": one_of(*COLOURS), "timing": one_of(*TIMINGS)}, "god"),
    "god_tiles": (
        {
            "god": one_of(*GODS),
            "amount": integer(0, 9),
            "requirement": integer_list(1, MAX_REQUIREMENT_GROUPS, 1, 20),
            "cards_only": boolean(),
            "count": integer(0, 40),
        },
        "god",
    ),
    "demigods": ({"value": integer(1, MAX_DEMIGOD_VALUE), "count": integer(0, 21)}, "value"),
    "loot_bonus": (
        {
            "type": one_of(*LOOT_TYPES),
            "effect": one_of(*LOOT_EFFECTS),
            "columns": integer(0, MAX_COLUMNS),
            "feet": integer(0, 12),
            "amount": integer(0, 9),
            "loot": integer(0, 40),
            "bonus": integer(0, 6),
        },
        "type",
    ),
    "nations": (
        {"nation": one_of(*NATIONS), "ability": one_of(*NATION_ABILITIES), "amount": integer(0, 20), "region": text()},
        "nation",
    ),
    "column_scoring": (
        {
            "min_columns": integer(1, MAX_COLUMNS),
            "max_columns": integer(1, MAX_COLUMNS),
            "points_each": integer(0, 20),
        },
        "min_columns",
    ),
    "era_points": ({"era": integer(1, ERAS), "points": integer(0, 50)}, "era"),
    "scoring_constants": ({"name": one_of(*SCORING_CONSTANTS), "value": integer(0, 100)}, "name"),
}

#: the bundled file of each table kind, taken when the source is None or "" (a config's "use the default")
DEFAULT_FILES = {
    "action_cards": "action_cards.json",
    "special_money": "special_money.json",
    "sacrifice_tiles": "sacrifice_tiles.json",
    "sacrifice_costs": "sacrifice_costs.json",
    "gods": "gods.json",
    "god_tiles": GOD_TILE_TABLES["even"],
    "demigods": DEMIGOD_TABLES["default"],
    "loot_bonus": "loot_bonus.json",
    "nations": "nations.json",
    "column_scoring": "column_scoring.json",
    "era_points": "era_points.json",
    "scoring_constants": "scoring_constants.json",
}


def resolve(source: str | Path, named: Mapping[str, str]) -> Path:
    """A bundled table's name, or else the path of a designer's file."""
    if isinstance(source, str) and source in named:
        return TABLES_DIR / named[source]
    if isinstance(source, str) and not source.endswith(".json") and "/" not in source:
        raise fail(Path(source), "table name", f"unknown; bundled names: {', '.join(named)} (or give a .json path)")
    return Path(source)


def read(kind: str, source: str | Path | None = None, named: Mapping[str, str] | None = None) -> Table:
    """Load and check one table of ``kind`` (the schema's) from a bundled name or a path (None or "": the
    bundled default)."""
    schema, key = SCHEMAS[kind]
    if source is None or source == "":
        path = TABLES_DIR / DEFAULT_FILES[kind]
    else:
        path = resolve(source, named or {})
    return load_table(path, kind, schema, key)


def frozen(values: Iterable[Any], dtype: type = np.int32) -> np.ndarray:
    a = np.array(list(values), dtype=dtype)
    a.setflags(write=False)
    return a


def by_key(table: Table, field: str, names: tuple[Any, ...], what: str) -> list[Mapping[str, Any]]:
    """The rows in the order of ``names``: every name exactly once, else an error naming the gap."""
    seen: dict[Any, int] = {}
    for i, row in enumerate(table.rows):
        if row[field] in seen:
            raise fail(table.path, f"row {i} ({field}={row[field]!r})", f"duplicate; row {seen[row[field]]} has it")
        seen[row[field]] = i
    missing = [n for n in names if n not in seen]
    if missing:
        raise fail(
            table.path, f"field {field!r}", f"no row for {', '.join(map(repr, missing))}; every {what} needs one"
        )
    return [table.rows[seen[n]] for n in names]


def check_total(table: Table, field: str, total: int, what: str) -> None:
    got = sum(row[field] for row in table.rows)
    if got != total:
        raise fail(table.path, f"field {field!r}", f"the counts sum to {got}; the game has {total} {what}")


# --- action cards and special money -----------------------------------------------------------------------


@functools.cache
def action_cards(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("action_cards", source)
    check_total(t, "count", TOTALS["action_cards"], "action cards")
    for i, row in enumerate(by_key(t, "card", CARD_TYPES, "card type")):
        expected = "movement" if i == MOVEMENT else "money" if i == MONEY_1 else "sacrifice"
        kind = SACRIFICE_KINDS[i - CARD_GIFTS] if expected == "sacrifice" else None
        if row["effect"] != expected or row["sacrifice_kind"] != kind:
            where = f"row {t.rows.index(row)} (card={row['card']!r})"
            raise fail(t.path, where, f"expected effect {expected!r} and sacrifice_kind {kind!r}")
    return t


def card_counts() -> np.ndarray:
    """int32 (6,): copies of each action card type in the deck, indexed by ``CARD_TYPES``."""
    return frozen(r["count"] for r in by_key(action_cards(), "card", CARD_TYPES, "card type"))


def card_values() -> np.ndarray:
    """int32 (6,): what one card gives (steps, sacrifices of its kind, money), indexed by ``CARD_TYPES``."""
    return frozen(r["value"] for r in by_key(action_cards(), "card", CARD_TYPES, "card type"))


@functools.cache
def special_money(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("special_money", source)
    check_total(t, "count", TOTALS["special_money"], "special money cards")
    by_key(t, "value", tuple(r["value"] for r in t.rows), "value")
    return t


def special_money_stack() -> np.ndarray:
    """int32 (7,): the special money cards' values, ascending (the stack's order at set-up, top first)."""
    return frozen(sorted(r["value"] for r in special_money().rows for _ in range(r["count"])))


# --- sacrifice tiles -----------------------------------------------------------------------------------------


@functools.cache
def sacrifice_tiles(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("sacrifice_tiles", source)
    got = sum(r["tiles_level_1_2"] + r["tiles_level_3_4"] for r in t.rows)
    if got != TOTALS["sacrifice_tiles"]:
        raise fail(t.path, "fields 'tiles_level_1_2' + 'tiles_level_3_4'", f"sum to {got}; the game has 32 tiles")
    by_key(t, "kind", SACRIFICE_KINDS, "sacrifice kind")
    return t


def sacrifice_tile_counts() -> np.ndarray:
    """int32 (4, 2): per kind (``SACRIFICE_KINDS``) the tiles of the level-1/2 pile and of the level-3/4 pile."""
    rows = by_key(sacrifice_tiles(), "kind", SACRIFICE_KINDS, "sacrifice kind")
    return frozen([[r["tiles_level_1_2"], r["tiles_level_3_4"]] for r in rows])


@functools.cache
def sacrifice_cost_table(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("sacrifice_costs", source)
    rows = by_key(t, "level", tuple(range(1, MAX_TILE_LEVEL + 1)), "level")
    costs = [r["cost"] for r in rows]
    if any(b <= a for a, b in itertools.pairwise(costs)):
        raise fail(t.path, "field 'cost'", f"got {costs} by level; costs must rise with the level")
    return t


def sacrifice_costs() -> np.ndarray:
    """int32 (5,): printed cost of a tile by level 0..4 (level 0 = no tile = 0); an upgrade costs the difference."""
    rows = by_key(sacrifice_cost_table(), "level", tuple(range(1, MAX_TILE_LEVEL + 1)), "level")
    return frozen([0, *(r["cost"] for r in rows)])


# --- gods ----------------------------------------------------------------------------------------------------


@functools.cache
def god_catalogue(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("gods", source)
    by_key(t, "god", GODS, "god")
    return t


def god_colour() -> np.ndarray:
    """int32 (10,): ``COLOURS`` index of each god (``GODS`` order)."""
    return frozen(COLOURS.index(r["colour"]) for r in by_key(god_catalogue(), "god", GODS, "god"))


def god_timing() -> np.ndarray:
    """int32 (10,): ``TIMINGS`` index of each god (``GODS`` order)."""
    return frozen(TIMINGS.index(r["timing"]) for r in by_key(god_catalogue(), "god", GODS, "god"))


@dataclasses.dataclass(frozen=True, eq=False)  # arrays: identity, not element-wise ==
class GodTiles:
    """The 40 god tiles, one entry per physical tile (rows expanded by their count, in file order).

    ``requirement[i, g]`` is the size of group g of tile i (file order, so column 0 is the printed top number
    Gallia's ability asks for); unused groups are 0.
    """

    name: str
    path: Path
    god: np.ndarray  # int32 (40,), index into GODS
    amount: np.ndarray  # int32 (40,), effect size printed on the tile (Stonkus +1/+2)
    requirement: np.ndarray  # int32 (40, 4)
    n_groups: np.ndarray  # int32 (40,)
    cards_only: np.ndarray  # int32 (40,), 1 = payable with cards only (Pietalte)
    timing: np.ndarray  # int32 (40,), index into TIMINGS (from the god catalogue)
    colour: np.ndarray  # int32 (40,), index into COLOURS
    provenance: np.ndarray  # int32 (40,), index into PROVENANCES
    table: Table

    def counts(self) -> np.ndarray:
        """int32 (10,): tiles per god."""
        return frozen(np.bincount(self.god, minlength=len(GODS)))


@functools.cache
def god_tiles(source: str | Path = "even") -> GodTiles:
    """The god tiles of a bundled table (``GOD_TILE_TABLES``) or of a designer's file."""
    t = read("god_tiles", source, GOD_TILE_TABLES)
    check_total(t, "count", TOTALS["god_tiles"], "god tiles")
    for i, row in enumerate(t.rows):
        if len(row["requirement"]) > len(SACRIFICE_KINDS):
            raise fail(t.path, f"row {i} (god={row['god']!r}), field 'requirement'", "more groups than kinds")
    timing, colour = god_timing(), god_colour()
    tiles = [row for row in t.rows for _ in range(row["count"])]
    gods = [GODS.index(r["god"]) for r in tiles]
    req = np.zeros((len(tiles), MAX_REQUIREMENT_GROUPS), np.int32)
    for i, r in enumerate(tiles):
        req[i, : len(r["requirement"])] = r["requirement"]
    req.setflags(write=False)
    return GodTiles(
        name=str(source),
        path=t.path,
        god=frozen(gods),
        amount=frozen(r["amount"] for r in tiles),
        requirement=req,
        n_groups=frozen(len(r["requirement"]) for r in tiles),
        cards_only=frozen(int(r["cards_only"]) for r in tiles),
        timing=frozen(timing[g] for g in gods),
        colour=frozen(colour[g] for g in gods),
        provenance=frozen(PROVENANCES.index(r["provenance"]) for r in tiles),
        table=t,
    )


def god_requirement_matrix(source: str | Path = "even") -> np.ndarray:
    """int32 (40, 4): the sacrifice groups of every god tile (see ``GodTiles``)."""
    return god_tiles(source).requirement


def god_counts(source: str | Path = "even") -> np.ndarray:
    """int32 (10,): tiles per god (``GODS`` order)."""
    return god_tiles(source).counts()


# --- demigods ------------------------------------------------------------------------------------------------


@functools.cache
def demigod_table(source: str | Path = "default") -> Table:
    t = read("demigods", source, DEMIGOD_TABLES)
    check_total(t, "count", TOTALS["demigods"], "demigods")
    by_key(t, "value", tuple(range(1, MAX_DEMIGOD_VALUE + 1)), "face value")
    return t


def demigod_counts(source: str | Path = "default") -> np.ndarray:
    """int32 (7,): demigods per face value, indexed by the value 0..6 (index 0 is always 0)."""
    counts = np.zeros(MAX_DEMIGOD_VALUE + 1, np.int32)
    for r in demigod_table(source).rows:
        counts[r["value"]] = r["count"]
    counts.setflags(write=False)
    return counts


def demigod_values(source: str | Path = "default") -> np.ndarray:
    """int32 (21,): the face value of every demigod, ascending."""
    return frozen(np.repeat(np.arange(MAX_DEMIGOD_VALUE + 1), demigod_counts(source)))


# --- loot and bonus tiles ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, eq=False)  # arrays: identity, not element-wise ==
class LootTypes:
    """Loot and bonus tile types, each array indexed by ``LOOT_TYPES`` (13 types)."""

    effect: np.ndarray  # int32 (13,), index into LOOT_EFFECTS
    columns: np.ndarray  # int32 (13,), columns taken from the general supply (supply) / placed (column bonus)
    feet: np.ndarray  # int32 (13,), feet taken from the general supply
    amount: np.ndarray  # int32 (13,), cards drawn, sacrifice upgrades, steps per movement
    loot: np.ndarray  # int32 (13,), tiles of the type among the 40 loot tiles
    bonus: np.ndarray  # int32 (13,), tiles of the type among the 6 bonus tiles
    table: Table


@functools.cache
def loot_types(source: str | Path | None = None) -> LootTypes:
    """The loot/bonus mix: the bundled placeholder, or a designer's file."""
    t = read("loot_bonus", source)
    check_total(t, "loot", TOTALS["loot"], "loot tiles")
    check_total(t, "bonus", TOTALS["bonus"], "bonus tiles")
    rows = by_key(t, "type", LOOT_TYPES, "loot type")
    return LootTypes(
        effect=frozen(LOOT_EFFECTS.index(r["effect"]) for r in rows),
        columns=frozen(r["columns"] for r in rows),
        feet=frozen(r["feet"] for r in rows),
        amount=frozen(r["amount"] for r in rows),
        loot=frozen(r["loot"] for r in rows),
        bonus=frozen(r["bonus"] for r in rows),
        table=t,
    )


def loot_counts(source: str | Path | None = None) -> np.ndarray:
    """int32 (13,): loot tiles per type (``LOOT_TYPES``)."""
    return loot_types(source).loot


def bonus_counts(source: str | Path | None = None) -> np.ndarray:
    """int32 (13,): bonus tiles per type (``LOOT_TYPES``)."""
    return loot_types(source).bonus


# --- nations -------------------------------------------------------------------------------------------------


@functools.cache
def nations(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("nations", source)
    by_key(t, "nation", NATIONS, "nation")
    return t


def nation_ability() -> np.ndarray:
    """int32 (8,): ``NATION_ABILITIES`` index of each nation (``NATIONS`` order)."""
    return frozen(NATION_ABILITIES.index(r["ability"]) for r in by_key(nations(), "nation", NATIONS, "nation"))


def nation_amount() -> np.ndarray:
    """int32 (8,): the number in each nation's ability (cards, hand size, money; 0 if none)."""
    return frozen(r["amount"] for r in by_key(nations(), "nation", NATIONS, "nation"))


# --- scoring -------------------------------------------------------------------------------------------------


@functools.cache
def column_scoring(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("column_scoring", source)
    covered = [0] * (MAX_COLUMNS + 1)
    for i, r in enumerate(t.rows):
        if r["min_columns"] > r["max_columns"]:
            raise fail(t.path, f"row {i} (min_columns={r['min_columns']})", "min_columns is above max_columns")
        for n in range(r["min_columns"], r["max_columns"] + 1):
            covered[n] += 1
    bad = [n for n in range(1, MAX_COLUMNS + 1) if covered[n] != 1]
    if bad:
        counts = [covered[n] for n in bad]
        what = f"every total 1..{MAX_COLUMNS} needs exactly one band"
        raise fail(t.path, "bands", f"column totals {bad} are covered {counts} times; {what}")
    return t


def column_points_each() -> np.ndarray:
    """int32 (13,): points per own column at a scoring, indexed by the owner's column total 0..12."""
    each = np.zeros(MAX_COLUMNS + 1, np.int32)
    for r in column_scoring().rows:
        each[r["min_columns"] : r["max_columns"] + 1] = r["points_each"]
    each.setflags(write=False)
    return each


def column_score() -> np.ndarray:
    """int32 (13,): total column points at a scoring, indexed by the owner's column total 0..12."""
    return frozen(np.arange(MAX_COLUMNS + 1) * column_points_each())


@functools.cache
def era_point_table(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("era_points", source)
    by_key(t, "era", tuple(range(1, ERAS + 1)), "era")
    return t


def era_points() -> np.ndarray:
    """int32 (7,): points per god gained, indexed by the era 0..6 (index 0 = 0: what "era 0" scores is config)."""
    pts = np.zeros(ERAS + 1, np.int32)
    for r in era_point_table().rows:
        pts[r["era"]] = r["points"]
    pts.setflags(write=False)
    return pts


@functools.cache
def scoring_constants(source: str | Path | None = None) -> Table:
    """The bundled table, or a designer's file of the same kind (checked)."""
    t = read("scoring_constants", source)
    by_key(t, "name", SCORING_CONSTANTS, "constant")
    return t


def constant(name: str) -> int:
    """One number of ``scoring_constants.json`` (``SCORING_CONSTANTS``)."""
    if name not in SCORING_CONSTANTS:
        raise KeyError(f"unknown Pantheon constant {name!r}; known: {', '.join(SCORING_CONSTANTS)}")
    return next(r["value"] for r in scoring_constants().rows if r["name"] == name)


# --- provenance ----------------------------------------------------------------------------------------------


def all_tables() -> dict[str, Table]:
    """Every bundled table, loaded and checked (the named alternatives under ``kind:name``)."""
    out = {
        "action_cards": action_cards(),
        "special_money": special_money(),
        "sacrifice_tiles": sacrifice_tiles(),
        "sacrifice_costs": sacrifice_cost_table(),
        "gods": god_catalogue(),
        "loot_bonus": loot_types().table,
        "nations": nations(),
        "column_scoring": column_scoring(),
        "era_points": era_point_table(),
        "scoring_constants": scoring_constants(),
    }
    out.update({f"god_tiles:{n}": god_tiles(n).table for n in GOD_TILE_TABLES})
    out.update({f"demigods:{n}": demigod_table(n) for n in DEMIGOD_TABLES})
    return out


def placeholder_tables() -> list[str]:
    """The tables with at least one placeholder row or field, so a report can flag results that depend on them."""
    out = []
    for name, t in all_tables().items():
        provs = {t.provenance(i, f) for i, r in enumerate(t.rows) for f in (None, *r.get("field_provenance", {}))}
        if "placeholder" in provs:
            out.append(name)
    return out
