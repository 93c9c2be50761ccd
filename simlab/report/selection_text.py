"""The report's words for selected results (the item that collapses most, the most and least valuable card):
each with the selection's interval or its rank interval (``simlab.analysis.selected``)."""

from __future__ import annotations

from typing import Any

import polars as pl

from simlab.analysis import stats
from simlab.analysis.selected import most_phrase, simultaneous


def collapse_most(d: pl.DataFrame, level: float, what: str) -> str:
    """For one variant's collapse table: whether its highest collapse rate is surely the most of any ``what``
    (the market's word for its items: goods, culture; standard errors read off the Wilson intervals)."""
    se = (d["collapse_rate_hi"] - d["collapse_rate_lo"]).to_numpy() / (2 * stats.z_value(level))
    return most_phrase(d["item"].to_list(), d["collapse_rate"].to_numpy(), se, what, level)


def selected_card_interval(r: dict[str, Any], k: int, level: float) -> tuple[float, float]:
    """The most (or least) valuable card's win-share change interval, simultaneous over the ``k`` cards it was
    picked from: it covers the selected card whichever it is."""
    se = (r["win_share_diff_hi"] - r["win_share_diff_lo"]) / (2 * stats.z_value(level))
    return simultaneous(r["win_share_diff"], se, k, level)
