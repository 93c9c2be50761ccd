"""The answer of a fair-vector search, read from its games: the chosen value per seat, how the race ended, every
vector raced with its win shares, and the confirmations on fresh seeds, as tables.

Rows in, estimates out: the search that plays the games (explore, shortlist, race, confirm) is
``simlab.experiments.fair_vector``; the model is ``softmax_fit``; what the confirmations support is
``fair_outcome``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.arms import Candidate
from simlab.analysis.confirmation import Confirmation, confirmation_of
from simlab.analysis.softmax_fit import SoftmaxFit, largest_deviation

__all__ = ["Candidate", "Confirmation", "FairVector", "is_integer", "largest_deviation", "show_value", "with_offsets"]


def is_integer(base: Sequence[Any]) -> bool:
    """An integer knob takes whole values only (its config entries are ints)."""
    return all(isinstance(v, int) and not isinstance(v, bool) for v in base)


def with_offsets(base: Sequence[Any], d: Sequence[float]) -> tuple[Any, ...]:
    """The knob's value ``base + d`` (ints stay ints)."""
    kind = int if is_integer(base) else float
    return tuple(kind(b + x) for b, x in zip(base, d, strict=True))


@dataclasses.dataclass
class FairVector:
    """The search's answer: the chosen value per seat, how the race ended, every candidate, the confirmation."""

    knob: str
    base: tuple[Any, ...]
    integer: bool
    value: tuple[Any, ...]
    offsets: tuple[float, ...]
    status: str  # decided | equivalent | budget | continuous | published (nothing searched) | settled | exhausted (fix)
    games: int
    candidates: list[Candidate]
    fit: SoftmaxFit | None  # None when the published vector was already fair
    confirmation: Confirmation
    level: float
    tolerance: float
    offset_lo: np.ndarray | None = None  # continuous knobs: interval of each offset
    offset_hi: np.ndarray | None = None
    _pool: list[Candidate] = dataclasses.field(default_factory=list)  # every vector played (exploration too)
    published: Confirmation | None = None  # the published vector on its own fresh seeds, played first
    within: float = stats.DEFAULT_TOLERANCE  # δ: a seat within 1/N ± δ is fair

    @property
    def outcome(self) -> str:
        """What the confirmations support (``fair_outcome.OUTCOMES``)."""
        from simlab.analysis.fair_outcome import band, outcome

        chosen = None if self.status == "published" else self.confirmation
        alive = [c for c in self.candidates if c.dropped is None and c.games > 1]
        beyond = bool(alive) and all(
            band(confirmation_of(c.offsets, np.concatenate(c.wins), self.level), self.within).state == "beyond"
            for c in alive
        )
        return outcome(self.status, self.published, chosen, self.within, beyond)

    def candidates_table(self) -> pl.DataFrame:
        rows = []
        for c in self.candidates:
            s = c.shares()
            rows.append(
                {
                    "value": [float(v) for v in with_offsets(self.base, c.offsets)],
                    "offsets": list(c.offsets),
                    "games": c.games,
                    "win_share": s.tolist(),
                    "largest_deviation": float(largest_deviation(s)),
                    "model_deviation": (
                        float(largest_deviation(self.fit.p(np.array(c.offsets, float)))) if self.fit else math.nan
                    ),
                    "dropped_in_round": c.dropped,
                    "chosen": tuple(c.offsets) == tuple(self.offsets),
                }
            )
        return pl.DataFrame(rows)

    def chart_frame(self) -> pl.DataFrame:
        """Seat shares of the published vector and of the chosen one (each on its own fresh seeds; the
        search's games at offset 0 when the published was not confirmed), in ``seat_advantage``'s columns for
        ``charts.seat_win_shares``."""
        frames = []
        runs: list[tuple[Confirmation, str, str]] = []
        if self.published is not None:
            runs.append((self.published, "published", "confirmation, fresh seeds"))
        else:
            zero = next((c for c in [*self.candidates, *self._pool] if c.games and not any(c.offsets)), None)
            if zero is not None:
                runs.append((confirmation_of(self.base, np.concatenate(zero.wins), self.level), "base", "search games"))
        if self.status != "published":
            runs.append((self.confirmation, "chosen", "confirmation, fresh seeds"))
        for conf, what, how in runs:
            frames.append(
                conf.table()
                .with_columns(pl.lit(f"{what} {show_value(conf.value)} ({how})").alias("variant"))
                .select(
                    "variant",
                    "seat",
                    "games",
                    "win_share",
                    "win_share_lo",
                    "win_share_hi",
                    "fair_share",
                    "p_equal",
                    "interval",
                )
            )
        return pl.concat(frames)

    def answer_table(self) -> pl.DataFrame:
        n = len(self.base)
        lo = self.offset_lo if self.offset_lo is not None else [math.nan] * n
        hi = self.offset_hi if self.offset_hi is not None else [math.nan] * n
        return pl.DataFrame(
            {
                "seat": list(range(n)),
                "base": [float(b) for b in self.base],
                "value": [float(v) for v in self.value],
                "offset": [float(x) for x in self.offsets],
                "offset_lo": [float(x) for x in lo],
                "offset_hi": [float(x) for x in hi],
                "model_fair_offset": self.fit.fair().tolist() if self.fit else [math.nan] * n,
            }
        )


def show_value(value: Sequence[Any]) -> str:
    """A knob's vector as the progress lines and tables print it (``6,7,8,9``; floats without trailing zeros)."""
    return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
