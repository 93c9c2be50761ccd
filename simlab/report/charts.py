"""Charts: one function per chart, ``(data, ax=None) -> Figure``; they only draw.

Data preparation lives in ``simlab.analysis`` (tidy polars frames); a chart reads its columns and draws
with seaborn's styling. Figures are built with ``matplotlib.figure.Figure`` on the Agg canvas, never
through pyplot's global state, so charts work the same in scripts, tests, reports and notebooks (a
notebook displays the returned figure). Each chart writes a caption under its axes stating the games,
the bots and the interval method, so a chart copied out of context still says what it shows.

A chart that draws several variants takes a ``palette`` (``VariantPalette``): a report builds one from
the manifest's variant order and passes it to every chart, so a variant has one colour (and one line
style) across the report; without one a chart assigns colours in the order of its own data.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

import matplotlib.ticker
import numpy as np
import polars as pl
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from simlab.analysis.markets import SERIES_ALIASES, series_name
from simlab.analysis.ranks import rank_range
from simlab.core.facts import GENERIC_UNITS, Units
from simlab.report.fmt import ci, num, p_value

STYLE = "whitegrid"
PALETTE = "colorblind"
#: market items named after a colour (goods, price locations) drawn in that colour
ITEM_COLOURS = {"pink": "#e377c2", "orange": "#ff7f0e", "purple": "#9467bd", "beige": "#c8ad7f", "temple": "#555555"}
#: line styles of variants in charts whose colours mean something else (market items), and the neutral
#: colour of their legend keys (a variant has no colour there, only its line style)
LINE_STYLES = ("-", "--", ":", "-.")
STYLE_KEY_COLOUR = "#444444"
#: a market series' axis spans at least one whole unit: prices (the price grid's step is one coin),
#: demand levels and cube counts all move in whole steps, so a narrower axis shows only game-to-game noise
MIN_SPAN_UNITS = 1.0
#: ... and at least ±10% of the series' level (for series whose level is in the tens)
MIN_SPAN_RELATIVE = 0.2
#: a chart draws at most this many lines with bands in one panel; more (14 places × 2 variants) are drawn as
#: small multiples, one panel per item on a shared scale
MAX_SERIES_PER_PANEL = 6
#: small multiples: panels per row, and the size of one panel in inches
PANEL_COLUMNS = 4
PANEL_SIZE = (2.35, 1.75)


@dataclasses.dataclass(frozen=True)
class VariantPalette:
    """One colour and one line style per variant, fixed once from the manifest's variant order.

    A report builds it from all its variants (not only the shown ones) and passes it to every chart, so a
    variant keeps its colour when a chart shows a subset of the variants or lists them in another order.
    Colours cycle after the palette's 10, line styles after 4 (20 distinct pairs).
    """

    variants: tuple[str, ...]

    @classmethod
    def of(cls, variants: Iterable[str]) -> VariantPalette:
        """The palette of these variants, in this order (repeats dropped)."""
        return cls(tuple(dict.fromkeys(variants)))

    def _index(self, variant: str) -> int:
        try:
            return self.variants.index(variant)
        except ValueError:
            raise KeyError(
                f"variant {variant!r} has no colour: the palette holds {', '.join(self.variants) or 'no variants'}; "
                "build it from the manifest's variants (VariantPalette.of(names))"
            ) from None

    def order(self, variants: Iterable[str]) -> list[str]:
        """``variants`` in the palette's order, so every chart's legend lists them alike."""
        return sorted(variants, key=self._index)

    def colour(self, variant: str) -> tuple[float, float, float]:
        """The variant's colour (an RGB triple of the colour-blind-safe palette)."""
        colours = sns.color_palette(PALETTE)
        return colours[self._index(variant) % len(colours)]

    def linestyle(self, variant: str) -> str:
        """The variant's line style, for charts where colour marks something else."""
        return LINE_STYLES[self._index(variant) % len(LINE_STYLES)]


def _palette(data: pl.DataFrame, palette: VariantPalette | None) -> tuple[list[str], VariantPalette]:
    """The data's variants in the palette's order (legends list them alike in every chart) and the palette."""
    variants = data["variant"].unique(maintain_order=True).to_list()
    if palette is None:
        return variants, VariantPalette.of(variants)
    return palette.order(variants), palette


def span_limits(values: Iterable[float], min_span: float) -> tuple[float, float]:
    """Axis limits that contain every finite value with a 5% margin and span at least ``min_span``.

    A narrower span is widened about the data's middle; it is shifted up rather than reach below zero when
    no value is negative (prices and counts), so the axis never invents negative values.
    """
    v = np.asarray([x for x in values if x is not None], dtype=float)
    v = v[np.isfinite(v)]
    if not v.size:
        return 0.0, max(min_span, 1.0)
    lo, hi = float(v.min()), float(v.max())
    pad = 0.05 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    if hi - lo < min_span:
        mid = (lo + hi) / 2
        lo, hi = mid - min_span / 2, mid + min_span / 2
    if lo < 0 <= float(v.min()):
        lo, hi = 0.0, hi - lo
    return lo, hi


def _sentences(text: str) -> list[str]:
    return [t for t in re.split(r"(?<=[.!?])\s+", text.strip()) if t]


def _same(a: str, b: str) -> bool:
    return a.strip().rstrip(".!?").casefold() == b.strip().rstrip(".!?").casefold()


def without_repeats(text: str, title: str = "") -> str:
    """``text`` without a sentence that repeats the title or an earlier sentence.

    The report prints the title in bold before the caption, so a caption starting with the title read
    "Demand markers by round. Demand markers by round."; this is the guard every caption goes through.
    """
    kept: list[str] = []
    for sentence in _sentences(text):
        if (title and _same(sentence, title)) or any(_same(sentence, k) for k in kept):
            continue
        kept.append(sentence)
    return " ".join(kept)


#: a legend entry's label wraps at this many characters, so a long label does not squeeze the axes
LEGEND_LABEL_CHARS = 34


def _unbreakable(label: str) -> str:
    """``label`` with no line break inside "p < 0.001" or an interval "[29.5, 30.5]" (no-break spaces)."""
    label = re.sub(r"\bp ([<=]) ", "p\u00a0\\1\u00a0", label)
    return re.sub(r", (?=[−+\-]?\d)", ",\u00a0", label)


def _legend_outside(ax: Axes, **kwargs: Any) -> None:
    """The legend to the right of the axes, never over the data (constrained layout makes room for it); long
    labels wrapped onto a second line rather than narrowing the chart."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    labels = [textwrap.fill(_unbreakable(label), LEGEND_LABEL_CHARS, break_long_words=False) for label in labels]
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **kwargs)


def _axes(ax: Axes | None, size: tuple[float, float] = (7.5, 4.5)) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax
    with sns.axes_style(STYLE):
        fig = Figure(figsize=size, layout="constrained")
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
    return fig, ax


def _caption(ax: Axes, text: str) -> None:
    # offset in points below the axes, not a fraction of their height: the tick labels and the x label
    # take the same room in a short chart (a forest of 4 cards) as in a tall one
    ax.annotate(
        textwrap.fill(without_repeats(text, ax.get_title()), 115),
        xy=(0, 0),
        xycoords="axes fraction",
        xytext=(0, -36),
        textcoords="offset points",
        va="top",
        ha="left",
        fontsize=7.5,
        color="#444444",
        annotation_clip=False,
    )


def _first(data: pl.DataFrame, column: str, default: Any = "") -> Any:
    return data[column][0] if column in data.columns and data.height else default


def _games_text(data: pl.DataFrame) -> str:
    if "games" not in data.columns or not data.height:
        return "games: ?"
    lo, hi = int(data["games"].min()), int(data["games"].max())
    return f"{lo:,} games" if lo == hi else f"{lo:,}–{hi:,} games"


def caption(data: pl.DataFrame, what: str = "", level: float = 0.95) -> str:
    """The caption a chart writes: what is shown, games, bots and the interval method."""
    parts = [what] if what else []
    parts.append(f"{_games_text(data)} per point")
    bots = _first(data, "bots")
    if bots:
        parts.append(f"bots: {bots}")
    method = _first(data, "interval")
    if method:
        parts.append(f"bars: {level:.0%} {method}")
    return "; ".join(parts) + "."


def seat_win_shares(
    data: pl.DataFrame, ax: Axes | None = None, level: float = 0.95, palette: VariantPalette | None = None
) -> Figure:
    """Win share by seat, one colour per variant (``palette``), with intervals and the fair 1/N line.

    ``data``: ``simlab.analysis.seat_advantage(...)``.
    """
    fig, ax = _axes(ax)
    variants, palette = _palette(data, palette)
    width = 0.8 / max(len(variants), 1)
    for i, v in enumerate(variants):
        colour = palette.colour(v)
        d = data.filter(pl.col("variant") == v).sort("seat")
        x = d["seat"].to_numpy() + (i - (len(variants) - 1) / 2) * width
        y = d["win_share"].to_numpy() * 100
        err = np.vstack([y - d["win_share_lo"].to_numpy() * 100, d["win_share_hi"].to_numpy() * 100 - y])
        p = _first(d, "p_equal", None)
        label = f"{v} (all seats equal: {p_value(p)})" if p is not None else v
        ax.errorbar(x, y, yerr=err, fmt="o", capsize=4, color=colour, label=label)
    fair = _first(data, "fair_share", None)
    if fair is not None:
        ax.axhline(fair * 100, color="#666666", linestyle="--", linewidth=1, label=f"fair share (1/N = {fair:.0%})")
    seats = sorted(data["seat"].unique().to_list())
    ax.set_xticks(seats, [f"seat {s}" + (" (first)" if s == 0 else "") for s in seats])
    ax.set_ylabel("win share (%)")
    ax.set_xlabel("seat (turn order at the start)")
    ax.set_title("Win share by seat")
    _legend_outside(ax, fontsize=8)
    _caption(ax, caption(data, "Win share = wins with ties split", level))
    return fig


def compensation_curve(
    data: Any, ax: Axes | None = None, seat: int | None = None, units: Units = GENERIC_UNITS
) -> Figure:
    """Win share against starting-money offset: observed points, the fitted curve and band, the fair point.

    ``data``: ``simlab.analysis.compensation(...)`` (a Compensation). ``seat`` picks one of its seats.
    """
    fig, ax = _axes(ax)
    seats = data.fit["seat"].to_list()
    k = seat if seat is not None else seats[0]
    fit = data.fit.filter(pl.col("seat") == k).row(0, named=True)
    pts = data.points.filter(pl.col("seat") == k)
    cur = data.curve.filter(pl.col("seat") == k)
    c_fit, c_pts, c_fair = sns.color_palette(PALETTE, 3)
    ax.fill_between(
        cur["offset"], cur["win_share_lo"] * 100, cur["win_share_hi"] * 100, color=c_fit, alpha=0.2, linewidth=0
    )
    ax.plot(cur["offset"], cur["win_share"] * 100, color=c_fit, label="logistic fit (band: 95% pointwise)")
    y = pts["win_share"].to_numpy() * 100
    err = np.vstack([y - pts["win_share_lo"].to_numpy() * 100, pts["win_share_hi"].to_numpy() * 100 - y])
    ax.errorbar(pts["offset"], y, yerr=err, fmt="o", color=c_pts, capsize=3, label="observed")
    target = 100 / data.players
    ax.axhline(target, color="#666666", linestyle="--", linewidth=1, label=f"fair share 1/{data.players}")
    lo, hi = fit["fair_lo"], fit["fair_hi"]
    x_lo, x_hi = ax.get_xlim()
    if not (np.isfinite(lo) and np.isfinite(hi)):  # never a point estimate beside an unbounded interval
        from simlab.analysis.compensation import fit_undetermined

        ax.plot([], [], " ", label=f"fair offset {fit_undetermined(fit, data.level)}")
    else:
        _fair_point(ax, fit, target, lo, hi, x_lo, x_hi, c_fair, units)
    ax.set_xlabel(f"seat {k} starting money minus the others' mean ({units.money_label})")
    ax.set_ylabel(f"seat {k} win share (%)")
    ax.set_title(f"Compensating seat {k} with starting money")
    _legend_outside(ax, fontsize=8)
    _caption(ax, data.caption)
    return fig


def _fair_point(
    ax: Axes, fit: dict, target: float, lo: float, hi: float, x_lo: float, x_hi: float, colour: Any, units: Units
) -> None:
    """The fair offset and its (bounded) interval, clipped to the drawn range."""
    # clipped to the drawn range; a fair offset extrapolated beyond it gets no bar on that side (never < 0)
    ax.errorbar(
        [fit["fair_offset"]],
        [target],
        xerr=[[max(fit["fair_offset"] - max(lo, x_lo), 0.0)], [max(min(hi, x_hi) - fit["fair_offset"], 0.0)]],
        fmt="D",
        color=colour,
        capsize=5,
        markersize=7,
        label=f"fair offset {num(fit['fair_offset'], 2, True)} {ci(lo, hi, places=2, sign=True)} {units.money_plural}",
    )


def card_value_forest(
    data: pl.DataFrame,
    ax: Axes | None = None,
    level: float = 0.95,
    units: Units = GENERIC_UNITS,
    noun: str = "card",
    nouns: str = "cards",
) -> Figure:
    """Forest plot of card values: change in the granted seat's win share (bottom axis, points) and the
    same in the game's money (top axis, when a money price is in the data); adjusted significance marked.

    ``data``: ``simlab.analysis.card_value(...)``; ``noun``/``nouns``: the game's word for what is granted
    (card, god, item: ``Roles.noun()``).
    """
    d = data.sort("win_share_diff")
    fig, ax = _axes(ax, (7.5, 0.45 * d.height + 2.0))
    y = np.arange(d.height)
    x = d["win_share_diff"].to_numpy() * 100
    err = np.vstack([x - d["win_share_diff_lo"].to_numpy() * 100, d["win_share_diff_hi"].to_numpy() * 100 - x])
    c_card, c_money, c_obs = sns.color_palette(PALETTE, 3)
    kinds = d["kind"].to_list() if "kind" in d.columns else ["card"] * d.height
    colours = [c_money if k == "money" else c_card for k in kinds]
    for i in range(d.height):
        ax.errorbar(x[i], y[i], xerr=err[:, i : i + 1], fmt="o", color=colours[i], capsize=3)
    if "played_diff" in d.columns and d["played_diff"].drop_nulls().len():
        o = d["played_diff"].to_numpy() * 100
        ax.scatter(
            o,
            y - 0.25,
            marker="x",
            color=c_obs,
            s=25,
            label="played it at least once vs never (correlational, not a value)",
        )
    ax.axvline(0, color="#666666", linewidth=1)
    labels = []
    for r in d.iter_rows(named=True):
        star = (
            " *"
            if r.get("p_adjusted") is not None and r["p_adjusted"] == r["p_adjusted"] and r["p_adjusted"] < 1 - level
            else ""
        )
        rank = "  #" + rank_range(r["rank"], r["rank_lo"], r["rank_hi"]) if r.get("rank") is not None else ""
        labels.append(f"{r['label']}{star}{rank}")
    ax.set_yticks(y, labels)
    ax.set_xlabel("change in the granted seat's win share (percentage points)")
    ax.set_title(f"Value of one extra {noun} at setup", pad=12)
    undetermined = ""
    if "money" in d.columns and d["money"].drop_nulls().len():
        # the money axis only where the price is determined: never a scale whose rate's interval is unbounded
        priced = pl.col("money").is_not_null() & (pl.col("money").abs() > 1e-9)
        finite = pl.col("money_lo").is_not_null() & pl.col("money_lo").is_finite() & pl.col("money_hi").is_finite()
        ratio = d.filter(priced & finite)
        per_point = float((ratio["win_share_diff"] * 100 / ratio["money"]).median()) if ratio.height else 0.0
        if per_point > 0:
            top = ax.secondary_xaxis("top", functions=(lambda v: v / per_point, lambda s: s * per_point))
            top.set_xlabel(f"value in {units.money_plural} (priced as in the caption)")
        elif d.filter(priced & ~finite & pl.col("money_lo").is_not_null()).height:
            from simlab.report.fmt import undetermined as words

            r = d.filter(priced & ~finite & pl.col("money_lo").is_not_null()).row(0, named=True)
            undetermined = (
                f" No {units.money} axis: the price is {words(r.get('money_games'), r.get('money_more_games'))}."
            )
    _legend_outside(ax, fontsize=8)
    adj = _first(d, "adjustment", "holm")
    source = _first(d, "money_source", None)
    note = f"* significant after {'Holm' if adj == 'holm' else 'Benjamini–Hochberg'} adjustment over the {nouns}" + (
        f"; {units.money_plural} priced by {source}" if source else ""
    )
    if "rank" in d.columns and d["rank"].drop_nulls().len():
        note += f"; #rank (plausible ranks, simultaneous over the {nouns})"
    _caption(ax, caption(d, "Paired with a control on the same game seeds", level) + " " + note + "." + undetermined)
    return fig


#: what a market chart says of each series (its title word, its axis label): the words of the roles, which fit
#: every market (a price-tile market with demand markers, a token-stack one with demand levels)
MARKET_SERIES_WORDS = {
    "price": ("Prices", "price ({money})"),
    "demand": ("Demand", "demand level"),
    "bought": ("Units bought", "units bought in the round"),
    "sold": ("Units sold", "units sold in the round"),
    "supply": ("Units on offer", "units on offer"),
}


def market_trajectories(
    data: pl.DataFrame,
    series: str = "demand",
    ax: Axes | None = None,
    variant: str | None = None,
    stat: str | None = None,
    level: float = 0.95,
    units: Units = GENERIC_UNITS,
    palette: VariantPalette | None = None,
) -> Figure:
    """One market series by round (price, demand, bought, sold, supply: ``MARKET_SERIES_WORDS``), per item;
    an old series name (``marker``, ``harbour``) draws the same series under its current name and title.

    ``stat="median"`` draws the median with the 25–75% band across games (for cube counts, the default);
    ``stat="mean"`` draws the mean with its interval (the default for prices and demand levels, which take only
    the values 1–3, so their quantiles are steps that hide the movement). Every variant is drawn, one line
    style each (``palette``), so variants that change the market compare side by side; ``variant`` keeps one.
    Colours are the items' (a good named after a colour is drawn in it).

    The y-axis spans the chart's own lines and bands with a 5% margin, and at least ``MIN_SPAN_UNITS`` (one
    whole unit: the price grid's step of one coin, one demand level, one cube) or ``MIN_SPAN_RELATIVE`` of
    the series' level (±10%), whichever is wider; so a price that sits at 2 with noise of ±0.02 is drawn
    flat, not as zig-zag bands across the chart. The legend sits outside the axes, never over the data.

    More than ``MAX_SERIES_PER_PANEL`` lines (items × variants; 14 places × 2 variants drew 28 overlapping
    bands) are drawn as small multiples (unless ``ax`` is given): one panel per item, each variant in its
    report colour and line style, on a shared round axis and one y scale (``simlab.report.market_panels``).
    ``data``: ``simlab.analysis.market_trajectories(...)``.
    """
    series = series_name(series)
    d = data.with_columns(pl.col("series").replace(SERIES_ALIASES)).filter(pl.col("series") == series)
    if d.is_empty():
        raise ValueError(f"no {series!r} series in the data; series: {', '.join(data['series'].unique())}")
    stat = stat or ("mean" if series in ("price", "demand") else "median")
    if variant is not None:
        d = d.filter(pl.col("variant") == variant)
    variants, palette = _palette(d, palette)
    items = d["item"].unique(maintain_order=True).to_list()
    lo, mid, hi = ("q25", "q50", "q75") if stat == "median" else ("mean_lo", "mean", "mean_hi")
    level_of = float(np.nanmean(np.abs(d[mid].to_numpy()))) if d.height else 0.0
    min_span = max(MIN_SPAN_UNITS, MIN_SPAN_RELATIVE * level_of)
    title_word, ylabel = MARKET_SERIES_WORDS.get(series, (series.capitalize(), series))
    ylabel = ylabel.format(money=units.money_plural)
    what = (
        "Lines: median across games; band: 25–75% of games"
        if stat == "median"
        else f"Lines: mean across games; band: its {level:.0%} interval"
    )
    text = caption(d.with_columns(pl.lit("").alias("interval")), what, level)
    title = f"{title_word} by round" + (f" ({variants[0]})" if len(variants) == 1 else "")
    if ax is None and len(items) * len(variants) > MAX_SERIES_PER_PANEL:
        from simlab.report.market_panels import market_panels

        return market_panels(d, items, variants, palette, (lo, mid, hi), stat, min_span, ylabel, title, text)
    fig, ax = _axes(ax)
    fallback = sns.color_palette(PALETTE, len(items))
    many = len(variants) > 1
    for v in variants:
        style = palette.linestyle(v) if many else "-"
        for item, colour in zip(items, fallback, strict=True):
            e = d.filter((pl.col("item") == item) & (pl.col("variant") == v)).sort("round")
            col = ITEM_COLOURS.get(item, colour)
            ax.fill_between(e["round"], e[lo], e[hi], color=col, alpha=0.15 if stat == "median" else 0.3, linewidth=0)
            ax.plot(e["round"], e[mid], color=col, marker="o", markersize=4, linestyle=style)
    # one legend entry per item (its colour) and per variant (its line style), not one per pair
    for item, colour in zip(items, fallback, strict=True):
        ax.plot([], [], color=ITEM_COLOURS.get(item, colour), marker="o", markersize=4, label=item)
    if many:
        for v in variants:
            ax.plot([], [], color=STYLE_KEY_COLOUR, linestyle=palette.linestyle(v), label=v)
    ax.set_ylim(*span_limits([*d[lo].to_list(), *d[hi].to_list(), *d[mid].to_list()], min_span))
    ax.set_xlabel("round")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _legend_outside(ax, fontsize=7)
    _caption(ax, text)
    return fig


def distribution(
    data: pl.DataFrame,
    ax: Axes | None = None,
    label: str | None = None,
    level: float = 0.95,
    palette: VariantPalette | None = None,
) -> Figure:
    """Histogram (as fractions of rows) of a distribution, one step line per variant, with its mean.

    ``data``: ``simlab.analysis.distribution(results, column, width)`` (scores, turns, ...).
    """
    fig, ax = _axes(ax)
    column = _first(data, "column", "value")
    variants, palette = _palette(data, palette)
    for v in variants:
        colour = palette.colour(v)
        d = data.filter(pl.col("variant") == v).sort("bin")
        r = d.row(0, named=True)
        mean = f": mean {num(r['mean'], 1)} {ci(r['mean_lo'], r['mean_hi'])}" if "mean" in d.columns else ""
        ax.step(d["bin"], d["fraction"] * 100, where="post", color=colour, label=f"{v}{mean}")
        if "mean" in d.columns:
            ax.axvline(r["mean"], color=colour, linestyle=":", linewidth=1)
    names = {"score": "final score (points)", "turns": "game length (turns)"}
    ax.set_xlabel(label or names.get(column, column))
    ax.set_ylabel("share of rows (%)" if column != "turns" else "share of games (%)")
    ax.set_title(f"Distribution of {column}")
    _legend_outside(ax, fontsize=8)
    _caption(
        ax,
        caption(data, f"Bins of width {_first(data, 'width', 1):g}; dotted: means", level)
        .replace("per point", "per variant")
        .replace("bars:", "legend intervals:"),
    )
    return fig


def leader_curve(
    data: pl.DataFrame, ax: Axes | None = None, level: float = 0.95, palette: VariantPalette | None = None
) -> Figure:
    """Decisiveness: chance the leader after round K goes on to win, by round, per variant.

    ``data``: ``simlab.analysis.leader_curve(simlab.analysis.lead_metrics(...))``.
    """
    fig, ax = _axes(ax)
    variants, palette = _palette(data, palette)
    for v in variants:
        colour = palette.colour(v)
        d = data.filter(pl.col("variant") == v).sort("round")
        ax.fill_between(d["round"], d["leader_wins_lo"] * 100, d["leader_wins_hi"] * 100, color=colour, alpha=0.2)
        ax.plot(d["round"], d["leader_wins"] * 100, marker="o", color=colour, label=v)
    ax.set_xlabel("after round")
    ax.set_ylabel("leader's win chance (%)")
    ax.set_title("How early is the game decided?")
    _legend_outside(ax, fontsize=8)
    _caption(
        ax,
        caption(
            data.with_columns(pl.lit("normal interval of the mean").alias("interval")),
            "Leader = highest score after the round (ties: one of them at random)",
            level,
        ),
    )
    return fig


def variance_shares(
    data: pl.DataFrame, ax: Axes | None = None, level: float = 0.95, palette: VariantPalette | None = None
) -> Figure:
    """How much of the result is luck: shares of variance (seat, bot, seat×bot, chance) per variant.

    Bars on a linear 0–100% axis, so a bar's height is its share (a log-like axis made 0.3% look like half
    of 97%); each bar is labelled with its share, so the small ones stay readable.
    ``data``: ``simlab.analysis.variance_decomposition(...)``.
    """
    fig, ax = _axes(ax)
    comps = ["seat", "bot", "seat_bot", "chance"]
    variants, palette = _palette(data, palette)
    width = 0.8 / max(len(variants), 1)
    for i, v in enumerate(variants):
        d = data.filter(pl.col("variant") == v)
        vals = {r["component"]: r for r in d.iter_rows(named=True)}
        x = np.arange(len(comps)) + (i - (len(variants) - 1) / 2) * width
        y = np.array([vals[c]["share"] * 100 for c in comps])
        lo = np.array([vals[c]["share_lo"] * 100 for c in comps])
        hi = np.array([vals[c]["share_hi"] * 100 for c in comps])
        err = np.clip(np.vstack([y - lo, hi - y]), 0, None)
        bars = ax.bar(x, y, width=width, color=palette.colour(v), label=v, yerr=err, capsize=3)
        ax.bar_label(bars, labels=[_share_label(s) for s in y], padding=2, fontsize=7)
    ax.set_xticks(np.arange(len(comps)), ["seat", "bot", "seat × bot", "chance"])
    ax.set_yscale("linear")
    ax.set_ylim(0, 100)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(100, decimals=0))
    ax.set_ylabel("share of the variance")
    ax.set_title(f"What decides the {_first(data, 'outcome', 'score')}?")
    _legend_outside(ax, fontsize=8)
    _caption(ax, caption(data, "", level))
    return fig


def _share_label(share: float) -> str:
    """A bar's share in %: one decimal, two below 1% (0.30%), "<0.01%" for what rounds to nothing."""
    if not np.isfinite(share):
        return ""
    if abs(share) < 0.005:
        return "<0.01%" if share > 0 else "0%"
    return f"{share:.2f}%" if abs(share) < 1 else f"{share:.1f}%"


def save(fig: Figure, path: str, dpi: int = 120) -> str:
    """Write a chart to a file (PNG/SVG/PDF by extension), captions included.

    The file is written as every file a user names (``simlab.core.output``): a regular file only, through
    a symlink to its target, atomically. An unknown extension or an unusable path raises OutputError.
    """
    import io

    from simlab.core.output import check_chart_path, write_output

    ext = check_chart_path(path)
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, dpi=dpi, bbox_inches="tight")
    write_output(path, buf.getvalue(), "--chart", allow_stdout=False)
    return path


__all__: Sequence[str] = (
    "LINE_STYLES",
    "MIN_SPAN_RELATIVE",
    "MIN_SPAN_UNITS",
    "STYLE_KEY_COLOUR",
    "VariantPalette",
    "caption",
    "card_value_forest",
    "compensation_curve",
    "distribution",
    "leader_curve",
    "market_trajectories",
    "save",
    "seat_win_shares",
    "span_limits",
    "variance_shares",
    "without_repeats",
)
