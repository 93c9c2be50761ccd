"""Games per CPU second (and per wall second) of a game's compiled batch loop, compile excluded: on a busy
machine the CPU figure stays comparable where ``simlab bench``'s wall-clock games/s does not.

python docs/scaling/bench_cpu.py GAME GAMES   (the game's default lineup, one batch of GAMES games)
"""

from __future__ import annotations

import resource
import sys
import time

import simlab


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


game = simlab.get_game(sys.argv[1])
n = int(sys.argv[2])
config = game.make_config()
players = config.players
bots = game.make_bots(game.default_lineup(players), players)
game.play_batch(config, [0], bots)  # compile or load
c0, w0 = cpu(), time.perf_counter()
game.play_batch(config, list(range(1, n + 1)), bots)
c, w = cpu() - c0, time.perf_counter() - w0
print(f"{sys.argv[1]} games={n} cpu_s={c:.2f} games_per_cpu_s={n / c:.0f} games_per_wall_s={n / w:.0f}")
