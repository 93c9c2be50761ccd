"""The game registry: built-in games are listed once (BUILTIN_GAMES), plug-ins come from entry points."""

from __future__ import annotations

import tomllib
from pathlib import Path

from simlab import available_games
from simlab.core.registry import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parents[2]


def test_builtin_games_are_listed_only_in_the_registry() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    plugins = project.get("entry-points", {}).get("simlab.games", {})
    assert not set(plugins) & set(BUILTIN_GAMES), "a built-in game is listed in pyproject.toml too"
    assert set(BUILTIN_GAMES) <= set(available_games())
