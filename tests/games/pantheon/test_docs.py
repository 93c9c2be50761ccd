"""The 'Setting up a position' example of docs/games/pantheon.md runs as printed; every knob is documented."""

from __future__ import annotations

from pathlib import Path

from simlab.games.pantheon.config import PantheonConfig
from tests.games.doc_examples import run_position_examples

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "pantheon.md"


def test_position_example_runs(capsys):
    run_position_examples(DOC, capsys, "1 0")


def test_every_knob_has_a_line_on_the_page():
    text = DOC.read_text()
    missing = [name for name in PantheonConfig.field_names() if f"`{name}`" not in text]
    assert not missing, f"knobs without a line in {DOC.name}: {missing}"
