"""An intervention run (a game's shipped card-value scenario: grants and money offsets) is not a data-sensitivity
run: its experiment knobs carry provenance ``intervention``, so its report has no "does it hold for other
plausible data?" section and no finding that a seat's advantage "changes with the data"."""

from __future__ import annotations

from pathlib import Path

import pytest

import simlab
from simlab.analysis.sensitivity import sensitivity
from simlab.report import build_report

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("massilia", "roma", "pantheon", "merchant_of_venus")


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_intervention_knob_has_provenance_intervention(game):
    g = simlab.get_game(game)
    sources = {k["name"]: k["source"] for k in g.config_class.provenance()}
    for i in g.fact_set.interventions:
        for knob in (i.knob, i.seat_knob):
            # a knob whose default is a printed rule (Massilia's and Roma's starting money) keeps its source
            if knob and sources[knob] != "rulebook":
                assert sources[knob] == "intervention", (game, knob, sources[knob])


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_intervention_scenario_gets_no_sensitivity_section(game, tmp_path):
    from simlab.run.runner import run_scenario

    scenario = ROOT / simlab.get_game(game).scenarios["card_value"]
    folder = run_scenario(scenario, games=12, jobs=1, out=tmp_path / "results", progress=False, chunk_size=12)
    assert sensitivity(folder) is None
    report = build_report(folder)
    assert "sensitivity" not in [s.id for s in report.sections]
    texts = [f.text for s in report.sections for f in s.findings]
    assert not any("changes with the data" in t or "other plausible data" in t for t in texts)
    # nor the warning that the variants "measure those assumptions": a grant is not an assumption
    assert [f.field for f in report.flags if f.highlighted] == []
