"""Trials that keep every play in a fix folder (``simlab.run.fix_folder``) and read it back instead of playing it
again: a stopped fix search, run again over the same folder, takes the same decisions from the same games and
goes on where it stopped (``simlab fix --resume``).

The driver is unchanged: it gets a ``StoredTrials`` where it would build a ``Trials``. Each play (one arm on games
start..start+n, with one lineup) is looked up by its key before it is played and saved as soon as it is; with
``jobs`` > 1 the plays of a batch are played together and saved together, so a kill loses at most the batch in
progress.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from simlab.experiments.engine import PlayArm, Trials
from simlab.run.fix_folder import FixStore, play_key


@dataclasses.dataclass
class StoredTrials(Trials):
    """``Trials`` whose plays go through ``store``; ``scope`` names what else decides a play (the lineup)."""

    store: FixStore | None = None
    scope: str = ""

    def _map(self, tasks: list[tuple[Any, int, np.ndarray]]) -> list[np.ndarray]:
        if self.store is None:
            return super()._map(tasks)
        keys = [play_key(self.scope, arm, start, len(seeds)) for arm, start, seeds in tasks]
        found = [self.store.get(k) for k in keys]
        missing = [i for i, r in enumerate(found) if r is None]
        together = self.worker is not None and self.jobs > 1
        groups = [missing] if together else [[i] for i in missing]  # in this process: each kept as it is played
        for group in groups:
            if not group:
                continue
            played = super()._map([tasks[i] for i in group])
            for i, result in zip(group, played, strict=True):
                self.store.put(keys[i], tasks[i][1], result)
                found[i] = np.asarray(result, dtype=float)
        return [np.asarray(r) for r in found]  # type: ignore[arg-type]


#: how a fix driver builds the ``Trials`` of one lineup: (play, seed, jobs, worker, scope: the lineup)
MakeTrials = Callable[[PlayArm, int, int, "PlayArm | None", str], Trials]


def make_trials(play: PlayArm, seed: int, jobs: int = 1, worker: PlayArm | None = None, scope: str = "") -> Trials:
    """Plain ``Trials``: nothing kept (a search from Python, or a test)."""
    return Trials(play, seed, jobs, worker)


def stored_trials(store: FixStore | None) -> MakeTrials:
    """The ``Trials`` factory of a fix folder: every play kept in ``store`` (without one, ``make_trials``)."""

    def make(play: PlayArm, seed: int, jobs: int = 1, worker: PlayArm | None = None, scope: str = "") -> Trials:
        if store is None:
            return make_trials(play, seed, jobs, worker, scope)
        return StoredTrials(play, seed, jobs, worker, store=store, scope=scope)

    return make
