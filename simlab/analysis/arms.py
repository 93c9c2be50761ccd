"""An arm of an experiment: one setting (a vector of offsets, an offset, a config change) and the games it was
played in (game indices and per-game results). Pure data: the engine that plays it is
``simlab.experiments.engine``; the race that drops arms is ``simlab.experiments.race``.
"""

from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass
class Candidate:
    """A vector of offsets in the race, with the games it has been played in (index and win shares)."""

    offsets: tuple[float, ...]
    game: list[np.ndarray] = dataclasses.field(default_factory=list)
    wins: list[np.ndarray] = dataclasses.field(default_factory=list)
    dropped: int | None = None  # the race round that dropped it
    note: str | None = None  # where it ended, when a driver says it otherwise (compensate by the fix search)

    @property
    def games(self) -> int:
        return sum(len(g) for g in self.game)

    def shares(self) -> np.ndarray:
        """Mean win share by seat over its games (NaN before it has any)."""
        if not self.wins:
            return np.full(len(self.offsets), np.nan)
        return np.concatenate(self.wins).mean(axis=0)
