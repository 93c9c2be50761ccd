"""What a fair-vector search may honestly conclude, from its confirmation runs on fresh seeds.

A search (``simlab.experiments.fair_vector.find_fair_vector``) races whole vectors and replays the chosen one on fresh
seeds; the race alone certifies nothing. The outcome is read from the confirmations, against the band 1/N ± δ
(``within``, the tolerance of the report's seat verdict), each claim at level α = 1 − level (``Band``).

- ``published``: the published rules' vector, confirmed first on its own fresh seeds, has every seat inside
  the band: the rules are already fair within ±δ and nothing needs to change.
- ``fair``: the chosen vector's confirmation has every seat inside the band.
- ``none``: the race ended (decided, or its survivors equivalent; or every vector still in it has a seat beyond
  the band in its own games) and the chosen vector, the best it found, and the published vector each have a
  seat whose interval lies wholly outside the band on fresh seeds: no vector on the knob's grid near the
  model's answer is fair within ±δ (whole steps of the knob are too coarse for the seats' differences).
- ``budget``: anything else: the race or the confirmation ran out of games before the answer was settled,
  with the current best and about how many more confirmation games would settle it.

Never "fair" over a confirmation that does not put every seat inside the band.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from simlab.analysis import stats

OUTCOMES = ("published", "fair", "none", "budget")
#: games needed are capped at this many times the games played: a seat on the band's edge needs without bound
EDGE = 100


@dataclasses.dataclass(frozen=True)
class Band:
    """A confirmation against 1/N ± δ (``within``).

    "Every seat inside" is an intersection-union claim: it holds when each seat's own equivalence test (two
    one-sided tests at α = 1 − level, i.e. its (1 − 2α) interval inside the band) passes, and that is a level-α
    test of the whole claim with no multiplicity correction. "Some seat beyond" is a union claim: it needs
    intervals simultaneous over the seats (Bonferroni) wholly outside the band.
    """

    shares: np.ndarray
    se: np.ndarray
    games: int
    within: float
    level: float = 0.95

    @property
    def fair(self) -> float:
        return 1.0 / len(self.shares)

    @property
    def z_equivalent(self) -> float:
        return stats.z_value(1 - 2 * (1 - self.level))

    @property
    def z_simultaneous(self) -> float:
        return stats.simultaneous_z(self.level, len(self.shares))

    def interval(self, z: float) -> tuple[np.ndarray, np.ndarray]:
        return self.shares - z * self.se, self.shares + z * self.se

    @property
    def inside(self) -> np.ndarray:
        lo, hi = self.interval(self.z_equivalent)
        return (lo >= self.fair - self.within) & (hi <= self.fair + self.within)

    @property
    def beyond(self) -> np.ndarray:
        lo, hi = self.interval(self.z_simultaneous)
        return (lo > self.fair + self.within) | (hi < self.fair - self.within)

    @property
    def state(self) -> str:
        """``inside`` (every seat), ``beyond`` (some seat wholly outside) or ``open``."""
        if self.inside.all():
            return "inside"
        return "beyond" if self.beyond.any() else "open"

    @property
    def furthest(self) -> int:
        return int(np.argmax(np.abs(self.shares - self.fair)))

    def games_needed(self) -> int | None:
        """About how many games in all would settle an ``open`` band (intervals shrink as 1/√n): the first seat
        past the band shown beyond it, else the last undecided seat shown inside (None when settled)."""
        if self.state != "open":
            return None
        off = np.abs(self.shares - self.fair)
        past = off > self.within
        z = np.where(past, self.z_simultaneous, self.z_equivalent)
        open_ = ~(self.inside | self.beyond)
        with np.errstate(divide="ignore", invalid="ignore"):
            need = self.games * (z * self.se / np.abs(self.within - off)) ** 2
        total = float(np.nanmin(need[open_ & past])) if (open_ & past).any() else float(np.nanmax(need[open_]))
        return math.ceil(min(total, EDGE * self.games)) if math.isfinite(total) else None

    def seat(self, k: int, simultaneous: bool) -> str:
        lo, hi = self.interval(self.z_simultaneous if simultaneous else self.z_equivalent)
        return f"seat {k} at {_pct(self.shares[k])} [{_pct(lo[k])}, {_pct(hi[k])}]"

    def method(self, simultaneous: bool) -> str:
        if simultaneous:
            return f"{self.level:.0%} intervals simultaneous over the {len(self.shares)} seats"
        return f"{1 - 2 * (1 - self.level):.0%} intervals: each seat's equivalence test at {1 - self.level:.0%}"


def band(conf: Any, within: float) -> Band:
    """The band view of a ``confirmation.Confirmation`` (whose intervals are normal, per seat, at its level)."""
    se = (np.asarray(conf.hi) - np.asarray(conf.lo)) / (2 * stats.z_value(conf.level))
    return Band(np.asarray(conf.shares, dtype=float), se, int(conf.games), within, conf.level)


def outcome(
    status: str, published: Any | None, chosen: Any | None, within: float, survivors_beyond: bool = False
) -> str:
    """The outcome code (``OUTCOMES``) of a search: ``status`` is how its race ended, ``published`` and
    ``chosen`` the confirmations of the published and the chosen vector (None when not played);
    ``survivors_beyond``: every vector still in an unfinished race has a seat beyond the band in its own games
    (then the race's end does not matter: none of them is fair)."""
    if published is not None and band(published, within).state == "inside":
        return "published"
    if chosen is None:
        return "budget"
    state = band(chosen, within).state
    if state == "inside":
        return "fair"
    ended = status in ("decided", "equivalent", "continuous", "settled", "exhausted") or survivors_beyond
    # the published vector is on the grid too: "none is fair" needs it shown outside the band as well
    published_out = published is None or band(published, within).state == "beyond"
    if state == "beyond" and ended and published_out:
        return "none"
    return "budget"


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def headline(result: Any) -> str:
    """The first line of ``simlab compensate``: the outcome its confirmation supports, in the knob's words."""
    knob, within = result.knob, result.within
    tol = f"±{within * 100:g} point{'s' if within * 100 != 1 else ''} of the fair {100 / len(result.base):.1f}%"
    value = ",".join(f"{v:g}" for v in result.value)
    base = ",".join(f"{v:g}" for v in result.base)
    if result.outcome == "published":
        b = band(result.published, within)
        return (
            f"the published rules are already fair: {knob} {base} puts every seat within {tol} "
            f"({b.games:,} fresh games; furthest {b.seat(b.furthest, False)}, {b.method(False)})"
        )
    b = band(result.confirmation, within)
    if result.outcome == "fair":
        return (
            f"fair {knob}: {value} (the rules: {base}), confirmed: every seat within {tol} on {b.games:,} fresh "
            f"games (furthest {b.seat(b.furthest, False)}, {b.method(False)})"
        )
    if result.outcome == "none":
        return (
            f"no vector on this knob's grid is fair within {tol}: the best, {knob} {value} (the rules: {base}), "
            f"leaves {b.seat(b.furthest, True)} on {b.games:,} fresh games ({b.method(True)})"
        )
    more = b.games_needed()
    if more is None or b.state != "open":
        settle = "raise --max-games to finish the race"
    elif more >= EDGE * b.games:
        settle = (
            f"its seats sit almost on the band's edge: more than {more:,} confirmation games would be needed; a "
            "wider --fair-within or a finer knob decides sooner"
        )
    else:
        settle = f"about {more:,} confirmation games in all (--confirm-games) would settle whether it is inside"
    return (
        f"not settled: the budget ran out; the best so far is {knob} {value} (the rules: {base}), "
        f"{b.seat(b.furthest, True)} on {b.games:,} fresh games ({b.method(True)}) against {tol}; {settle}"
    )
