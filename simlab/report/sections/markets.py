"""The markets section: how prices and demand move round by round, how often a good's demand collapses,
what a unit sold brings, and who does well when the market shifts (for games that declare a market)."""

from __future__ import annotations

import polars as pl

from simlab.analysis import stats
from simlab.analysis.market_pass import market_summary, market_summary_from_partial
from simlab.analysis.markets import MARKET
from simlab.core.facts import item_axis
from simlab.report import charts
from simlab.report import fmt as F
from simlab.report.context import Context, bots_of, games_label, ordered_by, seat_name
from simlab.report.model import Finding, Section, Table
from simlab.report.sections import register
from simlab.report.selection_text import collapse_most
from simlab.report.words import not_recorded


@register("markets", "markets", order=30)
def markets_section(ctx: Context) -> tuple[Section | None, str]:
    rows = ctx.focus_rows()
    if not ctx.roles.has(*MARKET):
        return None, f"Markets: not in these results ({not_recorded(ctx.roles.missing(*MARKET))})."
    goods, places = market_word(ctx, "market.demand"), market_word(ctx, "market.price")
    sec = Section(
        "markets",
        "Markets",
        "How do prices and demand move round by round, how often does demand collapse, and who does well "
        "when the market shifts?",
    )
    # one pass over the rows for the four analyses (market columns repeat on every seat's row, so
    # separate scans would decode them four times); trajectories only of the series the report draws
    partial = ctx.partial("market")
    markets = (
        market_summary_from_partial(partial, level=ctx.level, bots=ctx.bots())
        if partial is not None
        else market_summary(rows, level=ctx.level, series=("demand", "price"))
    )
    traj = markets.trajectories.filter(pl.col("variant").is_in(ctx.focus))
    games = games_label(traj["games"].to_list())
    for series, title, what in (
        ("demand", "Demand by round", f"Mean demand level by {goods}, round by round"),
        ("price", "Prices by round", f"Mean price by {places}, round by round"),
    ):
        what += ", one line style per variant" if len(ctx.focus) > 1 else ""
        if traj.filter(pl.col("series") == series).is_empty():
            continue
        fig = charts.market_trajectories(traj, series, level=ctx.level, units=ctx.units, palette=ctx.palette)
        caption = ctx.caption(what, games, bots_of(traj), stats.MEAN_METHOD, ctx.focus)
        sec.charts.append(ctx.chart(fig, title, caption))
    coll = ordered_by(markets.collapses, ctx.focus)
    many = len(ctx.focus) > 1
    for (v,), d in coll.group_by("variant", maintain_order=True):
        d = d.sort("collapse_rate", descending=True)
        r = d.row(0, named=True)
        prefix = f"In {v}, the" if many else "The"
        recover = (
            ""
            if F.missing(r["recover_rate"])
            else f" and climbs back in {F.pct_ci(r['recover_rate'], r['recover_rate_lo'], r['recover_rate_hi'])}"
            " of those"
        )
        sec.findings.append(
            Finding(
                f"{prefix} demand for {r['item']} falls to the floor in "
                f"{F.pct_ci(r['collapse_rate'], r['collapse_rate_lo'], r['collapse_rate_hi'])} of games"
                f"{recover} (n={F.count(r['games'])}; {collapse_most(d, ctx.level, goods)}).",
                "info",
            )
        )
    sec.tables.append(
        Table(
            "Demand falling to the floor (collapse) and climbing back (recovery)",
            ["variant", goods, "games", "collapse %", "recover % (of collapses)", "first collapse round"],
            [
                [
                    r["variant"],
                    r["item"],
                    F.count(r["games"]),
                    F.est_ci(r["collapse_rate"], r["collapse_rate_lo"], r["collapse_rate_hi"], 100),
                    F.est_ci(r["recover_rate"], r["recover_rate_lo"], r["recover_rate_hi"], 100),
                    F.est_ci(r["first_round"], r["first_round_lo"], r["first_round_hi"], places=1),
                ]
                for r in coll.iter_rows(named=True)
            ],
            note=f"{stats.WILSON_METHOD}s; first collapse round: {stats.MEAN_METHOD} over the games that collapse.",
        )
    )
    if markets.sale_yield is not None:
        _add_yields(ctx, sec, ordered_by(markets.sale_yield, ctx.focus), many)
    shift = ordered_by(markets.shift_winners, ctx.focus)
    sec.tables.append(
        Table(
            "Correlational: win share in turbulent vs calm games",
            [
                "variant",
                "seat",
                "turbulent games",
                "calm games",
                "win % turbulent",
                "win % calm",
                "difference (points)",
            ],
            [
                [
                    r["variant"],
                    seat_name(r["seat"]),
                    F.count(r["games_turbulent"]),
                    F.count(r["games_calm"]),
                    F.pct(r["win_share_turbulent"]),
                    F.pct(r["win_share_calm"]),
                    F.est_ci(r["diff"], r["diff_lo"], r["diff_hi"], 100, sign=True),
                ]
                for r in shift.iter_rows(named=True)
            ],
            note="Turbulent: more round ends with a demand at the floor than the variant's median game. Correlational "
            "(Welch interval): it says which seat does well when the market shifts hard, not that the shift "
            "caused it; compare variants that change the market on the same seeds for that.",
            collapsed=True,
        )
    )
    return sec, ""


def market_word(ctx: Context, role: str) -> str:
    """The game's word for the items of a market role: the axis its facts declare (goods, location, culture)."""
    entries = ctx.roles.entries(role)
    return (item_axis(entries[0]) if entries else None) or "market"


def _add_yields(ctx: Context, sec: Section, yields: pl.DataFrame, many: bool) -> None:
    """What a unit sold brings, in money and (when sales earn any in this game) points, and units sold a seat."""
    units = ctx.units
    earns_points = not all(
        r["points_per_cube"] == 0 and r["points_per_cube_hi"] == 0 for r in yields.iter_rows(named=True)
    )
    for r in yields.iter_rows(named=True):
        prefix = f"In {r['variant']}, a" if many else "A"
        money = F.est_ci(r["money_per_cube"], r["money_per_cube_lo"], r["money_per_cube_hi"], places=2)
        points = F.est_ci(r["points_per_cube"], r["points_per_cube_lo"], r["points_per_cube_hi"], places=2)
        brings = f"{money} {units.money_plural}" + (f" and {points} {units.points_plural}" if earns_points else "")
        sold = F.est_ci(r["cubes_per_seat"], r["cubes_per_seat_lo"], r["cubes_per_seat_hi"])
        sec.findings.append(
            Finding(f"{prefix} unit sold brings {brings}; a seat sells {sold} units a game.", "info", headline=False)
        )
    header = ["variant", f"{units.money_label} per unit"]
    header += [f"{units.points_label} per unit"] if earns_points else []
    rows = []
    for r in yields.iter_rows(named=True):
        row = [r["variant"], F.est_ci(r["money_per_cube"], r["money_per_cube_lo"], r["money_per_cube_hi"], places=3)]
        if earns_points:
            row.append(F.est_ci(r["points_per_cube"], r["points_per_cube_lo"], r["points_per_cube_hi"], places=3))
        row.append(F.est_ci(r["cubes_per_seat"], r["cubes_per_seat_lo"], r["cubes_per_seat_hi"], places=1))
        rows.append(row)
    sec.tables.append(
        Table(
            f"Realised {units.money_plural}"
            + (f" and {units.points_plural}" if earns_points else "")
            + " per unit sold",
            [*header, "units sold per seat"],
            rows,
            note="Ratio of totals with a delta-method interval."
            + ("" if earns_points else f" Sales earn no {units.points_plural} in these games."),
        )
    )
