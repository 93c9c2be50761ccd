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

CARDS = """\
description = "report tests: a control, two cards, two money offsets for seat 3"
game = "massilia"
players = 4
games = 200
seed = 31
chunk_size = 100
lineup = ["trader", "priest", "trader", "priest"]
preset = "rulebook"

[variants.control]

[variants.mercure_seat1]
set = { bonus_card = "mercure", bonus_card_seat = 1 }

[variants.pluton_seat2]
set = { bonus_card = "pluton", bonus_card_seat = 2 }

[variants.money2_seat3]
set = { start_money = [6, 6, 6, 8] }

[variants.money4_seat3]
set = { start_money = [6, 6, 6, 10] }
"""

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
    import simlab

    base = factory.mktemp(name)
    scenario = base / f"{name}.toml"
    scenario.write_text(text)
    return simlab.run_scenario(scenario, jobs=1, out=base / "results", progress=False)


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
