"""Pantheon's board (rules page §9): the shipped placeholder map has every stated property, the loader's
arrays agree with each other, and every check refuses a broken map naming the file and the hex."""

from __future__ import annotations

import copy
import json
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from simlab.core.errors import DataFileError
from simlab.games.pantheon import board as B
from simlab.games.pantheon import map_generator
from simlab.games.pantheon.data import NATIONS


@pytest.fixture(scope="module")
def board() -> B.Board:
    return B.load_map()


# --- the shipped map -----------------------------------------------------------------------------------------


def test_shipped_map_is_the_generators_output():
    assert B.DEFAULT_MAP.read_text(encoding="utf-8") == map_generator.render(map_generator.build())
    assert map_generator.main(["--check"]) == 0


def test_default_map_by_none_or_empty_path(board):
    assert B.load_map("") is board and B.load_map(None) is board and B.load_map(str(B.DEFAULT_MAP)) is board


def test_shipped_map_size_and_water(board):  # §9: ~18 x 12, ~200 hexes, ~35 % water
    assert board.n_hexes == 216
    assert 0.30 <= 1 - board.land.mean() <= 0.40
    assert board.provenance == "placeholder"


def test_eight_starts_on_land_at_their_sites(board):
    assert sorted(board.start_nation[board.start].tolist()) == list(range(8))
    assert board.land[board.start].all()
    col_row = {n: map_generator.STARTS[n] for n in NATIONS}
    west_to_east = sorted(NATIONS, key=lambda n: col_row[n][0])
    assert west_to_east[0] == "Iberia" and west_to_east[-1] == "Persia"  # Iberia W, Persia far E
    assert col_row["Germania"][1] == min(r for _, r in col_row.values())  # Germania N
    assert col_row["Aegyptus"][1] == max(r for _, r in col_row.values())  # Aegyptus S(E)
    assert col_row["Gallia"][0] < col_row["Roma"][0] < col_row["Graecia"][0]


def test_five_symbols_per_nation_marked_3_1_1(board):
    assert board.symbols.shape == (8, 5)
    assert (board.symbol_min_players == [2, 2, 2, 3, 4]).all()
    assert len(set(board.symbols.ravel().tolist())) == 40
    assert (board.symbol_nation[board.symbols] == np.arange(8)[:, None]).all()
    for players, used in ((2, 3), (3, 4), (4, 5)):  # players + 1 loot tiles per era
        assert ((board.symbols_in_use(players) >= 0).sum(axis=1) == used).all()
        assert used == players + 1


def test_symbols_reachable_over_land_2_to_4_steps(board):
    for k in range(8):
        d_land = board.land_distance[board.start[k], board.symbols[k]]
        d_any = board.distance[board.start[k], board.symbols[k]]
        assert (d_land >= 2).all() and (d_land <= 4).all(), NATIONS[k]
        assert (d_any >= 2).all()
    assert board.land[board.symbols].all()
    assert not board.column_space[board.symbols].any()


def test_column_spaces_28_three_to_four_near_each_start_some_shared(board):
    cols = np.flatnonzero(board.column_space)
    assert len(cols) == 28 >= B.MIN_COLUMN_SPACES
    assert board.land[cols].all()
    near = (board.distance[board.start][:, cols] >= 2) & (board.land_distance[board.start][:, cols] >= 0)
    near &= board.land_distance[board.start][:, cols] <= 4
    per_nation = near.sum(axis=1)
    assert ((per_nation >= 3) & (per_nation <= 4)).all(), per_nation
    assert (near.sum(axis=0) >= 2).sum() >= 5  # several shared between neighbouring nations
    assert (board.distance[board.start][:, cols] >= 2).all()  # none next to a start


def test_distance_histograms_within_2_to_5(board):
    hist = B.distance_histograms(board)
    assert set(hist) == set(NATIONS)
    for nation, h in hist.items():
        assert h["symbols"].sum() == 5
        assert h["symbols"][:2].sum() == 0 and h["symbols"][6:].sum() == 0, nation
        assert h["column_spaces"][:2].sum() == 0
        assert h["column_spaces"][2:6].sum() >= 3


def test_arrays_agree(board):
    n = board.n_hexes
    assert board.coords.shape == (n, 2) and board.coords.dtype == np.int32
    assert board.neighbours.shape == (n, 6) and board.neighbours.dtype == np.int32
    for i in range(n):
        for d, j in enumerate(board.neighbours[i]):
            if j >= 0:
                assert (board.coords[j] - board.coords[i]).tolist() == list(B.AXIAL_DIRECTIONS[d])
                assert i in board.neighbours[j]
    assert (board.neighbours == -1).any()  # the edge is padded
    assert board.index(*board.coords[17]) == 17
    assert (board.distance == board.distance.T).all()
    assert (board.land_distance == board.land_distance.T).all()
    both = board.land_distance >= 0
    assert (board.distance[both] <= board.land_distance[both]).all()
    assert (board.land_distance[~board.land] == -1).all()
    for a in (board.start, board.symbols, board.symbol_min_players, board.symbol_nation, board.hex_min_players):
        assert a.dtype == np.int32
    assert board.land.dtype == bool and board.column_space.dtype == bool
    assert not board.neighbours.flags.writeable


def bfs(neighbours: np.ndarray, passable: np.ndarray, source: int) -> np.ndarray:
    """The reference: steps from ``source`` through passable hexes, -1 unreachable."""
    dist = np.full(len(neighbours), -1, np.int32)
    dist[source] = 0
    todo = deque([source])
    while todo:
        h = todo.popleft()
        for nb in neighbours[h]:
            if nb >= 0 and passable[nb] and dist[nb] < 0:
                dist[nb] = dist[h] + 1
                todo.append(nb)
    return dist


def test_all_pairs_distances_are_breadth_first_steps(board):
    for passable in (np.ones(board.n_hexes, bool), board.land):
        expected = np.full((board.n_hexes, board.n_hexes), -1, np.int32)
        for h in np.flatnonzero(passable):
            expected[h] = bfs(board.neighbours, passable, h)
        assert (B.all_pairs(board.neighbours, passable) == expected).all()
    assert (B.all_pairs(board.neighbours, board.land) == board.land_distance).all()


# --- broken maps ---------------------------------------------------------------------------------------------


@pytest.fixture
def doc() -> dict:
    return json.loads(B.DEFAULT_MAP.read_text(encoding="utf-8"))


def write(tmp_path: Path, doc: dict | str, name: str = "broken_map.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def find(doc: dict, pred) -> int:
    return next(i for i, h in enumerate(doc["hexes"]) if pred(h))


def plain(h: dict) -> bool:
    return h["terrain"] == "land" and not ({"start", "symbol"} & set(h)) and not h.get("column_space")


def refused(tmp_path: Path, doc: dict, pattern: str) -> None:
    path = write(tmp_path, doc)
    with pytest.raises(DataFileError, match=pattern) as err:
        B.load_map(path)
    assert str(path) in str(err.value)


def test_missing_field(tmp_path, doc):
    del doc["hexes"][5]["terrain"]
    refused(tmp_path, doc, r"hex 5 \(q=5, r=0\): missing field 'terrain'")


def test_unknown_field(tmp_path, doc):
    doc["hexes"][3]["colum_space"] = True
    refused(tmp_path, doc, r"hex 3 \(q=3, r=0\): unknown field 'colum_space'; allowed fields: q, r, terrain")


def test_bad_terrain_and_coordinate(tmp_path, doc):
    bad = copy.deepcopy(doc)
    bad["hexes"][2]["terrain"] = "lava"
    refused(tmp_path, bad, r"hex 2 \(q=2, r=0\), field 'terrain': got 'lava'; allowed: 'land', 'water'")
    doc["hexes"][2]["q"] = "2"
    refused(tmp_path, doc, r"hex 2 \(q=2, r=0\), field 'q': got '2'; allowed: an integer")


def test_duplicate_hex(tmp_path, doc):
    doc["hexes"].append(dict(doc["hexes"][0]))
    refused(tmp_path, doc, rf"hex {len(doc['hexes']) - 1} \(q=0, r=0\): duplicate hex; hex 0 has the same")


def test_unknown_nation_in_start_and_symbol(tmp_path, doc):
    bad = copy.deepcopy(doc)
    i = find(bad, lambda h: h.get("start") == "Roma")
    bad["hexes"][i]["start"] = "Atlantis"
    refused(tmp_path, bad, rf"hex {i} .*field 'start': unknown nation 'Atlantis'; allowed: Iberia, Gallia")
    i = find(doc, lambda h: "symbol" in h)
    doc["hexes"][i]["symbol"]["nation"] = "Atlantis"
    refused(tmp_path, doc, rf"hex {i} .*field 'symbol.nation': unknown nation 'Atlantis'")


def test_bad_min_players(tmp_path, doc):
    i = find(doc, lambda h: "symbol" in h)
    doc["hexes"][i]["symbol"]["min_players"] = 5
    refused(tmp_path, doc, rf"hex {i} .*field 'symbol.min_players': got 5; allowed: 2, 3, 4")


def test_missing_start(tmp_path, doc):
    i = find(doc, lambda h: h.get("start") == "Roma")
    del doc["hexes"][i]["start"]
    refused(tmp_path, doc, "starts: no start hex for Roma; every one of the 8 nations needs one")


def test_second_start(tmp_path, doc):
    first = find(doc, lambda h: h.get("start") == "Roma")
    i = next(i for i, h in enumerate(doc["hexes"]) if i > first and plain(h))  # the later one is named
    doc["hexes"][i]["start"] = "Roma"
    refused(tmp_path, doc, rf"hex {i} \(q=.*\): second start of Roma; hex {first} is its start")


def test_symbol_marking_not_3_1_1(tmp_path, doc):
    i = find(doc, lambda h: h.get("symbol", {}).get("nation") == "Gallia" and h["symbol"]["min_players"] == 3)
    doc["hexes"][i]["symbol"]["min_players"] = 2
    refused(tmp_path, doc, r"symbols of Gallia: 5 symbol hexes .* min_players counts \{2: 4, 3: 0, 4: 1\}")


def test_sixth_symbol(tmp_path, doc):
    i = find(doc, plain)
    doc["hexes"][i]["symbol"] = {"nation": "Persia", "min_players": 4}
    refused(tmp_path, doc, r"symbols of Persia: 6 symbol hexes")


def test_two_things_on_one_hex_and_symbol_on_water(tmp_path, doc):
    bad = copy.deepcopy(doc)
    i = find(bad, lambda h: "symbol" in h)
    bad["hexes"][i]["column_space"] = True
    refused(tmp_path, bad, rf"hex {i} .*: holds symbol and column_space; a hex is at most one of")
    i = find(doc, lambda h: "symbol" in h)
    doc["hexes"][i]["terrain"] = "water"
    refused(tmp_path, doc, rf"hex {i} .*: symbol on water; starts, symbols and column spaces must be land")


def move_symbol(doc: dict, nation: str, target: int) -> int:
    """Move the nation's "4" symbol to hex ``target``; returns the target."""
    i = find(doc, lambda h: h.get("symbol", {}).get("nation") == nation and h["symbol"]["min_players"] == 4)
    doc["hexes"][target]["symbol"] = doc["hexes"][i].pop("symbol")
    doc["hexes"][target]["terrain"] = "land"
    return target


def test_symbol_not_reachable_over_land(tmp_path, doc):
    board = B.load_map()
    roma = board.start[NATIONS.index("Roma")]
    # a water hex 3 steps from Roma whose neighbours are all water: an island once made land
    island = next(
        int(i)
        for i in np.flatnonzero(~board.land)
        if board.distance[roma, i] == 3 and all(j >= 0 and not board.land[j] for j in board.neighbours[i])
    )
    move_symbol(doc, "Roma", island)
    refused(tmp_path, doc, rf"hex {island} .*symbol of Roma: not reachable over land from the start hex {roma}")


def test_symbol_too_far(tmp_path, doc):
    board = B.load_map()
    iberia = board.start[NATIONS.index("Iberia")]
    far = next(
        i for i, h in enumerate(doc["hexes"]) if plain(h) and board.land_distance[iberia, i] > B.DISTANCE_RANGE[1]
    )
    move_symbol(doc, "Iberia", far)
    refused(tmp_path, doc, rf"hex {far} .*symbol of Iberia: .*allowed: at least 2 steps and at most 5 over land")


def test_symbol_next_to_start(tmp_path, doc):
    board = B.load_map()
    start = board.start[NATIONS.index("Cartago")]
    next_to = next(int(j) for j in board.neighbours[start] if j >= 0 and plain(doc["hexes"][j]))
    move_symbol(doc, "Cartago", next_to)
    refused(tmp_path, doc, rf"hex {next_to} .*symbol of Cartago: 1 steps from the start")


def test_too_few_column_spaces(tmp_path, doc):
    cols = [i for i, h in enumerate(doc["hexes"]) if h.get("column_space")]
    for i in cols[:5]:
        del doc["hexes"][i]["column_space"]
    refused(tmp_path, doc, r"column spaces: 23; at least 24 are needed")


def test_column_space_next_to_start(tmp_path, doc):
    board = B.load_map()
    start = board.start[NATIONS.index("Graecia")]
    next_to = next(int(j) for j in board.neighbours[start] if j >= 0 and plain(doc["hexes"][j]))
    doc["hexes"][next_to]["column_space"] = True
    refused(tmp_path, doc, rf"hex {next_to} .*column space: 1 step\(s\) from the start of Graecia; allowed: at least 2")


def test_too_few_column_spaces_near_a_nation(tmp_path, doc):
    board = B.load_map()
    start = board.start[NATIONS.index("Aegyptus")]
    lo, hi = B.DISTANCE_RANGE
    near = [
        int(i)
        for i in np.flatnonzero(board.column_space)
        if board.distance[start, i] >= lo and 0 <= board.land_distance[start, i] <= hi
    ]
    for i in near[:-2]:
        del doc["hexes"][i]["column_space"]
    # keep the total at 28 with column spaces far from Aegyptus
    far = [
        i
        for i, h in enumerate(doc["hexes"])
        if plain(h) and min(board.distance[board.start, i]) >= 2 and not 0 <= board.land_distance[start, i] <= hi
    ]
    for i in far[: len(near) - 2]:
        doc["hexes"][i]["column_space"] = True
    refused(tmp_path, doc, r"column spaces near Aegyptus: 2 within 2-5 steps over land of its start hex")


def test_bad_file(tmp_path):
    with pytest.raises(DataFileError, match=r"map\.json: line 1 column \d+: not valid JSON"):
        B.load_map(write(tmp_path, '{"hexes": [', "map.json"))
    with pytest.raises(DataFileError, match="not found"):
        B.load_map(tmp_path / "absent.json")
    with pytest.raises(DataFileError, match=r"top level: expected an object"):
        B.load_map(write(tmp_path, {"map": "x", "provenance": "placeholder", "hexes": []}, "empty.json"))
    with pytest.raises(DataFileError, match=r"field 'provenance': got 'guess'"):
        B.load_map(write(tmp_path, {"map": "x", "provenance": "guess", "hexes": [{}]}, "prov.json"))
