"""Pantheon's transcript in the game's words: the set-up, an era-and-turn prefix on every line, hexes by a readable
name, what each action gained (points by source, gods, loot) and the final points by source.

Hex names. The map file gives each hex only axial coordinates, a terrain and its role (a nation's start, a
nation's symbol space, a column space); the real board's place names were never published. ``hex_labels``
names a hex by its role, or else by its terrain and the nearest nation's start (fewest steps over any hex;
ties go to the nation first in ``data.NATIONS``), followed by its coordinates (q,r):

- "Germania's start (10,0)", "Gallia's symbol space (2,0)";
- "column space near Gallia (7,1)", "land near Gallia (3,1)", "sea near Iberia (0,2)".

Era and turn. Every decision line starts with where in the game it falls: "set-up" before era 1, "e2 set-up"
for the decisions of era 2's nation ability and bonus tiles before its first turn, "e2 t5" in the fifth turn of
era 2 (turns counted from 1 in each era; a joiner's decision falls in the turn of the seat that moved).
A game with no decision before era 1 opens era 1 and its turn 1 in the set-up itself.

Chance outcomes are told as they happen: bonus tiles dealt, the god Gallia's ability flips, the card display
and the face-up gods and demigods as they change, each demigod taken with its value.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from simlab.core.transcript import count
from simlab.games.pantheon import board as B
from simlab.games.pantheon import data as D
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.facts import ERA_ENDS, FACTS, POINT_SOURCES

UNITS = FACTS.units
CARD_NAMES = (
    "movement",
    "gifts",
    "priests",
    "dancers",
    "temples",
    "money 1",
    "money 2",
    "money 3",
    "money 4",
    "money 5",
)
#: the points sources (``facts.POINT_SOURCES``, the record's ``f_points_src`` order) in the reader's words
SOURCE_WORDS = {
    "gods": "gods",
    "era_end": "era-end bonus",
    "demigods": "demigods",
    "columns": "columns",
    "pietalte": "Pietalte",
}
#: the sources a scoring pays (demigods, columns, Pietalte), indices into ``POINT_SOURCES``
SCORING_SOURCES = [POINT_SOURCES.index(k) for k in ("demigods", "columns", "pietalte")]
#: decisions that belong to an era's set-up (nation abilities, bonus tiles), never to a turn
SETUP_PHASES = (R.PH_IBERIA, R.PH_GALLIA, R.PH_GALLIA_PAY, R.PH_DISCARD, R.PH_SWAP, R.PH_BONUS_PICK, R.PH_BONUS_COLUMN)


def loot_name(t: int) -> str:
    """A loot or bonus tile type in words ("supply_2_feet" -> "supply 2 feet")."""
    return D.LOOT_TYPES[t].replace("_", " ")


def describe(state: Any, action: int, generic: str) -> str:
    """The action in the words of the decision at hand: which god a slot holds, which card a display slot, what
    a sacrifice kind pays or upgrades, which loot resolves; ``generic`` (``game.describe_action``) otherwise."""
    s = state.record[0]
    phase, seat = int(s["phase"]), int(s["cur"])
    family = R.ACTIONS.find(action)
    if family is None:
        return generic
    k = action - family.start
    if family.name == "kind":
        kind = D.SACRIFICE_KINDS[k]
        if phase in (R.PH_SACRIFICE, R.PH_IBERIA):
            level = int(s["level"][seat, k])
            return f"{kind} sacrifice tile to level {level + 1}" if level else f"take a level-1 {kind} sacrifice tile"
        return f"pay with {kind} cards"
    if family.name == "slot":
        if phase == R.PH_GOD_PICK and k < len(s["god_face"]) and int(s["god_face"][k]) >= 0:
            return f"{D.GODS[int(state.cfg[0]['tile_god'][int(s['god_face'][k])])]} (god slot {k})"
        if phase == R.PH_DRAW and k < len(s["display"]) and int(s["display"][k]) >= 0:
            return f"the {CARD_NAMES[int(s['display'][k])]} card from display slot {k}"
    if family.name == "loot" and int(s["pend"][k]) >= 0:
        return f"resolve the {loot_name(int(s['pend'][k]))} tile first"
    if family.name == "bonus" and int(s["bonus_face"][k]) >= 0:
        return f"the {loot_name(int(s['bonus_face'][k]))} bonus tile"
    return generic


def hex_labels(board: B.Board) -> tuple[str, ...]:
    """A readable, unique label for every hex of ``board`` (see the module docstring for the scheme)."""
    labels = []
    starts = [int(h) for h in board.start]
    for i in range(board.n_hexes):
        q, r = (int(x) for x in board.coords[i])
        where = f"({q},{r})"
        if int(board.start_nation[i]) >= 0:
            labels.append(f"{D.NATIONS[int(board.start_nation[i])]}'s start {where}")
            continue
        if int(board.symbol_nation[i]) >= 0:
            labels.append(f"{D.NATIONS[int(board.symbol_nation[i])]}'s symbol space {where}")
            continue
        steps = [int(board.distance[h, i]) if int(board.distance[h, i]) >= 0 else 10**6 for h in starts]
        near = D.NATIONS[int(np.argmin(steps))]
        what = "column space" if board.column_space[i] else ("land" if board.land[i] else "sea")
        labels.append(f"{what} near {near} {where}")
    return tuple(labels)


@functools.cache
def _labels_of(path: str) -> tuple[str, ...]:
    return hex_labels(B.load_map(path))


def labels_for(config: Any) -> tuple[str, ...]:
    """The hex labels of the map a config plays on (computed once per map)."""
    return _labels_of(str(B.load_map(config.map_file or None).path))


def pieces(s: np.void, p: int) -> str:
    return f"{count(int(s['stock_feet'][p]), 'foot', 'feet')} and {count(int(s['stock_cols'][p]), 'column')} in stock"


def points(amount: int) -> str:
    return f"{amount} {UNITS.of('points', amount)}"


def hand(s: np.void, p: int) -> str:
    cards = [f"{int(s['hand'][p, k])} {CARD_NAMES[k]}" for k in range(R.NCARD) if s["hand"][p, k]]
    return ", ".join(cards) if cards else "no cards"


def gods_of(state: Any, t_list: np.ndarray) -> str:
    names = [D.GODS[int(state.cfg[0]["tile_god"][int(t)])] for t in t_list if int(t) >= 0]
    return ", ".join(names) if names else "none"


def scoring_eras(config: Any) -> list[int]:
    """The eras after which a scoring is held: each of ``scoring_eras`` within the game, and always the last."""
    return sorted({e for e in config.scoring_eras if 1 <= e <= config.eras} | {config.eras})


# -- the narration -------------------------------------------------------------------------------------
def start(state: Any) -> list[str]:
    """The set-up: the map, the seats' stocks and hands, the card display, the bonus tiles, gods and nations."""
    s = state.record[0]
    config = state.config
    n = config.players
    board = B.load_map(config.map_file or None)
    held = scoring_eras(config)
    lines = [
        f"setup: map {board.name} ({board.provenance} board, {board.n_hexes} hexes); {count(config.eras, 'era')}, "
        f"{count(int(s['nation_n']), 'nation')} in the deck (one revealed per era); start player seat "
        f"{int(s['start_player'])}",
        f"  {'scorings' if len(held) > 1 else 'one scoring'} at the end of era{'s' if len(held) > 1 else ''} "
        + " and ".join(str(e) for e in held)
        + "; the temple moves to each era's nation's start",
    ]
    for p in range(n):
        bonus = int(s["f_bonus_tile"][p])
        tile = f"; bonus tile {loot_name(bonus)}" if bonus >= 0 else "; bonus tile still to deal"
        gods = [D.GODS[g] for g in np.nonzero(s["f_gods_route"][p].sum(axis=1))[0]]
        tile += f"; gods {', '.join(gods)}" if gods else ""
        demigods = [str(v) for v in range(s["demi_own"].shape[1]) for _ in range(int(s["demi_own"][p, v]))]
        tile += f"; demigods of value {', '.join(demigods)}" if demigods else ""
        lines.append(
            f"  seat {p}: {pieces(s, p)} ({count(int(s['supply_feet'][p]), 'foot', 'feet')} and "
            f"{count(int(s['supply_cols'][p]), 'column')} in the supply); {points(int(s['points'][p]))}; "
            f"hand {hand(s, p)}{tile}"
        )
    display = [CARD_NAMES[int(k)] for k in s["display"] if int(k) >= 0]
    lines.append("  card display: " + (", ".join(display) if display else "empty"))
    face = [loot_name(int(t)) for t in s["bonus_face"] if int(t) >= 0]
    if face:
        lines.append("  bonus tiles face up: " + ", ".join(face))
    lines.append(f"  gods: {int(s['god_n'])} tiles in the stack; demigods face up: {demigods_up(s)}")
    if int(s["era"]) >= 1:  # no decision before era 1 (seed 2024): its header and first turn open here
        labels = labels_for(config)
        lines.extend(_era_header(state, s, labels))
        if int(s["temple"]) >= 0:
            lines.append(f"    the temple stands on {labels[int(s['temple'])]}")
        if int(s["phase"]) == R.PH_ACTION:
            lines.append(_turn_header(s))
    return lines


def when(state: Any) -> str:
    """Where in the game the state's decision falls: "set-up", "e2 set-up" or "e2 t5" (see the docstring)."""
    s = state.record[0]
    era = int(s["era"])
    if era == 0:
        return "set-up"
    if not state.history and int(s["phase"]) == R.PH_ACTION:  # the game opens in a turn (``start`` said so)
        state.turn_begun = (era, int(s["turns"]))
    if getattr(state, "turn_begun", None) != (era, int(s["turns"])) or int(s["phase"]) in SETUP_PHASES:
        return f"e{era} set-up"
    return f"e{era} t{int(s['f_era_turns'][era - 1]) + 1}"


def prefix(state: Any) -> str:
    s = state.record[0]
    return f"  {when(state)} seat {int(s['cur'])} [{state.decision_name()}]"


def _era_header(state: Any, a: np.void, labels: tuple[str, ...]) -> list[str]:
    era, nation = int(a["era"]), int(a["nation"])
    row = D.by_key(D.nations(), "nation", D.NATIONS, "nation")[nation]
    ability = row.get("note") or D.NATION_ABILITIES[int(state.cfg[0]["nation_ability"][nation])]
    loot = [f"{loot_name(int(a['loot_hex'][h]))} on {labels[h]}" for h in range(len(labels)) if a["loot_hex"][h] >= 0]
    return [
        f"=== era {era}: {D.NATIONS[nation]} ({ability}); start player seat {int(a['start_player'])} ===",
        "  gods face up: " + gods_of(state, a["god_face"]) + "; demigods face up: " + demigods_up(a),
        "  loot: " + ("; ".join(loot) if loot else "none"),
    ]


def after(state: Any, action: int, later: Any) -> list[str]:
    """What ``action`` changed: gods gained, loot taken, points by source, the temple, eras and turns."""
    b, a = state.record[0], later.record[0]
    labels = labels_for(state.config)
    n, era = int(b["n_players"]), int(b["era"])
    lines: list[str] = []
    for p in range(n):  # bonus tiles dealt at the start (after a seat's decisions on the one before)
        if int(b["f_bonus_tile"][p]) < 0 <= int(a["f_bonus_tile"][p]):
            lines.append(f"    seat {p} is dealt the {loot_name(int(a['f_bonus_tile'][p]))} bonus tile")
    for p in range(n):
        gained = a["f_gods_route"][p].sum(axis=1) - b["f_gods_route"][p].sum(axis=1)
        for g in np.nonzero(gained)[0]:
            lines.append(f"    seat {p} gains {D.GODS[int(g)]}" + (f" x{int(gained[g])}" if gained[g] > 1 else ""))
    takers = np.nonzero(a["f_loot"][:n] - b["f_loot"][:n])[0]  # loot first: what it gives follows
    boxed = []
    for h in np.nonzero((b["loot_hex"] >= 0) & (a["loot_hex"] < 0))[0]:
        tile = loot_name(int(b["loot_hex"][h]))
        if R.ACTIONS.decode(action) == ("foot", h) and len(takers):  # a foot placed on it takes it
            lines.append(f"    seat {int(takers[0])} takes the {tile} loot on {labels[int(h)]}")
        else:  # the era's end boxes the loot left on the board (said after the era's end)
            boxed.append(f"    the {tile} loot left on {labels[int(h)]} is boxed")
    for p in range(n):  # demigods taken (kept face down: the transcript, which sees everything, says their values)
        got = a["demi_own"][p] - b["demi_own"][p]
        values = [str(v) for v in range(len(got)) for _ in range(int(got[v]))]
        if values:
            worth = f"value{'s' if len(values) > 1 else ''} {', '.join(values)}"
            lines.append(f"    seat {p} takes {count(len(values), 'demigod')} ({worth})")
    for p in range(n):  # cards into the hand (deck, display, special stack, abilities, Depraccus)
        drawn = a["f_drawn"][p] - b["f_drawn"][p]
        if drawn.any():
            cards = ", ".join(f"{int(drawn[k])} {CARD_NAMES[k]}" for k in range(R.NCARD) if drawn[k] > 0)
            lines.append(f"    seat {p} draws {cards}")
    lines += _revealed(state, action, b, a)
    if era >= 1 and int(b["f_era_end_by"][era - 1]) == 0 and int(a["f_era_end_by"][era - 1]) != 0:
        lines.append(f"    era {era} is ending: {ERA_ENDS.get(int(a['f_era_end_by'][era - 1]), 'ended')}")
    lines += boxed
    if era >= 1 and (int(a["era"]) != era or (int(a["phase"]) == R.PH_OVER and int(b["phase"]) != R.PH_OVER)):
        lines.append(f"  end of era {era}:")
    scored = int(a["f_scorings"]) != int(b["f_scorings"])
    change = (a["f_points_src"][:n] - b["f_points_src"][:n]).astype(int)
    at_scoring = np.zeros_like(change)
    if scored:  # a scoring's own sources go under its header; gods and era ends come before it
        at_scoring[:, SCORING_SOURCES] = change[:, SCORING_SOURCES]
    total = b["points"][:n].astype(int)
    for part, header in ((change - at_scoring, None), (at_scoring, f"    scoring {int(a['f_scorings'])}:")):
        if header and scored:
            lines.append(header)
        for p in range(n):
            d = int(part[p].sum())
            if d:
                total[p] += d
                why = ", ".join(f"{SOURCE_WORDS[POINT_SOURCES[k]]} {int(v):+d}" for k, v in enumerate(part[p]) if v)
                lines.append(f"    seat {p}: {d:+d} {UNITS.of('points', d)} ({why}) -> {int(total[p])}")
    for p in range(n):  # points the record does not count by source (there should be none)
        rest = int(a["points"][p]) - int(total[p])
        if rest:
            lines.append(f"    seat {p}: {rest:+d} {UNITS.of('points', rest)} (unaccounted) -> {int(a['points'][p])}")
    if int(a["temple"]) != int(b["temple"]) and int(a["temple"]) >= 0:
        lines.append(f"    the temple stands on {labels[int(a['temple'])]}")
    if int(a["era"]) != era and int(a["nation"]) >= 0:
        lines.extend(_era_header(state, a, labels))
    if int(a["phase"]) == R.PH_OVER:
        lines.append("=== game over ===")
        return lines
    key = (int(a["era"]), int(a["turns"]))
    if int(a["era"]) >= 1 and int(a["phase"]) == R.PH_ACTION and getattr(state, "turn_begun", None) != key:
        later.turn_begun = key  # the turn starts: its decisions carry "e<era> t<turn>" (see ``when``)
        lines.append(_turn_header(a))
    return lines


def _turn_header(a: np.void) -> str:
    """The line opening a turn: era, turn within the era, the active seat's stock, cards and points."""
    era, p = int(a["era"]), int(a["active"])
    return (
        f"--- era {era}, turn {int(a['f_era_turns'][era - 1]) + 1}: seat {p}; {pieces(a, p)}, "
        f"{count(int(a['hand'][p].sum()), 'card')}, {points(int(a['points'][p]))} ---"
    )


def _revealed(state: Any, action: int, b: np.void, a: np.void) -> list[str]:
    """Chance outcomes the decision line does not say: the god Gallia's ability flips, the card display and
    the face-up gods as refilled from the deck and the stack (within an era: a new era's header lists them)."""
    lines = []
    if int(b["phase"]) == R.PH_GALLIA and int(a["phase"]) == R.PH_GALLIA_PAY and int(a["gtile"]) >= 0:
        god = D.GODS[int(state.cfg[0]["tile_god"][int(a["gtile"])])]
        lines.append(f"    seat {int(b['cur'])} flips {god}")
    if int(a["era"]) != int(b["era"]):
        return lines
    took = int(b["phase"]) == R.PH_DRAW and R.ACTIONS.find(action) is R.ACTIONS.family(
        "slot"
    )  # refilled, perhaps with the same
    if took or not np.array_equal(a["display"], b["display"]):
        shown = [CARD_NAMES[int(k)] for k in a["display"] if int(k) >= 0]
        lines.append("    card display now: " + (", ".join(shown) if shown else "empty"))
    if not np.array_equal(a["god_face"], b["god_face"]):
        lines.append("    gods face up now: " + gods_of(state, a["god_face"]))
    if demigods_up(a) != demigods_up(b):
        lines.append("    demigods face up now: " + demigods_up(a))
    return lines


def demigods_up(s: np.void) -> str:
    """The face-up demigods' values, in reveal order ("2, 3, 3"), or "none"."""
    return ", ".join(str(int(v)) for v in s["demi_up"][: int(s["demi_up_n"])]) or "none"


def score_parts(s: np.void, seat: int, start_points: int) -> list[tuple[str, int]]:
    """(what, points) that sum to the seat's final points: the starting points and each recorded source; an
    "unaccounted" rest only if the record's sources do not add up (they should: every point is counted)."""
    parts = [("start", start_points)]
    parts += [(SOURCE_WORDS[k], int(s["f_points_src"][seat, i])) for i, k in enumerate(POINT_SOURCES)]
    rest = int(s["score"][seat]) - sum(v for _, v in parts)
    if rest:
        parts.append(("unaccounted", rest))
    return parts


def scores(state: Any) -> list[str]:
    """Each seat's final points by source, its pieces and its rank."""
    s = state.record[0]
    out = []
    for p in range(state.config.players):
        shown = [(w, v) for w, v in score_parts(s, p, int(state.config.start_points[p])) if v or w == "start"]
        parts = ", ".join(f"{w} {v}" if w == "start" else f"{w} {v:+d}" for w, v in shown)
        out.append(f"  seat {p}: {points(int(s['score'][p]))} = {parts}; rank {int(s['rank'][p])}")
    return out
