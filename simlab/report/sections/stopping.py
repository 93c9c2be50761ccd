"""The stopping-rule section: for a run that stopped when its question was settled, the rule and its guarantee in
one sentence, and the table "games needed per verdict" (``simlab.analysis.stopping``)."""

from __future__ import annotations

from simlab.analysis.stopping import (
    FIXED_NOTE,
    needed_table,
    not_settled,
    outcome_sentence,
    read_stopping,
    rule_sentence,
)
from simlab.report import fmt as F
from simlab.report.context import Context
from simlab.report.model import Finding, Section, Table
from simlab.report.sections import register


def _state(r: dict, tolerance: float) -> str:
    band = f"±{tolerance:g} {'point' if tolerance == 1 else 'points'}"
    if r["key"].count("/") == 1 and r["key"].startswith("seats/"):  # the equal-seats question
        return {"within": f"every seat within {band}", "beyond": f"unequal by more than {band}"}.get(r["state"], "open")
    if r["state"] == "within":
        return f"within {band}"
    if r["state"] == "beyond":
        return "beyond, above" if r["direction"] > 0 else "beyond, below"
    return "open"


def _interval(r: dict) -> str:
    if r["key"].startswith(("change/", "card/")) or r["key"].count("/") == 1:
        # a change, a card's value or the equal-seats question's largest distance: points of win share
        return f"{F.points(r['estimate'], 1)} {F.ci(r['lo'], r['hi'], 100, 1, sign=True)}"
    return F.pct_ci(r["estimate"], r["lo"], r["hi"])


@register("stopping", "stopping rule", order=15)
def stopping_section(ctx: Context) -> tuple[Section | None, str]:
    block = read_stopping(ctx.manifest)
    if block is None:
        return None, ""  # a fixed number of games: nothing to state, and nothing missing
    sec = Section(
        "stopping",
        "Games needed per verdict",
        "When was each verdict settled, and how many games did it take?",
    )
    sec.findings.append(Finding(outcome_sentence(block), "info"))
    sec.findings.append(Finding(rule_sentence(block, ctx.words.noun), "info", headline=False))
    table = needed_table(block)
    tolerance = float(block["tolerance"])
    rows = [
        [
            r["label"],
            _state(r, tolerance),
            _interval(r),
            F.count(r["n"]),
            F.count(r["settled_at"]) if r["settled_at"] is not None else not_settled(r, int(block["max_games"])),
        ]
        for r in table.iter_rows(named=True)
    ]
    sec.tables.append(
        Table(
            "Games needed per verdict",
            ["verdict", "state", "estimate [interval valid at every look]", "games", "settled at"],
            rows,
            note=f"Looks after {', '.join(F.count(n) for n in block['looks'])} games." if block["looks"] else "",
        )
    )
    sec.notes.append(FIXED_NOTE)
    stopped = {v: s for v, s in block["variants"].items() if s.get("stopped_at") is not None}
    if stopped:
        sec.notes.append(
            "Variants that stopped receiving games once their verdicts were settled or out of reach: "
            + ", ".join(f"{v} at {F.count(s['stopped_at'])}" for v, s in stopped.items())
            + "."
        )
    return sec, ""
