"""Legends never sit on the data, in any chart, even with many series (issue 32: "legends sit on the data in
every forest plot"); a chart that would hold more than a few lines is drawn as small multiples.

Each chart type is drawn from a synthetic frame shaped like its analysis's output, with many series; after
drawing, every legend's box (matplotlib's window extent) must lie outside every panel's data area and inside
the figure."""

from __future__ import annotations

import types

import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from simlab.report import charts

VARIANTS = ("rulebook", "quined2014", "beige2", "flat_prices", "no_temple", "two_markers")
COMMON = {"games": 400, "bots": "trader, priest", "interval": "Wilson"}


def _seats() -> pl.DataFrame:
    rows = []
    for i, v in enumerate(VARIANTS):
        for seat in range(4):
            share = 0.25 + 0.02 * (seat - 1.5) + 0.005 * i
            rows.append(
                {"variant": v, "seat": seat, "win_share": share, "win_share_lo": share - 0.03}
                | {"win_share_hi": share + 0.03, "p_equal": 1e-15 if i else 0.2, "fair_share": 0.25, **COMMON}
            )
    return pl.DataFrame(rows)


def _compensation() -> types.SimpleNamespace:
    offsets = np.arange(-4, 5, 1.0)
    grid = np.linspace(-4, 4, 41)
    share = lambda x: 1 / (1 + np.exp(-(np.asarray(x) + 1) / 2)) * 0.5  # noqa: E731
    points = pl.DataFrame({"seat": 3, "offset": offsets, "win_share": share(offsets)}).with_columns(
        win_share_lo=pl.col("win_share") - 0.03, win_share_hi=pl.col("win_share") + 0.03
    )
    curve = pl.DataFrame({"seat": 3, "offset": grid, "win_share": share(grid)}).with_columns(
        win_share_lo=pl.col("win_share") - 0.02, win_share_hi=pl.col("win_share") + 0.02
    )
    fit = pl.DataFrame({"seat": [3], "fair_offset": [-1.0], "fair_lo": [-1.6], "fair_hi": [-0.4]})
    return types.SimpleNamespace(
        fit=fit, points=points, curve=curve, players=4, level=0.95, caption="Observed points; 400 games per point."
    )


def _cards(n: int = 24) -> pl.DataFrame:
    rng = np.random.default_rng(3)
    diff = rng.normal(0.01, 0.02, n)
    return pl.DataFrame(
        {
            "label": [f"card {i} in seat {i % 4}" for i in range(n)],
            "kind": ["money" if i % 6 == 0 else "card" for i in range(n)],
            "win_share_diff": diff,
            "win_share_diff_lo": diff - 0.015,
            "win_share_diff_hi": diff + 0.015,
            "played_diff": diff + 0.04,  # the correlational marks reach the right edge, where a legend sat
            "p_adjusted": rng.uniform(0, 0.2, n),
            **COMMON,
        }
    )


def _trajectories(items: int, variants: int) -> pl.DataFrame:
    rng = np.random.default_rng(5)
    rows = []
    for v in VARIANTS[:variants]:
        for k in range(items):
            for rnd in range(1, 31):
                mean = 100 + 7 * k + rng.normal(0, 1)
                rows.append(
                    {"variant": v, "series": "price", "item": f"place{k}", "round": rnd, "mean": mean}
                    | {"mean_lo": mean - 2, "mean_hi": mean + 2, **{f"q{q}": mean for q in (10, 25, 50, 75, 90)}}
                    | COMMON
                )
    return pl.DataFrame(rows)


def _distribution() -> pl.DataFrame:
    rows = []
    for i, v in enumerate(VARIANTS):
        for b in range(0, 60, 2):
            frac = float(np.exp(-((b - 30 - i) ** 2) / 120))
            rows.append(
                {"variant": v, "column": "score", "width": 2, "bin": b, "fraction": frac / 12}
                | {"mean": 30.0 + i, "mean_lo": 29.5 + i, "mean_hi": 30.5 + i, **COMMON}
            )
    return pl.DataFrame(rows)


def _leader() -> pl.DataFrame:
    rows = []
    for i, v in enumerate(VARIANTS):
        for rnd in range(1, 8):
            w = 0.3 + 0.09 * rnd + 0.005 * i
            rows.append({"variant": v, "round": rnd, "leader_wins": w, "leader_wins_lo": w - 0.04} | COMMON)
            rows[-1]["leader_wins_hi"] = w + 0.04
    return pl.DataFrame(rows)


def _variance() -> pl.DataFrame:
    shares = {"seat": 0.02, "bot": 0.05, "seat_bot": 0.01, "chance": 0.92}
    return pl.DataFrame(
        [
            {"variant": v, "component": c, "share": s, "share_lo": s - 0.005, "share_hi": s + 0.005}
            | {"outcome": "score", **COMMON}
            for v in VARIANTS
            for c, s in shares.items()
        ]
    )


CHARTS = {
    "seat win shares": lambda: charts.seat_win_shares(_seats()),
    "compensation curve": lambda: charts.compensation_curve(_compensation()),
    "card value forest": lambda: charts.card_value_forest(_cards()),
    "market, few lines": lambda: charts.market_trajectories(_trajectories(3, 2), "price"),
    "market, many lines": lambda: charts.market_trajectories(_trajectories(14, 2), "price"),
    "market, many variants": lambda: charts.market_trajectories(_trajectories(3, 4), "price"),
    "distribution": lambda: charts.distribution(_distribution()),
    "leader curve": lambda: charts.leader_curve(_leader()),
    "variance shares": lambda: charts.variance_shares(_variance()),
}


def _apart(a: Bbox, b: Bbox) -> bool:
    return a.x0 >= b.x1 or a.x1 <= b.x0 or a.y0 >= b.y1 or a.y1 <= b.y0


def _panels(fig: Figure) -> list:
    """The axes that draw data (a caption row or a hidden spare panel draws none)."""
    return [ax for ax in fig.axes if ax.get_visible() and ax.axison]


def _legends(fig: Figure) -> list:
    return [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]


@pytest.mark.parametrize("name", list(CHARTS))
def test_legends_are_off_the_data(name):
    fig = CHARTS[name]()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = _legends(fig)
    assert legends, f"{name}: its series have no key"
    figure_box = fig.bbox
    for legend in legends:
        box = legend.get_window_extent(renderer)
        for ax in _panels(fig):
            plot = ax.get_window_extent(renderer)
            assert _apart(box, plot), f"{name}: the legend {box} lies on the data area {plot}"
        assert box.x0 >= figure_box.x0 - 1 and box.x1 <= figure_box.x1 + 1, f"{name}: legend cut off the figure"


def _lines_per_panel(fig: Figure) -> int:
    return max(sum(1 for line in ax.lines if len(line.get_xdata())) for ax in _panels(fig))


def test_many_market_series_are_small_multiples_on_one_scale():
    fig = charts.market_trajectories(_trajectories(14, 2), "price")
    panels = _panels(fig)
    assert len(panels) == 14  # one panel per item
    assert [ax.get_title() for ax in panels] == [f"place{k}" for k in range(14)]
    assert _lines_per_panel(fig) <= charts.MAX_SERIES_PER_PANEL
    spans = {round(ax.get_ylim()[1] - ax.get_ylim()[0], 6) for ax in panels}
    assert len(spans) == 1, f"the panels draw on different scales: {spans}"
    assert len({ax.get_xlim() for ax in panels}) == 1  # one round axis
    data = _trajectories(14, 2)
    for k, ax in enumerate(panels):  # every panel contains its own item's lines and bands
        e = data.filter(pl.col("item") == f"place{k}")
        lo, hi = ax.get_ylim()
        assert lo <= e["mean_lo"].min() and e["mean_hi"].max() <= hi
    legend_labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend_labels == list(VARIANTS[:2])
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert any("400 games per point" in t for t in texts)  # the caption is kept


def test_a_few_market_series_stay_in_one_panel():
    fig = charts.market_trajectories(_trajectories(3, 2), "price")
    assert len(_panels(fig)) == 1 and _lines_per_panel(fig) == 6


def test_p_value_in_the_seat_legend_reads_as_a_phrase():
    fig = charts.seat_win_shares(_seats())
    labels = [t.get_text().replace("\n", " ").replace("\u00a0", " ") for t in fig.axes[0].get_legend().get_texts()]
    assert any("p < 0.001" in label for label in labels), labels
    assert not any("p = 1e-15" in label or "= <" in label for label in labels)


def test_legend_numbers_that_round_to_zero_have_no_sign():
    comp = _compensation()
    comp.fit = comp.fit.with_columns(fair_offset=pl.lit(-0.001), fair_lo=pl.lit(-0.6), fair_hi=pl.lit(0.004))
    labels = [t.get_text() for t in charts.compensation_curve(comp).axes[0].get_legend().get_texts()]
    fair = next(label for label in labels if label.startswith("fair offset"))
    assert "0.00" in fair and "−0.00" not in fair and "-0.00" not in fair and "+0.00" not in fair, fair
    dist = _distribution().with_columns(mean=pl.lit(-0.01), mean_lo=pl.lit(-0.04), mean_hi=pl.lit(0.02))
    labels = [t.get_text() for t in charts.distribution(dist).axes[0].get_legend().get_texts()]
    assert all("−0.0" not in label and "-0.0" not in label for label in labels), labels


def test_the_card_value_chart_says_the_games_noun():
    """Pantheon's forest of gods is titled and noted in gods, never "card"."""
    fig = charts.card_value_forest(_cards(), noun="god", nouns="gods")
    texts = [fig.axes[0].get_title(), *(t.get_text() for t in fig.texts), *(t.get_text() for t in fig.axes[0].texts)]
    joined = " ".join(texts)
    assert "Value of one extra god at setup" in joined
    assert "card" not in joined
