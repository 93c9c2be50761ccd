"""The seats section: is the seat you start in worth something, does a variant change that, and (with money
variants, or another run's money sweep) how much starting money would make up for it."""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from simlab import analysis as A
from simlab.analysis import stats
from simlab.analysis.compensation import fit_undetermined, games_needed
from simlab.analysis.frames import AnalysisError
from simlab.analysis.sweep import money_sweep, not_a_sweep
from simlab.analysis.text import games_needed_text
from simlab.core.facts import Units
from simlab.report import charts
from simlab.report import fmt as F
from simlab.report.context import Context, bots_of, games_label, ordered, seat_name, sentence
from simlab.report.model import Finding, Section, Table
from simlab.report.sections import register
from simlab.report.words import not_recorded

#: per-variant comparisons are listed up to this many other variants
MAX_COMPARE = 6
#: at most this many swept seats get a compensation chart
MAX_COMPENSATION_CHARTS = 4


@register("seats", "seats and money", order=10)
def seats_section(ctx: Context) -> tuple[Section | None, str]:
    money = ctx.units.money_plural
    sec = Section(
        "seats",
        f"Seats and starting {money}" if ctx.money_knob() else "Seats",
        "Is the seat you start in worth something, does a variant change that"
        + (f", and how many starting {money} would make up for it?" if ctx.money_knob() else "?"),
    )
    rows = ctx.focus_rows()
    seats = _seat_advantage(ctx, ctx.focus)
    seats = ordered(seats, ctx.focus)
    comp = _compensation(ctx)
    fair_by_seat: dict[int, dict[str, Any]] = {}
    if comp is not None:
        fair_by_seat = {r["seat"]: r for r in comp.fit.iter_rows(named=True)}
    many = len(ctx.focus) > 1
    for (v,), d in seats.group_by("variant", maintain_order=True):
        fair = fair_by_seat if v == ctx.base else {}
        if comp is None and ctx.money() is not None:
            fair = _priced_deficits(d, ctx.money(), ctx.level)
        sec.findings += _seat_findings(v, d, fair, many, ctx.level, ctx.units, ctx.tolerance)
    fig = charts.seat_win_shares(seats, level=ctx.level, palette=ctx.palette)
    sec.charts.append(
        ctx.chart(
            fig,
            "Win share by seat",
            ctx.caption(
                "Wins with ties split, each seat against the fair share 1/N",
                games_label(seats["games"].to_list(), "games per seat and variant"),
                bots_of(seats),
                f"{stats.MEAN_METHOD}, each seat on its own; the seat flags use intervals "
                f"{seats['simultaneous'][0]} after the equal-seats test",
                ctx.focus,
            ),
        )
    )
    sec.tables.append(_seats_table(seats))
    if len(ctx.focus) < len(ctx.variants):
        all_seats = ordered(_seat_advantage(ctx, ctx.variants), ctx.variants)
        table = _seats_table(all_seats)
        table.title = f"Win share by seat in all {len(ctx.variants)} variants"
        table.collapsed = True
        sec.tables.append(table)
    others = [v for v in ctx.focus if v != ctx.base]
    if others and len(others) <= MAX_COMPARE:
        wins = ctx.partial("wins", [ctx.base, *others])
        cmp = (
            A.compare_variants_from_partial(wins, ctx.base, level=ctx.level)
            if wins is not None
            else A.compare_variants(rows, ctx.base, level=ctx.level)
        )
        sec.findings += _compare_findings(cmp, seats, ctx.base)
        sec.tables.append(_compare_table(cmp, ctx.base))
        gain = _pairing_gain(cmp, seats, ctx.base)
        if gain is not None:
            sec.notes.append(gain)
    if comp is not None:
        before = len(sec.findings)
        _add_compensation(ctx, sec, comp)
        if len(money_sweep(ctx.configs, ctx.base)) == len(ctx.configs):
            # a sweep exists to price the seats: its answer, the fair money and the verified vector, leads
            sec.findings.append(Finding(_compensate_pointer(ctx), "info"))
            sec.findings = sec.findings[before:] + sec.findings[:before]
    elif ctx.money() is not None:
        m = ctx.money()
        z = stats.z_value(ctx.level)
        sec.notes.append(
            f"{ctx.units.money_label.capitalize()}: priced by the {m.source}: one {ctx.units.money} of starting "
            "money is worth "
            f"{F.est_ci(m.rate, m.rate - z * m.se, m.rate + z * m.se, 100, places=2)} points of win share; a seat's "
            "fair compensation ≈ (fair share − its win share) / that rate, Fieller interval."
        )
    elif not ctx.roles.has("money.start") or ctx.money_knob() is None:
        why = (
            not_recorded(["money.start"])
            if ctx.roles.missing("money.start")
            else f"the game has no setting that changes one seat's starting {ctx.units.money_plural}"
        )
        sec.notes.append(f"No compensation fit: {why}.")
    else:
        sec.notes.append(not_a_sweep(ctx.configs, ctx.base, ctx.money_knob(), ctx.scenario_hint("money_sweep")))
    sec.notes.append(
        "Seats are numbered from 0, the first player. With a rotated lineup every bot sits in every seat "
        "equally often, so a difference between seats is the seat's, not the bots'. \"All seats equal?\" is "
        "a Wald χ² test on the per-game win shares (split wins included). A seat is called advantaged or "
        "disadvantaged only if that test rejects and the seat's interval, simultaneous over the seats "
        "(Bonferroni), excludes 1/N; the verdict compares those intervals with a tolerance of "
        f"±{F.num(ctx.tolerance * 100, 1)} points of win share (unequal by more than that, within it, or not yet "
        f"determined). The best − worst gap is {stats.GAP_METHOD}."
    )
    return sec, ""


def _seat_advantage(ctx: Context, variants: list[str]) -> pl.DataFrame:
    """``seat_advantage`` of those variants: from the digest if there is one, else from their rows."""
    per, splits = ctx.partial("seats", variants), ctx.partial("splits", variants)
    if per is not None and splits is not None:
        return A.seat_advantage_from_partial(per, splits, ctx.level, ctx.bots())
    rows = ctx.rows if variants == ctx.variants else ctx.rows.filter(pl.col("variant").is_in(variants))
    return A.seat_advantage(rows, level=ctx.level)


def _seat_findings(
    variant: str,
    d: pl.DataFrame,
    fair: dict[int, dict[str, Any]],
    many: bool,
    level: float,
    units: Units,
    tolerance: float = stats.DEFAULT_TOLERANCE,
) -> list[Finding]:
    """The verdict against the tolerance first (one sentence: games, interval, verdict), then each flagged
    seat. Flags need the equal-seats test to reject and the seat's simultaneous interval to exclude 1/N
    (``seats.seat_advantage``), so a fair game names a seat in at most 5% of reports, not 15%."""
    r0 = d.row(0, named=True)
    share = r0["fair_share"]
    prefix = f"In {variant}, " if many else ""
    verdict = A.seat_verdicts(d, tolerance).row(0, named=True)
    tone = {"unequal": "warn", "small": "info", "within": "ok", "fair": "ok", "undetermined": "info"}
    out = [Finding(sentence(prefix, _verdict_text(verdict)), tone[verdict["verdict"]])]
    simultaneous = r0["simultaneous"].split(" (")[0]
    for r in d.filter(pl.col("flag").is_not_null()).sort("win_share", descending=True).iter_rows(named=True):
        text = sentence(
            prefix,
            f"{seat_name(r['seat'])} wins {F.pct_ci(r['win_share'], r['win_share_slo'], r['win_share_shi'])} of "
            f"games (n={F.count(r['games'])}; fair share {F.pct(share, 0)}; {level:.0%} {simultaneous}): {r['flag']}",
        )
        f = fair.get(r["seat"])
        if f is not None and not F.missing(f["fair_offset"]) and F.unbounded(f["fair_lo"], f["fair_hi"]):
            text += f"; fair compensation {F.undetermined(f.get('games'), f.get('more'))}{f.get('how', '')}"
        elif f is not None and not F.missing(f["fair_offset"]):
            text += (
                f"; fair compensation ≈ {F.num(f['fair_offset'], 1, sign=True)} {units.money_plural} "
                f"{F.ci(f['fair_lo'], f['fair_hi'], places=1, sign=True)}{f.get('how', '')}"
            )
        out.append(Finding(text + ".", "warn"))
    if verdict["verdict"] in ("unequal", "small", "within"):
        out.append(
            Finding(
                sentence(
                    prefix,
                    f"the best and the worst seat are {F.num(r0['gap'] * 100, 1)} points apart "
                    f"{F.ci(r0['gap_lo'], r0['gap_hi'], 100, 1)} (the plain difference of the estimates reads "
                    f"{F.num(r0['gap_raw'] * 100, 1)}).",
                ),
                "info",
                headline=False,
            )
        )
    return out


def _verdict_text(v: dict[str, Any]) -> str:
    """A variant's verdict as one sentence: games, the seat furthest from fair with its interval, the verdict."""
    tol = F.num(v["tolerance"] * 100, 1)
    simultaneous = v["simultaneous"].split(" (")[0]
    text = (
        f"with n={F.count(v['games'])} games per seat, {seat_name(v['seat'])} — the furthest from the fair "
        f"{F.pct(v['fair_share'], 0)} — wins {F.pct_ci(v['win_share'], v['win_share_slo'], v['win_share_shi'])} "
        f"(95% {simultaneous}), so {A.VERDICTS[v['verdict']].format(tol=tol)} "
        f"(all seats equal? {F.p_value(v['p_equal'])})"
    )
    return text + games_needed_text(v) + "."


def _priced_deficits(d: pl.DataFrame, money: Any, level: float) -> dict[int, dict[str, Any]]:
    """Per seat: the money x with ``share + rate·x = 1/N``, priced by another run's exchange rate.

    The two estimates come from independent runs, so Fieller's interval uses no covariance; the rate is the
    swept seat's slope at offset 0, an approximation for the other seats (docs/analysis.md).
    """
    z = stats.z_value(level)
    out = {}
    for r in d.iter_rows(named=True):
        if F.missing(r["win_share_lo"]) or not money.rate:
            continue
        se = (r["win_share_hi"] - r["win_share_lo"]) / (2 * z)
        lo, hi = stats.fieller(r["win_share"], money.rate, r["fair_share"], se * se, 0.0, money.se**2, level)
        out[r["seat"]] = {
            "fair_offset": (r["fair_share"] - r["win_share"]) / money.rate,
            "fair_lo": lo,
            "fair_hi": hi,
            "how": f", priced by the {money.source}",
            "games": money.games,
            "more": games_needed(money.games, money.rate, money.se, level) if money.games else None,
        }
    return out


def _seats_table(seats: pl.DataFrame) -> Table:
    rows, marked = [], []
    for r in seats.iter_rows(named=True):
        rows.append(
            [
                r["variant"],
                seat_name(r["seat"]),
                F.count(r["games"]),
                F.est_ci(r["win_share"], r["win_share_lo"], r["win_share_hi"], 100),
                F.ci(
                    r["win_share_slo"],
                    r["win_share_shi"],
                    100,
                    F.decimals((r["win_share_hi"] - r["win_share_lo"]) * 50),
                ),
                F.est_ci(r["score"], r["score_lo"], r["score_hi"], places=1),
                F.est_ci(r["rank"], r["rank_lo"], r["rank_hi"], places=2),
                F.p_value(r["p_equal"]).removeprefix("p ").removeprefix("= "),
            ]
        )
        marked.append(r["flag"] is not None)
    simultaneous = seats["simultaneous"][0] if seats.height else ""
    return Table(
        "Win share (%), score and rank by seat",
        ["variant", "seat", "games", "win share %", "simultaneous %", "score", "rank", "p (all seats equal)"],
        rows,
        note="Estimates with their intervals in brackets (each on its own); simultaneous: the win-share intervals "
        f"{simultaneous}. Marked rows: the equal-seats test rejects and the seat's simultaneous interval excludes "
        "the fair share (the family-wise error over the seats stays at most 5%).",
        marked=marked,
    )


def _compare_findings(cmp: pl.DataFrame, seats: pl.DataFrame, base: str) -> list[Finding]:
    """Per variant: the bias-corrected best-worst gap in the base and the variant, and the largest change with
    its interval simultaneous over every seat and variant compared (it was selected as the largest, so its
    own interval would cover too rarely) and its Holm-adjusted p-value."""
    out = []
    gaps = {r["variant"]: r for r in seats.unique("variant", keep="first").iter_rows(named=True)}

    def gap(v: str) -> str:
        g = gaps[v]
        return f"{F.num(g['gap'] * 100, 1)} {F.ci(g['gap_lo'], g['gap_hi'], 100, 1)}"

    for (v,), d in cmp.group_by("variant", maintain_order=True):
        top = d.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
        detected = not F.missing(top["p_adjusted"]) and top["p_adjusted"] < 0.05
        text = (
            f"{v} against {base} (same game seeds): the gap between the best and the worst seat goes from "
            f"{gap(base)} to {gap(v)} points; the largest change is "
            f"{seat_name(top['seat'])}'s, {F.points(top['diff'])} "
            f"{F.ci(top['diff_slo'], top['diff_shi'], 100, 1, sign=True)} (n={F.count(top['games'])} paired games; "
            f"simultaneous over the {cmp.height} changes, adjusted {F.p_value(top['p_adjusted'])})"
        )
        text += "." if detected else ": no seat's change is detectable once the comparisons are adjusted for."
        out.append(Finding(text, "info"))
    return out


def _pairing_gain(cmp: pl.DataFrame, seats: pl.DataFrame, base: str) -> str | None:
    """What the shared seeds bought in this comparison: the unpaired standard error of each change (the two
    variants' seat shares as independent samples) over the paired one, as a range over the seats."""
    se = {
        (r["variant"], r["seat"]): (r["win_share_hi"] - r["win_share_lo"]) / 2
        for r in seats.iter_rows(named=True)
        if not F.missing(r["win_share_lo"])
    }
    ratios = []
    for r in cmp.iter_rows(named=True):
        a, b = se.get((r["variant"], r["seat"])), se.get((base, r["seat"]))
        paired = (r["diff_hi"] - r["diff_lo"]) / 2 if not F.missing(r["diff_lo"]) else None
        if a is not None and b is not None and paired:
            ratios.append(math.sqrt(a * a + b * b) / paired)
    if not ratios:
        return None
    lo, hi = min(ratios), max(ratios)
    return (
        f"What the pairing bought here: the paired intervals of the seat changes are ×{F.num(lo, 2)}–×{F.num(hi, 2)} "
        "narrower than if the variants had been played on independent seeds, which would have needed "
        f"×{F.num(lo * lo, 2)}–×{F.num(hi * hi, 2)} as many games for the same width."
    )


def _compare_table(cmp: pl.DataFrame, base: str) -> Table:
    rows, marked = [], []
    for r in cmp.iter_rows(named=True):
        rows.append(
            [
                r["variant"],
                seat_name(r["seat"]),
                F.count(r["games"]),
                F.pct(r["base"]),
                F.pct(r["value"]),
                F.est_ci(r["diff"], r["diff_lo"], r["diff_hi"], 100, sign=True),
                F.ci(r["diff_slo"], r["diff_shi"], 100, 1, sign=True),
                F.p_value(r["p"]),
                F.p_value(r["p_adjusted"]),
            ]
        )
        marked.append(not F.missing(r["p_adjusted"]) and r["p_adjusted"] < 0.05)
    simultaneous = cmp["simultaneous"][0] if cmp.height else ""
    return Table(
        f"Change of each seat's win share against {base}, paired by game seed",
        ["variant", "seat", "games", f"{base} %", "variant %", "change (points)", "simultaneous", "p", "p (Holm)"],
        rows,
        note=f"Game i of every variant has the same seed; the interval is that of the mean per-game "
        f"difference ({stats.PAIRED_METHOD}); simultaneous: {simultaneous} over the seats and variants. Marked "
        "rows: Holm-adjusted p < 0.05.",
        marked=marked,
    )


def _compensation(ctx: Context) -> Any:
    if not ctx.roles.has("money.start"):
        return None
    sweep = money_sweep(ctx.configs, ctx.base, ctx.money_knob())
    if not sweep:
        return None
    rows = ctx.rows if len(sweep) == len(ctx.variants) else ctx.rows.filter(pl.col("variant").is_in(sweep))
    try:
        from simlab.analysis.compensation import rules_money

        return A.compensation(rows, level=ctx.level, rules=rules_money(ctx.manifest, ctx.folder, sweep))
    except AnalysisError:
        return None


def _compensate_pointer(ctx: Context) -> str:
    """The command that turns a sweep's per-seat fair money into a whole vector for all seats, verified."""
    m = ctx.manifest
    command = f"simlab compensate {m['game']} --players {m['players']}"
    if ctx.tolerance != stats.DEFAULT_TOLERANCE:
        command += f" --fair-within {ctx.tolerance * 100:g}"
    if m.get("bots"):
        command += " --bots " + ",".join(m["bots"])
    # compensate always rotates its line-up through the seats, as a run with a `lineup` does
    seating = (
        " (it rotates the bots through the seats; this run seated them fixed)" if m.get("seating") == "bots" else ""
    )
    return (
        f"The fitted offsets are per seat and continuous; starting {ctx.units.money_plural} come in whole units "
        "and all seats change at once. The whole-number vector for every seat, on the knob's own grid and "
        f"verified by a confirmation run with its seat shares and equal-seats test: {command}{seating}. It "
        "tests the published rules first and answers with what its confirmations support: already fair, a fair "
        "vector confirmed on fresh games, no vector on the knob's grid fair within the tolerance, or not settled."
    )


def _rules_words(r: dict, comp: Any, ctx: Context) -> str:
    from simlab.analysis.compensation_text import against_rules_words

    words = against_rules_words({**r, "players": comp.players}, ctx.units, places=1)
    return f" ({words})" if words else ""


def _add_compensation(ctx: Context, sec: Section, comp: Any) -> None:
    from simlab.analysis.compensation import published_variant
    from simlab.analysis.compensation_text import published_fair_words

    published = published_variant(ctx.manifest, ctx.folder, money_sweep(ctx.configs, ctx.base, ctx.money_knob()))
    if published is not None:
        verdict = A.seat_verdicts(_seat_advantage(ctx, [published]), ctx.tolerance).row(0, named=True)
        words = published_fair_words(verdict, published)
        if words:
            sec.findings.append(Finding(words, "ok"))
    rows = []
    for r in comp.fit.iter_rows(named=True):
        missing = fit_undetermined(r, comp.level)
        bounded = missing is None
        fair = F.ci(r["fair_lo"], r["fair_hi"], places=1, sign=True)
        text = (
            f"{seat_name(r['seat']).capitalize()} would win 1/{comp.players} of the games with "
            f"{F.num(r['fair_offset'], 1, sign=True)} {ctx.units.money_plural} {fair}"
            f" against the others' mean{_rules_words(r, comp, ctx)}; one {ctx.units.money} is worth "
            f"{F.num(r['rate'] * 100, 2)} "
            f"{F.ci(r['rate_lo'], r['rate_hi'], 100, 2)} points of win share "
            f"(n={F.count(r['games'])} seat-games over {r['offsets']} offsets)."
        )
        if not bounded:  # never a point estimate beside an unbounded interval
            text = (
                f"{seat_name(r['seat']).capitalize()}'s fair starting money is {missing} (the slope of win share on "
                f"money is not significant yet; n={F.count(r['games'])} seat-games over {r['offsets']} offsets)."
            )
        sec.findings.append(Finding(text, "info" if bounded else "warn"))
        rows.append(
            [
                seat_name(r["seat"]),
                F.count(r["games"]),
                str(r["offsets"]),
                F.est_ci(r["fair_offset"], r["fair_lo"], r["fair_hi"], places=2, sign=True) if bounded else missing,
                f"{F.num(r['fair_money'], 2)} against {F.num(r['fair_others'], 2)}"
                if bounded and math.isfinite(r["fair_money"])
                else "–",
                F.pct(r["share_at_0"]),
                F.est_ci(r["rate"], r["rate_lo"], r["rate_hi"], 100, places=2),
            ]
        )
    sec.tables.append(
        Table(
            "Fair starting money (logistic fit of win share against the money offset)",
            [
                "seat",
                "seat-games",
                "offsets",
                f"fair offset ({ctx.units.money_label})",
                "fair money (seat against the others; published rules otherwise)",
                "win share at offset 0",
                f"points of win share per {ctx.units.money}",
            ],
            rows,
            note="Offset = the seat's starting money minus the other seats' mean. " + comp.caption + ".",
        )
    )
    sweep = money_sweep(ctx.configs, ctx.base)
    for k in comp.fit["seat"].to_list()[:MAX_COMPENSATION_CHARTS]:
        fig = charts.compensation_curve(comp, seat=k, units=ctx.units)
        sec.charts.append(
            ctx.chart(
                fig,
                f"Compensating seat {k} with starting money",
                ctx.caption(
                    f"Seat {k}'s win share against its starting-money offset, logistic fit with a 95% pointwise band",
                    f"{comp.games:,} per offset",
                    ", ".join(comp.bots),
                    stats.FIELLER_METHOD + " (fair offset); " + stats.MEAN_METHOD + " (points)",
                    sweep,
                ),
            )
        )
