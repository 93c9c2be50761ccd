"""A report leads with its scenario's question (issue 32): a scenario names it with ``question = "markets"``
(the shipped market-shift scenarios do), so the market answer opens the summary instead of being folded under
"Other findings"; without the key a card-value run leads with the cards, a sensitivity run with the data
verdicts and any other run with the seats. A question the report cannot ask is refused before anything runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli
from simlab.report import build_report
from simlab.report.model import Section
from simlab.report.sections import lead_first, registered
from simlab.run.scenario import QUESTIONS, ScenarioError, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[2]


def _sections(*ids: str) -> list[Section]:
    return [Section(i, i.title(), f"{i}?") for i in ids]


def test_the_named_question_leads_then_a_leading_section_then_the_first():
    built = _sections("seats", "markets", "balance")
    assert [s.id for s in lead_first(built, "markets")] == ["markets", "seats", "balance"]
    assert [s.id for s in lead_first(built, "balance")] == ["balance", "seats", "markets"]
    assert [s.id for s in lead_first(built)] == ["seats", "markets", "balance"]
    cards = _sections("seats", "cards", "markets", "balance")
    assert [s.id for s in lead_first(cards)] == ["cards", "seats", "markets", "balance"]
    # a named question the results do not support (no market in this game): the usual lead, not a gap
    assert [s.id for s in lead_first(cards[:2] + cards[3:], "markets")] == ["cards", "seats", "balance"]


def test_every_question_a_scenario_may_name_is_a_registered_section():
    assert set(QUESTIONS) <= {k.id for k in registered()}


@pytest.mark.parametrize("name", ["market_shifts", "mov_market_shifts"])
def test_the_shipped_market_scenarios_ask_about_markets(name):
    scenario = load_scenario(ROOT / "scenarios" / f"{name}.toml")
    assert scenario.question == "markets"


def test_a_market_scenario_report_opens_with_the_market_answer(tmp_path):
    scenario = ROOT / "scenarios" / "market_shifts.toml"
    folder = simlab.run_scenario(scenario, games=40, jobs=1, out=tmp_path / "results", progress=False, chunk_size=40)
    report = build_report(folder)
    assert report.sections[0].id == "markets"
    markets = report.sections[0]
    assert report.answer == [f for f in markets.findings if f.headline] and report.answer
    assert "seats" in [s.id for s in report.sections[1:]]
    assert not any(f in report.secondary for f in markets.findings)


def test_a_question_the_report_cannot_ask_is_refused_before_anything_runs(tmp_path):
    text = (
        (ROOT / "scenarios" / "market_shifts.toml").read_text().replace('question = "markets"', 'question = "market"')
    )
    with pytest.raises(ScenarioError, match=r"key 'question': expected one of 'seats', 'cards', 'markets'"):
        parse_scenario(text, source="bad.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    result = CliRunner().invoke(cli, ["run", str(bad), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "bad.toml: key 'question'" in result.stderr and 'found "market"' in result.stderr
    assert not (tmp_path / "out").exists()
