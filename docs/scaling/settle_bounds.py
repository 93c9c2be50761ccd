"""Bounds on what any stopping rule could save on the shipped scenarios, replayed on their fixed runs.

``settle_savings.py`` replays today's rule (intervals valid at every look) on the fixed runs of the shipped
scenarios. This script replays, on the same folders, the same looks and the same per-variant stopping
(``simlab.experiments.settle.Settle``) with other judges, to bound what any rule could save:

- ``cs`` — today's intervals (empirical-Bernstein confidence sequences, Bonferroni over the headline family),
  with ``--futility`` as the rule reads it (the default rule at 0.05: the check that this replay is
  ``settle_savings.py``'s);
- ``cs+perfect`` — the same intervals, and a verdict the full fixed run leaves open (read with the same
  intervals) is put out of reach at the first look: *perfect futility*, the most any futility rule can give;
- ``cs-unsplit+perfect`` — each verdict's confidence sequence at the whole α (no Bonferroni split): no
  recycling of α from settled verdicts to open ones (Holm-like, Bartroff & Lai) can give a verdict more than
  the whole α, so this bounds what any such recycling adds to ``cs+perfect``;
- ``fixed`` — the *naive* rule: at each look each verdict read from the ordinary fixed-size normal 95% intervals
  (mean ± z·sd/√n, Bonferroni over the same family, as if the look had been fixed in advance). Not valid under
  optional stopping (it stops when noise favours a verdict); an upper bound on what intervals no wider than the
  fixed ones can save;
- ``fixed+perfect`` — the naive rule with perfect futility (a verdict the full fixed run's fixed intervals leave
  open is out of reach at the first look);
- ``report+perfect`` — as ``fixed+perfect`` with the report's own split of α (``simlab seats``: each variant's
  seats Bonferroni over its N seats, not over the variants; ``simlab cards``: over the K cards), narrower than
  the family's split in a design of several variants: the most favourable rule on the same looks;
- ``+fine``: the same judge with a look every ``FINE`` games from the first instead of the √2 grid from a first
  look of a chunk (or an eighth of the cap): ``cs+fine`` today's rule (futility as ``--futility``),
  ``fixed+fine`` and ``report+fine`` the naive rule at every look (no futility: where its false settlements
  show), ``cs+perfect+fine``, ``report+perfect+fine`` (the most favourable rule of all). The replay does not
  count the looks' own cost;
- ``+early``: today's √2 grid but from a first look of ``FINE`` games (about as many looks as today's):
  ``cs+early`` today's rule so, ``cs+perfect+early`` with perfect futility.

Each row counts the games and the verdicts that disagree with the full fixed run read by the same intervals
(*settled only early*: the full run leaves it open; *contradicts*: the full run settles it the other way;
*lost*: the rule left open one the full run settles). ``--where`` prints where today's rule spends its games.

    PYTHONPATH=. python docs/scaling/settle_bounds.py /work/runs/fixed --json NAME... > bounds.jsonl
    PYTHONPATH=. python docs/scaling/settle_bounds.py --table bounds.jsonl
    PYTHONPATH=. python docs/scaling/settle_bounds.py --where bounds.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any
from unittest import mock

import numpy as np

from simlab.analysis import sequential
from simlab.analysis.sequential import Question, is_headline, settled_verdicts, verdicts_from
from simlab.experiments import settle
from simlab.experiments.settle import Rule, Settle, look_grid, look_step
from simlab.run.reader import load_manifest
from simlab.run.scenario import load_scenario

#: the judges replayed, in the table's order
JUDGES = (
    "cs",
    "cs+perfect",
    "cs-unsplit+perfect",
    "fixed",
    "fixed+perfect",
    "report+perfect",
    "cs+fine",
    "fixed+fine",
    "report+fine",
    "cs+perfect+fine",
    "report+perfect+fine",
    "cs+early",
    "cs+perfect+early",
)
#: the look every this many games per variant of the ``+fine`` judges (rounded up to whole lineup rotations)
FINE = 100
#: a verdict settles *late* when its look is above this share of the cap
LATE = 0.5
ALPHA = 0.05

Intervals = Callable[[list[Question], float], list[tuple[float, float, float]]]


def fixed_intervals(questions: list[Question], alpha: float) -> list[tuple[float, float, float]]:
    """Each question's (mean, lo, hi): the ordinary fixed-size normal interval at two-sided ``alpha`` (the
    report's ``mean ± z·sd/√n``, sample sd), clipped to the values' range; the whole range below two games."""
    z = NormalDist().inv_cdf(1 - alpha / 2)
    out = []
    for q in questions:
        if q.n < 2:
            out.append((math.nan if q.n == 0 else q.total, q.low, q.high))
            continue
        mean = q.total / q.n
        var = max(q.squares - q.n * mean * mean, 0.0) / (q.n - 1)
        half = z * math.sqrt(var / q.n)
        out.append((mean, max(mean - half, q.low), min(mean + half, q.high)))
    return out


def cs_intervals(questions: list[Question], alpha: float) -> list[tuple[float, float, float]]:
    """Today's confidence sequences (``sequential._intervals``)."""
    return _CS(questions, alpha)


_CS = sequential._intervals


def report_split(players: int) -> Intervals:
    """Fixed intervals with the report's split of α: a seat's share at α/N (N seats of its variant, as
    ``seats._with_seat_flags``), anything else at the family's split (the cards: α/K, as the report's cards)."""

    def intervals(questions: list[Question], each: float) -> list[tuple[float, float, float]]:
        out = []
        for q in questions:
            out += fixed_intervals([q], ALPHA / players if q.key.startswith("seats/") else each)
        return out

    return intervals


def unsplit(intervals: Intervals) -> Intervals:
    """The same intervals with each verdict at the whole ``ALPHA``: no share of α given up to the others."""
    return lambda questions, _each: intervals(questions, ALPHA)


class Folder:
    """A fixed run's shares read once; its verdicts at any look by any intervals."""

    def __init__(self, folder: Path, family: str = "headline") -> None:
        self.folder, self.family = folder, family
        self.manifest = load_manifest(folder)
        self.shares = sequential._Shares.of(folder, self.manifest)
        self.players = int(self.manifest["players"])

    def questions(self, games: int | Mapping[str, int] | None) -> list[Question]:
        qs = sequential._questions(self.folder, self.manifest, self.shares.upto(games))
        return [q for q in qs if not q.key.startswith("change/")] if self.family == "headline" else qs

    def verdicts(self, tolerance: float, games: int | Mapping[str, int] | None, intervals: Intervals) -> list[Any]:
        """The family's verdicts (``settled_verdicts``'s logic) with ``intervals`` in place of the sequences."""
        with mock.patch.object(sequential, "_intervals", intervals):
            found = verdicts_from(self.questions(games), tolerance / 100, ALPHA, self.players)
        return found if self.family == "every" else [v for v in found if is_headline(v.key)]


def replay(folder: Folder, sc: Any, tolerance: float, judge: str, futility: float = 0.0) -> tuple[Settle, dict]:
    """The rule replayed with ``judge`` (``JUDGES``); returns it and the full run's verdicts by the same
    intervals (key: (state, direction))."""
    cap = sc.games
    intervals = {
        "cs": cs_intervals,
        "fixed": fixed_intervals,
        "cs-unsplit": unsplit(cs_intervals),
        "report": report_split(folder.players),
    }[judge.split("+")[0]]
    full = {v.key: (v.state, v.direction) for v in folder.verdicts(tolerance, None, intervals)}
    perfect = "+perfect" in judge
    look: list[dict[str, int]] = [{}]

    def judged(_folder: Path, tol: float, _alpha: float) -> Sequence[Any]:
        if judge.split("+")[0] == "cs" and not perfect and futility:  # today's rule: futility read at the cap
            return settled_verdicts(folder.folder, tol, ALPHA, games=look[0], family=folder.family, cap=cap)
        found = folder.verdicts(tol, look[0], intervals)
        if not perfect:
            return found
        return [
            dataclasses.replace(v, p_settle=0.0 if full[v.key][0] == "open" and v.state == "open" else None)
            for v in found
        ]

    rule = Rule(tolerance, ALPHA, cap, folder.family, 0.5 if perfect else futility)
    step = look_step(sc, cap)
    if judge.endswith(("+fine", "+early")):
        step = -(-FINE // sc.players) * sc.players
    s = Settle(rule, sc.variant_names, step, judged, players=sc.players)
    grid = (lambda st, c: [*range(st, c, st), c]) if judge.endswith("+fine") else look_grid
    with mock.patch.object(settle, "look_grid", grid):
        s.begin({})
        reached = dict.fromkeys(sc.variant_names, 0)
        while True:
            want = s.targets(folder.folder, reached)
            if want == reached:
                return s, full
            reached, look[0] = dict(want), dict(want)


def agreement(record: dict, full: dict) -> dict[str, int]:
    out = {"agree": 0, "settled only early": 0, "contradicts": 0, "lost": 0}
    for v in record["verdicts"]:
        mine = (v["state"], v["direction"] if v["state"] == "beyond" else 0)
        theirs = (full[v["key"]][0], full[v["key"]][1] if full[v["key"]][0] == "beyond" else 0)
        if mine == theirs:
            out["agree"] += 1
        elif theirs[0] == "open":
            out["settled only early"] += 1
        elif mine[0] == "open":
            out["lost"] += 1
        else:
            out["contradicts"] += 1
    return out


def where(folder: Folder, sc: Any, record: dict, tolerance: float) -> dict[str, Any]:
    """Where today's rule spends its games: each variant's games by what kept it playing (the last of its
    verdicts to finish): the control of a card design; a verdict settled early (at most ``LATE`` of the cap) or
    late; put out of reach; open at the cap in reach. With the width ratio of the confidence sequence to the
    fixed interval (same α split) at the games where the late and open-at-cap verdicts stood."""
    cap = sc.games
    games = {v: int(r["games"]) for v, r in record["variants"].items()}
    spent = {"control": 0, "settled early": 0, "settled late": 0, "out of reach": 0, "open at the cap": 0}
    ratios: dict[str, list[float]] = {"settled late": [], "open at the cap": []}
    verdicts = record["verdicts"]
    final = folder.questions(games)
    cs = dict(zip((q.key for q in final), _CS(final, ALPHA / max(len([q for q in final if not q.mirrors]), 1)),
                  strict=True))  # fmt: skip
    fx = dict(zip((q.key for q in final), fixed_intervals(final, ALPHA / max(len([q for q in final if not
              q.mirrors]), 1)), strict=True))  # fmt: skip
    for name, n in games.items():
        mine = [r for r in verdicts if name in r["variants"]]
        if name == "control" and any(r["key"].startswith("card/") for r in mine):
            spent["control"] += n
            continue

        def ended(r: dict) -> int:
            return r["settled_at"] or r["out_of_reach_at"] or cap

        last = max(mine, key=ended)
        if last["settled_at"] is not None:
            kind = "settled late" if last["settled_at"] > LATE * cap else "settled early"
        elif last["out_of_reach_at"] is not None:
            kind = "out of reach"
        else:
            kind = "open at the cap"
        spent[kind] += n
        if kind in ratios:  # the width ratio of the questions behind the verdict
            keys = [q.key for q in final if not q.mirrors and (q.key == last["key"] or q.key.startswith(
                last["key"] + "/"))]  # fmt: skip
            for k in keys:
                w_fixed = fx[k][2] - fx[k][1]
                if w_fixed > 0:
                    ratios[kind].append((cs[k][2] - cs[k][1]) / w_fixed)
    return {
        "spent": spent,
        "width ratio": {k: round(statistics.median(v), 2) if v else None for k, v in ratios.items()},
    }


def rows(base: Path, names: list[str], tolerance: float, futility: float, judges: Sequence[str] = JUDGES) -> Any:
    for name in names:
        sc = load_scenario(Path("scenarios") / f"{name}.toml")
        folder = Folder(base / name)
        out: dict[str, Any] = {
            "scenario": name,
            "game": sc.game,
            "fixed games": sc.games * len(sc.variants),
            "first look games": look_step(sc, sc.games) * len(sc.variants),
            "verdicts": None,
            "judges": {},
        }
        for judge in judges:
            s, full = replay(folder, sc, tolerance, judge, futility if judge in ("cs", "cs+fine", "cs+early") else 0.0)
            record = s.record()[1]
            out["verdicts"] = len(record["verdicts"])
            out["judges"][judge] = {
                "games": sum(int(v["games"]) for v in record["variants"].values()),
                "settled": sum(v["state"] != "open" for v in record["verdicts"]),
                "agreement": agreement(record, full),
            }
            if judge == "cs":
                out["where"] = where(folder, sc, record, tolerance)
        yield out


def merged(found: list[dict]) -> list[dict]:
    """One row per scenario: the judges of rows from several runs of the script put together."""
    out: dict[str, dict] = {}
    for r in found:
        if r["scenario"] in out:
            out[r["scenario"]]["judges"].update(r["judges"])
            if "where" in r:
                out[r["scenario"]]["where"] = r["where"]
        else:
            out[r["scenario"]] = r
    return list(out.values())


def table(found: list[dict]) -> None:
    judged = [j for j in JUDGES if all(j in r["judges"] for r in found)]
    fixed = sum(r["fixed games"] for r in found)
    first = sum(r["first look games"] for r in found)
    print("| scenario | fixed games | first look | " + " | ".join(judged) + " |")
    print("| --- | ---: | ---: | " + " | ".join("---:" for _ in judged) + " |")
    total = dict.fromkeys(judged, 0)
    wrong = {j: dict.fromkeys(("settled only early", "contradicts", "lost"), 0) for j in judged}
    for r in found:
        cells = []
        for j in judged:
            x = r["judges"][j]
            total[j] += x["games"]
            a = x["agreement"]
            for k in wrong[j]:
                wrong[j][k] += a[k]
            bad = ", ".join(f"{a[k]} {k}" for k in wrong[j] if a[k])
            cells.append(f"{x['games']:,}" + (f" ({bad})" if bad else ""))
        print(f"| {r['scenario']} | {r['fixed games']:,} | {r['first look games']:,} | " + " | ".join(cells) + " |")
    print(
        f"| **all** | {fixed:,} | {first:,} ({fixed / first:.2f}×) | "
        + " | ".join(f"**{total[j]:,} ({fixed / max(total[j], 1):.2f}×)**" for j in judged)
        + " |"
    )
    print("\ndisagreeing with the full fixed run (same intervals): " + "; ".join(
        f"{j}: " + ", ".join(f"{v} {k}" for k, v in wrong[j].items()) for j in judged))  # fmt: skip


def where_table(found: list[dict]) -> None:
    kinds = ("control", "settled early", "settled late", "out of reach", "open at the cap")
    print("| scenario | default rule's games | " + " | ".join(kinds) + " | width ratio: late, open at cap |")
    print("| --- | ---: | " + " | ".join("---:" for _ in kinds) + " | --- |")
    total = dict.fromkeys(kinds, 0)
    late: list[float] = []
    for r in found:
        w = r["where"]
        for k in kinds:
            total[k] += w["spent"][k]
        ratio = w["width ratio"]
        late += [x for x in ratio.values() if x]
        shown = ", ".join("–" if ratio[k] is None else f"{ratio[k]:.2f}" for k in ("settled late", "open at the cap"))
        print(
            f"| {r['scenario']} | {r['judges']['cs']['games']:,} | "
            + " | ".join(f"{w['spent'][k]:,}" if w["spent"][k] else "–" for k in kinds)
            + f" | {shown} |"
        )
    played = sum(total.values())
    print(f"| **all** | **{played:,}** | " + " | ".join(f"**{total[k]:,}** ({total[k] / played:.0%})" for k in kinds)
          + f" | median of scenarios {float(np.median(late)):.2f} |")  # fmt: skip


def main() -> None:
    if sys.argv[1:2] in (["--table"], ["--where"]):
        found = merged(
            [json.loads(line) for f in sys.argv[2:] for line in Path(f).read_text().splitlines() if line[:1] == "{"]
        )
        (table if sys.argv[1] == "--table" else where_table)(found)
        return
    p = argparse.ArgumentParser()
    p.add_argument("base", type=Path, help="the folder holding each scenario's fixed run as NAME/")
    p.add_argument("names", nargs="+")
    p.add_argument("--tolerance", type=float, default=1.0)
    p.add_argument("--futility", type=float, default=0.05, help="today's rule's threshold (the cs row)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--judges", default=",".join(JUDGES), help="comma-separated, of: " + ", ".join(JUDGES))
    args = p.parse_args()
    judges = args.judges.split(",")
    if unknown := [j for j in judges if j not in JUDGES]:
        p.error(f"--judges: unknown {', '.join(unknown)}; allowed: {', '.join(JUDGES)}")
    found = []
    for row in rows(args.base, args.names, args.tolerance, args.futility, judges):
        found.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
    if not args.json:
        table(found)


if __name__ == "__main__":
    main()
