"""Merchant of Venus's transcript in the board's words: readable space names, the set-up, a line per seat's turn,
what each action moved (credits, cargo, fame) and the final credits by source.

Space names. The board file names only its cities, ports and orbital sites; every other space has an internal
id (``gb_cw_1``, ``cw_loop_6``, ``AS_2_3``). A transcript never shows those ids; ``space_labels`` derives a
stable label from the board data instead:

- a city, port or Galactic Base keeps its printed name, with its system: "Levitown (Giant Planet)";
- an orbital space with a site name (the file's ``orbit``) is named by it: "Cobbleport (Colony World)";
- a port the file does not name: "Asteroid System port 1" (numbered in file order when a system has several);
- any other space of a system: "Colony World space 6", numbered 1.. in file order among the system's unnamed
  spaces, with its kind when it has one: "Asteroid System space 2 (hazard)" (encounter, asteroid);
- a space of a route between two systems: "route Galactic Base–Colony World, space 1 of 4", counted from the
  end the board file lists first; a route of one space is "route Supernova–Water World".

System names are the file's with stray spaces closed up ("Multi- Generation Ship" reads "Multi-Generation Ship").

Chance outcomes and hidden state a reader needs are told as they happen: a discovery (culture, goods, market
token, the discoverer's IOU), IOU payments, encounter cards, hazard tests (passed, failed or skipped by the
drive), market shifts, passengers drawn, missions completed and the game's end (what ports and fame pay).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np

from simlab.core.transcript import count
from simlab.games.merchant_of_venus import board as B
from simlab.games.merchant_of_venus import data as D
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.config import CULTURE_NAMES, DRIVE_NAMES, GOOD_NAMES
from simlab.games.merchant_of_venus.facts import FACTS, SOURCE_FIELDS

UNITS = FACTS.units
#: an internal space id of the board file: words joined by "_" ending in a number ("gb_cw_1", "AS_2_3")
INTERNAL_ID = re.compile(r"^[A-Za-z]+(?:[_-][A-Za-z0-9]+)*_\d+$")
KIND_WORDS = {B.KIND_HAZARD: "hazard", B.KIND_ENCOUNTER: "encounter", B.KIND_ASTEROID: "asteroid"}
#: the record's credit sources in the order a score line gives them, with the reader's words
SOURCE_WORDS = {
    "fares": "fares",
    "drills": "drills",
    "port_fees": "port fees",
    "end_ports": "ports sold",
    "fame": "fame",
    "missions": "missions",
    "encounters": "encounters",
}


def system_name(name: str) -> str:
    """A system's name as printed ("Multi- Generation Ship" -> "Multi-Generation Ship")."""
    return re.sub(r"-\s+", "-", " ".join(name.split()))


def space_labels(board: B.Board) -> tuple[str, ...]:
    """A readable label for every space of ``board`` (see the module docstring for the scheme)."""
    n = board.n_spaces
    labels = [""] * n
    systems = [system_name(x) for x in board.system_names]
    unnamed_ports: dict[int, list[int]] = {}
    plain: dict[int, list[int]] = {}
    for i in range(n):
        sy = int(board.system[i])
        if sy < 0:
            continue
        name = board.names[i]
        if board.orbit_names[i]:
            labels[i] = f"{board.orbit_names[i]} ({systems[sy]})"
        elif not INTERNAL_ID.match(name):
            labels[i] = name if name == board.system_names[sy] else f"{name} ({systems[sy]})"
        elif int(board.kind[i]) == B.KIND_PORT:
            unnamed_ports.setdefault(sy, []).append(i)
        else:
            plain.setdefault(sy, []).append(i)
    for sy, ports in unnamed_ports.items():
        for k, i in enumerate(ports, 1):
            labels[i] = f"{systems[sy]} port" + (f" {k}" if len(ports) > 1 else "")
    for sy, spaces in plain.items():
        for k, i in enumerate(spaces, 1):
            kind = KIND_WORDS.get(int(board.kind[i]))
            labels[i] = f"{systems[sy]} space {k}" + (f" ({kind})" if kind else "")
    for line in range(len(board.line_names)):
        _label_route(board, line, systems, labels)
    return tuple(labels)


def _label_route(board: B.Board, line: int, systems: list[str], labels: list[str]) -> None:
    """Label the spaces of route ``line`` in path order from the end the file lists first."""
    members = [i for i in range(board.n_spaces) if int(board.line[i]) == line]
    inside = set(members)

    def neighbours(i: int) -> list[int]:
        return [int(j) for j in board.adj[i, : int(board.degree[i])]]

    def ends_at(i: int) -> list[str]:
        out = []
        for j in neighbours(i):
            if j not in inside:
                sy = int(board.system[j])
                out.append(systems[sy] if sy >= 0 else "open space")
        return out

    ends = [i for i in members if sum(j in inside for j in neighbours(i)) <= 1]
    path = [ends[0] if ends else members[0]]
    while len(path) < len(members):
        step = [j for j in neighbours(path[-1]) if j in inside and j not in path]
        if not step:  # not a simple path: the rest in file order
            path += [i for i in members if i not in path]
            break
        path.append(step[0])
    if len(path) == 1:
        a, b = [*ends_at(path[0]), "open space", "open space"][:2]
    else:
        a = (ends_at(path[0]) or ["open space"])[0]
        b = (ends_at(path[-1]) or ["open space"])[0]
    for k, i in enumerate(path, 1):
        labels[i] = f"route {a}–{b}" + (f", space {k} of {len(path)}" if len(path) > 1 else "")


@functools.cache
def _board(key: tuple[str, tuple[int, int, int], int]) -> B.Board:
    return B.load_board(key[0], key[1], key[2])


@functools.cache
def _labels_for(key: tuple[str, tuple[int, int, int], int]) -> tuple[str, ...]:
    return space_labels(_board(key))


def board_of(config: Any) -> B.Board:
    """The board a config plays on (loaded once per board file and line costs)."""
    return _board(R.board_key(config))


def labels_for(config: Any) -> tuple[str, ...]:
    """The space labels of the board a config plays on (computed once per board)."""
    return _labels_for(R.board_key(config))


def mission_target(state: Any, m: int) -> str:
    """Where mission card ``m`` sends a ship: a market system by name, or a route by its label."""
    c = state.cfg[0]
    target = int(c["mission_target"][m])
    board = board_of(state.config)
    if target < 100:
        return market_system(state, target)
    space = next(i for i in range(board.n_spaces) if int(board.line[i]) == target - 100)
    return labels_for(state.config)[space].partition(", space ")[0]


def market_system(state: Any, sy: int) -> str:
    """The name of the engine's market system ``sy`` (0..13, the board's order of its market systems)."""
    board = board_of(state.config)
    return system_name(board.system_names[board.market_systems[sy]])


def place_name(place: int) -> str:
    """A passenger place (culture 0..13, 14 Galactic Base) in words."""
    return f"the {CULTURE_NAMES[place]} culture" if 0 <= place < len(CULTURE_NAMES) else "Galactic Base"


def describe(state: Any, action: int, generic: str) -> str:
    """``generic`` (``game.describe_action``) with what a passenger action moves (where it is bound, its fare)
    and which tech a race-tech token is (its name, culture and price; never its token number)."""
    family, index = R.ACTIONS.decode(action) if R.ACTIONS.find(action) is not None else ("", 0)
    if family in ("pickup", "drop"):
        i = int(index)
        c = state.cfg[0]
        bound, fare = place_name(int(c["passenger_dest"][i])), credits(int(c["passenger_fare"][i]))
        return f"{generic} (bound for {bound}, fare {fare})"
    if family == "tech":  # a race-tech token by its tech's name, not its token number
        c = state.cfg[0]
        culture = int(c["token_culture"][int(index)])
        kind = int(c["culture_tech"][culture])
        price = credits(int(c["tech_price"][kind]))
        return (
            f"buy a {D.DEFAULT_DATA.race_techs[kind].name} race-tech token from the {CULTURE_NAMES[culture]} ({price})"
        )
    return generic


# -- the narration -------------------------------------------------------------------------------------
def credits(amount: int) -> str:
    return f"{amount:,} {UNITS.of('money', amount)}"


def cargo(s: np.void, seat: int) -> str:
    held = [f"{int(s['cargo'][seat, g])} {GOOD_NAMES[g]}" for g in range(R.NC) if s["cargo"][seat, g]]
    return ", ".join(held) if held else "empty"


def ship(s: np.void, seat: int, labels: tuple[str, ...], dials: str = "") -> str:
    """One seat's ship in words: where, purse, equipment and holds (``dials``: what replaces the laser and
    shield values before the dials are set)."""
    dials = dials or f"laser {int(s['laser'][seat])}, shield {int(s['shield'][seat])}"
    return (
        f"at {labels[int(s['pos'][seat])]}; {credits(int(s['credits'][seat]))}; {dials}, "
        f"pilot {int(s['pilot'][seat])}, {DRIVE_NAMES[int(s['drive'][seat])]}; "
        f"{count(int(s['holds'][seat]), 'hold')} [{cargo(s, seat)}]"
    )


def start(state: Any) -> list[str]:
    """The set-up: seats in turn order, each purse and ship, the board and the markets as they start."""
    s = state.record[0]
    config = state.config
    n = config.players
    labels = labels_for(config)
    first = int(s["first"])
    order = ", ".join(f"seat {(first + k) % n}" for k in range(n))
    lines = [
        f"setup: start player seat {first}; turn order {order}; {count(int(config.rounds), 'round')}",
        "  purses: " + ", ".join(f"seat {p} {credits(int(s['credits'][p]))}" for p in range(n)),
    ]
    c = state.cfg[0]
    to_set = int(s["phase"]) == R.PH_DIALS
    dials = f"laser and shield dials to set ({int(c['dial_high'])} and {int(c['dial_low'])})" if to_set else ""
    for p in range(n):
        missions = [int(m) for m in s["mission"][p] if int(m) >= 0]
        held = "; ".join(
            f"mission: {mission_target(state, m)} ({credits(int(state.cfg[0]['mission_credits'][m]))})"
            for m in missions
        )
        lines.append(f"  seat {p}: {ship(s, p, labels, dials)}" + (f"; {held}" if held else ""))
    hidden = int((s["discovered"][: R.NSYS] == 0).sum())
    lines.append(
        f"  board: {len(labels)} spaces; {R.NSYS} systems with a market, {hidden} still undiscovered "
        "(their cultures and market tokens hidden until a ship arrives)"
    )
    waiting = [i for i in range(len(s["pass_loc"])) if 0 <= int(s["pass_loc"][i]) < R.LOC_HOLD]
    lines += [f"  {waits(state, s, i)}" for i in waiting]
    if int(s["phase"]) != R.PH_DIALS:  # no dials to set (a position): the first turn opens here
        lines.append(turn_header(s, labels))
    return lines


def waits(state: Any, s: np.void, i: int) -> str:
    """Passenger ``i`` waiting: where, bound where, for what fare."""
    c = state.cfg[0]
    where, bound = place_name(int(s["pass_loc"][i])), place_name(int(c["passenger_dest"][i]))
    return f"passenger {i} waits at {where}, bound for {bound} (fare {credits(int(c['passenger_fare'][i]))})"


def _passengers_drawn(state: Any, b: np.void, a: np.void) -> list[str]:
    """Passengers drawn from the pile (every few rounds) onto the board."""
    drawn = (b["pass_loc"] == R.LOC_BAG) & (a["pass_loc"] >= 0) & (a["pass_loc"] < R.LOC_HOLD)
    return [f"    drawn: {waits(state, a, int(i))}" for i in np.nonzero(drawn)[0]]


def prefix(state: Any) -> str:
    s = state.record[0]
    return f"  r{int(s['round_no'])} seat {int(s['cur'])} [{state.decision_name()}]"


def before(state: Any, action: int) -> list[str]:
    """The decision line; a navigation exit the next player chooses names the ship it steers."""
    s = state.record[0]
    said = state.describe(action)
    if int(s["phase"]) == R.PH_NAV_CHOICE and int(s["cur"]) != int(s["active"]):
        said = f"seat {int(s['active'])}'s ship (no navigation die) {said}"
    return [f"{prefix(state)} {said}"]


def after(state: Any, action: int, later: Any) -> list[str]:
    """What ``action`` changed: a new turn, discoveries, a ship carried on, dice, credits, cargo, fame."""
    b, a = state.record[0], later.record[0]
    labels = labels_for(state.config)
    n = state.config.players
    lines: list[str] = []
    for sy in range(R.NSYS):
        if int(b["discovered"][sy]) == 0 and int(a["discovered"][sy]) == 1:
            lines.append(discovery(state, a, sy))
    p = int(b["active"])
    if int(b["phase"]) in (R.PH_MOVE, R.PH_NAV_CHOICE, R.PH_ASSIGN) and int(a["pos"][p]) != int(b["pos"][p]):
        family, k = R.ACTIONS.decode(action)
        target = int(state.cfg[0]["adj"][int(b["pos"][p]), k]) if family == "edge" else -1
        if int(a["pos"][p]) != target:  # navigation dice carried the ship on
            lines.append(f"    seat {p} carried on to {labels[int(a['pos'][p])]}")
        lines += _met(state, b, a, p, stepped=int(a["pos"][p]) == target)
    lines += _markets(b, a)
    if int(a["dice_n"]) > int(b["dice_n"]):
        lines.append(
            "    dice " + " ".join(str(int(x)) for x in a["dice"][: int(a["dice_n"])]) + f" = {int(a['mp'])} MP"
        )
    lines += _ious(b, a)
    lines += _missions(state, b, a)
    first_end = len(lines)  # where the game's end payouts start, when this decision ends the game
    for q in range(n):
        dc = int(a["credits"][q]) - int(b["credits"][q])
        if dc:
            why = _why(b, a, q, dc)
            lines.append(f"    seat {q}: {dc:+,} {UNITS.of('money', dc)}{why} -> {credits(int(a['credits'][q]))}")
        loaded = [(g, int(a["cargo"][q, g]) - int(b["cargo"][q, g])) for g in range(R.NC)]
        changes = [f"{d:+d} {GOOD_NAMES[g]}" for g, d in loaded if d]
        if changes:
            lines.append(f"    seat {q}'s holds: {', '.join(changes)} -> [{cargo(a, q)}]")
        df = int(a["fame_tokens"][q]) - int(b["fame_tokens"][q])
        if df:
            lines.append(f"    seat {q}: {df:+d} {UNITS.of('points', df)} -> {int(a['fame_tokens'][q])}")
    lines += _passengers_drawn(state, b, a)
    over = int(a["phase"]) == R.PH_OVER
    new_turn = (int(a["round_no"]), int(a["active"])) != (int(b["round_no"]), int(b["active"]))
    dialled = int(b["phase"]) == R.PH_DIALS and int(a["phase"]) != R.PH_DIALS  # the set-up's last decision
    if (new_turn or dialled) and not over:
        lines.append(turn_header(a, labels))
    if over:
        lines[first_end:first_end] = [end_of_game(state, a)]
        lines.append("=== game over ===")
    return lines


def discovery(state: Any, a: np.void, sy: int) -> str:
    """A system's culture revealed: its good on the market, the face-up market token, the discoverer's IOU."""
    cu = int(a["sys_culture"][sy])
    token = D.DEMANDS[int(a["stack"][cu, int(a["stack_top"][cu])])]
    return (
        f"    discovered the {CULTURE_NAMES[cu]} at {market_system(state, sy)}: {int(a['market_goods'][cu])} "
        f"{GOOD_NAMES[cu]} on the market, market token {token} demand; IOU {credits(int(a['iou_left'][cu]))} "
        f"for seat {int(a['discoverer'][cu])} to spend there"
    )


def _markets(b: np.void, a: np.void) -> list[str]:
    """Market shifts after a turn's sales (the next token of the stack face up) and the goods produced."""
    lines = []
    for cu in range(R.NC):
        if int(b["stack_top"][cu]) != int(a["stack_top"][cu]) and int(b["culture_sys"][cu]) >= 0:
            token = D.DEMANDS[int(a["stack"][cu, int(a["stack_top"][cu])])]
            made = int(a["market_goods"][cu]) - int(b["market_goods"][cu])
            produced = f"; it produces {made} {GOOD_NAMES[cu]}" if made > 0 else ""
            lines.append(f"    the {CULTURE_NAMES[cu]} market shifts to {token} demand{produced}")
    return lines


def _ious(b: np.void, a: np.void) -> list[str]:
    """IOU credits a discoverer spent at their culture (they are spent before own credits)."""
    lines = []
    for cu in range(R.NC):
        used = int(b["iou_left"][cu]) - int(a["iou_left"][cu])
        if used > 0 and int(b["culture_sys"][cu]) >= 0:
            left = int(a["iou_left"][cu])
            lines.append(
                f"    seat {int(a['discoverer'][cu])} pays {credits(used)} from the {CULTURE_NAMES[cu]} IOU "
                f"({credits(left)} left on it)"
            )
    return lines


def _missions(state: Any, b: np.void, a: np.void) -> list[str]:
    """Mission cards completed (their target reached: fame and credits) and mission cards bought."""
    lines = []
    c = state.cfg[0]
    for q in range(state.config.players):
        held, now = {int(m) for m in b["mission"][q]} - {-1}, {int(m) for m in a["mission"][q]} - {-1}
        for m in sorted(held - now):
            fame = int(c["mission_fame"][m])
            lines.append(
                f"    seat {q} completes the mission to {mission_target(state, m)} (+{fame} {UNITS.of('points', fame)})"
            )
        for m in sorted(now - held):
            reward = credits(int(c["mission_credits"][m]))
            lines.append(f"    seat {q} takes the mission to {mission_target(state, m)} ({reward})")
    return lines


def encounter_name(state: Any, e: int) -> str:
    """An encounter card in words: the data's name if the config plays its card unchanged, and its effect."""
    c = state.cfg[0]
    effect, amount = int(c["encounter_effect"][e]), int(c["encounter_amount"][e])
    cards = D.DEFAULT_DATA.encounters
    known = e < len(cards) and (effect, amount) == (cards[e].effect, cards[e].amount)
    what = {
        R.EN_CREDITS: f"{amount:+,} {UNITS.of('money', amount)}",
        R.EN_LOSE_TURN: "the turn ends",
        R.EN_FREE_MOVE: f"{amount:+d} MP",
    }[effect]
    return f"{cards[e].name}, {what}" if known else what


def _met(state: Any, b: np.void, a: np.void, p: int, stepped: bool) -> list[str]:
    """What the ship met on the space it entered: a hazard's test (passed or failed, or skipped by the drive)
    and an encounter card. A failed test or a lost turn ends the turn there."""
    c = state.cfg[0]
    lines = []
    drawn = a["encounter_used"] - b["encounter_used"]
    if int(a["encounter_used"].sum()) < int(b["encounter_used"].sum()):  # the discards were reshuffled
        drawn = a["encounter_used"].copy()
    for e in np.nonzero(drawn > 0)[0]:
        lines.append(f"    encounter card: {encounter_name(state, int(e))}")
    sp = int(a["pos"][p])
    if int(c["space_kind"][sp]) == R.K_HAZARD and (
        stepped or int(a["f_hazards_failed"][p]) > int(b["f_hazards_failed"][p])
    ):
        dial = D.HAZARD_DIALS[int(c["hazard_kind"][sp])]
        dial = f"{dial} test ({dial} {int(a[dial][p])})"
        if int(a["f_hazards_failed"][p]) > int(b["f_hazards_failed"][p]):
            lines.append(f"    seat {p} fails the {dial}: the turn ends")
        elif int(a["mp"]) == int(b["mp"]) and int(c["drive_skips_hazards"]):
            lines.append(f"    the {DRIVE_NAMES[int(a['drive'][p])]} skips the hazard")
        else:
            lines.append(f"    seat {p} passes the {dial}")
    return lines


def end_of_game(state: Any, a: np.void) -> str:
    """The game's end: what ports sell for, what fame pays; each seat's fame follows in its credits line."""
    c = state.cfg[0]
    n = state.config.players
    fame = ", ".join(f"seat {p}: {int(a['total_fame'][p])}" for p in range(n))  # "fame seat 0: 10, seat 1: 13"
    dice = [
        f"seat {p}'s Fuzzy Dice roll {int(a['fuzzy_dice'][p, 0])} and {int(a['fuzzy_dice'][p, 1])}"
        for p in range(n)
        if int(a["fuzzy_dice"][p, 0])
    ]
    out = dice + [f"seat {p} is eliminated (too little fame)" for p in range(n) if a["eliminated"][p]]
    return (
        f"  end of the game: each spaceport sells for {credits(int(c['port_end_value']))}, each fame pays "
        f"{credits(int(c['fame_credits']))}, IOUs are lost; fame {fame}" + "".join(f"; {x}" for x in out)
    )


def turn_header(a: np.void, labels: tuple[str, ...]) -> str:
    """The line opening a seat's turn: the round, the seat, its ship and purse."""
    q = int(a["active"])
    return f"--- round {int(a['round_no'])}, seat {q}'s turn: {ship(a, q, labels)} ---"


def _income_fields() -> list[tuple[str, str, int]]:
    """(words, record field, sign) of every credit flow the record counts per seat."""
    fields = [("sales", "f_sale_income", 1)]
    fields += [(SOURCE_WORDS[key], field, 1) for key, field in SOURCE_FIELDS.items()]
    return [*fields, ("port fees paid", "f_fees_paid", -1)]


def _why(b: np.void, a: np.void, seat: int, change: int) -> str:
    """The recorded sources of a seat's change of credits, " (sales +40, port fees paid -10)"; what no counter
    records (purchases) is "spent"; empty when nothing is recorded."""
    parts = [(w, sign * (int(a[f][seat]) - int(b[f][seat]))) for w, f, sign in _income_fields()]
    parts = [(w, d) for w, d in parts if d]
    if not parts:
        return ""
    rest = change - sum(d for _, d in parts)
    if rest:
        parts.append(("spent", rest))
    return " (" + ", ".join(f"{w} {d:+,}" for w, d in parts) + ")"


def score_parts(s: np.void, seat: int) -> list[tuple[str, int]]:
    """(what, credits) that sum to the seat's final credits: the starting purse, sales, each recorded source
    of income, port fees paid, and everything else spent (goods, equipment, ports, upgrades, Rewards: the
    record keeps no total of those, so it is the rest)."""
    parts = [("start", int(s["start_credits"][seat]))]
    parts += [(words, sign * int(s[field][seat])) for words, field, sign in _income_fields()]
    rest = int(s["score"][seat]) - sum(v for _, v in parts)
    parts.append(("spent", rest))
    return parts


def scores(state: Any) -> list[str]:
    """Each seat's final credits with their breakdown by source, then its rank."""
    s = state.record[0]
    out = []
    for p in range(state.config.players):
        shown = [(what, v) for what, v in score_parts(s, p) if v or what == "start"]
        parts = ", ".join(f"{what} {v:+,}" if what != "start" else f"{what} {v:,}" for what, v in shown)
        out.append(f"  seat {p}: {credits(int(s['score'][p]))} = {parts}; rank {int(s['rank'][p])}")
    return out
