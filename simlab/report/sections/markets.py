"""The markets section: how prices and demand move round by round, how often an item's demand collapses,
what a unit sold brings, and who does well when the market shifts (for games that declare a market)."""

from __future__ import annotations

import polars as pl

from simlab.analysis import stats
from simlab.analysis.market_pass import market_summary, market_summary_from_partial
from simlab.analysis.markets import MARKET, no_market_message
from simlab.report import charts
from simlab.report import fmt as F
from simlab.report.context import Context, bots_of, games_label, ordered_by, seat_name
from simlab.report.model import Finding, Section, Table
from simlab.report.sections import register
from simlab.report.selection_text import collapse_most


@register("markets", "markets", order=30)
def markets_section(ctx: Context) -> tuple[Section | None, str]:
    rows = ctx.focus_rows()
    if not ctx.roles.has(*MARKET):
        return None, f"Markets: {no_market_message(ctx.roles)}."
    sec = Section(
        "markets",
        "Markets",
        "How do prices and demand move round by round, how often does an item's demand "
        "collapse, and who does well when the market shifts?",
    )
    # one pass over the rows for the four analyses (market columns repeat on every seat's row, so
    # separate scans would decode them four times); trajectories only of the series the report draws
    partial = ctx.partial("market")
    markets = (
        market_summary_from_partial(partial, level=ctx.level, bots=ctx.bots())
        if partial is not None
        else market_summary(rows, level=ctx.level, series=("marker", "price"))
    )
    traj = markets.trajectories.filter(pl.col("variant").is_in(ctx.focus))
    games = games_label(traj["games"].to_list())
    for series, title, what in (
        ("marker", "Demand by round", "Mean demand level of each item, round by round"),
        ("price", "Prices by round", "Mean price at each location, round by round"),
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
                f"{prefix} demand for {r['colour']} falls to the floor in "
                f"{F.pct_ci(r['collapse_rate'], r['collapse_rate_lo'], r['collapse_rate_hi'])} of games"
                f"{recover} (n={F.count(r['games'])}; {collapse_most(d, ctx.level)}).",
                "info",
            )
        )
    sec.tables.append(
        Table(
            "Demand falling to the floor (collapse) and climbing back (recovery)",
            ["variant", "item", "games", "collapse %", "recover % (of collapses)", "first collapse round"],
            [
                [
                    r["variant"],
                    r["colour"],
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
        yields = ordered_by(markets.sale_yield, ctx.focus)
        for r in yields.iter_rows(named=True):
            prefix = f"In {r['variant']}, a" if many else "A"
            money = F.est_ci(r["money_per_cube"], r["money_per_cube_lo"], r["money_per_cube_hi"], places=2)
            points = F.est_ci(r["points_per_cube"], r["points_per_cube_lo"], r["points_per_cube_hi"], places=2)
            sec.findings.append(
                Finding(
                    f"{prefix} unit sold brings {money} {ctx.units.money_plural} and {points}"
                    f" {ctx.units.points_plural}; a seat sells "
                    f"{F.est_ci(r['cubes_per_seat'], r['cubes_per_seat_lo'], r['cubes_per_seat_hi'])} "
                    "units a game.",
                    "info",
                    headline=False,
                )
            )
        sec.tables.append(
            Table(
                f"Realised {ctx.units.money_plural} and {ctx.units.points_plural} per unit sold",
                [
                    "variant",
                    f"{ctx.units.money_label} per unit",
                    f"{ctx.units.points_label} per unit",
                    "units sold per seat",
                ],
                [
                    [
                        r["variant"],
                        F.est_ci(r["money_per_cube"], r["money_per_cube_lo"], r["money_per_cube_hi"], places=3),
                        F.est_ci(r["points_per_cube"], r["points_per_cube_lo"], r["points_per_cube_hi"], places=3),
                        F.est_ci(r["cubes_per_seat"], r["cubes_per_seat_lo"], r["cubes_per_seat_hi"], places=1),
                    ]
                    for r in yields.iter_rows(named=True)
                ],
                note="Ratio of totals with a delta-method interval.",
            )
        )
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
