"""Merchant of Venus on the simlab game contract: the Game object, its State (action names, transcript
lines, determinize)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from simlab.core.bots import BotRegistry, heuristic
from simlab.core.game import Game, State
from simlab.games.merchant_of_venus import narrate
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.bots import PORTER, TRADER
from simlab.games.merchant_of_venus.config import (
    GOOD_NAMES,
    MAX_PLAYERS,
    MerchantOfVenusConfig,
    board_path,
)

#: 0.2: seat 0 starts by default (start_player), the record's fact series, the experiment knobs
#: 0.3: a board's optional green_lines (the Asteroid System's ports three green lines from a neutral port, which
#: goes bankrupt; the record's ``bankrupt``); the shipped board declares none, so its results are unchanged
RULES_VERSION = "merchant_of_venus-0.3"

_BOTS = BotRegistry(
    "merchant_of_venus",
    [
        heuristic(
            "trader",
            "buy-low / sell-high round trips on the fewest-MP table and the visible market tokens",
            TRADER,
        ),
        heuristic(
            "porter",
            "builds spaceports whenever it can, carries passengers, drills asteroids, trades on the side",
            PORTER,
        ),
    ],
    # the search's playouts cut after 120 decisions (about three rounds) and scored by the bots'
    # estimate_now: 0.45 against three traders, and about 20 times cheaper than playing every playout to the
    # end, which does not beat them (docs/search.md)
    search_defaults={"depth": 120},
)
_EQUIP = ("a laser", "a shield", "a cargo hold", "a yellow drive", "a red drive", "a combined drive")


def describe_action(
    action: int,
    phase: int | None = None,
    names: Sequence[str] | None = None,
    where: int | None = None,
    cf: np.ndarray | None = None,
) -> str:
    """A readable name for any action id (``phase`` refines the generic ones; with the board's ``names``,
    the space ``where`` and the config record ``cf`` an edge is named by the space it leads to)."""
    if R.ACTIONS.find(action) is None:
        return f"action {action}"
    name, x = R.ACTIONS.decode(action)
    at = phase if phase is not None else -1
    if name == "done":
        return {
            R.PH_ASSIGN: "assign no more dice",
            R.PH_DRILL: "place no drill",
            R.PH_PORT: "build no (more) port",
        }.get(at, "end trading")
    if name in _NAMED:
        return _NAMED[name]
    match name:
        case "edge":
            if names is not None and where is not None and cf is not None:
                far = phase == R.PH_PORT and int(cf[0]["space_kind"][where]) == R.K_STATION  # 3 green lines away
                target = names[int(cf[0]["port_far" if far else "adj"][where, x])]
                verb = {R.PH_HEADING: "head for", R.PH_PORT: "build a spaceport on"}.get(at, "to")
                return f"{verb} {target}"
            return f"edge {x}"
        case "thrust":
            return f"die {x + 1} to thrust"
        case "nav":
            return f"die {x + 1} to navigation"
        case "sell":
            return f"sell {GOOD_NAMES[x]}"
        case "equip":
            return f"buy {_EQUIP[x]}"
        case "tech":
            return f"buy race tech token {x}"
        case "pickup":
            return f"pick up passenger {x}"
        case "drop":
            return f"drop off passenger {x}"
    return R.ACTIONS.describe(action)


_NAMED = {
    "skip": "skip movement",
    "go": "move (drive on)",
    "go_no_drive": "move with the drive switched off",
    "laser_high": "laser dial high, shield low",
    "shield_high": "shield dial high, laser low",
    "land": "land here",
    "drill": "place a drill",
    "buy_good": "buy a goods token",
    "pilot": "upgrade the pilot",
    "reward": "buy a Reward card",
    "mission": "buy a second mission",
}


class MerchantOfVenusState(State):
    """A Merchant of Venus game in progress (see ``rules`` for the decision sequence)."""

    def _names(self) -> list[str]:
        """The board file's space names (ids such as ``gb_cw_1``: what positions and tests name spaces by)."""
        return R.board_for(self.config)["names"]

    def _labels(self) -> tuple[str, ...]:
        """Readable space names (``narrate.space_labels``): what a reader sees, never an internal id."""
        return narrate.labels_for(self.config)

    def describe(self, action: int) -> str:
        s = self.record[0]
        p = int(s["active"])
        where = int(s["port_city"]) if int(s["phase"]) == R.PH_PORT else int(s["pos"][p])
        return narrate.describe(self, action, describe_action(action, int(s["phase"]), self._labels(), where, self.cfg))

    # -- transcript (simlab.games.merchant_of_venus.narrate) ----------------------------------------
    def narrate_start(self) -> list[str]:
        return narrate.start(self)

    def narrate_before(self, action: int) -> list[str]:
        return narrate.before(self, action)

    def narrate_after(self, action: int, after: State) -> list[str]:
        return narrate.after(self, action, after)

    def narrate_scores(self) -> list[str]:
        return narrate.scores(self)

    def ship(self, seat: int) -> str:
        """One seat's ship in words (for transcripts and docs)."""
        return f"seat {seat} {narrate.ship(self.record[0], seat, self._labels())}"

    def determinize(self, player: int, rng: np.random.Generator) -> MerchantOfVenusState:
        """A copy in which what ``player`` cannot see is resampled (the compiled ``rules.determinize``:
        cultures of undiscovered systems, unrevealed market-stack order, the chance stream)."""
        other = self.clone()
        words = np.array([int(rng.integers(1, 2**63))], dtype=np.uint64)
        R.determinize(other.record, other.cfg, int(player), words)
        return other


class MerchantOfVenusGame(Game):
    """Merchant of Venus (standard game, 2012 edition; a model: see docs/games/merchant_of_venus.md)."""

    name = "merchant_of_venus"
    title = "Merchant of Venus"
    rules_version = RULES_VERSION
    config_class = MerchantOfVenusConfig
    state_class = MerchantOfVenusState
    min_players = 2
    max_players = MAX_PLAYERS
    hooks = ("determinize", "score_now", "estimate_now")
    default_bots = ("trader", "porter")
    scenarios: ClassVar[dict[str, str]] = {
        "money_sweep": "scenarios/mov_seats_and_purse.toml",
        "card_value": "scenarios/mov_item_value.toml",
    }

    @property
    def bots(self) -> BotRegistry:
        return _BOTS

    def data_files(self, config: MerchantOfVenusConfig) -> dict[str, Path]:
        """The board file the config names ('' is the shipped classic side)."""
        return {"board_file": board_path(config.board_file)}

    def forget_data(self) -> None:
        from simlab.games.merchant_of_venus.board_check import forget_board

        forget_board()


GAME = MerchantOfVenusGame()
