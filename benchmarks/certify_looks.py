"""Which at-every-look test certifies more per game: the group-sequential boundaries of ``analysis.fix_looks`` or
the empirical-Bernstein confidence sequence of ``analysis.confseq`` (issue 34, docs/experiments.md).

A two-player seat share whose truth is ``p`` is certified within 1/2 ± δ by the two one-sided tests at level
``alpha`` per attempt, read at the looks of ``fix_looks.LOOK_FRACTIONS`` of the cap (futility as the fix driver
stops, the same for every method). Simulated as binomial sums (R streams per truth, seed 1); each method's row:
P(certified), the mean games and certifications per 100,000 games, and its rate at the band's edge (its level).

    python benchmarks/certify_looks.py --cap 30000 --alpha 0.025
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simlab.analysis.confseq import mean_sequence
from simlab.analysis.fix_looks import FUTILITY, LOOK_FRACTIONS, SPENDING_POWER, boundaries, look_sizes, predictive_pass


def simulate(
    p: float, cap: int, alpha: float, method: str, reps: int, delta: float, seed: int = 1, power: float = SPENDING_POWER
):
    """(P(certified), mean games) of ``reps`` streams of a seat share with truth ``p``."""
    rng = np.random.default_rng(seed)
    sizes = look_sizes(cap) if method != "fixed" else (cap,)
    z = boundaries(tuple(s / cap for s in sizes), alpha, power) if method == "looks" else None
    wins = np.zeros(reps)
    played = 0
    alive = np.ones(reps, bool)
    certified = np.zeros(reps, bool)
    games = np.full(reps, cap, float)
    for k, n in enumerate(sizes):
        wins += rng.binomial(n - played, p, reps)
        played = n
        mean = wins / n
        if method == "cs":
            _, lo, hi = mean_sequence(n, wins, wins, 0.0, 1.0, 0.5, 2 * alpha)
        else:
            zk = z[k] if z is not None else float(boundaries((1.0,), alpha)[0])
            se = np.sqrt(np.maximum(mean * (1 - mean), 1e-12) / n)
            lo, hi = mean - zk * se, mean + zk * se
        ok = alive & (lo > 0.5 - delta) & (hi < 0.5 + delta)
        certified |= ok
        games[ok] = n
        alive &= ~ok
        if k + 1 < len(sizes):
            se = np.sqrt(np.maximum(mean * (1 - mean), 1e-12) / n)
            z_end = z[-1] if z is not None else 2.0
            chance = np.array(
                [predictive_pass(np.array([m, 1 - m]), np.array([s, s]), n, cap, 0.5, delta, z_end)
                 for m, s in zip(mean, se, strict=True)]
            )  # fmt: skip
            stop = alive & (chance < FUTILITY)
            games[stop] = n
            alive &= ~stop
    return certified.mean(), games.mean()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cap", type=int, default=30_000)
    ap.add_argument("--alpha", type=float, default=0.025)
    ap.add_argument("--delta", type=float, default=0.01)
    ap.add_argument("--reps", type=int, default=4000)
    ap.add_argument("--power", type=float, default=SPENDING_POWER, help="the spending function's power ρ")
    args = ap.parse_args(argv)
    print(f"looks at {look_sizes(args.cap)} of {args.cap:,}; δ = {args.delta:g}; one-sided level {args.alpha:g}; "
          f"looks {LOOK_FRACTIONS}, spending α·t^{args.power:g}; {args.reps:,} streams per truth")  # fmt: skip
    print(f"{'method':8} {'truth':>6} {'P(certified)':>12} {'mean games':>10} {'per 100k games':>14}")
    for method in ("fixed", "looks", "cs"):
        for dev in (0.0, 0.0025, 0.005, args.delta):
            pc, g = simulate(0.5 + dev, args.cap, args.alpha, method, args.reps, args.delta, power=args.power)
            print(f"{method:8} {dev * 100:6.2f} {pc:12.3f} {g:10,.0f} {1e5 * pc / g:14.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
