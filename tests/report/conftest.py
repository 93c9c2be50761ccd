"""Small real result folders for the report tests, each run once per test session.

- ``cards_folder``: a card-value design (control, two cards, two money offsets for seat 3): seats,
  compensation, card value, markets and general metrics all have something to show; 5 variants, so the
  charts focus on the control.
- ``quick_folder``: like scenarios/quickstart.toml plus a variant that changes a rule *assumption*
  (beige_price), which the flags must highlight; 3 variants, compared against the rulebook.
- ``roma_folder``: a game without a market and without per-round scores.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenario_runs import MASSILIA_CARDS, run_text, with_head

CARDS = with_head(MASSILIA_CARDS, "report tests: a control, two cards, two money offsets for seat 3", 200, 31, 100)

QUICK = """\
description = "report tests: rulebook, the 2014 edition, and a changed assumption"
game = "massilia"
players = 4
games = 400
seed = 20240601
chunk_size = 200
lineup = ["trader", "priest", "trader", "priest"]

[variants.rulebook]
description = "published rules"
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"

[variants.beige2]
description = "beige cubes cost 2 (an assumption of the rules)"
preset = "rulebook"
set = { beige_price = 2 }
"""

ROMA = """\
description = "report tests: Roma, original and bribe disc"
game = "roma"
players = 2
games = 120
seed = 5
chunk_size = 60
lineup = ["builder", "warrior"]

[variants.original]
preset = "original"

[variants.bribe_disc]
preset = "bribe_disc"
"""


def _run(factory: pytest.TempPathFactory, name: str, text: str) -> Path:
    return run_text(text, factory.mktemp(name), name)


@pytest.fixture(scope="session")
def cards_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory, "cards", CARDS)


@pytest.fixture(scope="session")
def quick_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory, "quick", QUICK)


@pytest.fixture(scope="session")
def roma_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory, "roma", ROMA)


@pytest.fixture(scope="session")
def roma_cards_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """scenarios/roma_card_value.toml, 40 games per variant (53 variants)."""
    import simlab

    base = tmp_path_factory.mktemp("roma_cards")
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "roma_card_value.toml"
    return simlab.run_scenario(scenario, games=40, jobs=1, out=base / "results", progress=False)
