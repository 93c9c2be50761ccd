"""Render a :class:`~simlab.report.build.Report` into one self-contained HTML file.

Jinja2 with autoescaping on: every name and description that comes from a scenario file (variant names,
bot specs, descriptions, the scenario text) is text in the page, never markup, so a variant called
``<script>`` shows as those characters. The CSS is inlined and the charts are ``data:`` URIs, so the file
opens offline, can be mailed or attached to an issue, and makes no network request.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import jinja2
import markupsafe

from simlab.report.build import Report, build_report

TEMPLATES = Path(__file__).parent / "templates"
#: width in CSS pixels of a chart image (its SVG scales; the height follows the aspect ratio)
CHART_WIDTH = 720


#: Unicode bidirectional controls (embeddings, overrides, isolates, marks): text from a scenario file that
#: holds one would reorder the report's text around it, so each is shown as its code point instead
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def neutralise_bidi(value: object) -> object:
    """``value`` with every bidi control character written as ``[U+202E]`` (strings only; markup is kept)."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup) and BIDI_CONTROLS.search(value):
        return BIDI_CONTROLS.sub(lambda m: f"[U+{ord(m.group()):04X}]", value)
    return value


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        finalize=neutralise_bidi,  # every {{ value }} of the page
        undefined=jinja2.StrictUndefined,  # a misspelt field fails the build instead of vanishing from the page
        trim_blocks=False,
        lstrip_blocks=False,
    )


def render(report: Report, level: float = 0.95) -> str:
    """The report as an HTML string."""
    template = _environment().get_template("report.html.j2")
    return template.render(r=report, level=f"{level:.0%}", chart_width=CHART_WIDTH)


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
