"""Measure runner overhead or parallel efficiency as back-to-back pairs, so the machine's drift cancels out.

On a shared VM the same command's speed drifts by 10-20% within minutes, as much as the effects measured
here. Each round times the two sides of a comparison one right after the other, alternating which goes
first (A B, B A, ...), and prints every round's ratio and their median:

    # runner overhead: `simlab run` against `simlab bench --rotate` (the same games), both on -j 2
    python docs/scaling/interleave.py overhead docs/scaling/roma_1m.toml --games 1000000 --rounds 3
    # parallel efficiency: `simlab bench -j 2` against twice `simlab bench -j 1` (games per job equal)
    python docs/scaling/interleave.py efficiency massilia --players 4 --bots trader,priest,trader,priest \
        --games 40000 --rounds 3

The run's games/s is the manifest's (compile time excluded, as in the bench). Nothing is asserted: the
figures are for docs/scaling.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path

SIMLAB = [sys.executable, "-m", "simlab.cli"]


def bench_rate(args: list[str]) -> float:
    """games/s printed by `simlab bench` (its last line)."""
    out = subprocess.run([*SIMLAB, "bench", *args], capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1].split(":")[1])


def run_rate(scenario: str, games: int, jobs: int) -> float:
    """games/s of a fresh `simlab run` (the manifest's session: after the warm-up, until the last part)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        subprocess.run([*SIMLAB, "run", scenario, "--games", str(games), "--out", str(out), "-j", str(jobs),
                        "--quiet", "--no-compact"], check=True, stdout=subprocess.DEVNULL)
        session = json.loads((out / "manifest.json").read_text())["timings"]["sessions"][-1]
        return session["games"] / session["seconds"]


def bench_args_of(scenario: str) -> list[str]:
    """The bench that plays a scenario's games: its game, players, lineup rotated through the seats."""
    sc = tomllib.loads(Path(scenario).read_text())
    return [sc["game"], "--players", str(sc["players"]), "--bots", ",".join(sc["lineup"]), "--rotate"]


def rounds(a: tuple[str, Callable[[], float]], b: tuple[str, Callable[[], float]], n: int) -> list[tuple[float, float]]:
    """n rounds of (a, b) rates, timed back to back, the order swapped every round."""
    pairs = []
    for i in range(n):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        r1 = first[1]()
        r2 = second[1]()
        ra, rb = (r1, r2) if i % 2 == 0 else (r2, r1)
        print(f"round {i + 1}: {a[0]} {ra:,.0f} games/s, {b[0]} {rb:,.0f} games/s", flush=True)
        pairs.append((ra, rb))
    return pairs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=["overhead", "efficiency"])
    p.add_argument("target", help="overhead: a scenario file; efficiency: a game")
    p.add_argument("--games", type=int, required=True, help="overhead: games per side; efficiency: games per job")
    p.add_argument("--jobs", "-j", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--players", default=None)
    p.add_argument("--bots", default=None)
    args = p.parse_args()
    j = str(args.jobs)
    if args.what == "overhead":
        bench = [*bench_args_of(args.target), "--games", str(args.games), "-j", j]
        pairs = rounds(("bench --rotate", lambda: bench_rate(bench)),
                       ("run", lambda: run_rate(args.target, args.games, args.jobs)), args.rounds)
        ratios = [1 - run / b for b, run in pairs]
        print("overhead per round: " + ", ".join(f"{x:.1%}" for x in ratios))
        print(f"median runner overhead: {statistics.median(ratios):.1%}")
    else:
        extra = [*(["--players", args.players] if args.players else []), *(["--bots", args.bots] if args.bots else [])]
        one = [args.target, *extra, "--games", str(args.games), "-j", "1"]
        many = [args.target, *extra, "--games", str(args.games * args.jobs), "-j", j]
        pairs = rounds(("1 job", lambda: bench_rate(one)), (f"{j} jobs", lambda: bench_rate(many)), args.rounds)
        ratios = [m / (args.jobs * o) for o, m in pairs]
        print("parallel efficiency per round: " + ", ".join(f"{x:.0%}" for x in ratios))
        print(f"median parallel efficiency: {statistics.median(ratios):.0%}")


if __name__ == "__main__":
    main()
