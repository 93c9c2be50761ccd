"""CPU seconds of a game's first compiles in one process, from the cache NUMBA_CACHE_DIR names (set it to an
empty folder for a cold start; SIMLAB_COMPILE_JOBS=1 so nothing compiles in a helper process).

python docs/scaling/compile_cpu.py GAME  ->  'GAME batch CPU WALL search CPU WALL records SPEC=HASH...'
batch: the first play_batch with the game's heuristic bots (the batch loop, as simlab run/bench compile it);
search: then the first play_batch with a search bot in seat 0 (the loop with the search compiled in);
records: sha256 (16 hex) of the final records of a few games with search bots (race, tree, depth cut), to
check that two checkouts' searches decide alike. Run each from a fresh cache folder:
NUMBA_CACHE_DIR=$(mktemp -d) SIMLAB_COMPILE_JOBS=1 PYTHONPATH=<checkout> python docs/scaling/compile_cpu.py roma
"""

from __future__ import annotations

import hashlib
import resource
import sys
import time

import numpy as np

import simlab

SEARCH = "ismcts:iterations=2,candidates=2"
TREE = "ismcts:iterations=24,candidates=0,prior=2,widen=1"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


game = simlab.get_game(sys.argv[1])
config = game.make_config()
players = config.players
names = [n for n in game.bots.names() if game.bots.info(n).params]
bots = [names[i % len(names)] for i in range(players)]
out = [sys.argv[1]]
for label, specs in (("batch", bots), ("search", [SEARCH, *bots[1:]])):
    c0, w0 = cpu(), time.perf_counter()
    game.play_batch(config, [0], game.make_bots(specs, players))
    out += [label, f"{cpu() - c0:.1f}", f"{time.perf_counter() - w0:.1f}"]
small = sys.argv[1] == "roma"
n = 3 if small else 1
specs = {
    "race": ["ismcts:iterations=16" if small else "ismcts:iterations=6", *bots[1:]],
    "race_all": ["ismcts:iterations=6,candidates=3"] * players,
    "tree": [TREE if small else "ismcts:iterations=8,candidates=0", *bots[1:]],
}
if small:
    specs["tree_all"] = ["ismcts:iterations=8,candidates=0"] * players
if game.kernel.cuttable:
    specs["depth"] = ["ismcts:iterations=6,depth=6", *bots[1:]]
out.append("records")
for name, lineup in specs.items():
    rec = game.play_batch(config, list(range(1, n + 1)), game.make_bots(lineup, players))
    out.append(f"{name}={hashlib.sha256(np.ascontiguousarray(rec).tobytes()).hexdigest()[:16]}")
print(" ".join(out), flush=True)
