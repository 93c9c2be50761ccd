"""Interrupted runs resume to exactly the clean result; result folders refuse what they should."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from conftest import SMALL, rows

from simlab.run.errors import ResultFolderError
from simlab.run.runner import run_scenario

#: 2 variants x 600 games in chunks of 20: 60 parts, long enough to be stopped after 3, short enough to replay
KILL_GAMES, KILL_CHUNK = 600, 20
KILL_SCENARIO = (
    SMALL.replace("games = 60", f"games = {KILL_GAMES}")
    .replace("chunk_size = 25", f"chunk_size = {KILL_CHUNK}")
    .replace('["trader", "random", "random", "priest"]', '["random", "random", "random", "trader"]')
)


#: ``python -m simlab.cli`` as started from a terminal, where Ctrl-C raises KeyboardInterrupt. CI may start the
#: suite with SIGINT ignored or blocked. A child inherits both across exec: an ignored SIGINT makes Python install no
#: handler, and a blocked one stays pending and is never delivered, so in either case Ctrl-C would do nothing.
AT_A_TERMINAL = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
    "sys.argv[0] = 'simlab'; runpy.run_module('simlab.cli', run_name='__main__')"
)


def _simlab(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", AT_A_TERMINAL, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def _wait_for_parts(folder: Path, proc: subprocess.Popen, count: int, timeout: float = 600.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        parts = folder / "parts"
        n = len(list(parts.glob("*.parquet"))) if parts.is_dir() else 0
        if n >= count:
            return n
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be interrupted: {proc.communicate()}")
        time.sleep(0.005)
    proc.kill()
    pytest.fail("the run wrote no parts in time")


#: the uninterrupted run's rows by scenario text, shared by the fault tests; one process, as any worker count
#: gives the same rows (tests/run/test_runner.py::test_results_identical_for_any_jobs_and_chunk_size)
_CLEAN_ROWS: dict[str, pl.DataFrame] = {}


def _clean_run(path: Path, out: Path) -> pl.DataFrame:
    text = path.read_text()
    if text not in _CLEAN_ROWS:
        _CLEAN_ROWS[text] = rows(run_scenario(path, jobs=1, chunk_size=500, out=out, progress=False))
    return _CLEAN_ROWS[text]


def _loky_workers(pid: int) -> list[int]:
    ps = ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(pid)]
    listing = subprocess.run(ps, capture_output=True, text=True).stdout
    return [int(line.split()[0]) for line in listing.splitlines() if "LokyProcess" in line]


def _signal_dispositions(pid: int) -> str:
    """The kernel's blocked/ignored/caught masks of a process, so a Ctrl-C that did nothing can be explained."""
    try:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "unknown (no /proc)"
    return ", ".join(line for line in status if line.startswith(("SigBlk", "SigIgn", "SigCgt")))


@pytest.mark.parametrize("how", ["kill -9", "ctrl-c", "worker crash"])
def test_interrupted_run_resumes_to_the_clean_result(write_scenario, tmp_path, how):
    path = write_scenario(KILL_SCENARIO, name="long")
    out = tmp_path / "interrupted"
    proc = _simlab("run", str(path), "--out", str(out), "--jobs", "2" if how == "worker crash" else "1")
    n = _wait_for_parts(out, proc, 3)
    if how == "kill -9":
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    elif how == "worker crash":
        workers = _loky_workers(proc.pid)
        assert workers, "the run has loky workers"
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2, err
        assert "error: a worker process died" in err and "--resume" in err and "Traceback" not in err
    else:
        dispositions = _signal_dispositions(proc.pid)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, f"{err}\nthe run's signal masks when interrupted: {dispositions}"
        assert "interrupted" in err and "--resume" in err and "Traceback" not in err
        assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    parts = list((out / "parts").glob("*.parquet"))
    assert n <= len(parts) < 2 * KILL_GAMES // KILL_CHUNK, "the run was stopped part-way"

    again = _simlab("run", str(path), "--out", str(out), "--jobs", "1")
    _, err = again.communicate(timeout=60)
    assert again.returncode == 2 and "--resume" in err, "a non-empty folder of the same scenario needs --resume"

    resumed = _simlab("run", str(path), "--out", str(out), "--jobs", "2", "--resume")
    _, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert rows(out).equals(_clean_run(path, tmp_path / "clean"))
    assert not list(out.rglob("*.tmp")), "no temporary files are left"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["games_done"] == 2 * KILL_GAMES
    assert len(manifest["timings"]["sessions"]) == 2


def test_missing_chunks_are_replayed_exactly(reference_small, tmp_path):
    path, folder, expected = reference_small
    victims = sorted((folder / "parts").glob("*.parquet"))[1::2]
    for part in victims:
        part.unlink()
    (folder / "parts" / ".quined2014__0000000000-0000000025.parquet.999.tmp").write_bytes(b"half a file")
    run_scenario(path, jobs=1, chunk_size=10, out=folder, resume=True, progress=False)
    assert rows(folder).equals(expected)
    assert not list(folder.rglob("*.tmp"))


def test_resume_extends_a_run_to_more_games(write_scenario, tmp_path, reference_small):
    _, _, expected = reference_small
    path = write_scenario()
    out = tmp_path / "out"
    run_scenario(path, games=25, jobs=1, out=out, progress=False)
    assert rows(out).height == 2 * 25 * 4
    run_scenario(path, games=60, jobs=1, out=out, resume=True, progress=False)
    assert rows(out).equals(expected)


def test_resume_keeps_the_game_count_of_the_run(write_scenario, tmp_path):
    path = write_scenario()
    out = tmp_path / "out"
    run_scenario(path, games=10, jobs=1, out=out, progress=False)
    run_scenario(path, jobs=1, out=out, resume=True, progress=False)  # not the scenario's 60
    assert rows(out).height == 2 * 10 * 4


def test_resume_refuses_fewer_games_than_done(write_scenario, tmp_path):
    path = write_scenario()
    out = tmp_path / "out"
    run_scenario(path, games=20, jobs=1, out=out, progress=False)
    with pytest.raises(ResultFolderError, match="already holds games up to 20 of variant 'rulebook'"):
        run_scenario(path, games=10, jobs=1, out=out, resume=True, progress=False)


def test_resume_of_a_complete_run_does_nothing(reference_small, capsys):
    path, folder, _ = reference_small
    before = {p.name: p.stat().st_mtime_ns for p in (folder / "parts").iterdir()}
    run_scenario(path, jobs=1, out=folder, resume=True)
    assert "already done" in capsys.readouterr().err
    assert {p.name: p.stat().st_mtime_ns for p in (folder / "parts").iterdir()} == before


def test_resume_into_a_new_folder_just_runs(write_scenario, tmp_path):
    folder = run_scenario(write_scenario(), games=3, jobs=1, out=tmp_path / "new", resume=True, progress=False)
    assert rows(folder).height == 24


# -- refusals ---------------------------------------------------------------------------------------
def test_same_scenario_without_resume_is_refused(reference_small):
    path, folder, _ = reference_small
    message = r"already holds 120 games of scenario 'small' \(complete\); add --resume"
    with pytest.raises(ResultFolderError, match=message):
        run_scenario(path, jobs=1, out=folder, progress=False)


@pytest.mark.parametrize(
    ("change", "differs"),
    [
        (("seed = 42", "seed = 43"), "seed"),
        (('"priest"]', '"trader"]'), "bots"),
        (('preset = "quined2014"', 'preset = "quined2014"\nset = { rounds = 6 }'), "variants"),
        (("[variants.rulebook]", 'name = "other"\n[variants.rulebook]'), "scenario"),
    ],
)
def test_another_scenario_is_refused(reference_small, write_scenario, change, differs):
    _, folder, _ = reference_small
    path = write_scenario(SMALL.replace(*change), name="changed")
    for resume in (False, True):
        with pytest.raises(ResultFolderError, match=rf"holds results of another experiment.*differ in: .*{differs}"):
            run_scenario(path, jobs=1, out=folder, resume=resume, progress=False)


def test_output_folder_that_is_a_file(write_scenario, tmp_path):
    target = tmp_path / "results.txt"
    target.write_text("not a folder")
    with pytest.raises(ResultFolderError, match=r"results\.txt is a file; choose another --out"):
        run_scenario(write_scenario(), jobs=1, out=target, progress=False)
    with pytest.raises(ResultFolderError, match="cannot create output folder"):
        run_scenario(write_scenario(), jobs=1, out=target / "sub", progress=False)


def test_output_folder_that_cannot_be_created(write_scenario):
    with pytest.raises(ResultFolderError, match="cannot create output folder /sys/simlab-test"):
        run_scenario(write_scenario(), jobs=1, out="/sys/simlab-test", progress=False)


def test_output_folder_not_writable(write_scenario, tmp_path, monkeypatch):
    out = tmp_path / "locked"
    out.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: make the folder's write probe fail instead
        real = Path.write_bytes

        def refuse(self, data):
            if self.parent.parent == out:
                raise PermissionError(13, "Permission denied")
            return real(self, data)

        monkeypatch.setattr(Path, "write_bytes", refuse)
    else:
        out.chmod(0o500)
    message = r"(cannot write to|cannot create) output folder .*locked.*ermission denied"
    with pytest.raises(ResultFolderError, match=message):
        run_scenario(write_scenario(), jobs=1, out=out, progress=False)


def test_non_empty_folder_without_manifest(write_scenario, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes")
    with pytest.raises(ResultFolderError, match="is not empty and holds no simlab results"):
        run_scenario(write_scenario(), jobs=1, out=out, progress=False)


def test_unreadable_manifest(write_scenario, tmp_path):
    out = tmp_path / "broken"
    out.mkdir()
    (out / "manifest.json").write_text("{ not json")
    with pytest.raises(ResultFolderError, match=r"manifest\.json is unreadable"):
        run_scenario(write_scenario(), jobs=1, out=out, resume=True, progress=False)


@pytest.fixture
def reference_small(write_scenario, tmp_path):
    """A fresh complete run of the small scenario (tests change its folder)."""
    path = write_scenario()
    folder = run_scenario(path, jobs=1, out=tmp_path / "ref", progress=False)
    return path, folder, rows(folder)


def test_a_ctrl_c_inside_a_chunk_is_not_lost(write_scenario):
    """Native code may swallow a Ctrl-C that lands inside it (a numba dispatch turned one into a SystemError, polars
    lost one): ``play_chunk`` notes the signal and raises KeyboardInterrupt when the chunk ends."""
    from simlab.analysis import digest
    from simlab.run import runner
    from simlab.run.chunk import play_chunk
    from simlab.run.scenario import load_scenario

    task = runner._plan(load_scenario(write_scenario()), [], "identity", digest_hook=digest.TARGET)[0].seeded()
    real = digest.chunk_partials

    def swallowing(rows):
        with contextlib.suppress(BaseException):  # as the native code did with the KeyboardInterrupt
            os.kill(os.getpid(), signal.SIGINT)  # its handler runs at once, inside this block
            time.sleep(0.05)
        return real(rows)

    # as at a terminal (CI may start the suite with SIGINT ignored or blocked)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    digest.chunk_partials = swallowing
    try:
        with pytest.raises(KeyboardInterrupt):
            play_chunk(task)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
        digest.chunk_partials = real
        assert play_chunk(task).games == task.stop - task.start  # nothing left pending: the next chunk plays
    finally:
        digest.chunk_partials = real
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        signal.signal(signal.SIGINT, previous)
