"""Intervals, tests and multiple-testing adjustments shared by every analysis.

Everything here works on small summaries (counts, sums, sums of squares) that polars has already
aggregated, so the analyses never hold per-game rows in Python. Interval methods, in one place so the
docs and the chart captions can name them:

- a mean (win share, score, rank, turns): normal interval ``mean ± z·sd/√n`` with the sample sd, which
  stays right for win shares with split wins (they are not 0/1, so a binomial interval would not be);
- a proportion of games (draw rate, collapse rate): Wilson score interval;
- a paired difference (same game seeds in two variants): the mean and sd of the per-game differences;
- a ratio ``x* = (c - a) / b`` of fitted coefficients: Fieller's interval (inverts the Wald test, so it
  stays honest when the slope is barely significant and is unbounded when it is not significant);
- anything else (variance shares): batch means over games split into batches by game index;
- a mean of rows pooled over the seats of a game (score of all seats, units sold): a game-clustered standard
  error (``cluster_mean_se``), since a game's seats share its luck;
- a result *selected* from many (which seat is off, the largest change): simultaneous intervals over the family
  (Bonferroni), Holm-adjusted p-values, and a bias-corrected gap (``range_bootstrap``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

#: names written into result frames and chart captions
MEAN_METHOD = "normal interval of the mean (sample sd)"
WILSON_METHOD = "Wilson score interval"
PAIRED_METHOD = "paired by game seed: normal interval of the mean per-game difference"
FIELLER_METHOD = "Fieller interval from a game-clustered sandwich covariance"
BATCH_METHOD = "batch means over 20 batches of games (t interval)"
SIMULTANEOUS_METHOD = "simultaneous over the {m} {what} (Bonferroni: each at {each})"
GAP_METHOD = (
    "bias-corrected by a parametric bootstrap of the seats' means (normal, per-game covariance); interval from "
    "the pairwise seat differences, simultaneous over the pairs (Bonferroni)"
)
CLUSTER_METHOD = "normal interval of the mean, game-clustered standard error (CR1)"
#: the equal-seats tolerance a designer gets unless they set one: 1 point of win share
DEFAULT_TOLERANCE = 0.01


def _scipy_stats() -> Any:
    """scipy.stats, imported on first use: it takes a second, and a run's workers (which import this module to
    write digests) never need it."""
    from scipy import stats

    return stats


def z_value(level: float = 0.95) -> float:
    """Two-sided normal quantile of a confidence level (1.96 for 0.95)."""
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be between 0 and 1, got {level}")
    _st = _scipy_stats()
    return float(_st.norm.ppf(0.5 + level / 2))


def mean_aggs(col: str, name: str | None = None) -> list[pl.Expr]:
    """Aggregations whose output ``with_mean_interval`` turns into ``name``, ``name_lo``, ``name_hi``."""
    name = name or col
    c = pl.col(col).cast(pl.Float64)
    return [c.count().alias(f"{name}__n"), c.mean().alias(name), c.std().alias(f"{name}__sd")]


def merge_mean_aggs(
    parts: list[pl.DataFrame], by: list[str], names: list[str], sums: tuple[str, ...] = ()
) -> pl.DataFrame:
    """Combine ``mean_aggs`` outputs computed on disjoint batches of rows into those of all the rows.

    Counts add up; means are count-weighted; sds combine exactly through the within- and between-batch
    sums of squares (Chan et al.), so the result equals one pass over all rows up to rounding. ``sums``
    are further columns that simply add up. One part is returned as it is.
    """
    if len(parts) == 1:
        return parts[0]
    return combine_mean_aggs(pl.concat(parts, how="vertical_relaxed"), by, names, sums)


def combine_mean_aggs(df: pl.DataFrame, by: list[str], names: list[str], sums: tuple[str, ...] = ()) -> pl.DataFrame:
    """``merge_mean_aggs`` of the rows of one frame: those of disjoint sub-groups (batches, histogram bins)
    merged into one row per ``by`` group."""
    aggs: list[pl.Expr] = [pl.col(c).sum() for c in sums]
    for name in names:
        n, m, sd = pl.col(f"{name}__n").cast(pl.Float64), pl.col(name), pl.col(f"{name}__sd")
        total = n.sum()
        mean = (n * m).sum() / total
        m2 = ((sd.fill_null(0.0) ** 2) * (n - 1).clip(0) + n * (m - mean) ** 2).sum()
        aggs += [
            pl.col(f"{name}__n").sum(),
            pl.when(total > 0).then(mean).alias(name),
            pl.when(total > 1).then((m2 / (total - 1)).sqrt()).alias(f"{name}__sd"),
        ]
    # null means (a batch without values) must not poison the sums: drop them per column first
    out = df.group_by(by, maintain_order=True).agg(aggs)
    return out.sort(by)


def with_mean_interval(df: pl.DataFrame, name: str, level: float = 0.95, keep_se: bool = False) -> pl.DataFrame:
    """Replace the helper columns of ``mean_aggs`` by a normal interval of the mean."""
    z = z_value(level)
    # one observation has no sd: its interval is null, never a falsely exact zero width
    se = pl.col(f"{name}__sd") / pl.col(f"{name}__n").cast(pl.Float64).sqrt()
    out = df.with_columns(
        (pl.col(name) - z * se).alias(f"{name}_lo"),
        (pl.col(name) + z * se).alias(f"{name}_hi"),
        se.alias(f"{name}_se"),
    ).drop(f"{name}__n", f"{name}__sd")
    return out if keep_se else out.drop(f"{name}_se")


def simultaneous_z(level: float, m: int) -> float:
    """Bonferroni: the normal quantile that makes ``m`` intervals cover together with probability ≥ ``level``."""
    return z_value(1 - (1 - level) / max(m, 1))


def simultaneous_method(level: float, m: int, what: str) -> str:
    """How a family of ``m`` simultaneous intervals was made, for captions and tables."""
    each = f"{1 - (1 - level) / max(m, 1):.2%}".replace(".00%", "%")
    return SIMULTANEOUS_METHOD.format(m=m, what=what, each=each)


def range_bootstrap(
    mean: np.ndarray, cov: np.ndarray, n: int, level: float = 0.95, draws: int = 4000, seed: int = 0
) -> tuple[float, float, float]:
    """The gap max − min of a vector of means, bias-corrected, with an interval that covers the true gap.

    The plain gap of estimated means is biased upward (noise only widens a range: at 800 games of a fair game
    it reads about a point). The estimate is bootstrap bias-corrected: 2·gap − the mean gap of means drawn
    from their sampling distribution, normal with covariance ``cov / n`` (the per-game covariance over ``n``
    games, the same as resampling games in large samples but from sums a digest keeps; a fixed ``seed`` keeps
    a report bit-identical), floored at 0.

    A bootstrap interval does not cover a gap at its boundary (measured on fair seats of the real engine: the
    basic interval excluded 0 in 16% of analyses), so the interval comes from the pairwise differences
    m_i − m_j instead, simultaneous over the N(N−1)/2 pairs (Bonferroni, each with its variance from
    ``cov``): when every pair's interval covers its truth, the true gap lies between the largest lower end of
    |m_i − m_j| (floored at 0) and the largest upper end. Returns (estimate, lo, hi).
    """
    m = np.asarray(mean, dtype=float)
    c = np.asarray(cov, dtype=float)
    k = len(m)
    if k < 2 or n < 2 or not np.isfinite(c).all():
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    sample = rng.multivariate_normal(m, c / n, size=draws, method="eigh")
    gaps = sample.max(axis=1) - sample.min(axis=1)
    gap = float(m.max() - m.min())
    z = simultaneous_z(level, k * (k - 1) // 2)
    lo = hi = 0.0
    for i in range(k):
        for j in range(i + 1, k):
            d = abs(m[i] - m[j])
            half = z * math.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0) / n)
            lo, hi = max(lo, d - half), max(hi, d + half)
    return max(2 * gap - float(gaps.mean()), 0.0), lo, hi


def cluster_mean_se(total: float, count: float, t2: float, tm: float, m2: float, clusters: int) -> float:
    """Standard error of the pooled mean ȳ = Σy/Σm of rows clustered in games (CR1, as statsmodels' cluster
    covariance of a regression on a constant): from per-game sums T_g = Σy and sizes m_g, through
    Σ T_g², Σ T_g·m_g and Σ m_g² — all sums, so they add up over disjoint games.

    Var = G/(G−1) · Σ_g (T_g − ȳ m_g)² / (Σ m_g)². Seats of one game share its luck (one winner, one pace),
    so their rows are not independent; the row-count formula understates the error.
    """
    if clusters < 2 or count <= 0:
        return float("nan")
    y = total / count
    ss = max(t2 - 2 * y * tm + y * y * m2, 0.0)
    return math.sqrt(clusters / (clusters - 1) * ss) / count


def wilson(k: np.ndarray | float, n: np.ndarray | float, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a proportion k/n: good coverage even near 0 or 1 and for small n."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def with_wilson(df: pl.DataFrame, k: str, n: str, name: str, level: float = 0.95) -> pl.DataFrame:
    """Add ``name`` = k/n with its Wilson interval ``name_lo``, ``name_hi``."""
    lo, hi = wilson(df[k].to_numpy(), df[n].to_numpy(), level)
    return df.with_columns(
        (pl.col(k) / pl.col(n)).alias(name), pl.Series(f"{name}_lo", lo), pl.Series(f"{name}_hi", hi)
    )


def normal_p(estimate: np.ndarray | float, se: np.ndarray | float) -> np.ndarray:
    """Two-sided p-value of ``estimate / se`` against 0 (large-sample normal test)."""
    est = np.asarray(estimate, dtype=float)
    se = np.asarray(se, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        zs = np.where(se > 0, np.abs(est) / se, np.where(est == 0, 0.0, np.inf))
    _st = _scipy_stats()
    return 2 * _st.norm.sf(zs)


def holm(p: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values: control the family-wise error rate (any dependence)."""
    p = np.asarray(p, dtype=float)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p)
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def benjamini_hochberg(p: Sequence[float] | np.ndarray) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (q-values): control the false discovery rate."""
    p = np.asarray(p, dtype=float)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p)
    ranked = p[order] * m / np.arange(1, m + 1)
    adj = np.minimum.accumulate(ranked[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


ADJUSTMENTS = {"holm": holm, "bh": benjamini_hochberg}


def adjust(p: Sequence[float] | np.ndarray, method: str = "holm") -> np.ndarray:
    """Adjust p-values for testing many hypotheses at once ('holm' or 'bh')."""
    try:
        return ADJUSTMENTS[method](p)
    except KeyError:
        from simlab.core.errors import SimlabError

        raise SimlabError(
            f"unknown adjustment {method!r}; use 'holm' (family-wise) or 'bh' (false discovery)"
        ) from None


def equal_shares_test(mean: np.ndarray, cov: np.ndarray, n: int) -> tuple[float, int, float]:
    """Wald test that every seat's expected win share is 1/N, from per-game win-share vectors.

    ``mean`` and ``cov`` are the mean and covariance of the per-game vector of seat win shares. Each
    game's shares sum to 1 (split wins included), so one seat is dropped and the statistic
    ``n (m - 1/N)' S⁻¹ (m - 1/N)`` is compared with χ²(N-1). Unlike a χ² test on win counts it is right
    for split wins and for the negative correlation between seats of one game. Returns (χ², df, p).
    """
    k = len(mean)
    if k < 2 or n < 2:
        return float("nan"), max(k - 1, 0), float("nan")
    d = np.asarray(mean[:-1], dtype=float) - 1.0 / k
    s = np.asarray(cov, dtype=float)[:-1, :-1]
    try:
        stat = float(n * d @ np.linalg.solve(s, d))
    except np.linalg.LinAlgError:
        stat = float(n * d @ np.linalg.pinv(s) @ d)
    _st = _scipy_stats()
    return stat, k - 1, float(_st.chi2.sf(stat, k - 1))


def fieller(
    a: float, b: float, c: float, vaa: float, vab: float, vbb: float, level: float = 0.95
) -> tuple[float, float]:
    """Interval of x* where ``a + b·x* = c``: every x whose Wald test of ``a + b·x = c`` is not rejected.

    Returns (-inf, inf) when the slope is not significantly different from zero: then no honest
    bounded interval exists, and saying so beats a delta-method interval that pretends otherwise.
    """
    z2 = z_value(level) ** 2
    qa = b * b - z2 * vbb
    qb = 2 * ((a - c) * b - z2 * vab)
    qc = (a - c) ** 2 - z2 * vaa
    disc = qb * qb - 4 * qa * qc
    if qa <= 0 or disc < 0:
        return -math.inf, math.inf
    r = math.sqrt(disc)
    lo, hi = sorted(((-qb - r) / (2 * qa), (-qb + r) / (2 * qa)))
    return float(lo), float(hi)


def batch_interval(estimates: Sequence[float] | np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """Batch means: (mean, lo, hi) of a statistic computed on B disjoint batches of games.

    The full-data estimate's standard error is about sd(batches)/√B; a t quantile with B-1 degrees of
    freedom accounts for estimating it from few batches.
    """
    x = np.asarray(estimates, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < 2:
        m = float(x.mean()) if len(x) else float("nan")
        return m, float("nan"), float("nan")
    m = float(x.mean())
    _st = _scipy_stats()
    half = float(_st.t.ppf(0.5 + level / 2, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return m, m - half, m + half
