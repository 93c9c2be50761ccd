"""The Ray backend on a local Ray instance (bound to 127.0.0.1): the same rows as the local backend, and a
pool worker killed mid-run is restarted and its chunks retried, so the run completes with the same rows."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("ray")

from backends_support import KILL_SCENARIO, descendants, simlab, stop, wait_for_parts
from conftest import rows

from simlab.run.runner import run_scenario


@pytest.fixture(scope="module")
def kill_reference(tmp_path_factory) -> tuple[Path, object]:
    base = tmp_path_factory.mktemp("ray_reference")
    path = base / "kill.toml"
    path.write_text(KILL_SCENARIO)
    # one process: any worker count gives the same rows (test_runner), and starting local workers costs seconds
    return path, rows(run_scenario(path, jobs=1, out=base / "local", progress=False))


def test_a_ray_worker_killed_mid_run_costs_no_game(kill_reference, tmp_path):
    path, expected = kill_reference
    out = tmp_path / "ray"
    proc = simlab("run", str(path), "--out", str(out), "--backend", "ray", "--jobs", "2")
    try:
        wait_for_parts(out, proc, 4)
        started = descendants(proc.pid)  # the Ray instance: gcs, raylet, pool workers...
        actors = [pid for pid, args in started.items() if args.startswith("ray::PoolActor")]
        assert actors, f"the run has Ray pool workers: {descendants(proc.pid)}"
        os.kill(actors[0], signal.SIGKILL)
        parts_at_kill = len(list((out / "parts").glob("*.parquet")))
        _, err = proc.communicate(timeout=300)
    finally:
        stop(proc)
        left = _wait_gone(started if "started" in locals() else {})
        for pid in left:  # only processes this run started
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert parts_at_kill < 100, "the worker died while the run had most of its chunks to go"
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert rows(out).equals(expected)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["games_done"] == 800
    assert manifest["timings"]["sessions"][-1]["backend"] == "ray"
    assert not left, f"the run stopped the Ray instance it started: {left}"


def _wait_gone(pids: dict[int, str], timeout: float = 30.0) -> list[int]:
    """The processes of ``pids`` still alive after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        alive = [pid for pid in pids if _alive(pid)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except OSError:
        return True
