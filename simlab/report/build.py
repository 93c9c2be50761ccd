"""Gather everything a balance report shows from a result folder: findings, charts, tables, flags, commands.

``build_report(folder)`` builds every section registered in ``simlab.report.sections`` (one module each:
seats and money, card value, markets, general balance, the "does it hold?" sections), in the registry's
order with the section that answers the scenario's question first, and frames them with the overview
(``simlab.report.overview``). Each section runs the same ``simlab.analysis`` functions as the CLI over lazy
polars pipelines (rows are filtered to the variants a section shows before anything is read), so only small
summaries reach Python and the report's memory does not grow with the number of games. A section the results
cannot support is left out, and the overview says why. ``simlab.report.html`` renders the :class:`Report`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import simlab
from simlab.analysis import stats
from simlab.report import overview
from simlab.report.context import games_label, load_context
from simlab.report.flags import config_flags, provenance_of, variant_changes
from simlab.report.model import Report, Section
from simlab.report.sections import lead_first, registered


# -- entry point --------------------------------------------------------------------------------------
def build_report(
    folder: str | Path,
    level: float = 0.95,
    out: str | Path | None = None,
    sweep: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
    tolerance: float = stats.DEFAULT_TOLERANCE,
) -> Report:
    """Run every analysis the result folder supports and gather the report's content.

    ``out`` is where the report will be written, for the ``simlab report`` command it shows. ``sweep`` is a
    starting-money sweep (another result folder) whose exchange rate prices seat deficits and cards in
    the game's money when the folder itself has no money variants. ``tolerance`` (win share; default 1 point)
    is how far from 1/N a seat may be before the verdict calls the seats unequal by more than matters.
    ``progress`` gets a line as each section is done
    (its time, or that the results do not support it): a report of millions of games takes a while.
    """
    from simlab.report.fix_report import build_fix_report, is_fix_only

    if is_fix_only(folder):  # a rule-fix search alone (simlab fix --out FOLDER): its section and its question
        return build_fix_report(folder, out)
    t0 = time.perf_counter()
    ctx = load_context(Path(folder), level)
    ctx.sweep = Path(sweep) if sweep is not None else None
    ctx.tolerance = tolerance
    say = progress or (lambda line: None)
    done = list(ctx.games.values())
    say(f"report of {folder}: {games_label(done)} of {ctx.manifest['game']}, {len(done)} variant(s)")
    sections: list[Section] = []
    not_covered: list[str] = []
    for kind in registered():
        started = time.perf_counter()
        section, reason = kind.build(ctx)
        if section is not None:
            sections.append(section)
            say(f"  {section.title.lower()}: {time.perf_counter() - started:.1f} s")  # in the game's words
        else:
            say(f"  {kind.name.format(noun=ctx.words.noun)}: not in these results")  # {noun}: card, god, item
        if reason:
            not_covered.append(reason)
    sections = lead_first(sections, ctx.question)
    answer = [f for f in sections[0].findings if f.headline] if sections else []
    secondary = [f for s in sections[1:] for f in s.findings if f.headline]
    provenance = provenance_of(ctx.manifest["game"])
    flags = config_flags(provenance, ctx.configs) if provenance is not None else []
    changes = variant_changes(provenance, ctx.configs) if provenance is not None else []
    run_notes = overview.run_notes(ctx, provenance is None)
    commands, command_notes = overview.reproduce(ctx, out)
    m = ctx.manifest
    report = Report(
        title=f"Balance report: {m['scenario']['name']}",
        description=m["scenario"].get("description", ""),
        meta=overview.meta(ctx),
        headlines=answer + secondary,
        answer=answer,
        secondary=secondary,
        sections=sections,
        not_covered=not_covered,
        variants=overview.variants_table(ctx, changes),
        flags=flags,
        run_notes=run_notes,
        reproduce=commands,
        reproduce_notes=command_notes,
        scenario_text=m["scenario"].get("text", ""),
        scenario_source=m["scenario"].get("source", ""),
        simlab_version=simlab.__version__,
    )
    if sections and sections[0].id == "fix":  # its intervals are the certification's, not the page's level
        from simlab.report.fix_report import interval_note

        report.interval_note = interval_note(folder, level)
    report.build_seconds = time.perf_counter() - t0
    return report
