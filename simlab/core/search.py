"""Core's search bot over the game contract, compiled once per game: by default a rollout improvement of the
game's heuristic (``race_decide``: its K best actions raced by sequential halving on paired playouts), or,
with ``candidates=0``, information-set Monte Carlo tree search (``tree_decide``, below).

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

The search is small parts, each tested on its own (tests/core/test_search_parts.py): determinize-and-reseed
(:func:`determinize_sample`, :func:`reseed`), the playout (:func:`play_out`, :func:`seat_reward`), the race
(:func:`race_candidates`, :func:`race_round`, :func:`keep_better_half`) and the tree (:func:`descend` with
:func:`ucb_child` and :func:`add_child`, :func:`backup`, :func:`most_visited`). Those that read the game's
names are *templates* like those of :mod:`simlab.core.loop`, listed once in :data:`TEMPLATES`:
:func:`simlab.core.engine.bind` gives each game its own copy of each (globals: the game's ``legal``,
``apply``, ``determinize``, …, the loop's ``base_policy`` for rollouts, which cannot re-enter the search, and
:func:`bound_names`), compiled into the game's *search* loop only when a search bot first plays
(``Kernel.for_kinds``); the plain loop holds :func:`search_unbound`. All but :func:`search_decide` are
compiled into their callers (:data:`INLINED`), so the search is one compiled function per game, as fast to
compile as before the split. The others (:data:`SHARED`) are compiled once for every game. The tree is two
tables preallocated once per decision (``iterations + 1`` nodes; no allocation per iteration) and the work
state is one record overwritten per iteration.

The bot's parameters travel in its float64 parameter vector (layout: :data:`PARAMS`, declared once, and its
``P_*`` slots below; the rollout bot's own parameters from :data:`ROLLOUT_OFFSET`). Spec strings
(``ismcts:iterations=200,c=0.7,rollout=trader``) are parsed by :mod:`simlab.core.search_spec`, kept apart so
that a change to them recompiles no game (this module is a shared source of every game's compiled code: a word
changed in a parameter's doc here recompiles every game); see docs/search.md.
"""
# ruff: noqa: F821  (the game's names are bound per game by simlab.core.engine.bind)

from __future__ import annotations

import math
import time

import numba
import numpy as np

from simlab.core.compiled import compiled
from simlab.core.loop import KIND_SEARCH
from simlab.core.params import ParamLayout
from simlab.core.rng import below, next_u64

#: the parameter vector's layout, declared once: each slot's name and meaning (the rollout bot's own parameters
#: follow from :data:`ROLLOUT_OFFSET`). The spec keys are these names, ``rollout`` naming the bot whose kind
#: fills ``rollout_kind``; the defaults and the spec parsing are :mod:`simlab.core.search_spec`'s
PARAMS = ParamLayout(
    iterations="playouts per decision (the tree: iterations; 0 with seconds > 0: time only, tree only)",
    c="UCB1 exploration constant (rewards are win shares in [0, 1])",
    rollout_kind="the bot that plays every seat in the playouts: random or one of the game's heuristics "
    "(default: the one the game names, its strongest measured heuristic, else its first)",
    seconds="wall-clock budget per decision (0: none); not reproducible, so never for experiments",
    max_nodes="tree size cap with a time budget (with iterations only, the tree holds iterations + 1 nodes)",
    prior="virtual visits (at an even share, 1 / players) for the rollout bot's own choice, expanded first at "
    "every node: it steers the exploration; the decision counts real visits only (0: uniform expansion)",
    widen="progressive widening: a node holds at most widen * sqrt(visits + 1) children (0: every legal action)",
    rank_weight="reward = (1 - w) * win share + w * (players - rank) / (players - 1): a rank-based value "
    "that separates second from last (0: the win share alone)",
    candidates="K > 0 (default 4): no tree; the rollout bot's K best actions raced by sequential halving on "
    "the iterations' playouts, paired by determinization (rollout improvement; ties keep the bot's choice); "
    "0: the ISMCTS tree over every legal action",
    depth="D > 0: a playout stops after D decisions and the game scores the position where it stands (its "
    "bots' estimate_now, else its rules' score_now: the final scoring applied now); cheaper playouts, a biased "
    "reward; 0: to the end (default 0 unless the game names its own, measured in docs/search.md)",
)
P_ITERATIONS, P_C, P_ROLLOUT_KIND, P_SECONDS, P_MAX_NODES = PARAMS.indices(
    "iterations", "c", "rollout_kind", "seconds", "max_nodes"
)
P_PRIOR, P_WIDEN, P_RANK_WEIGHT, P_CANDIDATES, P_DEPTH = PARAMS.indices(
    "prior", "widen", "rank_weight", "candidates", "depth"
)
#: where the rollout bot's own parameters start in the vector
ROLLOUT_OFFSET = len(PARAMS)
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


@compiled
def reseed(roll_rng, mine):
    """A fresh generator state from ``mine`` for each rollout stream in ``roll_rng``, in seat order (no game's
    names in it: compiled once for every game)."""
    for p in range(roll_rng.shape[0]):
        roll_rng[p] = fresh_state(mine)


def determinize_sample(work, st, cf, seat, mine):
    """One determinization of what ``seat`` knows in ``st``, written to ``work`` (``st`` is never changed):
    the game's ``determinize`` resamples what the seat cannot see, the chance generator is reseeded from
    ``mine`` and the outcomes a test fixed in advance (``forced``) are dropped."""
    work[0] = st[0]
    determinize(work, cf, seat, mine)
    w = work[0]
    w.rng[0] = fresh_state(mine)
    w.forced_i = w.forced_n


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


@compiled
def seat_reward(share, rank, seat, rank_weight, players):
    """``seat``'s reward in a played-out state (its ``share`` and ``rank`` fields): its win share, mixed with
    its rank by ``rank_weight`` (no game's names in it: compiled once for every game with these fields' types)."""
    reward = share[seat]
    if rank_weight > 0.0 and players > 1:
        reward = (1.0 - rank_weight) * reward + rank_weight * (players - rank[seat]) / (players - 1.0)
    return reward


# -- the rollout race (candidates=K > 0) -------------------------------------------------------------------
def race_candidates(params, st, cf, buf, n, roll_rng, seat, cand):
    """The rollout bot's ranking of ``buf[:n]`` into ``cand``: its choice among what is left, up to
    ``len(cand)`` times. Returns how many it ranked (fewer when it answers outside the actions offered)."""
    rollout_kind = int(params[P_ROLLOUT_KIND])
    rollout_params = params[ROLLOUT_OFFSET:]
    left = buf[:n].copy()
    m = n
    k = 0
    while k < cand.shape[0] and m > 0:
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
    return k


@compiled
def keep_better_half(alive, total, n_alive):
    """Sort the first ``n_alive`` indices of ``alive`` by ``total``, best first — stable, so ties keep their
    order (the rollout bot's) — and return how many survive the halving."""
    for i in range(1, n_alive):
        x = alive[i]
        j = i - 1
        while j >= 0 and total[alive[j]] < total[x]:
            alive[j + 1] = alive[j]
            j -= 1
        alive[j + 1] = x
    return (n_alive + 1) // 2


def race_round(params, st, cf, seat, players, mine, cand, alive, n_alive, total, samples, base, work, roll_rng):
    """One round of the race: ``samples`` determinizations (into ``base``), each played out (in ``work``) after
    every surviving candidate with the same rollout streams (common random numbers): the rewards add to
    ``total``."""
    rollout_kind = int(params[P_ROLLOUT_KIND])
    rollout_params = params[ROLLOUT_OFFSET:]
    rank_weight = params[P_RANK_WEIGHT]
    depth = int(params[P_DEPTH])
    sbuf = np.empty(MAX_ACTIONS, np.int32)
    roll_start = np.empty_like(roll_rng)
    for _ in range(samples):
        determinize_sample(base, st, cf, seat, mine)
        reseed(roll_start, mine)
        for i in range(n_alive):
            work[0] = base[0]
            roll_rng[:] = roll_start
            apply(work, cf, cand[alive[i]])
            play_out(work, cf, sbuf, roll_rng, rollout_kind, rollout_params, depth)
            total[alive[i]] += seat_reward(work[0].share, work[0].rank, seat, rank_weight, players)


def race_decide(params, st, cf, buf, n, bot_rng, seat):
    """Rollout improvement of the rollout bot (``candidates=K``): its K best actions (:func:`race_candidates`)
    raced by sequential halving (Karnin, Koren & Somekh 2013) on ``iterations`` playouts
    (:func:`race_round`, :func:`keep_better_half`). The candidates of a round share each sample's
    determinization and chance, so a difference between two of them is the difference their action makes,
    not luck; ties go to the rollout bot's order, so with too few playouts to tell them apart it plays the
    bot's own choice. Draws from ``bot_rng[seat]`` only and never changes ``st``."""
    iterations = int(params[P_ITERATIONS])
    players = bot_rng.shape[0]
    mine = bot_rng[seat : seat + 1]
    roll_rng = np.empty(max(st[0].share.shape[0], players), np.uint64)
    cand = np.empty(min(int(params[P_CANDIDATES]), n), np.int32)
    reseed(roll_rng, mine)
    k = race_candidates(params, st, cf, buf, n, roll_rng, seat, cand)
    if k <= 1 or iterations < 2:
        return cand[0] if k > 0 else buf[0]
    total = np.zeros(k, np.float64)
    alive = np.arange(k)
    n_alive = k
    rounds = 0
    while (1 << rounds) < k:
        rounds += 1
    base = np.empty_like(st)
    work = np.empty_like(st)
    spent = 0
    for r in range(rounds):
        if n_alive <= 1:
            break
        samples = max(1, (iterations - spent) // (n_alive * (rounds - r)))
        race_round(params, st, cf, seat, players, mine, cand, alive, n_alive, total, samples, base, work, roll_rng)
        spent += samples * n_alive
        n_alive = keep_better_half(alive, total, n_alive)
    return cand[alive[0]]


# -- the ISMCTS tree (candidates=0) ------------------------------------------------------------------------
#: rows of a tree's int32 table (``links``) and float64 table (``stats``); one column per node. Children are
#: linked lists (``first`` child, next ``sibling``): the actions legal at a node vary between determinizations
(T_PARENT, T_ACTION, T_MOVER, T_FIRST, T_SIBLING) = range(5)
(T_VISITS, T_WINS, T_AVAIL, T_VIRTUAL) = range(4)


@compiled
def new_tree(cap):
    """An empty tree of room for ``cap`` nodes: its ``links`` and ``stats`` tables, the root alone in them."""
    links = np.empty((5, cap), np.int32)
    stats = np.zeros((4, cap), np.float64)
    links[T_FIRST, 0] = -1
    links[T_SIBLING, 0] = -1
    return links, stats


@compiled
def add_child(links, stats, node, child, chosen, mover, virtual, even):
    """Make ``child`` (the next free column) a child of ``node`` for action ``chosen`` by ``mover``, with
    ``virtual`` visits at an ``even`` share (the prior)."""
    links[T_PARENT, child] = node
    links[T_ACTION, child] = chosen
    links[T_MOVER, child] = mover
    links[T_FIRST, child] = -1
    links[T_SIBLING, child] = links[T_FIRST, node]
    links[T_FIRST, node] = child
    stats[T_AVAIL, child] = 1.0
    stats[T_VISITS, child] = virtual
    stats[T_VIRTUAL, child] = virtual
    stats[T_WINS, child] = virtual * even


@compiled
def ucb_child(links, stats, node, mark, stamp, c):
    """Among ``node``'s children whose action is legal here (``mark[a] == stamp``), the one of highest UCB1
    (-1: none), and how many there are. Each such child counts one more availability, and its action is
    marked ``-stamp`` (tried): the actions still marked ``stamp`` are the untried ones."""
    tried = 0
    best = -1
    best_value = -1.0e300
    ch = links[T_FIRST, node]
    while ch >= 0:
        a = links[T_ACTION, ch]
        if mark[a] == stamp:
            mark[a] = -stamp
            tried += 1
            stats[T_AVAIL, ch] += 1.0
            visits = stats[T_VISITS, ch]
            value = stats[T_WINS, ch] / visits + c * math.sqrt(math.log(stats[T_AVAIL, ch]) / visits)
            if value > best_value:
                best_value = value
                best = ch
        ch = links[T_SIBLING, ch]
    return best, tried


@compiled
def untried_action(sbuf, m, mark, stamp, k):
    """The ``k``-th (from 0) of ``sbuf[:m]`` still marked untried (``stamp``); -1 if there are fewer."""
    for j in range(m):
        if mark[sbuf[j]] == stamp:
            if k == 0:
                return sbuf[j]
            k -= 1
    return -1


def descend(params, links, stats, nodes, cap, work, cf, sbuf, mark, stamp, mine, roll_rng, even):
    """Selection and expansion in the determinization ``work``: down the tree by UCB1 over the children legal
    here (:func:`ucb_child`), until a node with room for an untried action, which becomes a new child
    (the rollout bot's own choice first when ``prior`` > 0, else one drawn from ``mine``), or the end of the
    game, or a full tree. ``work`` is left at that node. Returns the node, the nodes used and the last stamp."""
    c = params[P_C]
    prior = params[P_PRIOR]
    widen = params[P_WIDEN]
    rollout_kind = int(params[P_ROLLOUT_KIND])
    rollout_params = params[ROLLOUT_OFFSET:]
    node = 0
    while not is_terminal(work):
        p = current_player(work)
        m = legal(work, cf, sbuf)
        stamp += 1
        for j in range(m):
            mark[sbuf[j]] = stamp
        best, tried = ucb_child(links, stats, node, mark, stamp, c)
        room = widen <= 0.0 or best < 0 or tried < widen * math.sqrt(stats[T_VISITS, node] + 1.0)
        if tried < m and nodes < cap and room:
            if prior > 0.0 and links[T_FIRST, node] < 0:  # the node's first child: the rollout bot's own choice
                chosen = base_policy(rollout_kind, rollout_params, work, cf, sbuf, m, roll_rng, p)
                virtual = prior
            else:
                chosen = untried_action(sbuf, m, mark, stamp, below(mine, 0, m - tried))
                virtual = 0.0
            add_child(links, stats, node, nodes, chosen, p, virtual, even)
            apply(work, cf, chosen)
            return nodes, nodes + 1, stamp
        if best < 0:
            break  # the tree is full here: play out from this node
        apply(work, cf, links[T_ACTION, best])
        node = best
    return node, nodes, stamp


def backup(links, stats, node, work, rank_weight, players):
    """From ``node`` up to the root, one more visit each; each node's mover scores its own reward in the
    played-out ``work`` (:func:`seat_reward`)."""
    w = work[0]
    x = node
    while x > 0:
        stats[T_VISITS, x] += 1.0
        stats[T_WINS, x] += seat_reward(w.share, w.rank, links[T_MOVER, x], rank_weight, players)
        x = links[T_PARENT, x]
    stats[T_VISITS, 0] += 1.0


@compiled
def most_visited(links, stats, buf, n, mark, stamp, even):
    """The root action legal here (``buf[:n]``, marked with the fresh ``stamp``) with the most real visits
    (the prior's virtual ones left out); -1 if none. Ties — the rule when the budget is below the branching
    factor and every child has one visit — go to the higher mean reward, then the rollout bot's own choice,
    then the smaller action id (an id alone would steer a small budget to whichever actions a game numbers
    first)."""
    for j in range(n):
        mark[buf[j]] = stamp
    best = -1
    most = -1.0
    best_mean = -1.0
    ch = links[T_FIRST, 0]
    while ch >= 0:
        a = links[T_ACTION, ch]
        if mark[a] == stamp:
            virtual = stats[T_VIRTUAL, ch]
            real = stats[T_VISITS, ch] - virtual
            mean = (stats[T_WINS, ch] - virtual * even) / real if real > 0.0 else -1.0
            if (
                best < 0
                or real > most
                or (real == most and mean > best_mean)
                or (real == most and mean == best_mean and virtual > stats[T_VIRTUAL, best])
                or (
                    real == most
                    and mean == best_mean
                    and virtual == stats[T_VIRTUAL, best]
                    and a < links[T_ACTION, best]
                )
            ):
                most = real
                best_mean = mean
                best = ch
        ch = links[T_SIBLING, ch]
    return -1 if best < 0 else links[T_ACTION, best]


def tree_decide(params, st, cf, buf, n, bot_rng, seat):
    """Information-set MCTS (``candidates=0``): per iteration a fresh determinization
    (:func:`determinize_sample`), a descent that adds one node (:func:`descend`), a playout
    (:func:`play_out`) and the backup (:func:`backup`), within ``iterations`` or ``seconds``; then the most
    visited root action (:func:`most_visited`). Draws from ``bot_rng[seat]`` only and never changes ``st``."""
    iterations = int(params[P_ITERATIONS])
    seconds = params[P_SECONDS]
    rollout_kind = int(params[P_ROLLOUT_KIND])
    rollout_params = params[ROLLOUT_OFFSET:]
    rank_weight = params[P_RANK_WEIGHT]
    depth = int(params[P_DEPTH])
    players = bot_rng.shape[0]  # one bot stream per seat of the game
    even = 1.0 / players
    cap = iterations + 1 if seconds <= 0.0 else int(params[P_MAX_NODES])
    if iterations > 0 and seconds > 0.0:
        cap = min(cap, iterations + 1)
    if cap < 2:
        return buf[0]
    links, stats = new_tree(cap)
    nodes = 1
    sbuf = np.empty(MAX_ACTIONS, np.int32)
    mark = np.zeros(MAX_ACTIONS, np.int64)
    stamp = 0
    work = np.empty_like(st)
    roll_rng = np.empty(max(st[0].share.shape[0], players), np.uint64)
    mine = bot_rng[seat : seat + 1]
    start = clock() if seconds > 0.0 else 0.0
    it = 0
    while True:
        if iterations > 0 and it >= iterations:
            break
        if seconds > 0.0 and it % CLOCK_EVERY == 0 and it > 0 and clock() - start >= seconds:
            break
        it += 1
        determinize_sample(work, st, cf, seat, mine)
        reseed(roll_rng, mine)
        node, nodes, stamp = descend(
            params, links, stats, nodes, cap, work, cf, sbuf, mark, stamp, mine, roll_rng, even
        )
        play_out(work, cf, sbuf, roll_rng, rollout_kind, rollout_params, depth)
        backup(links, stats, node, work, rank_weight, players)
    best = most_visited(links, stats, buf, n, mark, stamp + 1, even)
    return buf[0] if best < 0 else best


def search_decide(params, st, cf, buf, n, bot_rng, seat):
    """The action the search picks among ``buf[:n]`` for ``seat`` in ``st`` (never changed), drawing from
    ``bot_rng[seat]`` only: the rollout race (``candidates`` > 0) or the tree."""
    if params[P_CANDIDATES] > 0.0:
        return race_decide(params, st, cf, buf, n, bot_rng, seat)
    return tree_decide(params, st, cf, buf, n, bot_rng, seat)


#: the search's templates, each bound per game by :func:`simlab.core.engine.bind` into the game's search loop
#: (they read the game's ``legal``, ``apply``, ``determinize``, …, and each other)
TEMPLATES = (
    determinize_sample,
    play_out,
    race_candidates,
    race_round,
    race_decide,
    descend,
    backup,
    tree_decide,
    search_decide,
)
#: the templates compiled into their callers (numba's inline="always"), all but search_decide: each part
#: compiled on its own was one more library holding the game's whole rules, optimised and linked again into
#: every caller above it (Roma's search compiled for 29.9 s of CPU split, 19.0 inlined, 22.7 as one function
#: before the split; docs/scaling.md). Called from Python (the parts' tests), each still compiles on its own.
INLINED = tuple(t for t in TEMPLATES if t is not search_decide)
#: compiled functions shared by every game as they are (no game's names in them)
SHARED = (
    clock,
    fresh_state,
    reseed,
    seat_reward,
    keep_better_half,
    new_tree,
    add_child,
    ucb_child,
    untried_action,
    most_visited,
)


def bound_names() -> dict[str, object]:
    """What a game's search templates read besides the game's own names: the shared compiled functions and
    the constants (``P_*`` slots, ``T_*`` rows, ``ROLLOUT_OFFSET``, ``CLOCK_EVERY``)."""
    names: dict[str, object] = {fn.__name__: fn for fn in SHARED}
    names.update({k: v for k, v in globals().items() if k.startswith(("P_", "T_")) and isinstance(v, int)})
    names.update(np=np, math=math, below=below, ROLLOUT_OFFSET=ROLLOUT_OFFSET, CLOCK_EVERY=CLOCK_EVERY)
    return names


__all__ = [
    "INLINED",
    "KIND_SEARCH",
    "PARAMS",
    "ROLLOUT_OFFSET",
    "SHARED",
    "TEMPLATES",
    "bound_names",
    "search_decide",
]
