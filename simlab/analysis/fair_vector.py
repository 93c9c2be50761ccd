"""The fair vector of a per-seat knob: the value for every seat, on the knob's own grid, that makes the seats equal.

One seat compensated at a time leaves the others unequal, and a fractional answer (+1.65 coins) on a knob
that takes whole numbers does not say which whole number to print in the rules. This search answers with a
whole vector, verified:

1. **Explore.** Play the base vector and base + step for each seat alone, on the same seeds (common random
   numbers), and fit a softmax model ``p_k(d) ∝ exp(α_k + β·d_k)`` of the seats' win shares against the
   offsets ``d`` (quasi-likelihood: split wins are fractions; covariance clustered by game index). While β is
   under ``SLOPE_Z`` standard errors the step doubles (exploring spends at most half of ``max_games``).
2. **Shortlist.** Offsets are normalised so the smallest is 0 (the strongest seat keeps the base value; 6,6,6,7
   and 7,7,7,8 are one answer, not two). For an integer knob the candidates are the whole vectors within one of
   the model's continuous answer, ranked by the model's largest deviation ``max_k |p_k − 1/N|``; the best few
   are raced.
3. **Race.** Each round plays one batch at every surviving candidate on the same seeds, and drops a candidate
   whose largest deviation exceeds the current best one's: a paired bootstrap over game indices (the same
   weights for every candidate, so the shared luck cancels), one-sided at ``alpha`` divided over the round's
   comparisons (Bonferroni). It stops when one candidate is left, when the survivors are within
   ``tolerance`` of the best (the choice between them does not matter), or when ``max_games`` are spent. Games
   go only to candidates still in the race: where the decision is close.
4. **Confirm.** The chosen vector is played again on fresh seeds (game indices from ``CONFIRM_START``, never
   used by the search), and its seat shares (normal intervals), largest deviation and the Wald equal-seats
   test are reported. Selection error is not certified by the race; the confirmation run is what verifies.

Before all this the published vector is confirmed on its own fresh seeds (from ``PUBLISHED_START``): when every
seat is within ``within`` of 1/N there (simultaneous intervals), the rules are already fair and nothing is
searched. What the search may conclude is read from the confirmations alone (``fair_outcome``): already fair,
fair vector found and confirmed, no vector on the grid fair within the tolerance, or the budget ran out.

A continuous knob (float entries) gets the model's continuous answer, with a parametric-bootstrap interval
of each offset, confirmed the same way. Games are played through the game contract (``play_batch`` +
``result_columns``), lineup rotated through the seats as the runner does.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import AnalysisError, NotAvailableError
from simlab.core.facts import not_available
from simlab.run.scenario import rotated_lineup

#: first game index of a confirmation run: far beyond any search, so its seeds are fresh
CONFIRM_START = 1 << 40
#: first game index of the published vector's confirmation: fresh too, and apart from the chosen one's
PUBLISHED_START = 1 << 41
#: bootstrap replicates of a race round, drawn in blocks of this many
BOOTSTRAP = 400
BOOTSTRAP_BLOCK = 50
#: the slope must be this many standard errors above 0 before the shortlist is drawn
SLOPE_Z = 4.0
#: most candidates the model's shortlist races
SHORTLIST = 5

UNFITTABLE = "the fair-vector model cannot be fitted: some seat wins all or none of its games; play more games"

Play = Callable[..., np.ndarray]
Progress = Callable[[str], None]


# -- the knob -------------------------------------------------------------------------------------------
def intervention_knob(game: Any, kind: str = "money") -> str:
    """The knob of the game's declared ``kind`` intervention (money or points), or NotAvailableError."""
    facts = game.fact_set
    found = next((i for i in (facts.interventions if facts is not None else ()) if i.kind == kind), None)
    if found is None:
        raise NotAvailableError(not_available("compensate", f"{kind} intervention", [], game.name) + "; pass --knob")
    return found.knob


def knob_vector(config: Any, knob: str) -> tuple[Any, ...]:
    """The config's per-seat tuple for ``knob`` (its first ``players`` entries); refuse other knobs."""
    if not hasattr(config, knob):
        raise AnalysisError(f"{type(config).__name__} has no knob {knob!r}")
    value = getattr(config, knob)
    n = config.players
    if not isinstance(value, tuple) or len(value) < n or not all(isinstance(v, int | float) for v in value[:n]):
        raise AnalysisError(
            f"knob {knob!r} is not a per-seat number (found {value!r}); compensate sets one value per seat of a "
            "per-seat tuple such as the starting money"
        )
    return tuple(value[:n])


def is_integer(base: Sequence[Any]) -> bool:
    """An integer knob takes whole values only (its config entries are ints)."""
    return all(isinstance(v, int) and not isinstance(v, bool) for v in base)


def with_offsets(base: Sequence[Any], d: Sequence[float]) -> tuple[Any, ...]:
    """The knob's value ``base + d`` (ints stay ints)."""
    kind = int if is_integer(base) else float
    return tuple(kind(b + x) for b, x in zip(base, d, strict=True))


# -- playing ----------------------------------------------------------------------------------------------
def play_vector(
    game: Any, config: Any, knob: str, value: tuple[Any, ...], lineup: Sequence[str], start: int, seeds: np.ndarray
) -> np.ndarray:
    """Win shares (games × seats) of games start.. with ``knob`` set to ``value``, lineup rotated."""
    full = list(getattr(config, knob))
    full[: len(value)] = value
    cfg = config.replace(**{knob: tuple(full)})
    n = cfg.players
    rotation = np.arange(start, start + len(seeds)) % n
    out = np.empty((len(seeds), n))
    for r in np.unique(rotation).tolist():
        sel = np.flatnonzero(rotation == r)
        bots = game.make_bots(rotated_lineup(lineup, r), n)
        records = game.play_batch(cfg, seeds[sel].tolist(), bots)
        out[sel] = np.asarray(game.result_columns(records, cfg)["win_share"]).reshape(-1, n)
    return out


def _play_all(
    play: Play, game: Any, config: Any, knob: str, values: list[tuple], lineup: Sequence[str], start: int,
    seeds: np.ndarray, jobs: int,
) -> list[np.ndarray]:  # fmt: skip
    if jobs <= 1 or len(values) == 1 or play is not play_vector:
        return [play(game, config, knob, v, lineup, start, seeds) for v in values]
    from joblib import Parallel, delayed

    # the game travels as its name and address (Game.__reduce_ex__): a game no registry lists plays there too
    tasks = (delayed(play_vector)(game, config, knob, v, lineup, start, seeds) for v in values)
    return list(Parallel(n_jobs=min(jobs, len(values)), backend="loky")(tasks))


# -- the model --------------------------------------------------------------------------------------------
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


# -- the race ---------------------------------------------------------------------------------------------
@dataclasses.dataclass
class Candidate:
    """A vector of offsets in the race, with the games it has been played in (index and win shares)."""

    offsets: tuple[float, ...]
    game: list[np.ndarray] = dataclasses.field(default_factory=list)
    wins: list[np.ndarray] = dataclasses.field(default_factory=list)
    dropped: int | None = None  # the race round that dropped it

    @property
    def games(self) -> int:
        return sum(len(g) for g in self.game)

    def shares(self) -> np.ndarray:
        """Mean win share by seat over its games (NaN before it has any)."""
        if not self.wins:
            return np.full(len(self.offsets), np.nan)
        return np.concatenate(self.wins).mean(axis=0)


def _bootstrap_deviation(cands: list[Candidate], seed: int, rounds: int, replicates: int = BOOTSTRAP) -> np.ndarray:
    """Replicates (B × candidates) of each candidate's largest deviation, Poisson weights per game index."""
    top = max(int(np.concatenate(c.game).max()) for c in cands) + 1
    rng = np.random.default_rng([seed, rounds, 0xB007])
    games = [(np.concatenate(c.game), np.concatenate(c.wins).astype(np.float32)) for c in cands]
    out = np.empty((replicates, len(cands)))
    # replicates in blocks: the same draws as one (replicates × top) matrix (the generator fills rows in
    # order), without holding it all (400 × 200,000 weights would be 320 MB)
    for a in range(0, replicates, BOOTSTRAP_BLOCK):
        b = min(a + BOOTSTRAP_BLOCK, replicates)
        weights = rng.poisson(1.0, size=(b - a, top)).astype(np.float32)
        for j, (g, w) in enumerate(games):
            wg = weights[:, g]
            out[a:b, j] = largest_deviation((wg @ w) / np.maximum(wg.sum(axis=1, keepdims=True), 1e-9))
    return out


def race_round(cands: list[Candidate], alpha: float, tolerance: float, seed: int, rounds: int) -> tuple[int, str]:
    """Drop the candidates clearly worse than the best; return (index of the best, status).

    Status: "decided" (one left), "equivalent" (every survivor within ``tolerance`` of the best at the
    round's level), or "open".
    """
    alive = [c for c in cands if c.dropped is None]
    point = largest_deviation(np.array([c.shares() for c in alive]))
    best = int(np.argmin(point))
    if len(alive) == 1:
        return cands.index(alive[0]), "decided"
    boot = _bootstrap_deviation(alive, seed, rounds)
    diff = boot - boot[:, [best]]
    a = alpha / (len(alive) - 1)
    lo, hi = np.quantile(diff, a, axis=0), np.quantile(diff, 1 - a, axis=0)
    for j, c in enumerate(alive):
        if j != best and lo[j] > 0:
            c.dropped = rounds
    left = [j for j, c in enumerate(alive) if c.dropped is None]
    if len(left) == 1:
        return cands.index(alive[best]), "decided"
    if all(hi[j] < tolerance for j in left if j != best):
        return cands.index(alive[best]), "equivalent"
    return cands.index(alive[best]), "open"


# -- confirmation -------------------------------------------------------------------------------------------
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


def confirm(
    game: Any, config: Any, knob: str, value: tuple[Any, ...], lineup: Sequence[str], games: int, seed: int,
    level: float = 0.95, play: Play = play_vector, jobs: int = 1, start: int = CONFIRM_START,
) -> Confirmation:  # fmt: skip
    """Play ``games`` fresh games (indices from ``start``) at ``value`` and test the seats' equality."""
    from simlab.run.seeds import game_seeds

    if games < 2:
        raise AnalysisError(f"--confirm-games: need at least 2 games, got {games}")
    parts = max(1, min(jobs, games // 1000)) if play is play_vector else 1
    bounds = np.linspace(0, games, parts + 1).astype(int)
    chunks = []
    for a, b in itertools.pairwise(bounds.tolist()):
        chunks.append((start + a, game_seeds(seed, start + a, start + b)))
    if parts > 1:
        from joblib import Parallel, delayed

        tasks = (delayed(play_vector)(game, config, knob, value, lineup, s, sd) for s, sd in chunks)
        w = np.concatenate(list(Parallel(n_jobs=parts, backend="loky")(tasks)))
    else:
        w = np.concatenate([play(game, config, knob, value, lineup, s, sd) for s, sd in chunks])
    return confirmation_of(value, w, level)


def confirmation_of(value: tuple[Any, ...], w: np.ndarray, level: float = 0.95) -> Confirmation:
    """Seat shares (normal interval of the mean) and the Wald equal-seats test of per-game win shares ``w``."""
    g = len(w)
    mean = w.mean(axis=0)
    se = w.std(axis=0, ddof=1) / math.sqrt(g)
    z = stats.z_value(level)
    chi2, df, p = stats.equal_shares_test(mean, np.cov(w, rowvar=False), g)
    return Confirmation(value, g, mean, mean - z * se, mean + z * se, chi2, df, p, level)


# -- the search -------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class FairVector:
    """The search's answer: the chosen value per seat, how the race ended, every candidate, the confirmation."""

    knob: str
    base: tuple[Any, ...]
    integer: bool
    value: tuple[Any, ...]
    offsets: tuple[float, ...]
    status: str  # decided | equivalent | budget | continuous | published (nothing searched)
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
                .with_columns(pl.lit(f"{what} {_show(conf.value)} ({how})").alias("variant"))
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


def search(
    game: Any,
    config: Any,
    knob: str,
    lineup: Sequence[str],
    *,
    batch: int = 2_000,
    max_games: int = 200_000,
    confirm_games: int = 20_000,
    tolerance: float = 0.005,
    step: float = 2,
    seed: int = 0,
    level: float = 0.95,
    alpha: float = 0.05,
    size: int = SHORTLIST,
    progress: Progress | None = None,
    play: Play = play_vector,
    jobs: int = 1,
    within: float = stats.DEFAULT_TOLERANCE,
) -> FairVector:
    """Find and confirm the vector of ``knob`` values (one per seat) that makes the seats' win shares equal.

    ``tolerance`` (a share: 0.005 is half a point) ends the race when the survivors are that close to the best.
    ``max_games`` bounds the search (not the confirmations); exploring stops at half of it. ``within`` (δ, a
    share) is the band 1/N ± δ a fair seat lies in; the published vector is confirmed against it first.
    ``play(game, config, knob, value, lineup, start, seeds)`` returns the games' win shares (replaceable in
    tests).
    """
    from simlab.run.seeds import game_seeds

    say = progress or (lambda _line: None)
    base = knob_vector(config, knob)
    n = len(base)
    integer = is_integer(base)
    if batch < 10:
        raise AnalysisError(f"--batch: need at least 10 games per vector and step, got {batch}")
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and tolerance >= 0):
        raise AnalysisError(f"--tolerance: expected a finite number ≥ 0, found {tolerance!r}")
    if not (isinstance(within, int | float) and math.isfinite(within) and within > 0):
        raise AnalysisError(f"--fair-within: expected a finite number > 0, found {within!r}")
    if batch * (n + 1) > max_games:
        raise AnalysisError(
            f"not enough games to explore (--max-games {max_games:,}); the first step needs {batch * (n + 1):,} "
            f"({n + 1} vectors × --batch {batch:,})"
        )
    from simlab.analysis.fair_outcome import band

    # 0. the published rules first, on their own fresh seeds: already fair within ±δ means nothing to search
    say(f"  confirming the published {_show(base)} on {confirm_games:,} fresh games")
    published = confirm(game, config, knob, base, lineup, confirm_games, seed, level, play, jobs, PUBLISHED_START)
    if band(published, within).state == "inside":
        zero = tuple(0 if integer else 0.0 for _ in base)
        return FairVector(knob, base, integer, base, zero, "published", 0, [], None, published, level, tolerance,
                          published=published, within=within)  # fmt: skip
    pool: dict[tuple[float, ...], Candidate] = {}
    next_game = 0
    spent = 0

    def play_round(offsets: list[tuple[float, ...]], per: int) -> None:
        nonlocal next_game, spent
        seeds = game_seeds(seed, next_game, next_game + per)
        values = [with_offsets(base, o) for o in offsets]
        for o, w in zip(
            offsets, _play_all(play, game, config, knob, values, lineup, next_game, seeds, jobs), strict=True
        ):
            c = pool.setdefault(o, Candidate(o))
            c.game.append(np.arange(next_game, next_game + per))
            c.wins.append(w)
        next_game += per
        spent += per * len(offsets)

    def observations() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        played = [c for c in pool.values() if c.games]
        g = np.concatenate([np.concatenate(c.game) for c in played])
        d = np.concatenate([np.tile(np.array(c.offsets, float), (c.games, 1)) for c in played])
        w = np.concatenate([np.concatenate(c.wins) for c in played])
        return g, d, w

    # 1. explore until the slope is clear
    fit = None
    while True:
        design = [tuple([0.0] * n)] + [tuple(step if j == k else 0.0 for j in range(n)) for k in range(n)]
        if integer:
            design = [tuple(int(x) for x in o) for o in design]
        if spent + batch * len(design) > max_games // 2 and fit is not None:
            break  # half of the budget at most goes to exploring: the race needs the rest
        if spent + batch * len(design) > max_games:
            raise AnalysisError(
                f"not enough games to explore (--max-games {max_games:,}); the first step needs "
                f"{batch * len(design):,} ({len(design)} vectors × --batch {batch:,})"
            )
        play_round(design, batch)
        fit = fit_softmax(*observations())
        z = fit.beta / fit.beta_se if fit.beta_se > 0 else math.inf
        say(
            f"  explored step {step:g}: {spent:,} games; one unit of {knob} is worth β = {fit.beta:.3f} "
            f"(z = {z:.1f}) on the logit scale"
        )
        if z >= SLOPE_Z:
            break
        step = step * 2 if integer or step else 1
    if not fit.beta > 0:
        raise AnalysisError(
            f"{knob} has no detectable effect on the win shares after {spent:,} games (β = {fit.beta:.3g}); raise "
            "--max-games or --batch"
        )
    fair = fit.fair()
    say("  model's continuous answer: " + ", ".join(f"{x:+.2f}" for x in fair))
    if not integer:
        lo, hi = fit.fair_interval(level, seed)
        value = with_offsets(base, fair)
        say(f"  confirming {_show(value)} on {confirm_games:,} fresh games")
        conf = confirm(game, config, knob, value, lineup, confirm_games, seed, level, play, jobs)
        return FairVector(knob, base, False, value, tuple(float(x) for x in fair), "continuous", spent,
                          list(pool.values()), fit, conf, level, tolerance, lo, hi, list(pool.values()),
                          published, within)  # fmt: skip

    # 2. shortlist (vectors the config allows: a weakly determined slope can point past the knob's range), 3. race
    short = [c for c in shortlist(fit, size) if _playable(config, knob, with_offsets(base, c))]
    if not short:
        raise AnalysisError(
            f"the model's answer ({', '.join(f'{x:+.1f}' for x in fair)}) lies outside the range {knob} allows "
            f"after {spent:,} games: the slope is not yet well determined; raise --max-games or --batch"
        )
    say("  shortlist: " + "; ".join(_show(with_offsets(base, c)) for c in short))
    for c in short:
        pool.setdefault(tuple(c), Candidate(tuple(c)))
    racers = [pool[tuple(c)] for c in short]
    status, rounds, best = "budget", 0, 0
    while True:
        alive = [c for c in racers if c.dropped is None]
        todo = [c.offsets for c in alive]
        if spent + batch * len(todo) > max_games:
            break
        play_round(todo, batch)
        rounds += 1
        best, state = race_round(racers, alpha, tolerance, seed, rounds)
        left = [c for c in racers if c.dropped is None]
        say(
            f"  race round {rounds}: {spent:,} games; best {_show(with_offsets(base, racers[best].offsets))} "
            f"(largest deviation {largest_deviation(racers[best].shares()) * 100:.2f} points); "
            f"{len(left)} left"
        )
        if state != "open":
            status = state
            break
        # the refitted model may now rank a vector outside the race first: it joins (at most 2 × size racers)
        fit = fit_softmax(*observations())
        top = tuple(shortlist(fit, 1)[0])
        if (
            len(racers) < 2 * size
            and all(c.offsets != top for c in racers)
            and _playable(config, knob, with_offsets(base, top))
        ):
            racers.append(pool.setdefault(top, Candidate(top)))
            say(f"  the refitted model adds {_show(with_offsets(base, top))} to the race")
    if all(c.games == 0 for c in racers):
        raise AnalysisError(f"not enough games to race (--max-games {max_games:,}): raise --max-games")
    played = [c for c in racers if c.games > 0 and c.dropped is None] or [c for c in racers if c.games > 0]
    chosen = min(played, key=lambda c: float(largest_deviation(c.shares())))
    fit = fit_softmax(*observations())
    value = with_offsets(base, chosen.offsets)
    say(f"  confirming {_show(value)} on {confirm_games:,} fresh games")
    conf = confirm(game, config, knob, value, lineup, confirm_games, seed, level, play, jobs)
    return FairVector(
        knob, base, True, value, chosen.offsets, status, spent, racers, fit, conf, level, tolerance,
        _pool=list(pool.values()), published=published, within=within,
    )  # fmt: skip


def _playable(config: Any, knob: str, value: tuple[Any, ...]) -> bool:
    """Whether the config accepts ``knob`` = ``value`` (a config without ``replace``, a test's, accepts all)."""
    if not hasattr(config, "replace"):
        return True
    from simlab.core.errors import ConfigError

    full = list(getattr(config, knob))
    full[: len(value)] = value
    try:
        config.replace(**{knob: tuple(full)})
    except ConfigError:
        return False
    return True


def _show(value: Sequence[Any]) -> str:
    return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
