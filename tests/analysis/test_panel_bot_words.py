"""A fix's certification panel says the search bot with its budget: "the search bot at 32 playouts per decision in
every seat", not the spec "race:iterations=32" (issue 34: "the search bot at a stated budget"). A heuristic keeps
its name; the JSON keeps the spec (the rerun command needs it)."""

from __future__ import annotations

import pytest

from simlab.analysis import fix_words as W
from simlab.analysis.bot_words import bot_words


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("race:iterations=32", "the search bot at 32 playouts per decision"),
        ("race", "the search bot at 64 playouts per decision"),
        ("ismcts", "the search bot at 64 playouts per decision"),
        ("race:iterations=8,depth=40", "the search bot at 8 playouts per decision, each cut after 40 decisions"),
        ("race:iterations=16,rollout=devout", "the search bot at 16 playouts per decision, rolled out by devout"),
        ("ismcts:candidates=0,iterations=200,c=0.7", "the tree search at 200 iterations per decision"),
        ("race:candidates=8,iterations=400", "the search bot at 400 playouts per decision over 8 candidates"),
        ("builder", "builder"),
        ("trader:token_cost=3", "trader:token_cost=3"),
    ],
)
def test_a_bot_spec_is_said_with_its_budget(spec, said):
    assert bot_words(spec) == said


SEARCH = "race:iterations=32"


def _entry(bot: str, fair: bool) -> dict:
    return {"bot": bot, "fair": fair, "worst_deviation": 0.016, "lo": 0.009, "hi": 0.023, "n": 20000}


def test_the_panel_rows_and_the_headline_name_the_search_bot_with_its_budget():
    result = {
        "status": "not_certified",
        "tolerance": 1.0,
        "change": {"settings": [{"knob": "start_vp", "published": [10, 10], "value": [9, 11], "steps": 2}]},
        "panel": [_entry("lineup: builder,warrior", True), _entry("builder", True), _entry(SEARCH, False)],
        "guards": [],
        "games": {"total": 380000},
    }
    rows = [r[0] for r in W.panel_rows(result)]
    assert rows == ["the lineup builder, warrior", "builder in every seat",
                    "the search bot at 32 playouts per decision in every seat"]  # fmt: skip
    text, tone = W.headline(result, W.vocabulary("roma", ["start_vp"]))
    assert tone == "warn" and "NOT certified" in text, text
    assert "the test failed for the search bot at 32 playouts per decision (worst seat" in text, text
    assert "race:iterations=32" not in text


def test_a_certified_headline_names_the_search_bot_with_its_budget():
    result = {
        "status": "certified",
        "tolerance": 1.0,
        "change": {"settings": [{"knob": "start_vp", "published": [10, 10], "value": [9, 11], "steps": 2}]},
        "panel": [_entry("lineup: builder,warrior", True), _entry("builder", True), _entry(SEARCH, True)],
        "guards": [],
    }
    text, tone = W.headline(result, W.vocabulary("roma", ["start_vp"]))
    assert tone == "ok", text
    assert "builder and the search bot at 32 playouts per decision each in every seat" in text, text


def test_the_report_states_the_question_panel_with_the_search_budget_and_its_spec():
    from simlab.report.fix_report import question_rows

    ident = {"tolerance": 1.0, "panel": ["builder", "race:iterations=32"]}
    rows = dict(question_rows(ident, "", W.vocabulary("roma")))
    assert rows["fix.panel"] == (
        "each in every seat: builder, the search bot at 32 playouts per decision (race:iterations=32)"
    ), rows


ROMA = (
    'game = "roma"\nplayers = 2\nlineup = ["builder", "warrior"]\ngames = 1000\nseed = 3\npreset = "rulebook"\n'
    "[fix]\ntolerance = 3\nbudget = 20000\ncertify_games = 2000\npanel = {panel}\n"
    "[fix.knobs]\nstart_vp = {{ seats = [[8, 10], [10, 13]] }}\n"
)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("race:iterations=0", "iterations >= 1"),
        ("race:c=0.7", "c is a parameter of the tree"),
        ("race:iterations=many", "must be a number"),
        ("race:playouts=32", "no parameter 'playouts'"),
    ],
)
def test_a_search_bot_with_a_bad_budget_in_the_panel_is_refused_naming_the_key(tmp_path, spec, says):
    from click.testing import CliRunner

    from simlab.cli import cli

    path = tmp_path / "q.toml"
    path.write_text(ROMA.format(panel=f'["builder", "{spec}"]'))
    result = CliRunner().invoke(cli, ["fix", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "key 'fix.panel[1]'" in result.stderr and says in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_the_search_bot_at_a_stated_budget_is_a_panel_bot(tmp_path):
    from simlab.run.fix_table import fix_question_from_scenario
    from simlab.run.scenario import load_scenario

    path = tmp_path / "q.toml"
    path.write_text(ROMA.format(panel='["builder", "race:iterations=32"]'))
    assert fix_question_from_scenario(load_scenario(path)).panel == ("builder", "race:iterations=32")
