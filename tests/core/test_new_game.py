"""``simlab new-game NAME`` writes a complete game package that passes the shipped contract suite as written, and
the suite names a misspelt hook (``determinise``) instead of leaving the game silently unsearchable."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simlab.cli import cli
from simlab.testing import CHECKS, ContractFailure, check_game
from simlab.testing.new_game import NewGameError, write_game

PIG_DIR = Path(__file__).resolve().parents[1] / "examples" / "pig"
FILES = {
    "__init__.py",
    "config.py",
    "data.py",
    "rules.py",
    "bots.py",
    "facts.py",
    "checks.py",
    "position.py",
    "game.py",
}


def _import(package: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(package.parent))
    return importlib.import_module(f"{package.name}.game").GAME


@pytest.fixture
def forget_modules():
    """The generated packages leave sys.modules with their test."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith(("fresh_race", "misspelt_race", "undeclared_race", "pig2")):
            del sys.modules[name]


def test_a_fresh_template_passes_the_contract_as_written(tmp_path, monkeypatch, forget_modules) -> None:
    out = CliRunner().invoke(cli, ["new-game", "fresh_race", "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    package = tmp_path / "fresh_race"
    assert {p.name for p in package.glob("*.py")} == FILES | {"test_fresh_race.py"}
    game = _import(package, monkeypatch)
    assert (game.name, game.title, type(game).__name__) == ("fresh_race", "Fresh Race", "FreshRaceGame")
    assert check_game(game) == list(CHECKS)
    tests = importlib.import_module("fresh_race.test_fresh_race")  # its own rule tests pass too
    tests.test_the_bust_face_loses_the_turn()
    tests.test_holding_at_the_target_wins()


def test_pig_recreated_from_the_template_passes_and_plays_pig_s_games(tmp_path, monkeypatch, forget_modules) -> None:
    """``simlab new-game pig2`` and Pig's own rules, bots, config and facts (tests/examples/pig) copied in: the
    package passes the contract and plays the very games Pig plays (same seeds, same bots: same records)."""
    import numpy as np

    from tests.examples.pig.game import GAME as PIG

    package = write_game("pig2", tmp_path)
    pig = Path(PIG_DIR)
    for name in ("rules.py", "bots.py", "facts.py"):
        (package / name).write_text((pig / name).read_text())
    (package / "config.py").write_text((pig / "config.py").read_text().replace("PigConfig", "Pig2Config"))
    game = _import(package, monkeypatch)
    check_game(game)
    config, pig_config = game.make_config("short", 3), PIG.make_config("short", 3)
    seeds = list(range(200))
    mine = game.play_batch(config, seeds, game.make_bots(["holder", "random", "holder"], 3))
    theirs = PIG.play_batch(pig_config, seeds, PIG.make_bots(["holder", "random", "holder"], 3))
    assert np.asarray(mine).tobytes() == np.asarray(theirs).tobytes()


def _misspell(package: Path, hooks: str) -> None:
    rules = package / "rules.py"
    rules.write_text(rules.read_text().replace("def determinize(", "def determinise("))
    game = package / "game.py"
    text = game.read_text().replace("R.determinize(", "R.determinise(")
    game.write_text(text.replace('hooks = ("determinize", "score_now")', f"hooks = {hooks}"))


@pytest.mark.parametrize("hooks", ['("determinize", "score_now")', '("score_now",)'], ids=["declared", "undeclared"])
def test_a_misspelt_determinize_fails_the_contract_naming_the_hook(
    tmp_path, monkeypatch, forget_modules, hooks: str
) -> None:
    name = "misspelt_race" if "determinize" in hooks else "undeclared_race"
    package = write_game(name, tmp_path)
    _misspell(package, hooks)
    game = _import(package, monkeypatch)
    with pytest.raises(
        ContractFailure, match=r"check 'hooks' failed: .*defines determinise, a near miss of .*'determinize'"
    ):
        check_game(game)


def test_a_declared_hook_the_rules_lack_is_named_when_the_game_is_bound(tmp_path, monkeypatch, forget_modules) -> None:
    from simlab.core.hooks import HookError

    package = write_game("undeclared_race", tmp_path)
    rules = package / "rules.py"
    rules.write_text(rules.read_text().replace("def score_now(", "def final_scoring("))
    game = _import(package, monkeypatch)
    with pytest.raises(HookError, match=r"hooks declares 'score_now', but undeclared_race.rules defines no score_now"):
        _ = game.kernel


def test_a_misspelt_hook_name_in_the_declaration_is_refused_with_the_class() -> None:
    from simlab.core.game import Game
    from simlab.core.hooks import HookError

    with pytest.raises(HookError, match=r"hooks names 'determinise'.*did you mean 'determinize'"):

        class Misspelt(Game):
            name = "misspelt"
            hooks = ("determinise",)


def test_new_game_refuses_a_bad_name_and_an_existing_folder(tmp_path) -> None:
    with pytest.raises(NewGameError, match=r"'My-Game' cannot name a game package"):
        write_game("My-Game", tmp_path)
    with pytest.raises(NewGameError, match="cannot name"):
        write_game("class", tmp_path)
    (tmp_path / "taken").mkdir()
    out = CliRunner().invoke(cli, ["new-game", "taken", "--out", str(tmp_path)])
    assert out.exit_code != 0 and "exists" in out.output
