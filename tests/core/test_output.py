"""Files a user names (report --out, --chart): regular files only, through symlinks, atomically, clear errors."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from simlab.core import output
from simlab.core.output import OutputError, check_chart_path, write_output


def test_writes_a_new_file_and_its_folders(tmp_path):
    target = tmp_path / "a" / "b" / "r.html"
    assert write_output(target, b"hello", "--out") == target
    assert target.read_bytes() == b"hello"
    assert sorted(p.name for p in target.parent.iterdir()) == ["r.html"]  # no temporary file left


def test_replaces_a_regular_file(tmp_path):
    target = tmp_path / "r.html"
    target.write_text("old")
    write_output(target, b"new", "--out")
    assert target.read_bytes() == b"new"


def test_writes_through_a_symlink_to_its_target(tmp_path):
    real = tmp_path / "target.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real.name)
    assert write_output(link, b"new", "--out") == real
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.html"
    link.symlink_to("missing.html")
    write_output(link, b"x", "--out")
    assert link.is_symlink() and (tmp_path / "missing.html").read_bytes() == b"x"


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda p: p.mkdir(), "a directory"),
        (lambda p: os.mkfifo(p), "a FIFO"),
        (None, "a character device"),
    ],
)
def test_refuses_what_is_not_a_regular_file(tmp_path, make, kind):
    if make is None:
        target = Path("/dev/null")
    else:
        target = tmp_path / "out.html"
        make(target)
    with pytest.raises(OutputError, match=rf"--out {target} is {kind}.*only regular files"):
        write_output(target, b"x", "--out")
    if make is None:
        assert Path("/dev/null").is_char_device()


def test_refuses_a_symlink_to_a_device(tmp_path):
    link = tmp_path / "full.html"
    link.symlink_to("/dev/full")
    with pytest.raises(OutputError, match="character device"):
        write_output(link, b"x", "--out")
    assert link.is_symlink() and Path("/dev/full").is_char_device()


def test_dash_is_standard_output(capfdbinary):
    assert write_output("-", b"<html>", "--out") is None
    assert capfdbinary.readouterr().out == b"<html>"


def test_dash_is_refused_where_stdout_carries_text():
    with pytest.raises(OutputError, match="cannot go to standard output"):
        write_output("-", b"x", "--chart", allow_stdout=False)


def test_a_full_disk_leaves_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "r.html"
    target.write_text("old")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output.os, "fsync", full)
    with pytest.raises(OutputError, match=r"--out .*r.html: cannot write it \(No space left on device\); nothing"):
        write_output(target, b"new", "--out")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder anyway")
def test_a_read_only_folder_is_a_clear_error(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="Permission denied"):
            write_output(folder / "r.html", b"x", "--out")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


def test_a_read_only_folder_is_a_clear_error_as_any_user(tmp_path, monkeypatch):
    real_open = open

    def read_only(path, mode="r", *args, **kwargs):
        if "x" in mode or "w" in mode:
            raise PermissionError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", read_only)
    with pytest.raises(OutputError, match="Read-only file system"):
        write_output(tmp_path / "r.html", b"x", "--out")


@pytest.mark.parametrize("name", ["chart.txt", "chart"])
def test_chart_paths_need_a_known_extension(tmp_path, name):
    with pytest.raises(OutputError, match=r"expected a \.png, \.svg or \.pdf file"):
        check_chart_path(str(tmp_path / name))
    assert check_chart_path(str(tmp_path / "c.SVG")) == "svg"
