"""The report's "What would fix it?" section, from a rule-fix search's folder (``simlab fix``, kept in
``<folder>/fix``): the recommended change in the game's words, the seat shares before and after, the guards, the
certification panel, the cheapest alternatives that also pass (or the candidates still open) and the games spent
(``analysis.fix_words``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.analysis import fix_words as W
from simlab.report.model import Finding, Section, Table
from simlab.run.fix_folder import DONE, fix_root, has_fix, load_fix

TITLE = "What would fix it?"


def fix_section(folder: str | Path) -> tuple[Section | None, str]:
    """The section, or None and "" for a folder that holds no fix search (a question it does not ask)."""
    if not has_fix(folder):
        return None, ""
    meta = load_fix(folder)
    vocab = W.vocabulary(meta.get("game"), meta.get("seat_knobs") or ())
    result = meta.get("result")
    tol = (meta.get("identity") or {}).get("tolerance")
    shown = W.tolerance_text(tol).removesuffix(" of win share") if tol is not None else "the tolerance"
    sec = Section(
        "fix",
        TITLE,
        f"What is the smallest change to the rules that makes every seat's win share equal within {shown}, "
        "certified on fresh games for every bot of a panel, without breaking the guards?",
    )
    if meta.get("status") != DONE or not isinstance(result, dict):
        plays = len(meta.get("plays") or {})
        sec.findings.append(
            Finding(
                f"The fix search has not finished ({plays} plays kept so far); it resumes where it stopped with: "
                f"simlab fix {meta.get('source', 'SCENARIO')} --out {Path(folder)} --resume",
                "info",
            )
        )
        return sec, ""
    text, tone = W.headline(result, vocab)
    sec.findings.append(Finding(text, tone))
    for g in result.get("guards") or []:
        if not g.get("ok"):
            label = W.guard_label(str(g.get("name")), vocab)
            sec.findings.append(Finding(f"Guard broken by the change: {label} ({_guard(g)}).", "warn"))
    _tables(sec, result, vocab)
    sec.notes.append(
        f"Method: {result.get('method', '–')}. The error of certifying a change that is not fair within the "
        f"tolerance is controlled at α = {result.get('alpha', '–')}; the word 'fair' is used only when the "
        "certification passed for every bot of the panel."
    )
    sec.notes.append(f"The search's folder: {fix_root(folder)} (fix.json: the question, every play, the answer).")
    return sec, ""


def _tables(sec: Section, result: dict[str, Any], vocab: W.Vocabulary) -> None:
    games = result.get("games") or {}
    for title, header, rows, note in (
        (
            "Seat win shares: the published rules and the change",
            W.SHARES_HEADER,
            W.shares_rows(result),
            f"Each on fresh games the search never saw; {W.intervals_text(result.get('alpha'), W.in_looks(result))}.",
        ),
        ("Guards: what the change must not break", W.GUARDS_HEADER, W.guard_rows(result, vocab), ""),
        ("Certification panel: does the change hold for each bot?", W.PANEL_HEADER, W.panel_rows(result), ""),
        (
            W.ATTEMPTS_TITLE[0].upper() + W.ATTEMPTS_TITLE[1:],
            W.ATTEMPTS_HEADER,
            W.attempt_rows(result, vocab),
            "A later attempt is the next change the race passed, tried when the one before was not certified; the "
            "attempts share α. The panel bots play only once the lineup passed.",
        ),
        (
            W.PUBLISHED_PANEL_TITLE[0].upper() + W.PUBLISHED_PANEL_TITLE[1:],
            W.PANEL_HEADER,
            W.panel_rows(result, "published_panel"),
            "Played before the search; the panel bots only when the lineup passed.",
        ),
        (
            f"The {W.alternatives_title(result)}",
            W.ALTERNATIVES_HEADER,
            W.alternative_rows(result, vocab),
            "Cost: how many knobs differ from the published rules, then how far each moved on its grid.",
        ),
        (
            "Games spent",
            ["explore", "race", "certify", "total"],
            [[f"{int(games.get(k, 0)):,}" for k in ("explore", "race", "certify", "total")]],
            "",
        ),
    ):
        if rows:
            sec.tables.append(Table(title, header, rows, note=note))


def _guard(g: dict[str, Any]) -> str:
    return f"before {W._cell(g.get('before'))}, after {W._cell(g.get('after'))}, band {W._cell(g.get('band'))}"
