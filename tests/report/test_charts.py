"""The charts' honesty: axes that span their own data with a minimum range, linear shares, one colour per
variant across a report, captions that never repeat their title or themselves (issue 17, item 9)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from matplotlib.colors import to_hex, to_rgba_array
from matplotlib.figure import Figure

import simlab
from simlab.report import build_report, charts
from simlab.report.context import Context


def _trajectories(series: str, level: float, noise: float, variants: tuple[str, ...] = ("rulebook",)) -> pl.DataFrame:
    """A market frame as ``market_trajectories`` gives it: three items over 7 rounds, ``level`` ± ``noise``."""
    rng = np.random.default_rng(7)
    rows = []
    for v in variants:
        for item in ("pink", "orange", "purple"):
            for rnd in range(1, 8):
                mean = level + noise * rng.uniform(-1, 1)
                rows.append(
                    {
                        "variant": v,
                        "series": series,
                        "item": item,
                        "round": rnd,
                        "games": 10_000,
                        "bots": "trader, priest",
                        "mean": mean,
                        "mean_lo": mean - noise / 4,
                        "mean_hi": mean + noise / 4,
                        **{f"q{q}": round(mean) for q in (10, 25, 50, 75, 90)},
                    }
                )
    return pl.DataFrame(rows)


def _drawn_y(fig: Figure) -> np.ndarray:
    """Every y value the chart's lines draw (the data, not the legend's empty handles)."""
    ax = fig.axes[0]
    return np.concatenate([np.asarray(line.get_ydata(), dtype=float) for line in ax.lines if len(line.get_ydata())])


def test_flat_price_axis_spans_at_least_one_unit_and_contains_the_data():
    # the issue: prices sitting at 2.00 ± 0.02 were drawn on a 1.98–2.02 axis, noise as zig-zag bands
    data = _trajectories("price", 2.0, 0.02, ("rulebook", "quined2014"))
    fig = charts.market_trajectories(data, "price")
    lo, hi = fig.axes[0].get_ylim()
    assert hi - lo >= 1.0 - 1e-9  # one coin, the price grid's step
    band = np.concatenate([data["mean_lo"].to_numpy(), data["mean_hi"].to_numpy(), _drawn_y(fig)])
    assert lo <= band.min() and band.max() <= hi
    assert lo >= 0  # a price axis never reaches below zero


def test_axis_minimum_grows_with_the_level_and_wide_data_keep_their_own_span():
    high = charts.market_trajectories(_trajectories("supply", 40.0, 0.3), "supply", stat="mean")
    lo, hi = high.axes[0].get_ylim()
    assert hi - lo >= 0.2 * 40.0 - 1e-9 and lo <= 39.7 and hi >= 40.3  # ±10% of the level
    wide = _trajectories("demand", 2.0, 1.0)
    lo, hi = charts.market_trajectories(wide, "demand").axes[0].get_ylim()
    data_lo, data_hi = float(wide["mean_lo"].min()), float(wide["mean_hi"].max())
    assert lo <= data_lo and data_hi <= hi
    assert hi - lo <= 1.1 * (data_hi - data_lo) + 1e-9  # no widening beyond the 5% margins


def test_span_limits_rule():
    assert charts.span_limits([2.0, 2.0], 1.0) == pytest.approx((1.5, 2.5))
    assert charts.span_limits([0.0, 0.1], 1.0) == pytest.approx((0.0, 1.0))  # shifted up, never below zero
    assert charts.span_limits([-1.0, 3.0], 1.0) == pytest.approx((-1.2, 3.2))  # wide enough: 5% margins only
    assert charts.span_limits([None, float("nan")], 1.0) == (0.0, 1.0)


def test_market_legend_is_outside_the_data():
    fig = charts.market_trajectories(_trajectories("price", 2.0, 0.02, ("a", "b")), "price")
    fig.canvas.draw()
    ax = fig.axes[0]
    legend, plot = ax.get_legend().get_window_extent(), ax.get_window_extent()
    assert legend.x0 >= plot.x1 or legend.y1 <= plot.y0 or legend.y0 >= plot.y1  # never over the axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["pink", "orange", "purple", "a", "b"]  # items by colour, variants by line style


def _variance(shares: dict[str, float], variants: tuple[str, ...] = ("rulebook",)) -> pl.DataFrame:
    rows = [
        {
            "variant": v,
            "component": c,
            "share": s,
            "share_lo": max(s - 0.002, 0.0),
            "share_hi": s + 0.002,
            "outcome": "score",
            "games": 400,
            "bots": "trader, priest",
            "interval": "batch means",
        }
        for v in variants
        for c, s in shares.items()
    ]
    return pl.DataFrame(rows)


def test_score_decomposition_is_linear_from_0_to_100_percent():
    shares = {"seat": 0.003, "bot": 0.02, "seat_bot": 0.007, "chance": 0.97}
    fig = charts.variance_shares(_variance(shares))
    ax = fig.axes[0]
    assert ax.get_yscale() == "linear"
    assert ax.get_ylim() == pytest.approx((0.0, 100.0))
    heights = {t.get_text(): p.get_height() for t, p in zip(ax.get_xticklabels(), ax.patches, strict=True)}
    assert heights["chance"] / heights["seat"] == pytest.approx(0.97 / 0.003)  # honest proportions
    labels = [t.get_text() for t in ax.texts if t.get_text().endswith("%")]
    assert "0.30%" in labels and "97.0%" in labels  # the small shares stay readable


def _variant_colours(fig: Figure, variants: list[str]) -> dict[str, str]:
    """Variant → colour of its legend entry (entries named by the variant, possibly with a suffix); the
    market charts' variant entries are line-style keys in a neutral colour (their colours are the items')."""
    legend = fig.axes[0].get_legend()
    if legend is None:
        return {}
    found = {}
    for handle, text in zip(legend.legend_handles, legend.get_texts(), strict=True):
        label = text.get_text()
        named = [v for v in variants if label == v or re.match(re.escape(v) + r"[ :(]", label)]
        colour = np.asarray(
            to_rgba_array(handle.get_color() if hasattr(handle, "get_color") else handle.get_facecolor())
        )
        colour = colour[0] if len(colour) else None  # a line collection's colour array, a line's one colour
        if named and colour is not None and to_hex(colour) != to_hex(charts.STYLE_KEY_COLOUR):
            found[max(named, key=len)] = to_hex(colour)
    return found


def test_palette_keeps_a_variant_colour_when_a_chart_shows_other_variants_or_another_order():
    palette = charts.VariantPalette.of(["a", "b", "c"])
    shares = {"seat": 0.01, "bot": 0.02, "seat_bot": 0.01, "chance": 0.96}
    first = charts.variance_shares(_variance(shares, ("a", "b", "c")), palette=palette)
    second = charts.variance_shares(_variance(shares, ("c", "b")), palette=palette)
    one, two = _variant_colours(first, ["a", "b", "c"]), _variant_colours(second, ["a", "b", "c"])
    assert len(set(one.values())) == 3
    assert two == {v: one[v] for v in ("c", "b")}
    with pytest.raises(KeyError, match="'d' has no colour"):
        palette.colour("d")


@pytest.fixture(scope="module")
def quick_figures(quick_folder: Path):
    """The quick report (3 variants) with the figure behind each of its charts."""
    drawn: list[tuple[str, Figure]] = []
    chart = Context.chart

    def keep(ctx, fig, title, caption):
        drawn.append((title, fig))
        return chart(ctx, fig, title, caption)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Context, "chart", keep)
        report = build_report(quick_folder)
    return report, drawn, [v["name"] for v in simlab.load_manifest(quick_folder)["variants"]]


def test_each_variant_has_one_colour_across_the_report(quick_figures):
    _report, drawn, variants = quick_figures
    assert len(variants) >= 3
    seen: dict[str, dict[str, str]] = {}
    for title, fig in drawn:
        for v, colour in _variant_colours(fig, variants).items():
            seen.setdefault(v, {})[title] = colour
    assert set(seen) == set(variants)
    for v, by_chart in seen.items():
        assert len(by_chart) >= 3, f"{v} is coloured in only {sorted(by_chart)}"
        assert len(set(by_chart.values())) == 1, f"{v} changes colour between charts: {by_chart}"
    assert len({next(iter(c.values())) for c in seen.values()}) == len(variants)  # and no two variants share one


def _no_repeats(title: str, caption: str) -> None:
    assert title.casefold() not in caption.casefold(), f"caption repeats its title {title!r}: {caption}"
    sentences = [s.strip().casefold() for s in re.split(r"(?<=[.!?])\s+", caption) if s.strip()]
    assert len(sentences) == len(set(sentences)), f"caption repeats a sentence: {caption}"


def test_no_caption_repeats_its_title_or_itself(quick_figures, cards_folder):
    report, drawn, _variants = quick_figures
    cards = build_report(cards_folder)
    shown = [c for r in (report, cards) for s in r.sections for c in s.charts]
    assert len(shown) >= 10
    for c in shown:
        _no_repeats(c.title, c.caption)
    for _title, fig in drawn:  # the caption drawn under the axes, too
        ax = fig.axes[0]
        under = " ".join(t.get_text().replace("\n", " ") for t in ax.texts if t.get_text().count(" ") > 3)
        _no_repeats(ax.get_title(), under)


def test_without_repeats():
    text = "Demand markers by round. Demand markers by round. Games: 10 per variant. Games: 10 per variant."
    assert charts.without_repeats(text) == "Demand markers by round. Games: 10 per variant."
    assert charts.without_repeats(text, "Demand markers by round") == "Games: 10 per variant."
