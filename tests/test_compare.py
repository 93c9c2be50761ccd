"""`simlab compare GAME A... --vs B...` (issue 32): a what-if from the command line, both sides on the same game
seeds, answered with the seat analysis every run uses; a bad side is refused before a game is played."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from simlab.cli import cli
from simlab.experiments.what_if import Side, parse_sides
from simlab.run.errors import ScenarioError


def run(*args: str):
    return CliRunner().invoke(cli, ["compare", *args], catch_exceptions=False)


def test_the_sides_parse_presets_and_knob_changes():
    a, b = parse_sides(["--set", "start_money=6,7,8,8", "--set=hand_limit=4", "--vs", "--preset", "rulebook"])
    assert a == Side(None, {"start_money": "6,7,8,8", "hand_limit": "4"}) and b == Side("rulebook", {})
    assert parse_sides(["--preset=bribe_disc", "--vs"]) == (Side("bribe_disc"), Side())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "start_money=6,7,8,8"], "expected one --vs between the two sides, found none"),
        (["--vs", "--set", "a=1", "--vs"], "found 2"),
        (["rulebook", "--vs"], "unexpected 'rulebook'; each side takes --preset NAME and --set KEY=VALUE"),
        (["--set", "start_money", "--vs"], "--set 'start_money' must look like key=value"),
        (["--preset", "--vs"], "--preset needs a value"),
        (["--preset", "a", "--preset", "b", "--vs"], "two presets on one side (a, b)"),
    ],
)
def test_a_malformed_comparison_is_refused(args, message):
    with pytest.raises(ScenarioError, match=re.escape(message)):
        parse_sides(args)


def test_an_unknown_knob_or_preset_is_refused_before_any_game(tmp_path):
    result = run("massilia", "--set", "start_mony=6,7,8,8", "--vs", "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert "unknown config key 'start_mony' for game 'massilia' (did you mean 'start_money'?)" in result.stderr
    assert not (tmp_path / "x").exists()
    result = run("roma", "--preset", "bribedisc", "--vs")
    assert result.exit_code == 2 and "did you mean 'bribe_disc'?" in result.stderr


def test_compare_answers_with_both_seat_tables_and_the_paired_change(tmp_path):
    args = ["roma", "--preset", "bribe_disc", "--vs", "--games", "200", "--jobs", "1"]
    first = run(*args, "--out", str(tmp_path / "one"))
    assert first.exit_code == 0, first.output
    out = first.stdout
    playing = "playing bribe_disc and rulebook, 200 games each on the same seeds (builder, warrior, rotated)"
    assert playing in first.stderr and playing not in out
    assert out.startswith("rulebook: the default preset\nbribe_disc: --preset bribe_disc  (against rulebook")
    assert re.findall(r"^(\S+): 200 games per seat", out, re.M) == ["rulebook", "bribe_disc"]
    assert "change in win share (points) against rulebook, paired by game seed:" in out
    assert re.search(r"^answer: bribe_disc against rulebook \(200 paired games\): the gap between", out, re.M)
    assert "next: narrower intervals with ten times the games: simlab compare roma --preset bribe_disc --vs " in out
    # the same seeds give the same answer (reproducible), and without --out nothing is left behind
    again = run(*args)
    assert again.exit_code == 0
    strip = [line for line in out.splitlines() if not line.startswith(("results:", "next:"))]
    assert strip == [line for line in again.stdout.splitlines() if not line.startswith(("results:", "next:"))]
    assert "results:" not in again.stdout


def test_knob_changes_name_their_side(tmp_path):
    result = run("roma", "--set", "start_money=0,4", "--vs", "--games", "100", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("rulebook: the default preset\nstart_money_0.4: --set start_money=0,4")
