"""The report of a folder that holds only a rule-fix search (``simlab fix SCENARIO --out FOLDER``, no run of the
scenario's own games beside it): the "What would fix it?" section framed by what the search was asked.

A folder that holds a run as well gets the ordinary report (``build``), which leads with the same section.
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any

import simlab
from simlab.analysis import fix_words as W
from simlab.analysis.bot_words import bot_words
from simlab.report.fix_section import fix_section
from simlab.report.model import Report, Table
from simlab.run.fix_folder import fix_root, has_fix, load_fix
from simlab.run.folder_layout import MANIFEST


def is_fix_only(folder: str | Path) -> bool:
    """A folder with a fix search and no result manifest of its own (or the fix folder itself)."""
    return has_fix(folder) and not (Path(folder) / MANIFEST).is_file()


def build_fix_report(folder: str | Path, out: str | Path | None = None) -> Report:
    """The report of a fix-only folder: the fix section, the question asked and the commands that rebuild it."""
    t0 = time.perf_counter()
    meta = load_fix(folder)
    section, _ = fix_section(folder)
    assert section is not None  # is_fix_only said it holds a fix
    ident: dict[str, Any] = meta.get("identity") or {}
    answer = [f for f in section.findings if f.headline]
    source = str(meta.get("source", "SCENARIO"))
    again = ["simlab", "fix", source, "--out", str(Path(folder)), "--resume", *_options(ident)]
    report = ["simlab", "report", str(folder)] + (["--out", str(out)] if out is not None else [])
    rows = question_rows(ident, str(meta.get("text", "")), W.vocabulary(meta.get("game")))
    result = Report(
        title=f"Rule fix: {meta.get('scenario', '?')}",
        description=str(meta.get("description", "")),
        meta=[
            ("game", f"{meta.get('game', '?')}, {meta.get('players', '?')} players"),
            ("bots", ", ".join(meta.get("lineup") or []) + " (lineup rotated through the seats)"),
            ("question", f"{meta.get('identity_hash', '?')} (fix.json)"),
            ("status", str(meta.get("status", "?"))),
            ("results", str(fix_root(folder))),
        ],
        headlines=answer,
        answer=answer,
        secondary=[],
        sections=[section],
        not_covered=[
            "Seats, balance and the other sections: not in this folder (it holds only the fix search); run the "
            f"scenario into it for them: simlab run {source} --out {folder}"
        ],
        variants=Table("The question", ["setting", "value"], rows),
        flags=[],
        run_notes=[],
        reproduce=[
            ("the same search, into the same folder (resumes)", shlex.join(again)),
            ("this report", shlex.join(report)),
        ],
        reproduce_notes=[],
        scenario_text=str(meta.get("text", "")),
        scenario_source=source,
        simlab_version=simlab.__version__,
    )
    result.interval_note = interval_note(folder)
    result.build_seconds = time.perf_counter() - t0
    return result


def interval_note(folder: str | Path, level: float | None = None) -> str:
    """The summary's sentence on intervals when the fix section leads: the certification's (1 − 2α) intervals, and
    ``level`` the other sections' (a folder that holds a run as well)."""
    meta = load_fix(folder)
    result = meta.get("result") or {}
    alpha = result.get("alpha", (meta.get("identity") or {}).get("alpha"))
    said = W.intervals_text(alpha, W.in_looks(result))
    if level is None:
        return f"Each finding comes with the number of games behind it; {said}."
    return (
        f"Each finding comes with the number of games behind it; the fix's {said}; the other "
        f"sections' intervals are {level:.0%}."
    )


#: the question's settings in words (the identity's keys as the scenario's [fix] table names them)
SAID = {
    "tolerance": lambda v: "every seat within 1/N " + W.tolerance_text(v).replace("±", "± "),
    "alpha": lambda v: alpha_text(v, None),
    "budget": lambda v: f"{int(v):,} search games (explore and race; certification extra)",
    "batch": lambda v: f"{int(v):,} games per candidate and round",
    "certify_games": lambda v: f"{int(v):,} fresh games per certification lineup",
    "seed": lambda v: str(v),
    "panel": lambda v: "each in every seat: " + ", ".join(_bot(str(b)) for b in v),
    "panel_games": lambda v: "; ".join(f"{_bot(str(b))}: {int(n):,} fresh games" for b, n in dict(v).items()),
    "objective": lambda v: {
        "most_equal": "most_equal: the most equal change that passes (cost breaks ties)",
        "cheapest": "cheapest: the cheapest change that passes (fewest knobs, then grid steps)",
    }.get(v, str(v)),
}


def _bot(spec: str) -> str:
    """A panel bot of the question: the search bot with its budget and the spec it was given."""
    said = bot_words(spec)
    return spec if said == spec else f"{said} ({spec})"


def alpha_text(alpha: float, tolerance: float | None) -> str:
    """α said plainly: the chance the search certifies a change that is not fair within ±tolerance points."""
    within = W.tolerance_text(tolerance).removesuffix(" of win share") if tolerance is not None else "the tolerance"
    chance = f"{round(float(alpha) * 100, 10):g}%"
    return f"α = {float(alpha):g}: at most a {chance} chance of certifying a change that is not fair within {within}"


def question_rows(ident: dict[str, Any], text: str, vocab: W.Vocabulary) -> list[list[str]]:
    """The question the search answered: its settings in words, then each knob (by its description, with the grid
    the scenario gave) and each guard (its band) from the scenario's [fix] table."""
    import tomllib

    rows = [["rules version", str(ident["rules_version"])]] if ident.get("rules_version") else []
    said = {**SAID, "alpha": lambda v: alpha_text(v, ident.get("tolerance"))}
    rows += [[f"fix.{k}", said[k](ident[k])] for k in said if ident.get(k) is not None]
    try:
        table = tomllib.loads(text).get("fix") or {}
    except tomllib.TOMLDecodeError:  # an old folder's text that no longer parses: the settings alone
        table = {}
    for name, grid in (table.get("knobs") or {}).items():
        doc = vocab.docs.get(name, "")
        rows.append([f"fix.knobs.{name}", (f"{doc}: " if doc else "") + _grid(grid)])
    guards = dict(table.get("guards") or {})
    facts = guards.pop("fact", None) or {}
    guards.update({f"fact.{k}": v for k, v in facts.items()})
    for name, band in guards.items():
        within = f"{band[0]:g} to {band[1]:g}" if isinstance(band, list) else f"within ±{float(band):g}{_pct(name)}"
        rows.append([f"fix.guards.{name}", f"{W.guard_label(name, vocab)}: {within}"])
    return rows


def _pct(name: str) -> str:
    return " points" if name in ("draws", "luck") else "% of the published rules'"


def _grid(grid: Any) -> str:
    if not isinstance(grid, dict):
        return _show(grid)
    return "; ".join(f"{k} {_show(v)}" for k, v in grid.items())


def _options(ident: dict[str, Any]) -> list[str]:
    """The options of ``simlab fix`` that gave this question (those it was asked with)."""
    out = []
    for key, flag in (
        ("tolerance", "--tolerance"), ("budget", "--budget"), ("alpha", "--alpha"), ("seed", "--seed"),
        ("objective", "--objective"),
    ):  # fmt: skip
        if ident.get(key) is not None:
            value = ident[key]
            out += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    if ident.get("panel"):
        out += ["--panel", ",".join(ident["panel"])]
    return out


def _show(v: Any) -> str:
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return f"{v:g}" if isinstance(v, float) else str(v)
