"""Bounded inputs: the scenario path, game and chunk counts, --jobs and numbers are checked before any work."""

from __future__ import annotations

import math
import os
import threading

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import SMALL

from simlab.analysis.frames import AnalysisError
from simlab.cli import cli
from simlab.core.bots import parse_spec
from simlab.core.errors import BotSpecError
from simlab.run import runner as runner_module
from simlab.run.errors import ScenarioError
from simlab.run.scenario import MAX_CHUNKS, load_scenario, parse_scenario


def _with_timeout(func, seconds: float = 10.0):
    """Run ``func`` in a thread; fail (instead of hanging the suite) if it has not returned in time."""
    out: dict = {}

    def target():
        try:
            out["value"] = func()
        except BaseException as exc:
            out["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "it blocked"
    return out


def test_a_fifo_scenario_is_refused_at_once(tmp_path):
    fifo = tmp_path / "s.toml"
    os.mkfifo(fifo)
    out = _with_timeout(lambda: load_scenario(fifo))
    assert isinstance(out.get("error"), ScenarioError)
    assert "is not a regular file" in str(out["error"])


def test_dev_zero_is_refused_at_once():
    out = _with_timeout(lambda: load_scenario("/dev/zero"))
    assert isinstance(out.get("error"), ScenarioError) and "not a regular file" in str(out["error"])


def test_a_huge_scenario_file_is_refused(tmp_path):
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate(50_000_000)  # sparse: 50 MB of zeros
    with pytest.raises(ScenarioError, match=r"50,000,000 bytes, more than a scenario file can be"):
        load_scenario(big)


def test_cli_fifo_scenario_is_an_error(tmp_path):
    fifo = tmp_path / "s.toml"
    os.mkfifo(fifo)
    out = _with_timeout(lambda: CliRunner().invoke(cli, ["run", str(fifo), "--out", str(tmp_path / "o")]))
    result = out["value"]
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and "regular file" in result.stderr
    assert not (tmp_path / "o").exists()


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SMALL.encode())
    assert load_scenario(path).games == 60


def test_deeply_nested_arrays_are_an_error():
    text = SMALL + "\n[variants.deep]\nset = { x = " + "[" * 5000 + "]" * 5000 + " }\n"
    with pytest.raises(ScenarioError, match="nested too deeply"):
        parse_scenario(text)


def test_absurd_chunk_counts_are_refused_with_the_limit():
    text = SMALL.replace("games = 60", "games = 9_999_999_999").replace("chunk_size = 25", "chunk_size = 1")
    with pytest.raises(ScenarioError, match=rf"more than the {MAX_CHUNKS:,} a run can plan; use a chunk size of at"):
        parse_scenario(text)


def test_absurd_chunk_sizes_are_refused_with_the_limit():
    text = SMALL.replace("chunk_size = 25", "chunk_size = 9_999_999_999")
    with pytest.raises(ScenarioError, match=r"key 'chunk_size': expected a positive integer up to 1,000,000, found"):
        parse_scenario(text)
    sc = parse_scenario(SMALL)
    with pytest.raises(ScenarioError, match=r"--chunk-size: expected a positive integer up to 1,000,000"):
        sc.with_options(chunk_size=9_999_999_999)
    with pytest.raises(ScenarioError, match=r"--games: .* chunks, more than"):
        sc.with_options(games=9_999_999_999)


def test_a_huge_run_with_big_chunks_is_planned_at_once():
    sc = parse_scenario(
        SMALL.replace("games = 60", "games = 9_999_999_999").replace("chunk_size = 25", "chunk_size = 1_000_000")
    )
    assert sc.games == 9_999_999_999  # 2 x 10,000 chunks: within the limit


def test_long_bad_values_are_cut_in_messages():
    text = SMALL.replace("seed = 42", f'seed = "{"x" * 1_000_000}"')
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text)
    assert len(str(info.value)) < 400 and "characters)" in str(info.value)


def test_variant_names_are_unique_ignoring_case():
    text = SMALL + '\n[variants.Rulebook]\npreset = "rulebook"\n'
    with pytest.raises(ScenarioError, match="variants 'rulebook' and 'Rulebook' differ only in case"):
        parse_scenario(text)


def test_jobs_are_capped_at_the_cores(monkeypatch):
    monkeypatch.setattr(runner_module, "_cores", lambda: 2)
    assert runner_module.resolve_jobs(-1) == 2
    assert runner_module.resolve_jobs(2) == 2
    with pytest.raises(ScenarioError, match=r"--jobs 12: more than the 2 core\(s\).*--force-jobs"):
        runner_module.resolve_jobs(12)
    assert runner_module.resolve_jobs(12, force=True) == 12


def test_cli_run_refuses_too_many_jobs(write_scenario, tmp_path):
    result = CliRunner().invoke(cli, ["run", str(write_scenario()), "-j", "999", "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "error: --jobs 999: more than the" in result.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "command", [["bench", "massilia", "-n", "10"], ["compensate", "massilia", "--max-games", "100"]]
)
def test_cli_bench_and_compensate_refuse_too_many_jobs(command):
    result = CliRunner().invoke(cli, [*command, "-j", "999"])
    assert result.exit_code == 2 and "error: --jobs 999: more than the" in result.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "1e999"])
def test_bot_parameters_must_be_finite(value):
    with pytest.raises(BotSpecError, match="must be a finite number"):
        parse_spec(f"trader:token_cost={value}")
    assert parse_spec("trader:token_cost=3").params == {"token_cost": 3.0}


def test_long_bot_specs_are_cut_in_messages():
    with pytest.raises(BotSpecError) as info:
        parse_spec("trader:token_cost=" + "x" * 100_000)
    assert len(str(info.value)) < 300


def _play(game, config, knob, seat, offset, lineup, start, seeds):
    rng = np.random.default_rng([start, int(offset * 10) + 1000])
    return (rng.random(len(seeds)) < 1 / (1 + math.exp(-(-1.0 + 0.15 * offset)))).astype(float)


@pytest.mark.parametrize("width", [math.nan, math.inf, 0.0, -1.0])
def test_compensate_width_must_be_positive_and_finite(width):
    from simlab.experiments.adaptive import find_fair_offset
    from simlab.experiments.knob_search import KnobSearch
    from simlab.games.massilia.config import MassiliaConfig

    config = MassiliaConfig.from_preset("rulebook")
    with pytest.raises(AnalysisError, match="--width: expected a positive finite number"):
        search = KnobSearch(None, config, "start_money", ["trader"] * 4, max_games=1000)
        find_fair_offset(search, 3, width=width, play=_play)


def test_compensate_with_too_few_games_is_an_error():
    from simlab.experiments.adaptive import find_fair_offset
    from simlab.experiments.knob_search import KnobSearch
    from simlab.games.massilia.config import MassiliaConfig

    config = MassiliaConfig.from_preset("rulebook")
    with pytest.raises(AnalysisError, match=r"not enough games to fit \(--max-games 1\); need at least 6"):
        find_fair_offset(KnobSearch(None, config, "start_money", ["trader"] * 4, max_games=1), 3, play=_play)


def test_cli_compensate_nan_width_and_one_game_are_errors():
    runner = CliRunner()
    for args in (["--width", "nan"], ["--max-games", "1"]):
        result = runner.invoke(cli, ["compensate", "massilia", "--seat", "3", "--bots", "random", *args])
        assert result.exit_code == 2, result.output
        last = result.stderr.splitlines()[-1]
        assert last.startswith(("error: ", "Error: Invalid value")) and "nan" not in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["compensate", "massilia", "--width", "nan"],  # without --seat too: refused, not ignored
        ["compensate", "massilia", "--tolerance", "inf"],
        ["seats", ".", "--tolerance", "nan"],
    ],
)
def test_cli_float_options_refuse_non_finite_numbers_before_playing(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "expected a finite number" in result.stderr and "Traceback" not in result.stderr


def test_a_full_disk_at_the_start_leaves_no_empty_folder(write_scenario, tmp_path, monkeypatch):
    import errno

    from simlab.run import folder_writer
    from simlab.run.errors import ResultFolderError

    def full(self):
        raise ResultFolderError(f"cannot write to output folder {self.path}: {os.strerror(errno.ENOSPC)}")

    monkeypatch.setattr(folder_writer.ResultFolder, "_check_writable", full)
    out = tmp_path / "new" / "results"
    with pytest.raises(ResultFolderError, match="No space left on device"):
        runner_module.run_scenario(write_scenario(), jobs=1, out=out, progress=False)
    assert not (tmp_path / "new").exists()


def test_a_huge_run_is_planned_lazily():
    """10^10 games per variant in the most chunks a run may have: the plan is counted, not listed."""
    import time
    import tracemalloc

    sc = parse_scenario(
        SMALL.replace("games = 60", "games = 9_999_999_999").replace("chunk_size = 25", "chunk_size = 200_000")
    )
    tracemalloc.start()
    t0 = time.perf_counter()
    plan = runner_module._plan(sc, [], "x")
    first = plan[0]
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(plan) == MAX_CHUNKS and plan.games == 2 * 9_999_999_999
    assert (first.variant, first.start, first.stop) == (sc.variants[0].name, 0, 200_000)
    assert peak < 1_000_000 and seconds < 1.0  # a list of the 100,000 tasks was ~44 MB and seconds


def test_the_lazy_plan_interleaves_variants_and_skips_the_games_on_disk():
    sc = parse_scenario(SMALL.replace("chunk_size = 25", "chunk_size = 7"))
    a, b = (v.name for v in sc.variants)
    on_disk = [{"variant": a, "start": 7, "stop": 14}, {"variant": b, "start": 0, "stop": 30}]
    plan = runner_module._plan(sc, on_disk, "x")
    got = [(t.variant, t.start, t.stop) for t in plan]
    want = sorted(
        [(a, 0, 7)]
        + [(a, s, min(s + 7, 60)) for s in range(14, 60, 7)]
        + [(b, s, min(s + 7, 60)) for s in range(30, 60, 7)],
        key=lambda r: (r[1], sc.variant_names.index(r[0])),
    )
    assert got == want and len(plan) == len(want) and plan.games == sum(s2 - s1 for _, s1, s2 in want)
