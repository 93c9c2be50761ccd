"""A missing, empty or damaged manifest does not strand intact parts: --resume and simlab repair rebuild it."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from conftest import SMALL, rows

from simlab.cli import cli
from simlab.run.errors import ResultFolderError
from simlab.run.reader import load_manifest
from simlab.run.runner import repair_folder, run_scenario

SMALL_20 = SMALL.replace("games = 60", "games = 20").replace("chunk_size = 25", "chunk_size = 10")


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    base = tmp_path_factory.mktemp("rebuild")
    path = base / "small.toml"
    path.write_text(SMALL_20)
    folder = run_scenario(path, jobs=1, out=base / "out", progress=False, compact=False)
    return path, folder, rows(folder), load_manifest(folder)


@pytest.fixture
def folder(original, tmp_path):
    copy = tmp_path / "results"
    shutil.copytree(original[1], copy)
    return copy


def _without(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


DAMAGE = {
    "missing": lambda m: m.unlink(),
    "empty": lambda m: m.write_text(""),
    "truncated": lambda m: m.write_text(m.read_text()[:100]),
    "a list": lambda m: m.write_text("[]"),
    "no identity": lambda m: m.write_text(json.dumps(_without(json.loads(m.read_text()), "identity"))),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_resume_rebuilds_a_damaged_manifest(original, folder, damage):
    path, _, clean, manifest = original
    (folder / "parts" / "quined2014__0000000010-0000000020.parquet").unlink()  # and a chunk is missing
    DAMAGE[damage](folder / "manifest.json")
    log = _Log()
    run_scenario(path, jobs=1, out=folder, resume=True, progress=False, stream=log)
    assert "notice: " in log.text and "rebuilding it from the part files" in log.text
    assert rows(folder).equals(clean)  # bit-identical, no game lost or repeated
    rebuilt = load_manifest(folder)
    assert rebuilt["status"] == "complete" and rebuilt["games_done"] == 40
    assert rebuilt["identity_hash"] == manifest["identity_hash"]


def test_without_resume_it_says_to_add_it(original, folder):
    (folder / "manifest.json").unlink()
    with pytest.raises(ResultFolderError, match=r"manifest.json is missing, but .* holds 4 part file\(s\) .*--resume"):
        run_scenario(original[0], jobs=1, out=folder, progress=False)


def test_parts_of_another_experiment_are_not_adopted(original, folder, tmp_path):
    (folder / "manifest.json").unlink()
    other = tmp_path / "other.toml"
    other.write_text(SMALL_20.replace("seed = 42", "seed = 7"))
    with pytest.raises(ResultFolderError, match="is not empty and holds no simlab results"):
        run_scenario(other, jobs=1, out=folder, resume=True, progress=False)


def test_wrong_typed_manifest_fields_are_rebuilt(original, folder):
    m = json.loads((folder / "manifest.json").read_text())
    m.update(games="abc", timings=[1, 2], compactions={"x": 1})
    (folder / "manifest.json").write_text(json.dumps(m))
    run_scenario(original[0], jobs=1, out=folder, resume=True, progress=False)
    rebuilt = load_manifest(folder)
    assert rebuilt["games"] == 20 and isinstance(rebuilt["timings"], dict) and rebuilt["compactions"] == []


def test_repair_rebuilds_without_playing(original, folder):
    path, _, clean, _ = original
    (folder / "manifest.json").unlink()
    (folder / "parts" / "rulebook__0000000010-0000000020.parquet").unlink()
    line = repair_folder(folder, path)
    assert "30 of 40 games (interrupted)" in line and "--resume" in line
    m = load_manifest(folder)
    assert m["games_done"] == 30 and m["status"] == "interrupted"
    assert len(list((folder / "parts").glob("*.parquet"))) == 3  # nothing played
    run_scenario(path, jobs=1, out=folder, resume=True, progress=False)
    assert rows(folder).equals(clean)


def test_repair_of_a_readable_manifest_uses_its_scenario_text(original, folder):
    m = json.loads((folder / "manifest.json").read_text())
    m["chunks"] = []  # a manifest that lost its chunk list
    m["games_done"] = 0
    (folder / "manifest.json").write_text(json.dumps(m))
    assert "40 of 40 games (complete)" in repair_folder(folder)
    assert len(load_manifest(folder)["chunks"]) == 4


def test_cli_repair(original, folder):
    runner = CliRunner()
    (folder / "manifest.json").write_text("")
    result = runner.invoke(cli, ["repair", str(folder)])
    assert result.exit_code == 2 and "manifest.json is empty: give the run's scenario file" in result.stderr
    result = runner.invoke(cli, ["repair", str(folder), "--scenario", str(original[0])])
    assert result.exit_code == 0, result.output
    assert "40 of 40 games (complete)" in result.stdout
    assert runner.invoke(cli, ["seats", str(folder)]).exit_code == 0


class _Log:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s

    def flush(self):
        pass


@pytest.mark.parametrize(
    "edit",
    [
        lambda m: m.update(variants={"a": 1}),
        lambda m: m.update(scenario=[1]),
        lambda m: m.update(games_done="abc"),
        lambda m: m["variants"][0].update(config=None),
        lambda m: m.pop("identity"),
    ],
)
def test_readers_name_a_damaged_manifest(original, folder, edit):
    m = json.loads((folder / "manifest.json").read_text())
    edit(m)
    (folder / "manifest.json").write_text(json.dumps(m))
    result = CliRunner().invoke(cli, ["report", str(folder), "--out", str(folder.parent / "r.html")])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and "is damaged" in result.stderr and "simlab repair" in result.stderr
    assert "Traceback" not in result.output and not (folder.parent / "r.html").exists()
    # the rows are intact: seats reads them (roles from the column names) and repair rebuilds the manifest
    assert CliRunner().invoke(cli, ["seats", str(folder)]).exit_code == 0
    assert "complete" in repair_folder(folder, original[0])
    assert CliRunner().invoke(cli, ["report", str(folder), "--out", str(folder.parent / "r.html")]).exit_code == 0


@pytest.mark.parametrize("damage", ["missing", "empty"])
def test_report_on_a_missing_or_empty_manifest_says_to_repair(folder, damage):
    if damage == "missing":
        (folder / "manifest.json").unlink()
    else:
        (folder / "manifest.json").write_text("")
    result = CliRunner().invoke(cli, ["report", str(folder), "--out", str(folder.parent / "r.html")])
    assert result.exit_code == 2, result.output
    assert f"is damaged ({damage}); rebuild it from the part files with: simlab repair" in result.stderr


def test_garbage_in_the_fields_only_reports_show_is_left_out(folder):
    m = json.loads((folder / "manifest.json").read_text())
    m.update(timings="zz", compactions={"a": 1})
    (folder / "manifest.json").write_text(json.dumps(m))
    result = CliRunner().invoke(cli, ["report", str(folder), "--out", str(folder.parent / "r.html")])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
