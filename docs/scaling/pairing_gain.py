"""What the shared seeds buy, per analysis: unpaired over paired standard errors, measured on real runs.

Every variant plays game i with the same seed, so a variant's change is measured game by game. This runs
scenarios/quickstart.toml (rulebook vs the 2014 edition: seat changes in win share and in score) and
scenarios/card_value.toml (card values in win share and in score) at a given size and prints, per analysis, the
ratio of the unpaired standard error (the two variants' rows as independent samples: what independent seeds
would give) to the paired one, as min / median / max over the seats or cards. An interval r times narrower
needs r² times fewer games.

    PYTHONPATH=. python docs/scaling/pairing_gain.py [quickstart games] [card games] [out folder]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import polars as pl

import simlab
from simlab import analysis as A
from simlab.analysis import stats


def _summary(name: str, ratios: np.ndarray, n: int) -> None:
    print(f"{name:44s} n={n:>6,}  x{ratios.min():.3f}  median x{np.median(ratios):.3f}  max x{ratios.max():.3f}")


def seats(folder: Path) -> None:
    rows = simlab.load_results(folder)
    z = stats.z_value(0.95)
    for metric in ("win_share", "score"):
        cmp = A.compare_variants(rows, "rulebook", metric=metric)
        per = (
            rows.group_by("variant", "seat")
            .agg(pl.col(metric).cast(pl.Float64).var().alias("v"), pl.len().alias("n"))
            .collect()
        )
        v = {(r["variant"], r["seat"]): r["v"] / r["n"] for r in per.iter_rows(named=True)}
        ratios = np.array(
            [
                np.sqrt(v[(r["variant"], r["seat"])] + v[("rulebook", r["seat"])])
                / ((r["diff_hi"] - r["diff_lo"]) / 2 / z)
                for r in cmp.iter_rows(named=True)
            ]
        )
        _summary(f"seat change ({metric}), quined2014 vs rulebook", ratios, int(cmp["games"][0]))


def cards(folder: Path) -> None:
    paired, unpaired = A.card_value(folder), A.card_value(folder, paired=False)
    both = paired.join(unpaired, on="label", suffix="_u")
    for col, name in (("win_share_diff", "win share"), ("score_diff", "score")):
        width = both[f"{col}_hi"] - both[f"{col}_lo"]
        ratios = ((both[f"{col}_hi_u"] - both[f"{col}_lo_u"]) / width).to_numpy()
        _summary(f"card value ({name}), {both.height} interventions", ratios, int(both["games"][0]))


def main(seat_games: int = 10_000, card_games: int = 1_000, out: str = "results/pairing_gain") -> None:
    root = Path(out)
    here = Path(__file__).resolve().parents[2] / "scenarios"
    q = simlab.run_scenario(
        here / "quickstart.toml", games=seat_games, jobs=1, out=root / "quickstart", resume=True, progress=False
    )
    seats(q)
    c = simlab.run_scenario(
        here / "card_value.toml", games=card_games, jobs=1, out=root / "cards", resume=True, progress=False
    )
    cards(c)


if __name__ == "__main__":
    a = sys.argv[1:]
    main(*(int(x) for x in a[:2]), *a[2:3])
