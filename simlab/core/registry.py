"""The lazy, versioned game registry: game id -> "module:attr", loaded on first use.

Built-in games are listed here; third-party games register through the ``simlab.games`` entry point
group with the same "module:attr" form. Nothing is imported until a game is asked for, so ``simlab
games`` stays fast and a broken plug-in cannot break the others.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from simlab.core.errors import UnknownGameError
from simlab.core.suggest import unknown_name

if TYPE_CHECKING:
    from simlab.core.game import Game

BUILTIN_GAMES: dict[str, str] = {
    "massilia": "simlab.games.massilia.game:GAME",
    "merchant_of_venus": "simlab.games.merchant_of_venus.game:GAME",
    "pantheon": "simlab.games.pantheon.game:GAME",
    "roma": "simlab.games.roma.game:GAME",
}


def _targets() -> dict[str, str]:
    targets = dict(BUILTIN_GAMES)
    for ep in entry_points(group="simlab.games"):
        targets.setdefault(ep.name, ep.value)
    return targets


def available_games() -> list[str]:
    """Ids of every registered game (built-in and plug-in), sorted."""
    return sorted(_targets())


@cache
def get_game(name: str) -> Game:
    """The game object for ``name``; raises UnknownGameError listing the available ids."""
    targets = _targets()
    if name not in targets:
        raise UnknownGameError(unknown_name("game", name, sorted(targets)))
    module, _, attr = targets[name].partition(":")
    return getattr(importlib.import_module(module), attr)
