"""The games and states the contract checks play over: every config of a game, random playouts, sampled states."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from itertools import cycle
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class Budget:
    """How much the contract checks play. The defaults are simlab's own suite's; a game's own test may ask
    for less while its author iterates (and must pass the defaults before it ships)."""

    #: random games checked after every action: up to ``random_games``, at least ``min_random_games``, until
    #: ``action_budget`` actions are checked (a game of long games stops earlier)
    random_games: int = 300
    min_random_games: int = 12
    action_budget: int = 12_000
    #: compiled games of mixed lineups whose final records are checked
    batch_games: int = 3000
    #: states sampled for the copy, illegal-action and hidden-information checks: every ``sample_every``-th
    #: decision of ``sample_games`` random games (more while fewer than ``min_states``; ``max_states`` kept)
    sample_games: int = 12
    sample_every: int = 4
    min_states: int = 800
    max_states: int = 1000
    #: decisions the no-peeking check compares, at least
    peek_decisions: int = 500


def configs(game: Any) -> list[Any]:
    """Every player count, presets in turn."""
    presets = game.presets()
    out = []
    for i, players in enumerate(range(game.min_players, game.max_players + 1)):
        for j in range(len(presets)):
            out.append(game.make_config(preset=presets[(i + j) % len(presets)], players=players))
    return out


def random_playout(game: Any, config: Any, seed: int, on_state: Callable[[Any], None] | None = None) -> Any:
    """Uniformly random legal actions through the Python API; ``on_state(state)`` before each action."""
    state = game.new_state(config, seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if on_state is not None:
            on_state(state)
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def sampled_states(game: Any, budget: Budget, seed0: int = 1000) -> list[Any]:
    """Clones of every ``sample_every``-th decision of random games (all configs in turn); a game with short
    games plays more of them, until it has ``min_states`` states; one with long games (Pantheon: 2,300) keeps
    ``max_states`` of them, evenly spaced, so every stage of every game is still there."""
    out: list[Any] = []
    for i, config in enumerate(cycle(configs(game))):
        if i >= budget.sample_games and len(out) >= budget.min_states:
            break
        k = 0

        def grab(state: Any) -> None:
            nonlocal k
            if k % budget.sample_every == 0:
                out.append(state.clone())
            k += 1

        random_playout(game, config, seed0 + i, grab)
    most = budget.max_states
    if len(out) > most:
        out = [out[round(j * (len(out) - 1) / (most - 1))] for j in range(most)]
    return out
