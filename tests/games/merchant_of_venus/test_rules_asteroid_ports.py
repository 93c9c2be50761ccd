"""The Asteroid System's merchant ports (rulebook, Spaceport phase): a port is built from a neutral port onto an
orbital space three green lines away, and that neutral port goes bankrupt. The shipped proxy board declares no
such lines, so the rule is tested on a small board built here with a ``green_lines`` key."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simlab.core.checks import checks_for
from simlab.core.errors import DataFileError, PositionError
from simlab.games.merchant_of_venus import board as B
from simlab.games.merchant_of_venus import bots as BT
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.config import GOOD_NAMES, MerchantOfVenusConfig, mission_targets
from simlab.games.merchant_of_venus.game import GAME, describe_action
from simlab.games.merchant_of_venus.position import position, space

#: the 13 other market systems of the data (missions name them), each a surface city under one orbital space
SYSTEMS = (
    "Colony World", "Desert World", "Giant Planet", "Ice Planet", "Inhabited Moon", "Interstellar Biosphere",
    "Jungle World", "Multi- Generation Ship", "Polluted Planet", "Space Station Planet", "Trapped Rogue Planet",
    "War-Torn System", "Water World",
)  # fmt: skip
ROUTES = ("MGS_cloud", "WW_cloud", "dw_cloud", "ib_cloud")  # route lines the missions name
AST = "Asteroid System"
NORTH, SOUTH = "North Port", "South Port"  # the Asteroid System's neutral ports
AIRHOME, AERIE, NEAR = "Airhome", "Aerie", "Near Orbit"  # orbital spaces


def small_board() -> dict:
    """Galactic Base, a chain of route spaces with one city per market system off it (four of them on the
    missions' route lines), and an Asteroid System of two neutral
    ports whose green lines lead three lines to Airhome and Aerie (and two lines to Near Orbit)."""
    spaces = [{"name": "Galactic Base", "system": "Galactic Base", "line": None, "type": "station", "color": None}]
    edges = []

    def dot(name, system=None, line=None, orbit=None, kind="dot"):
        spaces.append({"name": name, "system": system, "line": line, "type": kind, "color": None})
        if orbit:
            spaces[-1]["orbit"] = orbit

    for i, sy in enumerate(SYSTEMS):
        dot(f"{sy} city", sy, kind="city")
        dot(f"{sy} orbit", sy, orbit=f"{sy} orbit")
        dot(f"route {i}", line=ROUTES[i] if i < len(ROUTES) else None)
        edges += [
            {"a": f"{sy} city", "b": f"{sy} orbit", "kind": "orbit"},
            {"a": f"{sy} orbit", "b": f"route {i}", "kind": "route"},
            {"a": f"route {i}", "b": "Galactic Base" if i == 0 else f"route {i - 1}", "kind": "route"},
        ]
    dot(NORTH, AST, kind="station")
    dot(SOUTH, AST, kind="station")
    for name in ("a1", "a2", "b1", "b2"):
        dot(name, AST)
    dot(AIRHOME, AST, orbit=AIRHOME)
    dot(AERIE, AST, orbit=AERIE)
    dot(NEAR, AST, orbit=NEAR)
    dot("ast route", line=None)
    edges += [
        {"a": AIRHOME, "b": "ast route", "kind": "route"},
        {"a": AERIE, "b": "ast route", "kind": "route"},
        {"a": "ast route", "b": "Galactic Base", "kind": "route"},
    ]
    green = [(NORTH, "a1"), ("a1", "a2"), ("a2", AIRHOME), ("a1", NEAR), (SOUTH, "b1"), ("b1", "b2"), ("b2", AERIE)]
    return {"spaces": spaces, "edges": edges, "green_lines": [{"a": a, "b": b} for a, b in green]}


@pytest.fixture(scope="module")
def board_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("asteroid") / "small_board.json"
    path.write_text(json.dumps(small_board()))
    return str(path)


def small_config(board_file: str, **kw) -> MerchantOfVenusConfig:
    """Two players on the small board, its missions aimed at its own lines."""
    return MerchantOfVenusConfig(players=2, board_file=board_file, mission_target=mission_targets(board_file), **kw)


def at_port(board_file: str, where: str = NORTH, **kw):
    config = small_config(board_file)
    kw.setdefault("credits", {0: 500})
    kw.setdefault("at", {0: where})
    return position(0, config=config, phase="trade", skipped=True, **kw)


def test_the_small_board_declares_the_sites_three_green_lines_from_each_neutral_port(board_file):
    bd = B.load_board(board_file)
    assert {bd.names[p]: [bd.names[t] for t in ts] for p, ts in bd.port_sites.items()} == {
        NORTH: [AIRHOME],  # Near Orbit is two green lines away: not a site
        SOUTH: [AERIE],
    }
    assert bd.distance(NORTH, AIRHOME) == 6, "three green lines at 2 MP each"
    assert B.DEFAULT_BOARD.port_sites == {}, "the shipped proxy board declares no green lines"


def test_a_port_is_built_from_the_neutral_port_which_goes_bankrupt(board_file):
    st = at_port(board_file)
    s, cf = st.record[0], st.cfg
    north, airhome = space(st, NORTH), space(st, AIRHOME)
    st.apply(R.A_DONE)  # end trading without a buy
    assert int(s["phase"]) == R.PH_PORT and st.legal_actions() == [R.A_DONE, R.A_EDGE]
    assert st.describe(R.A_EDGE) == "build a spaceport on Airhome (Asteroid System)"
    st.apply(R.A_EDGE)
    assert int(s["port_owner"][airhome]) == 0 and int(s["ports"][0]) == 1 and int(s["credits"][0]) == 300
    assert int(s["pos"][0]) == airhome and int(s["bankrupt"][north]) == 1
    assert int(s["active"]) == 1, "the turn ends"
    assert not R.is_port(s, cf[0], north) and R.is_port(s, cf[0], airhome)


def test_a_buy_this_turn_forbids_the_asteroid_port(board_file):
    st = at_port(board_file)
    st.apply(R.A_BUY_GOOD)
    st.apply(R.A_DONE)
    assert int(st.record[0]["phase"]) != R.PH_PORT


def test_without_the_price_there_is_no_port_phase(board_file):
    st = at_port(board_file, credits={0: 199})
    st.apply(R.A_DONE)
    assert int(st.record[0]["phase"]) != R.PH_PORT


def test_a_bankrupt_port_is_no_landing_and_a_ship_on_it_does_not_trade(board_file):
    st = at_port(board_file, where=SOUTH, at={0: SOUTH, 1: SOUTH})  # seat 1's ship stands there too
    st.apply(R.A_DONE)
    st.apply(R.A_EDGE)  # seat 0 builds on Aerie; South Port goes bankrupt
    s = st.record[0]
    south = space(st, SOUTH)
    assert int(s["active"]) == 1
    assert not R.is_landing(s, st.cfg[0], south)
    st.apply(R.A_SKIP)  # skipping movement off a port ends the turn: no trade
    assert int(s["active"]) == 0 and int(s["phase"]) == R.PH_START


def test_a_port_placed_by_the_position_builder_bankrupts_its_neutral_port(board_file):
    st = at_port(board_file, ports={1: [AIRHOME]}, at={0: AIRHOME})
    s = st.record[0]
    assert int(s["bankrupt"][space(st, NORTH)]) == 1 and int(s["bankrupt"][space(st, SOUTH)]) == 0
    with pytest.raises(PositionError, match=r"ports\[1\]: Near Orbit is no port site: no surface city"):
        at_port(board_file, ports={1: [NEAR]})
    with pytest.raises(PositionError, match=r"ports\[0\]: AS_1_2 is no port site"):  # the shipped board
        position(0, overrides={"players": 2}, ports={0: ["AS_1_2"]})


def test_the_invariants_tie_bankrupt_ports_to_merchant_ports(board_file):
    """The checker itself: two records corrupted on purpose (copies of a built position) each break it."""
    st = at_port(board_file, ports={1: [AIRHOME]}, at={0: AIRHOME})
    inv, north, south = checks_for(GAME).invariants, space(st, NORTH), space(st, SOUTH)
    no_builder = st.record.copy()[0]
    no_builder["bankrupt"][north] = 0  # a port with no city below and no bankrupt neutral port
    with pytest.raises(AssertionError, match="no city below and no bankrupt port"):
        inv(no_builder, st.config)
    idle = st.record.copy()[0]
    idle["bankrupt"][south] = 1  # bankrupt with no merchant port three lines away
    with pytest.raises(AssertionError, match="bankrupt without a port three lines away"):
        inv(idle, st.config)


def test_trading_at_the_new_port_pays_its_owner_the_fee(board_file):
    st = at_port(board_file, ports={1: [AIRHOME]}, at={0: AIRHOME})
    before = int(st.record[0]["credits"][1])
    st.apply(R.A_BUY_GOOD)
    assert int(st.record[0]["credits"][1]) == before + st.config.port_fee


def test_the_asteroid_port_from_the_second_neutral_port_still_works_after_the_first_went_bankrupt(board_file):
    st = at_port(board_file, at={0: NORTH, 1: SOUTH}, credits={0: 500, 1: 400})
    st.apply(R.A_DONE)
    st.apply(R.A_EDGE)
    s = st.record[0]
    st.apply(R.A_SKIP)  # seat 1 skips movement at South Port: trade, then the port phase
    st.apply(R.A_DONE)
    assert int(s["phase"]) == R.PH_PORT
    assert describe_action(R.A_EDGE, R.PH_PORT, st._names(), space(st, SOUTH), st.cfg) == "build a spaceport on Aerie"


def _write(tmp_path: Path, change) -> Path:
    doc = small_board()
    change(doc)
    path = tmp_path / "broken_board.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        (lambda d: d.update(green_lines={"a": NORTH}), r"'green_lines' = .*; expected a list of \{a, b\} objects"),
        (lambda d: d["green_lines"].append({"a": NORTH}), r"green_lines\[7\]: expected an object with fields a, b"),
        (lambda d: d["green_lines"].append({"a": NORTH, "b": "Venus"}),
         r"green_lines\[7\]: dangling line: 'b' = 'Venus' is not a space of the board"),
        (lambda d: d["green_lines"].append({"a": "a2", "b": "Colony World city"}),
         r"green_lines\[7\]: a2 - Colony World city touches a surface city"),
        (lambda d: d["green_lines"].append({"a": "a2", "b": "Colony World orbit"}),
         r"green_lines\[7\]: a2 \(system Asteroid System\) - Colony World orbit \(system Colony World\): "
         r"a green line joins two spaces of one system"),
        (lambda d: d["green_lines"].append({"a": "a2", "b": "a1"}),
         r"green_lines\[7\]: duplicate line a2 - a1 \(also green_lines\[1\]\)"),
        (lambda d: d["green_lines"].append({"a": "a1", "b": "a1"}),
         r"green_lines\[7\]: green line joins space 'a1' to itself"),
    ],
)  # fmt: skip
def test_a_broken_green_line_names_the_file_and_the_line(tmp_path, change, pattern):
    with pytest.raises(DataFileError, match=r"broken_board\.json: " + pattern):
        B.load_board(_write(tmp_path, change))


def test_a_neutral_port_with_more_sites_than_the_record_holds_is_refused(tmp_path):
    def seven_sites(doc):  # Airhome and six more: North Port - c_j - d_j - o_j_k
        for j in range(3):
            for name, a in ((f"c{j}", NORTH), (f"d{j}", f"c{j}")):
                doc["spaces"].append({"name": name, "system": AST, "line": None, "type": "dot", "color": None})
                doc["green_lines"].append({"a": a, "b": name})
            for k in range(2):
                o = f"o{j}_{k}"
                doc["spaces"].append({"name": o, "system": AST, "line": None, "type": "dot", "color": None, "orbit": o})
                doc["green_lines"].append({"a": f"d{j}", "b": o})

    path = _write(tmp_path, seven_sites)
    with pytest.raises(DataFileError, match=r"neutral port 'North Port' has 7 orbital spaces three green lines away"):
        R.board_arrays(str(path), B.EDGE_MP, B.HAZARD_SEED)


def test_games_on_the_small_board_play_to_the_end_and_build_asteroid_ports(board_file):
    """Random play on the small board: the invariants hold after every action (the contract's checks) and
    some games build a port three green lines from a neutral port."""
    config = small_config(board_file, rounds=10, purse_offset=(400, 400, 0, 0))
    inv = checks_for(GAME).invariants
    built = 0
    for seed in range(30):
        st = GAME.new_state(config, seed)
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            # land when possible, end trading at once, build when possible: so the rule is reached often
            ph = int(st.record[0]["phase"])
            wanted = [R.A_DONE] if ph == R.PH_TRADE else [R.A_EDGE] if ph == R.PH_PORT and R.A_EDGE in legal else []
            wanted += [R.A_LAND] if R.A_LAND in legal else []
            st.apply(int(wanted[0] if wanted else legal[rng.integers(len(legal))]))
            inv(st.record[0], config)
        built += int(st.record[0]["bankrupt"].sum())
    assert built > 0


def test_a_bot_does_not_aim_at_a_bankrupt_port(board_file):
    """Seat 1's ship waits in North Port with one good the Asteroid System's culture buys when seat 0 builds
    on Airhome and North Port goes bankrupt: the trader heads for a port it can land in (Airhome), not for
    the bankrupt one, where it would pay no fee."""
    config = small_config(board_file)
    st = position(
        0,
        config=config,
        phase="trade",
        skipped=True,
        at={0: NORTH, 1: NORTH},
        cultures={AST: "Nillis"},
        discovered=[AST],
        cargo={1: {GOOD_NAMES[13]: 1}},  # Nillis (culture 0) buys culture 13's good
        credits={0: 500},
    )
    assert R.buys_good(st.cfg[0], 0, 13)
    st.apply(R.A_DONE)
    st.apply(R.A_EDGE)
    s = st.record[0]
    assert int(s["bankrupt"][space(st, NORTH)]) == 1 and st.current_player == 1
    prm = np.array([BT.TRADER[k] for k in BT.PARAM_NAMES])
    target = BT.choose_target(s, st.cfg[0], 1, prm, int(s["pos"][1]), True)
    assert st._names()[target] == AIRHOME


def test_the_heuristic_bots_play_the_small_board(board_file):
    """The porter and the trader on the small board: the invariants hold after every action and neutral
    ports go bankrupt."""
    config = small_config(board_file, rounds=10, purse_offset=(400, 400, 0, 0))
    bots = GAME.make_bots(["porter", "trader"], 2)
    inv = checks_for(GAME).invariants
    bankrupt_seen = 0
    for seed in range(6):
        st = GAME.new_state(config, seed)
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            st.apply(bots[st.current_player].act(st, st.legal_actions(), rng))
            inv(st.record[0], config)
        bankrupt_seen += int(st.record[0]["bankrupt"].any())
    assert bankrupt_seen > 0
