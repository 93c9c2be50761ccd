"""The timing stage "facts" is now "game_columns": old result folders still report their stage times."""

import json
from pathlib import Path

from simlab.run.reader import load_manifest
from simlab.run.runner import _stage_seconds

LEGACY = Path(__file__).parent / "folders" / "legacy_v1"


def test_legacy_manifest_reports_its_stage_times_under_the_new_name(tmp_path):
    raw = json.loads((LEGACY / "manifest.json").read_text())
    assert "facts" in raw["timings"]["stage_seconds"]  # the fixture predates the rename
    manifest = load_manifest(LEGACY)
    stages = manifest["timings"]["stage_seconds"]
    assert "facts" not in stages
    assert stages["game_columns"] == raw["timings"]["stage_seconds"]["facts"]
    for chunk, old in zip(manifest["chunks"], raw["chunks"], strict=True):
        assert chunk["timings"]["game_columns"] == old["timings"]["facts"] and "facts" not in chunk["timings"]


def test_stage_seconds_of_old_chunks_sum_under_the_new_name():
    chunks = [{"timings": {"play": 1.0, "facts": 0.5}}, {"timings": {"play": 2.0, "game_columns": 0.25}}]
    assert _stage_seconds(chunks) == {"play": 3.0, "game_columns": 0.75}
