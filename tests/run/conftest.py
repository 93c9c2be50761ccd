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
    from simlab.run.reader import load_results

    return load_results(folder).sort("variant", "game", "seat").collect()


#: SMALL at 20 games per variant in chunks of 10: four parts, for the tests that damage parts
SMALL_20 = SMALL.replace("games = 60", "games = 20").replace("chunk_size = 25", "chunk_size = 10")


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> tuple[Path, Path, pl.DataFrame]:
    """SMALL_20 played once per test module: (scenario path, result folder, its rows). Tests copy it (``folder``)."""
    from simlab.run.runner import run_scenario

    base = tmp_path_factory.mktemp("small20")
    path = base / "small.toml"
    path.write_text(SMALL_20)
    folder = run_scenario(path, jobs=1, out=base / "out", progress=False, compact=False)
    return path, folder, rows(folder)


@pytest.fixture
def folder(original, tmp_path) -> Path:
    """A copy of ``original``'s result folder that a test may damage."""
    import shutil

    copy = tmp_path / "results"
    shutil.copytree(original[1], copy)
    return copy
