"""The compiled game loop: Roma's rules plus its compiled bots, playing many games in one call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from simlab.core import jitcache
from simlab.games.roma import bots as B
from simlab.games.roma import rules as R

_HERE = Path(__file__).resolve().parent
jitcache.refresh([_HERE / "kernel.py", _HERE / "bots.py", _HERE / "rules.py", _HERE.parents[1] / "core" / "rng.py"])


@njit(cache=True)
def policy(kind, params, st, cf, buf, n, bot_rng, seat):
    """Dispatch to the compiled bot ``kind`` for the decision at hand (``buf[:n]`` are legal)."""
    if n == 1:
        return buf[0]
    if kind == B.KIND_RANDOM:
        return B.random_policy(buf, n, bot_rng, seat)
    return B.heuristic_policy(params, st, cf, buf, n, bot_rng, seat)


@njit(cache=True)
def play_one(st, cf, bot_rng, kinds, params, buf):
    while st[0].phase != R.PH_OVER:
        seat = st[0].cur
        n = R.legal(st, cf, buf)
        a = policy(kinds[seat], params[seat], st, cf, buf, n, bot_rng, seat)
        R.apply(st, cf, a)


@njit(cache=True)
def play_many(cf, rng, bot_rng, kinds, params, out):
    """Play ``len(out)`` games: game i from chance state ``rng[i]`` and bot states ``bot_rng[i]``."""
    buf = np.zeros(R.MAX_ACTIONS, dtype=np.int32)
    for i in range(out.shape[0]):
        st = out[i : i + 1]
        R.init(st, cf, rng[i : i + 1])
        play_one(st, cf, bot_rng[i], kinds, params[:, :], buf)


class RomaKernel:
    """The compiled functions the shared Python layer (simlab.core.game) calls."""

    state_dtype = R.STATE_DTYPE
    max_actions = R.MAX_ACTIONS
    config_record = staticmethod(R.config_record)
    init = staticmethod(R.init)
    legal = staticmethod(R.legal)
    apply = staticmethod(R.apply)
    current_player = staticmethod(R.current_player)
    is_terminal = staticmethod(R.is_terminal)
    policy = staticmethod(policy)
    play_many = staticmethod(play_many)


KERNEL = RomaKernel()
