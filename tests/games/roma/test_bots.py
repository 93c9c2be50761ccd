"""Roma's bots: registered with their parameters, and the heuristic ones beat random play clearly."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.roma.bots import PARAM_NAMES
from simlab.games.roma.game import GAME


def test_registered_bots_and_parameters():
    assert GAME.bots.names()[:3] == ["random", "builder", "warrior"]
    for name in ("builder", "warrior"):
        assert set(GAME.bots.info(name).params) == set(PARAM_NAMES)
    bot = GAME.bots.make("builder:econ=2")
    assert bot.params[PARAM_NAMES.index("econ")] == 2.0


def _share(a: str, b: str, games: int, preset: str | None = None) -> float:
    """Win share of ``a`` against ``b`` with the seats rotated (half the games each way)."""
    config = GAME.make_config(preset)
    seeds = list(range(games // 2))
    first = GAME.play_batch(config, seeds, GAME.make_bots([a, b], 2))
    second = GAME.play_batch(config, [s + 50_000 for s in seeds], GAME.make_bots([b, a], 2))
    return float(np.concatenate([first["share"][:, 0], second["share"][:, 1]]).mean())


@pytest.mark.parametrize("preset", ["original", "bribe_disc"])
@pytest.mark.parametrize("name", ["builder", "warrior"])
def test_heuristic_bots_beat_random(name, preset):
    assert _share(name, "random", 400, preset) > 0.9


def test_parameters_change_play():
    config = GAME.make_config()
    a = GAME.play_batch(config, [1, 2, 3], GAME.make_bots(["builder", "warrior"], 2))
    b = GAME.play_batch(config, [1, 2, 3], GAME.make_bots(["builder:econ=0.2,attack=3", "warrior"], 2))
    assert a.tobytes() != b.tobytes()
