"""Cheaper games per verdict? The variance-reduction levers of issue 35 item 5, measured on the real engines.

For each game (its shipped seat scenario's lineup and player count) and each headline estimate —

- ``seat``: each seat's win share (the variance summed over the seats),
- ``card``: one component granted to seat 0 against the control, paired by game (the card-value design),
- ``change``: a paired seat change between two variants (the seat scenario's second variant against the base;
  variance summed over the seats),
- ``bots`` (a check, not a headline estimate): the first bot of the lineup's win share minus the second's, per
  game (each averaged over the seats it holds) — the comparison duplicate bridge's design is made for,

this plays the same number of games ``n`` under two seating designs and prints the *variance per game* of each
estimator (``n · Var(estimate)``) and the ratio of a lever's to today's, with a block-bootstrap interval:

- ``index`` (today): game i has its own seed and the lineup rotated by i mod N;
- ``duplicate``: deal d = i // P is played once in each of the P distinct rotations of the lineup (P = the lineup's
  period: a lineup ``a,b,a,b`` has P = 2, and its rotations r and r + 2 would replay the same game exactly, since a
  game is a pure function of its seed, config and seated bots); the rotation of game i stays i mod N;
- ``setup CV`` (index games, control variates): the estimate adjusted by regression on the game's *setup* — every
  numeric field of the state record after ``init`` (shuffles, deals, tiles: all chance, no decision yet), reduced
  to its leading principal components, with its expectation from independent setups, β cross-fitted on the
  other half of the blocks. It bounds what any linear control variate from a game's opening chance could give.
- ``chance CV`` (index games): the estimator a game's declared chance facts allow (role ``chance.luck``, each with
  its declared expectation: ``simlab.analysis.chance``, which ``seat_advantage(..., control_variates=True)``
  uses): the seat shares regressed on every seat's luck; a card's or a variant's paired change on the luck of
  both games. Only Roma declares such facts (its dice and battle luck); the other games show "-".
- ``stream CV`` (index games): the same regression on the game's *in-game* chance: the first ``DRAWS_AHEAD``
  outputs of its chance generator after ``init`` (the dice, draws and shuffles of play take them in order), each
  a uniform on [0, 1) — expectation exactly 1/2 — so any rule-independent luck measure lies in their span
  where play consumes them in the same order from game to game.

Blocks: P consecutive games (index: one of each distinct lineup; duplicate: one deal), so both designs are
compared on the same stratification by lineup. Variance per game = P · Var(block mean); the ratio's 95% interval
resamples blocks (independently per design; jointly for the CV, which reuses the index games).

Run (each game compiles on first use):

    PYTHONPATH=. python benchmarks/variance_levers.py --games 8000 [--only roma] [--seed 35]

It prints the games each game took on stderr and the table on stdout (docs/running.md holds the measured one).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import simlab
from simlab.run.scenario import rotated_lineup
from simlab.run.seeds import game_seeds

#: bootstrap draws for each ratio's interval
DRAWS = 2000
#: principal components of the setup record a control variate regresses on
COMPONENTS = 40
#: chance-generator outputs after the setup a stream control variate regresses on
DRAWS_AHEAD = 100


@dataclass(frozen=True)
class Case:
    """A game's cell: its lineup, the base config, one granted component and a second variant."""

    game: str
    players: int
    lineup: tuple[str, ...]
    card: dict[str, Any]
    change: dict[str, Any]
    preset: str = ""
    change_preset: str = ""
    label: str = ""
    base: dict[str, Any] = field(default_factory=dict)


CASES = {
    "massilia": Case(
        "massilia", 4, ("trader", "priest", "trader", "priest"),
        {"bonus_card": "jupiter", "bonus_card_seat": 0}, {}, "rulebook", "quined2014",
        "jupiter to seat 0; quined2014 vs rulebook",
    ),
    "roma": Case(
        "roma", 2, ("builder", "warrior"),
        {"bonus_card": "sicarius", "bonus_card_seat": 0}, {}, "rulebook", "bribe_disc",
        "sicarius to seat 0; bribe_disc vs rulebook",
    ),
    "pantheon": Case(
        "pantheon", 4, ("builder", "devout", "builder", "devout"),
        {"start_god": "surparit", "start_god_seat": 0}, {"extra_start_feet": (0, 0, 0, 2)}, "rulebook", "",
        "surparit to seat 0; seat 3 +2 feet vs rulebook",
    ),
    "merchant_of_venus": Case(
        "merchant_of_venus", 4, ("trader", "porter", "trader", "porter"),
        {"bonus_item": "laser", "bonus_item_seat": 0}, {}, "", "literal_purses",
        "laser to seat 0; literal_purses vs rulebook",
    ),
}  # fmt: skip


def play(game: Any, cfg: Any, lineup: tuple[str, ...], seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Win shares (games × seats) of games 0.. with the lineup rotated by the game index, as the runner plays
    them, and the game's declared luck (games × seats·facts; no columns if it declares none)."""
    n = cfg.players
    rotation = np.arange(len(seeds)) % n
    luck = [e for e in game.fact_set.role_map(cfg).get("chance.luck", []) if e.get("expect") is not None]
    w, z = np.empty((len(seeds), n)), np.empty((len(seeds), n * len(luck)))
    for r in np.unique(rotation).tolist():
        sel = np.flatnonzero(rotation == r)
        records = game.play_batch(cfg, seeds[sel].tolist(), game.make_bots(rotated_lineup(lineup, r), n))
        w[sel] = np.asarray(game.result_columns(records, cfg)["win_share"]).reshape(-1, n)
        if luck:
            facts = game.fact_columns(records, cfg)
            z[sel] = np.column_stack([np.asarray(facts[e["column"]]).reshape(-1, n) - e["expect"] for e in luck])
    return w, z


def period(lineup: tuple[str, ...]) -> int:
    """The number of distinct rotations of a lineup (its smallest period)."""
    n = len(lineup)
    return next(p for p in range(1, n + 1) if n % p == 0 and all(lineup[k] == lineup[(k + p) % n] for k in range(n)))


def duplicate_seeds(root: int, games: int, p: int) -> np.ndarray:
    """Game i plays deal i // p: each deal's seed once in each of the p distinct rotations."""
    return np.repeat(game_seeds(root, 0, -(-games // p)), p)[:games]


def bot_difference(w: np.ndarray, lineup: tuple[str, ...]) -> np.ndarray:
    """Per game: the lineup's first bot's mean win share over its seats minus the second bot's (rotation i mod N)."""
    n = len(lineup)
    a, b = lineup[0], next(x for x in lineup if x != lineup[0])
    rot = np.arange(len(w)) % n
    bots = np.array([[lineup[(k - r) % n] for k in range(n)] for r in range(n)])[rot]
    return (w * (bots == a)).sum(1) / (bots == a).sum(1) - (w * (bots == b)).sum(1) / (bots == b).sum(1)


def setup_features(game: Any, cfg: Any, seeds: np.ndarray) -> np.ndarray:
    """Every numeric field of the state record after ``init`` (the game's opening chance), one row per seed."""
    rows = []
    for s in seeds.tolist():
        rec = game.new_state(cfg, int(s)).record[0]
        rows.append(
            np.concatenate(
                [
                    np.asarray(rec[f], dtype=float).ravel()
                    for f in rec.dtype.names
                    if f != "rng" and rec.dtype[f].base.kind in "iub"
                ]
            )
        )
    return np.asarray(rows)


def stream_features(game: Any, cfg: Any, seeds: np.ndarray) -> np.ndarray:
    """The first ``DRAWS_AHEAD`` outputs of each game's chance generator after ``init``, as uniforms minus 1/2."""
    from simlab.core.rng import next_u64

    out = np.empty((len(seeds), DRAWS_AHEAD))
    for i, s in enumerate(seeds.tolist()):
        state = np.array(game.new_state(cfg, int(s)).record[0]["rng"], dtype=np.uint64).reshape(-1)[:1].copy()
        for j in range(DRAWS_AHEAD):
            out[i, j] = float(next_u64(state, 0) >> np.uint64(11)) / 2.0**53 - 0.5
    return out


def block_means(x: np.ndarray, p: int) -> np.ndarray:
    """Per block of p consecutive games, the mean of each column of x (games × k)."""
    b = len(x) // p
    return x[: b * p].reshape(b, p, *x.shape[1:]).mean(axis=1)


def var_per_game(blocks: np.ndarray, p: int) -> float:
    """p · Var(block mean), summed over the estimates (columns): n · Var of the estimates' mean."""
    return float(p * blocks.var(axis=0, ddof=1).sum())


def ratio_interval(a: np.ndarray, b: np.ndarray, p: int, rng: np.random.Generator) -> tuple[float, float, float]:
    """Var per game of design a over design b (block means, independent samples), with a bootstrap 95% interval."""
    est = var_per_game(a, p) / var_per_game(b, p)
    draws = [
        var_per_game(a[rng.integers(0, len(a), len(a))], p) / var_per_game(b[rng.integers(0, len(b), len(b))], p)
        for _ in range(DRAWS)
    ]
    lo, hi = np.quantile(draws, [0.025, 0.975])
    return est, float(lo), float(hi)


def cv_adjusted(y: np.ndarray, z: np.ndarray, p: int) -> np.ndarray:
    """y (games × k) minus its cross-fitted regression on the centred features z (games × c), per game: the
    coefficient for each half of the blocks is fitted on the other half."""
    b = len(y) // p
    half = np.arange(len(y)) // p < b // 2
    out = np.array(y, dtype=float)
    for fit, use in ((~half, half), (half, ~half)):
        zf = np.column_stack([np.ones(fit.sum()), z[fit]])
        beta, *_ = np.linalg.lstsq(zf, y[fit], rcond=None)
        out[use] = y[use] - z[use] @ beta[1:]
    return out


def cv_ratio(y: np.ndarray, adj: np.ndarray, p: int, rng: np.random.Generator) -> tuple[float, float, float]:
    """Var per game of the adjusted estimate over the plain one, on the same games (blocks resampled jointly)."""
    yb, ab = block_means(y, p), block_means(adj, p)
    est = var_per_game(ab, p) / var_per_game(yb, p)
    draws = []
    for _ in range(DRAWS):
        i = rng.integers(0, len(yb), len(yb))
        draws.append(var_per_game(ab[i], p) / var_per_game(yb[i], p))
    lo, hi = np.quantile(draws, [0.025, 0.975])
    return est, float(lo), float(hi)


def measure(case: Case, games: int, root: int, log: Any) -> list[dict[str, Any]]:
    """Play the case's three configs under both designs; the ratios of every lever and estimate."""
    game = simlab.get_game(case.game)
    n, lineup = case.players, case.lineup
    p = period(lineup)
    games -= games % max(p, n)
    base = game.make_config(preset=case.preset or None, players=n, overrides=case.base)
    card = base.replace(**case.card)
    other = (
        game.make_config(preset=case.change_preset, players=n, overrides=case.base)
        if case.change_preset
        else base.replace(**case.change)
    )
    designs = {"index": game_seeds(root, 0, games), "duplicate": duplicate_seeds(root, games, p)}
    seat, dcard, dchange, dbots, luck = {}, {}, {}, {}, {}
    t0 = time.perf_counter()
    for name, seeds in designs.items():
        (w0, z0), (w1, z1), (w2, z2) = (play(game, c, lineup, seeds) for c in (base, card, other))
        seat[name], dcard[name], dchange[name] = w0, (w1[:, 0] - w0[:, 0])[:, None], w2 - w0
        dbots[name] = bot_difference(w0, lineup)[:, None]
        luck[name] = {"seat": z0, "card": np.hstack([z0, z1]), "change": np.hstack([z0, z2]), "bots": z0}
    played = time.perf_counter() - t0
    setup = setup_features(game, base, designs["index"])
    expect = setup_features(game, base, game_seeds(root + 1, 0, 2 * games)).mean(axis=0)
    keep = setup.std(axis=0) > 0
    z = setup[:, keep] - expect[keep]
    scale = z.std(axis=0)
    _u, _s, vt = np.linalg.svd(z / scale, full_matrices=False)
    comps = (z / scale) @ vt[:COMPONENTS].T
    stream = stream_features(game, base, designs["index"])
    rng = np.random.default_rng(root)
    rows = []
    for label, values in (("seat", seat), ("card", dcard), ("change", dchange), ("bots", dbots)):
        a, b = block_means(values["duplicate"], p), block_means(values["index"], p)
        vi = var_per_game(b, p)
        dup = ratio_interval(a, b, p, rng)
        cv = cv_ratio(values["index"], cv_adjusted(values["index"], comps, p), p, rng)
        scv = cv_ratio(values["index"], cv_adjusted(values["index"], stream, p), p, rng)
        z = luck["index"][label]
        ccv = cv_ratio(values["index"], cv_adjusted(values["index"], z, p), p, rng) if z.shape[1] else None
        rows.append(
            {
                "game": case.game,
                "estimate": label,
                "games": games,
                "var_index": vi,
                "duplicate": dup,
                "setup_cv": cv,
                "stream_cv": scv,
                "chance_cv": ccv,
                "features": int(keep.sum()),
            }
        )
    log.write(f"  {case.game}: {6 * games:,} games played in {played:.0f} s ({case.label}; period {p})\n")
    log.flush()
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=8000, help="games per design and config (default 8000)")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--only", action="append", choices=sorted(CASES), help="a game (repeatable; default all)")
    args = ap.parse_args(argv)
    rows = []
    for name in args.only or list(CASES):
        rows += measure(CASES[name], args.games, args.seed, sys.stderr)
    print(
        "| game | estimate | n per design | var/game today | duplicate ratio [95%] | chance-CV ratio [95%] "
        "| setup-CV ratio [95%] | stream-CV ratio [95%] |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        d, c, t, h = r["duplicate"], r["setup_cv"], r["stream_cv"], r["chance_cv"]
        chance = f"{h[0]:.3f} [{h[1]:.3f}, {h[2]:.3f}]" if h else "-"
        print(
            f"| {r['game']} | {r['estimate']} | {r['games']:,} | {r['var_index']:.4f} | "
            f"{d[0]:.2f} [{d[1]:.2f}, {d[2]:.2f}] | {chance} | {c[0]:.3f} [{c[1]:.3f}, {c[2]:.3f}] | "
            f"{t[0]:.3f} [{t[1]:.3f}, {t[2]:.3f}] |"
        )


if __name__ == "__main__":
    main()
