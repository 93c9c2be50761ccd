"""Sensitivity runs (simlab.analysis.sensitivity): which folders are one, and the seat verdicts across their
data variants, worded for data."""

from __future__ import annotations

import polars as pl

from simlab.analysis.robust import CHANGES, HOLDS
from simlab.analysis.robust import from_estimates as verdicts_of
from simlab.analysis.sensitivity import data_variants

SOURCES = {"demigods": "placeholder", "tile_cost": "placeholder", "reading": "assumption", "players": "rulebook"}
BASE = {"demigods": "default", "tile_cost": [1, 3, 6, 10], "reading": True, "players": 4}


def test_a_run_whose_variants_change_only_unknown_data_is_a_sensitivity_run():
    configs = {
        "baseline": BASE,
        "triangular": {**BASE, "demigods": "triangular"},
        "cost12": {**BASE, "tile_cost": [1, 3, 6, 12], "reading": False},
    }
    assert data_variants(configs, SOURCES, "baseline") == ["baseline", "triangular", "cost12"]


def test_a_rule_change_or_a_repeated_base_is_not_one():
    assert data_variants({"baseline": BASE, "3p": {**BASE, "players": 3}}, SOURCES, "baseline") is None
    assert data_variants({"baseline": BASE, "again": dict(BASE)}, SOURCES, "baseline") is None
    assert data_variants({"baseline": BASE}, SOURCES, "baseline") is None
    assert data_variants({"a": BASE, "b": {**BASE, "demigods": "x"}}, SOURCES, "baseline") is None


def _estimates(values: dict[str, list[float]]) -> pl.DataFrame:
    rows = []
    for effect, per_variant in values.items():
        for k, v in enumerate(per_variant):
            rows.append(dict(kind="seat advantage", effect=effect, bot=f"v{k}", estimate=v, se=0.004, games=20_000))
    return pl.DataFrame(rows)


def test_the_verdicts_are_worded_for_data_variants():
    result = verdicts_of(_estimates({"seat 0": [0.03, 0.031, 0.029], "seat 3": [0.03, -0.03, 0.0]}), across="variant")
    by_effect = {r["effect"]: r for r in result.verdicts.iter_rows(named=True)}
    assert by_effect["seat 0"]["verdict"] == HOLDS
    assert "seat 0: keeps its sign for every data variant tested" in by_effect["seat 0"]["sentence"]
    assert by_effect["seat 3"]["verdict"] == CHANGES
    assert "seat 3: changes with the data" in by_effect["seat 3"]["sentence"]
    assert "20,000 games per variant" in by_effect["seat 3"]["sentence"]
