"""Golden playthrough: one whole narrated game, checked line by line against a stored transcript.

Any change of rules, action order, chance use or bot behaviour shows up here as a readable diff. When a
change is intended, bump RULES_VERSION (rules) and regenerate:
    SIMLAB_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/test_massilia_golden.py
"""

import os
from pathlib import Path

from simlab import get_game
from simlab.core.transcript import play_with_transcript

GOLDEN = Path(__file__).parent / "golden" / "massilia_3p_seed1234.txt"


def test_golden_playthrough() -> None:
    game = get_game("massilia")
    config = game.make_config(players=3)
    result = play_with_transcript(game, config, 1234, ["trader", "priest", "random"])
    text = "\n".join(result.lines) + "\n"
    if os.environ.get("SIMLAB_UPDATE_GOLDEN"):
        GOLDEN.write_text(text)
    expected = GOLDEN.read_text().splitlines()
    actual = text.splitlines()
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"transcript differs at line {i + 1}:\n expected: {want}\n actual:   {got}"
    assert len(actual) == len(expected)
