"""Selected results with their selection: the largest of several estimates is read with an interval or a
projection that knows it was picked.

The seat furthest from fair, the most valuable card, the item whose demand collapses most: each is the
maximum of several noisy estimates, so its own estimate reads too far out (the winner's curse) and its own
95% interval covers less than 95%. Three helpers, used by the report and the run's one-line answer alike:

- ``corrected_offsets``: the seats' distances from the fair share with the furthest one's selection bias taken
  out, so a projection of the games still needed is not made from the furthest seat's inflated estimate;
- ``simultaneous``: an interval simultaneous over the ``k`` estimates the selection was made from
  (Bonferroni: each at 1 − α/k), which covers the selected one whichever it is;
- ``leaders``: the items whose simultaneous interval overlaps the leader's, i.e. those that could be the
  largest (rank 1 not ruled out; ``ranks.rank_intervals``).
"""

from __future__ import annotations

import numpy as np

from simlab.analysis import stats


def corrected_offsets(share: np.ndarray, se: np.ndarray, fair: float, draws: int = 4000, seed: int = 0) -> np.ndarray:
    """The seats' distances ``|share − fair|`` with the furthest one corrected for being the furthest: 2·its
    distance − the mean furthest distance of shares drawn from their sampling distribution (independent normals
    with each seat's standard error; a fixed ``seed`` keeps a report bit-identical), floored at 0 — the
    bootstrap bias correction the best−worst gap uses (``stats.range_bootstrap``)."""
    d = np.abs(np.asarray(share, dtype=float) - fair)
    s = np.asarray(se, dtype=float)
    ok = np.isfinite(d) & np.isfinite(s)
    if not ok.any():
        return d
    k = int(np.nanargmax(np.where(ok, d, -np.inf)))
    sample = np.random.default_rng(seed).normal(np.asarray(share, dtype=float)[ok], s[ok], size=(draws, int(ok.sum())))
    out = d.copy()
    out[k] = max(2 * d[k] - float(np.abs(sample - fair).max(axis=1).mean()), 0.0)
    return out


def simultaneous(estimate: float, se: float, k: int, level: float = 0.95) -> tuple[float, float]:
    """The interval of one of ``k`` estimates, simultaneous over all ``k`` (each at 1 − α/k)."""
    z = stats.simultaneous_z(level, max(int(k), 1))
    return estimate - z * se, estimate + z * se


def leaders(labels: list[str], estimates: np.ndarray, ses: np.ndarray, level: float = 0.95) -> list[str]:
    """The labels whose rank interval includes 1 (could be the largest), the leader first."""
    from simlab.analysis.ranks import rank_intervals

    rank, lo, _hi = rank_intervals(np.asarray(estimates, dtype=float), np.asarray(ses, dtype=float), level)
    order = np.argsort(rank, kind="stable")
    return [labels[i] for i in order if lo[i] == 1]


def most_phrase(labels: list[str], estimates: np.ndarray, ses: np.ndarray, what: str, level: float = 0.95) -> str:
    """How to word the largest of ``labels``' estimates: "the most of any <what>" only when no other could be
    first (rank intervals simultaneous over them all), else the others that could be, plainly."""
    first = leaders(labels, estimates, ses, level)
    k = len(labels)
    if len(first) <= 1:
        return f"the most of any {what}: no other of the {k} could be first, by rank intervals {level:.0%} simultaneous"
    others = [x for x in first if x != first[0]]
    names = " and ".join(others) if len(others) < 3 else ", ".join(others[:-1]) + " and " + others[-1]
    return (
        f"the highest estimate of the {k}, not surely the most: {names} could be first too, by rank intervals "
        f"{level:.0%} simultaneous over the {k}"
    )
