"""A small card-value design and a deterministic stop rule for the tests of runs until settled (shared with the
subprocess the resume test kills)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from simlab.analysis.sequential import Verdict

#: a control and three one-card variants of Massilia; 10-game chunks, so the looks fall on 20, 40, 60, 80, 120...
CARDS = """\
description = "card values until settled (test)"
game = "massilia"
players = 4
seed = 77
chunk_size = 10
lineup = ["trader", "random", "random", "priest"]
preset = "rulebook"
until = "settled"
max_games = 200
tolerance = 2.0

[variants.control]

[variants.jupiter_seat0]
set = { bonus_card = "jupiter", bonus_card_seat = 0 }

[variants.junon_seat1]
set = { bonus_card = "junon", bonus_card_seat = 1 }

[variants.mars_seat2]
set = { bonus_card = "mars", bonus_card_seat = 2 }
"""

#: the games (of the card's variant and the control in common) at which each card's verdict settles
SETTLE_AT = {"jupiter_seat0": 40, "junon_seat1": 40, "mars_seat2": 100}


def games_per_variant(folder: Path) -> dict[str, int]:
    """Distinct games on disk per variant, read from the rows."""
    import polars as pl

    from simlab.run.reader import load_results

    df = load_results(folder).group_by("variant").agg(pl.col("game").n_unique().alias("n")).collect()
    return dict(zip(df["variant"].to_list(), df["n"].to_list(), strict=True))


def judge(folder: Path, tolerance: float, alpha: float, settle_at: dict[str, int] | None = None) -> list[Verdict]:
    """Each card's verdict settles ("within") once it and the control have ``SETTLE_AT`` games in common; its
    band narrows as 1/√n before that."""
    n = games_per_variant(folder)
    out = []
    for card, at in (settle_at or SETTLE_AT).items():
        common = min(n.get(card, 0), n.get("control", 0))
        half = 0.02 * (at / max(common, 1)) ** 0.5
        state = "within" if common >= at else "open"
        out.append(
            Verdict(card, f"{card} value", ("control", card), 0.001, 0.001 - half, 0.001 + half, common, state, 0)
        )
    return out


def never(folder: Path, tolerance: float, alpha: float) -> list[Verdict]:
    """Only jupiter settles (at 40); the others stay open to the cap."""
    return judge(folder, tolerance, alpha, {"jupiter_seat0": 40, "junon_seat1": 10**9, "mars_seat2": 10**9})


#: the games in common at which the mars card goes out of reach in ``far``
OUT_OF_REACH_AT = 60


def far(folder: Path, tolerance: float, alpha: float) -> list[Verdict]:
    """Jupiter and junon settle at 40 as in ``judge``; mars never settles, and from ``OUT_OF_REACH_AT`` games in
    common its chance of settling by the cap is 1% (before: 50%), with 10,000 games needed at its estimate."""
    out = judge(folder, tolerance, alpha, {"jupiter_seat0": 40, "junon_seat1": 40, "mars_seat2": 10**9})
    mars = out[-1]
    p = 0.01 if mars.n >= OUT_OF_REACH_AT else 0.5
    return [*out[:-1], Verdict(*[getattr(mars, k) for k in Verdict.__dataclass_fields__][:9], p, 10_000)]


#: the subprocess the resume tests kill: it plays the card design until settled with the judge named ``{judge}``
#: (a function of this module) and dies (SIGKILL) right after the runner has put its ``kill_after``-th part in place
KILLED = """
import os, signal, sys
sys.path.insert(0, {here!r})
from settle_support import CARDS, {judge}
import simlab.run.runner as runner
from simlab.experiments.settle import run_scenario
from simlab.run.scenario import parse_scenario

added = runner._Run.add
count = [0]
def add(self, result, fail_fast):
    out = added(self, result, fail_fast)
    count[0] += 1
    if count[0] == {kill_after}:
        os.kill(os.getpid(), signal.SIGKILL)
    return out
runner._Run.add = add
run_scenario(parse_scenario(CARDS, source="cards.toml", default_name="cards"), out={out!r}, jobs=1, progress=False,
             judge={judge})
"""


def run_killed(out: Path, kill_after: int, judge: str) -> None:
    """Play CARDS until settled with the judge named ``judge`` into ``out`` in a subprocess that is killed (SIGKILL)
    right after the runner has put its ``kill_after``-th part in place."""
    script = KILLED.format(here=str(Path(__file__).parent), kill_after=kill_after, out=str(out), judge=judge)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert proc.returncode == -9, proc.stderr
