"""A small real result folder (a few hundred Massilia games), run once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

SMALL = """\
description = "analysis tests: a control, two cards, two money offsets for seat 3"
game = "massilia"
players = 4
games = 160
seed = 77
chunk_size = 80
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


@pytest.fixture(scope="session")
def real_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A result folder of 5 variants x 160 games (the engine compiles once per process, then is cached)."""
    import simlab

    base = tmp_path_factory.mktemp("analysis")
    scenario = base / "small.toml"
    scenario.write_text(SMALL)
    return simlab.run_scenario(scenario, jobs=1, out=base / "results", progress=False)
