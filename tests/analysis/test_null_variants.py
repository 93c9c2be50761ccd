"""Coverage on the real engine: under null variants (the price tiles listed in other orders) the seat flags and
the paired variant comparison keep their family-wise false-positive rate at about 5%.

One small run (4 variants x 6,000 Massilia games, well under a minute once the engine is compiled) cut into
blocks of 120 games, each an independent replication (see ``null_design``). The bounds are the nominal 5%
plus three binomial standard deviations at the number of independent analyses (the relabelled copies of one
block are not independent, so they do not count).
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
from null_design import ORDERS, paired_rates, run, seat_flag_rates

GAMES = 6_000
BLOCK = 120


def _bound(independent: int, nominal: float = 0.05) -> float:
    return nominal + 3 * math.sqrt(nominal * (1 - nominal) / independent)


@pytest.fixture(scope="module")
def null_rows(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    return run(Path(tmp_path_factory.mktemp("null")), GAMES)


def test_the_null_variants_play_different_games(null_rows):
    scores = null_rows.pivot(on="variant", index=["game", "seat"], values="score")
    assert (scores["rulebook"] != scores["tiles_b"]).mean() > 0.5  # not the same games: a real replication


def test_seat_flags_keep_the_family_wise_rate_on_exchangeable_seats(null_rows):
    rates = seat_flag_rates(null_rows, BLOCK, draws=4)
    independent = (1 + len(ORDERS)) * GAMES // BLOCK
    assert rates["analyses"] == 4 * independent
    assert rates["flag_new"] <= _bound(independent)
    assert rates["equal_seats_test"] <= _bound(independent)
    assert rates["flag_new"] <= rates["equal_seats_test"]  # a flag needs the equal-seats test to reject first
    assert rates["gap_interval_covers_0"] >= 1 - _bound(independent)
    assert rates["gap_corrected_mean_points"] < rates["gap_raw_mean_points"]  # the correction removes bias


def test_paired_comparison_keeps_the_family_wise_rate_over_seats_and_variants(null_rows):
    rates = paired_rates(null_rows, BLOCK)
    assert rates["blocks"] == GAMES // BLOCK
    assert rates["any12_new"] <= _bound(rates["blocks"])
    assert rates["largest_new"] <= _bound(rates["blocks"] * len(ORDERS))
