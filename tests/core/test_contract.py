"""The game contract, checked for every registered game and the example game Pig (DESIGN.md "The game
contract", Style item 11) through the shipped kit, ``simlab.testing``: what a designer runs on their own game
with ``check_game(game)`` is what simlab runs on its own.

One test per game and check (random games with invariants after every action, copy integrity, illegal actions,
determinism, outcomes, the record contract, knob reach and ranges, fact columns, declared hooks, hidden
information and bots that do not peek); the sampled states are drawn once per game. Game-specific checks come
from the game itself: its ``checks`` module (``simlab.core.checks``)."""

from __future__ import annotations

import pytest

from simlab import available_games, get_game
from simlab.testing import CHECKS, check_game
from simlab.testing.contract import Contract

GAMES = [*available_games(), "pig"]


def _game(name: str):
    if name == "pig":  # tests/examples/pig: a new game on the kit alone, registered nowhere
        from tests.examples.pig.game import GAME

        return GAME
    return get_game(name)


_CONTRACTS: dict[str, Contract] = {}


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("name", GAMES)
def test_the_game_meets_the_contract(name: str, check: str) -> None:
    contract = _CONTRACTS.setdefault(name, Contract(_game(name)))  # one set of sampled states per game
    contract.run(check)


def test_check_game_runs_every_check_and_refuses_an_unknown_one() -> None:
    from tests.examples.pig.game import GAME

    assert check_game(GAME, ["hooks", "record", "outcome"]) == ["hooks", "record", "outcome"]
    with pytest.raises(ValueError, match=r"unknown contract check 'hook'.*hooks"):
        check_game(GAME, ["hook"])
