"""Small multiples of a market series: one panel per item when one chart would hold too many lines.

A market of 14 items in 2 variants drew 28 overlapping bands in one panel; drawn as a
grid of small panels (one per item, the variants in each) on one round axis and one y scale, every line is
readable and every gap between variants looks the same size in every panel. ``charts.market_trajectories``
calls it when the lines exceed ``charts.MAX_SERIES_PER_PANEL``.
"""

from __future__ import annotations

import textwrap

import numpy as np
import polars as pl
import seaborn as sns
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from simlab.report.charts import PANEL_COLUMNS, PANEL_SIZE, STYLE, VariantPalette, span_limits, without_repeats


def panel_limits(
    d: pl.DataFrame, items: list[str], cols: tuple[str, str, str], min_span: float
) -> list[tuple[float, float]]:
    """Each panel's y limits on one scale: every panel spans the same number of units (the widest panel's
    span), so a gap between variants or a drift looks the same size in every panel. When all items fit in
    that span together the panels share one range; otherwise each range sits on its own item's level."""
    values = {
        item: [*e[cols[0]].to_list(), *e[cols[1]].to_list(), *e[cols[2]].to_list()]
        for item in items
        for e in [d.filter(pl.col("item") == item)]
    }
    own = {item: span_limits(v, min_span) for item, v in values.items()}
    span = max(h - lo for lo, h in own.values())
    together = span_limits([x for v in values.values() for x in v], min_span)
    if together[1] - together[0] <= span * 1.25:
        return [together for _ in items]
    limits = []
    for item in items:
        lo, hi = own[item]
        mid = (lo + hi) / 2
        lo, hi = mid - span / 2, mid + span / 2
        if lo < 0 <= min((x for x in values[item] if x is not None and np.isfinite(x)), default=0.0):
            lo, hi = 0.0, span
        limits.append((lo, hi))
    return limits


def market_panels(
    d: pl.DataFrame,
    items: list[str],
    variants: list[str],
    palette: VariantPalette,
    cols: tuple[str, str, str],
    stat: str,
    min_span: float,
    ylabel: str,
    title: str,
    text: str,
) -> Figure:
    """Small multiples of a market series: one panel per item (named in its title), the variants in each as
    lines of their report colour and line style, a shared round axis and one y scale; the variants' key sits
    right of the panels, never on them."""
    lo, mid, hi = cols
    ncols = min(PANEL_COLUMNS, len(items))
    nrows = -(-len(items) // ncols)
    with sns.axes_style(STYLE):
        fig = Figure(figsize=(PANEL_SIZE[0] * ncols + 0.6, PANEL_SIZE[1] * nrows + 1.0), layout="constrained")
        FigureCanvasAgg(fig)
        # a last, flat row holds the caption: in the layout, so it takes its room under the panels
        gs = fig.add_gridspec(nrows + 1, ncols, height_ratios=[1.0] * nrows + [0.02])
        panels = [fig.add_subplot(gs[r, c]) for r in range(nrows) for c in range(ncols)]
        note = fig.add_subplot(gs[nrows, :])
    for ax in panels[1:]:
        ax.sharex(panels[0])
    limits = panel_limits(d, items, cols, min_span)
    many = len(variants) > 1
    for k, (ax, item) in enumerate(zip(panels, items, strict=False)):
        for v in variants:
            e = d.filter((pl.col("item") == item) & (pl.col("variant") == v)).sort("round")
            colour = palette.colour(v)
            style = palette.linestyle(v) if many else "-"
            ax.fill_between(
                e["round"], e[lo], e[hi], color=colour, alpha=0.15 if stat == "median" else 0.3, linewidth=0
            )
            ax.plot(e["round"], e[mid], color=colour, linestyle=style, linewidth=1.3, label=v)
        ax.set_ylim(*limits[k])
        ax.set_title(item, fontsize=8.5, pad=3)
        ax.tick_params(labelsize=7, pad=1)
        if k + ncols >= len(items):  # the lowest panel of its column: it carries the round axis
            ax.set_xlabel("round", fontsize=8)
        else:
            ax.tick_params(labelbottom=False)
    for ax in panels[len(items) :]:
        ax.set_visible(False)
    fig.supylabel(ylabel, fontsize=9)
    fig.suptitle(title, fontsize=11)
    if many:
        handles, labels = panels[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside right upper", fontsize=8)
    note.axis("off")
    note.text(
        0, 1, textwrap.fill(without_repeats(text, title), 115), va="top", ha="left", fontsize=7.5, color="#444444"
    )
    return fig
