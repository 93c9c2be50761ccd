"""The "What would fix it?" section, registered here and built by ``simlab.report.fix_section`` from the rule-fix
search a folder holds (``simlab fix``); it leads the report whenever it is built."""

from __future__ import annotations

from simlab.report.context import Context
from simlab.report.fix_section import fix_section
from simlab.report.model import Section
from simlab.report.sections import register


@register("fix", "what would fix it", order=5, leads=True)
def what_would_fix_it(ctx: Context) -> tuple[Section | None, str]:
    return fix_section(ctx.folder)
