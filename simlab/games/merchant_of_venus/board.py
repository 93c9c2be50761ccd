"""The Merchant of Venus board as arrays the compiled engine and the bots read, loaded from a board JSON file and
checked on load (any file: a broken one raises DataFileError naming the file and the space or edge).

The file lists ``spaces`` (name, system, line, type, color; optional orbit, navigation, penalty, x, y) and
``edges`` (a, b, kind); an optional ``green_lines`` list (a, b) declares the green lines that join two spaces
of one system without a surface city (the standard board's Asteroid System: a merchant port is built from a
neutral port onto an orbital space three green lines away; the proxy board has none). Spaces are indexed in
file order. Line costs: grey lines (edge kinds loop / explicit /
route) 1 MP, green lines (kind orbit: orbital space <-> surface city) 2 MP (rulebook); surface lines (kind surface:
city <-> city of one planet) are not in the seed and cost 2 MP like a green line (placeholder, ``edge_mp`` of
:func:`load_board`). A drive skips spaces of its colour: entering such a space costs 0 MP (rulebook).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse.csgraph import csgraph_from_dense, shortest_path

from simlab.core.datafile import read_json
from simlab.core.errors import DataFileError
from simlab.games.merchant_of_venus.data import (
    DATA_DIR,
    DRIVE_COMBINED,
    DRIVE_NONE,
    DRIVE_RED,
    DRIVE_YELLOW,
    HAZARD_DIALS,
)

# Space kinds (file 'type' -> code); the space named GALACTIC_BASE_NAME gets KIND_GALACTIC_BASE.
KIND_EMPTY, KIND_CITY, KIND_PORT, KIND_ASTEROID, KIND_HAZARD, KIND_ENCOUNTER, KIND_GALACTIC_BASE = range(7)
KINDS = ("empty", "city", "port", "asteroid", "hazard", "encounter", "galactic_base")
FILE_TYPES = {
    "dot": KIND_EMPTY,  # an empty space of a system loop or a route
    "city": KIND_CITY,  # a surface city
    "station": KIND_PORT,  # a neutral spaceport printed on the board
    "asteroid": KIND_ASTEROID,  # drilling allowed (proxy)
    "penalty": KIND_HAZARD,  # the classic game's penalty spaces: hazard spaces (proxy)
    "qbox": KIND_ENCOUNTER,  # the classic game's random-token spaces: encounter spaces (proxy)
}
GALACTIC_BASE_NAME = "Galactic Base"

# Space colours; a drive skips the colours SKIPS[drive, colour] == 1.
COLOUR_NONE, COLOUR_YELLOW, COLOUR_RED, COLOUR_BLUE = range(4)
COLOURS = ("none", "yellow", "red", "blue")
FILE_COLOURS = {None: COLOUR_NONE, "yellow": COLOUR_YELLOW, "red": COLOUR_RED, "blue": COLOUR_BLUE}
N_DRIVES = 4  # data.DRIVE_NONE .. data.DRIVE_COMBINED
SKIPS = np.zeros((N_DRIVES, len(COLOURS)), dtype=np.int32)
SKIPS[DRIVE_YELLOW, COLOUR_YELLOW] = 1
SKIPS[DRIVE_RED, COLOUR_RED] = 1
SKIPS[DRIVE_COMBINED, COLOUR_YELLOW] = SKIPS[DRIVE_COMBINED, COLOUR_RED] = 1
SKIPS.setflags(write=False)

# Line (edge) kinds.
EDGE_GREY, EDGE_GREEN, EDGE_SURFACE = 0, 1, 2
EDGE_KINDS = ("grey", "green", "surface")
FILE_EDGE_KINDS = {
    "loop": EDGE_GREY,
    "explicit": EDGE_GREY,
    "route": EDGE_GREY,
    "orbit": EDGE_GREEN,
    "surface": EDGE_SURFACE,
}
#: MP per line kind (grey, green, surface): grey 1 and green 2 are the rulebook's, surface 2 a placeholder
EDGE_MP = (1, 2, 2)

N_DIE = 6
#: hazard spaces get a test (data.HAZARD_DIALS: laser / shield / pilot) round-robin over a permutation of the
#: hazard spaces in file order drawn with this seed (rules page 'Board (proxy)': a seeded table, placeholder)
HAZARD_SEED = 20261205
#: systems with a market (a city or a neutral port) besides Galactic Base: one per culture
N_MARKET_SYSTEMS = 14
_SPACE_FIELDS = ("name", "system", "line", "type", "color")
_EDGE_FIELDS = ("a", "b", "kind")
#: green lines between a neutral port and the orbital spaces a merchant port may be built on from it (rulebook,
#: Asteroid System: «három folytonos zöld vonal távolságban», three continuous green lines away)
PORT_GREEN_LINES = 3

DEFAULT_BOARD_PATH = DATA_DIR / "board_classic.json"


@dataclass(frozen=True)
class Board:
    """One board as arrays (all int32; n spaces, m edges, D = max degree).

    kind[n] KIND_*, colour[n] COLOUR_*, system[n] index into system_names or -1 (route spaces),
    line[n] index into line_names or -1, orbital[n] 1 for a named orbital site, navigation[n] 1 for a
    navigation space, nav_exit[n, 6] the neighbour a navigation die 1..6 (column die-1) leaves towards, -1 elsewhere,
    penalty[n] the classic penalty amount (0 if none), hazard_dial[n] the dial a hazard space tests (index into
    data.HAZARD_DIALS, -1 elsewhere; see HAZARD_SEED), x[n], y[n] drawing coordinates;
    adj[n, D] neighbours padded with -1, adj_kind[n, D] EDGE_* (-1 padding), adj_mp[n, D] MP of the line (-1
    padding), degree[n]; edge_a[m], edge_b[m], edge_kind[m], edge_mp[m];
    dist[4, n, n] fewest MP from a to b with drive d (data.DRIVE_*), entering a skipped space costing 0.
    """

    path: str
    names: tuple[str, ...]
    index: Mapping[str, int]
    system_names: tuple[str, ...]
    line_names: tuple[str, ...]
    orbit_names: tuple[str, ...]  # per space, "" if none
    galactic_base: int
    market_systems: tuple[int, ...]
    kind: np.ndarray
    colour: np.ndarray
    system: np.ndarray
    line: np.ndarray
    orbital: np.ndarray
    navigation: np.ndarray
    nav_exit: np.ndarray
    penalty: np.ndarray
    hazard_dial: np.ndarray
    x: np.ndarray
    y: np.ndarray
    adj: np.ndarray
    adj_kind: np.ndarray
    adj_mp: np.ndarray
    degree: np.ndarray
    edge_a: np.ndarray
    edge_b: np.ndarray
    edge_kind: np.ndarray
    edge_mp: np.ndarray
    dist: np.ndarray
    #: per neutral port (KIND_PORT) with any: the orbital spaces a path of exactly PORT_GREEN_LINES green lines
    #: leads to (through distinct spaces), in file order; only boards with ``green_lines`` have them
    port_sites: Mapping[int, tuple[int, ...]]

    @property
    def n_spaces(self) -> int:
        return len(self.names)

    def space(self, name: str) -> int:
        """Index of a space by name; an unknown name is a DataFileError naming the board file."""
        if name not in self.index:
            raise DataFileError(f"{self.path}: no space named {name!r}")
        return self.index[name]

    def distance(self, a: str, b: str, drive: int = DRIVE_NONE) -> int:
        """Fewest MP from space a to space b (names) with a drive (data.DRIVE_*)."""
        return int(self.dist[drive, self.space(a), self.space(b)])

    def spaces_of_system(self, system: str, kind: int | None = None) -> list[int]:
        """Indices of the spaces of a system (optionally of one KIND_*), in file order."""
        if system not in self.system_names:
            raise DataFileError(f"{self.path}: no system named {system!r}; known: {', '.join(self.system_names)}")
        s = self.system_names.index(system)
        return [i for i in range(self.n_spaces) if self.system[i] == s and (kind is None or self.kind[i] == kind)]


def _i32(values: Any) -> np.ndarray:
    out = np.asarray(values, dtype=np.int32)
    out.setflags(write=False)
    return out


def _read(path: Path) -> tuple[list[Any], list[Any], list[Any]]:
    if not path.exists() and not path.is_symlink():
        raise DataFileError(f"{path}: board file not found")
    doc = read_json(path, "board file")  # bounded: no folder, FIFO or device; UTF-8 JSON, nested at most 64
    if not isinstance(doc, dict):
        raise DataFileError(f"{path}: expected a JSON object with 'spaces' and 'edges'")
    for key in ("spaces", "edges"):
        if not isinstance(doc.get(key), list) or not doc[key]:
            raise DataFileError(f"{path}: '{key}' is missing or empty; expected a list")
    green = doc.get("green_lines", [])
    if not isinstance(green, list):
        raise DataFileError(f"{path}: 'green_lines' = {green!r}; expected a list of {{a, b}} objects (or no key)")
    return doc["spaces"], doc["edges"], green


def _check_spaces(path: Path, spaces: list[Any]) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, s in enumerate(spaces):
        label = f"spaces[{i}]" + (f" ({s['name']!r})" if isinstance(s, dict) and "name" in s else "")
        if not isinstance(s, dict):
            raise DataFileError(f"{path}: {label}: expected an object with fields {', '.join(_SPACE_FIELDS)}")
        for field in _SPACE_FIELDS:
            if field not in s:
                raise DataFileError(
                    f"{path}: {label}: field '{field}' is missing; every space needs "
                    f"{', '.join(_SPACE_FIELDS)} (system, line and color may be null)"
                )
        name = s["name"]
        if not isinstance(name, str) or not name:
            raise DataFileError(f"{path}: {label}: field 'name' = {name!r}; expected a non-empty string")
        if name in index:
            raise DataFileError(f"{path}: {label}: duplicate space id {name!r} (also spaces[{index[name]}])")
        if s["type"] not in FILE_TYPES:
            raise DataFileError(f"{path}: space {name!r}: type {s['type']!r}; allowed: {', '.join(FILE_TYPES)}")
        if s["color"] not in FILE_COLOURS:
            allowed = ", ".join(str(c) for c in FILE_COLOURS if c) + " or null"
            raise DataFileError(f"{path}: space {name!r}: color {s['color']!r}; allowed: {allowed}")
        for field in ("system", "line"):
            if s[field] is not None and not isinstance(s[field], str):
                raise DataFileError(
                    f"{path}: space {name!r}: field '{field}' = {s[field]!r}; expected a string or null"
                )
        index[name] = i
    if GALACTIC_BASE_NAME not in index:
        raise DataFileError(f"{path}: no space named {GALACTIC_BASE_NAME!r}; the ships start there")
    return index


def _check_edges(
    path: Path, edges: list[Any], spaces: list[Any], index: Mapping[str, int]
) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    seen: dict[tuple[int, int], int] = {}
    for j, e in enumerate(edges):
        label = f"edges[{j}]"
        if not isinstance(e, dict):
            raise DataFileError(f"{path}: {label}: expected an object with fields {', '.join(_EDGE_FIELDS)}")
        for field in _EDGE_FIELDS:
            if field not in e:
                raise DataFileError(f"{path}: {label}: field '{field}' is missing; every edge needs a, b, kind")
        for end in ("a", "b"):
            if e[end] not in index:
                raise DataFileError(f"{path}: {label}: dangling edge: '{end}' = {e[end]!r} is not a space of the board")
        if e["kind"] not in FILE_EDGE_KINDS:
            raise DataFileError(
                f"{path}: {label} ({e['a']} - {e['b']}): kind {e['kind']!r}; allowed: {', '.join(FILE_EDGE_KINDS)}"
            )
        a, b, kind = index[e["a"]], index[e["b"]], FILE_EDGE_KINDS[e["kind"]]
        if a == b:
            raise DataFileError(f"{path}: {label}: edge joins space {e['a']!r} to itself")
        key = (min(a, b), max(a, b))
        if key in seen:
            raise DataFileError(f"{path}: {label}: duplicate edge {e['a']} - {e['b']} (also edges[{seen[key]}])")
        seen[key] = j
        cities = (spaces[a]["type"] == "city") + (spaces[b]["type"] == "city")
        if kind == EDGE_GREEN and cities != 1:
            raise DataFileError(
                f"{path}: {label}: orbit (green) line {e['a']} - {e['b']} must join one surface city "
                "to one orbital space"
            )
        if kind == EDGE_SURFACE and cities != 2:
            raise DataFileError(f"{path}: {label}: surface line {e['a']} - {e['b']} must join two surface cities")
        out.append((a, b, kind))
    return out


def _check_green_lines(
    path: Path, green: list[Any], spaces: list[Any], index: Mapping[str, int], links: list[tuple[int, int, int]]
) -> list[tuple[int, int, int]]:
    """The optional ``green_lines``: green lines (2 MP) inside one system that join no surface city."""
    seen = {(min(a, b), max(a, b)): f"edges[{j}]" for j, (a, b, _) in enumerate(links)}
    out: list[tuple[int, int, int]] = []
    for j, e in enumerate(green):
        label = f"green_lines[{j}]"
        if not isinstance(e, dict) or "a" not in e or "b" not in e:
            raise DataFileError(f"{path}: {label}: expected an object with fields a, b (two space names)")
        for end in ("a", "b"):
            if e[end] not in index:
                raise DataFileError(f"{path}: {label}: dangling line: '{end}' = {e[end]!r} is not a space of the board")
        a, b = index[e["a"]], index[e["b"]]
        if a == b:
            raise DataFileError(f"{path}: {label}: green line joins space {e['a']!r} to itself")
        if "city" in (spaces[a]["type"], spaces[b]["type"]):
            raise DataFileError(
                f"{path}: {label}: {e['a']} - {e['b']} touches a surface city; a city's green line is an "
                "'orbit' edge in 'edges'"
            )
        if spaces[a]["system"] is None or spaces[a]["system"] != spaces[b]["system"]:
            raise DataFileError(
                f"{path}: {label}: {e['a']} (system {spaces[a]['system']}) - {e['b']} (system "
                f"{spaces[b]['system']}): a green line joins two spaces of one system"
            )
        key = (min(a, b), max(a, b))
        if key in seen:
            raise DataFileError(f"{path}: {label}: duplicate line {e['a']} - {e['b']} (also {seen[key]})")
        seen[key] = label
        out.append((a, b, EDGE_GREEN))
    return out


def _port_sites(kind: list[int], orbital: list[bool], links: list[tuple[int, int, int]]) -> dict[int, tuple[int, ...]]:
    """Per neutral port: the orbital spaces at the end of a path of exactly PORT_GREEN_LINES green lines."""
    green: dict[int, list[int]] = {}
    for a, b, k in links:
        if k == EDGE_GREEN:
            green.setdefault(a, []).append(b)
            green.setdefault(b, []).append(a)
    out: dict[int, tuple[int, ...]] = {}
    for port in (i for i, k in enumerate(kind) if k == KIND_PORT and i in green):
        paths = [[port]]
        for _ in range(PORT_GREEN_LINES):
            paths = [[*path, v] for path in paths for v in green.get(path[-1], []) if v not in path]
        ends = {path[-1] for path in paths if orbital[path[-1]] and kind[path[-1]] != KIND_PORT}
        if ends:
            out[port] = tuple(sorted(ends))
    return out


def _check_navigation(
    path: Path, spaces: list[Any], neighbours: list[set[int]], index: Mapping[str, int]
) -> np.ndarray:
    nav_exit = np.full((len(spaces), N_DIE), -1, dtype=np.int32)
    for i, s in enumerate(spaces):
        if "navigation" not in s:
            continue
        nav, name = s["navigation"], s["name"]
        allowed = "a {neighbour: [die numbers 1..6]} object naming every route out, each die number once"
        if not isinstance(nav, dict) or not nav:
            raise DataFileError(f"{path}: space {name!r}: navigation space without die numbers; expected {allowed}")
        for target, dice in nav.items():
            if target not in index or index[target] not in neighbours[i]:
                raise DataFileError(f"{path}: space {name!r}: navigation names {target!r}, which is not a neighbour")
            if not isinstance(dice, list) or not dice:
                raise DataFileError(
                    f"{path}: space {name!r}: navigation route to {target!r} has no die numbers; expected {allowed}"
                )
            for d in dice:
                if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= N_DIE:
                    raise DataFileError(f"{path}: space {name!r}: navigation die number {d!r}; allowed 1..6")
                if nav_exit[i, d - 1] >= 0:
                    raise DataFileError(f"{path}: space {name!r}: navigation die number {d} is given twice")
                nav_exit[i, d - 1] = index[target]
        missing = [d + 1 for d in range(N_DIE) if nav_exit[i, d] < 0]
        if missing:
            raise DataFileError(
                f"{path}: space {name!r}: navigation has no route for die number(s) "
                f"{', '.join(map(str, missing))}; expected {allowed}"
            )
        unnumbered = sorted(spaces[k]["name"] for k in neighbours[i] if k not in set(nav_exit[i].tolist()))
        if unnumbered:
            raise DataFileError(
                f"{path}: space {name!r}: navigation gives no die number to the route(s) to "
                f"{', '.join(unnumbered)}; expected {allowed}"
            )
    return nav_exit


def _check_reachable(path: Path, spaces: list[Any], neighbours: list[set[int]], start: int) -> None:
    seen, todo = {start}, [start]
    while todo:
        for v in neighbours[todo.pop()]:
            if v not in seen:
                seen.add(v)
                todo.append(v)
    lost = [i for i in range(len(spaces)) if i not in seen]
    if lost:
        first = spaces[lost[0]]
        systems = sorted({str(spaces[i]["system"]) for i in lost})
        raise DataFileError(
            f"{path}: space {first['name']!r} (system {first['system']}) is unreachable from "
            f"{GALACTIC_BASE_NAME}; {len(lost)} space(s) cut off, in systems {', '.join(systems)}"
        )


def _distances(n: int, edges: list[tuple[int, int, int]], colour: np.ndarray, edge_mp: tuple[int, ...]) -> np.ndarray:
    """All-pairs fewest MP per drive (scipy's Dijkstra on the directed graph where entering a skipped space costs 0;
    csgraph_from_dense keeps those zero-cost lines as edges)."""
    out = np.zeros((N_DRIVES, n, n), dtype=np.int32)
    for drive in range(N_DRIVES):
        free = SKIPS[drive][colour]
        weights = np.full((n, n), np.inf)
        for a, b, kind in edges:
            weights[a, b] = 0 if free[b] else edge_mp[kind]
            weights[b, a] = 0 if free[a] else edge_mp[kind]
        dist = shortest_path(csgraph_from_dense(weights, null_value=np.inf), method="D", directed=True)
        out[drive] = np.where(np.isfinite(dist), dist, np.iinfo(np.int32).max)
    out.setflags(write=False)
    return out


def _hazard_dials(kind: list[int], seed: int) -> np.ndarray:
    """The dial each hazard space tests: round-robin over a seeded permutation of the hazard spaces."""
    hazards = [i for i, k in enumerate(kind) if k == KIND_HAZARD]
    out = np.full(len(kind), -1, dtype=np.int32)
    for j, p in enumerate(np.random.default_rng(seed).permutation(len(hazards))):
        out[hazards[int(p)]] = j % len(HAZARD_DIALS)
    out.setflags(write=False)
    return out


def load_board(path: Path | str, edge_mp: tuple[int, int, int] = EDGE_MP, hazard_seed: int = HAZARD_SEED) -> Board:
    """Read and check a board file; every rule broken raises DataFileError naming the file and the space or edge."""
    path = Path(path)
    spaces, edges, green = _read(path)
    index = _check_spaces(path, spaces)
    links = _check_edges(path, edges, spaces, index)
    links += _check_green_lines(path, green, spaces, index, links)
    n = len(spaces)
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for a, b, _ in links:
        neighbours[a].add(b)
        neighbours[b].add(a)
    nav_exit = _check_navigation(path, spaces, neighbours, index)
    galactic_base = index[GALACTIC_BASE_NAME]
    _check_reachable(path, spaces, neighbours, galactic_base)

    system_names = tuple(sorted({s["system"] for s in spaces if s["system"] is not None}))
    line_names = tuple(sorted({s["line"] for s in spaces if s["line"] is not None}))
    kind = [FILE_TYPES[s["type"]] for s in spaces]
    kind[galactic_base] = KIND_GALACTIC_BASE
    system = [system_names.index(s["system"]) if s["system"] is not None else -1 for s in spaces]
    gb_system = system[galactic_base]
    market_systems = tuple(
        sorted({system[i] for i in range(n) if kind[i] in (KIND_CITY, KIND_PORT) and system[i] not in (-1, gb_system)})
    )
    if len(market_systems) != N_MARKET_SYSTEMS:
        names = ", ".join(system_names[s] for s in market_systems)
        raise DataFileError(
            f"{path}: {len(market_systems)} systems have a market (a city or a port) besides "
            f"{GALACTIC_BASE_NAME}: {names}; the game needs {N_MARKET_SYSTEMS}, one per culture"
        )
    for s in spaces:
        if s.get("orbit") is not None and not isinstance(s["orbit"], str):
            raise DataFileError(f"{path}: space {s['name']!r}: field 'orbit' = {s['orbit']!r}; expected a string")
        for field in ("penalty", "x", "y"):
            v = s.get(field, 0)
            if isinstance(v, bool) or not isinstance(v, int):
                raise DataFileError(f"{path}: space {s['name']!r}: field '{field}' = {v!r}; expected an integer")

    degree = max(len(nb) for nb in neighbours)
    adj = np.full((n, degree), -1, dtype=np.int32)
    adj_kind = np.full((n, degree), -1, dtype=np.int32)
    adj_mp = np.full((n, degree), -1, dtype=np.int32)
    fill = [0] * n
    for a, b, k in links:
        for u, v in ((a, b), (b, a)):
            adj[u, fill[u]], adj_kind[u, fill[u]], adj_mp[u, fill[u]] = v, k, edge_mp[k]
            fill[u] += 1
    colour = _i32([FILE_COLOURS[s["color"]] for s in spaces])
    for arr in (adj, adj_kind, adj_mp, nav_exit):
        arr.setflags(write=False)
    return Board(
        path=str(path),
        names=tuple(s["name"] for s in spaces),
        index=dict(index),
        system_names=system_names,
        line_names=line_names,
        orbit_names=tuple(s.get("orbit") or "" for s in spaces),
        galactic_base=galactic_base,
        market_systems=market_systems,
        kind=_i32(kind),
        colour=colour,
        system=_i32(system),
        line=_i32([line_names.index(s["line"]) if s["line"] is not None else -1 for s in spaces]),
        orbital=_i32([s.get("orbit") is not None for s in spaces]),
        navigation=_i32(["navigation" in s for s in spaces]),
        nav_exit=nav_exit,
        penalty=_i32([s.get("penalty", 0) for s in spaces]),
        hazard_dial=_hazard_dials(kind, hazard_seed),
        x=_i32([s.get("x", 0) for s in spaces]),
        y=_i32([s.get("y", 0) for s in spaces]),
        adj=adj,
        adj_kind=adj_kind,
        adj_mp=adj_mp,
        degree=_i32(fill),
        edge_a=_i32([a for a, _, _ in links]),
        edge_b=_i32([b for _, b, _ in links]),
        edge_kind=_i32([k for _, _, k in links]),
        edge_mp=_i32([edge_mp[k] for _, _, k in links]),
        dist=_distances(n, links, colour, edge_mp),
        port_sites=_port_sites(kind, [s.get("orbit") is not None for s in spaces], links),
    )


#: the proxy board (classic side's graph) the standard-game model plays on
DEFAULT_BOARD = load_board(DEFAULT_BOARD_PATH)
