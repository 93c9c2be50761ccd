"""The race: arms played batch by batch on shared seeds, the clearly worse dropped after each batch.

Each round plays one batch at every surviving arm on the same seeds (``engine.Trials.batch``) and drops an
arm whose score (by default the largest deviation of a seat from an equal share, ``max_k |p_k − 1/N|``)
exceeds the current best one's: a paired bootstrap over game indices (the same Poisson weights for every arm,
so the shared luck cancels), one-sided at ``alpha`` divided over the round's comparisons (Bonferroni). The race
ends when one arm is left ("decided"), when the survivors are within ``tolerance`` of the best
("equivalent": the choice between them does not matter), or when the budget is spent ("budget"). Games go
only to arms still in the race: where the decision is close. The race alone certifies nothing: a driver
confirms its choice on fresh seeds (``engine.Trials.fresh``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simlab.analysis.arms import Candidate
from simlab.analysis.softmax_fit import largest_deviation
from simlab.experiments.engine import Trials

#: bootstrap replicates of a race round, drawn in blocks of this many
BOOTSTRAP = 400
BOOTSTRAP_BLOCK = 50

#: an arm's score from its seats' mean results (lower is better): the largest deviation from an equal share
Score = Callable[[np.ndarray], np.ndarray]


def bootstrap_scores(
    cands: list[Candidate], seed: int, rounds: int, replicates: int = BOOTSTRAP, score: Score = largest_deviation
) -> np.ndarray:
    """Replicates (B × candidates) of each candidate's score, Poisson weights per game index."""
    top = max(int(np.concatenate(c.game).max()) for c in cands) + 1
    rng = np.random.default_rng([seed, rounds, 0xB007])
    games = [(np.concatenate(c.game), np.concatenate(c.wins).astype(np.float32)) for c in cands]
    out = np.empty((replicates, len(cands)))
    # replicates in blocks: the same draws as one (replicates × top) matrix (the generator fills rows in
    # order), without holding it all (400 × 200,000 weights would be 320 MB)
    for a in range(0, replicates, BOOTSTRAP_BLOCK):
        b = min(a + BOOTSTRAP_BLOCK, replicates)
        weights = rng.poisson(1.0, size=(b - a, top)).astype(np.float32)
        for j, (g, w) in enumerate(games):
            wg = weights[:, g]
            out[a:b, j] = score((wg @ w) / np.maximum(wg.sum(axis=1, keepdims=True), 1e-9))
    return out


def race_round(
    cands: list[Candidate], alpha: float, tolerance: float, seed: int, rounds: int, score: Score = largest_deviation
) -> tuple[int, str]:
    """Drop the candidates clearly worse than the best; return (index of the best, status).

    Status: "decided" (one left), "equivalent" (every survivor within ``tolerance`` of the best at the
    round's level), or "open".
    """
    alive = [c for c in cands if c.dropped is None]
    point = score(np.array([c.shares() for c in alive]))
    best = int(np.argmin(point))
    if len(alive) == 1:
        return cands.index(alive[0]), "decided"
    boot = bootstrap_scores(alive, seed, rounds, score=score)
    diff = boot - boot[:, [best]]
    a = alpha / (len(alive) - 1)
    lo, hi = np.quantile(diff, a, axis=0), np.quantile(diff, 1 - a, axis=0)
    for j, c in enumerate(alive):
        if j != best and lo[j] > 0:
            c.dropped = rounds
    left = [j for j, c in enumerate(alive) if c.dropped is None]
    if len(left) == 1:
        return cands.index(alive[best]), "decided"
    if all(hi[j] < tolerance for j in left if j != best):
        return cands.index(alive[best]), "equivalent"
    return cands.index(alive[best]), "open"


def race(
    trials: Trials,
    racers: list[Candidate],
    *,
    batch: int,
    max_games: int,
    alpha: float,
    tolerance: float,
    score: Score = largest_deviation,
    on_round: Callable[[int, int], None] | None = None,
    widen: Callable[[], None] | None = None,
) -> tuple[str, int]:
    """Race ``racers`` (arms of ``trials.pool``) until decided, equivalent, or ``max_games`` (counting every batch
    game ``trials`` has played) would be passed; return (status, rounds).

    After each round ``on_round(rounds, best)`` reports (``best``: the index in ``racers``); while the race is
    open ``widen()`` may append an arm to ``racers`` (a refitted model's new favourite)."""
    status, rounds = "budget", 0
    while True:
        todo = [c.offsets for c in racers if c.dropped is None]
        if trials.spent + batch * len(todo) > max_games:
            break
        trials.batch(todo, batch)
        rounds += 1
        best, state = race_round(racers, alpha, tolerance, trials.seed, rounds, score)
        if on_round is not None:
            on_round(rounds, best)
        if state != "open":
            status = state
            break
        if widen is not None:
            widen()
    return status, rounds
