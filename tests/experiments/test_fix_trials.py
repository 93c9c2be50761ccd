"""Trials that keep their plays in a fix folder: a stopped loop, run again over the folder, replays what it has,
plays only the rest, and ends with exactly the games of an uninterrupted loop (issue 34, item 4)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.experiments.engine import Trials
from simlab.experiments.fix_trials import StoredTrials, stored_trials
from simlab.run.fix_folder import FixStore, load_fix

IDENTITY = {"scenario_sha256": "ef" * 32, "seed": 11}
ABOUT = {"scenario": "synthetic", "game": "none"}


class Counted:
    """A synthetic game: seat k of 3 wins game i as the seed and the arm say; counts its plays, and raises
    KeyboardInterrupt (a Ctrl-C) at play number ``stop``."""

    def __init__(self, stop: int | None = None):
        self.plays, self.stop = 0, stop

    def __call__(self, arm, start, seeds):
        self.plays += 1
        if self.stop is not None and self.plays == self.stop:
            raise KeyboardInterrupt
        k = (np.asarray(seeds) + int(arm)) % 3
        return np.eye(3)[k]


def _loop(trials: Trials) -> list[np.ndarray]:
    """A driver's shape: three rounds of batches over fewer arms each time, then a fresh confirmation."""
    out = []
    for arms in ([0, 1, 2], [0, 2], [2]):
        out += trials.batch(arms, 50)
    out.append(trials.fresh(2, 80))
    return out


def test_a_stopped_loop_resumes_to_the_games_of_an_uninterrupted_one(tmp_path):
    clean = _loop(Trials(Counted(), seed=11))
    with pytest.raises(KeyboardInterrupt), FixStore.open(tmp_path, IDENTITY, ABOUT, resume=False) as store:
        _loop(stored_trials(store)(Counted(stop=5), 11, scope="a,b,c"))
    assert len(load_fix(tmp_path)["plays"]) == 4  # the plays before the Ctrl-C are kept
    again = Counted()
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=True) as store:
        resumed = _loop(stored_trials(store)(again, 11, scope="a,b,c"))
        assert store.replayed == 4
    assert again.plays == 3, "only the plays the stopped loop had not kept are played"
    assert all(np.array_equal(a, b) for a, b in zip(clean, resumed, strict=True))
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=True) as store:
        never = Counted(stop=1)  # every play is kept now: a play would raise
        assert all(
            np.array_equal(a, b)
            for a, b in zip(clean, _loop(stored_trials(store)(never, 11, scope="a,b,c")), strict=True)
        )


def test_another_lineup_is_another_play(tmp_path):
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=False) as store:
        make = stored_trials(store)
        first, second = Counted(), Counted()
        make(first, 11, scope="a,b,c").batch([0], 10)
        make(second, 11, scope="b,b,b").batch([0], 10)
        assert first.plays == second.plays == 1
    assert isinstance(stored_trials(None)(Counted(), 11), Trials)
    assert not isinstance(stored_trials(None)(Counted(), 11), StoredTrials)
