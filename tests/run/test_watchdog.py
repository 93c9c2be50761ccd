"""After kill -9 of a run, its local workers (and loky's resource tracker) end within seconds, releasing the
run's stdout and stderr: a pipe reader of the run sees the end of its output instead of waiting minutes."""

from __future__ import annotations

import os
import signal
import time

from backends_support import KILL_SCENARIO, descendants, simlab, stop, wait_for_parts


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped) counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_workers_end_soon_after_the_run_is_killed(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text(KILL_SCENARIO)
    out = tmp_path / "killed"
    proc = simlab("run", str(path), "--out", str(out), "--jobs", "2", "--force-jobs")
    try:
        wait_for_parts(out, proc, 2)
        below = descendants(proc.pid)
        assert sum("loky" in args.lower() for args in below.values()) >= 2, below
        proc.send_signal(signal.SIGKILL)
        started = time.monotonic()
        proc.communicate(timeout=60)  # returns only once every holder of the run's stdout/stderr has exited
        waited = time.monotonic() - started
        # loky's idle workers would have lived five minutes (its idle timeout); a watchdog ends them in ~1 s, and
        # loky's resource tracker follows once the last of them is gone (it may take a moment on a busy machine)
        assert waited < 60
        deadline = time.monotonic() + 30
        while (left := [pid for pid in below if _alive(pid)]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, {pid: below[pid] for pid in left}
    finally:
        stop(proc)
