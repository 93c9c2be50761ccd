"""Golden playthrough: one whole narrated Roma game, checked line by line against a stored transcript.

Any change of rules, action order, chance use or bot behaviour shows up here as a readable diff. When a
change is intended, bump RULES_VERSION (rules) and regenerate:
    SIMLAB_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/test_roma_golden.py
"""

import os
from pathlib import Path

import pytest

from simlab.core.transcript import play_with_transcript
from simlab.games.roma.game import GAME

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    ("preset", "bots", "seed", "name"),
    [
        (None, ["builder", "warrior"], 1234, "roma_seed1234.txt"),
        ("bribe_disc", ["warrior", "random"], 99, "roma_bribe_disc_seed99.txt"),
    ],
)
def test_golden_playthrough(preset, bots, seed, name) -> None:
    config = GAME.make_config(preset)
    result = play_with_transcript(GAME, config, seed, bots)
    text = "\n".join(result.lines) + "\n"
    path = GOLDEN / name
    if os.environ.get("SIMLAB_UPDATE_GOLDEN"):
        path.write_text(text)
    expected = path.read_text().splitlines()
    actual = text.splitlines()
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"transcript differs at line {i + 1}:\n expected: {want}\n actual:   {got}"
    assert len(actual) == len(expected)
