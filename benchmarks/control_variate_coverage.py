"""Coverage of the control-variate intervals on null designs of the real Roma engine, plain beside adjusted.

- seats: each game's two seats swapped at random (their luck with them), so every seat's true share is 1/2;
  analyses of ``--block`` games each (the blocks as variants of one ``seat_advantage`` call);
- card and change: the "treated" games are other games of the control's own config (the second half of the
  games, renumbered), so every true value is 0; one label (card) or variant (change) per block.

Prints, per estimate, the analyses and the share whose 95% interval covers the truth (and for the seats the
share of equal-seats tests rejecting at 5%). ``tests/analysis/test_chance.py`` runs the same designs small.

    PYTHONPATH=. python benchmarks/control_variate_coverage.py [--games 100000] [--block 200] [--seed 7]
"""

from __future__ import annotations

import argparse

import numpy as np
import polars as pl

from simlab.analysis.cards import card_value
from simlab.analysis.seats import compare_variants, seat_advantage
from simlab.core.registry import get_game
from simlab.run.scenario import rotated_lineup

LINEUP = ["builder", "warrior"]


def rows(games: int, seed: int) -> pl.DataFrame:
    """Roma games 0.. (seeds ``seed * games + i``, lineup rotated by i) with their results and luck, game-major."""
    game = get_game("roma")
    cfg = game.make_config(players=2)
    frames = []
    for r in range(2):
        index = np.arange(r, games, 2)
        records = game.play_batch(cfg, (index + seed * games).tolist(), game.make_bots(rotated_lineup(LINEUP, r), 2))
        cols = game.result_columns(records, cfg) | game.fact_columns(records, cfg)
        frames.append(
            pl.DataFrame({k: cols[k] for k in ("score", "rank", "win_share", "dice_luck", "battle_luck")}).with_columns(
                pl.Series("game", np.repeat(index, 2)), pl.Series("seat", np.tile([0, 1], len(index)))
            )
        )
    return pl.concat(frames).sort("game", "seat").with_columns(pl.lit("builder/warrior").alias("bot"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--block", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    played, b = rows(args.games, args.seed), args.block
    swap = np.repeat(np.random.default_rng(args.seed).integers(0, 2, played.height // 2), 2)
    seats = played.with_columns(
        (pl.col("seat") ^ pl.Series(swap)).alias("seat"), (pl.col("game") // b).cast(pl.String).alias("variant")
    )
    half = played.height // 2
    control = played.head(half).with_columns(pl.lit("control").alias("variant"))
    treated = played.tail(half).with_columns(
        pl.col("game") - half // 2, pl.format("b{}_seat0", (pl.col("game") - half // 2) // b).alias("variant")
    )
    paired = pl.concat([control, treated])
    print(f"n = {args.games:,} Roma games (builder/warrior rotated), analyses of {b} games")
    print("| estimate | analyses | plain: covered | adjusted: covered | plain: equal-seats rejects | adjusted |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    s0, s1 = (seat_advantage(seats, control_variates=cv).filter(pl.col("seat") == 0) for cv in (False, True))
    cover = [((d["win_share_lo"] <= 0.5) & (d["win_share_hi"] >= 0.5)).mean() for d in (s0, s1)]
    reject = [(d["p_equal"] < 0.05).mean() for d in (s0, s1)]
    print(f"| seat win share | {s0.height} | {cover[0]:.3f} | {cover[1]:.3f} | {reject[0]:.3f} | {reject[1]:.3f} |")
    c0, c1 = (card_value(paired, control_variates=cv) for cv in (False, True))
    cover = [((d["win_share_diff_lo"] <= 0) & (d["win_share_diff_hi"] >= 0)).mean() for d in (c0, c1)]
    print(f"| card value | {c0.height} | {cover[0]:.3f} | {cover[1]:.3f} | | |")
    v0, v1 = (compare_variants(paired, "control", control_variates=cv).filter(pl.col("seat") == 0) for cv in (0, 1))
    cover = [((d["diff_lo"] <= 0) & (d["diff_hi"] >= 0)).mean() for d in (v0, v1)]
    print(f"| seat change | {v0.height} | {cover[0]:.3f} | {cover[1]:.3f} | | |")


if __name__ == "__main__":
    main()
