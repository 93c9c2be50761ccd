"""The report's two "does it hold?" sections: for stronger play (a result folder that carries a bot panel) and
for other plausible data (a sensitivity run, whose variants change only placeholder or assumed knobs)."""

from __future__ import annotations

from typing import Any

from simlab.analysis.robust import CHANGES, EVERY_SEAT, HOLDS, NONE, WORDS, Robustness, merged_note, robustness
from simlab.analysis.sensitivity import sensitivity
from simlab.report.model import Finding, Section, Table
from simlab.run.panel_folder import has_panel

TONE = {CHANGES: "warn", HOLDS: "ok", NONE: "info"}


def robust_section(ctx: Any) -> tuple[Section | None, str]:
    """The section (or None and why not) from ``<folder>/panel`` (``simlab robust``): every effect's estimate per
    panel bot, and its verdict."""
    if not has_panel(ctx.folder):
        return None, (
            "Does it hold for stronger play? — not checked: no bot panel in this folder "
            f"(simlab robust SCENARIO --panel random,… --out {ctx.folder})"
        )
    result = robustness(ctx.folder, base=ctx.base, level=ctx.level)
    who = "every seat is" if result.seating == EVERY_SEAT else "one seat (rotated) is"
    sec = Section(
        id="robust",
        title="Does it hold for stronger play?",
        question=f"Do this scenario's effects keep their sign and size when {who} played by another bot?",
    )
    for row in result.verdicts.iter_rows(named=True):
        sec.findings.append(Finding(row["sentence"], TONE.get(row["verdict"], "info"), row["verdict"] == CHANGES))
    games = result.estimates["games"].min()
    sec.tables.append(
        _effects_table(
            result,
            "Effect per panel bot (win share, points, 95% interval)",
            f"at least {games:,} games per variant and bot; {result.seating}, the scenario's game seeds",
        )
    )
    if result.merged:
        sec.findings.append(Finding(merged_note(result.merged), "warn", False))
    sec.notes.append(
        f"Method: {result.method}. Family-wise error rate of each verdict ('changes with the bots', 'holds for "
        f"every bot tested', 'not settled'): {result.alpha:.0%}."
    )
    return sec, ""


def sensitivity_section(ctx: Any) -> tuple[Section | None, str]:
    """For a sensitivity run (``simlab.analysis.sensitivity``): each seat's verdict across the data variants,
    every one a headline — whether the seat verdict survives other plausible data is the run's question."""
    result = sensitivity(ctx.folder, base=ctx.base, level=ctx.level)
    if result is None:
        return None, ""
    sec = Section(
        id="sensitivity",
        title="Does it hold for other plausible data?",
        question=(
            "The variants change only placeholder or assumed numbers: does each seat's advantage keep its sign "
            "for every one of them?"
        ),
    )
    for row in result.verdicts.iter_rows(named=True):
        sec.findings.append(Finding(row["sentence"], TONE.get(row["verdict"], "info"), True))
    games = result.estimates["games"].min()
    sec.tables.append(
        _effects_table(
            result,
            "Seat advantage per data variant (win share − 1/N, points, 95% interval)",
            f"at least {games:,} games per variant, the same game seeds in every variant",
        )
    )
    sec.notes.append(
        f"Method: {result.method}. Family-wise error rate of 'changes with the data': {result.alpha:.0%}. "
        "The variants and the knobs they change are listed in the summary and the flags."
    )
    return sec, ""


def _effects_table(result: Robustness, title: str, note: str) -> Table:
    """One row per effect: its estimate in each panel entry (bot or data variant) and its verdict."""
    est = result.estimates
    rows = []
    for v in result.verdicts.iter_rows(named=True):
        mine = est.filter((est["kind"] == v["kind"]) & (est["effect"] == v["effect"]))
        cells = {
            b: f"{100 * e:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
            for b, e, lo, hi in zip(mine["bot"], mine["estimate"], mine["lo"], mine["hi"], strict=True)
        }
        verdict = WORDS[result.across][v["verdict"]]
        rows.append([f"{v['kind']}: {v['effect']}", *(cells.get(b, "–") for b in result.bots), verdict])
    return Table(title=title, header=["effect", *result.bots, "verdict"], rows=rows, note=note)
