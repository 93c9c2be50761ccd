"""Analyses of result rows: lazy polars pipelines that report every estimate with an interval.

Each function takes a result folder, a LazyFrame (``simlab.load_results(folder)``) or a DataFrame and
returns a small tidy polars DataFrame (or a dataclass of them) ready to print or chart with
``simlab.report.charts``. See docs/analysis.md for what each answers and the statistics behind it.

- seats: ``seat_advantage``, ``equal_seats_test``, ``compare_variants``, ``seat_verdicts`` (against a tolerance)
- compensation: ``compensation`` (fair starting money from a sweep); ``simlab compensate`` searches adaptively
- cards: ``card_value``, ``observational``, ``design_from_manifest``
- markets: ``market_trajectories``, ``demand_collapses`` (old name ``marker_collapses``), ``sale_yield``,
  ``shift_winners`` (all four in one pass: ``market_summary``)
- digest: ``load_digest`` (the chunks' mergeable partials a run writes; the ``*_from_partial`` functions
  finish an analysis from them, as a report does)
- metrics: ``balance_summary``, ``lead_metrics`` (both at once: ``game_metrics``); score_distribution:
  ``distribution``, ``score_summary``; variance: ``variance_decomposition``
"""

from __future__ import annotations

from simlab.analysis.cards import MoneyRate, card_value, design_from_manifest, design_from_names, observational
from simlab.analysis.compensation import Compensation, compensation
from simlab.analysis.frames import AnalysisError, NoMarketError, as_lazy
from simlab.analysis.market_pass import (
    MarketSummary,
    demand_collapses,
    marker_collapses,
    market_summary,
    shift_winners,
)
from simlab.analysis.markets import has_market, market_trajectories, sale_yield
from simlab.analysis.metrics import (
    balance_summary,
    game_metrics,
    game_metrics_from_partial,
    lead_metrics,
    leader_curve,
)
from simlab.analysis.paired import compare_variants_from_partial
from simlab.analysis.ranks import rank_intervals, with_ranks
from simlab.analysis.score_distribution import distribution, distribution_from_partial, score_summary
from simlab.analysis.seats import (
    VERDICTS,
    compare_variants,
    equal_seats_test,
    seat_advantage,
    seat_advantage_from_partial,
    seat_verdicts,
)
from simlab.analysis.sensitivity import data_variants, sensitivity
from simlab.analysis.variance import variance_decomposition, variance_from_partial

__all__ = [
    "VERDICTS",
    "AnalysisError",
    "Compensation",
    "MarketSummary",
    "MoneyRate",
    "NoMarketError",
    "as_lazy",
    "balance_summary",
    "card_value",
    "compare_variants",
    "compare_variants_from_partial",
    "compensation",
    "data_variants",
    "demand_collapses",
    "design_from_manifest",
    "design_from_names",
    "distribution",
    "distribution_from_partial",
    "equal_seats_test",
    "game_metrics",
    "game_metrics_from_partial",
    "has_market",
    "lead_metrics",
    "leader_curve",
    "marker_collapses",
    "market_summary",
    "market_trajectories",
    "observational",
    "rank_intervals",
    "sale_yield",
    "score_summary",
    "seat_advantage",
    "seat_advantage_from_partial",
    "seat_verdicts",
    "sensitivity",
    "shift_winners",
    "variance_decomposition",
    "variance_from_partial",
    "with_ranks",
]
