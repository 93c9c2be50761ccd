"""Helpers of the cluster-backend tests: subprocesses, their descendants, and waiting for part files."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: a run long enough to kill a worker in the middle (random bots play fast), short enough for CI
KILL_SCENARIO = """\
game = "massilia"
players = 4
games = 400
seed = 77
chunk_size = 8
lineup = ["random", "random", "random", "trader"]

[variants.rulebook]
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"
"""


def simlab(*args: str) -> subprocess.Popen:
    """``simlab ARGS`` in a subprocess (its own session, so it can be stopped with everything it started)."""
    return subprocess.Popen(
        [sys.executable, "-m", "simlab.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def descendants(pid: int) -> dict[int, str]:
    """pid -> command line of every process below ``pid``."""
    listing = subprocess.run(["ps", "-eww", "-o", "pid=,ppid=,args="], capture_output=True, text=True).stdout
    children: dict[int, list[tuple[int, str]]] = {}
    for line in listing.splitlines():
        parts = line.split(None, 2)
        if len(parts) >= 2:
            children.setdefault(int(parts[1]), []).append((int(parts[0]), parts[2] if len(parts) > 2 else ""))
    out: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child, args in children.get(todo.pop(), []):
            out[child] = args
            todo.append(child)
    return out


def wait_for_parts(folder: Path, proc: subprocess.Popen, count: int, timeout: float = 300.0) -> int:
    """Wait until ``folder`` holds ``count`` part files; fails if ``proc`` ends first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        parts = folder / "parts"
        n = len(list(parts.glob("*.parquet"))) if parts.is_dir() else 0
        if n >= count:
            return n
        if proc.poll() is not None:
            pytest.fail(f"the run ended before a worker could be killed: {proc.communicate()}")
        time.sleep(0.01)
    pytest.fail(f"the run wrote no {count} parts in {timeout:.0f} s")


def stop(proc: subprocess.Popen) -> None:
    """End a subprocess we started and everything it started (by process group: its own session)."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
