"""What a game checks about itself, found by the contract suite (``tests/core/test_contract.py``).

A game ships its own invariants and hidden-information rules in ``simlab/games/<game>/checks.py`` (or in
the module its Game class names in a ``checks_module`` attribute, for a plug-in game laid out otherwise).
The module may define any of these functions; what it leaves out gets a default that checks nothing, so a
game without a checks module still gets every generic check of the suite:

``invariants(s, config) -> None``
    Called on the state record ``s`` (``state.record[0]``) after every action of many random games and on
    every final record of a batch run. Asserts (``assert`` or raising ``AssertionError``) that components
    are conserved against the config's totals, counts are within their bounds, and a finished game is
    scored as the rules say.

``hidden_fields(s, player) -> Collection[str]``
    The record fields ``player`` may not see at this point (other hands, deck order, …). ``determinize``
    may change only these fields: the suite asserts every other field of a determinized copy is equal to
    the original's. By default every field is hidden (no public-field check).

``determinized(orig, det, player) -> None``
    What a determinized view (``det = orig.determinize(player, rng)``) must keep within the hidden fields:
    the player's own hand, every hand size, the multiset of cards the player cannot see, …

``resampled(orig, det, player) -> bool``
    Whether ``det`` differs from ``orig`` in what ``player`` cannot see; the suite asserts that
    determinize resamples something in most sampled states (so it is not a copy). Default: True.

The compiled-bot no-cheating test runs each bot on the original and on determinized copies: a bot whose
decision changes with the hidden fields peeks at them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from simlab.core.game import companion_module, companion_name


def _no_invariants(s: np.void, config: Any) -> None:
    return None


def _all_hidden(s: np.void, player: int) -> Collection[str]:
    return s.dtype.names or ()


def _keeps_nothing(orig: Any, det: Any, player: int) -> None:
    return None


def _always_resampled(orig: Any, det: Any, player: int) -> bool:
    return True


@dataclasses.dataclass(frozen=True)
class GameChecks:
    """A game's checks, each function defaulted when the game's checks module does not define it."""

    module: str | None
    invariants: Callable[[np.void, Any], None] = _no_invariants
    hidden_fields: Callable[[np.void, int], Collection[str]] = _all_hidden
    determinized: Callable[[Any, Any, int], None] = _keeps_nothing
    resampled: Callable[[Any, Any, int], bool] = _always_resampled


_HOOKS = ("invariants", "hidden_fields", "determinized", "resampled")


def checks_module_name(game: Any) -> str:
    """``game.checks_module`` if the game names one, else ``checks`` next to the game's module."""
    return companion_name(game, "checks")


def checks_for(game: Any) -> GameChecks:
    """The checks a game ships (see the module docstring); defaults where it ships none. A checks module
    that exists but imports something missing is a real error, raised."""
    module = companion_module(game, "checks")
    if module is None:
        return GameChecks(module=None)
    hooks = {hook: getattr(module, hook) for hook in _HOOKS if hasattr(module, hook)}
    return GameChecks(module=module.__name__, **hooks)
