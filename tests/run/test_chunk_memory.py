"""A chunk too big for the machine's memory is refused before the run starts, with the largest that fits."""

from __future__ import annotations

import pytest
from conftest import SMALL

from simlab.run import chunk_memory
from simlab.run.chunk_memory import check_chunk_memory, worker_memory
from simlab.run.errors import ScenarioError
from simlab.run.runner import run_scenario

GB = 2**30


def test_a_chunk_that_fits_passes_and_one_that_does_not_names_the_largest_that_fits():
    check_chunk_memory("massilia", 10_000, 5_608, workers=2, memory=24 * GB)
    with pytest.raises(ScenarioError, match=r"use a chunk size of at most ([\d,]+) or fewer --jobs") as info:
        check_chunk_memory("massilia", 1_000_000, 5_608, workers=2, memory=24 * GB)
    largest = int(info.value.args[0].rsplit("at most ", 1)[1].split()[0].replace(",", ""))
    check_chunk_memory("massilia", largest, 5_608, workers=2, memory=24 * GB)  # the advice itself fits
    with pytest.raises(ScenarioError):
        check_chunk_memory("massilia", largest + 1_000, 5_608, workers=2, memory=24 * GB)
    # one worker gets the whole budget, and is not told to use fewer
    with pytest.raises(ScenarioError) as one:
        check_chunk_memory("massilia", 1_000_000, 5_608, workers=1, memory=8 * GB)
    assert "fewer --jobs" not in str(one.value)


def test_the_estimate_covers_what_a_worker_was_measured_to_use():
    # Massilia, 50,000 games a chunk: one worker's peak RSS was 923 MB (2026-12-02)
    assert worker_memory(50_000, 5_608) >= 923 * 2**20
    check_chunk_memory("massilia", 10_000, 5_608, workers=2, memory=0)  # memory unknown: no check


def test_a_run_with_too_big_a_chunk_stops_before_touching_the_disk(write_scenario, tmp_path, monkeypatch):
    monkeypatch.setattr(chunk_memory, "machine_memory", lambda: 1 * GB)
    path = write_scenario(
        SMALL.replace("games = 60", "games = 200_000").replace("chunk_size = 25", "chunk_size = 100_000")
    )
    out = tmp_path / "new" / "results"
    with pytest.raises(ScenarioError, match="a chunk of massilia needs about"):
        run_scenario(path, jobs=1, out=out, progress=False)
    assert not (tmp_path / "new").exists()
