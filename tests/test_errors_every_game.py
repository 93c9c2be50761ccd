"""The errors of issue 32 on every game, not only on the one they were first written for: an analysis on the wrong
folder names the game's own scenario that answers (in the game's noun: a god-value run), a folder of runs lists
them, a misspelt bot or variant says "did you mean", and a folder that is no sweep names the compensate command
for its own game."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import simlab
from simlab.analysis.words import words
from simlab.cli import cli

ROOT = Path(__file__).resolve().parents[1]
#: each game's shipped seat scenario and a bot of its line-up
SEATS = {
    "massilia": ("seats_and_money", "trader"),
    "roma": ("roma_seats", "builder"),
    "pantheon": ("pantheon_seats", "builder"),
    "merchant_of_venus": ("mov_seats_and_purse", "trader"),
}
GAMES = list(SEATS)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results/ folder holding a 10-game run of every game's seat scenario."""
    base = tmp_path_factory.mktemp("every_game") / "results"
    for scenario, _ in SEATS.values():
        simlab.run_scenario(
            ROOT / "scenarios" / f"{scenario}.toml", games=10, jobs=1, out=base / scenario, progress=False
        )
    return base


def error_of(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 2, result.output
    return " ".join(result.stderr.split())


@pytest.mark.parametrize("game", GAMES)
def test_cards_on_a_seat_run_names_the_games_own_value_scenario_in_its_noun(results, game):
    folder = results / SEATS[game][0]
    noun = words(folder).noun
    value = simlab.get_game(game).scenarios["card_value"]
    stderr = error_of("cards", str(folder))
    assert f"holds {ROOT / 'scenarios' / SEATS[game][0]}.toml (variants " in stderr
    assert f"not a {noun}-value run (a control variant and <{noun}>_seat<k> variants)" in stderr
    assert f"simlab run {value}, then simlab cards results/{Path(value).stem}" in stderr


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_variant_says_did_you_mean_on_every_game(results, game):
    folder = str(results / SEATS[game][0])
    assert "unknown variant 'rulebok' (did you mean 'rulebook'?)" in error_of("seats", folder, "--base", "rulebok")
    assert "unknown variant 'rulebok' (did you mean 'rulebook'?)" in error_of("seats", folder, "--variant", "rulebok")


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_bot_says_did_you_mean_on_every_game(game):
    bot = SEATS[game][1]
    typo = bot[:-2] + bot[-1]
    assert f"unknown bot '{typo}' for game '{game}' (did you mean '{bot}'?)" in error_of("play", game, "--bots", typo)


def test_a_parent_folder_lists_every_games_run(results):
    stderr = error_of("seats", str(results))
    assert f"{results} is not a result folder, but it holds 4:" in stderr
    for game, (scenario, _) in SEATS.items():
        assert f"{results / scenario} ({game}, " in stderr


def test_a_folder_that_is_no_sweep_names_compensate_for_its_own_game(results):
    stderr = error_of("compensation", str(results / "pantheon_seats"))
    assert "No compensation fit: it needs variants that differ from rulebook only in extra_start_feet" in stderr
    assert "`simlab compensate pantheon` finds the fair vector" in stderr


def test_robust_refuses_a_misspelt_base_before_playing_a_game(tmp_path):
    scenario = ROOT / "scenarios" / "pantheon_seats.toml"
    out = tmp_path / "panel"
    stderr = error_of("robust", str(scenario), "--panel", "builder,devout", "--base", "rulebok", "-o", str(out))
    assert f"{scenario}: unknown variant 'rulebok' (did you mean 'rulebook'?)" in stderr
    assert not out.exists()  # nothing was played
