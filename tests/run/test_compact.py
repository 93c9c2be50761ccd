"""Compaction: merged part files give the same rows and chunk records, survive a kill, and resume extends them."""

from __future__ import annotations

import fcntl
import io
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import SMALL, rows

from simlab.cli import cli
from simlab.run import compact_results
from simlab.run.compact import compact
from simlab.run.errors import ResultFolderError
from simlab.run.folder_layout import CHUNKS_KEY, COMPACTED_FILE, FILE_KEY, META_KEY
from simlab.run.folder_writer import ResultFolder
from simlab.run.integrity import file_sha256
from simlab.run.lock import LOCK, folder_lock
from simlab.run.reader import load_results
from simlab.run.runner import run_scenario

CHUNKED = SMALL.replace("chunk_size = 25", "chunk_size = 10")  # 60 games: 6 parts per variant, 12 in all


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    """The small scenario in chunks of 10 games (12 parts), never compacted: tests work on copies of it."""
    base = tmp_path_factory.mktemp("compact")
    path = base / "small.toml"
    path.write_text(CHUNKED)
    folder = run_scenario(path, jobs=1, out=base / "out", progress=False, compact=False)
    return path, folder, rows(folder), load_results(folder).collect(), _records(folder)


@pytest.fixture
def folder(original, tmp_path):
    copy = tmp_path / "results"
    shutil.copytree(original[1], copy)
    return copy


def _records(folder: Path) -> list[dict]:
    digest = json.loads((folder / "manifest.json").read_text())["identity_hash"]
    return ResultFolder(folder).scan_parts(digest)


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / "parts").iterdir())


def _no_file(records: list[dict]) -> list[dict]:
    """Chunk records without ``file`` (which names the file holding the chunk, so compaction changes it)."""
    return [{k: v for k, v in r.items() if k != "file"} for r in records]


def _check_chunk_files(folder: Path) -> None:
    """Every chunk the manifest and the scan list is named with the file that exists and holds its games."""
    manifest = json.loads((folder / "manifest.json").read_text())

    def where(chunks: list[dict]) -> list[tuple]:
        return sorted((c["variant"], c["start"], c["stop"], c["file"]) for c in chunks)

    assert manifest["chunks"] and where(manifest["chunks"]) == where(_records(folder))
    for chunk in [*manifest["chunks"], *_records(folder)]:
        games = (
            pl.scan_parquet(folder / "parts" / chunk["file"])
            .filter(pl.col("variant") == chunk["variant"])
            .select("game")
            .unique()
            .collect()
        )
        assert set(range(chunk["start"], chunk["stop"])) <= set(games["game"]), chunk


def _state(folder: Path) -> dict[str, int]:
    """Every file of the folder (but the lock file) with its modification time: to see that nothing changed."""
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.name != LOCK}


def test_compaction_keeps_rows_schema_and_chunk_records(original, folder):
    _, _, before_sorted, before, records = original
    schema_before = pq.read_schema(next((folder / "parts").glob("*.parquet"))).remove_metadata()
    summary = compact(folder, games_per_file=1000)
    assert _files(folder) == ["quined2014__0000000000-0000000060.parquet", "rulebook__0000000000-0000000060.parquet"]
    assert (summary.files_before, summary.files_after, summary.merged, summary.written) == (12, 2, 12, 2)
    assert rows(folder).equals(before_sorted)
    assert load_results(folder).collect().equals(before)  # same order too: the parts concatenated
    assert _no_file(_records(folder)) == _no_file(records)
    _check_chunk_files(folder)
    for path in (folder / "parts").glob("*.parquet"):
        meta = pq.ParquetFile(path)
        assert meta.schema_arrow.remove_metadata().equals(schema_before)
        assert meta.schema_arrow.names == schema_before.names
        assert meta.metadata.row_group(0).column(0).compression == "ZSTD"
        kv = meta.schema_arrow.metadata
        assert kv[FILE_KEY] == COMPACTED_FILE and META_KEY not in kv
        assert [r["start"] for r in json.loads(kv[CHUNKS_KEY])] == [0, 10, 20, 30, 40, 50]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert [(c["files_before"], c["files_after"]) for c in manifest["compactions"]] == [(12, 2)]
    assert compact_results is compact


def test_games_per_file_and_compacting_again(original, folder):
    compact(folder, games_per_file=25)  # two parts of 10 games per file
    assert _files(folder) == [
        f"{v}__{a:010d}-{a + 20:010d}.parquet" for v in ("quined2014", "rulebook") for a in (0, 20, 40)
    ]
    assert rows(folder).equals(original[2])
    again = compact(folder, games_per_file=60)  # the 20-game files are under half of 60: merged again
    assert again.written == 2 and _files(folder)[0] == "quined2014__0000000000-0000000060.parquet"
    assert rows(folder).equals(original[2])
    assert _no_file(_records(folder)) == _no_file(original[4])
    _check_chunk_files(folder)
    assert (
        compact(folder, games_per_file=60)
        .line()
        .endswith("no run of consecutive parts to merge into files of up to 60 games)")
    )
    assert len(json.loads((folder / "manifest.json").read_text())["compactions"]) == 2


def test_resume_after_compaction_extends_the_run(original, folder, tmp_path):
    path = original[0]
    compact(folder)
    run_scenario(path, jobs=1, out=folder, games=85, resume=True, progress=False, compact=False)
    files = _files(folder)
    assert "rulebook__0000000000-0000000060.parquet" in files
    assert "rulebook__0000000060-0000000070.parquet" in files and "rulebook__0000000080-0000000085.parquet" in files
    clean = run_scenario(path, jobs=1, out=tmp_path / "clean", games=85, progress=False, compact=False)
    assert rows(folder).equals(rows(clean))
    ranges = [(c["variant"], c["start"], c["stop"], c["games"]) for c in _records(folder)]
    assert ranges == [(c["variant"], c["start"], c["stop"], c["games"]) for c in _records(clean)]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["games_done"] == 170
    assert len(manifest["compactions"]) == 1  # carried over by the resumed run
    _check_chunk_files(folder)  # the resumed run's manifest names the compacted files and its new parts
    compact(folder, games_per_file=1000)  # the compacted files and the new parts merge into one per variant
    assert len(_files(folder)) == 2 and rows(folder).equals(rows(clean))
    _check_chunk_files(folder)
    run_scenario(path, jobs=1, out=folder, resume=True, progress=False, compact=False)  # nothing left to play
    assert rows(folder).equals(rows(clean)) and len(_files(folder)) == 2
    _check_chunk_files(folder)


def _kill_between_write_and_delete(folder: Path, saved: Path) -> list[str]:
    """The state a compaction killed after renaming its merged file, before deleting the parts, leaves.

    ``saved`` holds the parts before compaction.
    """
    compact(folder, games_per_file=1000)
    left = sorted(saved.glob("rulebook__*.parquet"))[2:]  # some of one variant's parts were already deleted
    for p in left + sorted(saved.glob("quined2014__*.parquet")):
        shutil.copy2(p, folder / "parts" / p.name)
    return [p.name for p in left]


def test_killed_compaction_leftovers_are_ignored_then_deleted(original, folder):
    _kill_between_write_and_delete(folder, original[1] / "parts")
    assert len(_files(folder)) == 2 + 4 + 6
    assert rows(folder).equals(original[2])  # readers leave the leftovers out
    assert load_results(folder).collect().equals(original[3])
    assert _no_file(_records(folder)) == _no_file(original[4])  # no overlap error; the scan deletes the leftovers
    assert len(_files(folder)) == 2


def test_compact_and_resume_after_a_killed_compaction(original, folder):
    saved = original[1] / "parts"
    _kill_between_write_and_delete(folder, saved)
    summary = compact(folder)
    assert summary.leftovers == 10 and summary.written == 0 and len(_files(folder)) == 2
    _kill_between_write_and_delete(folder, saved)
    run_scenario(original[0], jobs=1, out=folder, resume=True, progress=False)
    assert len(_files(folder)) == 2 and rows(folder).equals(original[2])
    _check_chunk_files(folder)


def test_compaction_fixes_a_manifest_naming_parts_that_are_gone(original, folder):
    """A manifest written before compaction named chunk files: compacting (even with nothing to merge) fixes it."""
    manifest_before = json.loads((folder / "manifest.json").read_text())
    compact(folder, games_per_file=1000)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert {c["file"] for c in manifest["chunks"]} == set(_files(folder))
    assert [c | {"file": None} for c in manifest["chunks"]] == [c | {"file": None} for c in manifest_before["chunks"]]
    assert {k: v for k, v in manifest.items() if k not in ("chunks", "compactions", "files", "footers")} == {
        k: v for k, v in manifest_before.items() if k not in ("chunks", "compactions", "files", "footers")
    }
    assert manifest["files"] == {name: file_sha256(folder / "parts" / name) for name in _files(folder)}
    stale = manifest_before | {"compactions": manifest["compactions"]}
    (folder / "manifest.json").write_text(json.dumps(stale))
    assert compact(folder, games_per_file=1000).written == 0
    assert json.loads((folder / "manifest.json").read_text()) == manifest
    _check_chunk_files(folder)


HOLD_THE_LOCK = (
    "import sys; from simlab.run.lock import folder_lock\n"
    "with folder_lock(sys.argv[1], 'simlab compact'):\n"
    "    print('locked', flush=True); sys.stdin.read()"
)


def test_a_compaction_is_refused_while_another_process_holds_the_lock(original, folder):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_LOCK, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "locked\n"
        before = _state(folder)
        with pytest.raises(ResultFolderError, match=rf"is in use: pid {holder.pid} \(simlab compact\) holds its lock"):
            compact(folder, games_per_file=1000)
        result = CliRunner().invoke(cli, ["compact", str(folder)])
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and "wait until" in result.stderr
        assert "Traceback" not in result.output
        with pytest.raises(ResultFolderError, match=rf"pid {holder.pid} \(simlab compact\).*simlab run cannot"):
            run_scenario(original[0], jobs=1, out=folder, games=70, resume=True, progress=False, compact=False)
        assert _state(folder) == before and len(_files(folder)) == 12  # nothing merged, deleted or played
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # a killed holder leaves no stale lock
        holder.wait()
    assert compact(folder, games_per_file=1000).written == 2
    assert rows(folder).equals(original[2])
    assert (folder / LOCK).read_text() == ""  # released: names no holder


def test_the_lock_is_exclusive_within_a_process_too_and_released_on_errors(original, folder, monkeypatch):
    import simlab.run.compact as compact_module

    with folder_lock(folder, "a test"):
        assert (folder / LOCK).read_text() == f"pid {os.getpid()} (a test)\n"
        with pytest.raises(ResultFolderError, match="in use"):
            compact(folder)

    def full_disk(*args, **kwargs):
        raise OSError("no space left")

    monkeypatch.setattr(compact_module, "merge", full_disk)
    with pytest.raises(OSError, match="no space left"):
        compact(folder)
    monkeypatch.undo()
    assert compact(folder, games_per_file=1000).written == 2  # the failed compaction released the lock
    assert rows(folder).equals(original[2])


def test_a_part_that_is_not_in_the_merged_file_still_overlaps(folder):
    saved = folder.parent / "saved-parts"
    shutil.copytree(folder / "parts", saved)
    compact(folder, games_per_file=1000)
    stray = sorted(saved.glob("rulebook__*.parquet"))[0]
    table = pq.read_table(stray)
    record = json.loads(table.schema.metadata[META_KEY]) | {"seconds": 123.0}  # another run's part
    pq.write_table(
        table.replace_schema_metadata({META_KEY: json.dumps(record).encode()}), folder / "parts" / stray.name
    )
    with pytest.raises(ResultFolderError, match="overlap"):
        _records(folder)
    assert stray.name in _files(folder)  # not deleted


def test_compaction_temporary_files_of_dead_processes_are_removed(folder):
    stale = folder / "parts" / ".rulebook__0000000000-0000000060.parquet.999999999.tmp"
    stale.write_bytes(b"half a file")
    compact(folder)
    assert not stale.exists()


def test_cli_compact(folder, tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["compact", str(folder), "--games-per-file", "30"])
    assert result.exit_code == 0, result.output
    assert "compacted 12 files into 4 (12 parts merged into 4 files of up to 30 games" in result.stdout
    result = runner.invoke(cli, ["compact", str(folder), "-n", "30"])
    assert result.exit_code == 0 and "nothing to compact" in result.stdout
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("not results")
    for where, pattern in ((tmp_path / "other", "holds no simlab results"), (tmp_path / "none", "no result folder")):
        result = runner.invoke(cli, ["compact", str(where)])
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and pattern in result.stderr
        assert "Traceback" not in result.output
    result = runner.invoke(cli, ["compact", str(folder), "--games-per-file", "0"])
    assert result.exit_code == 2


def test_a_complete_run_compacts_itself_above_the_threshold(original, tmp_path):
    path = original[0]
    log = io.StringIO()
    out = run_scenario(path, jobs=1, out=tmp_path / "auto", stream=log, compact_threshold=5)
    assert len(_files(out)) == 2 and rows(out).equals(original[2])
    assert "compacted 12 files into 2" in log.getvalue()
    manifest = json.loads((out / "manifest.json").read_text())
    assert [(c["files_before"], c["files_after"]) for c in manifest["compactions"]] == [(12, 2)]
    assert manifest["status"] == "complete"
    _check_chunk_files(out)  # the run's own compaction (same process) took the lock and fixed the manifest

    below = run_scenario(path, jobs=1, out=tmp_path / "below", progress=False, compact_threshold=12)
    off = run_scenario(path, jobs=1, out=tmp_path / "off", progress=False, compact_threshold=5, compact=False)
    for folder in (below, off):
        assert len(_files(folder)) == 12
        assert (
            "compactions" not in json.loads((folder / "manifest.json").read_text())
            or not json.loads((folder / "manifest.json").read_text())["compactions"]
        )


def test_simlab_run_no_compact(original, tmp_path, monkeypatch):
    import simlab.run.compact as compact_module

    monkeypatch.setattr(compact_module, "AUTO_THRESHOLD", 5)
    runner = CliRunner()
    for flag, files in (("--no-compact", 12), (None, 2)):
        out = tmp_path / f"run{files}"
        args = ["run", str(original[0]), "--out", str(out), "--jobs", "1", *([flag] if flag else [])]
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert len(_files(out)) == files
        assert ("compacted 12 files into 2" in result.stderr) == (flag is None)
    quiet = runner.invoke(cli, ["run", str(original[0]), "--out", str(tmp_path / "quiet"), "--jobs", "1", "-q"])
    assert quiet.exit_code == 0 and quiet.stdout.strip() == str(tmp_path / "quiet") and not quiet.stderr
    assert len(_files(tmp_path / "quiet")) == 2
    assert pl.scan_parquet(tmp_path / "quiet" / "parts" / "*.parquet").select(pl.len()).collect().item() == 480


def test_a_failed_auto_compaction_leaves_the_complete_run(original, tmp_path, monkeypatch):
    import simlab.run.compact as compact_module
    from simlab.run.errors import ResultWriteError

    def full_disk(*args, **kwargs):
        raise ResultWriteError("could not write x: No space left on device; nothing half-written was kept")

    monkeypatch.setattr(compact_module, "compact", full_disk)
    log = io.StringIO()
    out = run_scenario(original[0], jobs=1, out=tmp_path / "full", stream=log, compact_threshold=5)
    assert "warning: the part files were not compacted" in log.getvalue() and "simlab compact" in log.getvalue()
    assert len(_files(out)) == 12 and rows(out).equals(original[2])


LONG_RUN = SMALL.replace("games = 60", "games = 1500").replace("chunk_size = 25", "chunk_size = 20")


def test_a_running_run_holds_the_lock(write_scenario, tmp_path):
    """A compaction (or a second run) during a run is refused: the run writes parts and the manifest."""
    path, out = write_scenario(LONG_RUN, name="long"), tmp_path / "running"
    run = subprocess.Popen(
        [sys.executable, "-m", "simlab.cli", "run", str(path), "--out", str(out), "-j", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while not (out / "parts").is_dir() or not list((out / "parts").glob("*.parquet")):
            assert run.poll() is None, run.communicate()
        with pytest.raises(ResultFolderError, match=rf"pid {run.pid} \(simlab run\) holds its lock"):
            compact(out)
        with pytest.raises(ResultFolderError, match=rf"pid {run.pid} \(simlab run\).*simlab run cannot"):
            run_scenario(path, jobs=1, out=out, resume=True, progress=False)
        assert run.poll() is None, "the run was still going when it refused them"
    finally:
        run.kill()
        run.communicate()
    assert (out / LOCK).exists() and run_scenario(path, games=40, jobs=1, out=out, resume=True, progress=False)
    assert (out / LOCK).read_text() == ""  # the killed run left no lock behind; the resumed run released its own


def test_a_folder_left_with_only_a_lock_file_takes_a_new_run(write_scenario, tmp_path):
    out = tmp_path / "fresh"
    out.mkdir()
    (out / LOCK).write_text("")  # a run killed right after taking the lock, before its first write
    run_scenario(write_scenario(), games=5, jobs=1, out=out, progress=False)
    assert rows(out).height == 2 * 5 * 4


def test_a_run_reads_the_manifest_and_deletes_temporaries_only_while_it_holds_the_lock(original, folder, monkeypatch):
    """A compaction that starts between a run's checks and its lock keeps its temporary file and manifest."""
    held: list[tuple[str, bool]] = []
    from simlab.run import folder_contents, folder_writer, reader
    from simlab.run import manifest as manifest_module

    real_remove, real_read = ResultFolder.remove_temporaries, manifest_module.read_manifest

    def lock_is_held() -> bool:
        fd = os.open(folder / LOCK, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)

    def remove(self, only_dead=False):
        held.append(("remove temporaries", lock_is_held()))
        return real_remove(self, only_dead)

    def read(path):
        if Path(path) == folder:
            held.append(("read manifest", lock_is_held()))
        return real_read(path)

    monkeypatch.setattr(ResultFolder, "remove_temporaries", remove)
    for module in (manifest_module, folder_writer, folder_contents, reader):  # every reader of the manifest a run calls
        monkeypatch.setattr(module, "read_manifest", read)
    run_scenario(original[0], jobs=1, out=folder, games=70, resume=True, progress=False, compact=False)
    removals = [i for i, (what, _) in enumerate(held) if what == "remove temporaries"]
    assert removals and all(held[i][1] for i in removals), held
    last_read = max(i for i, (what, _) in enumerate(held) if what == "read manifest" and i < removals[0])
    assert held[last_read][1], f"the manifest the run keeps was read without the lock: {held}"
