"""The benchmark's questions: a game, its published config, a lineup, a grid of settings and the tolerance δ.

- ``pig``: the planted truth. Pig (tests/examples/pig, two "hold at 20" players, 100 points to win) gives the
  first player an advantage (53.5% of the wins); starting points for the second seat cancel it (about 5 points,
  the truth table says exactly which settings are fair). Grid: each seat's starting points 0..10.
- ``massilia``: the rulebook's first-seat advantage (seat 0 wins about 28% with four players, equal 6 sesterces);
  grid: each seat's starting sesterces 5..10, lineup trader, priest, trader, priest rotated through the seats.

A setting is a tuple of indices, one per dimension (what the anchor's search space works on); ``values`` turns
it into the knob values, ``config_of`` into the config it plays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from simlab.experiments.engine import play_config


@dataclasses.dataclass(frozen=True)
class Dim:
    """One dimension of the grid: entry ``entry`` of the per-seat knob ``knob`` takes ``values``."""

    knob: str
    entry: int
    values: tuple[int, ...]

    @property
    def name(self) -> str:
        return f"{self.knob}[{self.entry}]"


@dataclasses.dataclass(frozen=True)
class BenchQuestion:
    name: str
    game: Any
    config: Any
    lineup: tuple[str, ...]
    dims: tuple[Dim, ...]
    delta: float  # fair: every seat's win share within 1/N ± δ
    truth_games: int  # games per setting in the truth table
    truth_seed: int
    truth_screen: int = 0  # an expensive game's truth: settings clear after this many games stop there
    note: str = ""
    #: configs already built (``config.replace`` checks every knob: ~20 ms, more than a block of games)
    _configs: dict = dataclasses.field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(d.values) for d in self.dims)

    @property
    def seats(self) -> int:
        return int(self.config.players)

    def values(self, setting: Sequence[int]) -> tuple[int, ...]:
        return tuple(d.values[i] for d, i in zip(self.dims, setting, strict=True))

    def index_of(self, values: Sequence[int]) -> tuple[int, ...]:
        return tuple(d.values.index(v) for d, v in zip(self.dims, values, strict=True))

    def config_of(self, values: Sequence[int]) -> Any:
        """The published config with each dimension's knob entry set to its value."""
        key = tuple(values)
        if key not in self._configs:
            self._configs[key] = self._build(key)
        return self._configs[key]

    def _build(self, values: tuple[int, ...]) -> Any:
        knobs: dict[str, list] = {}
        for d, v in zip(self.dims, values, strict=True):
            knobs.setdefault(d.knob, list(getattr(self.config, d.knob)))[d.entry] = v
        return self.config.replace(**{k: tuple(v) for k, v in knobs.items()})

    def play_values(self, values: Sequence[int], start: int, seeds: np.ndarray) -> np.ndarray:
        """Win shares (games × seats) of games ``start``.. at the setting with these knob values."""
        return play_config(self.game, self.config_of(values), self.lineup, start, seeds)

    def play_index(self, setting: Sequence[int], start: int, seeds: np.ndarray) -> np.ndarray:
        return self.play_values(self.values(setting), start, seeds)

    def provenance(self) -> dict[str, Any]:
        """What a truth table of this question depends on (its cache is refused for any other)."""
        return {
            "question": self.name,
            "game": self.game.name,
            "rules_version": getattr(self.game, "rules_version", ""),
            "config": {k: v for k, v in dataclasses.asdict(self.config).items()},
            "lineup": list(self.lineup),
            "dims": [[d.name, list(d.values)] for d in self.dims],
            "games": self.truth_games,
            "screen": self.truth_screen,
            "delta": self.delta,
            "seed": self.truth_seed,
            "note": self.note,
        }


def pig() -> BenchQuestion:
    from tests.examples.pig.game import GAME

    config = GAME.config_class()
    dims = tuple(Dim("start_points", k, tuple(range(11))) for k in range(2))
    return BenchQuestion("pig", GAME, config, ("holder", "holder"), dims, delta=0.01, truth_games=200_000,
                         truth_seed=20_261_206)  # fmt: skip


def massilia() -> BenchQuestion:
    import simlab

    game = simlab.get_game("massilia")
    config = game.make_config()
    dims = tuple(Dim("start_money", k, tuple(range(5, 11))) for k in range(4))
    return BenchQuestion(
        "massilia", game, config, ("trader", "priest", "trader", "priest"), dims, delta=0.01, truth_games=100_000,
        truth_seed=20_261_207, truth_screen=20_000,
        note="up to 100,000 games per setting (not 200,000: a Massilia game costs ~0.3 ms of a busy core); a setting "
        "whose worst seat deviation is more than 4 SE from δ after 20,000 games stops there",
    )  # fmt: skip


QUESTIONS = {"pig": pig, "massilia": massilia}
