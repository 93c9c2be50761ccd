"""Confidence sequences: intervals for a mean that stay valid at every look, however the looks are chosen.

A fixed-size interval covers at 95% when it is read once, at a game count fixed in advance. A run that looks
after every batch and stops when the answer seems settled reads it many times, and stops exactly when the
noise happens to favour a verdict: read that way, a 95% interval misses far more often than 5%. A *confidence
sequence* covers the mean at every game count at once with probability ≥ 1 − α, so its interval at a
data-chosen stopping point is as valid as at any fixed one.

The one here is the **empirical-Bernstein confidence sequence** of Howard, Ramdas, McAuliffe & Sekhon (2021,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Annals of Statistics): for per-game values
X_i in [a, b] with mean μ, any predictable centre X̂ in [a, b] and V_n = Σ (X_i − X̂)², the sum Σ (X_i − μ) is
a sub-exponential process with variance process V_n and scale c = b − a (their empirical-Bernstein theorem),
so any sub-exponential uniform boundary u gives ``|Σ X_i − n μ| ≤ u(V_n)`` for every n at once with
probability ≥ 1 − 2·α_side. The boundary is their **gamma-exponential mixture** (the conjugate mixture for
sub-exponential processes; the formula of the authors' ``confseq`` library), tuned to be tightest at an
accumulated variance of ``OPT_VARIANCE`` (about 10,000 games of a seat's share) and within 7% of that over
3,000 to 100,000 games; ``stitching_bound`` (their closed-form polynomial stitching boundary) is kept for
comparison: 17–23% wider at those counts (1.2–1.5 times the games for the same width).

It is non-asymptotic (no normal approximation: it holds at 50 games as at 50 million), needs nothing but the
bounds of the values, adapts to their variance through V_n, and its width grows only as √(log V) with the
games (so looking after every batch costs little). With a *constant* centre X̂ (the fair share, or zero for a
change) V_n = Σ X² − 2 X̂ Σ X + n X̂²: a look needs only n, Σ X and Σ X², which add up over chunks and a digest
keeps. A constant centre over-counts the variance by n (μ − X̂)², a few percent for the effects a designer weighs.
"""

from __future__ import annotations

import math

import numpy as np

#: the stitching boundary's parameters (Howard et al. 2021 recommend s = 1.4, η = 2)
STITCH_S = 1.4
STITCH_ETA = 2.0
#: the stitching boundary is tight from an accumulated variance of this many (scale c)² units on (about 500
#: games of a four-player seat's win share); before that it stays at its value there
MIN_VARIANCE = 100.0
#: the mixture boundary is tightest at this accumulated variance (V_n): about 10,000 games of a four-player
#: seat's share (per-game variance 0.19), 4,000 to 20,000 paired games of a change
OPT_VARIANCE = 2000.0
#: the interval's method, as tables and the docs name it
CS_METHOD = (
    "confidence sequence valid at every look: empirical Bernstein "
    "(gamma-exponential mixture; Howard, Ramdas, McAuliffe & Sekhon 2021)"
)

_ZETA_S = 3.1055472779775  # ζ(1.4)


def stitching_bound(v: np.ndarray | float, alpha_side: float, c: float, m: float | None = None) -> np.ndarray:
    """u(v): the one-sided boundary that Σ (X_i − μ) crosses at some n with probability ≤ ``alpha_side``.

    ``v`` is the accumulated variance V_n, ``c`` the scale (the width b − a of the values' range), ``m`` the
    variance from which the boundary is tight (default ``MIN_VARIANCE`` · c²).
    """
    if not 0 < alpha_side < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha_side}")
    m = MIN_VARIANCE * c * c if m is None else m
    s, eta = STITCH_S, STITCH_ETA
    k1 = (eta**0.25 + eta**-0.25) / math.sqrt(2)
    k2 = (math.sqrt(eta) + 1) / 2
    use = np.maximum(np.asarray(v, dtype=float), m)
    ell = s * np.log(np.log(eta * use / m)) + math.log(_ZETA_S / math.log(eta) ** s) + math.log(1 / alpha_side)
    term2 = k2 * c * ell
    return np.sqrt(k1 * k1 * use * ell + term2 * term2) + term2


def mixture_bound(v: np.ndarray | float, alpha_side: float, c: float, v_opt: float = OPT_VARIANCE) -> np.ndarray:
    """u(v): the gamma-exponential mixture boundary that Σ (X_i − μ) crosses at some n with probability ≤
    ``alpha_side`` (one-sided), for a sub-exponential process of scale ``c``, tuned for accumulated variance
    ``v_opt``. Solved by bisection on the mixture's log value (vectorised over ``v``)."""
    if not 0 < alpha_side < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha_side}")
    v = np.maximum(np.asarray(v, dtype=float), 0.0)
    threshold = math.log(1 / alpha_side)
    two = 2 * math.log(1 / (2 * alpha_side))  # the one-sided mixture's ρ as the two-sided one's at 2α
    rho = v_opt / (two + math.log(1 + two))
    lo = np.zeros_like(v)
    hi = np.sqrt(2 * (v + rho) * (threshold + np.log1p(v / rho))) + 2 * c * threshold + 1e-9
    while True:  # widen the bracket until the mixture exceeds the threshold at its top (once or twice at most)
        short = _gamma_exponential_log(hi, v, rho, c) < threshold
        if not short.any():
            break
        hi = np.where(short, 2 * hi, hi)
    for _ in range(45):  # the bracket is about √(2 v log(1/α)) wide: 45 halvings leave well under 1e-9 of it
        mid = (lo + hi) / 2
        above = _gamma_exponential_log(mid, v, rho, c) >= threshold
        lo, hi = np.where(above, lo, mid), np.where(above, mid, hi)
    return hi


def _gamma_exponential_log(s: np.ndarray, v: np.ndarray, rho: float, c: float) -> np.ndarray:
    """The log of the gamma-exponential mixture supermartingale at sum ``s`` and variance ``v`` (Howard et al.
    2021; increasing in s ≥ 0)."""
    from scipy.special import gammainc, gammaln

    c2 = c * c
    a = rho / c2
    lead = a * math.log(a) - float(gammaln(a)) - math.log(float(gammainc(a, a)))
    x = (c * s + v) / c2
    vr = (v + rho) / c2
    with np.errstate(divide="ignore"):
        return lead + gammaln(vr) + np.log(gammainc(vr, x + a)) - vr * np.log(x + a) + x


def mean_sequence(
    n: np.ndarray | float,
    total: np.ndarray | float,
    squares: np.ndarray | float,
    low: float,
    high: float,
    centre: float,
    alpha: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, lo, hi) of values in [``low``, ``high``] from their count, sum and sum of squares: a two-sided
    interval that covers the mean at every look with probability ≥ 1 − ``alpha`` (α/2 on each side).

    ``centre`` is the constant predictable centre X̂ (in [low, high]): the value the question is asked against
    (1/N for a seat's share, 0 for a change) keeps V_n smallest where it matters. With no games the interval is
    the whole range. Arrays broadcast: one call evaluates many verdicts or many simulated streams.
    """
    if not low <= centre <= high:
        raise ValueError(f"the centre {centre} must lie in [{low}, {high}]")
    n = np.asarray(n, dtype=float)
    total = np.asarray(total, dtype=float)
    v = np.maximum(np.asarray(squares, dtype=float) - 2 * centre * total + n * centre * centre, 0.0)
    half = mixture_bound(v, alpha / 2, high - low)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / np.maximum(n, 1), np.nan)
        lo = np.where(n > 0, np.maximum(mean - half / np.maximum(n, 1), low), low)
        hi = np.where(n > 0, np.minimum(mean + half / np.maximum(n, 1), high), high)
    return mean, lo, hi


def state_of(lo: np.ndarray | float, hi: np.ndarray | float, fair: float, tolerance: float) -> tuple[str, int]:
    """A verdict from an interval against the band fair ± ``tolerance``: ("within", 0) if the interval lies inside
    it, ("beyond", ±1) if wholly outside on one side, else ("open", 0)."""
    lo, hi = float(lo), float(hi)
    if lo > fair + tolerance:
        return "beyond", 1
    if hi < fair - tolerance:
        return "beyond", -1
    if lo >= fair - tolerance and hi <= fair + tolerance:
        return "within", 0
    return "open", 0
