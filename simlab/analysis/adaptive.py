"""One seat's fair offset from an adaptive search's games: every step's estimate, and the games as a curve.

Rows in, estimates out: the search that plays the games is ``simlab.experiments.adaptive``; ``as_compensation``
turns its observations (game index, offset, win share) into the sweep analysis's ``Compensation`` (points,
fitted curve with its band, fair point) for the chart.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from simlab.analysis.compensation import LogisticFit
from simlab.analysis.frames import AnalysisError


@dataclasses.dataclass
class SearchStep:
    """One batch of the search: offsets played, games so far, and the estimate after it."""

    offsets: list[float]
    games: int
    fair: float
    lo: float
    hi: float

    @property
    def width(self) -> float:
        return self.hi - self.lo


@dataclasses.dataclass
class SearchResult:
    """The search's answer: the fit, every step, and the observations (game index, offset, win share)."""

    knob: str
    seat: int
    base: tuple[Any, ...]
    fit: LogisticFit | None
    steps: list[SearchStep]
    game: np.ndarray
    offset: np.ndarray
    win_share: np.ndarray
    converged: bool
    level: float

    @property
    def games(self) -> int:
        return len(self.game)

    @property
    def fair(self) -> float:
        return self.steps[-1].fair if self.steps else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return (self.steps[-1].lo, self.steps[-1].hi) if self.steps else (-math.inf, math.inf)


def as_compensation(result: SearchResult, bots: Sequence[str]) -> Any:
    """The search's games as a ``Compensation`` (points, fitted curve, fair point) for the chart."""
    import polars as pl

    from simlab.analysis import stats
    from simlab.analysis.compensation import Compensation

    fit = result.fit
    if fit is None:
        raise AnalysisError("the search played no games")
    z = stats.z_value(result.level)
    xs = np.unique(result.offset)
    rows = []
    for x in xs:
        w = result.win_share[result.offset == x]
        se = w.std(ddof=1) / math.sqrt(len(w)) if len(w) > 1 else math.nan
        rows.append(
            {
                "seat": result.seat,
                "offset": float(x),
                "games": len(w),
                "win_share": float(w.mean()),
                "win_share_lo": float(w.mean() - z * se),
                "win_share_hi": float(w.mean() + z * se),
            }
        )
    grid = np.linspace(xs.min(), xs.max(), 61)
    lo_band, hi_band = fit.band(grid, result.level)
    lo, hi = result.interval
    rate, rate_se = fit.rate(0.0)
    fit_row = {
        "seat": result.seat,
        "games": result.games,
        "offsets": len(xs),
        "a": fit.a,
        "b": fit.b,
        "b_se": math.sqrt(fit.cov[1, 1]),
        "share_at_0": float(fit.p(0.0)),
        "fair_offset": result.fair,
        "fair_lo": lo,
        "fair_hi": hi,
        # the knob's own values (offsets from the published ones for an offset knob), not starting money
        "fair_money": math.nan,
        "fair_others": math.nan,
        "rules_money": math.nan,
        "rules_others": math.nan,
        "rate": rate,
        "rate_se": rate_se,
        "rate_lo": rate - z * rate_se,
        "rate_hi": rate + z * rate_se,
        "interval": stats.FIELLER_METHOD,
    }
    return Compensation(
        fit=pl.DataFrame([fit_row]),
        points=pl.DataFrame(rows),
        curve=pl.DataFrame(
            {
                "seat": [result.seat] * len(grid),
                "offset": grid,
                "win_share": fit.p(grid),
                "win_share_lo": lo_band,
                "win_share_hi": hi_band,
            }
        ),
        players=len(result.base),
        level=result.level,
        games=int(max(r["games"] for r in rows)),
        bots=sorted(set(bots)),
        fits={result.seat: fit},
    )
