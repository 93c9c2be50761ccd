"""Golden playthroughs: every transcript in ``golden/`` is replayed and checked line by line.

Each file is a whole narrated game (``simlab play``'s transcript); its first two lines say which game,
seed, player count, config (by hash: the default config or one of the game's presets) and bots to replay,
so a new golden game is one new file. Any change of rules, action order, chance use or bot behaviour shows
up here as a readable diff. When a change is intended, bump the game's RULES_VERSION and regenerate:
    SIMLAB_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/test_golden.py
"""

import os
import re
from pathlib import Path

import pytest

from simlab import available_games, get_game
from simlab.core.transcript import play_with_transcript

GOLDEN = Path(__file__).parent / "golden"
HEADER = re.compile(
    r"^(?P<title>.+) — seed (?P<seed>-?\d+), (?P<players>\d+) players, rules \S+, config (?P<hash>\w+)$"
)


def replay_spec(path: Path):
    """(game, config, seed, bots) of a golden transcript, read from its first two lines."""
    first, seats = path.read_text().splitlines()[:2]
    m = HEADER.match(first)
    assert m, f"{path.name}: first line is not a transcript header: {first!r}"
    games = [get_game(name) for name in available_games()]
    game = next((g for g in games if g.title == m["title"]), None)
    assert game is not None, f"{path.name}: no registered game is titled {m['title']!r}"
    players = int(m["players"])
    configs = [game.make_config(preset, players) for preset in [None, *game.presets()]]
    config = next((c for c in configs if c.config_hash() == m["hash"]), None)
    assert config is not None, f"{path.name}: config {m['hash']} is neither the default nor a preset of {game.name}"
    assert seats.startswith("seats: "), f"{path.name}: second line is not the seats: {seats!r}"
    bots = [entry.split("=", 1)[1] for entry in seats.removeprefix("seats: ").split(", ")]
    return game, config, int(m["seed"]), bots


TRANSCRIPTS = sorted(GOLDEN.glob("*.txt"))


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
def test_golden_playthrough(path: Path) -> None:
    game, config, seed, bots = replay_spec(path)
    result = play_with_transcript(game, config, seed, bots)
    text = "\n".join(result.lines) + "\n"
    if os.environ.get("SIMLAB_UPDATE_GOLDEN"):
        path.write_text(text)
    expected = path.read_text().splitlines()
    actual = text.splitlines()
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"transcript differs at line {i + 1}:\n expected: {want}\n actual:   {got}"
    assert len(actual) == len(expected)
