"""Readers check what they read: a missing or edited part, a forged digest, an edited manifest or failures log,
a part beyond the run's game count and a compaction in the middle of a read are named, never silently counted."""

from __future__ import annotations

import json
import shutil
import warnings

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import rows

from simlab.analysis.digest import load_digest
from simlab.cli import cli
from simlab.run import folder_contents as contents_module
from simlab.run.compact import compact
from simlab.run.errors import ResultFolderError
from simlab.run.folder_contents import ResultFolderWarning, folder_contents
from simlab.run.folder_layout import DIGEST_KEY
from simlab.run.reader import load_manifest, load_results
from simlab.run.runner import run_scenario
from simlab.run.verify import verify_folder


def _part(folder, k=0):
    return sorted((folder / "parts").glob("*.parquet"))[k]


def _messages(fn) -> list[str]:
    """The ResultFolderWarnings ``fn`` gives, reading the folder afresh (as a new command does)."""
    contents_module._CONTENTS.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if issubclass(w.category, ResultFolderWarning)]


def test_a_removed_part_is_missing_for_verify_and_every_reader(folder):
    gone = _part(folder, 1)
    gone.unlink()
    result = verify_folder(folder)
    assert not result.ok and result.missing and gone.name in result.missing[0]
    v = CliRunner().invoke(cli, ["verify", str(folder)])
    assert v.exit_code == 2 and "10 game(s) the manifest lists are missing" in v.output
    said = _messages(lambda: load_results(folder).collect())
    assert any("missing" in m and gone.name in m for m in said)
    contents_module._CONTENTS.clear()  # a new command reads the folder afresh
    s = CliRunner().invoke(cli, ["seats", str(folder)])
    assert s.exit_code == 0 and "missing" in s.output  # the warning, on stderr (mixed in by CliRunner)


def _edit_variant_statistics(path) -> None:
    """Make the footer's min/max statistics of the 'variant' column say 'rulebooz' (the rows still say
    'rulebook'): a reader that trusts them skips the row group for variant == 'rulebook'."""
    data = bytearray(path.read_bytes())
    length = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - length
    footer = bytes(data[start:-8]).replace(b"\x08rulebook", b"\x08rulebooz")
    assert footer != bytes(data[start:-8])
    data[start:-8] = footer
    path.write_bytes(bytes(data))


def test_edited_footer_statistics_hide_no_rows_and_are_named(folder, original):
    _edit_variant_statistics(_part(folder, 2))  # rulebook__0-10
    said = _messages(lambda: None)
    n = _messages(lambda: said.append(load_results(folder).filter(pl.col("variant") == "rulebook").collect().height))
    assert said == [80]  # 20 games x 4 seats: none hidden by the edited statistics
    assert any("footer" in m and _part(folder, 2).name in m for m in n)
    assert _part(folder, 2).name in folder_contents(folder).suspect
    assert not verify_folder(folder).ok


def test_a_forged_digest_is_not_used_and_digest_keeps_verify_passing(folder, tmp_path):
    from simlab.experiments.backfill import add_digests

    add_digests(folder)  # parts of this fixture have no digest: give them one (the manifest follows)
    assert verify_folder(folder).ok, verify_folder(folder).lines()
    assert load_digest(folder) is not None
    target, donor = _part(folder, 2), _part(folder, 0)  # forge: rulebook's part carries quined2014's digest
    table = pq.read_table(target)
    meta = dict(table.schema.metadata) | {DIGEST_KEY: pq.read_schema(donor).metadata[DIGEST_KEY]}
    pq.write_table(table.replace_schema_metadata(meta), target, compression="zstd", write_page_checksum=True)
    assert load_digest(folder) is None  # the report scans the rows instead
    assert not verify_folder(folder).ok


def test_a_part_beyond_the_runs_game_count_is_not_counted(original, folder, tmp_path):
    longer = run_scenario(original[0], games=30, jobs=1, out=tmp_path / "longer", progress=False, compact=False)
    beyond = sorted((longer / "parts").glob("rulebook__0000000020-*.parquet"))[0]
    shutil.copy(beyond, folder / "parts" / beyond.name)
    said = _messages(lambda: None)
    n = _messages(lambda: said.append(load_results(folder).collect().height))
    assert said == [2 * 20 * 4]
    assert any("beyond the run's 20 games" in m for m in n)
    assert load_manifest(folder)["games_done"] == 40


def test_edited_manifest_counts_and_a_forged_failures_log_are_named_and_not_shown(folder):
    m = json.loads((folder / "manifest.json").read_text())
    m["games_done"] = 44
    m["variants"][0]["games_done"] = 24
    m["bots"] = ["trader", "trader", "trader", "trader"]
    (folder / "manifest.json").write_text(json.dumps(m))
    (folder / "failures.jsonl").write_text(json.dumps({"game": 3, "variant": "rulebook", "error": "forged"}) + "\n")
    facts = folder_contents(folder).facts
    assert any("games_done" in f and "24" in f for f in facts)
    assert any("failures.jsonl" in f for f in facts)
    assert any("bots" in f for f in facts)
    shown = load_manifest(folder)
    assert shown["games_done"] == 40 and shown["variants"][0]["games_done"] == 20


def test_an_edited_scenario_text_is_named(folder):
    m = json.loads((folder / "manifest.json").read_text())
    m["scenario"]["text"] = m["scenario"]["text"].replace("seed = 42", "seed = 43")
    (folder / "manifest.json").write_text(json.dumps(m))
    assert any("scenario text" in f and "seed" in f for f in folder_contents(folder).facts)


def test_a_clean_folder_has_nothing_to_say(folder):
    c = folder_contents(folder)
    assert not c.problems and not c.facts and not c.suspect and len(c.checked) == 4


def test_a_frame_collected_after_a_compaction_reads_the_same_rows(folder, original):
    lf = load_results(folder)
    compact(folder, games_per_file=1000)
    assert lf.sort("variant", "game", "seat").collect().equals(original[2])


def test_a_listing_that_a_compaction_changes_midway_is_read_again(folder, original, monkeypatch):
    real = contents_module.read_part_file
    state = {"compacted": False}

    def compaction_midway(path, name=None):
        if not state["compacted"]:
            state["compacted"] = True
            monkeypatch.setattr(contents_module, "read_part_file", real)
            compact(folder, games_per_file=1000)
        return real(path, name)

    monkeypatch.setattr(contents_module, "read_part_file", compaction_midway)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResultFolderWarning)  # no part left out as unreadable
        assert rows(folder).equals(original[2])
    assert state["compacted"]


def test_load_results_verify_reads_the_page_checksums(folder):
    from test_verify import _detectable_flip

    part = _part(folder, 1)
    part.write_bytes(_detectable_flip(part))
    with pytest.raises(ResultFolderError, match="damaged"):
        load_results(folder, verify=True)


def test_repair_moves_a_part_with_a_forged_digest_aside_instead_of_vouching_for_it(folder):
    from simlab.experiments.backfill import add_digests
    from simlab.run.runner import repair_folder

    add_digests(folder)
    target, donor = _part(folder, 2), _part(folder, 0)
    table = pq.read_table(target)
    meta = dict(table.schema.metadata) | {DIGEST_KEY: pq.read_schema(donor).metadata[DIGEST_KEY]}
    pq.write_table(table.replace_schema_metadata(meta), target, compression="zstd", write_page_checksum=True)
    line = repair_folder(folder)
    assert "30 of 40 games (interrupted)" in line and (folder / "damaged" / target.name).is_file()
    assert verify_folder(folder).ok and load_manifest(folder)["games_done"] == 30
    assert load_digest(folder) is not None  # the digests left are the parts' own


def test_a_folder_of_the_previous_format_reads_clean_and_resume_adds_the_footer_records(original, folder):
    """A manifest of today's main has content hashes but no footer records: nothing is flagged, its digests are
    vouched for by the hashes, and a resume records the footers."""
    from simlab.experiments.backfill import add_digests

    add_digests(folder)
    m = json.loads((folder / "manifest.json").read_text())
    del m["footers"]
    (folder / "manifest.json").write_text(json.dumps(m))
    said = _messages(lambda: load_results(folder).collect())
    assert said == [] and not folder_contents(folder).checked
    assert load_digest(folder) is not None  # every file's bytes match the manifest's hash
    run_scenario(original[0], jobs=1, out=folder, resume=True, progress=False)
    assert len(json.loads((folder / "manifest.json").read_text())["footers"]) == 4
    assert len(folder_contents(folder).checked) == 4 and rows(folder).equals(original[2])
