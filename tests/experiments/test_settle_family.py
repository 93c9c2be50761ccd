"""Which verdicts a run until settled waits for (``settle = "headline" | "every"``): the headline family per design
(seats, sweep, card value) with its own, narrower Bonferroni split; the manifest records the family, a resume keeps
it, and a bad value is refused before anything runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from settle_support import CARDS, judge

from simlab.analysis.sequential import settled_verdicts
from simlab.analysis.stopping import read_stopping, rule_sentence
from simlab.cli import cli
from simlab.experiments.settle import run_scenario as run_settled
from simlab.run.errors import ScenarioError
from simlab.run.scenario import DEFAULT_SETTLE, parse_scenario

#: a sweep of seat 3's starting money: three variants, the first the base
SWEEP = """\
description = "settle family (test): a sweep of seat 3's starting money"
game = "massilia"
players = 4
games = 120
seed = 5
chunk_size = 60
lineup = ["trader", "priest", "trader", "priest"]
preset = "rulebook"

[variants.money0]
[variants.money2]
set = { start_money = [6, 6, 6, 8] }
[variants.money4]
set = { start_money = [6, 6, 6, 10] }
"""


def _play(tmp: Path, text: str, name: str) -> Path:
    from simlab.run.runner import run_scenario

    sc = parse_scenario(text, source=f"{name}.toml", default_name=name)
    return run_scenario(sc, out=tmp / name, jobs=1, progress=False)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory) -> Path:
    return _play(tmp_path_factory.mktemp("sweep"), SWEEP, "sweep")


@pytest.fixture(scope="module")
def seats(tmp_path_factory) -> Path:
    one = SWEEP.split("[variants.money0]")[0] + "[variants.rulebook]\n"
    return _play(tmp_path_factory.mktemp("seats"), one, "seats")


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> Path:
    text = CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 60\n")
    return _play(tmp_path_factory.mktemp("cards"), text, "cards")


def _keys(folder: Path, family: str) -> list[str]:
    return [v.key for v in settled_verdicts(folder, 5.0, family=family)]


def test_the_headline_family_of_a_seats_design_is_its_equal_seats_question(seats):
    assert _keys(seats, "headline") == ["seats/rulebook"]
    assert _keys(seats, "every") == ["seats/rulebook", *(f"seats/rulebook/seat {k}" for k in range(4))]


def test_the_headline_family_of_a_sweep_is_each_variants_equal_seats_question_with_a_narrower_split(sweep):
    assert _keys(sweep, "headline") == ["seats/money0", "seats/money2", "seats/money4"]
    every = {v.key: v for v in settled_verdicts(sweep, 5.0, family="every")}
    assert sum(k.startswith("change/") for k in every) == 8  # two variants against the base, four seats each
    for v in settled_verdicts(sweep, 5.0, family="headline"):
        same = every[v.key]
        assert v.estimate == same.estimate and v.n == same.n == 120
        # α split over the 12 seat intervals, not over those and the 8 changes: each bound is tighter
        assert v.hi < same.hi and v.lo >= same.lo


def test_the_headline_family_of_a_card_design_is_every_card(cards):
    head, every = (settled_verdicts(cards, 5.0, family=f) for f in ("headline", "every"))
    assert [v.key for v in head] == ["card/jupiter_seat0", "card/junon_seat1", "card/mars_seat2"]
    assert head == every  # the cards are the whole family: the same intervals


def test_an_unknown_family_is_refused(seats):
    from simlab.analysis.frames import AnalysisError

    with pytest.raises(AnalysisError, match="family 'all'"):
        settled_verdicts(seats, 5.0, family="all")


def test_a_run_records_its_family_and_states_it(tmp_path):
    text = SWEEP.replace("games = 120\n", 'until = "settled"\nmax_games = 60\ntolerance = 5.0\n')
    sc = parse_scenario(text, source="s.toml", default_name="s")
    assert sc.settle == DEFAULT_SETTLE == "headline"
    folder = run_settled(sc, out=tmp_path / "out", jobs=1, progress=False)
    manifest = json.loads((folder / "manifest.json").read_text())
    block = read_stopping(manifest)
    assert block["settle"] == "headline"
    assert [v["key"] for v in block["verdicts"]] == ["seats/money0", "seats/money2", "seats/money4"]
    # the recorded intervals are the headline family's (at the look each was last judged)
    last = {v.key: v for v in settled_verdicts(folder, 5.0, family="headline", games=block["looks"][-1])}
    for v in block["verdicts"]:
        if v["settled_at"] in (None, block["looks"][-1]):
            assert v["hi"] == pytest.approx(last[v["key"]].hi)
    said = rule_sentence(block)
    assert "headline verdicts only" in said and "no guarantee at every look" in said
    assert "headline" not in rule_sentence({**block, "settle": "every"})


def test_every_is_a_choice_and_a_resume_keeps_the_family(tmp_path):
    sc = parse_scenario(CARDS.replace("tolerance = 2.0\n", 'tolerance = 2.0\nsettle = "every"\n'), source="c.toml")
    assert sc.settle == "every"
    out = tmp_path / "out"
    run_settled(sc, out=out, jobs=1, progress=False, judge=judge, max_games=40)
    assert json.loads((out / "manifest.json").read_text())["stopping"]["settle"] == "every"
    with pytest.raises(ScenarioError, match="began waiting for the every verdicts"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True, settle="headline")
    run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True, max_games=80)  # the record's family
    assert json.loads((out / "manifest.json").read_text())["stopping"]["settle"] == "every"


def test_a_record_without_a_family_waited_for_every_verdict(tmp_path):
    sc = parse_scenario(CARDS, source="c.toml")
    out = tmp_path / "out"
    run_settled(sc, out=out, jobs=1, progress=False, judge=judge, max_games=40, settle="every")
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["stopping"]["settle"]  # a folder of the rule before the choice
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert read_stopping(manifest) is not None  # still a valid block
    with pytest.raises(ScenarioError, match="settle = 'every'"):
        run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True, settle="headline")
    # resumed without --settle: by the family it began with, not the scenario's default (headline)
    run_settled(sc, out=out, jobs=1, progress=False, judge=judge, resume=True, max_games=80)
    assert json.loads((out / "manifest.json").read_text())["stopping"]["settle"] == "every"


FIXED = CARDS.replace('until = "settled"\nmax_games = 200\ntolerance = 2.0\n', "games = 60\n")


@pytest.mark.parametrize(
    ("text", "args"),
    [(CARDS, ["--until", "settled", "--settle", "some"]), (FIXED, ["--settle", "headline"])],
    ids=["bad value", "a fixed run"],
)
def test_a_bad_settle_option_is_refused_with_exit_2(tmp_path, text, args):
    path = tmp_path / "c.toml"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["run", str(path), "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2, result.output
    assert "--settle" in result.output and "error:" in result.output
    assert not (tmp_path / "out").exists()


def test_a_bad_settle_key_is_refused_with_exit_2(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(CARDS.replace("tolerance = 2.0\n", 'tolerance = 2.0\nsettle = "all"\n'))
    result = CliRunner().invoke(cli, ["run", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "key 'settle'" in result.output and '"headline"' in result.output
    fixed = FIXED.replace("games = 60\n", 'games = 60\nsettle = "every"\n')
    with pytest.raises(ScenarioError, match="key 'settle' belongs to a run until settled"):
        parse_scenario(fixed, source="c.toml")
