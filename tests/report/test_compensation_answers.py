"""Compensation answers a designer can act on: a folder whose variants differ in more than the money is refused
with the report's own words, and no point estimate is ever printed or charted beside an unbounded interval."""

from __future__ import annotations

import math
import re

import polars as pl
import pytest
from click.testing import CliRunner

import simlab
from simlab import analysis as A
from simlab.analysis import stats
from simlab.analysis.frames import roles
from simlab.analysis.sweep import base_variant, not_a_sweep, sweep_example
from simlab.cli import cli
from simlab.report import charts
from simlab.report.build import build_report
from simlab.report.html import render

UNBOUNDED = re.compile(r"inf\b|∞")


def _configs(folder):
    manifest = simlab.load_manifest(folder)
    configs = {v["name"]: v["config"] for v in manifest["variants"]}
    return configs, base_variant(manifest, configs)


def test_compensation_refuses_a_mixed_folder_with_the_reports_message(quick_folder):
    """quickstart-like: the 2014 preset changes the hand limit and markers as well as the money."""
    configs, base = _configs(quick_folder)
    message = not_a_sweep(configs, base, "start_money", sweep_example("massilia"))
    assert "such as scenarios/starting_money_sweep.toml" in message  # the game's own sweep scenario
    assert "quined2014 also changes" in message and "hand_limit" in message
    seats = next(s for s in build_report(quick_folder).sections if s.id == "seats")
    assert message in seats.notes
    result = CliRunner().invoke(cli, ["compensation", str(quick_folder)])
    assert result.exit_code == 2
    message = not_a_sweep(configs, base, "start_money", sweep_example("massilia"), "massilia")  # its compensate
    assert message in result.output.replace("\n", " ") or message in result.stderr.replace("\n", " ")
    assert "Traceback" not in result.output
    with pytest.raises(A.AnalysisError, match="No compensation fit"):
        A.compensation(quick_folder)


def test_compensation_fits_only_the_money_variants_of_a_card_folder(cards_folder):
    result = CliRunner().invoke(cli, ["compensation", str(cards_folder)])
    assert result.exit_code == 0, result.output
    left_out = (
        "left out of the fit: 2 variant(s) that change more than the starting sesterces (mercure_seat1, pluton_seat2)"
    )
    assert result.stdout.rstrip().endswith(left_out)  # after the answer, not before it
    fit = A.compensation(cards_folder)
    rows = A.as_lazy(cards_folder).filter(pl.col("variant").is_in(["control", "money2_seat3", "money4_seat3"]))
    alone = A.compensation(rows).fit
    assert fit.fit["games"].to_list() == alone["games"].to_list() == [600]  # 3 variants x 200 games, seat 3
    assert fit.fit["b"].to_list() == pytest.approx(alone["b"].to_list())


@pytest.fixture
def no_slope(monkeypatch):
    """Every Fieller interval unbounded, as when the money slope is not yet significant."""
    monkeypatch.setattr(stats, "fieller", lambda *a, **k: (-math.inf, math.inf))


def test_no_unbounded_interval_in_the_cli(cards_folder, no_slope):
    for command in ("compensation", "cards"):
        result = CliRunner().invoke(cli, [command, str(cards_folder)])
        assert result.exit_code == 0, result.output
        assert not UNBOUNDED.search(result.output), result.output
        assert re.search(r"not determined with [\d,]+ games; (about [\d,]+ more needed|the slope)", result.output)


def test_no_unbounded_interval_in_the_report(cards_folder, no_slope):
    report = build_report(cards_folder)
    seats = next(s for s in report.sections if s.id == "seats")
    texts = [f.text for s in report.sections for f in s.findings]
    cells = [c for s in report.sections for t in s.tables for row in t.rows for c in row]
    assert any("fair starting money is not determined with" in t for t in texts)
    assert not any(UNBOUNDED.search(t) for t in texts + cells)
    assert any("not determined with" in c for c in cells)  # the card table's money column and the fit table
    assert any("more needed" in f.text or "indistinguishable" in f.text for f in seats.findings)
    html = render(report)
    assert "[−∞" not in html and "+∞]" not in html


def test_no_unbounded_point_in_the_charts(cards_folder, no_slope):
    comp = A.compensation(cards_folder)
    fig = charts.compensation_curve(comp)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(t.startswith("fair offset not determined with") for t in legend)
    assert not any(UNBOUNDED.search(t) for t in legend)
    value = A.card_value(cards_folder)
    fig = charts.card_value_forest(value, units=roles(cards_folder).units)
    assert len(fig.axes) == 1  # no secondary money axis from an undetermined price
    caption = " ".join(t.get_text() for t in fig.texts + fig.axes[0].texts)
    assert "No sesterce axis: the price is not determined" in caption
