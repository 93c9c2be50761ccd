"""Synthetic result rows with a known truth, for the statistical-honesty tests (no engine needed)."""

from __future__ import annotations

import numpy as np
import polars as pl


def seat_rows(rng: np.random.Generator, reps: int, games: int, p: np.ndarray, tie: float = 0.1) -> pl.DataFrame:
    """``reps`` variants of ``games`` games: the winner is drawn with probabilities ``p``; with
    probability ``tie`` the win is shared with a uniformly drawn other seat (0.5 each)."""
    n = len(p)
    total = reps * games
    winner = rng.choice(n, size=total, p=p)
    other = (winner + rng.integers(1, n, size=total)) % n
    shared = rng.random(total) < tie
    w = np.zeros((total, n))
    w[np.arange(total), winner] = np.where(shared, 0.5, 1.0)
    w[np.arange(total)[shared], other[shared]] = 0.5
    variant = np.repeat(np.arange(reps), games)
    game = np.tile(np.arange(games), reps)
    score = w * 10 + rng.normal(0, 5, size=(total, n))
    rank = np.where(w > 0, 1, 2)
    return pl.DataFrame(
        {
            "variant": np.repeat(variant.astype(str), n),
            "game": np.repeat(game, n),
            "seat": np.tile(np.arange(n), total),
            "bot": np.tile(np.array(["a", "b"] * (n // 2) + ["a"] * (n % 2)), total),
            "win_share": w.reshape(-1),
            "score": score.reshape(-1),
            "rank": rank.reshape(-1),
        }
    )


def true_shares(p: np.ndarray, tie: float) -> np.ndarray:
    """Expected win share of each seat under ``seat_rows``."""
    n = len(p)
    others = (p.sum() - p) / (n - 1)  # chance another seat wins and shares with this one
    return (1 - tie) * p + tie * 0.5 * (p + others)
