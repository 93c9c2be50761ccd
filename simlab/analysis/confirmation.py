"""A vector confirmed on fresh seeds: seat shares with their intervals and the equal-seats test.

Rows in (per-game win shares by seat), estimates out; the experiment that plays the confirmation games is
``simlab.experiments.engine.Trials.fresh`` (driven by ``simlab.experiments.fair_vector.confirm``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.softmax_fit import largest_deviation


@dataclasses.dataclass(frozen=True)
class Confirmation:
    """The chosen vector replayed on fresh seeds: seat shares with intervals and the equal-seats test."""

    value: tuple[Any, ...]
    games: int
    shares: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    chi2: float
    df: int
    p_equal: float
    level: float

    @property
    def deviation(self) -> float:
        return float(largest_deviation(self.shares))

    def table(self) -> pl.DataFrame:
        n = len(self.shares)
        return pl.DataFrame(
            {
                "seat": list(range(n)),
                "value": [float(v) for v in self.value],
                "games": [self.games] * n,
                "win_share": self.shares,
                "win_share_lo": self.lo,
                "win_share_hi": self.hi,
                "fair_share": [1.0 / n] * n,
                "chi2_equal": [self.chi2] * n,
                "df_equal": [self.df] * n,
                "p_equal": [self.p_equal] * n,
                "interval": [stats.MEAN_METHOD] * n,
            }
        )


def confirmation_of(value: tuple[Any, ...], w: np.ndarray, level: float = 0.95) -> Confirmation:
    """Seat shares (normal interval of the mean) and the Wald equal-seats test of per-game win shares ``w``."""
    g = len(w)
    mean = w.mean(axis=0)
    se = w.std(axis=0, ddof=1) / math.sqrt(g)
    z = stats.z_value(level)
    chi2, df, p = stats.equal_shares_test(mean, np.cov(w, rowvar=False), g)
    return Confirmation(value, g, mean, mean - z * se, mean + z * se, chi2, df, p, level)
