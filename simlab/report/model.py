"""The report's data model: what the HTML shows, as plain strings (escaped by the template) and chart URIs.

Every section module builds a :class:`Section` of :class:`Finding`, :class:`Table` and :class:`Chart`;
``simlab.report.build`` gathers them into a :class:`Report` and ``simlab.report.html`` renders it.
"""

from __future__ import annotations

import dataclasses

from simlab.report.flags import ConfigFlag


@dataclasses.dataclass
class Chart:
    """An embedded chart: title, ``data:`` URI of its SVG, the caption under it and alt text."""

    title: str
    src: str
    caption: str
    alt: str


@dataclasses.dataclass
class Table:
    """A small table of formatted cells; ``collapsed`` tables start folded (long, secondary detail)."""

    title: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""
    collapsed: bool = False
    marked: list[bool] = dataclasses.field(default_factory=list)

    @property
    def numeric(self) -> list[bool]:
        """Per column: every filled cell is a number (right-aligned in the page); text stays left-aligned."""

        def is_number(cell: str) -> bool:
            return cell in ("–", "") or cell.lstrip("+−-[<p =")[:1].isdigit()

        return [all(is_number(row[i]) for row in self.rows) and i > 0 for i in range(len(self.header))]


@dataclasses.dataclass
class Finding:
    """One plain-words result with its interval and games; ``tone`` is warn (imbalance), ok or info."""

    text: str
    tone: str = "info"
    headline: bool = True


@dataclasses.dataclass
class Section:
    """One analysis: what it asks, what it found, its charts and tables, and notes on how to read them."""

    id: str
    title: str
    question: str
    findings: list[Finding] = dataclasses.field(default_factory=list)
    charts: list[Chart] = dataclasses.field(default_factory=list)
    tables: list[Table] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Report:
    """Everything the HTML shows, as strings (escaped by the template) and chart URIs."""

    title: str
    description: str
    meta: list[tuple[str, str]]
    headlines: list[Finding]  # every headline: ``answer`` then ``secondary``
    answer: list[Finding]  # the headlines of the section that answers the scenario's question
    secondary: list[Finding]  # the other sections' headlines (the summary shows them folded)
    sections: list[Section]
    not_covered: list[str]
    variants: Table
    flags: list[ConfigFlag]
    run_notes: list[str]
    reproduce: list[tuple[str, str]]
    reproduce_notes: list[str]
    scenario_text: str
    scenario_source: str
    simlab_version: str
    build_seconds: float = 0.0
    #: what the summary's intervals are, when not the page's level ("" : "its <level> interval")
    interval_note: str = ""
