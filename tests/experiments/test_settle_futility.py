"""Futility: a verdict that cannot settle by the cap stops its games (out of reach) instead of playing to the cap;
a clear verdict still settles; the rows stay a fixed run's; a resume after a kill stops at the same n; a changed
threshold is refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from settle_support import CARDS, OUT_OF_REACH_AT, far, run_killed

from simlab.analysis.futility import Reach, either, reach
from simlab.analysis.sequential import Question, is_headline, verdicts_from
from simlab.analysis.stopping import needed_table, not_settled, outcome_sentence, read_stopping, rule_sentence
from simlab.experiments.settle import Rule, Settle
from simlab.experiments.settle import run_scenario as run_settled
from simlab.run.errors import ScenarioError
from simlab.run.reader import load_results
from simlab.run.runner import run_scenario as run_fixed
from simlab.run.scenario import DEFAULT_FUTILITY, parse_scenario

PLAYERS = 4
CAP = 100_000
#: each variant's winner probabilities by seat: "fair" (every seat within ±5 points of 1/4), "edge" (seat 0 at
#: exactly 1/4 + 5 points: its equal-seats question never settles), "unequal" (seat 0 at 40%: beyond at once)
WINS = {
    "fair": (0.25, 0.25, 0.25, 0.25),
    "edge": (0.30, 0.70 / 3, 0.70 / 3, 0.70 / 3),
    "unequal": (0.40, 0.20, 0.20, 0.20),
}


def rows(folder: Path) -> pl.DataFrame:
    return load_results(folder).sort("variant", "game", "seat").collect()


def stopping(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())["stopping"]


def synthetic_rule(futility: float, seed: int = 5) -> Settle:
    """The rule of a seats design of three variants (``WINS``) played to its end on synthetic games (each game's
    winner drawn from the variant's probabilities), judged by the real verdicts (``verdicts_from``, headline
    family, tolerance 5 points) with their chances of settling by ``CAP``."""
    rng = np.random.default_rng(seed)
    seat_wins = {}  # variant: [n, k] = seat k's wins in the first n games
    for v, p in WINS.items():
        winner = np.minimum(np.searchsorted(np.cumsum(p), rng.random(CAP)), PLAYERS - 1)
        seat_wins[v] = np.vstack([np.zeros((1, PLAYERS)), np.cumsum(np.eye(PLAYERS)[winner], axis=0)])
    state = {"reached": dict.fromkeys(WINS, 0)}

    def judge(_folder: Path, tolerance: float, alpha: float) -> list:
        questions = []
        for v in WINS:
            n = state["reached"][v]
            for k in range(PLAYERS):
                won = float(seat_wins[v][n, k]) if n else 0.0
                questions.append(Question(f"seats/{v}/seat {k}", f"{v} seat {k}", (v,), n, won, won, 0.0, 1.0, 0.25))
        found = verdicts_from(questions, tolerance / 100, alpha, PLAYERS, CAP)
        return [x for x in found if is_headline(x.key)]

    rule = Rule(5.0, 0.05, CAP, "headline", futility)
    s = Settle(rule, list(WINS), 2_000, judge, players=PLAYERS)
    s.begin({})
    reached = dict.fromkeys(WINS, 0)
    while True:
        want = s.targets(Path("."), reached)
        if want == reached:
            return s
        reached = dict(want)
        state["reached"] = reached


def test_a_seat_at_the_edge_stops_its_variant_well_before_the_cap_as_out_of_reach():
    s = synthetic_rule(DEFAULT_FUTILITY)
    record = s.record()[1]
    verdicts = {v["key"]: v for v in record["verdicts"]}
    edge = verdicts["seats/edge"]
    assert edge["state"] == "open" and edge["settled_at"] is None
    assert edge["out_of_reach_at"] is not None and edge["out_of_reach_at"] <= CAP // 2  # well before the cap
    assert edge["p_settle"] < DEFAULT_FUTILITY and (edge["needed"] is None or edge["needed"] > CAP)
    assert record["variants"]["edge"]["stopped_at"] == edge["out_of_reach_at"]
    # the clear verdicts still settle, early: fair within, unequal beyond
    assert verdicts["seats/fair"]["state"] == "within" and verdicts["seats/fair"]["settled_at"] <= CAP // 4
    assert verdicts["seats/unequal"]["state"] == "beyond" and verdicts["seats/unequal"]["settled_at"] <= 4_000
    assert record["outcome"] == "out_of_reach" and record["futility"] == DEFAULT_FUTILITY
    assert max(record["looks"]) < CAP
    # without futility the edge variant plays to the cap, and ends open all the same
    plain = synthetic_rule(0.0).record()[1]
    assert plain["outcome"] == "max_games" and plain["variants"]["edge"]["games"] == CAP
    assert {v["key"]: v["state"] for v in plain["verdicts"]}["seats/edge"] == "open"
    assert all(v["out_of_reach_at"] is None for v in plain["verdicts"])
    played = sum(v["games"] for v in record["variants"].values())
    assert played < sum(v["games"] for v in plain["variants"].values()) / 2


def test_the_predictive_chance_tracks_where_the_truth_sits():
    """At the same games, a seat at the band's edge is far less likely to settle by the cap than a seat at the fair
    share or far beyond; at the cap itself the chance is 1 or 0 (what the interval there says)."""
    n = np.array([8_000.0] * 3)
    won = n * np.array([0.25, 0.30, 0.40])
    got = reach(n, won, won, 0.0, 1.0, 0.25, 0.25, 0.05, 0.05 / 8, CAP)
    assert got[0].settle > 0.5 and got[2].settle > 0.99 and got[1].settle < 0.35
    assert got[2].beyond > 0.99 and got[0].within > 0.5
    at_cap = reach(np.array([float(CAP)]), np.array([0.25 * CAP]), np.array([0.25 * CAP]), 0.0, 1.0, 0.25, 0.25,
                   0.05, 0.05 / 8, CAP)[0]  # fmt: skip
    assert at_cap.settle == 1.0 and at_cap.within == 1.0  # ±5 points at 100,000 games: within, surely
    # the equal-seats question: within needs every seat, beyond any; the bound holds whatever the dependence
    combined = either([(Reach(0.9, 0.0, 1_000), 0.0), (Reach(0.2, 0.1, 9_000), 0.01)], 0.05)
    assert combined.within == 0.2 and combined.beyond == pytest.approx(0.1) and combined.needed == 9_000
    assert either([(Reach(0.0, 0.6, 3_000), 0.07), (Reach(0.9, 0.5, None), 0.0)], 0.05).settle == 1.0


@pytest.fixture(scope="module")
def futile(tmp_path_factory) -> Path:
    """The card design until settled, mars out of reach from 60 games (``settle_support.far``), on two workers."""
    base = tmp_path_factory.mktemp("futile")
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    return run_settled(sc, out=base / "out", jobs=2, progress=False, judge=far)


def test_a_run_stops_when_every_verdict_is_settled_or_out_of_reach(futile):
    s = stopping(futile)
    assert s["outcome"] == "out_of_reach" and s["futility"] == DEFAULT_FUTILITY
    assert s["looks"] == [20, 40, OUT_OF_REACH_AT]  # not on to the cap of 200
    assert s["variants"] == {
        "control": {"games": 60, "stopped_at": 60},
        "jupiter_seat0": {"games": 40, "stopped_at": 40},
        "junon_seat1": {"games": 40, "stopped_at": 40},
        "mars_seat2": {"games": 60, "stopped_at": 60},
    }
    mars = {v["key"]: v for v in s["verdicts"]}["mars_seat2"]
    assert (mars["state"], mars["settled_at"], mars["out_of_reach_at"]) == ("open", None, 60)
    assert (mars["p_settle"], mars["needed"]) == (0.01, 10_000)
    # the readers say it: the outcome, the rule, the table's reason
    block = read_stopping(json.loads((futile / "manifest.json").read_text()))
    assert "Stopped out of reach after 60 games" in outcome_sentence(block)
    assert "1 of them out of reach of 200 games" in outcome_sentence(block)
    assert "or out of reach (the predictive probability that it settles by 200 games below 5%" in rule_sentence(block)
    row = needed_table(block).filter(pl.col("key") == "mars_seat2").to_dicts()[0]
    assert not_settled(row, 200) == (
        "not settled: out of reach of max_games 200 (P(settle) = 1%); about 10,000 games at the current estimate"
    )


def test_a_run_stopped_out_of_reach_holds_the_rows_of_a_fixed_run(futile, tmp_path):
    text = CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 60\n")
    fixed = run_fixed(parse_scenario(text, source="cards.toml", default_name="cards"), out=tmp_path / "fixed", jobs=1,
                      chunk_size=7, progress=False)  # fmt: skip
    stops = {name: v["games"] for name, v in stopping(futile)["variants"].items()}
    cut = pl.DataFrame({"variant": list(stops), "_stop": list(stops.values())})
    expected = rows(fixed).join(cut, on="variant").filter(pl.col("game") < pl.col("_stop")).drop("_stop")
    assert rows(futile).equals(expected.sort("variant", "game", "seat"))


@pytest.mark.parametrize("kill_after", [18, 16], ids=["mid-batch", "before-the-look"])
def test_a_run_killed_mid_batch_resumes_to_the_same_out_of_reach_stop(futile, tmp_path, kill_after):
    out = tmp_path / "out"
    run_killed(out, kill_after, "far")
    assert stopping(out)["outcome"] is None
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    run_settled(sc, out=out, jobs=2, progress=False, judge=far, resume=True)
    assert rows(out).equals(rows(futile))
    assert stopping(out) == stopping(futile)


def test_a_changed_threshold_on_resume_is_refused(futile, tmp_path):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(futile, out)
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    with pytest.raises(ScenarioError, match=r"began with futility 0\.05, not 0\.1: .* resume with the same --futility"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=far, resume=True, futility=0.1)
    with pytest.raises(ScenarioError, match="stopped with every verdict settled or out of reach of 200 games"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=far, resume=True, max_games=400)
    # the same threshold (or none given): the finished run, nothing to play, the same record
    run_settled(sc, out=out, jobs=1, progress=False, judge=far, resume=True)
    assert stopping(out) == stopping(futile)


def test_a_record_without_futility_resumes_without_it(futile, tmp_path):
    """A folder of the rule before futility had none: resumed, it keeps none (and refuses a threshold)."""
    import shutil

    out = tmp_path / "out"
    shutil.copytree(futile, out)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["stopping"]["futility"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    with pytest.raises(ScenarioError, match=r"began with futility 0, not 0\.05"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=far, resume=True, futility=0.05)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("futility = 1.5", "key 'futility': expected the chance of settling by max_games"),
        ('futility = "often"', "key 'futility'"),
    ],
)
def test_a_bad_futility_key_is_refused(change, message):
    with pytest.raises(ScenarioError, match=message):
        parse_scenario(CARDS.replace("tolerance = 2.0\n", f"tolerance = 2.0\n{change}\n"), source="c.toml")


def test_futility_belongs_to_a_run_until_settled(tmp_path):
    text = CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 60\nfutility = 0.1\n")
    with pytest.raises(ScenarioError, match="key 'futility' belongs to a run until settled"):
        parse_scenario(text, source="c.toml")
    fixed = parse_scenario(CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 60\n"),
                           source="c.toml")  # fmt: skip
    with pytest.raises(ScenarioError, match="--futility: belongs to a run until settled"):
        run_settled(fixed, out=tmp_path / "o", progress=False, futility=0.1)
    with pytest.raises(ScenarioError, match="--futility: expected a probability"):
        run_settled(fixed, out=tmp_path / "o", progress=False, until="settled", futility=1.0)


def test_the_command_refuses_futility_without_until(tmp_path):
    from click.testing import CliRunner

    from simlab.cli import cli

    scenario = tmp_path / "c.toml"
    scenario.write_text(CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 60\n"))
    for args, message in (
        (["--futility", "0.1"], "--futility: belongs to a run until settled"),
        (["--until", "settled", "--futility", "1"], "--futility"),
    ):
        result = CliRunner().invoke(cli, ["run", str(scenario), *args, "--out", str(tmp_path / "o")])
        assert result.exit_code == 2 and message in result.output, result.output
        assert not (tmp_path / "o").exists(), "refused before anything is written"


def test_a_real_card_design_whose_cap_is_too_small_stops_within_the_first_looks(tmp_path):
    """Massilia's cards at a cap of 200 games: an interval valid at every look is still about ±0.5 there, so the
    cards are out of reach within the first looks (by 60 games; jupiter, at +17 points after 40 games, was given one
    more look) and the run stops; without futility it plays to the cap and they end open all the same."""
    sc = parse_scenario(CARDS, source="cards.toml", default_name="cards")
    folder = run_settled(sc, out=tmp_path / "real", jobs=1, progress=False)
    s = stopping(folder)
    assert s["outcome"] == "out_of_reach" and s["looks"][-1] <= 60
    assert all(v["out_of_reach_at"] is not None and v["p_settle"] < 0.05 for v in s["verdicts"])
    assert sum(v["games"] for v in s["variants"].values()) <= 4 * 60
    # a fixed run's folder read with each variant's own count holds what the stopped run held (how a replay reads)
    from simlab.analysis.sequential import settled_verdicts

    text = CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 200\n")
    fixed = run_fixed(parse_scenario(text, source="cards.toml", default_name="cards"), out=tmp_path / "fixed",
                      jobs=1, progress=False)  # fmt: skip
    stops = {name: v["games"] for name, v in s["variants"].items()}
    assert len(set(stops.values())) > 1, "the variants stopped at different looks"
    held = settled_verdicts(folder, 2.0, family="headline", cap=200)
    assert settled_verdicts(fixed, 2.0, family="headline", cap=200, games=stops) == held
    assert settled_verdicts(fixed, 2.0, family="headline", cap=200, games=max(stops.values())) != held
    plain = stopping(run_settled(sc, out=tmp_path / "plain", jobs=1, progress=False, futility=0.0))
    assert plain["outcome"] == "max_games" and plain["looks"][-1] == 200
    assert [v["state"] for v in plain["verdicts"]] == ["open"] * 3  # what futility foresaw


def test_the_report_and_json_say_why_a_verdict_is_not_settled(futile):
    from click.testing import CliRunner

    from simlab.cli import cli
    from simlab.report.context import load_context
    from simlab.report.sections.stopping import stopping_section

    sec, _ = stopping_section(load_context(futile, 0.95))
    assert sec is not None
    cells = [row[-1] for row in sec.tables[0].rows]
    assert cells[-1].startswith("not settled: out of reach of max_games 200 (P(settle) = 1%); about 10,000 games")
    assert sec.findings[0].text.startswith("Stopped out of reach after 60 games")
    result = CliRunner().invoke(cli, ["cards", str(futile), "--json"], catch_exceptions=False)
    block = json.loads(result.stdout)["stopping"]
    assert block["outcome"] == "out_of_reach" and block["futility"] == DEFAULT_FUTILITY
    mars = {v["key"]: v for v in block["verdicts"]}["mars_seat2"]
    assert (mars["out_of_reach_at"], mars["p_settle"], mars["needed"]) == (60, 0.01, 10_000)


def test_a_verdict_out_of_reach_stays_so_when_another_plays_to_the_cap():
    """The look at the cap decides nothing new: a verdict put out of reach earlier keeps its look and reason, while
    the run ends at max_games for the variant still in reach."""
    from simlab.analysis.sequential import Verdict

    reached = {"a": 0, "b": 0}

    def judge(_folder: Path, tolerance: float, alpha: float) -> list:
        a = 0.01 if reached["a"] >= 40 else 0.5  # out of reach from 40 games on
        return [
            Verdict("seats/a", "a", ("a",), 0.05, -0.2, 0.3, reached["a"], "open", 0, a, 5_000),
            Verdict("seats/b", "b", ("b",), 0.05, -0.2, 0.3, reached["b"], "open", 0, 0.5, 300),
        ]

    s = Settle(Rule(1.0, 0.05, 200, "headline", 0.05), ["a", "b"], 20, judge, players=2)
    s.begin({})
    now = dict(reached)
    while (want := s.targets(Path("."), now)) != now:
        now = dict(want)
        reached.update(want)
    record = s.record()[1]
    verdicts = {v["key"]: v for v in record["verdicts"]}
    assert record["outcome"] == "max_games" and record["looks"][-1] == 200
    assert record["variants"] == {"a": {"games": 40, "stopped_at": 40}, "b": {"games": 200, "stopped_at": None}}
    assert verdicts["seats/a"]["out_of_reach_at"] == 40 and verdicts["seats/b"]["out_of_reach_at"] is None
    block = read_stopping({"stopping": record})
    assert "with 2 of 2 verdicts still open; 1 of them out of reach of 200 games" in outcome_sentence(block)
    assert (
        not_settled(verdicts["seats/b"], 200) == "not settled at max_games 200; about 300 games at the current estimate"
    )


def test_the_progress_note_counts_the_out_of_reach_and_shows_the_open_in_reach(tmp_path):
    """An out-of-reach verdict waits for no game: the note counts it apart, shows the bands still in reach, and the
    time to settle leaves it out."""
    from simlab.analysis.sequential import Verdict

    times = iter([0.0, 10.0])
    s = Settle(Rule(2.0, 0.05, 10_000, "headline", 0.05), ["a", "b"], 100, clock=lambda: next(times))

    def bands(folder: Path, tolerance: float, alpha: float) -> list:
        a, b = s.reached["a"], s.reached["b"]
        return [
            Verdict("seats/a", "a", ("a",), 0.001, -0.5, 0.5, a, "open", 0, 0.001, None),  # wide, hopeless
            Verdict("seats/b", "b", ("b",), 0.001, 0.001 - 0.03, 0.001 + 0.03, b, "open", 0, 0.6, 400),
        ]

    s.judge = bands
    assert s.targets(tmp_path, {"a": 100, "b": 100}) == {"a": 100, "b": 200}  # a is out of reach and stops
    assert s.targets(tmp_path, {"a": 100, "b": 200}) == {"a": 100, "b": 300}
    note = s.note()
    assert note.startswith("| look 2 at 200: 2 of 2 open (1 out of reach) (seats/b +0.1 ±3.0;"), note
    # b's band (±3 at 200 games, 1.9 points from ±2) needs 200 (3/1.9)^2 = 499 games; a none: 299 at 10 games/s
    assert s.eta() == pytest.approx((499 - 200) / 10, rel=0.01)
