"""Map geometry for Pantheon's rule tests, found on whatever map the config loads (no hex numbers baked in)."""

from __future__ import annotations

from simlab.games.pantheon import rules as R


def geometry(state):
    """(temple, foot hex next to it, column space next to that foot) of the state's nation on its map."""
    cf = state.cfg[0]
    t = int(state.record[0]["temple"])
    for f in cf["nbr"][t]:
        if f < 0 or cf["column_space"][f] or cf["start_nation"][f] >= 0:
            continue
        for c in cf["nbr"][f]:
            if c >= 0 and cf["column_space"][c]:
                return t, int(f), int(c)
    raise AssertionError("no temple - foot - column space chain on this map")


def neighbours(state, h):
    return [int(x) for x in state.cfg[0]["nbr"][h] if x >= 0]


def far_hex(state, h):
    """A hex that is not a column space, not h and not next to h or the temple."""
    cf = state.cfg[0]
    t = int(state.record[0]["temple"])
    near = {h, t, *neighbours(state, h), *neighbours(state, t)}
    for x in range(int(cf["n_hex"])):
        if x not in near and not cf["column_space"][x] and cf["start_nation"][x] < 0:
            return x
    raise AssertionError("no far hex")


def play(state, *actions):
    for a in actions:
        state.apply(a)
    return state


STOP = R.A_STOP
#: an action id by family and index, from the rules' ActionLayout: ``act("kind", D.DANCERS)``
act = R.ACTIONS.encode
