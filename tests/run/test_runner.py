"""Whole runs: bit-identical for any jobs and chunk size, paired seeds, the row layout and the manifest."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from conftest import SMALL, rows

import simlab
from simlab.run.runner import run_scenario
from simlab.run.scenario import load_scenario
from simlab.run.seeds import BLOCK, game_seed, game_seeds


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The small scenario run once in-process with one chunk size (the run every other is compared with)."""
    base = tmp_path_factory.mktemp("reference")
    path = base / "small.toml"
    path.write_text(SMALL)
    folder = run_scenario(path, jobs=1, out=base / "out", progress=False)
    return path, folder, rows(folder)


def test_seeds_depend_only_on_root_and_game_index():
    whole = game_seeds(7, 0, 3 * BLOCK // 2)
    pieces = np.concatenate([game_seeds(7, a, min(a + 9_999, len(whole))) for a in range(0, len(whole), 9_999)])
    assert np.array_equal(whole, pieces)
    assert whole.min() >= 0 and len(np.unique(whole)) == len(whole)
    assert game_seed(7, 12345) == whole[12345]
    assert not np.array_equal(game_seeds(8, 0, 100), whole[:100])


@pytest.mark.parametrize(("jobs", "chunk_size"), [(1, 7), (2, 25), (2, 13), (1, 1000)])
def test_results_identical_for_any_jobs_and_chunk_size(reference, tmp_path, jobs, chunk_size):
    path, _, expected = reference
    folder = run_scenario(path, jobs=jobs, chunk_size=chunk_size, out=tmp_path / "out", progress=False)
    got = rows(folder)
    assert got.equals(expected)
    assert len(list((folder / "parts").glob("*.parquet"))) == 2 * -(-60 // chunk_size)


def test_rows_are_long_format_with_provenance(reference):
    path, _, df = reference
    sc = load_scenario(path)
    assert df.height == 2 * 60 * 4
    head = [
        "scenario",
        "variant",
        "game",
        "seed",
        "seat",
        "bot",
        "lineup",
        "score",
        "rank",
        "win_share",
        "turns",
        "rules_version",
        "config_hash",
        "simlab_version",
    ]
    assert df.columns[: len(head)] == head
    assert {"start_money", "final_money", "decisions"} <= set(df.columns), "the game's fact columns follow"
    assert df["scenario"].unique().to_list() == ["small"]
    assert df["rules_version"].unique().to_list() == [simlab.get_game("massilia").rules_version]
    assert df["simlab_version"].unique().to_list() == [simlab.__version__]
    for v in sc.variants:
        assert df.filter(pl.col("variant") == v.name)["config_hash"].unique().to_list() == [v.config_hash]
    per_game = df.group_by("variant", "game").agg(pl.len(), pl.col("win_share").sum(), pl.col("seat").sort())
    assert (per_game["len"] == 4).all()
    assert np.allclose(per_game["win_share"].to_numpy(), 1.0), "ties split the win"
    assert sorted(df["game"].unique().to_list()) == list(range(60))


def test_variants_share_game_seeds(reference):
    path, _, df = reference
    seeds = df.select("variant", "game", "seed").unique().pivot(on="variant", index="game", values="seed")
    assert (seeds["rulebook"] == seeds["quined2014"]).all(), "common random numbers"
    sc = load_scenario(path)
    assert seeds.sort("game")["rulebook"].to_list() == game_seeds(sc.seed, 0, 60).tolist()


def test_lineup_rotates_through_every_seat(reference):
    path, _, df = reference
    sc = load_scenario(path)
    one = df.filter(pl.col("variant") == "rulebook").sort("game", "seat")
    for g in (0, 1, 2, 3, 5, 58):
        r = g % 4
        assert one.filter(pl.col("game") == g)["bot"].to_list() == sc.seat_bots(r)
        assert one.filter(pl.col("game") == g)["lineup"].unique().to_list() == [r]
    counts = one.group_by("seat", "bot").len()
    # 60 games = 15 of each rotation: each seat holds the priest 15 times and a random bot 30
    assert counts.filter(pl.col("bot") == "priest")["len"].to_list() == [15] * 4


def test_fixed_bots_stay_in_their_seats(write_scenario, tmp_path):
    path = write_scenario(SMALL.replace("lineup =", "bots =").replace("games = 60", "games = 12"))
    df = rows(run_scenario(path, jobs=1, out=tmp_path / "out", progress=False))
    assert (df["lineup"] == 0).all()
    by_seat = df.group_by("seat").agg(pl.col("bot").unique()).sort("seat")
    assert by_seat["bot"].to_list() == [["trader"], ["random"], ["random"], ["priest"]]


def test_rows_match_play_batch(reference):
    """The runner adds bookkeeping only: scores are those of the game's own batch loop for the same seed."""
    path, _, df = reference
    sc = load_scenario(path)
    game = simlab.get_game("massilia")
    v = sc.variant("quined2014")
    seeds = game_seeds(sc.seed, 0, 8)
    for g in (0, 1, 6):
        records = game.play_batch(v.config, [int(seeds[g])], game.make_bots(sc.seat_bots(g % 4), 4))
        expected = game.result_columns(records, v.config)["score"]
        got = df.filter((pl.col("variant") == "quined2014") & (pl.col("game") == g)).sort("seat")["score"]
        assert got.to_list() == expected.tolist()


def test_manifest_describes_the_run(reference):
    path, folder, _ = reference
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["scenario"]["text"] == path.read_text()
    assert manifest["scenario"]["name"] == "small"
    assert manifest["games"] == 60 and manifest["root_seed"] == 42 and manifest["chunk_size"] == 25
    assert manifest["games_done"] == 120 and manifest["games_failed"] == 0
    assert [v["name"] for v in manifest["variants"]] == ["rulebook", "quined2014"]
    quined = manifest["variants"][1]
    assert quined["config"]["start_money"][:4] == [5, 6, 7, 8] and quined["preset"] == "quined2014"
    assert len(manifest["chunks"]) == 6 and all(c["seconds"] >= 0 for c in manifest["chunks"])
    assert manifest["timings"]["sessions"][-1]["games"] == 120
    assert {"numpy", "numba", "pyarrow"} <= set(manifest["versions"])
    assert simlab.load_manifest(folder) == manifest


def test_library_functions_are_exported_lazily(reference):
    _, folder, df = reference
    lazy = simlab.load_results(folder)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.sort("variant", "game", "seat").collect().equals(df)


def test_run_returns_the_default_folder(write_scenario, tmp_path, monkeypatch):
    path = write_scenario(SMALL.replace("games = 60", "games = 4"), name="tiny")
    monkeypatch.chdir(tmp_path)
    folder = simlab.run_scenario(path, jobs=1, progress=False)
    assert folder == tmp_path.joinpath("results", "tiny").relative_to(tmp_path)
    assert (tmp_path / folder / "manifest.json").is_file()


def test_progress_goes_to_the_stream(write_scenario, tmp_path):
    import io

    stream = io.StringIO()
    run_scenario(write_scenario(SMALL.replace("games = 60", "games = 10")), jobs=1, out=tmp_path / "o", stream=stream)
    text = stream.getvalue()
    assert "20/20 games (100%)" in text and "games/s" in text and "ETA" in text and "done: 20 games" in text


RUN_ALONE = """
import sys
from pathlib import Path
from simlab.run.runner import run_scenario
folder = run_scenario(sys.argv[1], jobs=1, out=Path(sys.argv[2]), progress=False)
print(sorted(m for m in sys.modules if m.startswith("simlab.analysis")))
"""


def test_a_run_imports_no_analysis_unless_handed_its_digests(tmp_path):
    """The runner knows nothing of the analyses: a run handed no per-chunk summaries hook plays, writes and
    reads its folder without importing ``simlab.analysis``; ``simlab.run_scenario`` hands it the digests."""
    import subprocess
    import sys

    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    out = subprocess.run(
        [sys.executable, "-c", RUN_ALONE, str(path), str(tmp_path / "alone")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == "[]"
    import pyarrow.parquet as pq

    from simlab.run.folder_layout import DIGEST_KEY
    from simlab.run.reader import result_files

    assert result_files(tmp_path / "alone")
    assert all(DIGEST_KEY not in (pq.read_schema(f).metadata or {}) for f in result_files(tmp_path / "alone"))
    handed = simlab.run_scenario(path, jobs=1, out=tmp_path / "handed", progress=False)
    assert all(DIGEST_KEY in (pq.read_schema(f).metadata or {}) for f in result_files(handed))


def test_variants_with_other_columns_load_as_their_union(write_scenario, tmp_path):
    """A variant of another round count has fewer per-round columns; all rows still load, null where absent."""
    text = SMALL + '\n[variants.short]\npreset = "rulebook"\nset = { rounds = 5 }\n'
    folder = run_scenario(write_scenario(text), jobs=1, out=tmp_path / "out", progress=False)
    rows = simlab.load_results(folder).collect()
    assert rows.height == 3 * 60 * 4
    short = rows.filter(pl.col("variant") == "short")
    assert short["money_r5"].null_count() == 0 and short["money_r7"].null_count() == short.height
    assert rows.filter(pl.col("variant") == "rulebook")["money_r7"].null_count() == 0
