"""The run lock holds: a refused run touches nothing it did not create, and a full disk cannot break the lock."""

from __future__ import annotations

import contextlib
import errno
import os

import pytest

from simlab.run.errors import ResultFolderError
from simlab.run.folder_writer import ResultFolder
from simlab.run.lock import LOCK, folder_lock

IDENTITY = {"scenario": "s", "game": "massilia", "seed": 1}


def test_a_run_refused_in_the_same_instant_leaves_the_other_runs_folder_and_lock(tmp_path, monkeypatch):
    """Two fresh runs on one --out: B looks first (no folder yet), A creates the folder and takes the lock,
    then B is refused. B must not unlink A's lock nor remove the folder A is running in."""
    out = tmp_path / "out"
    first_run = contextlib.ExitStack()
    real_check = ResultFolder._check_writable
    state = {"arrived": False}

    def a_arrives_meanwhile(self):
        real_check(self)
        if not state["arrived"]:  # B is between its mkdir and its lock: A starts now and takes the lock
            state["arrived"] = True
            first_run.enter_context(ResultFolder.open_for_run(out, IDENTITY, False))

    monkeypatch.setattr(ResultFolder, "_check_writable", a_arrives_meanwhile)
    with first_run:
        with pytest.raises(ResultFolderError, match="is in use"), ResultFolder.open_for_run(out, IDENTITY, False):
            pytest.fail("B took a lock A holds")
        assert state["arrived"]
        assert (out / "parts").is_dir(), "the refused run removed the folder another run works in"
        assert (out / LOCK).is_file(), "the refused run unlinked another run's lock"
        with pytest.raises(ResultFolderError, match="is in use"), folder_lock(out, "a third process"):
            pass  # A still holds the (same) lock file


def test_a_lock_file_unlinked_while_waiting_is_not_taken(tmp_path, monkeypatch):
    """A lock taken on a file that was unlinked (and maybe re-created) meanwhile would be a second lock: the
    holder must hold the file the path names."""
    import fcntl

    folder = tmp_path
    real_flock = fcntl.flock
    calls = {"n": 0}

    def unlink_first(fd, op):
        calls["n"] += 1
        if calls["n"] == 1:  # someone unlinks and re-creates the lock file between our open and our flock
            (folder / LOCK).unlink()
            (folder / LOCK).write_text("")
        return real_flock(fd, op)

    monkeypatch.setattr(fcntl, "flock", unlink_first)
    with folder_lock(folder, "a test"):
        held = os.stat(folder / LOCK).st_ino
        monkeypatch.setattr(fcntl, "flock", real_flock)
        with pytest.raises(ResultFolderError, match="is in use"), folder_lock(folder, "another"):
            pass
        assert os.stat(folder / LOCK).st_ino == held
    assert calls["n"] >= 2  # it tried again on the file the path names


def test_the_lock_holds_on_a_full_disk(tmp_path, monkeypatch):
    """compact on a full disk: the lock's pid note cannot be written; the lock still holds and no raw OSError."""
    real_pwrite = os.pwrite

    def full(fd, data, offset):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    with folder_lock(tmp_path, "simlab compact"):
        monkeypatch.setattr(os, "pwrite", real_pwrite)
        with pytest.raises(ResultFolderError, match="is in use: another process holds"), folder_lock(tmp_path, "2"):
            pass
