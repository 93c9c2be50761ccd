"""Data files are checked when a scenario is checked, before a result folder exists (issue 30, item 4).

Every malformed Merchant of Venus board and Pantheon map or table of the audit is refused by ``simlab run``
with ``error: FILE: ...`` and exit 2, nothing written; a folder, a FIFO or a symlink to /dev/zero named as a
data file is refused at once. On main the boards made the folder and failed every game (exit 1), and
Pantheon's loaders leaked TypeError, OverflowError, UnicodeDecodeError, RecursionError, IsADirectoryError.
"""

from __future__ import annotations

import copy
import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli
from simlab.core.errors import DataFileError

MOV_BOARD = Path(simlab.__file__).parent / "games/merchant_of_venus/data/board_classic.json"
PANTHEON_MAP = Path(simlab.__file__).parent / "games/pantheon/maps/mediterranean_approx.json"
GOD_TILES = Path(simlab.__file__).parent / "games/pantheon/tables/god_tiles_even.json"


def _board() -> dict:
    return json.loads(MOV_BOARD.read_text())


def _nav(d: dict) -> dict:
    return next(s for s in d["spaces"] if "navigation" in s)


def _first_route(d: dict) -> str:
    return next(iter(_nav(d)["navigation"]))


def _cut_off(d: dict, system: str = "Asteroid System") -> None:
    names = {s["name"] for s in d["spaces"] if s["system"] == system}
    d["edges"] = [e for e in d["edges"] if (e["a"] in names) == (e["b"] in names)]


def _rename_gb(d: dict) -> None:
    next(s for s in d["spaces"] if s["name"] == "Galactic Base")["name"] = "Base"


#: (malformed board, what the error must say); each edits a copy of the shipped board
BOARDS = {
    "dangling_edge": (lambda d: d["edges"].append({"a": "AS_1_1", "b": "nowhere", "kind": "loop"}), "dangling edge"),
    "unreachable_system": (_cut_off, "unreachable from Galactic Base"),
    "navigation_without_die_numbers": (lambda d: _nav(d).__setitem__("navigation", {}), "without die numbers"),
    "navigation_die_7": (lambda d: _nav(d)["navigation"].__setitem__(_first_route(d), [7]), "die number 7"),
    "navigation_die_text": (lambda d: _nav(d)["navigation"].__setitem__(_first_route(d), ["1"]), "die number '1'"),
    "navigation_a_list": (lambda d: _nav(d).__setitem__("navigation", [1, 2]), "without die numbers"),
    "navigation_no_route": (lambda d: _nav(d)["navigation"].__setitem__(_first_route(d), []), "has no die numbers"),
    "no_galactic_base": (_rename_gb, "no space named 'Galactic Base'"),
    "duplicate_space": (lambda d: d["spaces"].append(copy.deepcopy(d["spaces"][0])), "duplicate space"),
    "duplicate_edge": (lambda d: d["edges"].append(dict(d["edges"][0])), "duplicate edge"),
    "name_a_list": (lambda d: d["spaces"][0].__setitem__("name", ["AS_1_1"]), "field 'name'"),
    "type_a_list": (lambda d: d["spaces"][0].__setitem__("type", ["dot"]), "field 'type'"),
    "colour_an_object": (lambda d: d["spaces"][0].__setitem__("color", {}), "field 'color'"),
    "edge_end_a_list": (lambda d: d["edges"][0].__setitem__("a", ["AS_1_1"]), "field 'a'"),
    "edge_kind_a_list": (lambda d: d["edges"][0].__setitem__("kind", []), "field 'kind'"),
    "x_too_big": (lambda d: d["spaces"][0].__setitem__("x", 10**30), "field 'x'"),
    "no_edges": (lambda d: d.__setitem__("edges", []), "'edges' is missing or empty"),
    "self_loop": (lambda d: d["edges"].append({"a": "AS_1_1", "b": "AS_1_1", "kind": "loop"}), "to itself"),
}


def _write(tmp_path: Path, name: str, doc: object) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def _scenario(tmp_path: Path, game: str, key: str, value: str) -> Path:
    players, bots = (2, '["random", "random"]')
    text = (
        f'name = "probe"\ngame = "{game}"\nplayers = {players}\ngames = 4\nseed = 1\nbots = {bots}\n'
        f"[set]\n{key} = {json.dumps(value)}\n"
    )
    p = tmp_path / "probe.toml"
    p.write_text(text)
    return p


def _run_refused(tmp_path: Path, game: str, key: str, value: str) -> str:
    """``simlab run`` of a scenario naming the data file: exit 2, ``error: ...``, no result folder."""
    out = tmp_path / "results"
    result = CliRunner().invoke(cli, ["run", str(_scenario(tmp_path, game, key, value)), "--out", str(out), "-j", "1"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not out.exists(), "a refused scenario must write nothing"
    return result.output


@pytest.mark.parametrize("probe", sorted(BOARDS))
def test_a_malformed_board_is_refused_before_the_run(tmp_path, probe):
    edit, says = BOARDS[probe]
    doc = _board()
    edit(doc)
    path = _write(tmp_path, f"{probe}.json", doc)
    output = _run_refused(tmp_path, "merchant_of_venus", "board_file", str(path))
    assert "error: " in output and str(path) in output and says in output, output


def _map_edit(edit):
    def make(tmp_path: Path) -> Path:
        doc = json.loads(PANTHEON_MAP.read_text())
        edit(doc)
        return _write(tmp_path, "map.json", doc)

    return make


def _raw(data: bytes):
    def make(tmp_path: Path) -> Path:
        p = tmp_path / "map.json"
        p.write_bytes(data)
        return p

    return make


#: Pantheon map files that leaked a Python error on main: (file maker, what the error must say)
MAPS = {
    "coordinate_too_big": (_map_edit(lambda d: d["hexes"][0].__setitem__("q", 10**30)), "field 'q'"),  # Overflow
    "symbol_players_a_list": (
        _map_edit(lambda d: next(h for h in d["hexes"] if "symbol" in h)["symbol"].__setitem__("min_players", [2])),
        "field 'symbol.min_players'",
    ),  # TypeError: unhashable
    "not_utf8": (_raw(b'{"map": "\xe9"}'), "not UTF-8"),  # UnicodeDecodeError
    "nested_too_deep": (_raw(b"[" * 100_000 + b"]" * 100_000), "nested"),  # RecursionError
    "nan": (_raw(b'{"map": NaN, "provenance": "placeholder", "hexes": []}'), "NaN"),
    "a_folder": (lambda tmp_path: tmp_path, "is a folder"),  # IsADirectoryError
}


@pytest.mark.parametrize("probe", sorted(MAPS))
def test_a_malformed_pantheon_map_is_refused_before_the_run(tmp_path, probe):
    make, says = MAPS[probe]
    path = make(tmp_path)
    output = _run_refused(tmp_path, "pantheon", "map_file", str(path))
    assert "error: " in output and says in output, output


def test_a_malformed_god_tile_table_is_refused_before_the_run(tmp_path):
    doc = json.loads(GOD_TILES.read_text())
    doc["rows"][0]["requirement"] = {"a": 1}
    path = _write(tmp_path, "gods.json", doc)
    output = _run_refused(tmp_path, "pantheon", "god_tiles", str(path))
    assert str(path) in output and "requirement" in output


def _refused_at_once(game: str, key: str, path: Path) -> str:
    """Make the config in a thread: it must fail with DataFileError, not block on a FIFO or read /dev/zero."""
    out: dict = {}

    def target():
        try:
            simlab.get_game(game).make_config(overrides={key: str(path)})
        except BaseException as exc:
            out["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive(), f"{key} = {path} blocked"
    assert isinstance(out.get("error"), DataFileError), out
    return str(out["error"])


@pytest.mark.parametrize(
    "game,key", [("pantheon", "map_file"), ("pantheon", "god_tiles"), ("merchant_of_venus", "board_file")]
)
def test_a_fifo_or_dev_zero_data_file_is_refused_at_once(tmp_path, game, key):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert "not a regular file" in _refused_at_once(game, key, fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    assert "not a regular file" in _refused_at_once(game, key, zero)


def test_a_huge_data_file_is_refused(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(50_000_000)  # sparse
    assert "50,000,000 bytes" in _refused_at_once("merchant_of_venus", "board_file", big)


def test_unknown_optional_board_keys_are_left_to_the_format(tmp_path):
    """The board format may grow optional keys (another branch adds one for green lines): not refused."""
    doc = _board()
    doc["spaces"][0]["green_lines_to"] = ["AS_1_2"]
    doc["edges"][0]["note"] = "a designer's note"
    doc["legend"] = {"any": "thing"}
    path = _write(tmp_path, "board.json", doc)
    simlab.get_game("merchant_of_venus").make_config(overrides={"board_file": str(path)})


@pytest.mark.parametrize("name", ["massilia", "roma", "pantheon", "merchant_of_venus"])
def test_every_knob_that_names_a_file_enters_the_identity(name):
    """A knob whose description speaks of a file or path is a data file: ``Game.data_files`` must list it, so its
    bytes enter a run's identity (a new such knob left out would be named by path only again)."""
    import dataclasses

    game = simlab.get_game(name)
    config = game.make_config()
    naming_files = {
        f.name
        for f in dataclasses.fields(config)
        if isinstance(getattr(config, f.name), str) and any(w in f.metadata.get("doc", "") for w in ("file", "path"))
    }
    listed = game.data_files(config)
    assert naming_files <= set(listed), naming_files - set(listed)
    assert all(Path(p).is_file() for p in listed.values())


def test_a_board_without_the_lines_its_missions_name_is_refused(tmp_path):
    """Missions target route lines by index: on a board without them a mission could never be done, and on main
    every game played on silently."""
    doc = _board()
    for space in doc["spaces"]:
        space["line"] = None
    path = _write(tmp_path, "no_lines.json", doc)
    output = _run_refused(tmp_path, "merchant_of_venus", "board_file", str(path))
    assert "mission_target[14] = 105 names no target of the board" in output and "no line" in output


def test_a_board_too_big_for_the_engine_is_refused_before_the_run(tmp_path):
    """A space of 7 neighbours passed the loader and failed inside every game on main (the record holds 6)."""
    from simlab.games.merchant_of_venus import board_check, rules

    assert (board_check.ENGINE_MAX_SPACES, board_check.ENGINE_MAX_DEGREE) == (rules.MAX_SPACES, rules.DEG)
    doc = _board()
    hub = "AS_1_1"
    linked = {e["b"] for e in doc["edges"] if e["a"] == hub} | {e["a"] for e in doc["edges"] if e["b"] == hub}
    for other in [s["name"] for s in doc["spaces"] if s["type"] == "dot" and s["name"] not in linked | {hub}][:7]:
        doc["edges"].append({"a": hub, "b": other, "kind": "loop"})
    path = _write(tmp_path, "wide.json", doc)
    output = _run_refused(tmp_path, "merchant_of_venus", "board_file", str(path))
    assert "the engine's record holds at most 300 spaces of at most 6 neighbours" in output
