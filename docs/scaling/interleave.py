"""Measure runner overhead or parallel efficiency as back-to-back pairs, so the machine's drift cancels out.

On a shared VM the same command's speed drifts by 10-20% within minutes, as much as the effects measured
here. Each round times the two sides of a comparison one right after the other, alternating which goes
first (A B, B A, ...), and prints every round's ratio and their median:

    # runner overhead: `simlab run` against `simlab bench --rotate` (the same games), both on -j 2
    python docs/scaling/interleave.py overhead docs/scaling/roma_1m.toml --games 1000000 --rounds 4
    # parallel efficiency: `simlab bench -j 2` against twice `simlab bench -j 1` (games per job equal)
    python docs/scaling/interleave.py efficiency massilia --players 4 --bots trader,priest,trader,priest \
        --games 40000 --rounds 4

The overhead is given three ways. The run's session (the manifest's: compile time excluded, starting its
workers included) against the bench's games/s, whose clock starts after its workers are up; the same run
against the bench counting its workers' start-up too (the fixed cost both pay); and both in steady state
(the run's games between its 10% and 90% marks). Nothing is asserted: the figures are for docs/scaling.md.
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


def bench_rates(args: list[str]) -> tuple[float, float]:
    """games/s printed by `simlab bench` (its last line), and counting its workers' start-up (0 on one job)."""
    lines = subprocess.run([*SIMLAB, "bench", *args], capture_output=True, text=True, check=True).stdout.splitlines()
    with_start = [float(line.split(", ")[-1].split()[0]) for line in lines if line.startswith("worker start-up")]
    return float(lines[-1].split(":")[1]), with_start[0] if with_start else 0.0


def bench_rate(args: list[str]) -> float:
    """games/s printed by `simlab bench` (its last line)."""
    return bench_rates(args)[0]


def run_rates(scenario: str, games: int, jobs: int) -> tuple[float, float]:
    """games/s of a fresh `simlab run`: over its whole session, and in steady state.

    The session is the manifest's: after the engine is loaded in the main process, until the last part, so
    it includes starting the workers (spawn, imports, numba's set-up, loading the engine) and the tail.
    Steady state is what the bench measures (its workers are started before its clock): games written
    between the 10% and 90% marks of the run, over the time between them, from the part files' mtimes
    (each part is written as its chunk arrives).
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        subprocess.run(
            [
                *SIMLAB,
                "run",
                scenario,
                "--games",
                str(games),
                "--out",
                str(out),
                "-j",
                str(jobs),
                "--quiet",
                "--no-compact",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        manifest = json.loads((out / "manifest.json").read_text())
        session = manifest["timings"]["sessions"][-1]
        arrivals = sorted(((out / "parts" / c["file"]).stat().st_mtime_ns, c["games"]) for c in manifest["chunks"])
        return session["games"] / session["seconds"], steady_rate(arrivals, session["games"])


def steady_rate(arrivals: list[tuple[int, int]], games: int) -> float:
    """games/s between the arrivals that complete 10% and 90% of ``games`` ((ns, games) pairs in time order)."""
    done, marks = 0, []
    for ns, n in arrivals:
        done += n
        marks.append((ns, done))
    first = next(m for m in marks if m[1] >= 0.1 * games)
    last = [m for m in marks if m[1] <= 0.9 * games][-1]
    return (last[1] - first[1]) / ((last[0] - first[0]) / 1e9)


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
    # an even number balances the order: whichever side runs first in a round tends to be faster on this VM
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--players", default=None)
    p.add_argument("--bots", default=None)
    args = p.parse_args()
    j = str(args.jobs)
    if args.what == "overhead":
        bench = [*bench_args_of(args.target), "--games", str(args.games), "-j", j]
        steady: list[float] = []
        bench_with_start: list[float] = []

        def bench_side() -> float:
            rate, with_start = bench_rates(bench)
            bench_with_start.append(with_start)
            print(f"  bench counting its workers' start-up: {with_start:,.0f} games/s", flush=True)
            return rate

        def run_side() -> float:
            whole, steady_state = run_rates(args.target, args.games, args.jobs)
            steady.append(steady_state)
            print(f"  run in steady state: {steady_state:,.0f} games/s", flush=True)
            return whole

        pairs = rounds(("bench --rotate", bench_side), ("run", run_side), args.rounds)
        ways = {
            "run's session against the bench's clock": [1 - run / b for b, run in pairs],
            "both counting their workers' start-up": [
                1 - run / b for (_, run), b in zip(pairs, bench_with_start, strict=True)
            ],
            "both in steady state": [1 - s / b for (b, _), s in zip(pairs, steady, strict=True)],
        }
        for way, ratios in ways.items():
            print(
                f"overhead, {way}: "
                + ", ".join(f"{x:.1%}" for x in ratios)
                + f"; median {statistics.median(ratios):.1%}"
            )
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
