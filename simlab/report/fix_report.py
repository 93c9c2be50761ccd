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
    rows = [[k, _show(v)] for k, v in ident.items() if k not in ("scenario_sha256", "format", "data_files")]
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
    alpha = (meta.get("result") or {}).get("alpha", ident.get("alpha"))
    result.interval_note = f"Each finding comes with the number of games behind it; {W.intervals_text(alpha)}."
    result.build_seconds = time.perf_counter() - t0
    return result


def _options(ident: dict[str, Any]) -> list[str]:
    """The options of ``simlab fix`` that gave this question (those it was asked with)."""
    out = []
    for key, flag in (("tolerance", "--tolerance"), ("budget", "--budget"), ("alpha", "--alpha"), ("seed", "--seed")):
        if ident.get(key) is not None:
            value = ident[key]
            out += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    if ident.get("panel"):
        out += ["--panel", ",".join(ident["panel"])]
    return out


def _show(v: Any) -> str:
    return ", ".join(map(str, v)) if isinstance(v, list | tuple) else str(v)
