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
    a = action
    if a < R.A_STOP:
        h = a % R.MAX_HEX
        where = hexes[h] if hexes is not None and h < len(hexes) else f"hex {h}"
        return ("foot on ", "column on ", "Gaiviles jump over ")[a // R.MAX_HEX] + where
    named = {
        R.A_STOP: "stop",
        R.A_MOVE: "move",
        R.A_BUY: "purchase",
        R.A_GOD: "take a god",
        R.A_DRAW: "draw cards",
        R.A_DECK: "draw from the deck",
        R.A_BUY_FOOT: "buy a foot from the supply",
        R.A_BUY_COL: "buy a column from the supply",
        R.A_JOIN_DRAW: "draw a card instead of joining",
        R.A_TRAITERA: "use Traitera (one more action)",
        R.A_GALLIA_DRAW: "Gallia: draw cards",
        R.A_GALLIA_FLIP: "Gallia: flip the top god",
        R.A_SWAP_FC: "swap a foot for a column",
        R.A_SWAP_CF: "swap a column for a foot",
    }
    if a in named:
        return named[a]
    if R.A_COUNT <= a < R.A_KIND:
        k = a - R.A_COUNT
        return f"play {k} movement card{'' if k == 1 else 's'}"
    if R.A_KIND <= a < R.A_SLOT:
        return f"kind {D.SACRIFICE_KINDS[a - R.A_KIND]}"
    if R.A_SLOT <= a < R.A_DECK:
        return f"slot {a - R.A_SLOT}"
    if R.A_MONEY <= a < R.A_TILE:
        return f"play a money {a - R.A_MONEY + 1} card"
    if R.A_TILE <= a < R.A_BUY_FOOT:
        x = a - R.A_TILE
        return f"sacrifice tile {D.SACRIFICE_KINDS[x // 4]} to level {x % 4 + 1}"
    if R.A_DISCARD <= a < R.A_SWAP_FC:
        return f"discard a {CARD_NAMES[a - R.A_DISCARD]} card"
    if R.A_LOOT <= a < R.A_BONUS:
        return f"resolve pending loot {a - R.A_LOOT}"
    if R.A_BONUS <= a < R.MAX_ACTIONS:
        return f"bonus tile {a - R.A_BONUS}"
    return str(a)


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
    rules_module = "simlab.games.pantheon.rules"
    policy = "simlab.games.pantheon.bots:heuristic_policy"
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
