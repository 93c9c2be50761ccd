"""The report's "Does it hold for stronger play?" section, for a result folder that carries a bot panel."""

from __future__ import annotations

from typing import Any

from simlab.analysis.robust import CHANGES, HOLDS, NONE, robustness
from simlab.run.panel import has_panel


def robust_section(ctx: Any, section: type, finding: type, table: type) -> tuple[Any, str]:
    """The section (or None and why not) from ``<folder>/panel`` (``simlab robust``): every effect's estimate per
    panel bot, and its verdict. ``section``, ``finding`` and ``table`` are the report's classes."""
    if not has_panel(ctx.folder):
        return None, (
            "Does it hold for stronger play? — not checked: no bot panel in this folder "
            f"(simlab robust SCENARIO --panel random,… --out {ctx.folder})"
        )
    result = robustness(ctx.folder, base=ctx.base, level=ctx.level)
    sec = section(
        id="robust",
        title="Does it hold for stronger play?",
        question="Do this scenario's effects keep their sign and size when every seat is played by another bot?",
    )
    tone = {CHANGES: "warn", HOLDS: "ok", NONE: "info"}
    for row in result.verdicts.iter_rows(named=True):
        headline = row["verdict"] == CHANGES
        sec.findings.append(finding(row["sentence"], tone.get(row["verdict"], "info"), headline))
    est = result.estimates
    rows = []
    for v in result.verdicts.iter_rows(named=True):
        mine = est.filter((est["kind"] == v["kind"]) & (est["effect"] == v["effect"]))
        cells = {
            b: f"{100 * e:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
            for b, e, lo, hi in zip(mine["bot"], mine["estimate"], mine["lo"], mine["hi"], strict=True)
        }
        rows.append([f"{v['kind']}: {v['effect']}", *(cells.get(b, "–") for b in result.bots), v["verdict"]])
    games = est["games"].min()
    sec.tables.append(
        table(
            title="Effect per panel bot (win share, points, 95% interval)",
            header=["effect", *result.bots, "verdict"],
            rows=rows,
            note=f"at least {games:,} games per variant and bot; each bot in every seat, the scenario's game seeds",
        )
    )
    sec.notes.append(f"Method: {result.method}. Family-wise error rate of 'changes with the bots': {result.alpha:.0%}.")
    return sec, ""
