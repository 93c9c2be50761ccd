"""Render a :class:`~simlab.report.build.Report` into one self-contained HTML file.

Jinja2 with autoescaping on: every name and description that comes from a scenario file (variant names,
bot specs, descriptions, the scenario text) is text in the page, never markup, so a variant called
``<script>`` shows as those characters. The CSS is inlined and the charts are ``data:`` URIs, so the file
opens offline, can be mailed or attached to an issue, and makes no network request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import jinja2

from simlab.report.build import Report, build_report

TEMPLATES = Path(__file__).parent / "templates"
#: width in CSS pixels of a chart image (its SVG scales; the height follows the aspect ratio)
CHART_WIDTH = 720


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
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
) -> Path:
    """Build the report of a result folder and write it to ``out`` (default ``reports/<folder>.html``).

    ``sweep``: a starting-money sweep folder that prices seat deficits and cards in the game's money. ``progress``:
    called with a line as each section is done.

    ``out`` ``-`` writes the HTML to standard output (and returns ``Path("-")``). A symlink is written
    through to its target; a path that is not a regular file (a directory, a device, a FIFO) is refused
    before the report is built (see ``simlab.core.output``). The file is written through a temporary name
    and renamed, so a half-written report never replaces a good one, and a failure leaves no temporary file.
    """
    from simlab.core.output import output_target, write_output

    t0 = time.perf_counter()
    target = Path(out) if out is not None else default_out(folder)
    output_target(target if str(out) != "-" else "-", "--out")  # refuse a device or a directory at once
    report = build_report(folder, level=level, out=target, sweep=sweep, progress=progress)
    report.build_seconds = time.perf_counter() - t0
    text = render(report, level)
    written = write_output("-" if str(out) == "-" else target, text.encode("utf-8"), "--out")
    return written if written is not None else Path("-")
