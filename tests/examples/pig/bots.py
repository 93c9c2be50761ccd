"""Pig's compiled bot: hold once the turn's total reaches ``hold_at`` (or the points still needed)."""

from __future__ import annotations

from simlab.core.compiled import compiled
from simlab.core.params import ParamLayout

from . import rules as R

PARAMS = ParamLayout(hold_at="hold once the turn's total reaches this")
(P_HOLD_AT,) = PARAMS.indices("hold_at")
HOLDER = PARAMS.values(hold_at=20.0)  # the classic "hold at 20" strategy


@compiled
def heuristic_policy(params, st, cf, buf, n, bot_rng, seat):
    s = st[0]
    need = cf[0].target - s.banked[seat]
    if s.turn_total >= params[P_HOLD_AT] or s.turn_total >= need:
        return R.A_HOLD
    return R.A_ROLL
