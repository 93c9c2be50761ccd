"""The ``simlab`` command through click's CliRunner: every command works, has help, and errors are plain."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from simlab.cli import cli, split_bots

SMALL = """\
game = "massilia"
players = 4
games = 8
seed = 5
chunk_size = 4
lineup = ["trader", "random", "random", "priest"]

[variants.rulebook]
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str):
    return runner.invoke(cli, list(args), catch_exceptions=False)


def assert_user_error(result, pattern: str, code: int = 2) -> None:
    assert result.exit_code == code, result.output
    assert re.search(r"^error: " + pattern, result.stderr, re.M), result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [[], *([name] for name in sorted(cli.commands))])
def test_every_command_has_help(runner, command):
    result = invoke(runner, *command, "--help")
    assert result.exit_code == 0
    assert "Usage: " in result.output
    doc = cli.commands[command[0]].help if command else cli.help
    assert doc and len(doc.strip()) > 20


def test_version(runner):
    import simlab

    assert invoke(runner, "--version").output.strip().endswith(simlab.__version__)


def test_games(runner):
    result = invoke(runner, "games")
    assert result.exit_code == 0
    assert re.search(r"^massilia\s+Massilia .*2-4 players.*presets: rulebook, quined2014", result.output, re.M)


def test_bots(runner):
    result = invoke(runner, "bots", "massilia")
    assert result.exit_code == 0
    for name in ("random", "trader", "priest"):
        assert re.search(rf"^{name}\s+\S", result.output, re.M)
    assert "token_cost=" in result.output


def test_bots_of_an_unknown_game(runner):
    assert_user_error(invoke(runner, "bots", "chess"), r"unknown game 'chess'; available: .*massilia")


def test_play_json_is_a_summary(runner):
    result = invoke(
        runner, "play", "massilia", "--players", "3", "--bots", "trader,random,priest", "--seed", "11", "--json"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["seed"] == 11 and summary["players"] == 3
    assert summary["bots"] == ["trader", "random", "priest"]
    assert sum(summary["win_shares"]) == pytest.approx(1.0)


def test_play_transcript_is_reproducible(runner):
    args = ("play", "massilia", "-b", "trader,random", "-s", "3", "--preset", "quined2014", "--set", "rounds=2")
    first = invoke(runner, *args)
    assert first.exit_code == 0, first.output
    assert first.output == invoke(runner, *args).output
    lines = first.output.splitlines()
    assert lines[0].startswith("Massilia — seed 3, 2 players")
    assert any(line.startswith("winners: ") for line in lines)


def test_play_replays_a_game_of_a_run(runner, tmp_path):
    """The replay command of a run's game gives that game's scores."""
    import polars as pl

    import simlab

    scenario = tmp_path / "s.toml"
    scenario.write_text(SMALL)
    folder = simlab.run_scenario(scenario, jobs=1, out=tmp_path / "out", progress=False)
    df = simlab.load_results(folder).filter((pl.col("variant") == "quined2014") & (pl.col("game") == 5)).collect()
    df = df.sort("seat")
    bots = ",".join(df["bot"].to_list())
    seed = str(df["seed"][0])
    result = invoke(runner, "play", "massilia", "-p", "4", "-b", bots, "-s", seed, "--preset", "quined2014", "--json")
    assert json.loads(result.output)["scores"] == df["score"].to_list()


def test_play_errors_are_plain(runner):
    assert_user_error(invoke(runner, "play", "massilia", "--bots", "wizard"), r"unknown bot 'wizard'")
    assert_user_error(invoke(runner, "play", "massilia", "--set", "rounds=many"), r"config rounds: expected an integer")
    assert_user_error(invoke(runner, "play", "massilia", "--set", "rounds"), r"override 'rounds' must look like key=va")
    assert_user_error(invoke(runner, "play", "massilia", "--preset", "deluxe"), r"unknown preset 'deluxe'")
    assert_user_error(invoke(runner, "play", "massilia", "-p", "4", "-b", "trader,random"), r"4 players need 4 bots")


def test_bench_last_line_is_games_per_second(runner):
    result = invoke(runner, "bench", "massilia", "--games", "30", "--bots", "random")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert re.fullmatch(r"games/s: \d+(\.\d+)?", lines[-1])
    assert any(re.fullmatch(r"decisions/s: \d+", line) for line in lines)
    assert "bots: random, random, random, random" in result.output


def test_bench_with_two_jobs(runner):
    result = invoke(runner, "bench", "massilia", "-n", "40", "-j", "2", "-p", "2", "--set", "rounds=3")
    assert result.exit_code == 0, result.output
    assert "40 games in" in result.output and "with 2 job(s)" in result.output
    # the pool's start-up is before the clock, and given apart with the pace counting it (a run pays it)
    assert re.search(
        r"^worker start-up \(spawn, imports, engine; before the clock\): \d+\.\d\d s, "
        r"\d+\.\d games/s counting it$",
        result.output,
        re.M,
    ), result.output


def test_bench_times_the_pool_start_up_apart():
    """The start-up of a fresh pool is timed outside the clock; the pace counting it is the slower one."""
    from simlab.run.bench import bench

    r = bench("roma", players=2, bots=["builder", "warrior"], games=40, jobs=2, rotate=True)
    assert r.worker_start_seconds > 0
    assert r.games_per_second_with_start == pytest.approx(r.games / (r.seconds + r.worker_start_seconds))
    assert r.games_per_second_with_start < r.games_per_second
    one = bench("roma", players=2, bots=["builder", "warrior"], games=10, jobs=1)
    assert one.worker_start_seconds == 0 and one.games_per_second_with_start == one.games_per_second


def test_bench_with_one_job_has_no_pool_to_start(runner):
    result = invoke(runner, "bench", "massilia", "-n", "10", "-j", "1", "-p", "2", "--set", "rounds=3")
    assert result.exit_code == 0 and "worker start-up" not in result.output, result.output


def test_run_prints_a_summary_and_the_folder(runner, tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text(SMALL)
    out = tmp_path / "out"
    result = invoke(runner, "run", str(scenario), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "win share by seat" in result.output and f"results: {out}" in result.output
    assert "16/16 games (100%)" in result.stderr
    again = invoke(runner, "run", str(scenario), "--out", str(out))
    assert_user_error(again, r"output folder .* already holds 16 games .*add --resume")
    quiet = invoke(runner, "run", str(scenario), "-o", str(out), "--resume", "-q", "--games", "12")
    assert quiet.exit_code == 0 and quiet.output.strip() == str(out) and quiet.stderr == ""


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        (
            SMALL.replace("games = 8", "games = -5"),
            r".*s\.toml: key 'games': expected a positive integer up to [0-9,]+, found -5$",
        ),
        (SMALL.replace("players = 4", "players = = 4"), r".*s\.toml: not valid TOML: line 2"),
        (SMALL.replace('"priest"]', '"wizard"]'), r".*key 'lineup\[3\]': unknown bot 'wizard'"),
    ],
)
def test_run_scenario_errors_are_plain(runner, tmp_path, text, pattern):
    scenario = tmp_path / "s.toml"
    scenario.write_text(text)
    assert_user_error(invoke(runner, "run", str(scenario), "-o", str(tmp_path / "out")), pattern)


def test_run_errors_are_plain(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default result folder is results/<name> here
    assert_user_error(invoke(runner, "run", str(tmp_path / "none.toml")), r".*none\.toml: no such scenario file")
    scenario = tmp_path / "s.toml"
    scenario.write_text(SMALL)
    afile = tmp_path / "file"
    afile.write_text("x")
    assert_user_error(invoke(runner, "run", str(scenario), "-o", str(afile)), r"output folder .*file is a file")
    assert_user_error(invoke(runner, "run", str(scenario), "-j", "0"), r"--jobs: expected a positive integer or -1")
    assert_user_error(
        invoke(runner, "run", str(scenario), "-n", "0"), r"--games: expected a positive integer up to [0-9,]+, found 0"
    )
    assert not (tmp_path / "results").exists(), "options are checked before anything is written"


def test_failed_games_exit_with_1(runner, tmp_path, monkeypatch):
    import simlab

    game = simlab.get_game("massilia")

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(game, "play_batch", broken)
    monkeypatch.setattr(game, "play", broken)
    scenario = tmp_path / "s.toml"
    scenario.write_text(SMALL.replace("games = 8", "games = 2"))
    result = invoke(runner, "run", str(scenario), "-o", str(tmp_path / "out"), "-j", "1")
    assert_user_error(result, r"4 game\(s\) failed and are not in the results; see .*failures\.jsonl", code=1)
    fast = invoke(runner, "run", str(scenario), "-o", str(tmp_path / "fast"), "-j", "1", "-q", "--fail-fast")
    assert_user_error(fast, r"game 0 of variant 'rulebook' \(seed \d+\) failed: RuntimeError: boom")
    assert "replay it with: simlab play massilia" in fast.stderr


def test_split_bots_keeps_parameter_lists_together():
    assert split_bots("trader,random") == ["trader", "random"]
    assert split_bots("trader:token_cost=3,card_value=1,random") == ["trader:token_cost=3,card_value=1", "random"]
    assert split_bots(None) == [] and split_bots("") == []


def test_the_installed_script_runs():
    result = subprocess.run([sys.executable, "-m", "simlab.cli", "games"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "massilia" in result.stdout


def test_import_simlab_is_light():
    code = (
        "import sys, simlab; print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'numba', 'polars', "
        "'pyarrow', 'joblib'})); simlab.run_scenario; simlab.load_results"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_readme_starts_with_the_two_commands_and_lists_every_command():
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert readme.index("make demo") < readme.index("make test") < 400
    for name in cli.commands:
        assert f"`simlab {name}" in readme, f"README does not document `simlab {name}`"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-games", "100"], "not enough games to explore (--max-games 100); the first step needs 10,000"),
        (["--knob", "rounds"], "knob 'rounds' is not a per-seat number"),
        (["--batch", "5"], "--batch: need at least 10 games"),
    ],
)
def test_compensate_vector_errors_before_playing(args, message):
    """Bad budgets and knobs are refused with a clear message (exit 2) before any game is played."""
    result = CliRunner().invoke(cli, ["compensate", "massilia", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output.replace("\n", " ")
    assert "Traceback" not in result.output


def test_compensate_help_states_the_default_runtime():
    result = CliRunner().invoke(cli, ["compensate", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "--confirm-games" in text and "--tolerance" in text and "on 2 busy cores" in text
