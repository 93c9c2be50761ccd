"""A shipped scenario's ``[fix]`` question answered by ``find_fix`` from Python, with the overrides this machine
needs (a smaller budget, fewer certification games, a shorter panel), its progress printed and its answer
(``FixResult.to_dict()``) written as JSON:

    python benchmarks/fix_scenario.py scenarios/roma_fix.toml --panel builder,warrior --json /tmp/fixbench/roma.json

What ``simlab fix SCENARIO --budget B --panel ...`` does once the command is in (without the result folder).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere in the checkout

import simlab
from simlab.experiments.fix import find_fix
from simlab.experiments.fix_question import fix_question_from_table
from simlab.run.scenario import load_scenario


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", type=Path)
    ap.add_argument("--budget", type=int, help="search games (the [fix] table's budget by default)")
    ap.add_argument("--certify-games", type=int, help="fresh games per certification lineup")
    ap.add_argument("--batch", type=int, help="games per setting and round")
    ap.add_argument("--panel", help="comma-separated bot specs (the [fix] table's panel by default)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", type=Path, required=True, help="where the answer goes")
    args = ap.parse_args(argv)
    sc = load_scenario(args.scenario)
    table = dict(sc.fix)
    if args.budget is not None:
        table["budget"] = args.budget
    if args.certify_games is not None:
        table["certify_games"] = args.certify_games
    if args.batch is not None:
        table["batch"] = args.batch
    if args.panel is not None:
        table["panel"] = [p for p in args.panel.split(",") if p]
    game = simlab.get_game(sc.game)
    q = fix_question_from_table(table, game, sc.variants[0].config, sc.seats, sc.source, sc.seed)
    t0 = time.perf_counter()

    def say(info: dict) -> None:
        best = info.get("best")
        extra = {k: v for k, v in info.items() if k != "best"}
        print(f"{time.perf_counter() - t0:7.0f} s  {extra}  best: {best}", flush=True)

    result = find_fix(q, jobs=args.jobs, progress=say)
    answer = {
        "scenario": str(args.scenario),
        "overrides": {k: table[k] for k in ("budget", "batch", "certify_games", "panel") if k in table},
        "seconds": round(time.perf_counter() - t0, 1),
        **result.to_dict(),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(answer, indent=1) + "\n")
    print(f"{result.status}: {result.change.describe() if result.change else 'no change'}; games {result.games}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
