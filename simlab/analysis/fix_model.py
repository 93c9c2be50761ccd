"""The response model of a rule-fix search: every seat's win share as a function of the settings of several knobs.

``p_k(x) ∝ exp(x_k · θ)`` with a seat-specific design ``x`` (:func:`design`): seat indicators (α_k, α_0 = 0); for
each per-seat offset knob one column whose seat-k entry is seat k's offset (a shared slope β, the model
``analysis.softmax_fit`` fits for compensation); for each other feature (a number knob's offset from the
published value, an alternative's indicator) one column per seat k ≥ 1 (a surrogate: each seat's log-odds
against seat 0 linear in the feature). Fitted by quasi-likelihood (split wins are fractions) with a small ridge
(an alternative never played stays at the published rules' prediction), covariance clustered by game index
(common random numbers correlate the settings played on one game's seed). The model only shortlists and helps
the race choose which candidate to certify (``certify_chance``): what is concluded comes from each candidate's
own fresh games (``analysis.fix_bands``). Rows in, estimates out.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from simlab.analysis.frames import AnalysisError

#: ridge on the coefficients (the information of a few games): keeps an unplayed feature at 0
RIDGE = 1e-6


@dataclasses.dataclass(frozen=True)
class ResponseFit:
    """Coefficients ``theta`` (P) of ``p_k ∝ exp(x_k · θ)``, their covariance, the games fitted, and which
    coefficients are slopes (not seat indicators)."""

    theta: np.ndarray
    cov: np.ndarray
    games: int
    slopes: np.ndarray

    def p(self, x: np.ndarray) -> np.ndarray:
        """Predicted win shares (…, N) of designs ``x`` (…, N, P)."""
        eta = np.asarray(x, float) @ self.theta
        e = np.exp(eta - eta.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def deviation(self, x: np.ndarray) -> np.ndarray:
        """Predicted largest seat deviation max_k |p_k − 1/N| of designs ``x`` (…, N, P)."""
        p = self.p(x)
        return np.abs(p - 1.0 / p.shape[-1]).max(axis=-1)

    def deviation_low(self, x: np.ndarray, quantile: float = 0.01, draws: int = 100, seed: int = 0) -> np.ndarray:
        """A low quantile of the predicted largest seat deviation over draws of the coefficients from their
        normal (parametric bootstrap): a setting whose bound is above the tolerance is one the model rules out
        with confidence; one below may be fair and is worth playing."""
        rng = np.random.default_rng([seed, 0xF1C5])
        thetas = rng.multivariate_normal(self.theta, self.cov, size=draws, method="eigh")  # (D, P)
        eta = np.einsum("...kp,dp->...dk", np.asarray(x, float), thetas)
        e = np.exp(eta - eta.max(axis=-1, keepdims=True))
        p = e / e.sum(axis=-1, keepdims=True)
        dev = np.abs(p - 1.0 / p.shape[-1]).max(axis=-1)  # (..., D)
        return np.quantile(dev, quantile, axis=-1)

    def certify_chance(
        self, x: np.ndarray, games: int, z: float, delta: float, draws: int = 100, seed: int = 0
    ) -> np.ndarray:
        """The chance that a certification of settings ``x`` (M, N, P) on ``games`` fresh games passes every seat's
        one-sided tests at the boundary ``z`` (each seat's share p, its standard error √(p(1 − p)/games)), averaged
        over draws of the coefficients: the seat least likely to pass stands for the setting (an upper bound of
        the joint chance; exact for two seats, whose shares mirror each other)."""
        from scipy.stats import norm

        rng = np.random.default_rng([seed, 0xC3A7])
        thetas = rng.multivariate_normal(self.theta, self.cov, size=draws, method="eigh")  # (D, P)
        eta = np.einsum("mkp,dp->mdk", np.asarray(x, float), thetas)
        e = np.exp(eta - eta.max(axis=-1, keepdims=True))
        p = e / e.sum(axis=-1, keepdims=True)  # (M, D, N)
        c = 1.0 / p.shape[-1]
        se = np.sqrt(np.maximum(p * (1 - p), 1e-12) / games)
        seat = norm.cdf((c + delta - z * se - p) / se) - norm.cdf((c - delta + z * se - p) / se)
        return np.clip(seat, 0.0, 1.0).min(axis=-1).mean(axis=-1)

    def slope_z(self) -> float:
        """The largest |coefficient| / standard error among the slopes (0 without slopes): how clear an effect
        the exploration has shown."""
        idx = np.flatnonzero(self.slopes)
        if not len(idx):
            return 0.0
        se = np.sqrt(np.maximum(np.diag(self.cov)[idx], 1e-300))
        return float(np.max(np.abs(self.theta[idx]) / se))


def design(offsets: np.ndarray, common: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The design (M, N, P) of M settings and which of its P columns are slopes.

    ``offsets`` (M, N, Q): seat k's offset on each of Q per-seat knobs (a shared slope each); ``common``
    (M, J): features every seat sees alike (one slope per seat k ≥ 1 each)."""
    offsets = np.asarray(offsets, float)
    common = np.asarray(common, float)
    m, n, q = offsets.shape
    j = common.shape[1]
    x = np.zeros((m, n, (n - 1) + q + (n - 1) * j))
    x[:, np.arange(1, n), np.arange(n - 1)] = 1.0
    x[:, :, n - 1 : n - 1 + q] = offsets
    for k in range(1, n):
        start = n - 1 + q + (k - 1) * j
        x[:, k, start : start + j] = common
    slopes = np.ones(x.shape[2], bool)
    slopes[: n - 1] = False
    return x, slopes


def fit_response(game: np.ndarray, arm: np.ndarray, x: np.ndarray, w: np.ndarray, slopes: np.ndarray) -> ResponseFit:
    """Quasi-likelihood fit of observations: game index (M), the setting each game was played at (``arm``, M
    indices into ``x``), the settings' designs ``x`` (A, N, P) and the games' win shares ``w`` (M, N).

    The fit sees each setting once, weighted by its games; the sandwich covariance sums each game index's
    scores over the settings it was played at (common random numbers correlate them)."""
    a, n, p = x.shape
    m = len(arm)
    if a < 2 or m < 2:
        raise AnalysisError("the response model needs games at two settings or more; play more games")
    counts = np.bincount(arm, minlength=a).astype(float)
    sums = np.stack([np.bincount(arm, w[:, k], minlength=a) for k in range(n)], axis=1)
    theta = np.zeros(p)
    ridge = RIDGE * m * np.eye(p)
    info = ridge
    for _ in range(100):
        pr = ResponseFit(theta, np.zeros((p, p)), 0, slopes).p(x)
        grad = np.einsum("vkp,vk->p", x, sums - counts[:, None] * pr) - ridge @ theta
        mean_x = np.einsum("vk,vkp->vp", pr, x)
        info = np.einsum("v,vk,vkp,vkq->pq", counts, pr, x, x) - np.einsum("v,vp,vq->pq", counts, mean_x, mean_x)
        info = info + ridge
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError as exc:
            raise AnalysisError("the response model cannot be fitted; play more games") from exc
        step = np.clip(step, -5, 5)  # a seat that wins nearly all its games: no overshoot
        theta = theta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    if not np.all(np.isfinite(theta)):
        raise AnalysisError("the response model cannot be fitted: some seat wins all or none of its games")
    fit = ResponseFit(theta, np.zeros((p, p)), 0, slopes)
    resid = w - fit.p(x)[arm]
    scores = np.empty((m, p))
    for a in range(len(x)):  # each setting's games at once: (games, N) @ (N, P)
        sel = np.flatnonzero(arm == a)
        scores[sel] = resid[sel] @ x[a]
    gu, gi = np.unique(game, return_inverse=True)
    per_game = np.stack([np.bincount(gi.reshape(-1), scores[:, c], minlength=len(gu)) for c in range(p)], axis=1)
    meat = per_game.T @ per_game * (len(gu) / max(len(gu) - 1, 1))
    bread = np.linalg.inv(info)
    return ResponseFit(theta, bread @ meat @ bread, len(gu), slopes)


def fitted_or_none(
    game: np.ndarray, arm: np.ndarray, x: np.ndarray, w: np.ndarray, slopes: np.ndarray
) -> ResponseFit | None:
    """:func:`fit_response`, or None where the data cannot fit it yet (the driver explores further)."""
    try:
        fit = fit_response(game, arm, x, w, slopes)
    except AnalysisError:
        return None
    return fit if all(math.isfinite(v) for v in fit.theta) else None
