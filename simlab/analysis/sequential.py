"""Verdicts valid at every look: is each headline estimate within ±δ of where it should be, beyond it, or open?

A run that stops "when the question is settled" looks at its results after every batch. Each verdict here comes
from a confidence sequence (``confseq``: an interval that covers its truth at every look at once), so a verdict
read at a data-chosen stopping point is as trustworthy as one read at a game count fixed in advance.

The question comes from the folder's design:

- a **card-value** design (a ``control`` variant and intervention variants, ``cards.design_from_manifest``): one
  verdict per intervention variant, ``card/<variant>``: the granted seat's win share minus the same seat's in
  the control's same game, per game, against 0;
- any other design (**seats**): per variant, each seat's win share against 1/N (``seats/<variant>/seat k``)
  and the equal-seats question (``seats/<variant>``: is every seat within ±δ of 1/N, read from the same seat
  intervals, so it never disagrees with them); with several variants also each seat's paired change against
  the base variant (``change/<variant>/seat k``), game i against game i, against 0.

The **family** of verdicts (``FAMILIES``): ``"every"`` is all of the above; ``"headline"`` is the design's
headline questions only: each variant's equal-seats question (with the per-seat intervals it is read from, which
are not verdicts of their own) and each card's value; no seat's change against the base. A smaller family splits
α fewer ways, so its intervals are narrower.

Multiplicity: the intervals are simultaneous over the whole family (every seat of every variant, every
change, every card): Bonferroni, each at α/m. With confidence sequences a Bonferroni split stays valid at
every look (the union bound is over events that are themselves time-uniform), so every verdict of every look
is right at once with probability ≥ 1 − α. The equal-seats verdict needs no share of α of its own.

All values are win shares per game (ties split), in [0, 1]; a change lies in [−1, 1]. The sums come from the
folder's digests (one byte per game: its winners), else from the rows.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.confseq import mean_sequence, state_of
from simlab.analysis.frames import AnalysisError
from simlab.analysis.futility import Reach, either, reach
from simlab.run.manifest import SETTLE_FAMILIES

#: the family-wise error a settled run is held to unless it says otherwise
DEFAULT_ALPHA = 0.05
#: the families of verdicts a run until settled may wait for: every verdict, or the design's headline questions
#: (one home: ``simlab.run.manifest.SETTLE_FAMILIES``)
FAMILIES = SETTLE_FAMILIES
#: the family a run until settled waits for unless it says otherwise
DEFAULT_FAMILY = "every"
#: the states of a verdict
STATES = ("within", "beyond", "open")


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One headline verdict at one look.

    ``key`` is stable across looks ("seats/<variant>/seat 2", "seats/<variant>", "change/<variant>/seat 1",
    "card/<variant>"); ``label`` says it in the game's words; ``variants`` are the variants whose games it
    needs (a card: its variant and the control). ``estimate``, ``lo``, ``hi`` are in win share (0.25 = 25%);
    the interval is valid at every look, simultaneous over the family. ``state``: "within" (the interval inside
    the band fair ± δ), "beyond" (wholly outside it on one side: ``direction`` +1 above, −1 below; the
    equal-seats question's +1 is "unequal"), "open" (neither yet). ``n``: the games behind it (paired games
    for a change or a card). Read with a cap (``settled_verdicts(..., cap=N)``), an open verdict also says how
    likely it is to settle by N games (``p_settle``, ``simlab.analysis.futility``) and the games it would need if
    its estimate stayed (``needed``; None: not within a hundred times the cap); both are None otherwise.
    """

    key: str
    label: str
    variants: tuple[str, ...]
    estimate: float
    lo: float
    hi: float
    n: int
    state: str
    direction: int
    p_settle: float | None = None
    needed: int | None = None

    @property
    def settled(self) -> bool:
        return self.state != "open"

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "variants": list(self.variants)}


@dataclasses.dataclass(frozen=True)
class Question:
    """One interval to compute: its sums, its range and the value it is asked against. ``mirrors``: the key of a
    question whose values are this one's reflected about ``fair`` game by game (seat 1 of a two-seat game is
    1 − seat 0): its interval is that one's reflected, exact, and takes no share of α."""

    key: str
    label: str
    variants: tuple[str, ...]
    n: int
    total: float
    squares: float
    low: float
    high: float
    fair: float
    mirrors: str = ""


def settled_verdicts(
    folder: str | Path,
    tolerance: float = 1.0,
    alpha: float = DEFAULT_ALPHA,
    *,
    games: int | Mapping[str, int] | None = None,
    family: str = DEFAULT_FAMILY,
    cap: int | None = None,
) -> list[Verdict]:
    """Every headline verdict of a result folder as its games stand, from intervals valid at every look.

    ``tolerance`` is δ in **points** of win share, as ``--tolerance`` takes it (1.0 = one point = 0.01 of win
    share); ``alpha`` the family-wise error over every verdict and every look (0.05). The question comes from the
    folder's design (card value, or seats and the changes between variants: see the module's docstring).
    Cheap enough to call after every batch: it reads the digests' winner bytes, not the rows, when it can.
    ``games``: the verdicts as they stood at that look (each variant's games with index below it; a mapping: each
    variant's own count, as a run whose variants stopped at different looks held them). ``family``:
    ``"every"`` verdict, or the ``"headline"`` ones only (each variant's equal-seats question and each card), their
    intervals simultaneous over that family alone. ``cap``: the games per variant the run may reach; each open
    verdict then carries its predictive probability of settling by then (``Verdict.p_settle``).
    """
    if not 0 < tolerance < 100:
        raise AnalysisError(
            f"tolerance {tolerance!r}: must be in points of win share, above 0 and below 100 (1 = one point)"
        )
    if not 0 < alpha < 1:
        raise AnalysisError(f"alpha {alpha!r}: must be a family-wise error between 0 and 1 (e.g. 0.05)")
    if family not in FAMILIES:
        raise AnalysisError(f"family {family!r}: must be one of {', '.join(FAMILIES)}")
    from simlab.run.reader import load_manifest

    manifest = load_manifest(folder)
    shares = _Shares.of(folder, manifest).upto(games)
    questions = _questions(folder, manifest, shares)
    if family == "headline":  # the seats' intervals stay: the equal-seats question is read from them
        questions = [q for q in questions if not q.key.startswith("change/")]
    verdicts = verdicts_from(questions, tolerance / 100, alpha, int(manifest["players"]), cap)
    return verdicts if family == "every" else [v for v in verdicts if is_headline(v.key)]


def is_headline(key: str) -> bool:
    """A headline verdict's key: a variant's equal-seats question (``seats/<variant>``) or a card
    (``card/<variant>``); not one seat's share (``seats/<variant>/seat k``) nor a change."""
    kind, _, rest = key.partition("/")
    return kind == "card" or (kind == "seats" and "/" not in rest)


def verdicts_from(
    questions: list[Question], tolerance: float, alpha: float, players: int, cap: int | None = None
) -> list[Verdict]:
    """The verdicts of these questions (``tolerance`` as a share), their intervals simultaneous over them; with
    ``cap``, each open one's chance of settling by ``cap`` games (``simlab.analysis.futility``)."""
    own = [q for q in questions if not q.mirrors]
    each = alpha / max(len(own), 1)
    found = dict(zip((q.key for q in own), _intervals(own, each), strict=True))
    reached = dict(zip((q.key for q in own), _reach(own, each, tolerance, cap), strict=True)) if cap else {}
    for q in questions:  # a mirror: the reflection of its question's interval about the value asked against
        if q.mirrors:
            mean, lo, hi = found[q.mirrors]
            found[q.key] = (2 * q.fair - mean, 2 * q.fair - hi, 2 * q.fair - lo)
    out: list[Verdict] = []
    by_variant: dict[str, list[tuple[float, float, float, int]]] = {}
    seat_reach: dict[str, list[tuple[Reach, float]]] = {}
    for q in questions:
        mean, lo, hi = found[q.key]
        state, direction = state_of(lo, hi, q.fair, tolerance) if q.n else ("open", 0)
        r = reached.get(q.mirrors or q.key) if state == "open" else None
        p, need = (r.settle, r.needed) if r is not None else (None, None)
        out.append(Verdict(q.key, q.label, q.variants, mean, lo, hi, q.n, state, direction, p, need))
        if q.key.startswith("seats/"):
            by_variant.setdefault(q.variants[0], []).append((mean - q.fair, lo - q.fair, hi - q.fair, q.n))
            if cap and not q.mirrors:  # a mirrored seat is the same event as its twin: counted once
                seat_reach.setdefault(q.variants[0], []).append((reached[q.key], mean - q.fair))
    # the equal-seats question: the largest distance from 1/N, bounded by the same simultaneous seat intervals
    equal = []
    for variant, seats in by_variant.items():
        n = min(k for _, _, _, k in seats)
        label = f"{variant}: the largest distance of a seat's win share from the fair share (1/{players})"
        if n == 0:  # a variant without games yet: nothing to say
            equal.append(Verdict(f"seats/{variant}", label, (variant,), math.nan, 0.0, 1.0, 0, "open", 0))
            continue
        off = max(abs(e) for e, _, _, _ in seats)
        near = max(max(lo, -hi, 0.0) for _, lo, hi, _ in seats)  # the distance each interval surely exceeds
        far = max(max(abs(lo), abs(hi)) for _, lo, hi, _ in seats)
        state = "beyond" if near > tolerance else "within" if far <= tolerance else "open"
        r = either(seat_reach[variant], tolerance) if cap and state == "open" else None
        p, need = (r.settle, r.needed) if r is not None else (None, None)
        equal.append(
            Verdict(f"seats/{variant}", label, (variant,), off, near, far, n, state, int(state == "beyond"), p, need)
        )
    return equal + out


def _reach(questions: list[Question], alpha: float, tolerance: float, cap: int | None) -> list[Reach]:
    """Each question's chances of settling by ``cap`` games (``futility.reach``), grouped as ``_intervals``."""
    out: list[Reach] = [Reach(1.0, 0.0, None)] * len(questions)
    kinds: dict[tuple[float, float, float, float], list[int]] = {}
    for i, q in enumerate(questions):
        kinds.setdefault((q.low, q.high, min(max(q.fair, q.low), q.high), q.fair), []).append(i)
    for (low, high, centre, fair), idx in kinds.items():
        sums = np.array([(questions[i].n, questions[i].total, questions[i].squares) for i in idx], dtype=float)
        found = reach(sums[:, 0], sums[:, 1], sums[:, 2], low, high, centre, fair, tolerance, alpha, int(cap or 0))
        for j, i in enumerate(idx):
            out[i] = found[j]
    return out


def _intervals(questions: list[Question], alpha: float) -> list[tuple[float, float, float]]:
    """Each question's (mean, lo, hi) at ``alpha``: one vectorised boundary per kind of range and centre."""
    out: list[tuple[float, float, float]] = [(math.nan, math.nan, math.nan)] * len(questions)
    kinds: dict[tuple[float, float, float], list[int]] = {}
    for i, q in enumerate(questions):
        kinds.setdefault((q.low, q.high, min(max(q.fair, q.low), q.high)), []).append(i)
    for (low, high, centre), idx in kinds.items():
        sums = np.array([(questions[i].n, questions[i].total, questions[i].squares) for i in idx], dtype=float)
        mean, lo, hi = mean_sequence(sums[:, 0], sums[:, 1], sums[:, 2], low, high, centre, alpha)
        for j, i in enumerate(idx):
            out[i] = (float(mean[j]), float(lo[j]), float(hi[j]))
    return out


def _questions(folder: str | Path, manifest: dict[str, Any], shares: _Shares) -> list[Question]:
    """The folder's questions: card values for a card-value design, else the seats and the changes."""
    design = _card_design(folder, manifest)
    if design is not None:
        from simlab.analysis.words import Words

        said = Words.of(_roles(manifest))
        out = []
        for variant, label, seat in design.select("variant", "label", "seat").iter_rows():
            n, total, squares = shares.paired(variant, "control", int(seat))
            text = f"{said.grant(label)} to seat {seat}: change in its win share against the control"
            out.append(Question(f"card/{variant}", text, (variant, "control"), n, total, squares, -1.0, 1.0, 0.0))
        return out
    players = int(manifest["players"])
    variants = [str(v["name"]) for v in manifest["variants"]]
    out = []
    # a game's shares add up to 1: with two seats, seat 1's share is 1 − seat 0's in every game, and its change
    # minus seat 0's, so its interval is seat 0's reflected (exact, no share of α: a family half as large)
    mirror = "seat 0" if players == 2 else ""
    for variant in variants:
        for k in range(players):
            n, total, squares = shares.seat(variant, k)
            text = f"{variant}: seat {k}'s win share against the fair share (1/{players})"
            twin = f"seats/{variant}/{mirror}" if mirror and k == 1 else ""
            out.append(
                Question(f"seats/{variant}/seat {k}", text, (variant,), n, total, squares, 0.0, 1.0, 1 / players, twin)
            )
    if len(variants) > 1:
        from simlab.analysis.sweep import base_variant

        base = base_variant(manifest, {str(v["name"]): v["config"] for v in manifest["variants"]})
        for variant in (v for v in variants if v != base):
            for k in range(players):
                n, total, squares = shares.paired(variant, base, k)
                text = f"{variant}: change in seat {k}'s win share against {base}"
                twin = f"change/{variant}/{mirror}" if mirror and k == 1 else ""
                out.append(
                    Question(
                        f"change/{variant}/seat {k}", text, (variant, base), n, total, squares, -1.0, 1.0, 0.0, twin
                    )
                )
    return out


def _roles(manifest: dict[str, Any]) -> Any:
    from simlab.analysis.frames import roles_from_manifest

    return roles_from_manifest(manifest)


def _card_design(folder: str | Path, manifest: dict[str, Any]) -> pl.DataFrame | None:
    """The intervention variants of a card-value design, or None for any other design."""
    names = {str(v["name"]) for v in manifest["variants"]}
    if "control" not in names or _roles(manifest).intervention("card") is None:
        return None
    from simlab.analysis.cards import design_from_manifest

    design = design_from_manifest(folder)
    return None if design.is_empty() else design


@dataclasses.dataclass
class _Shares:
    """Each variant's win shares by game index: from the digests' winner bytes when every chunk has them
    (``paired.win_masks``), else from the rows (one scan, then numpy)."""

    masks: dict[str, np.ndarray] | None  # variant: one byte per game index, 0 = not played
    table: np.ndarray | None  # [mask, seat]: the seat's share in UNITS
    rows: dict[str, np.ndarray] | None  # variant: (games, seats) win shares, NaN = not played
    _pairs: dict[tuple[str, str], np.ndarray] = dataclasses.field(default_factory=dict)

    @classmethod
    def of(cls, folder: str | Path, manifest: dict[str, Any]) -> _Shares:
        from simlab.analysis.digest import load_digest
        from simlab.analysis.paired import _POPCOUNT, UNITS, _by_variant

        players = int(manifest["players"])
        variants = [str(v["name"]) for v in manifest["variants"]]
        digest = load_digest(folder)
        wins = digest.partial("wins", variants) if digest is not None else None
        if wins is not None and wins.height:
            codes = np.arange(256)
            table = np.stack(
                [((codes >> k) & 1) * (UNITS // np.maximum(_POPCOUNT, 1)) for k in range(players)], axis=1
            ).astype(np.int64)
            return cls(_by_variant(wins), table, None)
        return cls(None, None, _rows_by_game(folder, players))

    def upto(self, games: int | Mapping[str, int] | None) -> _Shares:
        """The shares of the games with index below ``games`` (all of them for None; a mapping: per variant, a
        variant it does not name keeps none): an earlier look."""
        if games is None:
            return self
        each = games if isinstance(games, Mapping) else None
        for n in each.values() if each is not None else [games]:
            if int(n) < 0:
                raise AnalysisError(f"games {n}: a look is at 0 games or more")
        cut = {
            v: a[: int(each.get(v, 0)) if each is not None else int(games)]  # type: ignore[arg-type]
            for v, a in (self.masks or self.rows or {}).items()
        }
        return _Shares(cut, self.table, None) if self.masks is not None else _Shares(None, None, cut)

    def seat(self, variant: str, k: int) -> tuple[int, float, float]:
        """n, Σ w and Σ w² of seat ``k``'s win share over the variant's games."""
        if self.masks is not None and self.table is not None:
            from simlab.analysis.paired import UNITS

            x = self.masks.get(variant, np.zeros(0, dtype=np.uint8))
            counts = np.bincount(x[x > 0], minlength=256)
            w = self.table[:, k]
            return int(counts.sum()), int((counts * w).sum()) / UNITS, int((counts * w * w).sum()) / UNITS**2
        w = self._matrix(variant)[:, k]
        w = w[np.isfinite(w)]
        return len(w), float(w.sum()), float((w * w).sum())

    def paired(self, variant: str, base: str, k: int) -> tuple[int, float, float]:
        """n, Σ d and Σ d² of d = seat ``k``'s win share in ``variant`` minus in ``base``, game i with game i,
        over the games both played."""
        if self.masks is not None and self.table is not None:
            from simlab.analysis.paired import UNITS

            pairs = self._pairs.get((variant, base))
            if pairs is None:  # how often each (variant's winners, base's winners) pair occurs: once per pair
                x, b = (self.masks.get(v, np.zeros(0, dtype=np.uint8)) for v in (variant, base))
                m = min(len(x), len(b))
                x, b = x[:m].astype(np.int64), b[:m].astype(np.int64)
                both = (x > 0) & (b > 0)
                pairs = np.bincount(x[both] * 256 + b[both], minlength=256 * 256).reshape(256, 256)
                self._pairs[(variant, base)] = pairs
            d = self.table[:, k][:, None] - self.table[:, k][None, :]
            return int(pairs.sum()), int((pairs * d).sum()) / UNITS, int((pairs * d * d).sum()) / UNITS**2
        x, b = self._matrix(variant), self._matrix(base)
        m = min(len(x), len(b))
        d = x[:m, k] - b[:m, k]
        d = d[np.isfinite(d)]
        return len(d), float(d.sum()), float((d * d).sum())

    def _matrix(self, variant: str) -> np.ndarray:
        assert self.rows is not None
        return self.rows.get(variant, np.zeros((0, 1)))


def _rows_by_game(folder: str | Path, players: int) -> dict[str, np.ndarray]:
    """Per variant a (games, seats) matrix of win shares by game index (NaN where a game was not played)."""
    from simlab.run.reader import load_results

    rows = (
        load_results(folder)
        .select(pl.col("variant").cast(pl.String), "game", pl.col("seat").cast(pl.Int64), "win_share")
        .collect()
    )
    if rows.is_empty():
        raise AnalysisError(f"{folder}: no result rows")
    out = {}
    for (variant,), d in rows.group_by("variant"):
        game = d["game"].to_numpy().astype(np.int64)
        mat = np.full((int(game.max()) + 1, players), np.nan)
        mat[game, d["seat"].to_numpy()] = d["win_share"].cast(pl.Float64).to_numpy()
        out[str(variant)] = mat
    return out


__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_FAMILY",
    "FAMILIES",
    "STATES",
    "Question",
    "Verdict",
    "is_headline",
    "settled_verdicts",
    "verdicts_from",
]
