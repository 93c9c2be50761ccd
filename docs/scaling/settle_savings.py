"""The games a run until settled saves, measured: each scenario played at a fixed size and until settled.

For each ``NAME=GAMES`` (scenarios/NAME.toml at GAMES per variant): a fixed run of GAMES per variant and a run
``--until settled`` with ``max_games`` = GAMES, both timed (wall clock, the same ``--jobs``), then the games each
played and whether their verdicts agree: the settled run's verdicts (as it stopped) against the fixed run's read
at its full size with the same intervals (``settled_verdicts``). A verdict *agrees* when both say the same
(within, beyond in the same direction, or both open); *settled only early* when the settled run settled it and the
fixed run, at more games, leaves it open; *contradicts* when they settle it differently (an error of one of them).

Because game i is game i, the settled run's decisions can also be replayed from the fixed run's folder
(``settled_verdicts(..., games=look)`` at each look): the script checks that the replay gives the settled run's
record exactly, and uses it to give the games the rule needs at other tolerances without playing again.

    PYTHONPATH=. python docs/scaling/settle_savings.py OUT --tolerance 1 --also 2,3 --jobs 2 quickstart=10000 ...
    PYTHONPATH=. python docs/scaling/settle_savings.py --table LOG...   # the markdown table of the printed lines
    PYTHONPATH=. python docs/scaling/settle_savings.py --headline OUT 1,2,3 quickstart=10000 ...   # replays only,
    PYTHONPATH=. python docs/scaling/settle_savings.py --replay OUT 1,2,3 quickstart=10000 ...     # settle = ...
    PYTHONPATH=. python docs/scaling/settle_savings.py --headline OUT 1 --futility 0,0.05,0.01 quickstart ...

``--headline`` replays the rule of ``--settle headline`` (the headline verdicts, their intervals simultaneous
over that family alone), ``--replay`` that of ``--settle every``; both print the verdicts' agreement with the
fixed run's read at its full size by the same family. ``--futility P,Q,...`` replays each tolerance at each
futility threshold (0: none; default 0); a NAME without ``=GAMES`` is replayed at the scenario's shipped size.
Besides *agree*, *settled only early* and *contradicts*, a verdict the rule left open that the fixed run settles
at its full size is counted as *lost*: to futility (out of reach) or otherwise. ``--json`` prints one JSON line
per scenario, tolerance and threshold instead of the markdown table (``--table-replays LOG`` makes the table).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import simlab
from simlab.analysis.sequential import settled_verdicts
from simlab.experiments.settle import Rule, Settle, look_step
from simlab.run.scenario import DEFAULT_FUTILITY, load_scenario


def replay(
    folder: Path, sc, tolerance: float, alpha: float, max_games: int, settle: str = "every", futility: float = 0.0
) -> Settle:
    """The rule's decisions replayed on a fixed run's folder: each look reads each variant's games below the count
    the rule had asked of it (a stopped variant: where it stopped) (``settle``: the
    family of verdicts the rule waits for, "every" or "headline", its intervals simultaneous over that family;
    ``futility``: the rule's threshold, its open verdicts' chances read against ``max_games``)."""
    look: list[dict[str, int]] = [{}]
    sc = sc.with_options(games=max_games)

    def judge(_folder: Path, tol: float, a: float):
        return settled_verdicts(folder, tol, a, games=look[0], family=settle, cap=max_games if futility else None)

    rule = Rule(tolerance, alpha, max_games, settle, futility)
    s = Settle(rule, sc.variant_names, look_step(sc, max_games), judge, players=sc.players)
    s.begin({})
    reached = dict.fromkeys(sc.variant_names, 0)
    while True:
        want = s.targets(folder, reached)
        if want == reached:
            return s
        reached, look[0] = dict(want), dict(want)


def agreement(record: dict, fixed: Path, tolerance: float, alpha: float, settle: str = "every") -> dict[str, int]:
    full = {
        v.key: (v.state, v.direction if v.state == "beyond" else 0)
        for v in settled_verdicts(fixed, tolerance, alpha, family=settle)
    }
    out = {"agree": 0, "settled only early": 0, "contradicts": 0, "lost to futility": 0, "lost otherwise": 0}
    for v in record["verdicts"]:
        mine = (v["state"], v["direction"] if v["state"] == "beyond" else 0)
        theirs = full[v["key"]]
        if mine == theirs:
            out["agree"] += 1
        elif theirs[0] == "open":
            out["settled only early"] += 1
        elif mine[0] == "open":  # the fixed run settles it at its full size; the rule stopped without it
            out["lost to futility" if v.get("out_of_reach_at") is not None else "lost otherwise"] += 1
        else:
            out["contradicts"] += 1
    return out


def replay_rows(out: Path, runs: list[str], tolerances: list[float], futilities: list[float], settle: str,
                alpha: float = 0.05):  # fmt: skip
    """One dict per scenario, tolerance and futility threshold: the games the replayed rule plays, its outcome,
    the verdicts it settled, put out of reach, and their agreement with the fixed run at its full size."""
    for item in runs:
        name, _, games = item.partition("=")
        sc = load_scenario(Path("scenarios") / f"{name}.toml")
        cap = int(games) if games else sc.games
        folder = out / "fixed" / name
        for t in tolerances:
            for f in futilities:
                t0 = time.perf_counter()
                r = replay(folder, sc, t, alpha, cap, settle, f).record()[1]
                verdicts = r["verdicts"]
                yield {
                    "scenario": name,
                    "game": sc.game,
                    "variants": len(sc.variants),
                    "cap": cap,
                    "settle": settle,
                    "tolerance": t,
                    "futility": f,
                    "fixed games": cap * len(sc.variants),
                    "games": sum(v["games"] for v in r["variants"].values()),
                    "outcome": r["outcome"],
                    "looks": r["looks"],
                    "verdicts": len(verdicts),
                    "settled": sum(v["state"] != "open" for v in verdicts),
                    "out of reach": sum(v.get("out_of_reach_at") is not None for v in verdicts),
                    "agreement": agreement(r, folder, t, alpha, settle),
                    "replay s": round(time.perf_counter() - t0, 1),
                }


def replay_table(rows: list[dict], seconds: dict[str, float] | None = None) -> None:
    """The markdown table of ``replay_rows``: a row per scenario, a column per (tolerance, futility); with
    ``seconds`` (each fixed run's wall time), the fixed run's seconds and the default rule's estimated from them in
    proportion to the games (no look's cost counted)."""
    cols = sorted({(r["tolerance"], r["futility"]) for r in rows})
    names = list(dict.fromkeys(r["scenario"] for r in rows))
    by = {(r["scenario"], r["tolerance"], r["futility"]): r for r in rows}
    head = [f"{t:g} pt, futility {f:g}" if f else f"{t:g} pt, no futility" for t, f in cols]
    default = next((c for c in cols if c[1] == DEFAULT_FUTILITY), cols[0])
    timed = " fixed s | ≈ s, default rule |" if seconds else ""
    print("| scenario (game) | variants × cap = fixed games |" + timed + " " + " | ".join(head) + " |")
    print("| --- | ---: |" + (" ---: | ---: |" if seconds else "") + " " + " | ".join("---:" for _ in cols) + " |")
    total = {c: 0 for c in cols}
    fixed = 0
    spent = [0.0, 0.0]
    for name in names:
        first = next(r for r in rows if r["scenario"] == name)
        fixed += first["fixed games"]
        cells = []
        for t, f in cols:
            r = by[(name, t, f)]
            total[(t, f)] += r["games"]
            a = r["agreement"]
            said = [f"{r['settled']}/{r['verdicts']} settled"]
            said += [f"{r['out of reach']} out of reach"] if r["out of reach"] else []
            said += [f"{a['agree']} agree"]
            said += [f"{a[k]} {k}" for k in ("settled only early", "contradicts", "lost to futility",
                                             "lost otherwise") if a[k]]  # fmt: skip
            cells.append(f"{r['games']:,} ({', '.join(said)})")
        times = ""
        if seconds:
            s_fixed = seconds[name]
            s_rule = s_fixed * by[(name, *default)]["games"] / first["fixed games"]
            spent[0], spent[1] = spent[0] + s_fixed, spent[1] + s_rule
            times = f" {s_fixed:,.0f} | {s_rule:,.0f} |"
        print(
            f"| {name} ({first['game']}) | {first['variants']} × {first['cap']:,} = {first['fixed games']:,} |"
            + times
            + " "
            + " | ".join(cells)
            + " |"
        )
    print(
        f"| **all** | {fixed:,} |"
        + (f" {spent[0]:,.0f} | {spent[1]:,.0f} |" if seconds else "")
        + " "
        + " | ".join(f"**{total[c]:,} ({fixed / max(total[c], 1):.2f}× fewer)**" for c in cols)
        + " |"
    )


def table(logs: list[str]) -> None:
    """The markdown table of the JSON lines the runs printed."""
    rows = [json.loads(line) for log in logs for line in Path(log).read_text().splitlines() if '"scenario"' in line]
    tols = sorted({t for r in rows for t in r["replays"]}, key=float)
    print(
        "| scenario (game) | variants × games | fixed: games, s | until settled (1 point): games, s, "
        "verdicts settled | verdicts agree | " + " | ".join(f"games at {float(t):g} points" for t in tols) + " |"
    )
    print("| --- | --- | ---: | ---: | --- | " + " | ".join("---:" for _ in tols) + " |")
    total = {"fixed": 0, "settled": 0, **{t: 0 for t in tols}}
    for r in rows:
        a = r["agreement"]
        agree = f"{a['agree']}/{r['verdicts']}" + (
            f", {a['settled only early']} early" if a["settled only early"] else ""
        )
        agree += f", {a['contradicts']} contradict" if a["contradicts"] else ""
        settled_s = "replayed" if r["settled s"] is None else f"{r['settled s']:.0f} s"
        print(
            f"| {r['scenario']} ({r['game']}) | {r['variants']} × {r['games per variant']:,} | "
            f"{r['fixed games']:,}, {r['fixed s']:.0f} s | {r['settled games']:,}, {settled_s}, "
            f"{r['settled verdicts']}/{r['verdicts']} | {agree} | "
            + " | ".join(f"{r['replays'][t]['games']:,}" for t in tols)
            + " |"
        )
        total["fixed"] += r["fixed games"]
        total["settled"] += r["settled games"]
        for t in tols:
            total[t] += r["replays"][t]["games"]
    ratio = [f"{total['fixed'] / max(total[k], 1):.2f}×" for k in ("settled", *tols)]
    print(
        f"| **all** | | {total['fixed']:,} | {total['settled']:,} ({ratio[0]} fewer) | | "
        + " | ".join(f"{total[t]:,} ({x} fewer)" for t, x in zip(tols, ratio[1:], strict=True))
        + " |"
    )


def headline_games(out: Path, runs: list[str], tolerances: list[float], alpha: float = 0.05, settle="headline") -> None:
    """Games the rule plays waiting for the family ``settle`` ("headline" or "every"), replayed on the fixed runs,
    with how many of its verdicts agree with the fixed run's at its full size (same family)."""
    what = f"settle = {settle}"
    print("| scenario | fixed games | " + " | ".join(f"{what}, {t:g} points" for t in tolerances) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in tolerances) + " |")
    total = [0] * (len(tolerances) + 1)
    for item in runs:
        name, _, games = item.partition("=")
        sc = load_scenario(Path("scenarios") / f"{name}.toml")
        games = games or str(sc.games)
        folder = out / "fixed" / name
        cells = []
        for i, t in enumerate(tolerances):
            r = replay(folder, sc, t, alpha, int(games), settle).record()[1]
            played = sum(v["games"] for v in r["variants"].values())
            total[i + 1] += played
            a = agreement(r, folder, t, alpha, settle)
            cells.append(
                f"{played:,} ({sum(v['state'] != 'open' for v in r['verdicts'])}/{len(r['verdicts'])} settled, "
                f"{a['agree']} agree, {a['settled only early']} early, {a['contradicts']} contradict)"
            )
        total[0] += int(games) * len(sc.variants)
        print(f"| {name} | {int(games) * len(sc.variants):,} | " + " | ".join(cells) + " |")
    print(
        f"| **all** | {total[0]:,} | "
        + " | ".join(f"{g:,} ({total[0] / max(g, 1):.2f}× fewer)" for g in total[1:])
        + " |"
    )


def main() -> None:
    if sys.argv[1:2] == ["--table"]:
        table(sys.argv[2:])
        return
    if sys.argv[1:2] == ["--table-replays"]:  # [--tolerance T] [--times LOG,..] JSONL...: the replays' table
        rest = sys.argv[2:]
        only, seconds = None, None
        if "--tolerance" in rest:
            i = rest.index("--tolerance")
            only, rest = float(rest[i + 1]), rest[:i] + rest[i + 2 :]
        if "--times" in rest:  # the fixed runs' logs: lines "NAME games=N seconds=S ..."
            i = rest.index("--times")
            logs, rest = rest[i + 1].split(","), rest[:i] + rest[i + 2 :]
            seconds = {
                line.split()[0]: float(line.split("seconds=")[1].split()[0])
                for log in logs
                for line in Path(log).read_text().splitlines()
                if "seconds=" in line
            }
        rows = [json.loads(line) for log in rest for line in Path(log).read_text().splitlines() if line[:1] == "{"]
        replay_table([r for r in rows if only is None or r["tolerance"] == only], seconds)
        return
    if sys.argv[1] in ("--headline", "--replay"):  # --headline|--replay OUT TOLERANCES [--futility P,..] NAMES...
        settle = "headline" if sys.argv[1] == "--headline" else "every"
        rest = sys.argv[4:]
        as_json = "--json" in rest
        rest = [a for a in rest if a != "--json"]
        futilities = None
        if "--futility" in rest:
            i = rest.index("--futility")
            futilities = [float(x) for x in rest[i + 1].split(",")]
            rest = rest[:i] + rest[i + 2 :]
        tolerances = [float(x) for x in sys.argv[3].split(",")]
        if futilities is None and not as_json:  # the table of earlier measurements: no futility
            headline_games(Path(sys.argv[2]), rest, tolerances, settle=settle)
            return
        rows = []
        for row in replay_rows(Path(sys.argv[2]), rest, tolerances, futilities or [0.0], settle):
            rows.append(row)
            if as_json:
                print(json.dumps(row), flush=True)
        if not as_json:
            replay_table(rows)
        return
    p = argparse.ArgumentParser()
    p.add_argument("out", type=Path)
    p.add_argument("runs", nargs="+", help="NAME=GAMES: scenarios/NAME.toml at GAMES per variant")
    p.add_argument("--tolerance", type=float, default=1.0, help="points of win share")
    p.add_argument("--also", default="", help="more tolerances to replay (comma-separated points)")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--settle", default="headline", help="the verdicts the rule waits for: headline or every")
    p.add_argument("--futility", type=float, default=DEFAULT_FUTILITY, help="the rule's threshold (0: none)")
    p.add_argument(
        "--replay-only", action="store_true", help="play the fixed run only; the settled run's games from the replay"
    )
    args = p.parse_args()
    also = [float(x) for x in args.also.split(",") if x]
    rows = []
    for item in args.runs:
        name, games = item.split("=")
        games = int(games)
        sc = load_scenario(Path("scenarios") / f"{name}.toml")
        fixed, settled = args.out / "fixed" / name, args.out / "settled" / name
        t0 = time.perf_counter()
        simlab.run_scenario(sc, games=games, out=fixed, jobs=args.jobs, progress=False)
        t_fixed = time.perf_counter() - t0
        again = replay(fixed, sc, args.tolerance, args.alpha, games, args.settle, args.futility).record()[1]
        t_settled, same, record = None, None, again
        if not args.replay_only:
            t0 = time.perf_counter()
            simlab.run_scenario(
                sc, until="settled", tolerance=args.tolerance, alpha=args.alpha, max_games=games, out=settled,
                jobs=args.jobs, progress=False, settle=args.settle, futility=args.futility,
            )  # fmt: skip
            t_settled = round(time.perf_counter() - t0, 1)
            record = json.loads((settled / "manifest.json").read_text())["stopping"]
            same = {k: again[k] for k in ("looks", "variants", "verdicts", "outcome")} == {
                k: record[k] for k in ("looks", "variants", "verdicts", "outcome")
            }
        played = sum(v["games"] for v in record["variants"].values())
        fixed_games = games * len(sc.variants)
        agree = agreement(record, fixed, args.tolerance, args.alpha, args.settle)
        replays = {}
        for tol in also:
            r = replay(fixed, sc, tol, args.alpha, games, args.settle, args.futility).record()[1]
            played = sum(v["games"] for v in r["variants"].values())
            replays[tol] = (played, agreement(r, fixed, tol, args.alpha, args.settle))
        row = {
            "scenario": name,
            "game": sc.game,
            "variants": len(sc.variants),
            "games per variant": games,
            "fixed games": fixed_games,
            "settled games": played,
            "outcome": record["outcome"],
            "verdicts": len(record["verdicts"]),
            "settled verdicts": sum(v["state"] != "open" for v in record["verdicts"]),
            "fixed s": round(t_fixed, 1),
            "settled s": t_settled,
            "agreement": agree,
            "replay equals the run": same,
            "replays": {str(t): {"games": g, "agreement": a} for t, (g, a) in replays.items()},
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    total_fixed = sum(r["fixed games"] for r in rows)
    total_settled = sum(r["settled games"] for r in rows)
    print(
        json.dumps(
            {
                "total fixed games": total_fixed,
                "total settled games": total_settled,
                "ratio": round(total_fixed / max(total_settled, 1), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
