"""Against the anchor's method (issue 34): TAG's NTBEA game tuning and simlab's ``fix`` on the same question.

Each method is run R times on a question (benchmarks/questions.py: the planted-truth Pig, Massilia's first-seat
advantage), each repetition with its own seeds; every setting a method ends on is then judged by the truth
table (benchmarks/truth.py: its seat shares on many fresh games). The report says, per method and budget, how
often it ended on a setting that is truly fair within ±δ, how often it *claimed* fairness (NTBEA: its own
re-score within ±δ; fix: certified), the claims that were wrong, the games used and the wall time.

    python benchmarks/fix_vs_ntbea.py truth pig --all              # every grid setting's truth (cached)
    python benchmarks/fix_vs_ntbea.py ntbea pig --reps 20 --iterations 10000
    python benchmarks/fix_vs_ntbea.py fix pig --reps 20 --budget 40000
    python benchmarks/fix_vs_ntbea.py report pig                   # plays the truth of any new ending

Results accumulate in ``--out`` (default /tmp/fixbench/bench/QUESTION/), one file per method and budget (so
several runs may go on at once; a repetition already there is not run again); the truth tables are
benchmarks/data/truth_QUESTION.json (committed, with their provenance).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere in the checkout

from benchmarks.fresh_games import FreshGames
from benchmarks.ntbea import EVAL_GAMES, REPEATS, ntbea
from benchmarks.questions import QUESTIONS, BenchQuestion
from benchmarks.truth import TruthTable, borderline, truly_fair

DATA = Path(__file__).parent / "data"
OUT = Path("/tmp/fixbench/bench")
#: NTBEA repetition r plays its games under this root seed (fix's: FIX_SEED + r); the truth has its own
NTBEA_SEED = 1_000
FIX_SEED = 2_000


def truth_table(q: BenchQuestion, path: Path | None = None) -> TruthTable:
    return TruthTable(path or DATA / f"truth_{q.name}.json", q.provenance())


def load(folder: Path) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Every method's repetitions by budget: ``{method: {label: [rep, ...]}}`` from ``folder/method_label.json``."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for path in sorted(folder.glob("*.json")):
        method, label = path.stem.split("_", 1)
        out.setdefault(method, {})[label] = json.loads(path.read_text())
    return out


def save(folder: Path, method: str, label: str, reps: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{method}_{label}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(reps, indent=1) + "\n")
    tmp.replace(path)


# -- the anchor ---------------------------------------------------------------------------------------------------
def run_ntbea(q: BenchQuestion, rep: int, iterations: int) -> dict[str, Any]:
    """One repetition of TAG's procedure: 5 NTBEA runs of ``iterations`` games, each recommendation re-scored on
    200 games, the best re-score wins."""
    fresh = FreshGames(q.play_index, seed=NTBEA_SEED + rep)
    t0 = time.perf_counter()
    result = ntbea(fresh, q.sizes, q.seats, iterations, seed=NTBEA_SEED + rep)
    best = result.runs[result.best]
    return {
        "rep": rep,
        "setting": list(q.values(result.setting)),
        "games": result.games,
        "seconds": round(time.perf_counter() - t0, 2),
        "claimed_deviation": round(result.claimed_deviation, 6),
        "claimed_shares": [round(float(x), 4) for x in best.rescore],
        "claimed_se": [round(float(x), 4) for x in best.rescore_se],
        "claims_fair": bool(result.claimed_deviation <= q.delta),
        "runs": [list(q.values(r.recommended)) for r in result.runs],
    }


# -- the report ---------------------------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a rate k/n."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} ({100 * k / n:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}])" if n else "-"


def rows(q: BenchQuestion, results: dict[str, Any], truth: TruthTable) -> list[dict[str, Any]]:
    """One row per method and budget: truly fair endings, claims (right, wrong), the optimism of the method's
    own figure for its ending (truth's worst deviation minus the one it reports, points), games, wall time."""
    out = []
    for method, runs in sorted(results.items()):
        for budget, reps in sorted(runs.items(), key=lambda kv: [int(x) for x in re.findall(r"\d+", kv[0])]):
            ended = [(r, truth.entry(r["setting"], q.play_values)) for r in reps if r["setting"] is not None]
            claims = [e for r, e in ended if r["claims_fair"]]
            said = [(r.get("claimed_deviation", r.get("certified_deviation")), e) for r, e in ended]
            gaps = [100 * (e["deviation"] - d) for d, e in said if d is not None]
            out.append({
                "method": method, "budget": budget, "reps": len(reps),
                "fair": sum(truly_fair(e, q.delta) for _, e in ended),
                "claims": len(claims), "right": sum(truly_fair(e, q.delta) for e in claims),
                "borderline": sum(borderline(e, q.delta) for _, e in ended),
                "optimism": f"{sum(gaps) / len(gaps):+.1f}" if gaps else "-",
                "games": sum(r["games"] for r in reps) / len(reps),
                "seconds": sorted(r["seconds"] for r in reps)[len(reps) // 2],
            })  # fmt: skip
    return out


def summarise(q: BenchQuestion, results: dict[str, Any], truth: TruthTable, markdown: bool = False) -> list[str]:
    """The rows as a text table (or as markdown table rows for docs/experiments.md)."""
    table = rows(q, results, truth)
    if markdown:
        return [
            f"| {r['method']} | {r['budget']} | {r['reps']} | {rate(r['fair'], r['reps'])} | {r['claims']} | "
            f"{r['right']} | {r['claims'] - r['right']} | {r['optimism']} | {r['games']:,.0f} | {r['seconds']:.0f} s |"
            for r in table
        ]
    lines = [
        f"question {q.name}: fair = every seat within 1/{q.seats} ± {q.delta:g}; truth: up to {truth.games:,} fresh "
        f"games per setting ({truth.path.name})",
        f"{'method':8} {'budget':30} {'reps':>4}  {'ends truly fair':22} {'claims fair':>11} {'right':>5} "
        f"{'wrong':>5} {'borderline':>10} {'optimism pts':>12} {'games (mean)':>12} {'wall s (median)':>15}",
    ]
    for r in table:
        lines.append(
            f"{r['method']:8} {r['budget']:30} {r['reps']:4}  {rate(r['fair'], r['reps']):22} {r['claims']:>11} "
            f"{r['right']:>5} {r['claims'] - r['right']:>5} {r['borderline']:>10} {r['optimism']:>12} "
            f"{r['games']:12,.0f} {r['seconds']:15.1f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["truth", "ntbea", "fix", "report"])
    ap.add_argument("question", choices=sorted(QUESTIONS))
    ap.add_argument("--reps", type=int, default=10, help="repetitions R (seeds 0..R-1)")
    ap.add_argument("--iterations", type=int, default=1000, help="NTBEA iterations per run (TAG's default 1000)")
    ap.add_argument("--budget", type=int, default=None, help="fix: most games its search may spend")
    ap.add_argument("--certify-games", type=int, default=None, help="fix: fresh games per certification (20,000)")
    ap.add_argument(
        "--seed-offset",
        type=int,
        default=0,
        help="fix: repetition r plays under root seed FIX_SEED + offset + r (another set of repetitions)",
    )
    ap.add_argument("--all", action="store_true", help="truth: every setting of the grid")
    ap.add_argument("--markdown", action="store_true", help="report: markdown table rows")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--truth", type=Path, default=None, help="the truth table (default benchmarks/data/...)")
    args = ap.parse_args(argv)
    q = QUESTIONS[args.question]()
    out = args.out or OUT / q.name
    results = load(out)
    if args.what == "truth":
        import itertools

        table = truth_table(q, args.truth)
        if args.all:
            for setting in itertools.product(*(d.values for d in q.dims)):
                t0 = time.perf_counter()
                e = table.entry(setting, q.play_values)
                print(setting, e["shares"], e["deviation"], f"{time.perf_counter() - t0:.1f} s", flush=True)
        return 0
    if args.what == "ntbea":
        label = f"iterations={args.iterations}"
        done = results.setdefault("ntbea", {}).setdefault(label, [])
        for rep in range(args.reps):
            if any(r["rep"] == rep for r in done):
                continue
            r = run_ntbea(q, rep, args.iterations)
            done.append(r)
            save(out, "ntbea", label, done)
            print(f"ntbea rep {rep}: {r['setting']} claimed {r['claimed_deviation']:.4f} "
                  f"({r['games']:,} games, {r['seconds']:.0f} s)", flush=True)  # fmt: skip
        return 0
    if args.what == "fix":
        from benchmarks.fix_runs import run_fix

        if args.budget is None:
            ap.error("fix needs --budget (the most games its search may spend)")
        label = f"budget={args.budget}" + (f",certify={args.certify_games}" if args.certify_games else "")
        label += f",seeds={FIX_SEED + args.seed_offset}+" if args.seed_offset else ""
        done = results.setdefault("fix", {}).setdefault(label, [])
        for rep in range(args.reps):
            if any(r["rep"] == rep for r in done):
                continue
            r = run_fix(q, rep, args.budget, FIX_SEED + args.seed_offset + rep, args.certify_games)
            done.append(r)
            save(out, "fix", label, done)
            print(f"fix rep {rep}: {r['status']} {r['setting']} ({r['games']:,} games, {r['seconds']:.0f} s)",
                  flush=True)  # fmt: skip
        return 0
    print("\n".join(summarise(q, results, truth_table(q, args.truth), args.markdown)))
    print(f"(NTBEA: {REPEATS} runs of I iterations + {EVAL_GAMES} re-score games each, the best re-score kept)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
