"""games/s of the compiled batch loop, best of several timed batches (robust to a busy machine).

PYTHONPATH=TREE python docs/scaling/best_of.py GAME BOT,BOT,... GAMES_PER_BATCH BATCHES
"""

from __future__ import annotations

import sys
import time

from simlab import get_game

if __name__ == "__main__":
    game = get_game(sys.argv[1])
    specs = sys.argv[2].split(",")
    n, reps = int(sys.argv[3]), int(sys.argv[4])
    config = game.make_config(players=len(specs))
    bots = game.make_bots(specs, len(specs))
    game.play_batch(config, [10**6], bots)  # loads (or compiles) the loop
    best = float("inf")
    for r in range(reps):
        t = time.perf_counter()
        game.play_batch(config, list(range(r * n, (r + 1) * n)), bots)
        best = min(best, time.perf_counter() - t)
    print(f"{n / best:.0f}")
