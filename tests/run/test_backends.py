"""Backend choice without a cluster: bad names and addresses, missing extras, workers of another version."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from conftest import SMALL

from simlab.cli import cli
from simlab.run.backends import Executor
from simlab.run.errors import BackendError, WorkerMismatch
from simlab.run.runner import _plan, run_scenario
from simlab.run.scenario import load_scenario


def test_unknown_backend_is_refused_before_touching_the_disk(write_scenario, tmp_path):
    with pytest.raises(BackendError, match="expected one of local, dask, ray, found 'spark'"):
        run_scenario(write_scenario(), backend="spark", out=tmp_path / "out", progress=False)
    assert not (tmp_path / "out").exists()


def test_address_needs_a_cluster_backend(write_scenario, tmp_path):
    result = CliRunner().invoke(
        cli, ["run", str(write_scenario()), "--out", str(tmp_path / "o"), "--address", "tcp://127.0.0.1:8786"]
    )
    assert result.exit_code == 2
    assert "error: --address needs --backend dask or --backend ray" in result.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(("backend", "module"), [("dask", "distributed"), ("ray", "ray")])
def test_a_missing_extra_says_what_to_install(write_scenario, tmp_path, monkeypatch, backend, module):
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if the extra were not installed
    result = CliRunner().invoke(cli, ["run", str(write_scenario()), "--out", str(tmp_path / "o"), "--backend", backend])
    assert result.exit_code == 2, result.output
    assert (
        f"error: --backend {backend} needs {module}, which is not installed: pip install 'simlab[{backend}]'"
        in result.stderr
    )
    assert "Traceback" not in result.output


def test_a_worker_with_another_version_refuses_the_chunk(write_scenario):
    import dataclasses

    from simlab.run.chunk import play_chunk

    sc = load_scenario(write_scenario())
    task = _plan(sc, [], "x")[0]
    with pytest.raises(WorkerMismatch, match=r"runs simlab .* but the run needs simlab 0\.0\.0 .*same simlab"):
        play_chunk(dataclasses.replace(task, simlab_version="0.0.0"))
    with pytest.raises(WorkerMismatch, match=r"the run needs simlab .* with rules massilia-0\.9"):
        play_chunk(dataclasses.replace(task, rules_version="massilia-0.9"))


def test_local_executor_runs_every_chunk_once(write_scenario):
    sc = load_scenario(
        write_scenario(SMALL.replace("games = 60", "games = 8").replace("chunk_size = 25", "chunk_size = 3"))
    )
    tasks = _plan(sc, [], "x")
    with Executor("local", None, 2) as ex:
        got = sorted((r.chunk["variant"], r.chunk["start"], r.chunk["stop"]) for r in ex.run(tasks))
    assert got == sorted((t.variant, t.start, t.stop) for t in tasks)


def test_chunks_time_their_stages(write_scenario, tmp_path):
    import json

    folder = run_scenario(write_scenario(), jobs=1, out=tmp_path / "out", progress=False)
    manifest = json.loads((folder / "manifest.json").read_text())
    for chunk in manifest["chunks"]:
        assert set(chunk["timings"]) == {"play", "game_columns", "columns", "digest", "encode"}
        after = chunk["timings"]["digest"] + chunk["timings"]["encode"]  # both after the chunk's own clock
        assert sum(chunk["timings"].values()) <= chunk["seconds"] + after + 1e-3
    stages = manifest["timings"]["stage_seconds"]
    assert stages["play"] > 0 and set(stages) == {"play", "game_columns", "columns", "digest", "encode"}


def test_bench_profile_says_where_the_time_goes():
    result = CliRunner().invoke(
        cli,
        ["bench", "massilia", "-n", "6", "-p", "2", "--bots", "trader,priest", "--profile", "--chunk-size", "3"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "profile: 6 games in 2 chunk(s) through the runner's play_chunk" in out
    for stage in ("game.play_batch", "result and fact columns", "Parquet encoding", "runner overhead"):
        assert stage in out
    assert "decisions of 6 game(s) replayed" in out and "legal µs" in out and "\n  turn " in out
    assert out.strip().splitlines()[-1].startswith("games/s: ")


def test_decision_kinds_cover_every_decision_of_the_sample():
    import simlab
    from simlab.run.profile import decision_kinds

    game = simlab.get_game("roma")
    config = game.make_config()
    kinds = decision_kinds(game, config, ["builder", "warrior"], [1, 2])
    decisions = sum(
        int(game.decisions(game.play_batch(config, [s], game.make_bots(["builder", "warrior"], 2)))[0]) for s in (1, 2)
    )
    assert sum(k.decisions for k in kinds) == decisions
    assert all(k.legal >= 0 and k.policy >= 0 and k.apply >= 0 for k in kinds)
    assert decision_kinds(game, config, ["builder", "warrior"], []) == []
