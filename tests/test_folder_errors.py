"""The analysis commands on the wrong folder, and on a run of many variants (issue 32): a parent folder lists the
result folders inside it; `simlab cards` on a seat run names the scenario that would answer; a misspelt variant
says "did you mean"; `simlab seats` on a card run leads with the control and summarises the rest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from simlab.cli import cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results/ folder holding two small Roma runs of the shipped scenarios: its seats and its card values."""
    import simlab

    base = tmp_path_factory.mktemp("folders") / "results"
    for name, games in (("roma_seats", 40), ("roma_card_value", 20)):
        simlab.run_scenario(ROOT / "scenarios" / f"{name}.toml", games=games, jobs=1, out=base / name, progress=False)
    return base


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def error_of(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 2, result.output
    return result.stderr


@pytest.mark.parametrize("command", ["seats", "cards", "compensation", "markets", "balance", "report", "replay"])
def test_a_parent_folder_lists_the_result_folders_inside(results, command):
    stderr = error_of(command, str(results), *(["--game", "0"] if command == "replay" else []))
    assert "holds no results yet" not in stderr
    assert f"{results} is not a result folder, but it holds 2:" in stderr
    assert f"{results / 'roma_card_value'} (roma, " in stderr and "53 variant(s), 1,060 games" in stderr
    assert (
        f"{results / 'roma_seats'} (roma, " in stderr and "scenarios/roma_seats.toml: 5 variant(s), 200 games" in stderr
    )


def test_an_empty_folder_still_says_it_holds_no_results(tmp_path):
    assert "holds no results yet" in error_of("seats", str(tmp_path))


def test_cards_on_a_seat_run_names_the_scenario_that_answers(results):
    stderr = error_of("cards", str(results / "roma_seats"))
    assert "scenarios/roma_seats.toml (variants rulebook, bribe_disc, seat1_money2" in stderr
    assert "no control variant 'control'" in stderr
    assert "simlab run scenarios/roma_card_value.toml, then simlab cards results/roma_card_value" in stderr


def test_a_misspelt_variant_says_did_you_mean(results):
    folder = str(results / "roma_card_value")
    assert "(did you mean 'control'? give it with --control)" in error_of("cards", folder, "--control", "contrl")
    stderr = error_of("seats", str(results / "roma_seats"), "--base", "rulebok")
    assert "unknown variant 'rulebok' (did you mean 'rulebook'?)" in stderr
    stderr = error_of("replay", str(results / "roma_seats"), "--variant", "bribedisc", "--game", "0")
    assert "unknown variant 'bribedisc' (did you mean 'bribe_disc'?)" in stderr
    assert "--variant: unknown variant 'sicarius' (did you mean" in error_of("seats", folder, "--variant", "sicarius")


def blocks(output: str) -> list[str]:
    """The variants shown in full: the lines that open a variant's seat table."""
    return re.findall(r"^(\S+): [\d,]+ games per seat; all seats equal\?", output, re.M)


def test_seats_on_a_card_run_leads_with_the_control_and_summarises_the_rest(results):
    folder = str(results / "roma_card_value")
    result = run("seats", folder)
    assert result.exit_code == 0, result.output
    assert blocks(result.output) == ["control"]
    assert result.output.startswith("control: ")
    summary = result.output.split("the other 52 variants, furthest from the fair share first (picked by", 1)[1]
    assert "simultaneous over every variant: --base control):" in summary
    assert len(re.findall(r"^  \S+: with n=20 games per seat", summary, re.M)) == 5
    assert f"and 47 more; one of them in full: simlab seats {folder} --variant NAME" in summary
    assert len(result.output.splitlines()) < 30

    assert blocks(run("seats", folder, "--top", "2").output) == ["control"]
    chosen = run("seats", folder, "--variant", "forum_seat1", "--variant", "sicarius_seat0", "--base", "control")
    assert blocks(chosen.output) == ["control", "forum_seat1", "sicarius_seat0"]
    changes = chosen.output.split("change in win share (points) against control", 1)[1]
    assert {m for m in re.findall(r"^  (\S+) seat \d", changes, re.M)} == {"forum_seat1", "sicarius_seat0"}
    everything = blocks(run("seats", folder, "--all").output)
    assert len(everything) == 53 and everything[0] == "control"


def test_seats_on_a_small_run_shows_every_variant_base_first(results):
    shown = blocks(run("seats", str(results / "roma_seats")).output)
    assert shown == ["rulebook", "bribe_disc", "seat1_money2", "seat1_money4", "seat1_money6"]
