"""Pig's rules as a compiled state machine: on your turn roll a die as often as you like, adding its
face to the turn's total; a roll of ``bust_face`` ends the turn with nothing, holding banks the total.
The first to bank ``target`` points wins at once."""

from __future__ import annotations

import numpy as np

from simlab.core.actions import ActionLayout
from simlab.core.compiled import compiled
from simlab.core.components import finish, roll
from simlab.core.record import state_dtype

from .config import MAX_PLAYERS

PH_TURN, PH_OVER = 0, 1
PHASE_NAMES = ("roll or hold", "game over")
ACTIONS = ActionLayout("roll", "hold")
A_ROLL, A_HOLD = ACTIONS.starts("roll", "hold")
MAX_ACTIONS = ACTIONS.size

STATE_DTYPE = state_dtype(
    MAX_PLAYERS,
    [
        ("n_players", np.int32),
        ("banked", np.int32, (MAX_PLAYERS,)),
        ("turn_total", np.int32),
        ("last_roll", np.int32),
        ("f_rolls", np.int32, (MAX_PLAYERS,)),
        ("f_busts", np.int32, (MAX_PLAYERS,)),
    ],
)

CONFIG_DTYPE = np.dtype(
    [
        ("players", np.int32),
        ("target", np.int32),
        ("sides", np.int32),
        ("bust_face", np.int32),
        ("start_points", np.int32, (MAX_PLAYERS,)),
    ],
    align=True,
)


@compiled
def init(st, cf, rng):
    s = st[0]
    c = cf[0]
    s.rng[0] = rng[0]
    s.n_players = c.players
    for p in range(c.players):
        s.banked[p] = c.start_points[p]
    s.phase = PH_TURN
    s.cur = 0


@compiled
def legal(st, cf, buf):
    s = st[0]
    buf[0] = A_ROLL
    if s.turn_total > 0:
        buf[1] = A_HOLD
        return 2
    return 1


@compiled
def end_turn(s, c):
    s.turn_total = 0
    s.turns += 1
    s.cur = (s.cur + 1) % c.players


@compiled
def apply(st, cf, a):
    s = st[0]
    c = cf[0]
    p = s.cur
    s.decisions += 1
    if a == A_ROLL:
        v = roll(s, c.sides)
        s.last_roll = v
        s.f_rolls[p] += 1
        if v == c.bust_face:
            s.f_busts[p] += 1
            end_turn(s, c)
        else:
            s.turn_total += v
        return
    s.banked[p] += s.turn_total
    if s.banked[p] >= c.target:
        game_over(s, c)
    else:
        end_turn(s, c)


@compiled
def game_over(s, c):
    keys = np.empty((c.players, 1), np.int64)
    for p in range(c.players):
        s.score[p] = s.banked[p]
        keys[p, 0] = s.banked[p]
    s.phase = PH_OVER
    finish(s, keys, c.players)


@compiled
def score_now(st, cf):
    """The game ended where it stands (the search's depth cut-off): the banked points score, turn totals lost."""
    game_over(st[0], cf[0])


@compiled
def determinize(st, cf, seat, rng):
    """Pig hides nothing from any seat: a determinization is the state itself (the search reseeds the die)."""
    return
