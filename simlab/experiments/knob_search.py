"""What a compensation search plays, and how much: one value both drivers take (``fair_vector.find_fair_vector``,
every seat; ``adaptive.find_fair_offset``, one seat) and ``simlab compensate`` builds once from its options, where
each took the same ten arguments."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from simlab.analysis.frames import AnalysisError
from simlab.experiments.engine import PlayArm, Trials


@dataclasses.dataclass(frozen=True)
class KnobSearch:
    """The game and config a search plays, the per-seat ``knob`` it changes, the ``lineup`` rotated through the
    seats, and its budget: games per arm and step (``batch``), the most games the search spends, confirmations
    not included (``max_games``; None: the driver's own default), the root ``seed``, the intervals' ``level``
    and the worker processes (``jobs``: the same results for any number)."""

    game: Any
    config: Any
    knob: str
    lineup: Sequence[str]
    batch: int = 2_000
    max_games: int | None = None
    seed: int = 0
    level: float = 0.95
    jobs: int = 1

    def base(self) -> tuple[Any, ...]:
        """The config's value of the knob for each seat (``knob_vector``)."""
        return knob_vector(self.config, self.knob)

    def budget(self, default: int) -> int:
        """``max_games``, or the driver's ``default`` when none was given."""
        return default if self.max_games is None else self.max_games

    def trials(self, play: PlayArm, worker: PlayArm | None) -> Trials:
        """The engine for this search's arms: ``play`` in this process, ``worker`` (picklable) in workers."""
        return Trials(play, self.seed, self.jobs, worker)


def knob_vector(config: Any, knob: str) -> tuple[Any, ...]:
    """The config's per-seat tuple for ``knob``, its first ``players`` entries (a config may hold one per seat of
    its largest player count); refuse other knobs."""
    if not hasattr(config, knob):
        raise AnalysisError(f"{type(config).__name__} has no knob {knob!r}")
    value = getattr(config, knob)
    n = config.players
    if not isinstance(value, tuple) or len(value) < n or not all(isinstance(v, int | float) for v in value[:n]):
        raise AnalysisError(
            f"knob {knob!r} is not a per-seat number (found {value!r}); compensate sets one value per seat of a "
            "per-seat tuple such as the starting money"
        )
    return tuple(value[:n])
