"""Fixtures of the runner tests: small scenarios (tens of games) written to a temporary folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

SMALL = """\
description = "a small test experiment"
game = "massilia"
players = 4
games = 60
seed = 42
chunk_size = 25
lineup = ["trader", "random", "random", "priest"]

[variants.rulebook]
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"
"""


@pytest.fixture
def write_scenario(tmp_path: Path) -> Callable[..., Path]:
    """Write scenario text (default: SMALL) to tmp_path/<name>.toml and return its path."""

    def write(text: str = SMALL, name: str = "small") -> Path:
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        return path

    return write


def rows(folder: Path) -> pl.DataFrame:
    """Every row of a result folder in a canonical order (variant, game, seat)."""
    from simlab.run.store import load_results

    return load_results(folder).sort("variant", "game", "seat").collect()
