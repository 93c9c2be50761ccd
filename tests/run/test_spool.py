"""Local workers write their parts themselves and send back only where: a tiny message, never half-sent."""

from __future__ import annotations

import dataclasses
import io
import json
import pickle
import select

import pyarrow.parquet as pq
import pytest
from conftest import rows
from test_failures import TINY, broken_games  # noqa: F401  (a fixture)

from simlab.run import runner
from simlab.run.backends import Executor
from simlab.run.chunk import ChunkResult, SpooledChunk, play_chunk
from simlab.run.errors import RunFailed
from simlab.run.scenario import load_scenario


def _first_task(path, spool: str = ""):
    sc = load_scenario(path)
    return runner._plan(sc, [], "identity", spool=spool)[0].seeded()


def test_a_spooling_worker_sends_back_less_than_one_atomic_pipe_write(broken_games, write_scenario, tmp_path):  # noqa: F811
    """loky hangs for good if a worker dies half-way through sending its result; a pipe write of at most
    PIPE_BUF bytes is atomic, so a message that small is either sent whole or not at all."""
    parts = tmp_path / "parts"
    parts.mkdir()
    task = _first_task(write_scenario(TINY), spool=str(parts))
    returned = play_chunk(task)
    assert isinstance(returned, SpooledChunk)
    assert len(pickle.dumps([returned], protocol=pickle.HIGHEST_PROTOCOL)) + 200 < select.PIPE_BUF
    assert [p.name for p in parts.iterdir()] == [returned.name] and returned.name.endswith(".tmp")

    spooled = returned.load(parts)
    direct = play_chunk(dataclasses.replace(task, spool=""))
    assert isinstance(direct, ChunkResult) and direct.failures, "the chunk has failing games (the fixture's)"
    keep = ("variant", "start", "stop", "file", "games", "failures", "decisions", "identity")
    assert {k: spooled.chunk[k] for k in keep} == {k: direct.chunk[k] for k in keep}
    assert set(spooled.chunk["timings"]) == set(direct.chunk["timings"])
    assert spooled.chunk["timings"]["encode"] == returned.encode
    on_disk = pq.read_table(parts / returned.name)
    assert on_disk.equals(pq.read_table(io.BytesIO(direct.parquet)))


def test_a_run_ends_with_no_temporary_part_files(write_scenario, tmp_path):
    out = runner.run_scenario(write_scenario(), jobs=2, out=tmp_path / "out", progress=False, compact=False)
    assert not list(out.rglob("*.tmp"))
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(c["file"] for c in manifest["chunks"]) == sorted(p.name for p in (out / "parts").iterdir())


def test_a_pool_that_ends_short_of_its_chunks_fails_the_run(write_scenario, tmp_path, monkeypatch):
    """If the pool stops yielding without an error (a lost worker it did not report), the run is not complete."""
    real_run = Executor.run

    def loses_the_last_chunk(self, tasks):
        yield from list(real_run(self, tasks))[:-1]

    monkeypatch.setattr(Executor, "run", loses_the_last_chunk)
    path = write_scenario()
    out = tmp_path / "out"
    with pytest.raises(RunFailed, match=r"the workers returned 110 of the 120 games asked for; .* --resume"):
        runner.run_scenario(path, jobs=1, out=out, progress=False)
    assert json.loads((out / "manifest.json").read_text())["status"] == "failed"
    monkeypatch.setattr(Executor, "run", real_run)
    runner.run_scenario(path, jobs=1, out=out, resume=True, progress=False)
    clean = runner.run_scenario(path, jobs=1, out=tmp_path / "clean", progress=False)
    assert rows(out).equals(rows(clean))
