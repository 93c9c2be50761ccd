"""Runs until settled: looks on a grid, games move to the open variants, the rows equal a fixed run's on any
worker count, and a run killed mid-batch resumes to the same stopping point."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from settle_support import CARDS, SETTLE_AT, Verdict, judge, never, run_killed

from simlab.experiments.settle import Rule, Settle, look_grid, look_step
from simlab.experiments.settle import run_scenario as run_settled
from simlab.run.errors import ResultFolderError, ScenarioError
from simlab.run.reader import load_results
from simlab.run.runner import run_scenario as run_fixed
from simlab.run.scenario import parse_scenario


def rows(folder: Path) -> pl.DataFrame:
    return load_results(folder).sort("variant", "game", "seat").collect()


def stopping(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())["stopping"]


@pytest.fixture(scope="module")
def settled(tmp_path_factory) -> Path:
    """The card design played until settled on two workers."""
    base = tmp_path_factory.mktemp("settled")
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    return run_settled(sc, out=base / "out", jobs=2, progress=False, judge=judge)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory) -> Path:
    """The same design as a fixed run of 120 games per variant, in one process, other chunks."""
    base = tmp_path_factory.mktemp("fixed")
    text = CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 120\n")
    sc = parse_scenario(text, source="cards.toml", default_name="cards")
    return run_fixed(sc, out=base / "out", jobs=1, chunk_size=7, progress=False)


def test_looks_fall_on_a_geometric_grid_of_whole_steps():
    assert look_grid(20, 200) == [20, 40, 60, 80, 120, 160, 200]
    assert look_grid(2_500, 20_000) == [2_500, 5_000, 7_500, 10_000, 15_000, 20_000]
    assert look_grid(500, 300) == [300]  # a cap below one step: one look, at the cap
    assert look_grid(1_248, 10_000) == [1_248, 2_496, 3_744, 4_992, 7_488, 10_000]  # not 9,984 and then 10,000
    cards = parse_scenario(CARDS, source="c.toml")
    assert look_step(cards.with_options(chunk_size=2_500), 20_000) == 2_500  # whole chunks
    assert look_step(cards.with_options(chunk_size=2_500), 2_500) == 312  # at most an eighth of the cap
    assert look_step(cards.with_options(chunk_size=10), 200) == 20  # whole rotations of the lineup
    assert look_step(cards.with_options(chunk_size=2_500), 300) == 100  # but not below MIN_STEP games


def test_settled_variants_stop_and_the_games_move_to_the_open_ones(settled):
    s = stopping(settled)
    assert s["rule"] == "settled" and s["outcome"] == "settled"
    assert s["tolerance"] == 2.0 and s["alpha"] == 0.05 and s["max_games"] == 200
    assert s["looks"] == [20, 40, 60, 80, 120]
    assert s["variants"] == {
        "control": {"games": 120, "stopped_at": 120},
        "jupiter_seat0": {"games": 40, "stopped_at": 40},
        "junon_seat1": {"games": 40, "stopped_at": 40},
        "mars_seat2": {"games": 120, "stopped_at": 120},
    }
    settled_at = {v["key"]: (v["settled_at"], v["n"], v["state"]) for v in s["verdicts"]}
    assert settled_at == {"jupiter_seat0": (40, 40, "within"), "junon_seat1": (40, 40, "within"),
                          "mars_seat2": (120, 120, "within")}  # fmt: skip
    m = json.loads((settled / "manifest.json").read_text())
    assert m["status"] == "complete" and m["games_done"] == m["games_target"] == 320
    assert {v["name"]: v["games_done"] for v in m["variants"]} == {
        "control": 120, "jupiter_seat0": 40, "junon_seat1": 40, "mars_seat2": 120}  # fmt: skip


def test_a_stopped_run_holds_the_rows_of_a_fixed_run_of_its_length(settled, fixed):
    stops = {name: v["games"] for name, v in stopping(settled)["variants"].items()}
    cut = pl.DataFrame({"variant": list(stops), "_stop": list(stops.values())})
    expected = rows(fixed).join(cut, on="variant").filter(pl.col("game") < pl.col("_stop")).drop("_stop")
    assert rows(settled).equals(expected.sort("variant", "game", "seat"))


def test_a_capped_run_says_so_and_keeps_the_open_variants_playing(tmp_path):
    sc = parse_scenario(CARDS.replace("max_games = 200", "max_games = 160"), source="c.toml", default_name="c")
    log = tmp_path / "log"
    with log.open("w") as stream:
        run_settled(sc, out=tmp_path / "out", jobs=1, stream=stream, judge=never)
    s = stopping(tmp_path / "out")
    assert s["outcome"] == "max_games" and s["looks"] == [20, 40, 60, 80, 120, 160]
    assert s["variants"]["jupiter_seat0"] == {"games": 40, "stopped_at": 40}
    assert s["variants"]["mars_seat2"] == {"games": 160, "stopped_at": None}
    assert "stopped at max_games (160 per variant): 2 of 3 verdict(s) still open" in log.read_text()

    # a larger cap plays on from where the capped run stopped, by the same rule
    run_settled(sc, out=tmp_path / "out", jobs=1, progress=False, judge=never, resume=True, max_games=240)
    s = stopping(tmp_path / "out")
    assert s["looks"] == [20, 40, 60, 80, 120, 160, 240] and s["variants"]["control"]["games"] == 240


@pytest.mark.parametrize("kill_after", [27, 16], ids=["mid-batch", "before-the-look"])
def test_a_run_killed_mid_batch_resumes_to_the_same_stop(settled, tmp_path, kill_after):
    out = tmp_path / "out"
    run_killed(out, kill_after, "judge")
    on_disk = len(list((out / "parts").glob("*.parquet")))
    assert on_disk == kill_after, "killed where the test says"
    before = stopping(out)
    assert before["outcome"] is None
    if kill_after == 27:  # mid-batch: the look at 120 is in flight, control and mars between 80 and 120
        assert before["looks"] == [20, 40, 60, 80]

    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    run_settled(sc, out=out, jobs=2, progress=False, judge=judge, resume=True)
    assert rows(out).equals(rows(settled))
    after, clean = stopping(out), stopping(settled)
    assert after == clean


def test_a_folder_of_a_fixed_run_is_not_taken_for_a_settled_one(fixed, tmp_path):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(fixed, out)
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    with pytest.raises(ResultFolderError, match="more than the 20 its run until settled has reached"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True)


def test_resume_keeps_the_rule(settled, tmp_path):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(settled, out)
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    with pytest.raises(ScenarioError, match="began with tolerance 2 points, not 3 points"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True, tolerance=3.0)
    with pytest.raises(ScenarioError, match="--games: a run until settled"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True, games=300)
    # a finished run resumed: nothing to play, the same record
    run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True)
    assert stopping(out) == stopping(settled)


def test_the_progress_note_shows_the_widest_open_bands_and_a_time_to_settle(tmp_path):
    times = iter([0.0, 10.0])
    rule = Rule(tolerance=2.0, alpha=0.05, max_games=10_000)
    s = Settle(rule, ["control", "jupiter_seat0", "junon_seat1"], 100, clock=lambda: next(times))
    assert s.note() == "| to the first look at 100 games per variant"

    def bands(folder: Path, tolerance: float, alpha: float) -> list[Verdict]:
        n = s.reached["control"]
        return [
            Verdict(k, k, ("control", k), 0.001, 0.001 - h, 0.001 + h, n, "open", 0)
            for k, h in (("jupiter_seat0", 0.05 * (100 / n) ** 0.5), ("junon_seat1", 0.03 * (100 / n) ** 0.5))
        ]

    s.judge = bands
    assert s.targets(tmp_path, dict.fromkeys(s.variants, 100)) == dict.fromkeys(s.variants, 200)
    assert s.eta() is None  # one look: no rate yet
    assert s.targets(tmp_path, dict.fromkeys(s.variants, 200)) == dict.fromkeys(s.variants, 300)
    note = s.note()
    assert note.startswith("| look 2 at 200: 2 of 2 open (jupiter_seat0 +0.1 ±3.5; junon_seat1 +0.1 ±2.1;"), note
    # jupiter's band (±3.54 at 200 games, its estimate 1.9 points from ±2) needs 200 (3.54/1.9)^2 = 693 games of
    # itself and of the control, junon's 250: 2 x 493 + 50 games more at (600 - 300) games per 10 s
    assert s.eta() == pytest.approx((2 * (693 - 200) + (250 - 200)) / 30, rel=0.01)
    assert note.endswith("settles in ~0:35")


@pytest.mark.parametrize(
    "change, message",
    [
        ('until = "settled"', "key 'until': expected \"settled\""),
        ("max_games = 200\n", "key 'max_games': expected a positive integer"),
        ("tolerance = 2.0", "key 'tolerance': expected the points of win share"),
    ],
)
def test_bad_keys_of_a_run_until_settled_are_refused(change, message):
    replacement = {
        'until = "settled"': 'until = "sometimes"',
        "max_games = 200\n": "",
        "tolerance = 2.0": "tolerance = -1.0",
    }[change]
    with pytest.raises(ScenarioError, match=message):
        parse_scenario(CARDS.replace(change, replacement), source="c.toml")


def test_games_and_until_together_are_refused_and_rule_keys_need_until():
    with pytest.raises(ScenarioError, match="write max_games = N instead of games = N"):
        parse_scenario(CARDS.replace("max_games = 200", "games = 200\nmax_games = 200"), source="c.toml")
    fixed = CARDS.replace('until = "settled"\nmax_games = 200\n', "games = 100\n")
    with pytest.raises(ScenarioError, match="key 'tolerance' belongs to a run until settled"):
        parse_scenario(fixed, source="c.toml")
    with pytest.raises(ScenarioError, match="key 'alpha': expected the verdicts' error rate"):
        parse_scenario(CARDS.replace("tolerance = 2.0", "alpha = 0.7"), source="c.toml")


def test_every_card_settles_before_the_cap_in_the_support_rule():
    assert max(SETTLE_AT.values()) < 200


def test_the_readers_take_unequal_variants_for_what_they_are(settled, tmp_path):
    """Variants stopped at different counts are no damage: no reader warns, the paired estimates use the games
    both sides have; a part removed from a stopped variant is still found missing."""
    import shutil

    from click.testing import CliRunner

    from simlab.analysis import card_value, compare_variants, seat_advantage
    from simlab.cli import cli
    from simlab.run.folder_contents import folder_contents
    from simlab.run.verify import verify_folder

    contents = folder_contents(settled)
    assert (contents.problems, contents.skipped, contents.facts) == ([], [], [])
    assert verify_folder(settled).ok
    seats = seat_advantage(settled)
    assert dict(seats.group_by("variant").agg(pl.col("games").first()).iter_rows()) == {
        "control": 120, "jupiter_seat0": 40, "junon_seat1": 40, "mars_seat2": 120}  # fmt: skip
    changes = compare_variants(settled, "control")
    assert dict(changes.group_by("variant").agg(pl.col("games").first()).iter_rows()) == {
        "jupiter_seat0": 40, "junon_seat1": 40, "mars_seat2": 120}  # fmt: skip
    cards = card_value(settled)
    assert sorted(zip(cards["label"], cards["games"], strict=True)) == [("junon", 40), ("jupiter", 40), ("mars", 120)]

    runner = CliRunner()
    for args in (["cards", str(settled)], ["seats", str(settled), "--base", "control"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0 and "warning" not in result.output, result.output
    report = tmp_path / "report.html"
    result = runner.invoke(cli, ["report", str(settled), "--out", str(report)])
    assert result.exit_code == 0, result.output
    assert "paired comparisons use only the games both have" in report.read_text()

    damaged = tmp_path / "damaged"
    shutil.copytree(settled, damaged)
    (damaged / "parts" / "jupiter_seat0__0000000030-0000000040.parquet").unlink()
    assert any("10 game(s) the manifest lists are missing" in p for p in folder_contents(damaged).problems)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--until", "settled", "--games", "50"], "--games: a run until settled plays until its verdicts are settled"),
        (["--tolerance", "2"], "--tolerance: belongs to a run until settled; add --until settled"),
        (["--max-games", "50"], "--max-games: belongs to a run until settled"),
        (["--until", "settled", "--tolerance", "nan"], "expected a finite number"),
    ],
)
def test_the_command_refuses_options_that_do_not_go_together(tmp_path, args, message):
    from click.testing import CliRunner

    from simlab.cli import cli

    path = tmp_path / "fixed.toml"
    path.write_text(CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 40\n"))
    result = CliRunner().invoke(cli, ["run", str(path), "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2 and message in result.output, result.output
    assert not (tmp_path / "out").exists(), "refused before anything is written"
