"""The fair-vector model: seats' win shares against per-seat offsets of a knob, and the vectors it ranks best.

``p_k(d) ∝ exp(α_k + β·d_k)`` (α_0 = 0) is fitted by quasi-likelihood (split wins are fractions) on
observations (game index, offsets d, win shares w), its covariance clustered by game index (common random
numbers correlate the vectors played on one game's seed). Rows in, estimates out: the search that plays the
games is ``simlab.experiments.fair_vector``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from simlab.analysis.frames import AnalysisError

#: most candidates the model's shortlist races
SHORTLIST = 5

UNFITTABLE = "the fair-vector model cannot be fitted: some seat wins all or none of its games; play more games"


@dataclasses.dataclass(frozen=True)
class SoftmaxFit:
    """``p_k(d) ∝ exp(α_k + β·d_k)`` (α_0 = 0); ``cov`` of (α_1.., β) clustered by game index."""

    alpha: np.ndarray
    beta: float
    cov: np.ndarray
    games: int

    def p(self, d: np.ndarray) -> np.ndarray:
        eta = self.alpha + self.beta * np.asarray(d, dtype=float)
        e = np.exp(eta - eta.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    @property
    def beta_se(self) -> float:
        return float(math.sqrt(max(self.cov[-1, -1], 0.0)))

    def fair(self) -> np.ndarray:
        """Continuous offsets that equalise the seats, the smallest 0 (NaN unless β > 0)."""
        return fair_offsets(self.alpha, self.beta)

    def fair_interval(self, level: float, seed: int, draws: int = 2000) -> tuple[np.ndarray, np.ndarray]:
        """Parametric-bootstrap interval of each fair offset (draws of the coefficients from their normal)."""
        rng = np.random.default_rng(seed)
        theta = np.append(self.alpha[1:], self.beta)
        sims = rng.multivariate_normal(theta, self.cov, size=draws, method="eigh")
        out = np.array([fair_offsets(np.append(0.0, s[:-1]), s[-1]) for s in sims])
        q = (1 - level) / 2
        return np.nanquantile(out, q, axis=0), np.nanquantile(out, 1 - q, axis=0)


def fair_offsets(alpha: np.ndarray, beta: float) -> np.ndarray:
    if not beta > 0:
        return np.full(len(alpha), math.nan)
    return (alpha.max() - alpha) / beta


def fit_softmax(game: np.ndarray, d: np.ndarray, w: np.ndarray) -> SoftmaxFit:
    """Quasi-likelihood fit on observations (game index, offsets d (M×N), win shares w (M×N)).

    The sandwich covariance sums each game index's scores over the vectors it was played at (common random
    numbers correlate them) and allows for win shares that are not 0/1.
    """
    m, n = w.shape
    if m < 2 or np.ptp(d - d[:, :1], axis=0).max() == 0:
        raise AnalysisError("a fair-vector fit needs at least two vectors that differ between seats")

    def design(dd: np.ndarray) -> np.ndarray:  # (M, N, P): α_1..α_{N-1} indicators, then d_k
        x = np.zeros((len(dd), n, n))
        x[:, np.arange(1, n), np.arange(n - 1)] = 1.0
        x[:, :, n - 1] = dd
        return x

    uniq, inv = np.unique(d, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    counts = np.bincount(inv).astype(float)
    sums = np.stack([np.bincount(inv, w[:, k], minlength=len(uniq)) for k in range(n)], axis=1)
    xu = design(uniq)
    theta = np.zeros(n)
    hess = np.eye(n)
    for _ in range(100):
        fit = SoftmaxFit(np.append(0.0, theta[:-1]), float(theta[-1]), np.zeros((n, n)), 0)
        p = fit.p(uniq)
        grad = np.einsum("vkp,vk->p", xu, sums - counts[:, None] * p)
        info = np.einsum("v,vk,vkp,vkq->pq", counts, p, xu, xu) - np.einsum(
            "v,vp,vq->pq", counts, np.einsum("vk,vkp->vp", p, xu), np.einsum("vk,vkp->vp", p, xu)
        )
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError as exc:
            raise AnalysisError(
                "the fair-vector model cannot be fitted: some seat wins all or none of its games"
            ) from exc
        theta = theta + step
        hess = info
        if np.max(np.abs(step)) < 1e-10:
            break
    if not np.all(np.isfinite(theta)):
        raise AnalysisError(UNFITTABLE)
    fit = SoftmaxFit(np.append(0.0, theta[:-1]), float(theta[-1]), np.zeros((n, n)), 0)
    r = w - fit.p(d)
    scores = np.einsum("mkp,mk->mp", design(d), r)
    gu, gi = np.unique(game, return_inverse=True)
    per_game = np.stack([np.bincount(gi.reshape(-1), scores[:, j], minlength=len(gu)) for j in range(n)], axis=1)
    meat = per_game.T @ per_game * (len(gu) / max(len(gu) - 1, 1))
    bread = np.linalg.inv(hess)
    return SoftmaxFit(fit.alpha, fit.beta, bread @ meat @ bread, len(gu))


def largest_deviation(shares: np.ndarray) -> np.ndarray:
    """``max_k |p_k − 1/N|`` along the last axis: how far the least fair seat is from an equal share."""
    shares = np.asarray(shares, dtype=float)
    return np.abs(shares - 1.0 / shares.shape[-1]).max(axis=-1)


def shortlist(fit: SoftmaxFit, size: int = SHORTLIST) -> list[tuple[int, ...]]:
    """Whole offset vectors (smallest 0) within one of the model's continuous answer, best predicted first."""
    fair = fit.fair()
    if not np.all(np.isfinite(fair)):
        raise AnalysisError("the knob has no detectable effect on the win shares (slope ≤ 0); play more games")
    ranges = [range(max(0, math.floor(x) - 1), math.ceil(x) + 2) for x in fair]
    cands = {tuple(int(v - min(c)) for v in c) for c in itertools.product(*ranges)}
    ordered = sorted(cands, key=lambda c: (float(largest_deviation(fit.p(np.array(c, float)))), sum(c), c))
    return ordered[:size]
