"""The search bot's skill ladder and speed (docs/search.md): head to head with seats rotated, and the cost.

    python docs/scaling/search_ladder.py GAME OPPONENT GAMES SPEC [SPEC ...]
    LADDER_FIRST=1000 LADDER_SAVE=part.npy python docs/scaling/search_ladder.py ...   # games 1000.. only


For each SPEC (a search bot, or any bot), GAMES games of GAME (default config) with SPEC in one seat and
OPPONENT in every other, the seat rotated (game i puts SPEC in seat i mod players; seeds 10,000 + i): SPEC's
mean win share with a 95% interval (Student t on the per-game shares, which are 0, 1 or a tie's split;
clipped to [0, 1]), the games/s of the whole run (one process), and, for a search spec, decisions/s and
iterations/s on one core, timed on the states before 60 decisions with a choice of OPPONENT-only games.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np
from scipy import stats

import simlab
from simlab.core.loop import KIND_SEARCH
from simlab.core.search import P_ITERATIONS


def ladder(game, opponent: str, n: int, spec: str, first: int = 0, save: str = "") -> str:
    config = game.make_config()
    players = config.players
    shares: list[float] = []
    game.play_batch(config, [0], game.make_bots([spec] + [opponent] * (players - 1), players))  # compile or load
    start = time.perf_counter()
    for r in range(players):
        lineup = [opponent] * players
        lineup[r] = spec
        seeds = [10_000 + i for i in range(first, first + n) if i % players == r]
        records = game.play_batch(config, seeds, game.make_bots(lineup, players))
        shares.extend(records["share"][:, r].tolist())
    elapsed = time.perf_counter() - start
    s = np.array(shares)
    if save:  # the per-game shares, to pool parts played by separate processes (disjoint game ranges)
        np.save(save, s)
    half = stats.t.ppf(0.975, len(s) - 1) * s.std(ddof=1) / np.sqrt(len(s)) if len(s) > 1 else float("nan")
    return (
        f"{spec} vs {opponent} x{players - 1}: n={len(s)} win share {s.mean():.3f} "
        f"[{max(0.0, s.mean() - half):.3f}, {min(1.0, s.mean() + half):.3f}] (even: {1 / players:.3f}); "
        f"{len(s) / elapsed:.3f} games/s"
    )


def speed(game, opponent: str, spec: str, decisions: int = 60) -> str:
    config = game.make_config()
    players = config.players
    bot = game.bots.make(spec)
    if bot.kind != KIND_SEARCH:
        return ""
    states = []
    seed = 0
    while len(states) < decisions:

        def grab(state, action):
            if len(state.legal_actions()) > 1:
                states.append(state.clone())

        game.play(config, 20_000 + seed, game.make_bots([opponent] * players, players), on_action=grab)
        seed += 1
    chosen = [states[i] for i in np.linspace(0, len(states) - 1, decisions).astype(int)]
    kernel = game.kernel.for_kinds([bot.kind])
    buf = np.zeros(kernel.max_actions, dtype=np.int32)
    rng = game.bot_states(1, players)
    start = time.perf_counter()
    for st in chosen:
        n = kernel.legal(st.record, st.cfg, buf)
        kernel.policy(bot.kind, bot.params, st.record, st.cfg, buf, n, rng, st.current_player)
    elapsed = time.perf_counter() - start
    its = decisions * bot.params[P_ITERATIONS]
    return f"  {spec}: {decisions / elapsed:.1f} decisions/s, {its / elapsed:,.0f} iterations/s (one core)"


def main(argv: list[str]) -> None:
    game = simlab.get_game(argv[0])
    opponent, n, specs = argv[1], int(argv[2]), argv[3:]
    for spec in specs:
        first, save = int(os.environ.get("LADDER_FIRST", "0")), os.environ.get("LADDER_SAVE", "")
        print(ladder(game, opponent, n, spec, first, save), flush=True)
        line = speed(game, opponent, spec)
        if line:
            print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
