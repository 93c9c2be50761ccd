"""The report's words come from the game (issue 17): the seats heading and the scenario pointers from the
game's declared units and scenarios, the variants table without the run's player count as a "change from
the rules", and its "Marked rows ..." note only when a row is marked."""

from __future__ import annotations

import types

from simlab.report.build import build_report
from simlab.report.flags import VariantChange
from simlab.report.html import render
from simlab.report.overview import variants_table


def test_a_roma_report_speaks_roma(roma_folder):
    report = build_report(roma_folder)
    seats = next(s for s in report.sections if s.id == "seats")
    assert seats.title == "Seats and starting sestertii"
    assert "sestertii" in seats.question
    page = render(report)
    assert "Seats and starting money" not in page
    # a pointer names Roma's own scenario, never a Massilia one
    assert "starting_money_sweep.toml" not in page and "scenarios/card_value.toml" not in page
    assert any("scenarios/roma_card_value.toml" in n for n in report.not_covered)


def test_a_massilia_report_points_to_massilia_scenarios(quick_folder):
    report = build_report(quick_folder)
    seats = next(s for s in report.sections if s.id == "seats")
    assert seats.title == "Seats and starting sesterces"
    assert any("scenarios/starting_money_sweep.toml" in n for n in seats.notes)
    assert any("scenarios/card_value.toml" in n for n in report.not_covered)


def _ctx(players: int) -> types.SimpleNamespace:
    variants = [{"name": "rulebook", "config_hash": "a"}, {"name": "quined2014", "config_hash": "b"}]
    return types.SimpleNamespace(manifest={"players": players, "variants": variants}, base="rulebook")


def test_the_runs_player_count_is_not_a_change_from_the_rules():
    changes = [
        VariantChange("rulebook", "players", "rulebook", "4", "3"),
        VariantChange("quined2014", "players", "rulebook", "4", "3"),
        VariantChange("quined2014", "hand_limit", "rulebook", "4", "3"),
    ]
    table = variants_table(_ctx(3), changes)
    cells = {row[0]: row[4] for row in table.rows}
    assert cells["rulebook (base)"] == "the published rules"
    assert cells["quined2014"] == "hand_limit = 3 (rules: 4)"
    assert table.note == "" and not any(table.marked)


def test_the_marked_rows_note_only_when_a_row_is_marked():
    changes = [VariantChange("quined2014", "money_per_point", "assumption", "3", "2")]
    table = variants_table(_ctx(4), changes)
    assert table.marked == [False, True]
    assert table.note.startswith("Marked rows change an assumption")
