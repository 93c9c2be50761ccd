"""``simlab fix SCENARIO`` (issue 34, item 4): bad input refused before any game, naming the scenario key, exit 2;
a run, its progress, its JSON, its report, and a stopped search that resumes to the same answer."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from simlab.cli import cli
from simlab.core import registry

PIG = """
game = "pig"
players = 2
games = 100
seed = 5
lineup = ["holder", "holder"]
"""

FIX = """
[fix]
tolerance = 4
budget = 6000
batch = 500
certify_games = 2000
[fix.knobs]
start_points = { seats = [[0, 20], [0, 20]], step = 5 }
"""


@pytest.fixture
def pig(monkeypatch):
    monkeypatch.setitem(registry.BUILTIN_GAMES, "pig", "tests.examples.pig.game:GAME")
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


def _fix(tmp_path, text: str, *args: str):
    path = tmp_path / "pig_fix.toml"
    path.write_text(PIG + text)
    return CliRunner().invoke(cli, ["fix", str(path), "--out", str(tmp_path / "out"), *args])


def _refused(result, pattern: str) -> None:
    assert result.exit_code == 2, result.output
    assert re.search(r"^error: .*" + pattern, result.stderr, re.M), result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ("no_such_knob = { values = [1, 2] }", r"key 'fix\.knobs\.no_such_knob'"),
        ("target = { range = [0, 100], step = 50 }", r"key 'fix\.knobs\.target'"),
        ("target = { values = [] }", r"key 'fix\.knobs\.target\.values'.*non-empty"),
    ],
)
def test_a_bad_knob_is_refused_naming_its_key(pig, tmp_path, change, pattern):
    result = _fix(tmp_path, FIX.replace("start_points = { seats = [[0, 20], [0, 20]], step = 5 }", change))
    _refused(result, pattern)
    assert not (tmp_path / "out").exists(), "refused before anything runs or is written"


def test_a_guard_on_an_undeclared_fact_is_refused(pig, tmp_path):
    _refused(_fix(tmp_path, FIX + "[fix.guards]\nfact.no_such_fact = 10\n"), r"key 'fix\.guards\.fact\.no_such_fact'")


def test_a_tolerance_of_zero_or_less_is_refused(pig, tmp_path):
    _refused(_fix(tmp_path, FIX.replace("tolerance = 4", "tolerance = 0")), r"key 'fix\.tolerance'")
    _refused(_fix(tmp_path, FIX.replace("tolerance = 4", "tolerance = -1")), r"key 'fix\.tolerance'")
    option = _fix(tmp_path, FIX, "--tolerance", "0")
    assert option.exit_code == 2 and "--tolerance" in option.stderr


def test_a_scenario_without_a_fix_table_and_an_unknown_panel_bot_are_refused(pig, tmp_path):
    _refused(_fix(tmp_path, ""), r"no \[fix\] table")
    _refused(_fix(tmp_path, FIX, "--panel", "no_such_bot"), r"key 'fix\.panel\[0\]'")
