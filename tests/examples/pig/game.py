"""Pig on the simlab game contract: the Game object (config, rules and bots come from the kit)."""

from __future__ import annotations

from simlab.core.bots import BotRegistry, heuristic
from simlab.core.game import Game, State

from . import rules as R
from .bots import HOLDER
from .config import MAX_PLAYERS, PigConfig


class PigState(State):
    def describe(self, action: int) -> str:
        return R.ACTIONS.describe(action)

    def determinize(self, player: int, rng) -> PigState:
        """Pig hides nothing: every seat sees the whole state, so the view is a copy."""
        return self.clone()


class PigGame(Game):
    """Pig: roll to add, a 1 loses the turn, first to 100 wins."""

    name = "pig"
    title = "Pig"
    rules_version = "pig-1.0"
    config_class = PigConfig
    state_class = PigState
    min_players = 2
    max_players = MAX_PLAYERS
    hooks = ("determinize", "score_now")
    bots = BotRegistry("pig", [heuristic("holder", "holds at a turn total of hold_at", HOLDER)])


GAME = PigGame()
