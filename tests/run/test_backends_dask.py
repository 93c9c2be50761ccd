"""The Dask backend on a real cluster (a scheduler and two worker processes on loopback): the same rows as
the local backend, and a worker killed mid-run costs no game (its chunks are re-run on the other worker)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from backends_support import KILL_SCENARIO, simlab, stop, wait_for_parts
from conftest import SMALL, rows

from simlab.run.runner import run_scenario

DASK = Path(sys.executable).with_name("dask")


class Cluster:
    """``dask scheduler`` and ``dask worker`` subprocesses on 127.0.0.1, as a user would start them."""

    def __init__(self, tmp: Path, workers: int = 2):
        self.procs: list[subprocess.Popen] = []
        info = tmp / "scheduler.json"
        self.scheduler = self._start(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(info)
        )
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            if time.monotonic() > deadline or self.scheduler.poll() is not None:
                self.close()
                pytest.fail("the dask scheduler did not start")
            time.sleep(0.1)
        self.address = json.loads(info.read_text())["address"]
        # --no-nanny: the worker is the process we hold, so killing it kills a worker (no restart by a nanny)
        self.workers = [
            self._start(
                "worker",
                self.address,
                "--nthreads",
                "1",
                "--no-nanny",
                "--host",
                "127.0.0.1",
                "--no-dashboard",
                "--name",
                f"w{i}",
            )
            for i in range(workers)
        ]
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=60)

    def _start(self, *args: str) -> subprocess.Popen:
        proc = subprocess.Popen(
            [str(DASK), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in reversed(self.procs):
            stop(proc)


@pytest.fixture
def cluster(tmp_path) -> Iterator[Cluster]:
    c = Cluster(tmp_path)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture(scope="module")
def small_reference(tmp_path_factory) -> tuple[Path, object]:
    """The small scenario run in-process on the local backend."""
    base = tmp_path_factory.mktemp("dask_small")
    path = base / "small.toml"
    path.write_text(SMALL)
    return path, rows(run_scenario(path, jobs=1, out=base / "local", progress=False))


@pytest.fixture(scope="module")
def kill_reference(tmp_path_factory) -> tuple[Path, object]:
    """The kill scenario run on the local backend: what every cluster run must reproduce."""
    base = tmp_path_factory.mktemp("dask_reference")
    path = base / "kill.toml"
    path.write_text(KILL_SCENARIO)
    # one process: any worker count gives the same rows (test_runner), and starting local workers costs seconds
    return path, rows(run_scenario(path, jobs=1, out=base / "local", progress=False))


def test_dask_cluster_gives_the_rows_of_the_local_backend(cluster, small_reference, tmp_path):
    path, expected = small_reference
    folder = run_scenario(path, backend="dask", address=cluster.address, out=tmp_path / "dask", progress=False)
    assert rows(folder).equals(expected)
    session = json.loads((folder / "manifest.json").read_text())["timings"]["sessions"][-1]
    assert session["backend"] == "dask" and session["address"] == cluster.address and session["workers"] == 2


def test_a_local_dask_cluster_without_an_address(small_reference, tmp_path):
    path, expected = small_reference
    folder = run_scenario(path, backend="dask", jobs=2, chunk_size=10, out=tmp_path / "dask", progress=False)
    assert rows(folder).equals(expected)


def test_a_worker_killed_mid_run_costs_no_game(cluster, kill_reference, tmp_path):
    path, expected = kill_reference
    out = tmp_path / "killed"
    proc = simlab("run", str(path), "--out", str(out), "--backend", "dask", "--address", cluster.address)
    try:
        wait_for_parts(out, proc, 4)
        victim = cluster.workers[0]
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        parts_at_kill = len(list((out / "parts").glob("*.parquet")))
        _, err = proc.communicate(timeout=300)
    finally:
        stop(proc)
    assert parts_at_kill < 100, "the worker died while the run had most of its chunks to go"
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert rows(out).equals(expected)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["games_done"] == 800 and manifest["games_failed"] == 0


def test_an_unreachable_scheduler_is_a_plain_error(write_scenario, tmp_path, monkeypatch):
    from simlab.run import backends
    from simlab.run.errors import BackendError

    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(BackendError, match=r"cannot reach the dask scheduler at tcp://127\.0\.0\.1:9 .*dask scheduler"):
        run_scenario(write_scenario(), backend="dask", address="tcp://127.0.0.1:9", out=tmp_path / "o", progress=False)
