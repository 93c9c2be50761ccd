"""The one engine every experiment driver plays its games through: arms on shared seeds, and arms on fresh seeds.

An *arm* is what a driver varies (a vector of a per-seat knob, one seat's offset, a config change). ``Trials``
plays:

- ``batch(arms, per)``: every arm on the next ``per`` game indices, all with the same seeds (common random
  numbers: the luck the arms share cancels in their comparison); the game index continues from batch to batch,
  so every batch is fresh and the whole is reproducible from the root seed. Each arm's games are recorded in
  ``pool`` (``analysis.arms.Candidate``: game indices and per-game results).
- ``fresh(arm, games, start)``: one arm on games ``start..`` far beyond any batch (``CONFIRM_START``,
  ``PUBLISHED_START``): seeds no decision of the driver has seen, which is what a confirmation needs.

Game i gets ``game_seeds(seed, i, i + 1)`` and the lineup rotated by i mod N, as the runner does, so a result
does not depend on the batch size, the chunking or ``jobs``: with ``jobs`` > 1 the arms of a batch (or the
chunks of a fresh run) are played in worker processes by ``worker``, a picklable twin of ``play``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from simlab.analysis.arms import Candidate
from simlab.analysis.fair_vector import with_offsets
from simlab.run.scenario import rotated_lineup
from simlab.run.seeds import game_seeds

#: first game index of a confirmation run: far beyond any search, so its seeds are fresh
CONFIRM_START = 1 << 40
#: first game index of the published vector's confirmation: fresh too, and apart from the chosen one's
PUBLISHED_START = 1 << 41
#: a fresh run is split over the workers in parts of at least this many games
FRESH_PART = 1000

#: plays one arm: (arm, first game index, the games' seeds) -> per-game results (games × ...)
PlayArm = Callable[[Any, int, np.ndarray], np.ndarray]


def play_vector(
    game: Any, config: Any, knob: str, value: tuple[Any, ...], lineup: Sequence[str], start: int, seeds: np.ndarray
) -> np.ndarray:
    """Win shares (games × seats) of games start.. with ``knob`` set to ``value`` (its first entries), lineup
    rotated (``play_config``)."""
    full = list(getattr(config, knob))
    full[: len(value)] = value
    return play_config(game, config.replace(**{knob: tuple(full)}), lineup, start, seeds)


def play_config(game: Any, cfg: Any, lineup: Sequence[str], start: int, seeds: np.ndarray) -> np.ndarray:
    """Win shares (games × seats) of games start.. under ``cfg``, the lineup rotated by the game index as the
    runner rotates it. Games are played through the game contract (``make_bots``, ``play_batch``,
    ``result_columns``): an arm that changes any knobs (``cfg = config.replace(**knobs)``) plays through here."""
    n = cfg.players
    rotation = np.arange(start, start + len(seeds)) % n
    out = np.empty((len(seeds), n))
    for r in np.unique(rotation).tolist():
        sel = np.flatnonzero(rotation == r)
        bots = game.make_bots(rotated_lineup(lineup, r), n)
        records = game.play_batch(cfg, seeds[sel].tolist(), bots)
        out[sel] = np.asarray(game.result_columns(records, cfg)["win_share"]).reshape(-1, n)
    return out


def _vector_arm(
    game: Any, config: Any, knob: str, lineup: Sequence[str], base: tuple | None, arm: tuple, start: int,
    seeds: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """``play_vector`` of one arm in a worker process (the game travels by name and address: Game.__reduce_ex__,
    so a game no registry lists plays there too)."""
    value = arm if base is None else with_offsets(base, arm)
    return play_vector(game, config, knob, value, lineup, start, seeds)


def vector_worker(
    game: Any, config: Any, knob: str, lineup: Sequence[str], base: tuple[Any, ...] | None = None
) -> PlayArm:
    """The picklable ``PlayArm`` of ``play_vector`` for worker processes: the arm is the knob's value, or with
    ``base`` its offsets from ``base``."""
    return functools.partial(_vector_arm, game, config, knob, tuple(lineup), base)


@dataclasses.dataclass
class Trials:
    """Plays a driver's arms: batches on shared seeds (``batch``) and confirmations on fresh seeds (``fresh``)."""

    play: PlayArm
    seed: int
    jobs: int = 1
    worker: PlayArm | None = None  # picklable twin of ``play``; None: always play in this process
    next_game: int = 0  # the next batch's first game index
    spent: int = 0  # games played in batches (fresh runs not counted)
    pool: dict[Hashable, Candidate] = dataclasses.field(default_factory=dict)

    def batch(self, arms: Sequence[Hashable], per: int) -> list[np.ndarray]:
        """Play every arm on games ``next_game .. next_game + per`` (the same seeds); record and return them."""
        start = self.next_game
        seeds = game_seeds(self.seed, start, start + per)
        results = self._map([(arm, start, seeds) for arm in arms])
        index = np.arange(start, start + per)
        for arm, result in zip(arms, results, strict=True):
            c = self.pool.setdefault(arm, Candidate(arm))
            c.game.append(index)
            c.wins.append(result)
        self.next_game += per
        self.spent += per * len(arms)
        return results

    def fresh(self, arm: Any, games: int, start: int = CONFIRM_START) -> np.ndarray:
        """Play ``arm`` on ``games`` games from index ``start`` (seeds no batch uses), split over the workers."""
        parts = max(1, min(self.jobs, games // FRESH_PART)) if self.worker is not None else 1
        bounds = np.linspace(0, games, parts + 1).astype(int).tolist()
        tasks = [(arm, start + a, game_seeds(self.seed, start + a, start + b)) for a, b in itertools.pairwise(bounds)]
        return np.concatenate(self._map(tasks))

    def observations(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every batch game of every arm: (game index, the arm as a row, the result), arms in the order first
        played (``arm`` must be a tuple of numbers: a vector of offsets)."""
        played = [c for c in self.pool.values() if c.games]
        g = np.concatenate([np.concatenate(c.game) for c in played])
        d = np.concatenate([np.tile(np.array(c.offsets, float), (c.games, 1)) for c in played])
        w = np.concatenate([np.concatenate(c.wins) for c in played])
        return g, d, w

    def _map(self, tasks: list[tuple[Any, int, np.ndarray]]) -> list[np.ndarray]:
        if self.worker is None or self.jobs <= 1 or len(tasks) == 1:
            return [self.play(arm, start, seeds) for arm, start, seeds in tasks]
        from joblib import Parallel, delayed

        jobs = (delayed(self.worker)(arm, start, seeds) for arm, start, seeds in tasks)
        return list(Parallel(n_jobs=min(self.jobs, len(tasks)), backend="loky")(jobs))
