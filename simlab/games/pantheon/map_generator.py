"""Builds the placeholder map ``maps/mediterranean_approx.json`` (rules page §9) deterministically.

The real board was never published as data; this is the rules page's proposal: an 18 x 12 hex grid (216 hexes,
about a third water) drawn as a rough Mediterranean, the 8 starts at their historical sites, then column
spaces and symbol spaces chosen by fixed greedy rules (no randomness), so re-running gives the same file:

    python -m simlab.games.pantheon.map_generator            # rewrites the shipped file
    python -m simlab.games.pantheon.map_generator --check    # exit 1 if the shipped file differs

Column spaces (28) first: while a nation has fewer than 3 within 2-4 steps over land, take the hex serving
the most such nations, spread away from those already chosen; then fill up to 28, keeping every nation at
4 nearby column spaces where the map allows (§9: "3-4 within distance 2-4 of each start"), spread away from
those chosen. Symbol spaces next, the nations with the fewest free candidates first: per nation 5 free land
hexes 2-4 steps over land from its start, each the one farthest from the nation's start and symbols chosen so
far (ties: the hex fewer other nations could use); the first 3 are always used, the 4th is marked "3", the
5th "4".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from simlab.games.pantheon.board import AXIAL_DIRECTIONS, DEFAULT_MAP, all_pairs
from simlab.games.pantheon.data import NATIONS

#: rows north to south, odd rows shifted half a hex right ("odd-r" offset); '#' land, '~' water
MASK = (
    "~~################",
    "~~###########~~~##",
    "~~###########~~~~#",
    "~~~########~######",
    "#####~~~##~~######",
    "####~~~~~##~##~###",
    "####~~~~~~##~#~~##",
    "####~~~~#~#~~~~~##",
    "~~~~~~~##~~~~~~~##",
    "#########~~~~~~~##",
    "##########~~######",
    "##################",
)
#: start hex of each nation as (column, row) of MASK
STARTS = {
    "Iberia": (1, 5),
    "Gallia": (5, 2),
    "Germania": (10, 0),
    "Roma": (9, 5),
    "Graecia": (13, 5),
    "Aegyptus": (15, 10),
    "Persia": (17, 6),
    "Cartago": (7, 9),
}
COLUMN_SPACES = 28
NEARBY = (2, 4)
NEARBY_COLUMNS = 3
MAX_NEARBY_COLUMNS = 4
SPREAD_CAP = 3
DESCRIPTION = (
    "Abstract placeholder board 'mediterranean-approx' (rules page §9): no public map data of the real board "
    "exists. Axial coordinates (q, r) of pointy-top hexes; built by simlab/games/pantheon/map_generator.py."
)


def axial(col: int, row: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def grid() -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    coords = [axial(c, r) for r, line in enumerate(MASK) for c in range(len(line))]
    land = np.array([ch == "#" for line in MASK for ch in line], bool)
    index = {xy: i for i, xy in enumerate(coords)}
    neighbours = np.array(
        [[index.get((q + dq, r + dr), -1) for dq, dr in AXIAL_DIRECTIONS] for q, r in coords], np.int32
    )
    return coords, land, neighbours


def build() -> dict[str, Any]:
    coords, land, neighbours = grid()
    index = {xy: i for i, xy in enumerate(coords)}
    start = [index[axial(*STARTS[n])] for n in NATIONS]
    dist = all_pairs(neighbours, np.ones(len(coords), bool))
    ldist = all_pairs(neighbours, land)
    lo, hi = NEARBY

    def near(k: int, h: int) -> bool:
        return bool(land[h] and dist[start[k], h] >= lo and 0 <= ldist[start[k], h] <= hi)

    def spread(h: int, chosen: list[int]) -> int:
        return min([SPREAD_CAP, *(int(dist[h, c]) for c in chosen)])

    def crowding(nearby: list[int], h: int) -> int:
        """How far taking h pushes a nation above MAX_NEARBY_COLUMNS nearby column spaces."""
        return max([0, *(nearby[k] + 1 - MAX_NEARBY_COLUMNS for k in range(len(NATIONS)) if near(k, h))])

    free = [h for h in range(len(coords)) if land[h] and h not in start and min(dist[s, h] for s in start) >= 2]
    columns: list[int] = []
    while True:
        needy = [k for k in range(len(NATIONS)) if sum(near(k, c) for c in columns) < NEARBY_COLUMNS]
        if not needy and len(columns) >= COLUMN_SPACES:
            break
        pool = [h for h in free if h not in columns]
        if needy:
            best = max(pool, key=lambda h: (sum(near(k, h) for k in needy), spread(h, columns), -h))
        else:  # keep every nation at MAX_NEARBY_COLUMNS or below where possible
            nearby = [sum(near(k, c) for c in columns) for k in range(len(NATIONS))]
            best = max(pool, key=lambda h: (-crowding(nearby, h), spread(h, columns), -h))
        columns.append(best)
    taken = set(columns) | set(start)
    symbols: dict[int, tuple[str, int]] = {}

    def others(k: int, h: int) -> int:
        return sum(near(j, h) for j in range(len(NATIONS)) if j != k)

    # the nations with the fewest candidate hexes choose first, each preferring hexes no other nation needs
    order = sorted(range(len(NATIONS)), key=lambda k: (sum(near(k, h) for h in free if h not in taken), k))
    for k in order:
        nation = NATIONS[k]
        mine: list[int] = []
        for marking in (2, 2, 2, 3, 4):
            pool = [h for h in range(len(coords)) if near(k, h) and h not in taken]
            best = max(pool, key=lambda h: (spread(h, [start[k], *mine]), -others(k, h), -h))
            mine.append(best)
            taken.add(best)
            symbols[best] = (nation, marking)
    hexes = []
    for h, (q, r) in enumerate(coords):
        row: dict[str, Any] = {"q": q, "r": r, "terrain": "land" if land[h] else "water"}
        if h in columns:
            row["column_space"] = True
        if h in start:
            row["start"] = NATIONS[start.index(h)]
        if h in symbols:
            row["symbol"] = {"nation": symbols[h][0], "min_players": symbols[h][1]}
        hexes.append(row)
    return {"map": "mediterranean_approx", "provenance": "placeholder", "description": DESCRIPTION, "hexes": hexes}


def render(doc: dict[str, Any]) -> str:
    """The file text: one hex a line, so a diff shows which hexes changed."""
    head = {k: v for k, v in doc.items() if k != "hexes"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "hexes": [']
    lines += [f"  {json.dumps(h, ensure_ascii=False)}," for h in doc["hexes"]]
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join([*lines, "]}"]) + "\n"


def main(argv: list[str]) -> int:
    text = render(build())
    path = Path(DEFAULT_MAP)
    if "--check" in argv:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{path}: {'up to date' if same else 'differs from the generator'}")
        return 0 if same else 1
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
