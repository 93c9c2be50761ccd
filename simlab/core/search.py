"""Core's search bot over the game contract, compiled once per game: by default a rollout improvement of the
game's heuristic (``halving_decide``: its K best actions raced by sequential halving on paired playouts), or,
with ``candidates=0``, information-set Monte Carlo tree search (``search_decide``'s tree, below).

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree per decision, keyed by the actions
taken from the decision at hand; every iteration draws a fresh *determinization* of the searching seat's
information set — a copy of the state in which the game's compiled ``determinize(st, cf, seat, rng)``
resampled what the seat cannot see, the chance generator (``rng``, the future dice and draws) reseeded and
the outcomes a test fixed in advance (``forced``) dropped — and descends the tree by UCB1 over the actions
legal in that determinization (availability counts, so an action legal in only some determinizations is
not undervalued), expands one node, plays the game out with a compiled rollout bot (``random`` or one of the
game's heuristics, every seat; with ``depth`` D > 0 for D decisions only, after which the game's compiled
``score_now`` scores the position where it stands) and backs up each mover's win share. The decision is the
most visited action at the root. All randomness comes from the seat's own bot stream, so a game with search
bots replays exactly, and the search never reads what its seat may not see: a state whose hidden part
differs gives the same determinizations, so the same decision (tests/core/test_search.py).

``search_decide`` is a *template* like those of :mod:`simlab.core.loop`: :func:`simlab.core.engine.bind`
gives each game its own copy (globals: the game's ``legal``, ``apply``, ``determinize``, …, and the loop's
``base_policy`` for rollouts, which cannot re-enter the search), compiled into the game's *search* loop only
when a search bot first plays (``Kernel.for_kinds``); the plain loop holds :func:`search_unbound`. The tree is
preallocated once per decision (``iterations + 1`` nodes; no allocation per iteration) and the work state is
one record overwritten per iteration.

The bot's parameters travel in its float64 parameter vector (layout: the ``P_*`` indices below; the rollout
bot's own parameters from :data:`ROLLOUT_OFFSET`). Spec strings (``ismcts:iterations=200,c=0.7,rollout=trader``)
are parsed by :mod:`simlab.core.search_spec`, kept apart so that a change to them recompiles no game (this
module is a shared source of every game's compiled code); see docs/search.md.
"""
# ruff: noqa: F821  (the game's names are bound per game by simlab.core.engine.bind)

from __future__ import annotations

import math
import time

import numba
import numpy as np

from simlab.core.compiled import compiled
from simlab.core.loop import KIND_SEARCH
from simlab.core.rng import below, next_u64

#: parameter vector layout (spec strings: simlab.core.search_spec)
(P_ITERATIONS, P_C, P_ROLLOUT_KIND, P_SECONDS, P_MAX_NODES, P_PRIOR, P_WIDEN, P_RANK_WEIGHT, P_CANDIDATES, P_DEPTH) = (
    range(10)
)
ROLLOUT_OFFSET = 10
#: how often (iterations) the time budget reads the clock
CLOCK_EVERY = 8


@compiled
def clock() -> float:
    """Seconds of a monotonic clock, read from compiled code (only for the optional time budget)."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@compiled
def missing_determinize(st, cf, seat, rng):
    """Stands in for ``determinize`` in a game that does not define one: searching it is an error."""
    raise ValueError("this game's rules define no compiled determinize(st, cf, seat, rng): it cannot be searched")


@compiled
def missing_score_now(st, cf):
    """Stands in for ``score_now`` in a game that does not define one: a depth cut-off is an error there."""
    raise ValueError("this game's rules define no compiled score_now(st, cf): its playouts cannot stop early")


@compiled
def search_unbound(params, st, cf, buf, n, bot_rng, seat):
    """Stands in for ``search_decide`` in a game's plain loop, which a search bot never reaches: the game's
    kernel hands a search bot the loop with the search compiled in (``Kernel.for_kinds``)."""
    raise ValueError("a search bot in the loop compiled without the search: use the kernel's for_kinds(kinds)")
    return buf[0]


@compiled
def fresh_state(rng) -> np.uint64:
    """A non-zero generator state drawn from ``rng[0]`` (xorshift64* must not start at 0)."""
    x = next_u64(rng, 0)
    if x == np.uint64(0):
        x = np.uint64(0x9E3779B97F4A7C15)
    return x


def play_out(work, cf, sbuf, roll_rng, rollout_kind, rollout_params, depth):
    """Play ``work`` on with the rollout bot in every seat: to its end, or (``depth`` > 0) for ``depth``
    decisions, after which the game's ``score_now`` ends it where it stands (its final scoring applied to
    the position), so that the share and rank fields hold the playout's result either way."""
    steps = 0
    while not is_terminal(work):
        if depth > 0 and steps >= depth:
            score_now(work, cf)
            break
        p = current_player(work)
        m = legal(work, cf, sbuf)
        apply(work, cf, base_policy(rollout_kind, rollout_params, work, cf, sbuf, m, roll_rng, p))
        steps += 1


def playout_reward(work, cf, sbuf, roll_rng, rollout_kind, rollout_params, seat, rank_weight, players, depth):
    """Play ``work`` out (:func:`play_out`); ``seat``'s reward (its win share, mixed with its rank by
    ``rank_weight``)."""
    play_out(work, cf, sbuf, roll_rng, rollout_kind, rollout_params, depth)
    w = work[0]
    reward = w.share[seat]
    if rank_weight > 0.0 and players > 1:
        reward = (1.0 - rank_weight) * reward + rank_weight * (players - w.rank[seat]) / (players - 1.0)
    return reward


def halving_decide(params, st, cf, buf, n, bot_rng, seat):
    """Rollout improvement of the rollout bot (``candidates=K``): its K best actions, ranked by asking it
    again with its earlier choices taken away, raced by sequential halving (Karnin, Koren & Somekh 2013) on
    ``iterations`` playouts. The candidates of a round share each sample's determinization and chance
    (common random numbers), so a difference between two of them is the difference their action makes, not
    luck; ties go to the rollout bot's order, so with too few playouts to tell them apart it plays the bot's
    own choice. Draws from ``bot_rng[seat]`` only and never changes ``st``."""
    iterations = int(params[P_ITERATIONS])
    rollout_kind = int(params[P_ROLLOUT_KIND])
    rollout_params = params[ROLLOUT_OFFSET:]
    rank_weight = params[P_RANK_WEIGHT]
    depth = int(params[P_DEPTH])
    players = bot_rng.shape[0]
    mine = bot_rng[seat : seat + 1]
    roll_rng = np.empty(max(st[0].share.shape[0], players), np.uint64)
    # the rollout bot's ranking: its choice among what is left, K times
    k_max = min(int(params[P_CANDIDATES]), n)
    cand = np.empty(k_max, np.int32)
    left = buf[:n].copy()
    m = n
    k = 0
    for p in range(roll_rng.shape[0]):
        roll_rng[p] = fresh_state(mine)
    while k < k_max and m > 0:
        a = base_policy(rollout_kind, rollout_params, st, cf, left, m, roll_rng, seat)
        j = 0
        while j < m and left[j] != a:
            j += 1
        if j == m:
            break  # a bot that answered outside the actions offered: rank no further
        cand[k] = a
        k += 1
        m -= 1
        left[j] = left[m]
    if k <= 1 or iterations < 2:
        return cand[0] if k > 0 else buf[0]
    total = np.zeros(k, np.float64)
    alive = np.empty(k, np.int64)
    for i in range(k):
        alive[i] = i
    n_alive = k
    rounds = 0
    while (1 << rounds) < k:
        rounds += 1
    sbuf = np.empty(MAX_ACTIONS, np.int32)
    base = np.empty_like(st)
    work = np.empty_like(st)
    roll_start = np.empty_like(roll_rng)
    spent = 0
    for r in range(rounds):
        if n_alive <= 1:
            break
        left_rounds = rounds - r
        samples = max(1, (iterations - spent) // (n_alive * left_rounds))
        for _ in range(samples):
            base[0] = st[0]
            determinize(base, cf, seat, mine)
            base[0].rng[0] = fresh_state(mine)
            base[0].forced_i = base[0].forced_n
            for p in range(roll_rng.shape[0]):
                roll_start[p] = fresh_state(mine)
            for i in range(n_alive):
                work[0] = base[0]
                roll_rng[:] = roll_start
                apply(work, cf, cand[alive[i]])
                total[alive[i]] += playout_reward(
                    work, cf, sbuf, roll_rng, rollout_kind, rollout_params, seat, rank_weight, players, depth
                )
        spent += samples * n_alive
        # keep the better half (every survivor has had the same samples); ties keep the bot's order
        keep = (n_alive + 1) // 2
        for i in range(1, n_alive):  # insertion sort by total, stable: alive stays in rank order on ties
            x = alive[i]
            j = i - 1
            while j >= 0 and total[alive[j]] < total[x]:
                alive[j + 1] = alive[j]
                j -= 1
            alive[j + 1] = x
        n_alive = keep
    return cand[alive[0]]


def search_decide(params, st, cf, buf, n, bot_rng, seat):
    """The action the search picks among ``buf[:n]`` for ``seat`` in ``st`` (never changed), drawing from
    ``bot_rng[seat]`` only."""
    if params[P_CANDIDATES] > 0.0:
        return halving_decide(params, st, cf, buf, n, bot_rng, seat)
    iterations = int(params[P_ITERATIONS])
    c = params[P_C]
    rollout_kind = int(params[P_ROLLOUT_KIND])
    seconds = params[P_SECONDS]
    rollout_params = params[ROLLOUT_OFFSET:]
    prior = params[P_PRIOR]
    widen = params[P_WIDEN]
    rank_weight = params[P_RANK_WEIGHT]
    depth = int(params[P_DEPTH])
    players = bot_rng.shape[0]  # one bot stream per seat of the game
    even = 1.0 / players
    cap = iterations + 1 if seconds <= 0.0 else int(params[P_MAX_NODES])
    if iterations > 0 and seconds > 0.0:
        cap = min(cap, iterations + 1)
    if cap < 2:
        return buf[0]
    # the tree: children as linked lists (the actions legal at a node vary between determinizations)
    parent = np.empty(cap, np.int32)
    action = np.empty(cap, np.int32)
    mover = np.empty(cap, np.int32)
    first = np.empty(cap, np.int32)
    sibling = np.empty(cap, np.int32)
    visits = np.zeros(cap, np.float64)
    wins = np.zeros(cap, np.float64)
    avail = np.zeros(cap, np.float64)
    virtual_n = np.zeros(cap, np.float64)
    first[0] = -1
    sibling[0] = -1
    nodes = 1
    sbuf = np.empty(MAX_ACTIONS, np.int32)
    mark = np.zeros(MAX_ACTIONS, np.int64)
    stamp = 0
    work = np.empty_like(st)
    seats = st[0].share.shape[0]
    roll_rng = np.empty(max(seats, bot_rng.shape[0]), np.uint64)
    mine = bot_rng[seat : seat + 1]
    start = clock() if seconds > 0.0 else 0.0
    it = 0
    while True:
        if iterations > 0 and it >= iterations:
            break
        if seconds > 0.0 and it % CLOCK_EVERY == 0 and it > 0 and clock() - start >= seconds:
            break
        it += 1
        # one determinization of what the seat knows
        work[0] = st[0]
        determinize(work, cf, seat, mine)
        w = work[0]
        w.rng[0] = fresh_state(mine)
        w.forced_i = w.forced_n
        for p in range(roll_rng.shape[0]):
            roll_rng[p] = fresh_state(mine)
        # selection and expansion
        node = 0
        while not is_terminal(work):
            p = current_player(work)
            m = legal(work, cf, sbuf)
            stamp += 1
            for j in range(m):
                mark[sbuf[j]] = stamp
            tried = 0
            best = -1
            best_value = -1.0e300
            ch = first[node]
            while ch >= 0:
                a = action[ch]
                if mark[a] == stamp:
                    mark[a] = -stamp  # legal and already a child
                    tried += 1
                    avail[ch] += 1.0
                    value = wins[ch] / visits[ch] + c * math.sqrt(math.log(avail[ch]) / visits[ch])
                    if value > best_value:
                        best_value = value
                        best = ch
                ch = sibling[ch]
            room = widen <= 0.0 or best < 0 or tried < widen * math.sqrt(visits[node] + 1.0)
            if tried < m and nodes < cap and room:
                chosen = -1
                virtual = 0.0
                if prior > 0.0 and first[node] < 0:  # the node's first child: the rollout bot's own choice
                    chosen = base_policy(rollout_kind, rollout_params, work, cf, sbuf, m, roll_rng, p)
                    virtual = prior
                else:
                    k = below(mine, 0, m - tried)
                    for j in range(m):
                        if mark[sbuf[j]] == stamp:
                            if k == 0:
                                chosen = sbuf[j]
                                break
                            k -= 1
                child = nodes
                nodes += 1
                parent[child] = node
                action[child] = chosen
                mover[child] = p
                first[child] = -1
                sibling[child] = first[node]
                first[node] = child
                avail[child] = 1.0
                visits[child] = virtual
                virtual_n[child] = virtual
                wins[child] = virtual * even
                apply(work, cf, chosen)
                node = child
                break
            if best < 0:
                break  # the tree is full here: play out from this node
            apply(work, cf, action[best])
            node = best
        # playout by the rollout bot in every seat (to the end, or depth decisions and the score as it stands)
        play_out(work, cf, sbuf, roll_rng, rollout_kind, rollout_params, depth)
        # backup: each node's mover scores its own win share (and rank, by rank_weight)
        x = node
        w = work[0]
        while x > 0:
            q = mover[x]
            reward = w.share[q]
            if rank_weight > 0.0 and players > 1:
                reward = (1.0 - rank_weight) * reward + rank_weight * (players - w.rank[q]) / (players - 1.0)
            visits[x] += 1.0
            wins[x] += reward
            x = parent[x]
        visits[0] += 1.0
    # the root action legal here with the most real visits (the prior's virtual ones left out); ties — the
    # rule when the budget is below the branching factor and every child has one visit — go to the higher
    # mean reward, then the rollout bot's own choice, then the smaller action id (an id alone would steer
    # a small budget to whichever actions a game numbers first)
    stamp += 1
    for j in range(n):
        mark[buf[j]] = stamp
    best = -1
    most = -1.0
    best_mean = -1.0
    ch = first[0]
    while ch >= 0:
        if mark[action[ch]] == stamp:
            real = visits[ch] - virtual_n[ch]
            mean = (wins[ch] - virtual_n[ch] * even) / real if real > 0.0 else -1.0
            if (
                best < 0
                or real > most
                or (real == most and mean > best_mean)
                or (real == most and mean == best_mean and virtual_n[ch] > virtual_n[best])
                or (
                    real == most
                    and mean == best_mean
                    and virtual_n[ch] == virtual_n[best]
                    and action[ch] < action[best]
                )
            ):
                most = real
                best_mean = mean
                best = ch
        ch = sibling[ch]
    if best < 0:
        return buf[0]
    return action[best]


__all__ = ["KIND_SEARCH", "ROLLOUT_OFFSET", "below", "halving_decide", "play_out", "playout_reward", "search_decide"]
