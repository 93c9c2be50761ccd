"""The heuristic bots' fast paths (per-decision move table, turn table) give the very values of the
direct evaluation they replace, bit for bit, so they cannot change a decision."""

import numpy as np
from numba import njit

from simlab import get_game
from simlab.games.massilia import bots as B
from simlab.games.massilia import rules as R


@njit
def _mismatches(states, seats, cf, prm):
    c = cf[0]
    bad = 0
    checked = 0
    for i in range(states.shape[0]):
        s = states[i]
        p = seats[i]
        ctx = np.empty(B.W_SIZE)
        B.fill_context(s, c, p, prm, ctx)
        ref = B.context(s, c, p, prm)
        for k in range(B.C_SIZE):
            if ctx[k] != ref[k]:
                bad += 1
        B.turn_table(s, c, p, prm, ctx)
        for v in range(1, 7):
            for a in range(4):
                checked += 1
                if ctx[B.W_MEMO + a * B.MEMO_V + v] != B.use_gain(s, c, p, a, v, prm, ref):
                    bad += 1
        for v in range(1, 40):
            checked += 1
            if B.best_move_tab(s, c, v, ctx) != B.best_move(s, c, p, v, prm, ref)[0]:
                bad += 1
            if B.fast_gain(s, c, p, R.BROWN, v, prm, ctx) != B.use_gain(s, c, p, R.BROWN, v, prm, ref):
                bad += 1
    return bad, checked


def test_tables_match_direct_evaluation() -> None:
    game = get_game("massilia")
    for players, bots in ((4, ["trader", "priest", "random", "trader"]), (2, ["priest", "random"])):
        config = game.make_config(players=players)
        states, seats = [], []

        def record(state, action, states=states, seats=seats) -> None:
            if int(state.record[0]["phase"]) in (R.PH_MAIN, R.PH_BUILD, R.PH_KEEP):
                states.append(state.record[0].copy())
                seats.append(state.current_player)

        made = game.make_bots(bots, players)
        for seed in range(6):
            game.play(config, seed, made, on_action=record)
        st = np.array(states, dtype=R.STATE_DTYPE).view(np.recarray)
        cf = game.kernel.config_record(config)
        for prm in (made[0].params, made[1].params, np.array([1.0, 0.0, 3.0, 2.5, 0.5, 2.0, 1.5, 0.0])):
            bad, checked = _mismatches(st, np.array(seats, dtype=np.int64), cf, prm)
            assert checked > 1000
            assert bad == 0
