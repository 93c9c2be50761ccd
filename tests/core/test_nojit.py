"""The engines are one source: run as plain Python (NUMBA_DISABLE_JIT=1), a game ends in the very same
state as compiled — which is what makes debugging with the JIT off meaningful."""

import hashlib
import os
import subprocess
import sys

import pytest

import simlab
from simlab import get_game

SCRIPT = """
import hashlib, sys, warnings
warnings.simplefilter("ignore")
from simlab import get_game
game = get_game(sys.argv[1])
config = game.make_config(players=int(sys.argv[2]))
bots = game.make_bots(sys.argv[3].split(","), config.players)
state = game.play(config, int(sys.argv[4]), bots)
print(hashlib.sha256(state.record.tobytes()).hexdigest(), len(state.history))
"""


@pytest.mark.parametrize("name", simlab.available_games())
def test_plain_python_equals_compiled(name: str) -> None:
    game = get_game(name)
    players = game.min_players
    specs = (game.bots.names() * players)[:players]
    config = game.make_config(players=players)
    state = game.play(config, 21, game.make_bots(specs, players))
    compiled = f"{hashlib.sha256(state.record.tobytes()).hexdigest()} {len(state.history)}"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, name, str(players), ",".join(specs), "21"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    assert out.stdout.strip() == compiled
