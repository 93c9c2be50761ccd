"""Null design of `simlab compensate`'s outcomes, on synthetic games whose true win shares are known.

False "inside the band" (already fair / fair) with a seat exactly on the band's edge, false "beyond" (none fair)
at a fair vector and on the edge, and whole searches on a game made fair at the published vector and on one with
a seat on the edge. Figures in docs/analysis.md.

    PYTHONPATH=. python docs/scaling/compensate_null.py
"""

from __future__ import annotations

import math

import numpy as np

from simlab.analysis import fair_outcome as fo
from simlab.analysis.confirmation import confirmation_of
from simlab.experiments import fair_vector as fv
from simlab.experiments.knob_search import KnobSearch
from tests.experiments.test_fair_vector import config, softmax_game

DELTA = 0.01


def wilson(k: int, n: int, z: float = 1.96) -> str:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return f"{k}/{n} = {100 * p:.1f}% [{100 * max(c - h, 0):.1f}, {100 * min(c + h, 1):.1f}]"


def states(rng: np.random.Generator, p: list[float], reps: int, games: int) -> list[str]:
    draws = (np.eye(4)[rng.choice(4, size=games, p=p)] for _ in range(reps))
    return [fo.band(confirmation_of((6,) * 4, w), DELTA).state for w in draws]


def main(reps: int = 1000, games: int = 40_000, searches: int = 200) -> None:
    rng = np.random.default_rng(2029)
    d = DELTA
    edges = {
        "one seat at 1/N+δ": [0.25 + d, 0.25 - d / 3, 0.25 - d / 3, 0.25 - d / 3],
        "one seat at 1/N−δ": [0.25 - d, 0.25 + d / 3, 0.25 + d / 3, 0.25 + d / 3],
        "two seats at ±δ": [0.25 + d, 0.25 - d, 0.25, 0.25],
    }
    for name, p in edges.items():
        k = states(rng, p, reps, games).count("inside")
        print(f"false 'inside' (already fair / fair), {name}, {games:,} games: {wilson(k, reps)}")
    k = states(rng, [0.25] * 4, reps, games).count("beyond")
    print(f"false 'beyond' (none fair) at an exactly fair vector: {wilson(k, reps)}")
    k = states(rng, edges["one seat at 1/N+δ"], reps, games).count("beyond")
    print(f"false 'beyond' (none fair) with a seat exactly on the edge: {wilson(k, reps)}")
    for label, alpha in [("made fair", np.zeros(4)), ("seat 0 on the edge (+1 point)", np.array([0.0533, 0, 0, 0]))]:
        _, play = softmax_game(alpha, 0.15)
        out: dict[str, int] = {}
        for r in range(searches):
            search = KnobSearch(None, config(), "start_money", ["a"] * 4, batch=500, max_games=20_000, seed=5000 + r)
            f = fv.find_fair_vector(search, play=play, confirm_games=20_000)
            out[f.outcome] = out.get(f.outcome, 0) + 1
        print(f"whole searches, {label}:", {k: wilson(v, searches) for k, v in out.items()})


if __name__ == "__main__":
    main()
