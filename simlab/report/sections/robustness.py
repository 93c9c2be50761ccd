"""The two "does it hold?" sections, registered here and built by ``simlab.report.robust_section``: for other
plausible data (a sensitivity run) and for stronger play (a folder that carries a bot panel)."""

from __future__ import annotations

from simlab.report.context import Context
from simlab.report.model import Section
from simlab.report.robust_section import robust_section, sensitivity_section
from simlab.report.sections import register


@register("sensitivity", "robustness to the data", order=50, leads=True)
def data_section(ctx: Context) -> tuple[Section | None, str]:
    return sensitivity_section(ctx)


@register("robust", "robustness to the bots", order=60)
def bots_section(ctx: Context) -> tuple[Section | None, str]:
    return robust_section(ctx)
