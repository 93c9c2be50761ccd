"""A run's identity by content: data files by their bytes, bots by their resolved parameters (issue 30, item 1).

On main a board or table edited in place between two sessions of one folder, a relative map resumed from another
directory, or a bot default changed extended the run with games of another experiment under the same identity
(exit 0, mixed games). Each is now refused with exit 2 naming what changed, and nothing is played.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SMALL

import simlab
from simlab.cli import cli
from simlab.core.bots import parse_spec
from simlab.core.errors import BotSpecError
from simlab.run.errors import ResultFolderError
from simlab.run.runner import run_scenario
from simlab.run.scenario import load_scenario

GAMES = Path(simlab.__file__).parent / "games"
LEGACY = Path(__file__).parent / "folders" / "legacy_v1"


def _scenario(folder: Path, game: str, sets: str, games: int = 4, name: str = "probe") -> Path:
    text = (
        f'name = "{name}"\ngame = "{game}"\nplayers = 2\ngames = {games}\nseed = 3\nchunk_size = 2\n'
        f'bots = ["random", "random"]\n[set]\n{sets}\n'
    )
    path = folder / f"{name}.toml"
    path.write_text(text)
    return path


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["run", *args, "-j", "1"])
    return result.exit_code, result.output


def _games_done(out: Path) -> int:
    return json.loads((out / "manifest.json").read_text())["games_done"]


def test_a_board_edited_in_place_is_not_resumed_into_the_same_folder(tmp_path):
    board = tmp_path / "board.json"
    shutil.copy(GAMES / "merchant_of_venus/data/board_classic.json", board)
    scenario = _scenario(tmp_path, "merchant_of_venus", f'board_file = "{board}"\nrounds = 3')
    out = tmp_path / "out"
    assert _run(str(scenario), "--out", str(out))[0] == 0
    played = board.read_bytes()
    before = _replay(out)
    board.write_text(board.read_text().replace('"penalty": 20', '"penalty": 25'))
    code, output = _run(str(scenario), "--out", str(out), "--resume", "--games", "8")
    assert code == 2, output
    assert "board_file" in output and "other bytes" in output and str(board) in output
    assert _games_done(out) == 4  # nothing was played
    copy = json.loads((out / "manifest.json").read_text())["variants"][0]["data_files"]["board_file"]
    assert (out / copy["copy"]).read_bytes() == played  # the folder keeps what was played
    after = _replay(out)  # a replay plays the copy: the same game as before the edit
    assert f"board_file={out / copy['copy']}" in after[1]
    assert {k: v for k, v in json.loads(after[0]).items() if k != "config_hash"} == {
        k: v for k, v in json.loads(before[0]).items() if k != "config_hash"
    }


def _replay(out: Path) -> tuple[str, str]:
    result = CliRunner().invoke(cli, ["replay", str(out), "-g", "1", "--json"])
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


def test_a_relative_map_resumed_from_another_directory_is_refused(tmp_path, monkeypatch):
    """The same relative path from another directory names another file: refused, not played."""
    first, second = tmp_path / "a", tmp_path / "b"
    for d in (first, second):
        d.mkdir()
        shutil.copy(GAMES / "pantheon/maps/mediterranean_approx.json", d / "map.json")
    doc = json.loads((second / "map.json").read_text())
    doc["description"] = "another map of the same name"
    (second / "map.json").write_text(json.dumps(doc))
    out = tmp_path / "out"
    monkeypatch.chdir(first)
    scenario = _scenario(first, "pantheon", 'map_file = "map.json"\neras = 1')
    assert _run(str(scenario), "--out", str(out))[0] == 0
    monkeypatch.chdir(second)
    code, output = _run(str(scenario), "--out", str(out), "--resume", "--games", "8")
    assert code == 2, output
    assert "map_file (map.json)" in output and "other bytes" in output
    assert _games_done(out) == 4


def test_a_god_tile_table_edited_in_place_is_refused_and_restoring_it_resumes(tmp_path):
    table = tmp_path / "gods.json"
    original = (GAMES / "pantheon/tables/god_tiles_even.json").read_text()
    table.write_text(original)
    scenario = _scenario(tmp_path, "pantheon", f'god_tiles = "{table}"\neras = 1')
    out = tmp_path / "out"
    assert _run(str(scenario), "--out", str(out))[0] == 0
    table.write_text(original.replace('"description": "', '"description": "edited: '))
    code, output = _run(str(scenario), "--out", str(out), "--resume", "--games", "8")
    assert code == 2 and "god_tiles" in output, output
    table.write_text(original)  # what was played: the run goes on
    assert _run(str(scenario), "--out", str(out), "--resume", "--games", "8")[0] == 0
    assert _games_done(out) == 8


def test_a_changed_bot_default_is_not_mixed_into_a_folder(write_scenario, tmp_path, monkeypatch):
    """A folder names 'trader'; a session whose trader resolves to other parameters is refused."""
    scenario = write_scenario(SMALL.replace("games = 60", "games = 10"))
    out = tmp_path / "out"
    run_scenario(scenario, jobs=1, out=out, progress=False)
    registry = simlab.get_game("massilia").bots
    info = registry.info("trader")
    first = next(iter(info.params))
    changed = dataclasses.replace(info, params={**info.params, first: info.params[first] + 1})
    monkeypatch.setitem(registry._infos, "trader", changed)
    with pytest.raises(ResultFolderError, match=rf"bot 'trader' resolves to other parameters: {first} "):
        run_scenario(scenario, jobs=1, out=out, progress=False, resume=True, games=20)
    monkeypatch.setitem(registry._infos, "trader", dataclasses.replace(info, version="2"))
    with pytest.raises(ResultFolderError, match=r"bot 'trader': version 1 then, 2 now"):
        run_scenario(scenario, jobs=1, out=out, progress=False, resume=True, games=20)
    assert _games_done(out) == 20  # 10 games x 2 variants, none added


def test_the_identity_holds_data_file_hashes_and_resolved_bots(tmp_path):
    scenario = _scenario(tmp_path, "pantheon", "eras = 1")
    sc = load_scenario(scenario)
    identity = sc.identity()
    files = identity["data_files"][sc.variant_names[0]]
    assert set(files) == {"map_file", "god_tiles", "demigods", "loot_table"}
    assert all(len(h) == 64 for h in files.values())
    assert identity["resolved_bots"]["random"]["version"] == "1"
    search = simlab.get_game("pantheon").bots.resolve("ismcts")
    assert search["params"]["iterations"] == 64.0 and search["params"]["rollout_kind"] == 1.0


def _legacy(tmp_path: Path) -> Path:
    folder = tmp_path / "legacy_v1"
    shutil.copytree(LEGACY, folder)
    return folder


def test_a_folder_of_results_format_1_still_loads_and_verifies(tmp_path):
    folder = _legacy(tmp_path)
    assert simlab.load_results(folder).collect().height == 4 * 4
    runner = CliRunner()
    for command in (["verify", str(folder)], ["seats", str(folder), "--json"]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 0, result.output


def test_a_folder_of_results_format_1_is_not_extended_but_repaired(tmp_path):
    folder = _legacy(tmp_path)
    scenario = LEGACY.parent / "legacy_v1.toml"
    code, output = _run(str(scenario), "--out", str(folder), "--resume", "--games", "8")
    assert code == 2, output
    assert "results format 1" in output and "new folder" in output
    assert _games_done(folder) == 4
    result = CliRunner().invoke(cli, ["repair", str(folder)])
    assert result.exit_code == 0, result.output
    assert _games_done(folder) == 4


@pytest.mark.parametrize("spec", ["trader:x=1,x=2", "trader:sell_bias=1,sell_bias=2"])
def test_a_bot_parameter_given_twice_is_refused(spec):
    with pytest.raises(BotSpecError, match="given twice"):
        parse_spec(spec)


def test_a_search_parameter_given_twice_is_refused():
    with pytest.raises(BotSpecError, match="given twice"):
        simlab.get_game("massilia").bots.make("ismcts:iterations=8,iterations=16")


def test_a_scenario_with_a_bot_parameter_given_twice_is_refused(tmp_path):
    scenario = _scenario(tmp_path, "massilia", "")
    twice = '["trader:token_cost=1,token_cost=2", "random"]'
    scenario.write_text(scenario.read_text().replace('["random", "random"]', twice))
    code, output = _run(str(scenario), "--out", str(tmp_path / "out"))
    assert code == 2 and "given twice" in output, output
    assert not (tmp_path / "out").exists()


def test_seats_json_is_the_same_bytes_every_time(write_scenario, tmp_path):
    """With several variants, the equal-seats table kept no order: two invocations printed different bytes."""
    text = SMALL.replace("games = 60", "games = 8").replace(
        "[variants.quined2014]",
        '[variants.a]\npreset = "rulebook"\n[variants.b]\npreset = "rulebook"\n[variants.quined2014]',
    )
    out = run_scenario(write_scenario(text), jobs=1, out=tmp_path / "out", progress=False)
    answers = {CliRunner().invoke(cli, ["seats", str(out), "--json"]).output for _ in range(4)}
    assert len(answers) == 1


def test_bench_refuses_more_games_than_memory_holds():
    result = CliRunner().invoke(cli, ["bench", "massilia", "--games", str(10**12)])
    assert result.exit_code == 2, result.output
    assert "error: --games 1,000,000,000,000" in result.output and "or fewer" in result.output


def test_a_table_edited_in_one_process_is_read_again(tmp_path):
    """A notebook (or a reused worker) that made a config, then edits its table, plays the edited table: the
    loaders' caches are dropped when a file changed on disk (on main they kept the first table for good)."""
    table = tmp_path / "gods.json"
    doc = json.loads((GAMES / "pantheon/tables/god_tiles_even.json").read_text())
    table.write_text(json.dumps(doc))
    game = simlab.get_game("pantheon")
    first = game.make_config(overrides={"god_tiles": str(table)})
    from simlab.games.pantheon import data

    before = data.god_tiles(str(table)).requirement.copy()
    doc["rows"][0]["requirement"], doc["rows"][1]["requirement"] = (
        doc["rows"][1]["requirement"],
        doc["rows"][0]["requirement"],
    )
    table.write_text(json.dumps(doc, indent=1))  # another size: the edit is seen even within one second
    game.make_config(overrides={"god_tiles": str(table)})
    after = data.god_tiles(str(table)).requirement
    assert not (before == after).all()
    assert first.config_hash() == game.make_config(overrides={"god_tiles": str(table)}).config_hash()


def test_a_worker_refuses_a_data_file_edited_during_the_run(tmp_path):
    """A chunk whose data file no longer holds the bytes the run began with is refused, not played."""
    from simlab.run.chunk import ChunkTask, play_chunk
    from simlab.run.errors import WorkerMismatch

    board = tmp_path / "board.json"
    shutil.copy(GAMES / "merchant_of_venus/data/board_classic.json", board)
    scenario = load_scenario(_scenario(tmp_path, "merchant_of_venus", f'board_file = "{board}"\nrounds = 3'))
    v = scenario.variants[0]
    task = ChunkTask(
        game=scenario.game,
        scenario=scenario.name,
        variant=v.name,
        config=v.config,
        lineup=scenario.seats,
        rotate=False,
        start=0,
        stop=2,
        seeds=None,
        simlab_version=simlab.__version__,
        rules_version=scenario.rules_version,
        data_sha256={k: f["sha256"] for k, f in scenario.data_files[v.name].items()},
    )
    assert play_chunk(task).chunk["games"] == 2
    board.write_text(board.read_text().replace('"penalty": 20', '"penalty": 25'))
    with pytest.raises(WorkerMismatch, match=r"board_file\) changed on disk during the run"):
        play_chunk(task)
