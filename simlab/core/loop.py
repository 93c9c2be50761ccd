"""The compiled game loop, written once for every game: the policy dispatch and the batch of games.

These functions are *templates*: they name the functions of a game (``init``, ``legal``, ``apply``,
``is_terminal``, ``current_player``, ``heuristic_policy``, ``MAX_ACTIONS``) without importing them.
``simlab.core.engine.bind`` gives each game its own copies, whose globals are that game's functions and
whose names are ``<game>.<template>``, so numba compiles the loop around the game's rules (inlining them)
and caches each game's loop under its own name in this module's ``__pycache__``. A closure or a loop
taking the game's functions as arguments would not be cached on disk by numba; this is.

The contract the names stand for (see docs/adding_a_game.md): ``init(st, cf, rng)`` sets up a game from a
chance state; ``legal(st, cf, buf) -> n`` writes the legal actions; ``apply(st, cf, a)``;
``current_player(st)``; ``is_terminal(st)``; ``heuristic_policy(params, st, cf, buf, n, bot_rng, seat)``
is the game's compiled heuristic bots (``params`` are the bot's parameters); ``search_decide`` is core's
search bot bound to the same game (``simlab.core.search``), over the game's ``determinize(st, cf, seat, rng)``.
"""
# ruff: noqa: F821  (the game's names are bound per game by simlab.core.engine.bind)

from __future__ import annotations

KIND_RANDOM = 0  # a uniformly random legal action, for every game
KIND_HEURISTIC = 1  # the game's heuristic_policy with the bot's parameters
KIND_SEARCH = 2  # core's search bot (simlab.core.search) over the game's contract


def base_policy(kind, params, st, cf, buf, n, bot_rng, seat):
    """The bots that do not search (random, the game's heuristics): what search rollouts call, so the
    search cannot re-enter itself (numba compiles no recursion through a dispatch)."""
    if n == 1:
        return buf[0]
    if kind == KIND_RANDOM:
        return buf[below(bot_rng, seat, n)]
    return heuristic_policy(params, st, cf, buf, n, bot_rng, seat)


def policy(kind, params, st, cf, buf, n, bot_rng, seat):
    """Dispatch to the compiled bot ``kind`` for the decision at hand (``buf[:n]`` are legal)."""
    if n == 1:
        return buf[0]
    if kind == KIND_SEARCH:
        return search_decide(params, st, cf, buf, n, bot_rng, seat)
    return base_policy(kind, params, st, cf, buf, n, bot_rng, seat)


def play_one(st, cf, bot_rng, kinds, params, buf):
    """Play the game in ``st`` to its end, each seat's decisions by its bot."""
    while not is_terminal(st):
        seat = current_player(st)
        n = legal(st, cf, buf)
        a = policy(kinds[seat], params[seat], st, cf, buf, n, bot_rng, seat)
        apply(st, cf, a)


def play_many(cf, rng, bot_rng, kinds, params, out):
    """Play ``len(out)`` games: game i from chance state ``rng[i]`` and bot states ``bot_rng[i]``."""
    buf = np.zeros(MAX_ACTIONS, dtype=np.int32)
    for i in range(out.shape[0]):
        st = out[i : i + 1]
        init(st, cf, rng[i : i + 1])
        play_one(st, cf, bot_rng[i], kinds, params[:, :], buf)
