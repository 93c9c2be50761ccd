"""Futility: how likely an open verdict is to settle by the cap, and how many games it would need.

A verdict whose truth sits near the edge of the band fair ± δ never settles: its interval keeps straddling the
edge, and the run plays its variant to the cap only to say "open", which the fixed run says too. At a look, the
**predictive probability** that it settles by the cap tells the rule when to give up on it (``futility`` in
``simlab.experiments.settle``):

- with the estimate m, the per-game variance σ² (from Σx², as the confidence sequence reads it), n games now and
  N at the cap, the estimate at the cap is about Normal(m, σ² (N − n) / (N n)) — the flat-prior predictive: the
  N − n games to come have a mean that is itself uncertain (±σ/√n), so it is wider (more conservative) than the
  conditional power at m, which would take m for the truth;
- the interval at the cap is the confidence sequence's with the accumulated variance V scaled to N (V_N =
  V_n · N / n), so its half-widths below and above (b, a) are known now, and the verdict settles at the cap when
  the estimate lands in [fair − δ + b, fair + δ − a] (within) or beyond fair + δ + b or fair − δ − a (beyond).

The probability is read at the cap only: a path that settles at an earlier look and would have drifted back by the
cap counts as not settling, so it is a little below the probability of settling at some look (an approximation,
not a bound); the measurement in docs/running.md ("Games saved, measured") counts every verdict futility left open
that the full fixed run settled (at the default 0.05: one of the 55 it put out of reach at 1 point).

A variant's **equal-seats question** is within when every seat is within and beyond when any seat is beyond; its
seats' estimates are dependent (they add up to 1), so their probabilities are combined by a bound that holds
whatever the dependence: P(settle) ≤ min over seats of P(within) + Σ over seats of P(beyond) (Fréchet; capped at
1). A seat that mirrors another (two seats: seat 1 is 1 − seat 0) is the same event and counts once.

Futility never makes a within or beyond claim: it only stops games, and the intervals are valid at every look
however the looks are chosen, so the rule's error guarantee is untouched.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy.special import ndtr

from simlab.analysis.confseq import MIN_SCALE, mixture_bound

#: the games a verdict would need at its current estimate are searched up to this many times the cap
NEEDED_REACH = 100
#: points of that search per doubling of the games (a needed count is read to within about 9%)
NEEDED_STEPS = 8


@dataclasses.dataclass(frozen=True)
class Reach:
    """An open verdict's chances by the cap: P(within), P(beyond) and the games it would need if its estimate
    stayed where it is (None: not within ``NEEDED_REACH`` times the cap, e.g. an estimate on the band's edge)."""

    within: float
    beyond: float
    needed: int | None

    @property
    def settle(self) -> float:
        """P(the verdict settles by the cap)."""
        return min(1.0, self.within + self.beyond)


def reach(
    n: np.ndarray,
    total: np.ndarray,
    squares: np.ndarray,
    low: float,
    high: float,
    centre: float,
    fair: float,
    tolerance: float,
    alpha: float,
    cap: int,
) -> list[Reach]:
    """Each question's ``Reach`` by ``cap`` games (arrays of its n, Σx, Σx²; values in [``low``, ``high``], the
    interval's centre ``centre`` and ``alpha`` as ``confseq.mean_sequence`` takes them; the band ``fair`` ±
    ``tolerance``, a share). A question without games is in reach (nothing is known of it)."""
    n = np.asarray(n, dtype=float)
    total = np.asarray(total, dtype=float)
    squares = np.asarray(squares, dtype=float)
    big = np.maximum(n, 1.0)
    mean = total / big
    # the per-game variance, never below (range/2)²/n: a look where every game said the same is no certainty
    var = np.maximum(squares / big - mean * mean, ((high - low) / 2) ** 2 / big)
    v_n = np.maximum(squares - 2 * centre * total + n * centre * centre, 0.0)
    floor = MIN_SCALE * (high - low)
    c_below, c_above = max(centre - low, floor), max(high - centre, floor)
    final = max(float(cap), float(n.max(initial=0.0)))
    scale = final / big
    below = mixture_bound(v_n * scale, alpha / 2, c_below) / final
    above = mixture_bound(v_n * scale, alpha / 2, c_above) / final
    sd = np.sqrt(var * np.maximum(final - n, 0.0) / (final * big))

    def at_most(x: np.ndarray) -> np.ndarray:  # P(the estimate at the cap ≤ x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(sd > 0, ndtr((x - mean) / np.where(sd > 0, sd, 1.0)), (mean <= x).astype(float))

    top, bottom = fair + tolerance - above, fair - tolerance + below
    within = np.where(top > bottom, np.maximum(at_most(top) - at_most(bottom), 0.0), 0.0)
    beyond = (1 - at_most(fair + tolerance + below)) + at_most(fair - tolerance - above)
    need = _needed(n, v_n, mean, c_below, c_above, fair, tolerance, alpha, cap)
    return [
        Reach(1.0, 0.0, None) if n[i] == 0 else Reach(float(within[i]), float(beyond[i]), need[i])
        for i in range(len(n))
    ]


def _needed(
    n: np.ndarray,
    v_n: np.ndarray,
    mean: np.ndarray,
    c_below: float,
    c_above: float,
    fair: float,
    tolerance: float,
    alpha: float,
    cap: int,
) -> list[int | None]:
    """The fewest games (on a grid of ``NEEDED_STEPS`` per doubling) at which each estimate, if it stayed, would
    settle: its interval (V scaled with the games) wholly within the band or wholly beyond it."""
    big = np.maximum(n, 1.0)
    top = max(float(cap), float(n.max(initial=1.0))) * NEEDED_REACH
    least = float(n[n > 0].min()) if (n > 0).any() else 1.0
    steps = math.ceil(math.log2(top / least) * NEEDED_STEPS) + 1
    grid = big[:, None] * 2.0 ** (np.arange(steps)[None, :] / NEEDED_STEPS)  # (questions, points)
    v = v_n[:, None] * grid / big[:, None]
    lo = mean[:, None] - mixture_bound(v, alpha / 2, c_below) / grid
    hi = mean[:, None] + mixture_bound(v, alpha / 2, c_above) / grid
    settled = ((lo >= fair - tolerance) & (hi <= fair + tolerance)) | (lo > fair + tolerance) | (hi < fair - tolerance)
    settled &= grid <= top
    out: list[int | None] = []
    for i in range(len(n)):
        hits = np.flatnonzero(settled[i])
        out.append(math.ceil(float(grid[i, hits[0]])) if hits.size and n[i] > 0 else None)
    return out


def either(seats: list[tuple[Reach, float]], tolerance: float) -> Reach:
    """The equal-seats question's ``Reach`` from its seats' (``Reach``, estimate's distance from the fair share):
    within when every seat is, beyond when any is; P(settle) by the Fréchet bound (the module's docstring). The
    games needed at the current estimates: the most any seat needs to be within when every estimate lies in the
    band, else the fewest a seat whose estimate lies outside needs to be beyond."""
    if not seats:
        return Reach(1.0, 0.0, None)
    within = min(r.within for r, _ in seats)
    beyond = min(1.0, sum(r.beyond for r, _ in seats))
    outside = [r.needed for r, off in seats if abs(off) > tolerance]
    if outside:
        known = [k for k in outside if k is not None]
        needed = min(known) if known else None
    else:
        each = [r.needed for r, _ in seats]
        needed = None if any(k is None for k in each) else max(k for k in each if k is not None)
    return Reach(within, beyond, needed)


__all__ = ["NEEDED_REACH", "Reach", "either", "reach"]
