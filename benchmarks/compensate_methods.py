"""``simlab compensate`` by its two methods on the same question: ``--method fix`` (simlab fix's search, objective
most_equal: the default) against ``--method softmax`` (compensate's own driver, kept for one release). A script,
not a timed test: per case the outcome, the vector, its confirmation (95% intervals, fresh games), the search games
and the wall time of each method, printed as a markdown table and kept as JSON lines in ``--out``.

Cases: ``synthetic`` (compensate's synthetic 4-seat game, fair at 0,1,2,3) and ``planted`` (the 4-seat surface
fair at 0,2,4,6), over ``--seeds``; ``pig`` (the real Pig engine, 2 players, hold-at-20: the second player's
head start in points); and a shipped game by name (``roma``, ``massilia``, ``pantheon``, ``merchant_of_venus``;
``--intervention points`` for the points knob), played through the CLI with the options after ``--``::

    python benchmarks/compensate_methods.py synthetic planted --seeds 0 1 2 3 4
    python benchmarks/compensate_methods.py pig
    python benchmarks/compensate_methods.py roma
    python benchmarks/compensate_methods.py roma -- --intervention points
    python benchmarks/compensate_methods.py massilia pantheon
    python benchmarks/compensate_methods.py merchant_of_venus -- --max-games 20000 --batch 1000 --confirm-games 4000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _row(case: str, method: str, result: Any, seconds: float) -> dict[str, Any]:
    conf = result.confirmation
    return {
        "case": case,
        "method": method,
        "outcome": result.outcome,
        "status": result.status,
        "value": [float(v) for v in result.value],
        "confirmation": [
            [round(s * 100, 2), round(lo * 100, 2), round(hi * 100, 2)]
            for s, lo, hi in zip(conf.shares, conf.lo, conf.hi, strict=True)
        ],
        "confirm_games": conf.games,
        "search_games": result.games,
        "seconds": round(seconds, 1),
    }


def synthetic_rows(name: str, seeds: list[int], methods: list[str]) -> list[dict[str, Any]]:
    """Both methods on a synthetic surface (common random numbers, as the engine's seeds give)."""
    from simlab.experiments import fair_vector as fv
    from simlab.experiments.compensate_fix import compensate_by_fix
    from simlab.experiments.knob_search import KnobSearch
    from tests.examples.pig.game import GAME as PIG
    from tests.experiments.test_fix import PLANTED, softmax_truth, surface
    from tests.experiments.test_fix_presets import _vector_play

    truth = softmax_truth(-0.15 * np.array([0, 1, 2, 3]), 0.15) if name == "synthetic" else PLANTED
    rows = []
    for seed in seeds:
        search = KnobSearch(PIG, PIG.make_config(players=4), "start_points", ["holder"] * 4, 1000, 80_000, seed)
        if "softmax" in methods:
            t = time.perf_counter()
            old = fv.find_fair_vector(search, play=_vector_play(truth))
            rows.append(_row(f"{name} seed {seed}", "softmax", old, time.perf_counter() - t))
        if "fix" in methods:
            t = time.perf_counter()
            new, _fixed = compensate_by_fix(search, play=surface(truth))
            rows.append(_row(f"{name} seed {seed}", "fix", new, time.perf_counter() - t))
    return rows


def pig_rows(methods: list[str]) -> list[dict[str, Any]]:
    """Both methods on the real Pig engine: 2 players, hold-at-20, the head start in points."""
    from simlab.experiments import fair_vector as fv
    from simlab.experiments.compensate_fix import compensate_by_fix
    from simlab.experiments.knob_search import KnobSearch
    from tests.examples.pig.game import GAME as PIG

    search = KnobSearch(PIG, PIG.make_config(players=2), "start_points", ["holder"] * 2, 2000, 200_000, 0)
    rows = []
    if "softmax" in methods:
        t = time.perf_counter()
        rows.append(_row("pig", "softmax", fv.find_fair_vector(search), time.perf_counter() - t))
    if "fix" in methods:
        t = time.perf_counter()
        rows.append(_row("pig", "fix", compensate_by_fix(search)[0], time.perf_counter() - t))
    return rows


def game_rows(game: str, extra: list[str], methods: list[str]) -> list[dict[str, Any]]:
    """Both methods through the CLI (``simlab compensate GAME --method M --json --jobs 1`` and ``extra``)."""
    rows = []
    for method in methods:
        cmd = [sys.executable, "-m", "simlab.cli", "compensate", game, "--method", method, "--json", "-j", "1", *extra]
        t = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True)
        seconds = time.perf_counter() - t
        d = json.loads(done.stdout)
        conf = d["tables"]["confirmation"]
        rows.append(
            {
                "case": " ".join([game, *extra]),
                "method": method,
                "outcome": d["outcome"],
                "status": d["status"],
                "value": d["value"],
                "confirmation": [
                    [
                        round(r["win_share"] * 100, 2),
                        round(r["win_share_lo"] * 100, 2),
                        round(r["win_share_hi"] * 100, 2),
                    ]
                    for r in conf
                ],
                "confirm_games": conf[0]["games"],
                "search_games": d["games"],
                "seconds": round(seconds, 1),
            }
        )
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    out = [
        "| case | method | outcome | vector | confirmation, % [95%] by seat | search games | time |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        vec = ",".join(f"{v:g}" for v in r["value"])
        conf = " / ".join(f"{s:.1f} [{lo:.1f}, {hi:.1f}]" for s, lo, hi in r["confirmation"])
        out.append(
            f"| {r['case']} | {r['method']} | {r['outcome']} ({r['status']}) | {vec} | {conf} "
            f"(n={r['confirm_games']:,}) | {r['search_games']:,} | {r['seconds']:g} s |"
        )
    return "\n".join(out)


def main() -> None:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases", nargs="+")
    p.add_argument("--seeds", type=int, nargs="+", default=[1])
    p.add_argument("--out", default="/tmp/compensate_methods.jsonl")
    p.add_argument("--methods", nargs="+", choices=["softmax", "fix"], default=["softmax", "fix"])
    a = p.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for case in a.cases:
        if case in ("synthetic", "planted"):
            new = synthetic_rows(case, a.seeds, a.methods)
        elif case == "pig":
            new = pig_rows(a.methods)
        else:
            new = game_rows(case, extra, a.methods)
        with open(a.out, "a") as f:
            for r in new:
                f.write(json.dumps(r) + "\n")
        rows += new
        print(markdown(new), flush=True)


if __name__ == "__main__":
    main()
