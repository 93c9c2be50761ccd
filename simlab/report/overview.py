"""The report's frame around the sections: the run's summary lines, the variants table, notes on the run
itself (incomplete, failed games, skipped files) and the commands that reproduce the results and the report."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any

import polars as pl

import simlab
from simlab.report import fmt as F
from simlab.report.context import Context
from simlab.report.flags import VariantChange
from simlab.report.model import Table


def meta(ctx: Context) -> list[tuple[str, str]]:
    """The summary lines at the top: game, bots, games, seed, base variant, run and folder."""
    m = ctx.manifest
    seating = "lineup rotated through the seats" if m.get("seating") == "lineup" else "fixed bots per seat"
    sessions = m.get("timings", {}).get("sessions", [])
    seconds = sum(s.get("seconds", 0) for s in sessions)
    per_variant = sorted({int(v["games_done"]) for v in m["variants"]})
    games = f"{per_variant[0]:,}" if len(per_variant) == 1 else f"{per_variant[0]:,}–{per_variant[-1]:,}"
    return [
        ("game", f"{m['game']} (rules {m.get('rules_version', '?')}), {m['players']} players"),
        ("bots", f"{', '.join(m.get('bots', []))} ({seating})"),
        ("games", f"{games} per variant × {len(m['variants'])} variants = {int(m.get('games_done', 0)):,} games"),
        ("root seed", str(m.get("root_seed", "?"))),
        ("compared with", ctx.base),
        (
            "run",
            f"{m.get('status', '?')}; simlab {m.get('simlab_version', '?')}; "
            f"{_duration(seconds)} of play over {len(sessions)} session(s)",
        ),
        ("results", str(ctx.folder)),
    ]


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def variants_table(ctx: Context, changes: list[VariantChange]) -> Table:
    """One row per variant: description, games, config hash and what it changes from the published rules."""
    by_variant: dict[str, list[str]] = {}
    # the run's player count is the table it plays at (shown in the summary), not a change from the rules
    changes = [c for c in changes if not (c.field == "players" and c.value == str(ctx.manifest.get("players")))]
    for c in changes:
        mark = f" [{c.source}]" if c.source in ("assumption", "placeholder") else ""
        by_variant.setdefault(c.variant, []).append(f"{c.field} = {c.value} (rules: {c.default}){mark}")
    rows, marked = [], []
    for v in ctx.manifest["variants"]:
        name = v["name"]
        changed = by_variant.get(name, [])
        rows.append(
            [
                name + (" (base)" if name == ctx.base else ""),
                v.get("description", ""),
                F.count(v.get("games_done")),
                v.get("config_hash", ""),
                "; ".join(changed) if changed else "the published rules",
            ]
        )
        marked.append(any(c.variant == name and c.source in ("assumption", "placeholder") for c in changes))
    return Table(
        "Variants",
        ["variant", "description", "games", "config hash", "changes from the rules"],
        rows,
        note="Marked rows change an assumption or placeholder field (see the flags)." if any(marked) else "",
        collapsed=len(rows) > 12,
        marked=marked,
    )


def run_notes(ctx: Context, no_provenance: bool) -> list[str]:
    """What the reader must know about the run itself before trusting a figure."""
    m = ctx.manifest
    notes = []
    if m.get("status") != "complete":
        notes.append(
            f"The run is {m.get('status', 'not complete')}: {int(m.get('games_done', 0)):,} of "
            f"{int(m.get('games_target', 0)):,} games are in the results; finish it with --resume."
        )
    failed = int(m.get("games_failed", 0))
    if failed:
        notes.append(
            f"{failed:,} game(s) failed and are missing from every figure; failures.jsonl in the result "
            "folder has a replay command for each."
        )
    done = {v["name"]: int(v["games_done"]) for v in m["variants"]}
    if len(set(done.values())) > 1:
        notes.append("Variants hold different numbers of games, so paired comparisons use only the games both have.")
    from simlab.run.folder_contents import folder_contents

    contents = folder_contents(ctx.folder)
    for skipped in contents.skipped:
        notes.append(f"The file parts/{skipped.path.name} is left out of every figure: {skipped.reason}.")
    notes += [f"Checked against the part files: {line}." for line in contents.problems + contents.facts]
    if contents.facts:  # the manifest was edited: what the parts cannot confirm is shown as it says, marked
        from simlab.run.folder_check import UNCHECKED

        notes.append(f"Not checked: {UNCHECKED}.")
    if no_provenance:
        notes.append(
            f"The game {m['game']!r} cannot be loaded here, so its config provenance (which numbers are "
            "assumptions) is unknown."
        )
    return notes


def _run_command(manifest: dict[str, Any], folder: Path) -> tuple[list[str], list[str]]:
    """``simlab run`` for a result folder (``--games`` when the run's count is not the file's), and warnings
    when the scenario file is missing or was edited after the run."""
    source = manifest["scenario"].get("source", "")
    notes = []
    run = ["simlab", "run", source, "--out", str(folder), "--resume"]
    try:
        written = int(tomllib.loads(manifest["scenario"].get("text", "")).get("games", 0))
    except (tomllib.TOMLDecodeError, TypeError, ValueError):
        written = 0
    if int(manifest.get("games", 0)) != written:
        run += ["--games", str(manifest["games"])]
    path = Path(source)
    if not path.is_file():
        notes.append(
            f"The scenario file {source} is not here; the scenario text of the run is shown below: save "
            "it under that name first."
        )
    elif hashlib.sha256(path.read_bytes()).hexdigest() != manifest["scenario"].get("sha256"):
        notes.append(
            f"The scenario file {source} has changed since this run; the run's own text is shown below: "
            "save it to a file and run that instead."
        )
    return run, notes


def _first_games(ctx: Context) -> pl.LazyFrame:
    """Rows of the files that start at game 0 of a shown variant: all a replay of game 0 needs, without
    reading the footers of a large folder's other files (half a second at ten million games)."""
    from simlab.run.folder_layout import PART_RE
    from simlab.run.reader import result_files

    paths = [
        p
        for p in result_files(ctx.folder)
        if (m := PART_RE.match(p.name)) and m["variant"] in ctx.focus and int(m["start"]) == 0
    ]
    return pl.scan_parquet([str(p) for p in paths], use_statistics=False) if paths else ctx.rows


def reproduce(ctx: Context, out: str | Path | None) -> tuple[list[tuple[str, str]], list[str]]:
    """The commands that rebuild the results and this report, and a replay of one game per shown variant."""
    import shlex

    from simlab.run.chunk import replay_command

    m = ctx.manifest
    run, notes = _run_command(m, ctx.folder)
    commands = [("the same games, into the same folder (resumes if it is there)", shlex.join(run))]
    if ctx.sweep is not None:
        sweep_run, sweep_notes = _run_command(simlab.load_manifest(ctx.sweep), ctx.sweep)
        commands.append((f"the starting-money sweep that prices {ctx.units.money_plural}", shlex.join(sweep_run)))
        notes += [n.replace("shown below", "in the sweep's manifest") for n in sweep_notes]
    report = ["simlab", "report", str(ctx.folder)] + (["--out", str(out)] if out is not None else [])
    if ctx.sweep is not None:
        report += ["--sweep", str(ctx.sweep)]
    commands.append(("this report", shlex.join(report)))
    first = (
        _first_games(ctx)
        .filter((pl.col("game") == 0) & pl.col("variant").is_in(ctx.focus))
        .select("variant", "seat", "bot", "seed")
        .sort("variant", "seat")
        .collect()
    )
    by_name = {v["name"]: v for v in m["variants"]}
    for v in ctx.focus:
        d = first.filter(pl.col("variant") == v)
        if d.is_empty():
            continue
        spec = by_name[v]
        commands.append(
            (
                f"game 0 of {v}, narrated move by move",
                replay_command(
                    m["game"],
                    ctx.players,
                    d["bot"].to_list(),
                    int(d["seed"][0]),
                    spec.get("preset", ""),
                    spec.get("replay_set", {}),
                ),
            )
        )
    if ctx.focus:
        replay = ["simlab", "replay", str(ctx.folder), "--variant", ctx.focus[0], "--game", "0"]
        commands.append(
            (f"game 0 of {ctx.focus[0]} again, from this folder (any --variant, any --game)", shlex.join(replay))
        )
    notes.append(
        "Results are bit-identical for any --jobs and chunk size, so the run gives the same numbers on any "
        "machine. Any game can be replayed like game 0: simlab replay FOLDER --variant V --game N reads its "
        "seed, bots and settings from the folder; the simlab play lines above need only simlab."
    )
    return commands, notes
