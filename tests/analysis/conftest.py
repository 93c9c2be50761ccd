"""A small real result folder (a few hundred Massilia games), run once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenario_runs import MASSILIA_CARDS, run_text, with_head

SMALL = with_head(MASSILIA_CARDS, "analysis tests: a control, two cards, two money offsets for seat 3", 160, 77, 80)


@pytest.fixture(scope="session")
def real_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A result folder of 5 variants x 160 games (the engine compiles once per process, then is cached)."""
    return run_text(SMALL, tmp_path_factory.mktemp("analysis"), "small")
