"""A report section is one file (issue 33, item 3): the registry in ``simlab.report.sections`` finds the shipped
sections in their order, and a section registered from this one test file appears in the report and its page
without any other file changing. The registry is restored after each test, so later tests never meet it."""

from __future__ import annotations

from pathlib import Path

import pytest

from simlab.report import sections
from simlab.report.build import build_report
from simlab.report.context import Context
from simlab.report.html import render
from simlab.report.model import Finding, Section, Table


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sections, "_REGISTRY", dict(sections._REGISTRY))


def test_the_shipped_sections_are_registered_in_report_order():
    ids = [k.id for k in sections.registered()]
    assert ids == ["seats", "stopping", "cards", "markets", "balance", "sensitivity", "robust"]


def test_a_section_from_one_file_appears_in_the_report(registry, quick_folder: Path):
    @sections.register("tally", "variant tally", order=35)
    def tally(ctx: Context) -> tuple[Section | None, str]:
        sec = Section("tally", "Variant tally", "How many variants does this run compare?")
        sec.findings.append(Finding(f"This run compares {len(ctx.variants)} variants.", "info", headline=False))
        sec.tables.append(
            Table("Games per variant", ["variant", "games"], [[v, str(ctx.games[v])] for v in ctx.variants])
        )
        return sec, ""

    lines: list[str] = []
    report = build_report(quick_folder, progress=lines.append)
    ids = [s.id for s in report.sections]
    assert ids.index("markets") < ids.index("tally") < ids.index("balance")
    tally_section = report.sections[ids.index("tally")]
    assert tally_section.findings[0].text == "This run compares 3 variants."
    assert any(line.startswith("  variant tally: ") for line in lines)
    page = render(report)
    assert 'id="tally"' in page and "This run compares 3 variants." in page and "Games per variant" in page


def test_a_section_the_results_do_not_support_says_why(registry, quick_folder: Path):
    @sections.register("never", "never", order=99)
    def never(ctx: Context) -> tuple[Section | None, str]:
        return None, "Never: not in these results (it needs nothing this run has)."

    report = build_report(quick_folder)
    assert "never" not in [s.id for s in report.sections]
    assert "Never: not in these results (it needs nothing this run has)." in report.not_covered


def test_the_registry_is_back_to_the_shipped_sections():
    assert "tally" not in [k.id for k in sections.registered()]
