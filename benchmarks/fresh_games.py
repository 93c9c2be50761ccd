"""One fresh game per evaluation, played ahead in blocks: the anchor's evaluator at numba speed.

TAG's ``GameEvaluator.evaluate`` plays one game with a new seed for each evaluation. Playing one compiled game
per Python call would make the benchmark spend its time in call overhead, so each setting's games are played
ahead in blocks (4 games, doubling up to 1,024) on game indices no other block uses, and handed out one by one:
every evaluation still sees a game no other evaluation sees, with its own seed. A method is charged for the
games it consumed (``used``), not for the ones played ahead and never handed out (``played``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import numpy as np

from simlab.run.seeds import game_seeds

#: plays a setting's games: (setting, first game index, seeds) -> per-game win shares (games × seats)
PlaySetting = Callable[[Hashable, int, np.ndarray], np.ndarray]

FIRST_BLOCK = 4
LARGEST_BLOCK = 1024


class FreshGames:
    """``evaluate(setting)``: the next unused game of ``setting`` (its win share per seat)."""

    def __init__(self, play: PlaySetting, seed: int, start: int = 0):
        self.play, self.seed = play, seed
        self.next_index = start  # the next block's first game index (blocks never overlap)
        self.used = 0
        self.played = 0
        self._blocks: dict[Hashable, tuple[np.ndarray, int, int]] = {}  # setting -> (games, next row, blocks)

    def __call__(self, setting: Hashable) -> np.ndarray:
        games, row, blocks = self._blocks.get(setting, (np.empty((0, 0)), 0, 0))
        if row >= len(games):
            size = min(LARGEST_BLOCK, FIRST_BLOCK << blocks)
            start = self.next_index
            games = np.asarray(self.play(setting, start, game_seeds(self.seed, start, start + size)), dtype=float)
            self.next_index += size
            self.played += size
            row, blocks = 0, blocks + 1
        self._blocks[setting] = (games, row + 1, blocks)
        self.used += 1
        return games[row]
