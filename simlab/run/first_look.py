"""The first look at a finished run, printed by ``simlab run``: win share by seat and by bot, per variant.

Real analyses live in ``simlab.analysis``; this is the few lines a newcomer sees after ``make demo``.
"""

from __future__ import annotations

import math
from pathlib import Path

from simlab.run.reader import load_manifest, load_results

#: variants shown in the first look; a run of more (a card-value run has dozens) shows these and says how many
#: more there are (the analysis commands show all of them)
MAX_VARIANTS = 6


def first_look_lines(folder: str | Path, max_variants: int = MAX_VARIANTS) -> list[str]:
    """Win share (%) by seat with a 95% interval, and by bot, for the first ``max_variants`` variants of a
    result folder."""
    import polars as pl

    manifest = load_manifest(folder)
    everything = [v["name"] for v in manifest["variants"]]
    variants = everything[:max_variants]
    hidden = len(everything) - len(variants)
    players = int(manifest["players"])
    rows = load_results(folder)
    by_seat = (
        rows.group_by("variant", "seat")
        .agg(n=pl.len(), mean=pl.col("win_share").mean(), sd=pl.col("win_share").std())
        .collect()
    )
    by_bot = rows.group_by("variant", "bot").agg(mean=pl.col("win_share").mean()).collect()
    bots = sorted(set(by_bot["bot"].to_list()))

    width = max([len(v) for v in variants] + [7])
    seat_cell = {(r["variant"], r["seat"]): r for r in by_seat.iter_rows(named=True)}
    games = {v: manifest_games(manifest, v) for v in variants}
    counts = sorted(set(games.values()))
    told = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"
    told += " games per variant"
    lines = [f"win share by seat (%, ±95% interval), {told}:"]
    lines.append("  " + "variant".ljust(width) + "".join(f"{'seat ' + str(s):>14}" for s in range(players)))
    for v in variants:
        cells = []
        for s in range(players):
            r = seat_cell.get((v, s))
            if r is None or not r["n"]:
                cells.append(f"{'-':>14}")
                continue
            half = 1.96 * (r["sd"] or 0.0) / math.sqrt(r["n"]) * 100
            cells.append(f"{r['mean'] * 100:.1f} ±{half:.1f}".rjust(14))
        lines.append("  " + v.ljust(width) + "".join(cells))
    bot_cell = {(r["variant"], r["bot"]): r["mean"] for r in by_bot.iter_rows(named=True)}
    lines.append("win share by bot (%, per seat it held):")
    lines.append("  " + "variant".ljust(width) + "".join(f"{b:>14}" for b in bots))
    for v in variants:
        cells = [f"{bot_cell[(v, b)] * 100:>14.1f}" if (v, b) in bot_cell else f"{'-':>14}" for b in bots]
        lines.append("  " + v.ljust(width) + "".join(cells))
    if hidden:
        lines.append(f"  (the first {len(variants)} of {len(everything)} variants; the others: see the next command)")
    return lines


def manifest_games(manifest: dict, variant: str) -> int:
    for v in manifest["variants"]:
        if v["name"] == variant:
            return int(v["games_done"])
    return 0
