"""The general balance section: game length, margin of victory, shared wins, how early a game is decided and
how much of the score is luck, for every game."""

from __future__ import annotations

from typing import Any

import polars as pl

from simlab import analysis as A
from simlab.analysis import stats
from simlab.analysis.digest import BIN_WIDTH
from simlab.analysis.score_distribution import cluster_partial, merge_histogram
from simlab.report import charts
from simlab.report import fmt as F
from simlab.report.context import Context, bots_of, games_label, ordered_by
from simlab.report.model import Finding, Section, Table
from simlab.report.sections import register
from simlab.report.words import not_recorded


@register("balance", "general balance", order=40)
def balance_section(ctx: Context) -> tuple[Section | None, str]:
    rows = ctx.focus_rows()
    sec = Section(
        "balance",
        "General balance metrics",
        "How long is a game, how close, how often shared, how early decided, and how much of it is luck?",
    )
    many = len(ctx.focus) > 1
    partial = ctx.partial("metrics")
    summary, lead = (
        A.game_metrics_from_partial(partial, ctx.level, ctx.bots())
        if partial is not None
        else A.game_metrics(rows, level=ctx.level)
    )  # one pass over the games for both
    summary = ordered_by(summary, ctx.focus)
    for r in summary.iter_rows(named=True):
        prefix = f"In {r['variant']}, a" if many else "A"
        sec.findings.append(
            Finding(
                f"{prefix} game lasts {F.est_ci(r['turns'], r['turns_lo'], r['turns_hi'], places=1)} turns on average; "
                f"the winner is {F.est_ci(r['margin'], r['margin_lo'], r['margin_hi'], places=2)} points ahead of the "
                f"runner-up, and {F.pct_ci(r['draw_rate'], r['draw_rate_lo'], r['draw_rate_hi'])} of games end in a "
                f"shared win (n={F.count(r['games'])}).",
                "info",
                headline=False,
            )
        )
    sec.tables.append(
        Table(
            "Game length, margin of victory and shared wins",
            ["variant", "games", "turns", "margin (points)", "shared wins %"],
            [
                [
                    r["variant"],
                    F.count(r["games"]),
                    F.est_ci(r["turns"], r["turns_lo"], r["turns_hi"], places=1),
                    F.est_ci(r["margin"], r["margin_lo"], r["margin_hi"], places=2),
                    F.est_ci(r["draw_rate"], r["draw_rate_lo"], r["draw_rate_hi"], 100, places=2),
                ]
                for r in summary.iter_rows(named=True)
            ],
            note=f"{stats.MEAN_METHOD}; shared wins: {stats.WILSON_METHOD}.",
        )
    )
    if lead is None:
        sec.notes.append(f"No decisiveness figures: {not_recorded(['score.round'])}.")
    else:
        _add_lead(ctx, sec, ordered_by(lead, ctx.focus), many)
    cells = ctx.partial("variance")
    var = (
        A.variance_from_partial(cells, "score", ctx.level, ctx.bots(), ctx.partial("variance_games"))
        if cells is not None
        else A.variance_decomposition(rows, level=ctx.level)
    )
    var = ordered_by(var, ctx.focus)
    for (v,), d in var.group_by("variant", maintain_order=True):
        c = {r["component"]: r for r in d.iter_rows(named=True)}
        prefix = f"In {v}, chance" if many else "Chance"
        ch = c["chance"]
        sec.findings.append(
            Finding(
                f"{prefix} (dice, draws and all the bots do not control) accounts for "
                f"{F.pct_ci(ch['share'], ch['share_lo'], ch['share_hi'])} of the variance of the "
                f"{ch['outcome']}; the seat for {_share(c['seat'])}, the bot for {_share(c['bot'])} "
                f"(n={F.count(ch['games'])}).",
                "info",
                headline=not many,
            )
        )
    fig = charts.variance_shares(var, level=ctx.level, palette=ctx.palette)
    sec.charts.append(
        ctx.chart(
            fig,
            "What decides the score: seat, bot or chance",
            ctx.caption(
                "Shares of the score's variance due to seat, bot, seat × bot and chance",
                games_label(var["games"].to_list()),
                bots_of(var),
                stats.BATCH_METHOD,
                ctx.focus,
            ),
        )
    )
    sec.tables.append(
        Table(
            "How much of the score is luck? Shares of its variance (%)",
            ["variant", "component", "share %"],
            [
                [
                    r["variant"],
                    r["component"].replace("seat_bot", "seat × bot"),
                    F.est_ci(r["share"], r["share_lo"], r["share_hi"], 100, places=2),
                ]
                for r in var.iter_rows(named=True)
            ],
            note=f"ANOVA on the (seat, bot) cells; {stats.BATCH_METHOD}.",
            collapsed=True,
        )
    )
    for column, per_game, width in (("score", False, 2), ("turns", True, 2)):
        dist = _distribution(ctx, column, width, per_game)
        dist = ordered_by(dist, ctx.focus)
        fig = charts.distribution(dist, level=ctx.level, palette=ctx.palette)
        what = "Final scores (one per seat and game)" if column == "score" else "Game length in turns (one per game)"
        sec.charts.append(
            ctx.chart(
                fig,
                f"Distribution of {column}",
                ctx.caption(
                    what + f", bins of {width}",
                    games_label(dist["games"].to_list()),
                    bots_of(dist),
                    stats.MEAN_METHOD + " (the means in the legend)",
                    ctx.focus,
                ),
            )
        )
    return sec, ""


def _share(r: dict[str, Any]) -> str:
    return F.pct_ci(r["share"], r["share_lo"], r["share_hi"])


def _distribution(ctx: Context, column: str, width: float, per_game: bool) -> pl.DataFrame:
    """``distribution`` of the shown variants: the digest's bins merged into bins of ``width``, else a scan."""
    hist = ctx.partial(f"{column}_bins")
    if hist is None or width % BIN_WIDTH:
        return A.distribution(ctx.focus_rows(), column, width=width, per_game=per_game, level=ctx.level)
    games = (
        None
        if per_game
        else pl.DataFrame(
            {"variant": ctx.focus, "games": [ctx.games[v] for v in ctx.focus]},
            schema={"variant": pl.String, "games": pl.Int64},
        )
    )
    clusters = None
    if not per_game:  # the mean of per-seat values: its game-clustered interval needs the per-game sums
        clusters = ctx.partial(f"{column}_clusters")
        if clusters is None:
            clusters = cluster_partial(ctx.focus_rows(), column)
    return A.distribution_from_partial(
        merge_histogram(hist, width=width), column, width, games, level=ctx.level, bots=ctx.bots(), clusters=clusters
    )


def _add_lead(ctx: Context, sec: Section, lead: pl.DataFrame, many: bool) -> None:
    rounds = sorted(
        int(c.removeprefix("leader_wins_r")) for c in lead.columns if c.startswith("leader_wins_r") and c[-1].isdigit()
    )
    mid = rounds[(len(rounds) - 1) // 2] if rounds else None
    for r in lead.iter_rows(named=True):
        prefix = f"In {r['variant']}, the" if many else "The"
        if mid is not None:
            k = f"leader_wins_r{mid}"
            sec.findings.append(
                Finding(
                    f"{prefix} leader after round {mid} of {rounds[-1]} goes on to win "
                    f"{F.pm_pct(r[k], r[k + '_lo'], r[k + '_hi'])} of games; the eventual winner leads from round "
                    f"{F.est_ci(r['lead_from'], r['lead_from_lo'], r['lead_from_hi'])} on average, and "
                    "the lead changes hands "
                    f"{F.est_ci(r['lead_changes'], r['lead_changes_lo'], r['lead_changes_hi'])} times a "
                    f"game (n={F.count(r['games'])}).",
                    "info",
                    headline=not many,
                )
            )
    curve = A.leader_curve(lead)
    fig = charts.leader_curve(curve, level=ctx.level, palette=ctx.palette)
    sec.charts.append(
        ctx.chart(
            fig,
            "How early the game is decided",
            ctx.caption(
                "Chance that the seat leading after round K goes on to win",
                games_label(lead["games"].to_list()),
                bots_of(lead),
                stats.MEAN_METHOD,
                ctx.focus,
            ),
        )
    )
    sec.tables.append(
        Table(
            "Decisiveness: the leader's win chance (%) after each round",
            ["variant", *(f"r{k}" for k in rounds), "winner leads from round", "lead changes"],
            [
                [
                    r["variant"],
                    *(
                        F.est_ci(
                            r[f"leader_wins_r{k}"], r[f"leader_wins_r{k}_lo"], r[f"leader_wins_r{k}_hi"], 100, places=1
                        )
                        for k in rounds
                    ),
                    F.est_ci(r["lead_from"], r["lead_from_lo"], r["lead_from_hi"], places=2),
                    F.est_ci(r["lead_changes"], r["lead_changes_lo"], r["lead_changes_hi"], places=2),
                ]
                for r in lead.iter_rows(named=True)
            ],
            note=f"{stats.MEAN_METHOD}. Leader: the highest score after the round (ties: one of them at random).",
            collapsed=True,
        )
    )
