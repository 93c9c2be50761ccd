"""Core's search bot: information-set Monte Carlo tree search over the game contract, compiled once per game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree per decision, keyed by the actions
taken from the decision at hand; every iteration draws a fresh *determinization* of the searching seat's
information set — a copy of the state in which the game's compiled ``determinize(st, cf, seat, rng)``
resampled what the seat cannot see, the chance generator (``rng``, the future dice and draws) reseeded and
the outcomes a test fixed in advance (``forced``) dropped — and descends the tree by UCB1 over the actions
legal in that determinization (availability counts, so an action legal in only some determinizations is
not undervalued), expands one node, plays the game out with a compiled rollout bot (``random`` or one of the
game's heuristics, every seat) and backs up each mover's win share. The decision is the most visited action
at the root. All randomness comes from the seat's own bot stream, so a game with search bots replays
exactly, and the search never reads what its seat may not see: a state whose hidden part differs gives the
same determinizations, so the same decision (tests/core/test_search.py).

``search_decide`` is a *template* like those of :mod:`simlab.core.loop`: :func:`simlab.core.engine.bind`
gives each game its own copy (globals: the game's ``legal``, ``apply``, ``determinize``, …, and the loop's
``base_policy`` for rollouts, which cannot re-enter the search). The tree is preallocated once per decision
(``iterations + 1`` nodes; no allocation per iteration) and the work state is one record overwritten per
iteration.

The bot's parameters travel in its float64 parameter vector (layout: the ``P_*`` indices below; the rollout
bot's own parameters from :data:`ROLLOUT_OFFSET`). Spec strings: ``ismcts:iterations=200,c=0.7,rollout=trader``
(:func:`search_params`); see docs/search.md.
"""
# ruff: noqa: F821  (the game's names are bound per game by simlab.core.engine.bind)

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import numba
import numpy as np
from numba import njit

from simlab.core.errors import BotSpecError
from simlab.core.loop import KIND_HEURISTIC, KIND_RANDOM, KIND_SEARCH
from simlab.core.rng import below, next_u64

#: the spec name of the search bot, offered for every game by the bot registry
SEARCH_NAME = "ismcts"
#: parameter vector layout
P_ITERATIONS, P_C, P_ROLLOUT_KIND, P_SECONDS, P_MAX_NODES, P_PRIOR, P_WIDEN, P_RANK_WEIGHT = range(8)
ROLLOUT_OFFSET = 8
#: numeric parameters and their defaults (``rollout`` is a bot name, resolved by :func:`search_params`)
DEFAULTS: dict[str, float] = {
    "iterations": 200.0,
    "c": 0.7,
    "prior": 0.0,
    "widen": 0.0,
    "rank_weight": 0.0,
    "seconds": 0.0,
    "max_nodes": 200_000.0,
}
PARAM_DOC = {
    "iterations": "search iterations per decision (0 with seconds > 0: time only)",
    "c": "UCB1 exploration constant (rewards are win shares in [0, 1])",
    "rollout": "the bot that plays every seat in the playouts: random or one of the game's heuristics "
    "(default: the game's first heuristic)",
    "prior": "virtual visits (at an even share, 1 / players) for the rollout bot's own choice, expanded first at "
    "every node: the search keeps to the heuristic until its playouts say otherwise (0: uniform expansion)",
    "widen": "progressive widening: a node holds at most widen * sqrt(visits + 1) children (0: every legal action)",
    "rank_weight": "reward = (1 - w) * win share + w * (players - rank) / (players - 1): a rank-based value "
    "that separates second from last (0: the win share alone)",
    "seconds": "wall-clock budget per decision (0: none); not reproducible, so never for experiments",
    "max_nodes": "tree size cap with a time budget (with iterations only, the tree holds iterations + 1 nodes)",
}
DOC = "information-set MCTS over the game contract (rollouts by a compiled bot); strength and speed: docs/search.md"
#: how often (iterations) the time budget reads the clock
CLOCK_EVERY = 8


@njit(cache=True)
def clock() -> float:
    """Seconds of a monotonic clock, read from compiled code (only for the optional time budget)."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def missing_determinize(st, cf, seat, rng):
    """Stands in for ``determinize`` in a game that does not define one: searching it is an error."""
    raise ValueError("this game's rules define no compiled determinize(st, cf, seat, rng): it cannot be searched")


@njit(cache=True)
def fresh_state(rng) -> np.uint64:
    """A non-zero generator state drawn from ``rng[0]`` (xorshift64* must not start at 0)."""
    x = next_u64(rng, 0)
    if x == np.uint64(0):
        x = np.uint64(0x9E3779B97F4A7C15)
    return x


def search_decide(params, st, cf, buf, n, bot_rng, seat):
    """The action the search picks among ``buf[:n]`` for ``seat`` in ``st`` (never changed), drawing from
    ``bot_rng[seat]`` only."""
    iterations = int(params[P_ITERATIONS])
    c = params[P_C]
    rollout_kind = int(params[P_ROLLOUT_KIND])
    seconds = params[P_SECONDS]
    rollout_params = params[ROLLOUT_OFFSET:]
    prior = params[P_PRIOR]
    widen = params[P_WIDEN]
    rank_weight = params[P_RANK_WEIGHT]
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
                wins[child] = virtual * even
                apply(work, cf, chosen)
                node = child
                break
            if best < 0:
                break  # the tree is full here: play out from this node
            apply(work, cf, action[best])
            node = best
        # playout by the rollout bot in every seat
        while not is_terminal(work):
            p = current_player(work)
            m = legal(work, cf, sbuf)
            apply(work, cf, base_policy(rollout_kind, rollout_params, work, cf, sbuf, m, roll_rng, p))
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
    # the most visited root action that is legal here (ties: the first expanded of them)
    stamp += 1
    for j in range(n):
        mark[buf[j]] = stamp
    best = -1
    most = -1.0
    ch = first[0]
    while ch >= 0:
        if mark[action[ch]] == stamp and (visits[ch] > most or (visits[ch] == most and action[ch] < action[best])):
            most = visits[ch]
            best = ch
        ch = sibling[ch]
    if best < 0:
        return buf[0]
    return action[best]


# -- spec strings ---------------------------------------------------------------------------------
def search_params(spec: str, game: str, rollout_bots: Mapping[str, Any], default_rollout: str | None) -> np.ndarray:
    """The parameter vector of ``ismcts:key=value,...`` for ``game``.

    ``rollout_bots`` maps the names of the game's compiled non-search bots to built bots (``kind`` and
    ``params``); ``rollout=<name>`` picks one (default ``default_rollout``, else ``random``).
    """
    name, _, rest = spec.strip().partition(":")
    if name.strip() != SEARCH_NAME:
        raise BotSpecError(f"bot spec {spec!r}: not a search spec (expected {SEARCH_NAME}:key=value,...)")
    values = dict(DEFAULTS)
    rollout = default_rollout or "random"
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq:
            raise BotSpecError(f"bot spec {spec!r}: parameter {item!r} must look like key=value")
        if key == "rollout":
            rollout = value
            continue
        if key not in DEFAULTS:
            allowed = ", ".join([*DEFAULTS, "rollout"])
            raise BotSpecError(f"bot {SEARCH_NAME!r} of {game!r} has no parameter {key!r}; allowed: {allowed}")
        try:
            number = float(value)
        except ValueError:
            raise BotSpecError(f"bot spec {spec!r}: value of {key!r} must be a number, got {value!r}") from None
        if not math.isfinite(number) or number < 0:
            raise BotSpecError(f"bot spec {spec!r}: value of {key!r} must be a finite number >= 0, got {value!r}")
        values[key] = number
    if rollout not in rollout_bots:
        raise BotSpecError(
            f"bot spec {spec!r}: rollout={rollout!r} is not a compiled bot of {game!r}; "
            f"choose one of: {', '.join(rollout_bots)}"
        )
    if values["iterations"] != int(values["iterations"]):
        raise BotSpecError(f"bot spec {spec!r}: iterations must be a whole number, got {values['iterations']:g}")
    if values["iterations"] == 0 and values["seconds"] == 0:
        raise BotSpecError(f"bot spec {spec!r}: give iterations >= 1 or a time budget seconds > 0")
    if values["seconds"] > 0 and values["iterations"] == 0 and values["max_nodes"] < 2:
        raise BotSpecError(f"bot spec {spec!r}: max_nodes must be at least 2")
    bot = rollout_bots[rollout]
    if bot.kind not in (KIND_RANDOM, KIND_HEURISTIC):
        raise BotSpecError(f"bot spec {spec!r}: rollout={rollout!r} must be random or a heuristic, not a search")
    out = np.zeros(ROLLOUT_OFFSET + len(bot.params), dtype=np.float64)
    out[P_ITERATIONS] = values["iterations"]
    out[P_C] = values["c"]
    out[P_ROLLOUT_KIND] = bot.kind
    out[P_SECONDS] = values["seconds"]
    out[P_MAX_NODES] = values["max_nodes"]
    out[P_PRIOR] = values["prior"]
    out[P_WIDEN] = values["widen"]
    if values["rank_weight"] > 1:
        raise BotSpecError(f"bot spec {spec!r}: rank_weight must be between 0 and 1, got {values['rank_weight']:g}")
    out[P_RANK_WEIGHT] = values["rank_weight"]
    out[ROLLOUT_OFFSET:] = bot.params
    return out


__all__ = ["DEFAULTS", "KIND_SEARCH", "SEARCH_NAME", "below", "search_params"]
