"""Compensation: how much starting money makes a seat as likely to win as any other?

From a sweep (variants that give one seat more or less starting money, all on the same game seeds) the seat's
win share is fitted against its money offset with a logistic curve, ``logit p = a + b·x``, by quasi-likelihood
(win shares with split wins are fractions, not 0/1). The fair offset is where the curve crosses 1/N, with a
Fieller interval from a sandwich covariance clustered by game index: game i is played with the same seed at
every offset, so its outcomes are correlated and must not count as independent.

The offset of a seat is its starting money minus the mean starting money of the other seats, so a seat with 8
against 6, 6, 6 has offset +2. The fair amount is stated against the published rules' starting money of every
seat (the ``money.start`` column in the sweep's variant that plays the published knob value): the seat's own
money changed, or, where that would take it below zero, the other seats' money raised instead, so an
impossible amount (negative starting money) is never printed. The slope at offset 0 is the exchange rate
between the game's money and win share that ``cards`` uses to price a card. The starting money is the column
of role ``money.start``; a game that declares no such role, or no money intervention, gets "not available for
this game" (``NotAvailableError``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import (
    AnalysisError,
    Results,
    as_lazy,
    players,
    require,
    require_intervention,
    require_roles,
    roles,
)

Meat = Callable[[float, float], np.ndarray]


@dataclasses.dataclass(frozen=True)
class LogisticFit:
    """``logit p = a + b·x`` with its (cluster-robust) covariance; ``target`` is the fair share 1/N."""

    a: float
    b: float
    cov: np.ndarray
    target: float
    games: int

    def p(self, x: np.ndarray | float) -> np.ndarray:
        return _expit(self.a + self.b * np.asarray(x, dtype=float))

    @property
    def fair(self) -> float:
        """Offset at which the fitted win share equals the target."""
        return (_logit(self.target) - self.a) / self.b if self.b != 0 else math.nan

    def fair_interval(self, level: float = 0.95) -> tuple[float, float]:
        c = self.cov
        return stats.fieller(self.a, self.b, _logit(self.target), c[0, 0], c[0, 1], c[1, 1], level)

    def band(self, x: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Pointwise interval of the fitted win share (delta method on the logit scale)."""
        c = self.cov
        eta = self.a + self.b * x
        se = np.sqrt(np.maximum(c[0, 0] + 2 * x * c[0, 1] + x * x * c[1, 1], 0.0))
        z = stats.z_value(level)
        return _expit(eta - z * se), _expit(eta + z * se)

    def rate(self, x: float = 0.0) -> tuple[float, float]:
        """Slope dp/dx at ``x`` (win share per unit of offset) and its standard error (delta method)."""
        p = float(self.p(x))
        q = p * (1 - p)
        rate = self.b * q
        grad = np.array([self.b * q * (1 - 2 * p), q + self.b * q * (1 - 2 * p) * x])
        return rate, float(math.sqrt(max(grad @ self.cov @ grad, 0.0)))


#: fewest games at an offset that a compensation fit accepts
MIN_FIT_GAMES = 10


def fit_logistic(x: np.ndarray, n: np.ndarray, s: np.ndarray, meat: Meat, clusters: int, target: float) -> LogisticFit:
    """Quasi-binomial logistic fit on grouped data (offset x, games n, summed win share s).

    ``meat(a, b)`` returns the 2x2 sum over clusters (games) of the outer product of each cluster's
    score ``Σ (1, x)·(w - p)``: the sandwich ``H⁻¹ M H⁻¹`` then allows for any correlation inside a game
    index (common random numbers) and for win shares that are not 0/1.
    """
    x = np.asarray(x, dtype=float)
    n = np.asarray(n, dtype=float)
    s = np.asarray(s, dtype=float)
    if len(np.unique(x)) < 2:
        raise AnalysisError("a compensation fit needs at least two different offsets")
    if n.min() < MIN_FIT_GAMES:
        raise AnalysisError(
            f"not enough games to fit (n={int(n.min()):,} at offset {float(x[np.argmin(n)]):+g}); need at least "
            f"{MIN_FIT_GAMES} games per offset"
        )
    X = np.column_stack([np.ones_like(x), x])
    pbar = float(np.clip(s.sum() / n.sum(), 1e-6, 1 - 1e-6))
    beta = np.array([_logit(pbar), 0.0])
    try:
        for _ in range(100):
            p = _expit(X @ beta)
            grad = X.T @ (s - n * p)
            hess = (X * (n * p * (1 - p))[:, None]).T @ X
            step = np.linalg.solve(hess, grad)
            beta += step
            if np.max(np.abs(step)) < 1e-10:
                break
        p = _expit(X @ beta)
        hess = (X * (n * p * (1 - p))[:, None]).T @ X
        bread = np.linalg.inv(hess)
    except np.linalg.LinAlgError:
        bread = None
    if bread is None or not np.all(np.isfinite(beta)) or not np.all(np.isfinite(bread)):
        raise AnalysisError(
            f"not enough games to fit (n={int(n.sum()):,}): the win shares do not determine a curve (a seat wins "
            "all or none of its games at some offset); play more games per offset"
        )
    m = meat(float(beta[0]), float(beta[1])) * (clusters / max(clusters - 1, 1))
    cov = bread @ m @ bread
    return LogisticFit(float(beta[0]), float(beta[1]), cov, target, clusters)


def cluster_meat(game: np.ndarray, x: np.ndarray, w: np.ndarray) -> Meat:
    """The ``meat`` of ``fit_logistic`` for observations held in numpy arrays (one per game and offset)."""
    game = np.asarray(game)
    x = np.asarray(x, dtype=float)
    w = np.asarray(w, dtype=float)
    uniq, idx = np.unique(game, return_inverse=True)

    def meat(a: float, b: float) -> np.ndarray:
        r = w - _expit(a + b * x)
        u0 = np.bincount(idx, r, minlength=len(uniq))
        u1 = np.bincount(idx, r * x, minlength=len(uniq))
        return np.array([[u0 @ u0, u0 @ u1], [u0 @ u1, u1 @ u1]])

    return meat


@dataclasses.dataclass(frozen=True)
class Compensation:
    """A compensation analysis: ``fit`` (one row per seat), observed ``points`` and the fitted ``curve``."""

    fit: pl.DataFrame
    points: pl.DataFrame
    curve: pl.DataFrame
    players: int
    level: float
    games: int
    bots: list[str]
    fits: dict[int, LogisticFit]
    kind: str = "money"  # the intervention fitted: money or points

    @property
    def caption(self) -> str:
        return (
            f"{self.games:,} games per offset, bots {', '.join(self.bots)}; points: {stats.MEAN_METHOD}; "
            f"fair offset: {stats.FIELLER_METHOD} ({self.level:.0%})"
        )


def offsets(lf: pl.LazyFrame, n: int, money: str | None = None) -> pl.LazyFrame:
    """Rows with ``offset``: the seat's starting money (the column of role ``money.start``, or ``money``)
    minus the mean of the other seats' in that game."""
    money = money or money_column(lf)
    total = pl.col(money).sum().over("variant", "game")
    others = (total - pl.col(money)) / (n - 1)
    return lf.with_columns((pl.col(money) - others).alias("offset"), others.alias("others_money"))


#: the interventions a compensation fit reads: the kind, and the role of the column that records it
KINDS = {"money": "money.start", "points": "points.start"}


def money_column(results: Results, kind: str = "money") -> str:
    """The starting-money column (role ``money.start``; ``points.start`` for ``kind="points"``), or
    NotAvailableError if the game declares no such column or no such intervention (an offset per seat)."""
    r = require_roles(results, "compensation", KINDS[kind])
    require_intervention(r, "compensation", kind)
    return str(r.column(KINDS[kind]))


def folder_sweep(folder: str | Path, kind: str = "money") -> tuple[list[str], list[str]]:
    """(sweep variants, variants left out) of a result folder, refusing one with no sweep of the ``kind``
    intervention's knob (the report's check and message: ``sweep.sweep_variants``)."""
    from simlab.analysis.sweep import sweep_variants
    from simlab.run.reader import load_manifest

    money_column(folder, kind)  # a game without the column or the intervention: not available, not refused
    found = roles(folder).intervention(kind)
    return sweep_variants(load_manifest(folder), found["knob"] if found else None)


def swept_kinds(folder: str | Path) -> list[str]:
    """The interventions (money, points) the folder has a sweep of, in that order."""
    out = []
    for kind in KINDS:
        try:
            folder_sweep(folder, kind)
        except AnalysisError:  # NotAvailableError included: no such column, intervention or sweep
            continue
        out.append(kind)
    return out


def rules_money(
    manifest: dict, results: Results, variants: list[str], knob: str | None = None, kind: str = "money"
) -> np.ndarray | None:
    """Each seat's starting money under the published rules: the mean ``money.start`` of the variant among
    ``variants`` whose money knob has the game's published value (None when no variant plays it, or the game is
    not installed here)."""
    name = published_variant(manifest, results, variants, knob, kind)
    if name is None:
        return None
    n = int(manifest["players"])
    column = str(require_roles(results, "compensation", KINDS[kind]).column(KINDS[kind]))
    per_seat = (
        as_lazy(results)
        .filter(pl.col("variant") == name)
        .group_by("seat")
        .agg(pl.col(column).mean())
        .sort("seat")
        .collect()
    )
    return per_seat[column].to_numpy().astype(float) if per_seat.height == n else None


def published_variant(
    manifest: dict, results: Results, variants: list[str], knob: str | None = None, kind: str = "money"
) -> str | None:
    """The variant among ``variants`` whose ``kind`` intervention knob has the game's published value (None
    when none does, or the game is not installed here)."""
    import simlab

    try:
        game = simlab.get_game(manifest["game"])
        n = int(manifest["players"])
        r = require_roles(results, "compensation", KINDS[kind])
        knob = knob or require_intervention(r, "compensation", kind)["knob"]
        published = list(getattr(game.make_config(players=n), knob))[:n]
    except Exception:  # a plug-in game missing on this machine: no published reference, offsets only
        return None
    configs = {v["name"]: v["config"] for v in manifest["variants"]}
    return next((v for v in variants if list(configs.get(v, {}).get(knob, []))[:n] == published), None)


def against_rules(fair_offset: float, seat: int, rules: np.ndarray | None) -> tuple[float, float]:
    """(the seat's fair starting money, the others' each) against the published ``rules`` money by seat: the
    seat's own money moves, unless that would take it below zero, then the others' money rises instead. NaN
    without a published reference or a determined offset."""
    if rules is None or not math.isfinite(fair_offset):
        return math.nan, math.nan
    own = float(rules[seat])
    others = float(np.delete(rules, seat).mean())
    change = fair_offset - (own - others)
    if own + change >= 0:
        return own + change, others
    return own, others - change


def compensation(
    results: Results,
    seat: int | None = None,
    level: float = 0.95,
    grid: int = 61,
    rules: np.ndarray | None = None,
    kind: str = "money",
) -> Compensation:
    """Fit win share against starting-money offset for each seat whose offset varies across variants.

    ``seat`` restricts the fit to one seat. The fair offset makes the seat's expected win share 1/N. A result
    folder is fitted on its variants that differ from the base in the money knob alone, and refused (the
    report's message) when there are none. ``rules``: each seat's published starting money (a folder finds it
    itself, ``rules_money``), the reference of ``fair_money``/``fair_others``. ``kind="points"`` fits the
    starting points instead (the ``points`` intervention and its ``points.start`` column), in the same columns.
    """
    lf = as_lazy(results)
    money = money_column(results if isinstance(results, str | Path) else lf, kind)
    if isinstance(results, str | Path):
        from simlab.run.reader import load_manifest

        sweep = folder_sweep(results, kind)[0]
        lf = lf.filter(pl.col("variant").is_in(sweep))
        if rules is None:
            rules = rules_money(load_manifest(results), results, sweep, kind=kind)
    require(lf, ("variant", "game", "seat", "win_share", money), "compensation")
    n = players(lf)
    rows = offsets(lf, n, money)
    if seat is not None:
        rows = rows.filter(pl.col("seat") == seat)
    points = (
        rows.group_by("seat", "offset")
        .agg(
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("_s"),
            *stats.mean_aggs("win_share"),
            pl.col("others_money").mean().alias("others_money"),
            pl.col(money).mean().alias("_money"),
        )
        .sort("seat", "offset")
        .collect()
    )
    points = stats.with_mean_interval(points, "win_share", level)
    # a seat is swept when its own money varies (the others' offsets move only because of the swept seat)
    swept = points.group_by("seat").agg(pl.col("_money").n_unique().alias("k")).filter(pl.col("k") >= 2)
    seats = sorted(swept["seat"].to_list())
    if not seats:
        raise AnalysisError(
            "no seat's starting money varies across these results: compensation needs a sweep, variants that "
            "differ only in one seat's starting money (docs/analysis.md; `simlab compensate GAME` plays one itself)"
        )
    bots = sorted(lf.select(pl.col("bot").unique()).collect()["bot"].to_list())
    fits: dict[int, LogisticFit] = {}
    fit_rows, curves = [], []
    for k in seats:
        pk = points.filter(pl.col("seat") == k)
        clusters = rows.filter(pl.col("seat") == k).select(pl.col("game").n_unique()).collect().item()
        fit = fit_logistic(
            pk["offset"].to_numpy(), pk["games"].to_numpy(), pk["_s"].to_numpy(), _lazy_meat(rows, k), clusters, 1.0 / n
        )
        fits[k] = fit
        lo, hi = fit.fair_interval(level)
        rate, rate_se = fit.rate(0.0)
        z = stats.z_value(level)
        fair_money, fair_others = against_rules(fit.fair if bounded(lo, hi) else math.nan, k, rules)
        fit_rows.append(
            {
                "seat": k,
                "games": int(pk["games"].sum()),
                "offsets": pk.height,
                "a": fit.a,
                "b": fit.b,
                "a_se": math.sqrt(fit.cov[0, 0]),
                "b_se": math.sqrt(fit.cov[1, 1]),
                "share_at_0": float(fit.p(0.0)),
                "fair_offset": fit.fair,
                "fair_lo": lo,
                "fair_hi": hi,
                "fair_money": fair_money,
                "fair_others": fair_others,
                "rules_money": float(rules[k]) if rules is not None else math.nan,
                "rules_others": float(np.delete(rules, k).mean()) if rules is not None else math.nan,
                "rate": rate,
                "rate_se": rate_se,
                "rate_lo": rate - z * rate_se,
                "rate_hi": rate + z * rate_se,
            }
        )
        xs = np.linspace(pk["offset"].min(), pk["offset"].max(), grid)
        band_lo, band_hi = fit.band(xs, level)
        curves.append(
            pl.DataFrame(
                {
                    "seat": [k] * grid,
                    "offset": xs,
                    "win_share": fit.p(xs),
                    "win_share_lo": band_lo,
                    "win_share_hi": band_hi,
                }
            )
        )
    games = int(points["games"].max())
    return Compensation(
        fit=pl.DataFrame(fit_rows).with_columns(pl.lit(stats.FIELLER_METHOD).alias("interval")),
        points=points.drop("_s", "_money"),
        curve=pl.concat(curves),
        players=n,
        level=level,
        games=games,
        bots=bots,
        fits=fits,
        kind=kind,
    )


def _lazy_meat(rows: pl.LazyFrame, seat: int) -> Meat:
    """Cluster scores summed per game index in polars (one lazy pass), for the sandwich covariance."""

    def meat(a: float, b: float) -> np.ndarray:
        p = 1.0 / (1.0 + (-(a + b * pl.col("offset"))).exp())
        r = pl.col("win_share") - p
        per_game = (
            rows.filter(pl.col("seat") == seat)
            .group_by("game")
            .agg(r.sum().alias("u0"), (r * pl.col("offset")).sum().alias("u1"))
        )
        m = (
            per_game.select(
                (pl.col("u0") ** 2).sum().alias("m00"),
                (pl.col("u0") * pl.col("u1")).sum().alias("m01"),
                (pl.col("u1") ** 2).sum().alias("m11"),
            )
            .collect()
            .row(0)
        )
        return np.array([[m[0], m[1]], [m[1], m[2]]])

    return meat


def _expit(x: np.ndarray | float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.asarray(x, dtype=float)))


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


#: a ratio's denominator counts as determined once it is this many times its critical value (see games_needed)
DETERMINED_MARGIN = 2.0


def bounded(lo: float, hi: float) -> bool:
    """True when an interval has two finite ends (a Fieller interval is unbounded while its slope is unclear)."""
    return lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi)


def games_needed(games: int, slope: float, slope_se: float, level: float = 0.95) -> float:
    """About how many more games make a ratio's slope determined (inf if its estimate is 0).

    A Fieller interval of ``c/slope`` is bounded only when the slope is significant: ``|slope| > z·se``. The
    standard error shrinks as 1/√games, so reaching ``|slope| = DETERMINED_MARGIN·z·se`` (a bounded interval
    of useful width, not one just short of infinite) takes ``games·(margin·z·se/|slope|)²`` games in all.
    An estimate from the current standard error and slope: a rough guide, not a guarantee.
    """
    if not (math.isfinite(slope) and math.isfinite(slope_se)) or slope == 0:
        return math.inf
    total = games * (DETERMINED_MARGIN * stats.z_value(level) * slope_se / abs(slope)) ** 2
    return max(float(math.ceil(total - games)), 0.0)


def undetermined(games: int | None, more: float | None) -> str:
    """The words shown instead of a point estimate whose interval is unbounded (``games`` None: unknown)."""
    n = f" with {int(games):,} games" if games is not None and math.isfinite(games) else ""
    if more is None or not math.isfinite(more):
        return f"not determined{n}; the slope is indistinguishable from zero"
    return f"not determined{n}; about {int(more):,} more needed"


def fit_undetermined(row: dict, level: float = 0.95) -> str | None:
    """For a ``compensation().fit`` row: None when its fair offset is bounded, else the words to show."""
    if bounded(row["fair_lo"], row["fair_hi"]):
        return None
    return undetermined(int(row["games"]), games_needed(int(row["games"]), row["b"], row["b_se"], level))
