"""report --out and --chart write regular files only: devices, FIFOs and directories are refused with error: ..."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from simlab.cli import cli


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.mark.parametrize("target", ["/dev/full", "/dev/null", "dir", "fifo"])
def test_report_out_refuses_what_is_not_a_regular_file(runner, quick_folder, tmp_path, target):
    if target == "dir":
        target = str(tmp_path)
    elif target == "fifo":
        os.mkfifo(tmp_path / "r.html")
        target = str(tmp_path / "r.html")
    result = runner.invoke(cli, ["report", str(quick_folder), "--out", target])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: --out {target} is ") and "only regular files" in result.stderr
    assert "Traceback" not in result.output and "report of" not in result.stderr  # refused before building
    if target.startswith("/dev/"):
        assert Path(target).is_char_device()


def test_report_out_writes_through_a_symlink(runner, quick_folder, tmp_path):
    real = tmp_path / "target.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    result = runner.invoke(cli, ["report", str(quick_folder), "--out", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and real.read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "target.html"]


def test_report_out_dash_is_stdout(runner, quick_folder, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["report", str(quick_folder), "--out", "-"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("<!DOCTYPE html>") and result.stdout.rstrip().endswith("</html>")
    assert "report: written to standard output" in result.stderr
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("chart", ["x.txt", "full.png", "dir.png"])
def test_chart_refuses_a_bad_path_before_reading(runner, tmp_path, chart):
    if chart == "full.png":
        (tmp_path / chart).symlink_to("/dev/full")
        chart = str(tmp_path / chart)
    elif chart == "dir.png":
        (tmp_path / chart).mkdir()
        chart = str(tmp_path / chart)
    # the folder does not exist: the chart path is refused first
    result = runner.invoke(cli, ["seats", str(tmp_path / "no-folder"), "--chart", chart])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: --chart {chart}") and "Traceback" not in result.output


def test_chart_writes_through_a_symlink(runner, quick_folder, tmp_path):
    real = tmp_path / "real.svg"
    link = tmp_path / "seats.svg"
    link.symlink_to(real)
    result = runner.invoke(cli, ["seats", str(quick_folder), "--chart", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and real.read_text().lstrip().startswith("<?xml")
