"""simlab's ``fix`` on a benchmark question: the same grid, the same lineup, the same tolerance as the anchor's.

The question becomes a ``FixQuestion`` with one per-seat knob per grid knob (each seat's range from the grid's
dimensions, step 1), the tolerance δ in points, the given search budget and seed, and no panel beyond the
lineup (the anchor checks the lineup only; a panel would add certification games the anchor never plays). A
repetition's record: how fix ended (``status``), the setting it ended on (its change, or the published rules;
none when it recommends nothing), whether it claims fairness (certified, or the published rules already fair),
the games it played in all (search, certification, the published rules' check) and the wall time.
"""

from __future__ import annotations

import time
from typing import Any

from benchmarks.questions import BenchQuestion
from simlab.experiments.fix import find_fix
from simlab.experiments.fix_question import FixQuestion, fix_question

#: the statuses in which fix says the setting it names is fair within ±δ
CLAIMS = ("certified", "already_fair")


def question_for_fix(
    q: BenchQuestion, budget: int, seed: int, certify_games: int | None = None, objective: str = "cheapest"
) -> FixQuestion:
    """The benchmark question as ``simlab fix`` asks it (``[fix]`` table keys, from Python); ``objective``
    ``most_equal`` asks for the most equal setting, the target the anchor's fitness (its worst seat deviation)
    climbs."""
    knobs: dict[str, dict[str, Any]] = {}
    for d in q.dims:
        seats = knobs.setdefault(d.knob, {"seats": [None] * q.seats})["seats"]
        if list(d.values) != list(range(d.values[0], d.values[-1] + 1)):
            raise ValueError(f"{d.name}: fix takes a range with step 1 here, got {d.values}")
        seats[d.entry] = [d.values[0], d.values[-1]]
    for name, spec in knobs.items():
        published = getattr(q.config, name)
        spec["seats"] = [s if s is not None else [published[i], published[i]] for i, s in enumerate(spec["seats"])]
    more = {} if certify_games is None else {"certify_games": certify_games}
    return fix_question(
        q.game, q.config, q.lineup, knobs=knobs, tolerance=q.delta * 100, budget=budget, seed=seed, panel=[],
        source=f"benchmark {q.name}", objective=objective, **more,
    )  # fmt: skip


def run_fix(
    q: BenchQuestion, rep: int, budget: int, seed: int, certify_games: int | None = None, objective: str = "cheapest"
) -> dict[str, Any]:
    """One repetition of ``find_fix`` on the question; the record the benchmark's report reads."""
    question = question_for_fix(q, budget, seed, certify_games, objective)
    t0 = time.perf_counter()
    result = find_fix(question)
    seconds = time.perf_counter() - t0
    if result.change is not None:
        values = dict(result.change.settings)
        setting = [(values.get(d.knob) or getattr(q.config, d.knob))[d.entry] for d in q.dims]
    elif result.status == "already_fair":
        setting = [getattr(q.config, d.knob)[d.entry] for d in q.dims]
    else:
        setting = None
    lineup = result.panel[0] if result.panel else None
    return {
        "rep": rep,
        "seed": seed,
        "status": result.status,
        "setting": setting,
        "games": int(result.games["total"]),
        "games_by_stage": {k: int(v) for k, v in result.games.items()},
        "seconds": round(seconds, 2),
        "claims_fair": result.status in CLAIMS,
        "certified_deviation": None if lineup is None else round(lineup.worst_deviation, 6),
        "certified_interval": None if lineup is None else [round(lineup.lo, 6), round(lineup.hi, 6)],
    }
