"""Render a :class:`~simlab.report.build.Report` into one self-contained HTML file.

Jinja2 with autoescaping on: every name and description that comes from a scenario file (variant names,
bot specs, descriptions, the scenario text) is text in the page, never markup, so a variant called
``<script>`` shows as those characters. The CSS is inlined and the charts are ``data:`` URIs, so the file
opens offline, can be mailed or attached to an issue, and makes no network request.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe

from simlab.report import fmt
from simlab.report.build import build_report
from simlab.report.model import Report

if TYPE_CHECKING:
    from simlab.report.model import Table

TEMPLATES = Path(__file__).parent / "templates"
#: width in CSS pixels of a chart image whose size cannot be read (its SVG scales; the height follows)
CHART_WIDTH = 720
#: the widest a chart is drawn: the page's text column at a 1280-px window
MAX_CHART_WIDTH = 1044
_SVG_WIDTH = re.compile(rb'<svg[^>]*?\swidth="([0-9.]+)pt"')


#: Unicode bidirectional controls (embeddings, overrides, isolates, marks): text from a scenario file that
#: holds one would reorder the report's text around it, so each is shown as its code point instead
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def neutralise_bidi(value: object) -> object:
    """``value`` with every bidi control character written as ``[U+202E]`` (strings only; markup is kept)."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup) and BIDI_CONTROLS.search(value):
        return BIDI_CONTROLS.sub(lambda m: f"[U+{ord(m.group()):04X}]", value)
    return value


#: a table wider than this (estimated, in CSS pixels) is folded into column groups: the page's text column at a
#: 1280-px window is 1044 px (main's 1100 px less its padding), and a table that scrolls sideways hides columns
TABLE_WIDTH_PX = 1044
#: the estimate: an average glyph of the tables' 12.9-px font, a cell's padding and border, and the width a
#: cell is given before its text wraps at a space (never narrower than its longest word, which cannot wrap)
CHAR_PX = 7.2
CELL_PAD_PX = 21
CELL_WRAP_CHARS = 11
#: above this many variants the flags table gives each flag's values grouped by value, not a column per variant
MAX_FLAG_COLUMNS = 4
#: fields of the report model that hold code, commands or data rather than sentences: shown exactly as they are
VERBATIM_FIELDS = frozenset({"src", "alt", "scenario_text", "scenario_source", "reproduce", "simlab_version"})


@dataclasses.dataclass(frozen=True)
class ColumnGroup:
    """Some of a table's columns (always with its first, the row's name), as the page draws them side by side."""

    header: list[str]
    rows: list[list[str]]
    numeric: list[bool]
    label: str  # "columns 2–9 of 49" when the table is folded, "" when it is whole


def _column_px(cells: list[str]) -> float:
    longest = max((len(c) for c in cells), default=0)
    word = max((len(w) for c in cells for w in c.split()), default=0)
    return max(min(longest, CELL_WRAP_CHARS), word) * CHAR_PX + CELL_PAD_PX


def _split(widths: list[float], width: float) -> list[list[int]]:
    """Columns 1.. in the fewest contiguous groups that each fit ``width`` beside column 0, as even as can be
    (a 33-column table in groups of 8, 8, 8 and 8, not 10, 10, 10 and 2)."""
    rest = list(range(1, len(widths)))
    for count in range(1, len(rest) + 1):
        size, extra = divmod(len(rest), count)
        groups, start = [], 0
        for k in range(count):
            end = start + size + (1 if k < extra else 0)
            groups.append(rest[start:end])
            start = end
        if all(widths[0] + sum(widths[i] for i in g) <= width for g in groups):
            return groups
    return [[i] for i in rest]


def column_groups(table: Table, width: float = TABLE_WIDTH_PX) -> list[ColumnGroup]:
    """The table in groups of columns that each fit the page's width, every group led by the first column.

    A wide table (a column per round, per variant or per place) ran off the page; folded, each group is a table
    of its own under the previous one, labelled with the columns it holds, and no column is hidden behind a
    scroll bar. A table that fits (its cells may wrap onto two lines) is drawn whole.
    """
    n = len(table.header)
    numeric = table.numeric
    widths = [_column_px([table.header[i], *(row[i] for row in table.rows)]) for i in range(n)]
    groups = _split(widths, width) if n > 2 and sum(widths) > width else []
    if len(groups) <= 1:
        return [ColumnGroup(table.header, table.rows, numeric, "")]
    out = []
    for cols in groups:
        keep = [0, *cols]
        span = f"column {cols[0] + 1}" if len(cols) == 1 else f"columns {cols[0] + 1}–{cols[-1] + 1}"
        out.append(
            ColumnGroup(
                [table.header[i] for i in keep],
                [[row[i] for i in keep] for row in table.rows],
                [numeric[i] for i in keep],
                f"{span} of {n}",
            )
        )
    return out


def values_by_value(values: dict[str, str]) -> str:
    """Each variant's value of a flag, grouped by value ("2 in beige2; 1 in the other 48 variants"), for a report
    with more variants than the flags table has room for as columns."""
    groups: dict[str, list[str]] = {}
    for variant, value in values.items():
        groups.setdefault(value, []).append(variant)
    if len(groups) <= 1:
        return f"{next(iter(groups), '–')} in every variant"
    ordered = sorted(groups.items(), key=lambda kv: len(kv[1]))
    parts = [f"{value} in {fmt.join_words(names, 8)}" for value, names in ordered[:-1]]
    common, names = ordered[-1]
    parts.append(f"{common} in the other {len(names)} variant{'s' if len(names) != 1 else ''}")
    return "; ".join(parts)


def chart_width(src: str) -> int:
    """The width in CSS pixels an embedded SVG chart is drawn at: its own (points × 4/3), so every chart's text
    has the same size on the page (a grid of small panels is wider than one chart, not shrunk to its width),
    at most ``MAX_CHART_WIDTH``; ``CHART_WIDTH`` for a chart whose size cannot be read."""
    head, _, data = src.partition(",")
    if not head.startswith("data:image/svg+xml;base64"):
        return CHART_WIDTH
    svg = base64.b64decode(data[:4000])  # the opening <svg> tag is in the first bytes; 4000 is whole base64 quads
    found = _SVG_WIDTH.search(svg)
    return min(round(float(found.group(1)) * 4 / 3), MAX_CHART_WIDTH) if found else CHART_WIDTH


def tidied(value: Any, field: str = "") -> Any:
    """A copy of the report model with every sentence, note and cell through ``fmt.tidy`` ("p < 1e-12", no
    "−0.0"), whichever module wrote it; code, commands and the scenario file (``VERBATIM_FIELDS``) stay as
    they are."""
    if field in VERBATIM_FIELDS:
        return value
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return fmt.tidy(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = copy.copy(value)
        for f in dataclasses.fields(value):
            object.__setattr__(out, f.name, tidied(getattr(value, f.name), f.name))
        return out
    if isinstance(value, list | tuple):
        return type(value)(tidied(v, field) for v in value)
    if isinstance(value, dict):
        return {k: tidied(v, field) for k, v in value.items()}
    return value


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        finalize=neutralise_bidi,  # every {{ value }} of the page
        undefined=jinja2.StrictUndefined,  # a misspelt field fails the build instead of vanishing from the page
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.filters["column_groups"] = column_groups
    env.filters["values_by_value"] = values_by_value
    env.filters["chart_width"] = chart_width
    return env


def render(report: Report, level: float = 0.95) -> str:
    """The report as an HTML string."""
    template = _environment().get_template("report.html.j2")
    return template.render(r=tidied(report), level=f"{level:.0%}", max_flag_columns=MAX_FLAG_COLUMNS)


def default_out(folder: str | Path) -> Path:
    """Where ``simlab report`` writes by default: reports/<result folder name>.html."""
    return Path("reports") / f"{Path(folder).resolve().name}.html"


def write_report(
    folder: str | Path,
    out: str | Path | None = None,
    level: float = 0.95,
    sweep: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
    tolerance: float | None = None,
) -> Path:
    """Build the report of a result folder and write it to ``out`` (default ``reports/<folder>.html``).

    ``sweep``: a starting-money sweep folder that prices seat deficits and cards in the game's money. ``progress``:
    called with a line as each section is done. ``tolerance``: win share from 1/N that matters to the seat
    verdict (default: ``build_report``'s, 1 point).

    ``out`` ``-`` writes the HTML to standard output (and returns ``Path("-")``). A symlink is written
    through to its target; a path that is not a regular file (a directory, a device, a FIFO) is refused
    before the report is built (see ``simlab.core.output``). The file is written through a temporary name
    and renamed, so a half-written report never replaces a good one, and a failure leaves no temporary file.
    """
    from simlab.core.output import output_target, write_output

    t0 = time.perf_counter()
    target = Path(out) if out is not None else default_out(folder)
    output_target(target if str(out) != "-" else "-", "--out")  # refuse a device or a directory at once
    extra = {} if tolerance is None else {"tolerance": tolerance}
    report = build_report(folder, level=level, out=target, sweep=sweep, progress=progress, **extra)
    report.build_seconds = time.perf_counter() - t0
    text = render(report, level)
    written = write_output("-" if str(out) == "-" else target, text.encode("utf-8"), "--out")
    return written if written is not None else Path("-")
