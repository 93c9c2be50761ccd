"""The docs page's "Setting up a position" examples run as printed, and its config table lists every knob."""

from __future__ import annotations

from pathlib import Path

from simlab.games.merchant_of_venus.config import MerchantOfVenusConfig
from tests.games.doc_examples import run_position_examples

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "merchant_of_venus.md"


def test_position_examples_run(capsys):
    run_position_examples(DOC, capsys, "3 land here")


def test_every_knob_is_documented():
    text = DOC.read_text()
    missing = [name for name in MerchantOfVenusConfig.field_names() if f"`{name}`" not in text]
    assert not missing, f"knobs missing from {DOC.name}: {missing}"
