"""The game kit's test suite, shipped: ``check_game(game)`` checks any game object against the simlab game contract.

A designer who writes a game (``simlab new-game NAME`` starts one) calls it from their own test; simlab's own
tests call it for every game it ships (tests/core/test_contract.py). It plays random games with the game's
invariants after every action, checks copy integrity, illegal actions, determinism, the record contract, every
knob's reach and range, the fact columns, the declared hooks (a misspelt ``determinize`` is named) and that
neither a determinized view nor a compiled bot peeks at what a seat cannot see. See docs/adding_a_game.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from simlab.testing.contract import CHECKS, Contract
from simlab.testing.failure import ContractFailure
from simlab.testing.sampling import Budget

__all__ = ["CHECKS", "Budget", "ContractFailure", "check_game"]


def check_game(game: Any, checks: Iterable[str] | None = None, budget: Budget | None = None) -> list[str]:
    """Run the contract checks (all, in :data:`CHECKS` order, or the named ones) on a game object; the names of
    the checks run. The first that fails raises :class:`ContractFailure` (an AssertionError) naming the game,
    the check and what is wrong."""
    names = list(CHECKS) if checks is None else list(checks)
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise ValueError(f"unknown contract check {unknown[0]!r}; the checks are: {', '.join(CHECKS)}")
    contract = Contract(game, budget)
    for name in names:
        contract.run(name)
    return names
