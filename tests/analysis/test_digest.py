"""Digests: the analysis partials each worker writes into its part give the same analyses as the rows.

The row scan and the digest end in the same ``*_from_partial`` functions, so they can only differ by the
order floating-point sums are added in: compared here with a relative tolerance of 1e-9, counts exactly.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

import simlab
from simlab import analysis as A
from simlab.analysis.digest import TARGET, Digest, load_digest
from simlab.analysis.market_pass import market_summary_from_partial
from simlab.analysis.score_distribution import merge_histogram
from simlab.run.compact import compact
from simlab.run.folder_layout import DIGEST_KEY, PARTS

TOL = {"rel_tol": 1e-9, "abs_tol": 1e-12, "check_column_order": False, "check_dtypes": False}


def _same(a: pl.DataFrame, b: pl.DataFrame, keys: list[str]) -> None:
    assert_frame_equal(a.sort(keys), b.sort(keys), **TOL)


def _check_against_rows(folder: Path, digest: Digest) -> None:
    rows = simlab.load_results(folder)
    variants = [v["name"] for v in simlab.load_manifest(folder)["variants"]]
    bots = digest.bots(variants)
    assert bots == A.frames.bots_label(rows)

    seats = A.seat_advantage_from_partial(
        digest.partial("seats", variants), digest.partial("splits", variants), bots=bots
    )
    _same(seats, A.seat_advantage(rows), ["variant", "seat"])

    summary, lead = A.game_metrics_from_partial(digest.partial("metrics", variants), bots=bots)
    row_summary, row_lead = A.game_metrics(rows)
    _same(summary, row_summary, ["variant"])
    assert lead is not None and row_lead is not None
    _same(lead, row_lead, ["variant"])

    var = A.variance_from_partial(
        digest.partial("variance", variants), bots=bots, games=digest.partial("variance_games", variants)
    )
    _same(var, A.variance_decomposition(rows), ["variant", "component"])

    games = rows.group_by("variant").agg(pl.col("game").n_unique().alias("games")).collect()
    for column, per_game, width in (("score", False, 2.0), ("turns", True, 2.0), ("score", False, 1.0)):
        hist = merge_histogram(digest.partial(f"{column}_bins", variants), width=width)
        clusters = None if per_game else digest.partial(f"{column}_clusters", variants)
        got = A.distribution_from_partial(
            hist, column, width, None if per_game else games, bots=bots, clusters=clusters
        )
        _same(got, A.distribution(rows, column, width=width, per_game=per_game), ["variant", "bin"])

    markets = market_summary_from_partial(digest.partial("market", variants), bots=bots)
    expected = A.market_summary(rows, series=("demand", "price"))  # what a digest keeps (the report's)
    _same(markets.trajectories, expected.trajectories, ["variant", "series", "item", "round"])
    _same(markets.collapses, expected.collapses, ["variant", "item"])
    _same(markets.shift_winners, expected.shift_winners, ["variant", "seat"])
    assert markets.sale_yield is not None and expected.sale_yield is not None
    _same(markets.sale_yield, expected.sale_yield, ["variant"])


def test_every_part_carries_a_digest_that_gives_the_row_analyses(real_folder: Path) -> None:
    for path in (real_folder / PARTS).glob("*.parquet"):
        assert DIGEST_KEY in (pq.read_schema(path).metadata or {}), path.name
    digest = load_digest(real_folder)
    assert digest is not None
    _check_against_rows(real_folder, digest)


def test_a_subset_of_variants_merges_only_their_chunks(real_folder: Path) -> None:
    digest = load_digest(real_folder)
    assert digest is not None
    rows = simlab.load_results(real_folder).filter(pl.col("variant").is_in(["control", "money4_seat3"]))
    per = digest.partial("seats", ["money4_seat3", "control"])
    got = A.seat_advantage_from_partial(per, digest.partial("splits", ["control", "money4_seat3"]))
    _same(got.drop("bots"), A.seat_advantage(rows).drop("bots"), ["variant", "seat"])


def test_compaction_keeps_the_digests(real_folder: Path, tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(real_folder, folder)
    before = load_digest(folder)
    summary = compact(folder, games_per_file=1_000, digest_hook=TARGET)
    assert summary.written and summary.files_after < summary.files_before
    after = load_digest(folder)
    assert before is not None and after is not None
    _check_against_rows(folder, after)
    variants = [v["name"] for v in simlab.load_manifest(folder)["variants"]]
    # the chunks' partials are concatenated in the same order: the merged frames are identical
    for kind in ("seats", "metrics", "variance", "score_bins"):
        assert_frame_equal(after.partial(kind, variants), before.partial(kind, variants))


def test_the_digest_hook_reads_under_its_old_name_too(real_folder: Path, tmp_path: Path) -> None:
    """``summaries=`` (the digest hook's old keyword, as cli.py and older scripts pass it) and
    ``simlab.run.summaries`` still work: a compaction handed the hook by its old name keeps the digests."""
    from simlab.run import digest_hook, summaries

    assert summaries.load is digest_hook.load and summaries.ChunkSummaries is digest_hook.DigestHook
    folder = tmp_path / "copy"
    shutil.copytree(real_folder, folder)
    before = load_digest(folder)
    compact(folder, games_per_file=1_000, summaries=TARGET)
    after = load_digest(folder)
    variants = [v["name"] for v in simlab.load_manifest(folder)["variants"]]
    assert before is not None and after is not None
    assert_frame_equal(after.partial("seats", variants), before.partial("seats", variants))


def test_compacted_files_and_later_parts_merge(real_folder: Path, tmp_path: Path) -> None:
    """A run resumed after a compaction: merged partials in the compacted files, a chunk's in the new parts."""
    folder = tmp_path / "copy"
    shutil.copytree(real_folder, folder)
    compact(folder, games_per_file=1_000, digest_hook=TARGET)
    manifest = simlab.load_manifest(folder)
    scenario = tmp_path / "small.toml"
    scenario.write_text(manifest["scenario"]["text"])
    simlab.run_scenario(scenario, jobs=1, out=folder, games=200, resume=True, progress=False, compact=False)
    digest = load_digest(folder)
    assert digest is not None
    _check_against_rows(folder, digest)


def test_a_chunk_without_a_digest_means_scanning_the_rows(real_folder: Path, tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(real_folder, folder)
    path = sorted((folder / PARTS).glob("*.parquet"))[1]
    table = pq.read_table(path)
    meta = {k: v for k, v in (table.schema.metadata or {}).items() if k != DIGEST_KEY}
    pq.write_table(table.replace_schema_metadata(meta), path)  # as a part from an older simlab
    manifest = json.loads((folder / "manifest.json").read_text())
    del manifest["files"][path.name]  # whose manifest held no content hash for it
    del manifest["footers"][path.name]  # nor a footer record
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert load_digest(folder) is None
    compact(folder, games_per_file=1_000, digest_hook=TARGET)  # the merged file cannot vouch for the chunk either
    assert load_digest(folder) is None


def test_a_digest_of_another_version_is_ignored(real_folder: Path, tmp_path: Path, monkeypatch) -> None:
    from simlab.analysis import digest

    monkeypatch.setattr(digest, "VERSION", digest.VERSION + 1)
    assert load_digest(real_folder) is None


@pytest.mark.parametrize("jobs", [2])
def test_digests_do_not_depend_on_the_workers(real_folder: Path, tmp_path: Path, jobs: int) -> None:
    manifest = simlab.load_manifest(real_folder)
    scenario = tmp_path / "small.toml"
    scenario.write_text(manifest["scenario"]["text"])
    other = simlab.run_scenario(scenario, jobs=jobs, out=tmp_path / "results", progress=False)
    for path in sorted((real_folder / PARTS).glob("*.parquet")):
        mine = (pq.read_schema(path).metadata or {})[DIGEST_KEY]
        theirs = (pq.read_schema(other / PARTS / path.name).metadata or {})[DIGEST_KEY]
        assert mine == theirs, path.name


def test_paired_comparison_from_win_masks(real_folder: Path) -> None:
    digest = load_digest(real_folder)
    assert digest is not None
    variants = [v["name"] for v in simlab.load_manifest(real_folder)["variants"]]
    got = A.compare_variants_from_partial(digest.partial("wins", variants), "control")
    _same(got, A.compare_variants(simlab.load_results(real_folder), "control"), ["variant", "seat"])


def test_win_masks_refuse_shares_not_split_equally() -> None:
    from simlab.analysis.paired import win_masks

    rows = pl.DataFrame(
        {"variant": ["v"] * 4, "game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "win_share": [0.5, 0.5, 1.0, 0.0]}
    )
    got = win_masks(rows)
    assert got is not None and got["masks"][0] == bytes([0b11, 0b01])
    assert win_masks(rows.with_columns(pl.Series("win_share", [0.7, 0.3, 1.0, 0.0]))) is None


_MERGED_HASH = """
import hashlib, io, sys
from simlab.analysis.digest import combine, load_digest
import pyarrow.parquet as pq
from simlab.run.folder_layout import DIGEST_KEY
from simlab.run.reader import result_files
folder = sys.argv[1]
d = load_digest(folder)
h = hashlib.sha256()
variants = sorted({c[0] for f in d.files for c in f.chunks})
kinds = ("seats", "splits", "metrics", "variance", "score_bins", "turns_bins", "score_clusters", "variance_games")
for kind in (*kinds, "wins"):
    buf = io.BytesIO(); d.partial(kind, variants).write_ipc_stream(buf); h.update(buf.getvalue())
for frame in d.partial("market", variants).values():
    buf = io.BytesIO(); frame.write_ipc_stream(buf); h.update(buf.getvalue())
h.update(combine([pq.read_schema(p).metadata[DIGEST_KEY] for p in result_files(folder)]))
print(h.hexdigest())
"""


def test_merging_digests_gives_the_same_bits_with_any_thread_pool(real_folder: Path) -> None:
    """polars' own group-by sums depend on its thread pool; the digests' merges must not (compacted files and
    reports are compared byte for byte)."""
    import os
    import subprocess
    import sys

    got = set()
    for threads in ("1", "4"):
        env = os.environ | {"POLARS_MAX_THREADS": threads}
        out = subprocess.run(
            [sys.executable, "-c", _MERGED_HASH, str(real_folder)], env=env, check=True, capture_output=True, text=True
        )
        got.add(out.stdout.strip())
    assert len(got) == 1


def test_a_failing_digest_loses_no_games(real_folder: Path, tmp_path: Path, monkeypatch) -> None:
    """A digest only speeds reports up: if computing it raises, the chunk is written without one and says why."""
    import io
    import json

    from simlab.analysis import digest

    def broken(rows: pl.DataFrame) -> dict:
        raise ValueError("a column this analysis trips on")

    monkeypatch.setattr(digest, "chunk_partials", broken)
    scenario = tmp_path / "small.toml"
    scenario.write_text(simlab.load_manifest(real_folder)["scenario"]["text"])
    log = io.StringIO()
    folder = simlab.run_scenario(scenario, jobs=1, out=tmp_path / "results", games=80, stream=log)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["games_done"] == 5 * 80
    assert all(c["digest_error"] == "ValueError: a column this analysis trips on" for c in manifest["chunks"])
    assert load_digest(folder) is None  # so the report scans the rows
    assert "warning: 5 chunk(s) have no digest (ValueError" in log.getvalue()


def test_simlab_digest_adds_what_the_workers_would_have_written(real_folder: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from simlab.cli import cli

    folder = tmp_path / "copy"
    shutil.copytree(real_folder, folder)
    written = {}
    for path in sorted((folder / PARTS).glob("*.parquet")):  # as a folder from before digests
        table = pq.read_table(path)
        written[path.name] = table.schema.metadata[DIGEST_KEY]
        pq.write_table(
            table.replace_schema_metadata({k: v for k, v in table.schema.metadata.items() if k != DIGEST_KEY}), path
        )
    manifest = json.loads((folder / "manifest.json").read_text())
    del manifest["files"], manifest["footers"]  # a manifest from before content hashes and footer records
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert load_digest(folder) is None
    result = CliRunner().invoke(cli, ["digest", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0 and "added to 10 of 10 file(s)" in result.output
    for path in sorted((folder / PARTS).glob("*.parquet")):
        assert (pq.read_schema(path).metadata or {})[DIGEST_KEY] == written[path.name], path.name
    assert simlab.load_results(folder).collect().equals(simlab.load_results(real_folder).collect())
    again = CliRunner().invoke(cli, ["digest", str(folder)], catch_exceptions=False)
    assert "already have one" in again.output
    assert CliRunner().invoke(cli, ["verify", str(folder)]).exit_code == 0  # the manifest holds the new hashes


def test_a_files_digest_is_computed_from_its_rows_alone(real_folder: Path) -> None:
    """``analysis.file_digest`` is pure (rows in, bytes out; ``simlab digest``'s rewrite is experiments'): a
    part's one row group gives the bytes its worker wrote, and a game cut by a row group's end is digested
    whole, with the next group (the same bits as a cut at that game's start)."""
    from simlab.analysis import digest
    from simlab.analysis.file_digest import file_digest
    from simlab.run.part_file import read_part_file

    path = sorted((real_folder / PARTS).glob("*.parquet"))[0]
    part = read_part_file(path)
    rows = pl.read_parquet(path)
    chunks = [(str(r["variant"]), int(r["start"]), int(r["stop"])) for r in part.records]
    assert file_digest([rows], chunks) == part.digest
    games = rows["game"].unique(maintain_order=True)
    first_of_last = rows["game"].to_list().index(games[-1])  # the last game's rows: first_of_last ..
    assert rows.height - first_of_last >= 3  # so it can be cut in two places
    whole = digest.encode_file(  # the first group's whole games, then the last game: merged in order
        sorted(chunks),
        digest.merge_partials(
            [digest.chunk_partials(rows[:first_of_last]), digest.chunk_partials(rows[first_of_last:])]
        ),
    )
    for cut in range(first_of_last + 1, rows.height):
        assert file_digest([rows[:cut], rows[cut:]], chunks) == whole, cut
    cut = first_of_last + 1  # an empty row group between changes nothing
    assert file_digest([rows[:cut], rows[cut:cut], rows[cut:]], chunks) == whole
