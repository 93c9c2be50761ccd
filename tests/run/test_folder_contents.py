"""Only the run's own parts count: readers leave out stray, foreign, empty and renamed files, with a warning."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import SMALL, rows

from simlab.cli import cli
from simlab.run.errors import ResultFolderError
from simlab.run.folder_contents import ResultFolderWarning, folder_contents
from simlab.run.folder_layout import META_KEY
from simlab.run.reader import load_results
from simlab.run.runner import run_scenario

SMALL_20 = SMALL.replace("games = 60", "games = 20").replace("chunk_size = 25", "chunk_size = 10")


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    """A finished run of 2 variants x 20 games in 10-game parts, and a run of another scenario."""
    base = tmp_path_factory.mktemp("contents")
    path = base / "small.toml"
    path.write_text(SMALL_20)
    folder = run_scenario(path, jobs=1, out=base / "out", progress=False, compact=False)
    other = base / "other.toml"
    other.write_text(SMALL_20.replace("seed = 42", "seed = 43"))
    foreign = run_scenario(other, jobs=1, out=base / "foreign", progress=False, compact=False)
    return folder, rows(folder), foreign


@pytest.fixture
def folder(original, tmp_path):
    copy = tmp_path / "results"
    shutil.copytree(original[0], copy)
    return copy


def _first_part(folder: Path) -> Path:
    return sorted((folder / "parts").glob("rulebook__*.parquet"))[0]


def _games_per_variant(folder: Path) -> dict[str, int]:
    df = load_results(folder).select("variant", "game").unique().collect()
    return dict(df.group_by("variant").len().sort("variant").iter_rows())


def _assert_left_out(folder: Path, name: str, reason: str, original_rows) -> None:
    with pytest.warns(ResultFolderWarning, match=rf"{re.escape(name)}.*left out of the results: .*{re.escape(reason)}"):
        contents = folder_contents(folder)
    assert [s.path.name for s in contents.skipped] == [Path(name).name]
    assert rows(folder).equals(original_rows)  # no game lost or double-counted


@pytest.mark.parametrize("name", ["junk.parquet", "rulebook__0000000000-0000000010 (copy).parquet"])
def test_a_copy_under_another_name_is_left_out(folder, original, name):
    shutil.copy(_first_part(folder), folder / "parts" / name)
    _assert_left_out(folder, name, "no simlab part file name", original[1])
    assert _games_per_variant(folder) == {"quined2014": 20, "rulebook": 20}


def test_an_empty_part_is_left_out(folder, original):
    part = _first_part(folder)
    part.write_bytes(b"")
    with pytest.warns(ResultFolderWarning, match=r"empty \(0 bytes\)"):
        got = rows(folder)
    assert got.equals(original[1].filter(~((original[1]["variant"] == "rulebook") & (original[1]["game"] < 10))))


def test_a_truncated_part_is_left_out_and_named(folder):
    part = _first_part(folder)
    part.write_bytes(part.read_bytes()[:-100])
    with pytest.warns(ResultFolderWarning, match=rf"{part.name}.*unreadable"):
        assert load_results(folder).select("variant", "game").unique().collect().height == 30


def test_a_part_of_another_scenario_is_left_out(folder, original):
    foreign = sorted((original[2] / "parts").glob("rulebook__*.parquet"))[0]
    (folder / "parts" / foreign.name).unlink()
    shutil.copy(foreign, folder / "parts" / foreign.name)
    with pytest.warns(ResultFolderWarning, match=rf"{foreign.name}.*another experiment"):
        assert load_results(folder).select("variant", "game").unique().collect().height == 30


def test_a_part_of_an_unknown_variant_is_left_out(folder, original):
    shutil.copy(_first_part(folder), folder / "parts" / "rulebook2__0000000000-0000000010.parquet")
    _assert_left_out(folder, "rulebook2__0000000000-0000000010.parquet", "variant 'rulebook2' is not one", original[1])


def test_a_renamed_part_is_left_out(folder, original):
    shutil.copy(_first_part(folder), folder / "parts" / "rulebook__0000000020-0000000030.parquet")
    _assert_left_out(folder, "rulebook__0000000020-0000000030.parquet", "name says games 20-30", original[1])


def test_a_directory_or_fifo_named_like_a_part_is_left_out(folder, original):
    (folder / "parts" / "x.parquet").mkdir()
    os.mkfifo(folder / "parts" / "rulebook__0000000030-0000000040.parquet")
    with pytest.warns(ResultFolderWarning, match="not a regular file"):
        contents = folder_contents(folder)
    assert len(contents.skipped) == 2
    assert rows(folder).equals(original[1])


def test_overlapping_parts_are_an_error(folder):
    part = _first_part(folder)
    table = pq.read_table(part)
    record = json.loads(table.schema.metadata[META_KEY]) | {"start": 5, "stop": 15, "file": "x"}
    pq.write_table(
        table.replace_schema_metadata({META_KEY: json.dumps(record).encode()}),
        folder / "parts" / "rulebook__0000000005-0000000015.parquet",
    )
    with pytest.raises(ResultFolderError, match="overlap"):
        load_results(folder)


def test_seats_and_report_name_the_stray_file(folder, tmp_path):
    shutil.copy(_first_part(folder), folder / "parts" / "junk.parquet")
    runner = CliRunner()
    seats = runner.invoke(cli, ["seats", str(folder)])
    assert seats.exit_code == 0, seats.output
    assert "warning: " in seats.stderr and "junk.parquet is left out of the results" in seats.stderr
    assert "Traceback" not in seats.output
    out = tmp_path / "r.html"
    report = runner.invoke(cli, ["report", str(folder), "--out", str(out)])
    assert report.exit_code == 0, report.output
    html = out.read_text()
    flags = html[html.index('<section id="flags">') :]
    assert "parts/junk.parquet is left out of every figure" in flags


def test_compact_leaves_a_stray_file_alone(folder, original):
    from simlab.run.compact import compact

    shutil.copy(_first_part(folder), folder / "parts" / "junk.parquet")
    with pytest.warns(ResultFolderWarning, match="junk.parquet"):
        summary = compact(folder, games_per_file=1000)
    assert summary.written == 2
    assert (folder / "parts" / "junk.parquet").exists()
    with pytest.warns(ResultFolderWarning):
        assert rows(folder).equals(original[1])


def test_a_clean_folder_warns_nothing(folder, original, recwarn):
    assert rows(folder).equals(original[1])
    assert not [w for w in recwarn if issubclass(w.category, ResultFolderWarning)]
