"""Tables and sentences as the page draws them (issue 32): a wide table is folded into groups of columns that
fit the page, each led by its first column; a flag's values in a many-variant report are grouped by value; and
every sentence, note and cell reads "p < 1e-12" and 0.0, whichever module wrote it."""

from __future__ import annotations

import dataclasses

from simlab.report import html
from simlab.report.model import Finding, Section, Table


def _wide(columns: int = 49) -> Table:
    header = ["seat", *(f"variant_{k:02d}" for k in range(columns - 1))]
    rows = [
        [f"seat {s}", *(f"{40 + s:.1f} [{38 + s:.1f}, {42 + s:.1f}]" for _ in range(columns - 1))] for s in range(4)
    ]
    return Table("Win share by seat", header, rows, marked=[False, True, False, False])


def test_a_wide_table_is_folded_into_groups_led_by_its_first_column():
    table = _wide(49)
    groups = html.column_groups(table)
    assert len(groups) > 1
    shown = [h for g in groups for h in g.header[1:]]
    assert shown == table.header[1:]  # every column once, in order
    for g in groups:
        assert g.header[0] == "seat" and [row[0] for row in g.rows] == [f"seat {s}" for s in range(4)]
        assert g.numeric == [False] + [True] * (len(g.header) - 1)
        px = sum(html._column_px([g.header[i], *(r[i] for r in g.rows)]) for i in range(len(g.header)))
        assert px <= html.TABLE_WIDTH_PX
    sizes = [len(g.header) - 1 for g in groups]
    assert max(sizes) - min(sizes) <= 1  # even groups, not a straggler of one column
    assert groups[0].label == f"columns 2–{sizes[0] + 1} of 49" and groups[-1].label.endswith("–49 of 49")


def test_a_table_that_fits_is_whole():
    # the report's seat table: 8 columns of intervals fit the page (their cells may wrap) and stay one table
    header = ["variant", "seat", "games", "win share", "mean score", "mean rank", "first place", "last place"]
    rows = [
        ["rulebook", f"seat {s}", "400", "25.1 [21.0, 29.6]", "48.2 [47.1, 49.3]"] + ["2.5 [2.4, 2.6]"] * 3
        for s in range(4)
    ]
    groups = html.column_groups(Table("Seats", header, rows))
    assert len(groups) == 1 and groups[0].label == "" and groups[0].header == header


def test_flag_values_grouped_by_value():
    values = {f"v{k}": "1" for k in range(48)} | {"beige2": "2"}
    assert html.values_by_value(values) == "2 in beige2; 1 in the other 48 variants"
    assert html.values_by_value({"a": "3", "b": "3"}) == "3 in every variant"
    assert html.values_by_value({"a": "1", "b": "2", "c": "2", "d": "2"}) == "1 in a; 2 in the other 3 variants"


@dataclasses.dataclass
class _Page:
    sections: list[Section]
    scenario_text: str
    reproduce: list[tuple[str, str]]


def test_every_sentence_is_tidied_but_code_is_kept():
    section = Section(
        "seats",
        "Seats",
        "Is any seat favoured?",
        findings=[Finding("all seats equal? p = <1e-12; seat 2 wins −0.0 points [−0.0, +1.3]")],
        tables=[Table("t", ["seat", "change"], [["seat 1", "-0.0 [-0.4, +0.4]"]], note="interaction p = <1e-4")],
        notes=["a bound of −0.00%"],
    )
    page = _Page([section], scenario_text="set = { tilt = -0.0 }", reproduce=[("run", "simlab run --set x=-0.0")])
    out = html.tidied(page)
    s = out.sections[0]
    assert s.findings[0].text == "all seats equal? p < 1e-12; seat 2 wins 0.0 points [0.0, +1.3]"
    assert s.tables[0].rows == [["seat 1", "0.0 [-0.4, +0.4]"]] and s.tables[0].note == "interaction p < 1e-4"
    assert s.notes == ["a bound of 0.00%"]
    assert out.scenario_text == "set = { tilt = -0.0 }" and out.reproduce == page.reproduce  # verbatim
    assert section.findings[0].text.startswith("all seats equal? p = <")  # the model itself is not changed


def test_charts_are_drawn_at_their_own_width():
    # every chart's text the same size on the page: a grid of panels is drawn wider, not shrunk to one chart's
    from test_chart_legends import CHARTS

    from simlab.report.embed import svg_data_uri

    single = html.chart_width(svg_data_uri(CHARTS["seat win shares"]()))
    panels = html.chart_width(svg_data_uri(CHARTS["market, many lines"]()))
    assert 600 < single < panels <= html.MAX_CHART_WIDTH
    assert html.chart_width("data:image/png;base64,AAAA") == html.CHART_WIDTH
