"""Certification in looks: the boundaries that keep a fix's one-sided tests at level α when the games are read at
several counts fixed in advance and the run stops at the first look that certifies, and the predictive
probability that decides to stop early for futility.

**Group-sequential boundaries** (alpha spending, Lan & DeMets 1983). Each seat's one-sided test at the tolerance
is read at the looks ``t_1 < … < t_K`` (fractions of the cap). Under the null at the band's edge the standardised
statistics Z_k are a Brownian motion read at t_k (Z_k √t_k = B(t_k), independent increments); the boundary c_k is
the value for which P(Z_1 > c_1 or … or Z_k > c_k) equals the spending function α(t_k) = α · t_k^ρ. The power
family (Kim & DeMets 1987) with ρ = 2 spends little at the first looks (the final boundary stays near the
fixed-size one) and leaves early stopping to the clear cases. The probabilities are computed by numerical
integration of B on a grid (Armitage, McPherson & Rowe 1969): deterministic, no simulation.

A certification stops at the first look where every test of every seat passes at that look's boundary; a test
whose null is true passes at some look with probability ≤ α, so the intersection-union claim keeps level α
however the run stops. A futility stop never certifies, so it costs no level (it is "non-binding").

**Futility** (``predictive_pass``): the probability, given the games so far, that a test passes at the cap's
boundary — the remaining games drawn from the predictive distribution of a flat prior on the mean
(Spiegelhalter, Freedman & Blackburn 1986). The smallest over the tests is compared with a threshold.

Rows in, numbers out: the loop that plays the looks is ``simlab.experiments.fix_sequential``.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

#: the looks at which a certification reads its games, as fractions of its cap
LOOK_FRACTIONS = (0.125, 0.25, 0.5, 0.75, 1.0)
#: the spending function's power: α(t) = α·t^ρ
SPENDING_POWER = 2.0
#: stop a certification for futility when the chance of passing by the cap is below this
FUTILITY = 0.05
#: the first certification attempt's share of α when there may be more (the fallbacks share the rest)
FIRST_SHARE = 0.75
#: grid points per unit of B(t) in the numerical integration
_GRID = 64


@functools.lru_cache(maxsize=64)
def boundaries(
    fractions: tuple[float, ...] = LOOK_FRACTIONS, alpha: float = 0.05, power: float = SPENDING_POWER
) -> tuple[float, ...]:
    """The critical z of each look: P(some Z_k > c_k, k ≤ j) = α·t_j^power under the null, for every j."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    if not 0 < alpha < 0.5:
        raise ValueError(f"alpha must be in (0, 0.5), got {alpha}")
    t = np.asarray(fractions, float)
    if len(t) == 0 or t[0] <= 0 or np.any(np.diff(t) <= 0) or t[-1] > 1:
        raise ValueError(f"look fractions must increase in (0, 1], got {fractions}")
    spent = alpha * t**power
    out: list[float] = []
    grid = density = None  # B(t_{k-1}) on the continuation region, and its density
    prev_t = 0.0
    for k, tk in enumerate(t.tolist()):
        dt = tk - prev_t
        budget = spent[k] - (spent[k - 1] if k else 0.0)
        if grid is None:
            c = float(norm.isf(budget))
        else:
            w = _weights(grid)

            def crossed(c: float, g=grid, d=density, w=w, dt=dt, tk=tk) -> float:
                return float(np.sum(w * d * norm.sf((c * math.sqrt(tk) - g) / math.sqrt(dt))))

            c = float(brentq(lambda c, b=budget: crossed(c) - b, -10.0, 40.0, xtol=1e-10))
        out.append(c)
        top = c * math.sqrt(tk)
        bottom = -10.0 * math.sqrt(tk)
        new = np.linspace(bottom, top, max(200, int((top - bottom) * _GRID)))
        if grid is None:
            density = norm.pdf(new / math.sqrt(tk)) / math.sqrt(tk)
        else:
            kernel = norm.pdf((new[:, None] - grid[None, :]) / math.sqrt(dt)) / math.sqrt(dt)
            density = kernel @ (_weights(grid) * density)
        grid, prev_t = new, tk
    return tuple(out)


def _weights(grid: np.ndarray) -> np.ndarray:
    """Trapezoid weights of an evenly spaced grid."""
    h = grid[1] - grid[0]
    w = np.full(len(grid), h)
    w[[0, -1]] = h / 2
    return w


def attempt_levels(alpha: float, attempts: int) -> tuple[float, ...]:
    """Each attempt's one-sided level: α alone; else ``FIRST_SHARE``·α for the first and the rest split equally
    over the others (they add up to α)."""
    if attempts <= 1:
        return (alpha,)
    rest = round(alpha * (1 - FIRST_SHARE) / (attempts - 1), 12)
    return (round(alpha * FIRST_SHARE, 12), *([rest] * (attempts - 1)))


def look_sizes(cap: int, fractions: tuple[float, ...] = LOOK_FRACTIONS) -> tuple[int, ...]:
    """The game counts of the looks (the last is the cap)."""
    sizes = [max(1, round(cap * f)) for f in fractions]
    sizes[-1] = cap
    return tuple(sorted(set(sizes)))


def level_of(z: float) -> float:
    """The one-sided level whose normal quantile is ``z`` (a band drawn at that level has z as its multiplier)."""
    return 0.5 * math.erfc(z / math.sqrt(2))


@dataclasses.dataclass(frozen=True)
class LookPlan:
    """A certification's looks: the game counts and each look's critical z, at the one-sided level ``alpha``."""

    cap: int
    alpha: float
    sizes: tuple[int, ...]
    z: tuple[float, ...]

    @classmethod
    def of(cls, cap: int, alpha: float, fractions: tuple[float, ...] = LOOK_FRACTIONS) -> LookPlan:
        sizes = look_sizes(cap, fractions)
        return cls(cap, alpha, sizes, boundaries(tuple(s / cap for s in sizes), alpha))


def predictive_pass(
    shares: np.ndarray, se: np.ndarray, games: int, cap: int, fair: float, delta: float, z_final: float
) -> float:
    """The smallest, over the seats and their two one-sided tests, of the predictive probability that the test
    passes at the cap (at ``z_final``) given ``games`` games so far (flat prior on each seat's share)."""
    from scipy.stats import norm

    shares, se = np.asarray(shares, float), np.asarray(se, float)
    if games >= cap:
        return 0.0
    sd = se * math.sqrt(games)  # per-game sd
    final_se = sd / math.sqrt(cap)
    spread = sd * math.sqrt((cap - games) / (cap * games))  # sd of the final mean given the games so far
    with np.errstate(divide="ignore", invalid="ignore"):
        upper = norm.cdf((fair + delta - z_final * final_se - shares) / spread)
        lower = norm.cdf((shares - (fair - delta) - z_final * final_se) / spread)
    p = np.nan_to_num(np.minimum(upper, lower), nan=0.0)
    return float(p.min())
