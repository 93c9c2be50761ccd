"""Rank intervals (simlab.analysis.ranks): settled when the values are far apart, every rank when they are
indistinguishable, and joint coverage of the true ranks at least the nominal level."""

from __future__ import annotations

import numpy as np
import polars as pl

from simlab.analysis.ranks import rank_intervals, rank_text, with_ranks


def test_far_apart_values_have_settled_ranks():
    rank, lo, hi = rank_intervals(np.array([0.01, 0.30, 0.10, -0.20]), np.full(4, 0.001))
    assert rank.tolist() == [3, 1, 2, 4]
    assert lo.tolist() == rank.tolist() and hi.tolist() == rank.tolist()


def test_indistinguishable_values_may_hold_any_rank():
    rank, lo, hi = rank_intervals(np.array([0.02, 0.021, 0.019]), np.full(3, 0.05))
    assert sorted(rank.tolist()) == [1, 2, 3]
    assert lo.tolist() == [1, 1, 1] and hi.tolist() == [3, 3, 3]


def test_two_groups_rank_within_their_group():
    """Two clear groups of two: each item's plausible ranks are its group's places, no more."""
    _rank, lo, hi = rank_intervals(np.array([1.0, 1.01, 0.0, 0.01]), np.full(4, 0.05))
    assert [(int(a), int(b)) for a, b in zip(lo, hi, strict=True)] == [(1, 2), (1, 2), (3, 4), (3, 4)]


def test_an_unknown_standard_error_leaves_every_rank_open_for_that_item_only():
    _rank, lo, hi = rank_intervals(np.array([0.5, 0.0, -0.5]), np.array([0.001, np.nan, 0.001]))
    assert (lo[1], hi[1]) == (1, 3)
    assert (lo[0], hi[0]) == (1, 2) and (lo[2], hi[2]) == (2, 3)  # the unknown one may lie anywhere


def test_joint_coverage_of_the_true_ranks_is_at_least_nominal():
    rng = np.random.default_rng(3)
    truth = np.array([0.0, 0.0, 0.01, 0.02, 0.05, 0.05, 0.08, 0.2])
    true_lo = np.array([7, 7, 6, 5, 3, 3, 2, 1])  # ties: either place of the tie is a true rank
    true_hi = np.array([8, 8, 6, 5, 4, 4, 2, 1])
    se = np.full(truth.size, 0.02)
    reps, covered = 2000, 0
    for _ in range(reps):
        _, lo, hi = rank_intervals(truth + rng.normal(0, se), se, level=0.90)
        covered += bool(np.all((lo <= true_hi) & (hi >= true_lo)))
    assert covered / reps >= 0.90 - 3 * np.sqrt(0.9 * 0.1 / reps)


def test_with_ranks_ranks_only_the_selected_rows():
    df = pl.DataFrame(
        {
            "label": ["a", "b", "money+1", "c"],
            "kind": ["card", "card", "money", "card"],
            "win_share_diff": [0.01, 0.05, 0.5, -0.03],
            "win_share_diff_se": [0.001, 0.001, 0.001, 0.001],
        }
    )
    out = with_ranks(df, ranked=pl.col("kind") == "card")
    assert out["rank"].to_list() == [2, 1, None, 3]
    assert out["rank_lo"].to_list() == [2, 1, None, 3] and out["rank_hi"].to_list() == [2, 1, None, 3]
    assert rank_text(1, 1, 3, 12) == "ranked 1 of 12 (plausible ranks 1–3)"
    assert rank_text(2, 2, 2, 5) == "ranked 2 of 5 (its rank is settled)"
