"""What a rule-fix search concludes from one setting's games: its seats against the band 1/N ± δ, and its guards.

A setting's games are a matrix (games × columns) laid out by :class:`Measures`: the seats' win shares, the game's
length (turns), the seats' scores, then the guarded facts (each a per-game mean over the seats).

- **Fair within ±δ** (:attr:`SeatBand.fair`) is an intersection-union claim: every seat's two one-sided tests at
  the tolerance pass (its (1 − 2α) interval lies inside 1/N ± δ). Each test alone is level α, so the claim is
  level α with no multiplicity correction (over seats, or over the lineups of a certification: the change is
  certified only if every test of every lineup passes, and a change that is not fair for some seat of some
  lineup passes that seat's test with probability ≤ α).
- **Ruled out** (:attr:`SeatBand.beyond`) is a union claim: some seat's interval, simultaneous over the seats
  (Bonferroni), lies wholly outside the band.

Rows in, estimates out: the search that plays the games is ``simlab.experiments.fix``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from simlab.analysis import stats


@dataclasses.dataclass(frozen=True)
class Measures:
    """The columns of a setting's games: ``n`` win shares, turns, ``n`` scores, then one per fact in ``facts``."""

    n: int
    facts: tuple[str, ...] = ()

    @property
    def width(self) -> int:
        return 2 * self.n + 1 + len(self.facts)

    def shares(self, cols: np.ndarray) -> np.ndarray:
        return cols[..., : self.n]

    def value(self, name: str, cols: np.ndarray, bots: np.ndarray | None = None) -> float:
        """A guard's measure on games ``cols``: ``length`` (mean turns), ``draws`` (games with more than one
        winner), ``luck`` (needs ``bots``: games × seats) or ``fact.<column>`` (its mean)."""
        n = self.n
        if name == "length":
            return float(cols[:, n].mean())
        if name == "draws":
            return float(((cols[:, :n] > 0).sum(axis=1) > 1).mean())
        if name == "luck":
            if bots is None:
                raise ValueError("the luck share needs the bots of every seat")
            return luck_share(cols[:, n + 1 : 2 * n + 1], bots)
        j = self.facts.index(name.removeprefix("fact."))
        return float(cols[:, 2 * n + 1 + j].mean())


@dataclasses.dataclass(frozen=True)
class SeatBand:
    """Seat win shares over ``games`` games with their standard errors, against 1/N ± ``delta`` at ``alpha``."""

    shares: np.ndarray
    se: np.ndarray
    games: int
    delta: float
    alpha: float

    @property
    def fair_share(self) -> float:
        return 1.0 / len(self.shares)

    @property
    def z(self) -> float:
        """Each seat's one-sided tests: its (1 − 2α) interval."""
        return _z(1 - 2 * self.alpha)

    @property
    def z_simultaneous(self) -> float:
        return _z(1 - 2 * self.alpha / len(self.shares))

    @property
    def lo(self) -> np.ndarray:
        return self.shares - self.z * self.se

    @property
    def hi(self) -> np.ndarray:
        return self.shares + self.z * self.se

    @property
    def fair(self) -> bool:
        """Every seat's interval inside the band (a level-α claim: see the module)."""
        c, d = self.fair_share, self.delta
        return bool(np.all((self.lo > c - d) & (self.hi < c + d)))

    @property
    def beyond(self) -> bool:
        """Some seat's simultaneous interval wholly outside the band."""
        c, d, z = self.fair_share, self.delta, self.z_simultaneous
        lo, hi = self.shares - z * self.se, self.shares + z * self.se
        return bool(np.any((lo > c + d) | (hi < c - d)))

    @property
    def worst(self) -> float:
        return float(np.abs(self.shares - self.fair_share).max())

    @property
    def worst_interval(self) -> tuple[float, float]:
        """The largest seat deviation's bounds from the seats' intervals: below, the largest distance from 1/N of
        an interval that excludes it; above, the largest distance of an interval's end."""
        c = self.fair_share
        lo, hi = self.lo, self.hi
        near = np.where((lo <= c) & (hi >= c), 0.0, np.minimum(np.abs(lo - c), np.abs(hi - c)))
        return float(near.max()), float(np.maximum(np.abs(lo - c), np.abs(hi - c)).max())


@functools.lru_cache(maxsize=64)
def _z(level: float) -> float:
    return stats.z_value(level)


def seat_band(shares: np.ndarray, delta: float, alpha: float) -> SeatBand:
    """The band view of per-game win shares (games × seats); games are independent (one seed each)."""
    shares = np.asarray(shares, float)
    g = len(shares)
    se = shares.std(axis=0, ddof=1) / math.sqrt(g) if g > 1 else np.full(shares.shape[1], np.inf)
    return SeatBand(shares.mean(axis=0), se, g, delta, alpha)


def luck_share(scores: np.ndarray, bots: np.ndarray) -> float:
    """The share of the score's variance that is chance (``analysis.variance``'s ``chance`` component) of games
    with per-seat ``scores`` and ``bots`` (games × seats, in game order)."""
    g, n = scores.shape
    frame = pl.DataFrame(
        {
            "variant": ["fix"] * (g * n),
            "game": np.repeat(np.arange(g), n),
            "seat": np.tile(np.arange(n), g),
            "bot": np.asarray(bots, dtype=str).reshape(-1),
            "score": scores.reshape(-1).astype(float),
        }
    )
    from simlab.analysis.variance import variance_decomposition

    out = variance_decomposition(frame, "score")
    return float(out.filter(pl.col("component") == "chance")["share"][0])


def guard_band_text(name: str, band: Sequence[float]) -> str:
    """``length 36.0..44.0`` (rates in percent)."""
    lo, hi = band
    if name in ("draws", "luck"):
        return f"{name} {lo * 100:.1f}%..{hi * 100:.1f}%"
    return f"{name} {lo:.4g}..{hi:.4g}"
