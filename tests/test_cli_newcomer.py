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


@pytest.mark.parametrize(
    ("game", "knob", "shown"), [("massilia", "rounds", "1..12"), ("roma", "mercator_cap", "-1 or >= 1")]
)
def test_config_shows_each_knobs_range(runner, game, knob, shown):
    result = invoke(runner, "config", game)
    assert "range" in result.output.splitlines()[1]
    line = next(ln for ln in result.output.splitlines() if re.match(rf"^[ *] {knob}\s", ln))
    assert f"  {shown}  " in line, line


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
    assert set(knobs["start_money"]) == {
        "name", "value", "default", "type", "source", "doc", "choices", "range", "changed", "not_modelled"
    }  # fmt: skip
    assert not any(k["not_modelled"] for k in knobs.values())  # Massilia leaves nothing of its rules out
    assert knobs["players"]["range"] == "2..4" and knobs["bonus_card_seat"]["range"] == "-1 or 0..3"
    assert knobs["marker_drop_per_cube"]["range"] is None
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


# -- simlab replay ----------------------------------------------------------------------------------
REPLAY = """\
game = "massilia"
players = 4
games = 6
seed = 11
chunk_size = 3
lineup = ["trader", "priest", "trader:token_cost=3", "priest"]

[variants.rulebook]
preset = "rulebook"

[variants.short]
preset = "quined2014"
set = { hand_limit = 2, start_money = [6, 6, 6, 9] }
"""


@pytest.fixture(scope="module")
def replay_folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("replay")
    (root / "replay.toml").write_text(REPLAY)
    return simlab.run_scenario(root / "replay.toml", jobs=1, out=root / "out", progress=False)


@pytest.mark.parametrize(("variant", "index"), [("rulebook", 0), ("short", 5), ("short", 2)])
def test_replay_prints_the_transcript_simlab_play_prints(runner, replay_folder, variant, index):
    import shlex

    result = invoke(runner, "replay", str(replay_folder), "--variant", variant, "--game", str(index))
    assert result.exit_code == 0, result.output
    command = re.search(r"simlab play .*$", result.stderr, re.M).group(0)
    argv = shlex.split(command)[1:]
    played = invoke(runner, *argv)
    assert played.exit_code == 0
    assert result.stdout == played.stdout and len(result.stdout.splitlines()) > 20
    row = (
        simlab.load_results(replay_folder)
        .filter((simlab_col("variant") == variant) & (simlab_col("game") == index))
        .sort("seat")
        .collect()
    )
    assert f"--seed {row['seed'][0]}" in command and "--bots " + ",".join(row["bot"]) in command.replace("'", "")
    if variant == "short":
        assert "--preset quined2014" in command and "--set hand_limit=2" in command and "start_money=6,6,6,9" in command
    same = invoke(runner, "replay", str(replay_folder), "--variant", variant, "--game", str(index), "--json")
    assert json.loads(same.stdout) == json.loads(invoke(runner, *argv, "--json").stdout)


def simlab_col(name: str):
    import polars as pl

    return pl.col(name)


def test_replay_of_a_game_without_rows_is_rebuilt_from_the_manifest(replay_folder):
    """The fallback (for failed games) gives what the rows hold: the manifest's seed and rotated lineup."""
    import polars as pl

    from simlab.run.replay import replay_spec

    rows = simlab.load_results(replay_folder).filter(pl.col("variant") == "short").sort("game", "seat").collect()
    for index in range(6):
        spec = replay_spec(replay_folder, "short", index)
        assert spec.from_rows
        mine = rows.filter(pl.col("game") == index)
        assert spec.bots == tuple(mine["bot"]) and spec.seed == mine["seed"][0]
    import shutil

    copy = replay_folder.parent / "copy"
    shutil.copytree(replay_folder, copy)
    for part in (copy / "parts").glob("short*"):
        part.unlink()  # as if the variant's games had failed: no rows
    for index in range(6):
        rebuilt = replay_spec(copy, "short", index)
        assert not rebuilt.from_rows
        assert dataclass_fields(rebuilt) == dataclass_fields(replay_spec(replay_folder, "short", index))


def dataclass_fields(spec) -> dict:
    import dataclasses

    return {k: v for k, v in dataclasses.asdict(spec).items() if k != "from_rows"}


def test_replay_errors_are_plain(runner, replay_folder):
    for args, pattern in [
        (["--variant", "nope", "--game", "0"], "unknown variant 'nope'; available: rulebook, short"),
        (["--variant", "short", "--game", "6"], "game 6 is out of range; the run has games 0 to 5"),
        (["--game", "0"], "--variant: the run has several variants; pick one of rulebook, short"),
    ]:
        result = invoke(runner, "replay", str(replay_folder), *args)
        assert result.exit_code == 2, result.output
        assert pattern in result.stderr


def test_replay_of_a_folder_whose_variants_have_other_columns(runner, tmp_path):
    """Variants with another round count have other per-round columns; the replay still finds the game."""
    text = REPLAY.replace("hand_limit = 2", "rounds = 5")
    (tmp_path / "rounds.toml").write_text(text)
    folder = simlab.run_scenario(tmp_path / "rounds.toml", jobs=1, out=tmp_path / "out", progress=False)
    result = invoke(runner, "replay", str(folder), "--variant", "short", "--game", "4")
    assert result.exit_code == 0, result.output
    assert "--set rounds=5" in result.stderr and "=== round 5 ===" in result.stdout
    assert "=== round 6 ===" not in result.stdout


# -- simlab play's default line-up -----------------------------------------------------------------
def test_play_without_bots_seats_the_games_heuristic_bots(runner):
    result = invoke(runner, "play", "massilia", "--seed", "3", "-p", "3")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == "seats: 0=trader, 1=priest, 2=trader"
