"""Pantheon's board: loads a hex map file, checks it against the rules page's §9 properties and turns it into
the arrays the compiled engine reads (neighbour table, masks, starts, symbol spaces, distances).

The real board was never published as data, so the default map ``maps/mediterranean_approx.json`` is an
abstract placeholder (see ``maps/README.md``); a designer points the game's map config at another file and
gets the same checks: a map that breaks one raises ``DataFileError`` naming the file and the hex.

A map file is ``{"map": name, "provenance": ..., "hexes": [hex, ...]}``, each hex
``{"q": int, "r": int, "terrain": "land" | "water"}`` in axial coordinates, optionally with
``"column_space": true``, ``"start": nation`` or ``"symbol": {"nation": nation, "min_players": 2 | 3 | 4}``.

Distances: ``distance`` counts steps over every hex of the map (feet may stand on water), ``land_distance``
over land hexes only. A symbol or column space must be reachable from its nation's start over land; its
"distance from the start" must be at least ``DISTANCE_RANGE[0]`` steps (``distance``) and at most
``DISTANCE_RANGE[1]`` steps over land (``land_distance``).
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from simlab.core.datafile import read_json
from simlab.games.pantheon.data import NATIONS
from simlab.games.pantheon.table_loader import PROVENANCES, fail

MAPS_DIR = Path(__file__).with_name("maps")
DEFAULT_MAP = MAPS_DIR / "mediterranean_approx.json"

WATER, LAND = range(2)
#: axial coordinates beyond this are no map of a board game (and would overflow its int32 arrays)
MAX_COORD = 10_000
TERRAINS = ("water", "land")
#: axial neighbour offsets (q, r); the neighbour table's columns follow this order
AXIAL_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# The §9 properties every map must have.
SYMBOLS_PER_NATION = 5
#: symbol spaces per nation by the printed minimum player count: 3 always used, 1 marked "3", 1 marked "4"
SYMBOL_MARKING = {2: 3, 3: 1, 4: 1}
#: 48 columns at most 2 per hex
MIN_COLUMN_SPACES = 24
#: column spaces each nation needs within DISTANCE_RANGE of its start
MIN_NEARBY_COLUMN_SPACES = 3
#: symbol and column spaces lie this many steps from their start (lowest over any hex, highest over land)
DISTANCE_RANGE = (2, 5)
#: no column space closer than this to any start
MIN_COLUMN_START_DISTANCE = 2

HEX_FIELDS = ("q", "r", "terrain", "column_space", "start", "symbol")


@dataclasses.dataclass(frozen=True, eq=False)  # arrays: identity, not element-wise ==
class Board:
    """A checked map as arrays; hexes are indexed 0..n-1 in file order, nations in ``data.NATIONS`` order."""

    name: str
    path: Path
    provenance: str
    coords: np.ndarray  # int32 (n, 2): axial (q, r) of each hex
    neighbours: np.ndarray  # int32 (n, 6): neighbour hex per AXIAL_DIRECTIONS, -1 off the map
    land: np.ndarray  # bool (n,)
    column_space: np.ndarray  # bool (n,)
    start: np.ndarray  # int32 (8,): start hex of each nation
    start_nation: np.ndarray  # int32 (n,): nation whose start the hex is, -1 if none
    symbols: np.ndarray  # int32 (8, 5): symbol hexes of each nation, by min players then hex index
    symbol_min_players: np.ndarray  # int32 (8, 5): the printed minimum player count of each symbol
    symbol_nation: np.ndarray  # int32 (n,): nation of the hex's symbol, -1 if none
    hex_min_players: np.ndarray  # int32 (n,): min players of the hex's symbol, 0 if none
    distance: np.ndarray  # int32 (n, n): steps over any hex, -1 unreachable
    land_distance: np.ndarray  # int32 (n, n): steps over land hexes only, -1 unreachable

    @property
    def n_hexes(self) -> int:
        return len(self.coords)

    def index(self, q: int, r: int) -> int:
        """The hex index of axial (q, r); KeyError if the map has no such hex."""
        return self._index[(int(q), int(r))]

    @functools.cached_property
    def _index(self) -> dict[tuple[int, int], int]:
        return {(int(q), int(r)): i for i, (q, r) in enumerate(self.coords)}

    def symbols_in_use(self, players: int) -> np.ndarray:
        """int32 (8, 5): the symbol hexes used with ``players`` players, -1 for the unused ones."""
        return np.where(self.symbol_min_players <= players, self.symbols, -1).astype(np.int32)


def hex_label(i: int, h: Any) -> str:
    if isinstance(h, dict) and "q" in h and "r" in h:
        return f"hex {i} (q={h['q']}, r={h['r']})"
    return f"hex {i}"


def all_pairs(neighbours: np.ndarray, passable: np.ndarray) -> np.ndarray:
    """Steps between every two passable hexes through passable hexes (-1 unreachable or impassable); the same
    numbers as a breadth-first search from each hex, by scipy's breadth-first shortest paths."""
    n = len(neighbours)
    src, direction = np.nonzero(neighbours >= 0)
    dst = neighbours[src, direction]
    keep = passable[src] & passable[dst]
    graph = csr_matrix((np.ones(int(keep.sum())), (src[keep], dst[keep])), shape=(n, n))
    steps = shortest_path(graph, method="D", unweighted=True)
    out = np.where(np.isfinite(steps), steps, -1).astype(np.int32)
    out[~passable] = -1
    out[:, ~passable] = -1
    return out


def read_hexes(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if not path.exists() and not path.is_symlink():
        raise fail(path, "file", "not found; give an existing map file (the default is maps/mediterranean_approx.json)")
    doc = read_json(path, "map file")  # bounded: no folder, FIFO or device; UTF-8 JSON, nested at most 64
    if not isinstance(doc, dict) or not isinstance(doc.get("hexes"), list) or not doc["hexes"]:
        raise fail(path, "top level", 'expected an object {"map": name, "provenance": ..., "hexes": [...]}')
    for key in ("map", "provenance"):
        if key not in doc:
            raise fail(path, "top level", f"missing field {key!r}")
    if doc["provenance"] not in PROVENANCES:
        raise fail(path, "field 'provenance'", f"got {doc['provenance']!r}; allowed: {', '.join(PROVENANCES)}")
    hexes = doc["hexes"]
    for i, h in enumerate(hexes):
        check_hex(path, i, h)
    return doc, hexes


def check_hex(path: Path, i: int, h: Any) -> None:
    """One hex's fields: the types and names it may hold (the map-wide properties come later)."""
    label = hex_label(i, h)
    if not isinstance(h, dict):
        raise fail(path, label, "expected an object of fields")
    for name in h:
        if name not in HEX_FIELDS:
            raise fail(path, label, f"unknown field {name!r}; allowed fields: {', '.join(HEX_FIELDS)}")
    for name in ("q", "r", "terrain"):
        if name not in h:
            raise fail(path, label, f"missing field {name!r}")
    for name in ("q", "r"):
        if type(h[name]) is not int or not -MAX_COORD <= h[name] <= MAX_COORD:
            allowed = f"an integer from {-MAX_COORD} to {MAX_COORD} (axial coordinate)"
            raise fail(path, f"{label}, field {name!r}", f"got {h[name]!r}; allowed: {allowed}")
    if h["terrain"] not in TERRAINS:
        raise fail(path, f"{label}, field 'terrain'", f"got {h['terrain']!r}; allowed: 'land', 'water'")
    if "column_space" in h and type(h["column_space"]) is not bool:
        raise fail(path, f"{label}, field 'column_space'", f"got {h['column_space']!r}; allowed: true or false")
    nations = ", ".join(NATIONS)
    if "start" in h and h["start"] not in NATIONS:
        raise fail(path, f"{label}, field 'start'", f"unknown nation {h['start']!r}; allowed: {nations}")
    if "symbol" in h:
        s = h["symbol"]
        if not isinstance(s, dict) or set(s) != {"nation", "min_players"}:
            raise fail(path, f"{label}, field 'symbol'", 'expected {"nation": ..., "min_players": 2, 3 or 4}')
        if s["nation"] not in NATIONS:
            raise fail(path, f"{label}, field 'symbol.nation'", f"unknown nation {s['nation']!r}; allowed: {nations}")
        if type(s["min_players"]) is not int or s["min_players"] not in SYMBOL_MARKING:
            raise fail(path, f"{label}, field 'symbol.min_players'", f"got {s['min_players']!r}; allowed: 2, 3, 4")
    special = [k for k in ("start", "symbol") if k in h] + (["column_space"] if h.get("column_space") else [])
    if len(special) > 1:
        raise fail(path, label, f"holds {' and '.join(special)}; a hex is at most one of start, symbol, column space")
    if special and h["terrain"] != "land":
        raise fail(path, label, f"{special[0]} on water; starts, symbols and column spaces must be land")


@functools.cache
def _load(path: Path) -> Board:
    doc, hexes = read_hexes(path)
    n = len(hexes)
    index: dict[tuple[int, int], int] = {}
    for i, h in enumerate(hexes):
        key = (h["q"], h["r"])
        if key in index:
            raise fail(path, hex_label(i, h), f"duplicate hex; hex {index[key]} has the same coordinates")
        index[key] = i
    coords = np.array([[h["q"], h["r"]] for h in hexes], np.int32).reshape(n, 2)
    neighbours = np.full((n, 6), -1, np.int32)
    for i, (q, r) in enumerate(coords):
        for d, (dq, dr) in enumerate(AXIAL_DIRECTIONS):
            neighbours[i, d] = index.get((int(q + dq), int(r + dr)), -1)
    land = np.array([h["terrain"] == "land" for h in hexes], bool)
    column_space = np.array([bool(h.get("column_space", False)) for h in hexes], bool)
    start, start_nation = starts(path, hexes)
    symbol_nation = np.full(n, -1, np.int32)
    hex_min_players = np.zeros(n, np.int32)
    for i, h in enumerate(hexes):
        if "symbol" in h:
            symbol_nation[i] = NATIONS.index(h["symbol"]["nation"])
            hex_min_players[i] = h["symbol"]["min_players"]
    symbols, symbol_min = symbol_table(path, symbol_nation, hex_min_players)
    distance = all_pairs(neighbours, np.ones(n, bool))
    land_distance = all_pairs(neighbours, land)
    board = Board(
        name=str(doc["map"]),
        path=path,
        provenance=doc["provenance"],
        coords=coords,
        neighbours=neighbours,
        land=land,
        column_space=column_space,
        start=start,
        start_nation=start_nation,
        symbols=symbols,
        symbol_min_players=symbol_min,
        symbol_nation=symbol_nation,
        hex_min_players=hex_min_players,
        distance=distance,
        land_distance=land_distance,
    )
    check_distances(board, hexes)
    for field in dataclasses.fields(board):
        value = getattr(board, field.name)
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    return board


def load_map(path: str | Path | None = DEFAULT_MAP) -> Board:
    """Load and check a map file (the shipped placeholder for the default, None or ""); cached per resolved path."""
    return _load(Path(path or DEFAULT_MAP).resolve())


def starts(path: Path, hexes: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    start = np.full(len(NATIONS), -1, np.int32)
    start_nation = np.full(len(hexes), -1, np.int32)
    for i, h in enumerate(hexes):
        if "start" in h:
            nation = NATIONS.index(h["start"])
            if start[nation] >= 0:
                raise fail(path, hex_label(i, h), f"second start of {h['start']}; hex {start[nation]} is its start")
            start[nation] = i
            start_nation[i] = nation
    missing = [NATIONS[k] for k in range(len(NATIONS)) if start[k] < 0]
    if missing:
        raise fail(path, "starts", f"no start hex for {', '.join(missing)}; every one of the 8 nations needs one")
    return start, start_nation


def symbol_table(path: Path, symbol_nation: np.ndarray, min_players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    symbols = np.full((len(NATIONS), SYMBOLS_PER_NATION), -1, np.int32)
    symbol_min = np.zeros((len(NATIONS), SYMBOLS_PER_NATION), np.int32)
    for k, nation in enumerate(NATIONS):
        hexes = [int(i) for i in np.flatnonzero(symbol_nation == k)]
        marking = {p: sum(1 for i in hexes if min_players[i] == p) for p in SYMBOL_MARKING}
        if marking != SYMBOL_MARKING:
            raise fail(
                path,
                f"symbols of {nation}",
                f"{len(hexes)} symbol hexes {hexes} with min_players counts {marking}; "
                f"each nation needs {SYMBOLS_PER_NATION}: {SYMBOL_MARKING} (3 always used, 1 marked 3, 1 marked 4)",
            )
        hexes.sort(key=lambda i: (min_players[i], i))
        symbols[k] = hexes
        symbol_min[k] = [min_players[i] for i in hexes]
    return symbols, symbol_min


def check_distances(b: Board, hexes: list[dict[str, Any]]) -> None:
    """The map-wide §9 properties: symbols reachable over land within range, enough column spaces near each start."""
    lo, hi = DISTANCE_RANGE
    for k, nation in enumerate(NATIONS):
        s = b.start[k]
        for i in b.symbols[k]:
            where = f"{hex_label(int(i), hexes[i])}, symbol of {nation}"
            if b.land_distance[s, i] < 0:
                raise fail(b.path, where, f"not reachable over land from the start {hex_label(int(s), hexes[s])}")
            if b.distance[s, i] < lo or b.land_distance[s, i] > hi:
                raise fail(
                    b.path,
                    where,
                    f"{b.distance[s, i]} steps from the start ({b.land_distance[s, i]} over land); "
                    f"allowed: at least {lo} steps and at most {hi} over land",
                )
    columns = np.flatnonzero(b.column_space)
    if len(columns) < MIN_COLUMN_SPACES:
        raise fail(
            b.path, "column spaces", f"{len(columns)}; at least {MIN_COLUMN_SPACES} are needed (48 columns, 2 a hex)"
        )
    for i in columns:
        d = b.distance[b.start, i]
        near = int(np.argmin(np.where(d >= 0, d, np.iinfo(np.int32).max)))
        if 0 <= d[near] < MIN_COLUMN_START_DISTANCE:
            raise fail(
                b.path,
                f"{hex_label(int(i), hexes[i])}, column space",
                f"{d[near]} step(s) from the start of {NATIONS[near]}; allowed: at least {MIN_COLUMN_START_DISTANCE}",
            )
    for k, nation in enumerate(NATIONS):
        d, dl = b.distance[b.start[k], columns], b.land_distance[b.start[k], columns]
        nearby = int(np.sum((d >= lo) & (dl >= 0) & (dl <= hi)))
        if nearby < MIN_NEARBY_COLUMN_SPACES:
            raise fail(
                b.path,
                f"column spaces near {nation}",
                f"{nearby} within {lo}-{hi} steps over land of its start "
                f"{hex_label(int(b.start[k]), hexes[b.start[k]])}; at least {MIN_NEARBY_COLUMN_SPACES} are needed",
            )


def distance_histograms(b: Board, max_distance: int = 8) -> dict[str, dict[str, np.ndarray]]:
    """Per nation, int32 (max_distance + 1,) counts of its symbols and of all column spaces by land distance
    from its start (the last bin holds everything farther; unreachable hexes are left out)."""
    out: dict[str, dict[str, np.ndarray]] = {}
    columns = np.flatnonzero(b.column_space)
    for k, nation in enumerate(NATIONS):
        row = b.land_distance[b.start[k]]
        hist = {}
        for what, hexes in (("symbols", b.symbols[k]), ("column_spaces", columns)):
            d = row[hexes]
            d = np.minimum(d[d >= 0], max_distance)
            hist[what] = np.bincount(d, minlength=max_distance + 1).astype(np.int32)
        out[nation] = hist
    return out
