"""The newcomer's commands: `simlab config`, `simlab new-scenario` (and the knob table and template behind them)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str):
    return runner.invoke(cli, list(args), catch_exceptions=False)


# -- simlab config ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["massilia", "roma"])
def test_config_lists_every_knob_with_default_type_and_provenance(runner, game):
    result = invoke(runner, "config", game)
    assert result.exit_code == 0, result.output
    g = simlab.get_game(game)
    for row in g.config_class.provenance():
        line = next((ln for ln in result.output.splitlines() if re.match(rf"^[ *] {row['name']}\s", ln)), None)
        assert line is not None, f"knob {row['name']} not listed"
        assert row["source"] in line and row["doc"] in line
    assert "*" not in "".join(ln[0] for ln in result.output.splitlines()[2:])  # the default preset changes nothing


def test_config_of_a_preset_shows_its_values_and_marks_them(runner):
    result = invoke(runner, "config", "massilia", "--preset", "quined2014")
    assert result.exit_code == 0
    line = next(ln for ln in result.output.splitlines() if " start_money " in ln)
    assert line.startswith("*") and "5,6,7,8" in line and "list of int" in line and "(default 6,6,6,6)" in line


def test_config_json_has_stable_keys(runner):
    result = invoke(runner, "config", "massilia", "--preset", "quined2014", "--json")
    data = json.loads(result.output)
    assert data["game"] == "massilia" and data["preset"] == "quined2014"
    knobs = {k["name"]: k for k in data["knobs"]}
    assert set(knobs) == set(simlab.get_game("massilia").config_class.field_names())
    assert set(knobs["start_money"]) == {"name", "value", "default", "type", "source", "doc", "choices", "changed"}
    assert knobs["start_money"]["value"] == [5, 6, 7, 8] and knobs["start_money"]["default"] == [6, 6, 6, 6]
    assert knobs["start_money"]["changed"] and not knobs["rounds"]["changed"]
    assert knobs["bonus_card"]["choices"][0] == "none" and knobs["bonus_card"]["type"] == "str"


def test_config_of_an_unknown_preset_is_a_user_error(runner):
    result = invoke(runner, "config", "massilia", "--preset", "nope")
    assert result.exit_code == 2 and "unknown preset 'nope'" in result.stderr


# -- simlab new-scenario ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["massilia", "roma"])
def test_new_scenario_writes_a_template_that_loads(runner, tmp_path, game):
    path = tmp_path / f"my_{game}.toml"
    result = invoke(runner, "new-scenario", game, "--out", str(path))
    assert result.exit_code == 0, result.output
    scenario = simlab.load_scenario(path)
    g = simlab.get_game(game)
    assert scenario.game == game and scenario.name == f"my_{game}" and scenario.rotate
    assert scenario.variant_names == g.presets()
    assert set(scenario.seats) <= set(g.bots.names()) and "random" not in scenario.seats
    text = path.read_text()
    for row in g.config_class.provenance():  # every knob is listed in a comment, with its provenance
        if row["name"] != "players":
            assert re.search(rf"^# {row['name']} = .*{row['source']}: ", text, re.M), row["name"]
    # an existing file is not overwritten
    again = invoke(runner, "new-scenario", game, "--out", str(path))
    assert again.exit_code == 2 and "exists" in again.stderr


def test_new_scenario_prints_without_out_and_honours_players(runner):
    result = invoke(runner, "new-scenario", "massilia", "--players", "3")
    assert result.exit_code == 0
    scenario = simlab.run.scenario.parse_scenario(result.output)
    assert scenario.players == 3 and len(scenario.seats) == 3
    bad = invoke(runner, "new-scenario", "roma", "--players", "3")
    assert bad.exit_code == 2 and "2 players" in bad.stderr


def test_an_uncommented_knob_takes_effect(runner, tmp_path):
    text = invoke(runner, "new-scenario", "massilia").output
    text = text.replace("# rounds = 7 ", "rounds = 5 ", 1)
    scenario = simlab.run.scenario.parse_scenario(text)
    assert all(v.config.rounds == 5 for v in scenario.variants)


def test_the_template_runs_a_few_games(runner, tmp_path):
    path = tmp_path / "tiny.toml"
    invoke(runner, "new-scenario", "massilia", "--out", str(path))
    folder = simlab.run_scenario(path, games=6, chunk_size=3, jobs=1, out=tmp_path / "out", progress=False)
    manifest = simlab.load_manifest(folder)
    assert manifest["games_done"] == 6 * len(simlab.get_game("massilia").presets())
    rows = simlab.load_results(folder).collect()
    assert rows.height == 6 * 2 * 4 and set(rows["variant"]) == {"rulebook", "quined2014"}
