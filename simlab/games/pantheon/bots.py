"""Pantheon's compiled heuristic bot (the loop binding needs one): take a face-up god whenever one can be
paid, otherwise a uniformly random legal action. A real one-rule baseline, not a strategy study."""

from __future__ import annotations

from numba import njit

from simlab.core.rng import below

from . import rules as R

PARAM_NAMES = ("god_first",)
GOD_FIRST = {"god_first": 1.0}


@njit(cache=True)
def heuristic_policy(params, st, cf, buf, n, bot_rng, seat):
    if params[0] > 0.5 and st[0].phase == R.PH_ACTION:
        for i in range(n):
            if buf[i] == R.A_GOD:
                return R.A_GOD
    return buf[below(bot_rng, seat, n)]
