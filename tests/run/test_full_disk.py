"""A real full disk (a small tmpfs, mounted where the test may): run, compact and report stop with a clear error,
leave nothing half-written, and a resumed run after space is freed gives the rows of a clean run."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import rows

from simlab.cli import cli
from simlab.run.runner import run_scenario

SCENARIO = """\
game = "massilia"
players = 4
games = 24
seed = 5
chunk_size = 3
lineup = ["random", "random", "random", "trader"]

[variants.rulebook]
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"
"""


def _mount(point: Path, size: str) -> None:
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point)], check=True, capture_output=True)


def _resize(point: Path, size: str) -> None:
    subprocess.run(["mount", "-o", f"remount,size={size}", str(point)], check=True, capture_output=True)


@pytest.fixture
def small_disk(tmp_path):
    """A 200 kB tmpfs (skipped where this process may not mount one: it needs root and a kernel that lets it)."""
    point = tmp_path / "disk"
    point.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and mount(8); the full-disk paths are also covered by injected errors")
    try:
        _mount(point, "200k")
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"cannot mount a tmpfs here: {exc.stderr.decode(errors='replace').strip()}")
    yield point
    with contextlib.suppress(subprocess.CalledProcessError):
        subprocess.run(["umount", str(point)], check=True, capture_output=True)


def _no_temporaries(folder: Path) -> None:
    assert not [p for p in folder.rglob("*.tmp")], "a temporary file was left behind"


def test_a_run_on_a_full_disk_stops_clearly_and_resumes_to_the_clean_rows(small_disk, tmp_path):
    scenario = tmp_path / "full.toml"
    scenario.write_text(SCENARIO)
    out = small_disk / "out"
    result = CliRunner().invoke(cli, ["run", str(scenario), "--out", str(out), "-j", "1"])
    assert result.exit_code == 2, result.output
    assert "error: could not write" in result.stderr and "No space left on device" in result.stderr
    assert "Traceback" not in result.stderr
    _no_temporaries(out)
    _resize(small_disk, "20m")
    run_scenario(scenario, jobs=1, out=out, resume=True, progress=False)
    clean = run_scenario(scenario, jobs=1, out=tmp_path / "clean", progress=False)
    assert rows(out).equals(rows(clean))


def test_compact_and_report_on_a_full_disk_leave_the_folder_as_it_was(small_disk, tmp_path):
    scenario = tmp_path / "full.toml"
    scenario.write_text(SCENARIO)
    _resize(small_disk, "20m")
    out = run_scenario(scenario, jobs=1, out=small_disk / "out", progress=False, compact=False)
    before = rows(out)
    used = shutil.disk_usage(small_disk).used
    _resize(small_disk, f"{used // 1024 + 8}k")  # room for a lock file, not for a compacted copy
    result = CliRunner().invoke(cli, ["compact", str(out)])
    assert result.exit_code == 2, result.output
    assert "error:" in result.stderr and "No space left on device" in result.stderr
    _no_temporaries(out)
    assert rows(out).equals(before)
    report = small_disk / "report.html"
    result = CliRunner().invoke(cli, ["report", str(out), "--out", str(report)])
    assert result.exit_code == 2, result.output
    assert "error:" in result.stderr and "Traceback" not in result.stderr
    assert not report.exists()
    assert not list(small_disk.glob(".*.tmp")) and not list(small_disk.glob("*.tmp"))


def _strip_digests(folder: Path) -> None:
    """Parts as an older simlab wrote them (no analysis digest), so that ``simlab digest`` has files to rewrite."""
    import pyarrow.parquet as pq

    from simlab.run.folder_layout import DIGEST_KEY

    for path in sorted((folder / "parts").glob("*.parquet")):
        table = pq.read_table(path)
        meta = {k: v for k, v in (table.schema.metadata or {}).items() if k != DIGEST_KEY}
        pq.write_table(table.replace_schema_metadata(meta), path)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest.pop("files", None), manifest.pop("footers", None)  # nor content hashes (of the bytes rewritten here)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _refused(args: list[str], reason: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, (args, result.output)
    assert "error:" in result.stderr and reason in result.stderr, (args, result.stderr)
    assert "Traceback" not in result.stderr


def test_digest_on_a_full_disk_and_every_writer_on_a_read_only_folder_leave_it_as_it_was(small_disk, tmp_path):
    scenario = tmp_path / "full.toml"
    scenario.write_text(SCENARIO)
    _resize(small_disk, "20m")
    out = run_scenario(scenario, jobs=1, out=small_disk / "out", progress=False, compact=False)
    _strip_digests(out)
    before = rows(out)
    used = shutil.disk_usage(small_disk).used
    _resize(small_disk, f"{used // 1024 + 8}k")  # no room for a rewritten part
    _refused(["digest", str(out)], "No space left on device")
    _no_temporaries(out)
    assert rows(out).equals(before)

    _resize(small_disk, "20m")
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True, capture_output=True)
    try:
        _refused(["digest", str(out)], "Read-only file system")
        _refused(["compact", str(out)], "Read-only file system")
        _refused(["report", str(out), "--out", str(small_disk / "report.html")], "Read-only file system")
        _refused(["run", str(scenario), "--out", str(out), "--resume", "-j", "1"], "Read-only file system")
        _refused(["run", str(scenario), "--out", str(small_disk / "new"), "-j", "1"], "Read-only file system")
        assert rows(out).equals(before)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True, capture_output=True)
    _no_temporaries(out)
    assert not (small_disk / "new").exists() and not (small_disk / "report.html").exists()
