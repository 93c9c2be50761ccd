"""Spec strings of core's search bot and its defaults: ``race:iterations=64,rollout=trader`` (the rollout race,
the default search) and ``ismcts:candidates=0,iterations=200,c=0.7`` (information-set MCTS, the tree).

``ismcts`` is also the search's name from before the race had its own: a bare ``ismcts`` (``candidates``
default 4) is the race, exactly as it always played, so result folders and scenarios that name it read, report
and resume with the same identity (``bot: ismcts``, the same parameter vector). New specs say ``race`` for the
race and ``ismcts:candidates=0`` for the tree.

Kept apart from :mod:`simlab.core.search` (a shared source of every game's compiled code, so an edit there
recompiles every game): the defaults and the parsing here are Python only. The parameters are documented in
docs/search.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from simlab.core.errors import BotSpecError
from simlab.core.loop import KIND_HEURISTIC, KIND_RANDOM
from simlab.core.search import P_ROLLOUT_KIND, PARAMS, ROLLOUT_OFFSET

#: the spec name of the search with every parameter (the tree with ``candidates=0``; a bare one is the race, as
#: it always was), offered for every game by the bot registry
SEARCH_NAME = "ismcts"
#: the spec name of the rollout race (``candidates`` > 0, no tree), the default search
RACE_NAME = "race"
#: every spec name of the search, the race first
NAMES = (RACE_NAME, SEARCH_NAME)
#: the parameters only the tree reads: a ``race`` spec refuses them
TREE_ONLY = ("c", "prior", "widen", "seconds", "max_nodes")
#: bumped when the search plays differently at the same parameters (a run's identity holds it)
VERSION = "1"
#: the spec key of a vector slot named otherwise: ``rollout=<bot>`` fills ``rollout_kind`` (and the rollout entries)
SPEC_KEYS = {"rollout_kind": "rollout"}
#: numeric parameters and their defaults, in vector order (``rollout`` is a bot name, resolved by
#: :func:`search_params`); the ones not named are 0: off
DEFAULTS: dict[str, float] = {
    key: value
    for key, value in PARAMS.values(0.0, iterations=64, c=0.7, max_nodes=200_000, candidates=4).items()
    if key not in SPEC_KEYS
}
#: what each spec key means (``simlab bots`` lists them), from the layout's own docs
PARAM_DOC = {SPEC_KEYS.get(key, key): doc for key, doc in PARAMS.docs.items()}
for _key in TREE_ONLY:  # `simlab bots` lists every parameter under both names: say which the race refuses
    PARAM_DOC[_key] = "(the tree only: ismcts:candidates=0; race refuses it) " + PARAM_DOC[_key]
DOC = (
    "search over the game contract by playouts of a compiled bot: candidates=0 is information-set MCTS (the tree); "
    "without it, the rollout race (the name race's bot, kept for specs that name ismcts); docs/search.md"
)
RACE_DOC = (
    "rollout race: the rollout bot's 4 best actions (candidates) raced by sequential halving on paired playouts "
    "(the default search; the tree: ismcts:candidates=0); strength and speed: docs/search.md"
)
#: the race's parameters and their defaults (the tree's own left out)
RACE_DEFAULTS = {key: value for key, value in DEFAULTS.items() if key not in TREE_ONLY}


def is_search(spec: str) -> bool:
    """Whether ``spec`` (a name or ``name:key=value,...``) names core's search (:data:`NAMES`)."""
    return spec.strip().partition(":")[0].strip() in NAMES


def game_defaults(game: str, overrides: Mapping[str, float] | None) -> dict[str, float]:
    """:data:`DEFAULTS` with a game's own defaults on top (``BotRegistry(..., search_defaults={"depth": 120})``:
    the budget its ladder measured best, docs/search.md); a key or value the spec grammar refuses is an error."""
    values = dict(DEFAULTS)
    for key, value in (overrides or {}).items():
        if key not in DEFAULTS:
            raise BotSpecError(f"{game}: the search bot has no parameter {key!r}; allowed: {', '.join(DEFAULTS)}")
        if not math.isfinite(value) or value < 0:
            raise BotSpecError(f"{game}: the search bot's default {key}={value!r} must be a finite number >= 0")
        values[key] = float(value)
    return values


def search_params(
    spec: str,
    game: str,
    rollout_bots: Mapping[str, Any],
    default_rollout: str | None,
    defaults: Mapping[str, float] = DEFAULTS,
) -> np.ndarray:
    """The parameter vector of ``race:key=value,...`` or ``ismcts:key=value,...`` for ``game``.

    ``rollout_bots`` maps the names of the game's compiled non-search bots to built bots (``kind`` and
    ``params``); ``rollout=<name>`` picks one (default ``default_rollout``, else ``random``). ``defaults``:
    the values of the parameters the spec does not set (the game's: :func:`game_defaults`).
    """
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name not in NAMES:
        raise BotSpecError(f"bot spec {spec!r}: not a search spec (expected {' or '.join(NAMES)}:key=value,...)")
    values = dict(defaults)
    rollout = default_rollout or "random"
    given: set[str] = set()
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq:
            raise BotSpecError(f"bot spec {spec!r}: parameter {item!r} must look like key=value")
        if key in given:  # the last would win silently
            raise BotSpecError(f"bot spec {spec!r}: parameter {key!r} is given twice; give it once")
        given.add(key)
        if key == "rollout":
            rollout = value
            continue
        if name == RACE_NAME and key in TREE_ONLY:
            raise BotSpecError(
                f"bot spec {spec!r}: {key} is a parameter of the tree, which the race does not read; "
                f"for the tree write {SEARCH_NAME}:candidates=0,{key}=..."
            )
        if key not in DEFAULTS:
            allowed = ", ".join([*(RACE_DEFAULTS if name == RACE_NAME else DEFAULTS), "rollout"])
            raise BotSpecError(f"bot {name!r} of {game!r} has no parameter {key!r}; allowed: {allowed}")
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
    if values["candidates"] != int(values["candidates"]):
        raise BotSpecError(f"bot spec {spec!r}: candidates must be a whole number, got {values['candidates']:g}")
    if values["depth"] != int(values["depth"]):
        raise BotSpecError(f"bot spec {spec!r}: depth must be a whole number of decisions, got {values['depth']:g}")
    if name == RACE_NAME and values["candidates"] < 1:
        raise BotSpecError(
            f"bot spec {spec!r}: the race needs candidates >= 1; for the tree write {SEARCH_NAME}:candidates=0"
        )
    if name == RACE_NAME and values["iterations"] < 1:  # the race has no time budget to fall back on
        raise BotSpecError(
            f"bot spec {spec!r}: the race needs iterations >= 1 (playouts per decision), e.g. {RACE_NAME}:iterations=32"
        )
    if values["candidates"] > 0 and (values["seconds"] > 0 or values["iterations"] == 0):
        raise BotSpecError(
            f"bot spec {spec!r}: candidates (default 4) races a fixed number of playouts; a time budget "
            "(seconds) is the tree's: add candidates=0"
        )
    if values["iterations"] == 0 and values["seconds"] == 0:
        raise BotSpecError(f"bot spec {spec!r}: give iterations >= 1 or a time budget seconds > 0")
    if values["seconds"] > 0 and values["iterations"] == 0 and values["max_nodes"] < 2:
        raise BotSpecError(f"bot spec {spec!r}: max_nodes must be at least 2")
    bot = rollout_bots[rollout]
    if bot.kind not in (KIND_RANDOM, KIND_HEURISTIC):
        raise BotSpecError(f"bot spec {spec!r}: rollout={rollout!r} must be random or a heuristic, not a search")
    out = np.zeros(ROLLOUT_OFFSET + len(bot.params), dtype=np.float64)
    if values["rank_weight"] > 1:
        raise BotSpecError(f"bot spec {spec!r}: rank_weight must be between 0 and 1, got {values['rank_weight']:g}")
    for key in DEFAULTS:
        out[PARAMS.index(key)] = values[key]
    out[P_ROLLOUT_KIND] = bot.kind
    out[ROLLOUT_OFFSET:] = bot.params
    return out


def vector_names(length: int) -> list[str]:
    """The name of each entry of a search bot's parameter vector (the rollout bot's entries as rollout[i])."""
    slots = PARAMS.names
    return [slots[i] if i < ROLLOUT_OFFSET else f"rollout[{i - ROLLOUT_OFFSET}]" for i in range(length)]


__all__ = [
    "DEFAULTS",
    "DOC",
    "NAMES",
    "PARAM_DOC",
    "RACE_DEFAULTS",
    "RACE_DOC",
    "RACE_NAME",
    "SEARCH_NAME",
    "SPEC_KEYS",
    "TREE_ONLY",
    "VERSION",
    "is_search",
    "search_params",
    "vector_names",
]
