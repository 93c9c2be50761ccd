"""The example report committed in reports/ is the report simlab writes today (issue 32): its sections, their
order and their tables are those of a report built now from the quickstart scenario, and it was run from the
scenario file as it ships, at its full size. When the report changes, `make example-report` writes it again."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "reports" / "example_quickstart.html"
SCENARIO = ROOT / "scenarios" / "quickstart.toml"
REGENERATE = "out of date: regenerate it with `make example-report` (Makefile)"


def outline(text: str) -> list[str]:
    """The report's skeleton: section ids, headings and table titles, in order (no figures)."""
    marks = re.findall(r'<section id="([^"]+)"|<h2>(.*?)</h2>|<h3>(.*?)</h3>', text)
    return [html.unescape(next(m for m in mark if m)) for mark in marks]


@pytest.fixture(scope="module")
def report_today(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The quickstart scenario as it ships, 200 games per variant, reported by today's simlab."""
    import simlab
    from simlab.report import write_report

    base = tmp_path_factory.mktemp("example")
    folder = simlab.run_scenario(SCENARIO, games=200, jobs=1, out=base / "quickstart", progress=False)
    return Path(write_report(folder, out=base / "report.html")).read_text()


def test_the_example_has_the_sections_of_todays_report(report_today):
    assert outline(EXAMPLE.read_text()) == outline(report_today), REGENERATE


def test_the_example_is_the_shipped_quickstart_at_full_size():
    import tomllib

    import simlab

    text = EXAMPLE.read_text()
    shown = re.search(r"Scenario file of the run .*?<pre>(.*?)</pre>", text, re.S)
    assert shown is not None and html.unescape(shown.group(1)).strip() == SCENARIO.read_text().strip(), REGENERATE
    games = tomllib.loads(SCENARIO.read_text())["games"]
    assert f"{games:,} games" in text, "the example was run at another size than the scenario's"
    assert f"simlab {simlab.__version__}" in text
