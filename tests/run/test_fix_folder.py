"""A rule-fix search's folder (``<folder>/fix``): plays stored by content and found again by what determines them,
a damaged play moved aside and played again, another question refused (issue 34, item 4)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simlab.run.errors import ResultFolderError
from simlab.run.fix_folder import DONE, FixStore, has_fix, load_fix, play_key

IDENTITY = {"scenario_sha256": "ab" * 32, "tolerance": 0.02, "budget": 10000, "panel": ["a"], "alpha": 0.05, "seed": 3}
ABOUT = {"scenario": "s", "source": "s.toml", "game": "massilia", "text": "", "players": 4, "lineup": ["a"]}


def test_a_play_is_kept_by_content_and_found_by_what_determines_it(tmp_path):
    wins = np.eye(4)[[0, 1, 2, 3, 0]]
    key = play_key("a,b", (("start_money", (6, 6, 6, 8)),), 100, 5)
    assert key == play_key("a,b", [["start_money", [6, 6, 6, 8]]], 100, 5)  # a tuple and its JSON alike
    assert key != play_key("b,a", (("start_money", (6, 6, 6, 8)),), 100, 5)  # another lineup: another play
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=False) as store:
        assert store.get(key) is None
        store.put(key, 100, wins)
        store.note("round 1: 3 candidates left")
    meta = load_fix(tmp_path)
    entry = meta["plays"][key]
    assert entry["file"] == f"{entry['sha256']}.parquet" and entry["start"] == 100 and entry["games"] == 5
    assert meta["log"] == ["round 1: 3 candidates left"] and has_fix(tmp_path)
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=True) as store:
        assert np.array_equal(store.get(key), wins) and store.replayed == 1
        store.finish({"status": "certified"})
    assert load_fix(tmp_path)["status"] == DONE and load_fix(tmp_path / "fix")["result"] == {"status": "certified"}


def test_a_folder_with_a_search_needs_resume_and_the_same_question(tmp_path):
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=False):
        pass
    again = FixStore.open(tmp_path, IDENTITY, ABOUT, resume=False)
    with pytest.raises(ResultFolderError, match="already holds a rule-fix search; add --resume"), again:
        pass
    other = FixStore.open(tmp_path, {**IDENTITY, "tolerance": 0.01}, ABOUT, resume=True)
    with pytest.raises(ResultFolderError, match=r"another question \(tolerance: 0.02 there, 0.01 now\)"), other:
        pass


def test_a_damaged_play_is_moved_aside_and_played_again(tmp_path):
    key = play_key("a", [1], 0, 3)
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=False) as store:
        store.put(key, 0, np.eye(4)[[0, 1, 2]])
    path = tmp_path / "fix" / "plays" / load_fix(tmp_path)["plays"][key]["file"]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with FixStore.open(tmp_path, IDENTITY, ABOUT, resume=True) as store:
        assert store.get(key) is None
    assert (tmp_path / "fix" / "damaged" / path.name).is_file()
    assert key not in json.loads((tmp_path / "fix" / "fix.json").read_text())["plays"]
