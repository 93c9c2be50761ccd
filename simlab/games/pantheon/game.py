"""Pantheon on the simlab game contract: the Game object, the state wrapper, transcripts and determinize."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from simlab.core.bots import BotRegistry, heuristic
from simlab.core.game import Game, State
from simlab.games.pantheon import data as D
from simlab.games.pantheon import narrate
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.bots import BUILDER, DEVOUT, GOD_FIRST
from simlab.games.pantheon.config import MAX_PLAYERS, PantheonConfig

RULES_VERSION = "pantheon-0.2"
CARD_NAMES = narrate.CARD_NAMES


def describe_action(action: int, hexes: Sequence[str] | None = None) -> str:
    """A readable name for any action id (a hex by its label in ``hexes``, ``narrate.hex_labels``)."""
    if R.ACTIONS.find(action) is None:
        return str(action)
    name, x = R.ACTIONS.decode(action)
    if name in _ON_HEX:
        where = hexes[x] if hexes is not None and x < len(hexes) else f"hex {x}"
        return _ON_HEX[name] + where
    if name in _NAMED:
        return _NAMED[name]
    match name:
        case "count":
            return f"play {x} movement card{'' if x == 1 else 's'}"
        case "kind":
            return f"kind {D.SACRIFICE_KINDS[x]}"
        case "slot":
            return f"slot {x}"
        case "money":
            return f"play a money {x + 1} card"
        case "tile":
            kind, level = x
            return f"sacrifice tile {D.SACRIFICE_KINDS[kind]} to level {level + 1}"
        case "discard":
            return f"discard a {CARD_NAMES[x]} card"
        case "loot":
            return f"resolve pending loot {x}"
        case "bonus":
            return f"bonus tile {x}"
    return R.ACTIONS.describe(action)


_ON_HEX = {"foot": "foot on ", "col": "column on ", "jump": "Gaiviles jump over "}
_NAMED = {
    "stop": "stop",
    "move": "move",
    "buy": "purchase",
    "god": "take a god",
    "draw": "draw cards",
    "deck": "draw from the deck",
    "buy_foot": "buy a foot from the supply",
    "buy_col": "buy a column from the supply",
    "join_draw": "draw a card instead of joining",
    "traitera": "use Traitera (one more action)",
    "gallia_draw": "Gallia: draw cards",
    "gallia_flip": "Gallia: flip the top god",
    "swap_fc": "swap a foot for a column",
    "swap_cf": "swap a column for a foot",
}


class PantheonState(State):
    def describe(self, action: int) -> str:
        return narrate.describe(self, action, describe_action(action, narrate.labels_for(self.config)))

    # -- transcript (simlab.games.pantheon.narrate) ------------------------------------------------
    def narrate_start(self) -> list[str]:
        return narrate.start(self)

    def narrate_before(self, action: int) -> list[str]:
        return [f"{narrate.prefix(self)} {self.describe(action)}"]

    def narrate_after(self, action: int, after: State) -> list[str]:
        return narrate.after(self, action, after)

    def narrate_scores(self) -> list[str]:
        return narrate.scores(self)

    def determinize(self, player: int, rng: np.random.Generator) -> PantheonState:
        """A copy in which everything ``player`` cannot see is resampled (compiled ``rules.determinize``)."""
        view = self.clone()
        words = rng.integers(1, 2**63, size=1, dtype=np.int64).astype(np.uint64)
        R.determinize(view.record, view.cfg, int(player), words)
        return view


class PantheonGame(Game):
    """Pantheon (Hans im Glück 2011): six eras of nations, gods, demigods and columns."""

    name = "pantheon"
    title = "Pantheon"
    rules_version = RULES_VERSION
    config_class = PantheonConfig
    state_class = PantheonState
    min_players = 2
    max_players = MAX_PLAYERS
    hooks = ("determinize", "score_now")
    scenarios: ClassVar[dict[str, str]] = {"card_value": "scenarios/pantheon_god_value.toml"}
    default_bots = ("builder", "devout")

    @property
    def bots(self) -> BotRegistry:
        return _BOTS

    def data_files(self, config: PantheonConfig) -> dict[str, Path]:
        """The map, god-tile, demigod and loot/bonus tables the config names (see pantheon.data_check)."""
        from simlab.games.pantheon.data_check import data_files

        return data_files(config)

    def forget_data(self) -> None:
        from simlab.games.pantheon.data_check import forget_tables

        forget_tables()


_BOTS = BotRegistry(
    "pantheon",
    [
        heuristic(
            "builder",
            "walks feet toward the loot, plants columns on contested column spaces, buys pieces and tiles",
            BUILDER,
        ),
        heuristic(
            "devout",
            "buys sacrifice tiles first, then the gods whose era points and lasting effects pay most",
            DEVOUT,
        ),
        heuristic(
            "god_first", "takes a face-up god whenever one can be paid, otherwise a random legal action", GOD_FIRST
        ),
    ],
    rollout="devout",  # the strongest heuristic measured (docs/games/pantheon.md): the search bot's playouts
)

GAME = PantheonGame()
