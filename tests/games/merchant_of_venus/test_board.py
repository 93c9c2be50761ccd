"""The Merchant of Venus board loader (``simlab.games.merchant_of_venus.board``): the shipped proxy board checks
out (every system reachable, the seed's 9 MP thrust example, die numbers on navigation spaces), the arrays agree
with the file, the distances are shortest paths, and one broken board per validation rule gives its named error."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from simlab.core.errors import DataFileError
from simlab.games.merchant_of_venus import board as B
from simlab.games.merchant_of_venus.data import DRIVE_COMBINED, DRIVE_NONE, DRIVE_RED, DRIVE_YELLOW

BOARD = B.DEFAULT_BOARD
RAW = json.loads(B.DEFAULT_BOARD_PATH.read_text())


def test_the_shipped_board_has_the_files_spaces_and_edges():
    assert BOARD.n_spaces == 268 and len(BOARD.edge_a) == 334
    assert BOARD.names[BOARD.galactic_base] == "Galactic Base"
    kinds = Counter(B.KINDS[k] for k in BOARD.kind.tolist())
    assert kinds == {"empty": 178, "hazard": 28, "encounter": 24, "city": 20, "asteroid": 12, "port": 5,
                     "galactic_base": 1}  # fmt: skip
    assert RAW["_provenance"]["level"] == "proxy"


def test_fourteen_market_systems_one_per_culture():
    names = {BOARD.system_names[s] for s in BOARD.market_systems}
    assert len(names) == 14
    assert {"Colony World", "Jungle World", "Asteroid System", "Space Station Planet"} <= names
    assert not names & {"Supernova", "Supergiant", "Galactic Base"}  # no market there


def test_every_system_is_reachable_from_galactic_base():
    reach = BOARD.dist[DRIVE_NONE, BOARD.galactic_base]
    assert (reach < np.iinfo(np.int32).max).all()
    for s in range(len(BOARD.system_names)):
        assert reach[BOARD.system == s].max() < 100, BOARD.system_names[s]


def test_the_seeds_thrust_example_galactic_base_to_a_colony_world_city_needs_9_mp():
    """«legalább 9-es mozgásértékre van szüksége» to reach a Colony World city from Galactic Base: the 3 dice
    (4, 2, 1 = 7) fall short, the thrust die (+5 = 12) gets there."""
    cities = BOARD.spaces_of_system("Colony World", B.KIND_CITY)
    mp = {BOARD.names[c]: int(BOARD.dist[DRIVE_NONE, BOARD.galactic_base, c]) for c in cities}
    assert mp == {"Southern Comfort": 9, "Shoemaker Levee": 10}
    assert min(mp.values()) == 9
    assert 4 + 2 + 1 < 9 <= 4 + 2 + 1 + 5


def test_the_9_mp_route_is_seven_grey_lines_and_one_green_line():
    path = _shortest_path(BOARD.galactic_base, BOARD.space("Southern Comfort"))
    assert [BOARD.names[i] for i in path] == ["Galactic Base", "gb_cw_1", "gb_cw_2", "gb_cw_3", "gb_cw_4",
                                              "cw_loop_6", "cw_loop_5", "cw_loop_4", "Southern Comfort"]  # fmt: skip
    kinds = [_line(a, b)[0] for a, b in itertools.pairwise(path)]
    assert kinds == [B.EDGE_GREY] * 7 + [B.EDGE_GREEN]


def _line(a: int, b: int) -> tuple[int, int]:
    k = list(BOARD.adj[a]).index(b)
    return int(BOARD.adj_kind[a, k]), int(BOARD.adj_mp[a, k])


def _shortest_path(a: int, b: int) -> list[int]:
    dist = BOARD.dist[DRIVE_NONE, a]
    path = [b]
    while path[-1] != a:
        v = path[-1]
        u = next(u for u in BOARD.adj[v][: BOARD.degree[v]] if dist[u] + _line(u, v)[1] == dist[v])
        path.append(int(u))
    return path[::-1]


def test_drives_skip_their_colour():
    gb, sc = BOARD.galactic_base, BOARD.space("Southern Comfort")
    by_drive = [int(BOARD.dist[d, gb, sc]) for d in (DRIVE_NONE, DRIVE_YELLOW, DRIVE_RED, DRIVE_COMBINED)]
    # the 9 MP route crosses two red spaces (gb_cw_1, cw_loop_6) and one yellow (gb_cw_3): each skipped costs 0
    colours = [B.COLOURS[BOARD.colour[i]] for i in _shortest_path(gb, sc)]
    assert colours.count("red") == 2 and colours.count("yellow") == 1
    assert by_drive == [9, 8, 7, 6]
    assert B.SKIPS[DRIVE_NONE].sum() == 0 and B.SKIPS[DRIVE_COMBINED].tolist() == [0, 1, 1, 0]


def test_distances_are_shortest_paths_for_every_drive():
    """Bellman optimality over all sources: no line shortens a distance, and every space but the source is reached
    along some line with equality."""
    n = BOARD.n_spaces
    for d in range(B.N_DRIVES):
        free = B.SKIPS[d][BOARD.colour]
        dist = BOARD.dist[d].astype(np.int64)
        assert (np.diag(dist) == 0).all()
        tight = np.zeros((n, n), dtype=bool)
        for a, b, mp in zip(BOARD.edge_a, BOARD.edge_b, BOARD.edge_mp, strict=True):
            for u, v in ((a, b), (b, a)):
                cost = 0 if free[v] else mp
                assert (dist[:, v] <= dist[:, u] + cost).all()
                tight[:, v] |= dist[:, v] == dist[:, u] + cost
        np.fill_diagonal(tight, True)
        assert tight.all()
    assert (BOARD.dist[DRIVE_NONE] == BOARD.dist[DRIVE_NONE].T).all()


def test_navigation_spaces_have_a_die_number_for_every_route_out():
    nav = np.flatnonzero(BOARD.navigation)
    assert len(nav) == 9
    for i in range(BOARD.n_spaces):
        exits = BOARD.nav_exit[i]
        if i in nav:
            neighbours = set(BOARD.adj[i][: BOARD.degree[i]].tolist())
            assert (exits >= 0).all() and set(exits.tolist()) == neighbours
            raw = RAW["spaces"][i]["navigation"]
            for target, dice in raw.items():
                assert all(BOARD.names[exits[d - 1]] == target for d in dice)
        else:
            assert (exits == -1).all()


def test_adjacency_is_symmetric_padded_and_costed_by_line_kind():
    assert BOARD.adj.shape == (268, 6) and BOARD.adj.dtype == np.int32
    for i in range(BOARD.n_spaces):
        deg = BOARD.degree[i]
        assert (BOARD.adj[i, deg:] == -1).all() and (BOARD.adj_kind[i, deg:] == -1).all()
        for v, kind, mp in zip(BOARD.adj[i, :deg], BOARD.adj_kind[i, :deg], BOARD.adj_mp[i, :deg], strict=True):
            assert i in BOARD.adj[v, : BOARD.degree[v]]
            assert mp == B.EDGE_MP[kind]
            if kind == B.EDGE_GREEN:
                assert (BOARD.kind[i] == B.KIND_CITY) != (BOARD.kind[v] == B.KIND_CITY)
    assert Counter(BOARD.edge_kind.tolist()) == {B.EDGE_GREY: 303, B.EDGE_GREEN: 20, B.EDGE_SURFACE: 11}


def test_arrays_follow_the_file():
    for i, s in enumerate(RAW["spaces"]):
        assert BOARD.names[i] == s["name"]
        assert B.COLOURS[BOARD.colour[i]] == (s["color"] or "none")
        assert (BOARD.system_names[BOARD.system[i]] if BOARD.system[i] >= 0 else None) == s["system"]
        assert (BOARD.line_names[BOARD.line[i]] if BOARD.line[i] >= 0 else None) == s["line"]
        assert BOARD.orbital[i] == ("orbit" in s) and BOARD.orbit_names[i] == s.get("orbit", "")
        assert BOARD.penalty[i] == s.get("penalty", 0)
    for name in ("kind", "colour", "system", "adj", "dist", "nav_exit", "edge_mp"):
        arr = getattr(BOARD, name)
        assert arr.dtype == np.int32 and not arr.flags.writeable, name
    assert BOARD.dist.shape == (4, 268, 268)


def test_space_and_system_lookups_name_the_board_when_unknown():
    with pytest.raises(DataFileError, match=r"board_classic\.json: no space named 'Venus'"):
        BOARD.space("Venus")
    with pytest.raises(DataFileError, match=r"no system named 'Mars'; known: Asteroid System"):
        BOARD.spaces_of_system("Mars")


def test_mission_targets_are_systems_and_routes_of_the_board():
    from simlab.games.merchant_of_venus.data import DEFAULT_DATA, MISSION_ROUTE, MISSION_SYSTEM

    for m in DEFAULT_DATA.missions:
        names = {MISSION_SYSTEM: BOARD.system_names, MISSION_ROUTE: BOARD.line_names}[m.kind]
        assert m.target in names, m
    market = {BOARD.system_names[s] for s in BOARD.market_systems}
    assert {m.target for m in DEFAULT_DATA.missions if m.kind == MISSION_SYSTEM} == market


def test_hazard_spaces_test_laser_shield_and_pilot_round_robin_from_a_seed():
    hazards = np.flatnonzero(BOARD.kind == B.KIND_HAZARD)
    assert (BOARD.hazard_dial[BOARD.kind != B.KIND_HAZARD] == -1).all()
    assert Counter(BOARD.hazard_dial[hazards].tolist()) == {0: 10, 1: 9, 2: 9}  # 28 hazard spaces
    order = np.random.default_rng(B.HAZARD_SEED).permutation(len(hazards))
    assert [int(BOARD.hazard_dial[hazards[p]]) for p in order] == [j % 3 for j in range(len(hazards))]
    other = B.load_board(B.DEFAULT_BOARD_PATH, hazard_seed=1)
    assert not (other.hazard_dial == BOARD.hazard_dial).all()


def test_surface_line_cost_is_a_load_parameter():
    board = B.load_board(B.DEFAULT_BOARD_PATH, edge_mp=(1, 2, 1))
    a, b = board.space("Southern Comfort"), board.space("Shoemaker Levee")
    assert board.dist[DRIVE_NONE, a, b] == 1 and BOARD.dist[DRIVE_NONE, a, b] == 2


# ---------------------------------------------------------------------------------------------- broken boards
def _write(tmp_path: Path, change) -> Path:
    doc = json.loads(B.DEFAULT_BOARD_PATH.read_text())
    change(doc)
    path = tmp_path / "broken_board.json"
    path.write_text(json.dumps(doc))
    return path


def _space(doc, name):
    return next(s for s in doc["spaces"] if s["name"] == name)


def _cut_off_supernova(doc):
    inside = {s["name"] for s in doc["spaces"] if s["system"] == "Supernova"}
    doc["edges"] = [e for e in doc["edges"] if (e["a"] in inside) == (e["b"] in inside)]


def _no_asteroid_ports(doc):
    for s in doc["spaces"]:
        if s["system"] == "Asteroid System" and s["type"] == "station":
            s["type"] = "dot"


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        (lambda d: d["edges"].append({"a": "Galactic Base", "b": "Venus", "kind": "route"}),
         r"edges\[334\]: dangling edge: 'b' = 'Venus' is not a space of the board"),
        (_cut_off_supernova,
         r"space 'SN_loop_01' \(system Supernova\) is unreachable from Galactic Base; \d+ space\(s\) cut off"),
        (lambda d: _space(d, "cloud_body_8").update(navigation={}),
         r"space 'cloud_body_8': navigation space without die numbers"),
        (lambda d: _space(d, "cloud_body_8")["navigation"].update({"Galactic Base": []}),
         r"space 'cloud_body_8': navigation route to 'Galactic Base' has no die numbers"),
        (lambda d: _space(d, "cloud_body_8")["navigation"].update({"Galactic Base": [7]}),
         r"space 'cloud_body_8': navigation die number 7; allowed 1\.\.6"),
        (lambda d: _space(d, "cloud_body_8")["navigation"].pop("Galactic Base"),
         r"space 'cloud_body_8': navigation has no route for die number\(s\) 2"),
        (lambda d: _space(d, "cloud_body_8")["navigation"].update({"cloud_body_7": [2, 3]}),
         r"space 'cloud_body_8': navigation die number 2 is given twice"),
        (lambda d: _space(d, "cloud_body_8")["navigation"].update({"Smoke Ring": [2]}),
         r"space 'cloud_body_8': navigation names 'Smoke Ring', which is not a neighbour"),
        (lambda d: _space(d, "Hoth Base").pop("type"),
         r"spaces\[\d+\] \('Hoth Base'\): field 'type' is missing; every space needs name, system, line, type"),
        (lambda d: d["edges"][5].pop("kind"), r"edges\[5\]: field 'kind' is missing"),
        (lambda d: d["spaces"].append(dict(d["spaces"][0])),
         r"spaces\[268\] \('AS_1_1'\): duplicate space id 'AS_1_1' \(also spaces\[0\]\)"),
        (lambda d: d["edges"].append(dict(d["edges"][0], a=d["edges"][0]["b"], b=d["edges"][0]["a"])),
         r"edges\[334\]: duplicate edge AS_1_2 - AS_1_1 \(also edges\[0\]\)"),
        (lambda d: _space(d, "Hoth Base").update(type="wormhole"),
         r"space 'Hoth Base': type 'wormhole'; allowed: dot, city, station, asteroid, penalty, qbox"),
        (lambda d: _space(d, "AS_1_1").update(color="green"),
         r"space 'AS_1_1': color 'green'; allowed: yellow, red, blue or null"),
        (lambda d: d["edges"][0].update(kind="warp"),
         r"edges\[0\] \(AS_1_1 - AS_1_2\): kind 'warp'; allowed: loop, explicit, route, orbit, surface"),
        (lambda d: d["edges"][0].update(kind="orbit"),
         r"edges\[0\]: orbit \(green\) line AS_1_1 - AS_1_2 must join one surface city to one orbital space"),
        (lambda d: _space(d, "Galactic Base").update(name="Base"),
         r"no space named 'Galactic Base'; the ships start there"),
        (_no_asteroid_ports,
         r"13 systems have a market \(a city or a port\) besides Galactic Base: .*; the game needs 14"),
    ],
)  # fmt: skip
def test_a_broken_board_names_the_file_and_the_space(tmp_path, change, pattern):
    path = _write(tmp_path, change)
    with pytest.raises(DataFileError, match=r"broken_board\.json: .*" + pattern):
        B.load_board(path)


def test_a_board_that_is_not_json_or_not_there(tmp_path):
    bad = tmp_path / "b.json"
    bad.write_text('{"spaces": [\n')
    with pytest.raises(DataFileError, match=r"b\.json: line 2 column 1: not valid JSON"):
        B.load_board(bad)
    with pytest.raises(DataFileError, match=r"nope\.json: board file not found"):
        B.load_board(tmp_path / "nope.json")
    (tmp_path / "e.json").write_text('{"spaces": [], "edges": []}')
    with pytest.raises(DataFileError, match=r"e\.json: 'spaces' is missing or empty"):
        B.load_board(tmp_path / "e.json")
