"""The card-value section: what one extra card (or god, or item: the game's word) of a kind is worth to the
seat that gets it, from an intervention run with a control variant and one variant per card and seat."""

from __future__ import annotations

import polars as pl

from simlab import analysis as A
from simlab.analysis import stats
from simlab.analysis.frames import NotAvailableError
from simlab.analysis.ranks import rank_method, rank_range, rank_text, with_ranks
from simlab.report import charts
from simlab.report import fmt as F
from simlab.report.context import Context, bots_of, games_label
from simlab.report.model import Finding, Section, Table
from simlab.report.sections import register
from simlab.report.selection_text import selected_card_interval


@register("cards", "{noun} value", order=20, leads=True)
def cards_section(ctx: Context) -> tuple[Section | None, str]:
    control = "control"
    noun, nouns = ctx.words.noun, ctx.words.nouns
    title = f"{noun.capitalize()} value"
    reason = (
        f"{title}: not in these results (it needs an intervention run with a 'control' variant and "
        f"<{noun}>_seat<k> variants{ctx.scenario_hint('card_value')})."
    )
    if ctx.roles.intervention("card") is None:
        return None, f"{title}: not available: the game has nothing a seat can be given at the start to price."
    if control not in ctx.configs:
        return None, reason
    try:
        design = A.design_from_manifest(ctx.folder, control)
    except NotAvailableError as exc:
        return None, f"{title}: {exc}."
    if design.is_empty() or design.filter(~pl.col("label").str.starts_with("money")).is_empty():
        return None, reason
    has_money = not design.filter(pl.col("label").str.starts_with("money")).is_empty()
    df = A.card_value(
        ctx.rows, design=design, control=control, level=ctx.level, money=None if has_money else ctx.money()
    )
    sec = Section(
        "cards",
        title,
        f"What is one extra {noun} of a kind worth to the seat that gets it, in win share, points and "
        f"{ctx.units.money_plural}?",
    )
    df = with_ranks(df, level=ctx.level, ranked=pl.col("kind") == "card")
    cards = df.filter(pl.col("kind") == "card").sort("win_share_diff", descending=True)
    alpha = 1 - ctx.level
    adj = "Holm" if df["adjustment"][0] == "holm" else "Benjamini–Hochberg"  # named in the notes, not the findings
    n_sig = int((cards["p_adjusted"] < alpha).sum())
    for r, word in ((cards.row(0, named=True), "Most valuable"), (cards.row(-1, named=True), "Least valuable")):
        if cards.height < 2 and word == "Least valuable":
            break
        money = ""
        if not F.missing(r.get("money")) and F.unbounded(r["money_lo"], r["money_hi"]):
            money = f", in {ctx.units.money_plural} {F.undetermined(r.get('money_games'), r.get('money_more_games'))}"
        elif not F.missing(r.get("money")):
            money = (
                f", ≈ {F.num(r['money'], 1, sign=True)} {ctx.units.money_plural} "
                f"{F.ci(r['money_lo'], r['money_hi'], places=1, sign=True)}"
            )
        lo, hi = selected_card_interval(r, cards.height, ctx.level)
        sec.findings.append(
            Finding(
                f"{word} {noun}: {r['label']}, {F.points(r['win_share_diff'], 2)} of win share "
                f"{F.ci(lo, hi, 100, 2, sign=True)} ({ctx.level:.0%} simultaneous over the {cards.height} {nouns}, "
                "as it was picked from them) for the seat that gets it"
                f"{money} (n={F.count(r['games'])} games × {r['seats']} seats; adjusted "
                f"{F.p_value(r['p_adjusted'])}); {rank_text(r['rank'], r['rank_lo'], r['rank_hi'], cards.height)}.",
                "warn" if r["p_adjusted"] < alpha else "info",
            )
        )
    if cards.height > 2:
        first = cards.filter(pl.col("rank_lo") == 1)["label"].to_list()
        sec.findings.append(
            Finding(
                f"Could be the most valuable (rank 1 not ruled out): {F.join_words(first)} — "
                f"{len(first)} of {cards.height} {nouns} (by rank intervals {ctx.level:.0%} simultaneous over them).",
                "info",
            )
        )
    sec.findings.append(
        Finding(
            f"{n_sig} of {cards.height} {nouns} change the win share of the seat that gets them detectably "
            f"(adjusted for testing every {noun}, {ctx.level:.0%}).",
            "info",
        )
    )
    fig = charts.card_value_forest(df, level=ctx.level, units=ctx.units, noun=ctx.words.noun, nouns=ctx.words.nouns)
    variants = [control, *design["variant"].to_list()]
    sec.charts.append(
        ctx.chart(
            fig,
            f"Value of one extra {noun}",
            ctx.caption(
                f"Change in the granted seat's win share with one extra {noun} at setup, against the control on the "
                "same seeds",
                games_label(df["games"].to_list(), f"games per {noun}"),
                bots_of(df),
                stats.PAIRED_METHOD + "; #rank (" + rank_method(cards.height, nouns, ctx.level) + ")",
                variants[:3] + (["…"] if len(variants) > 3 else []),
            ),
        )
    )
    kinds = {"card": noun, "money": ctx.units.money_label, "points": ctx.units.points_label}
    rows, marked = [], []
    for r in df.sort("kind", "win_share_diff", descending=[False, True]).iter_rows(named=True):
        rows.append(
            [
                r["label"],
                kinds.get(r["kind"], r["kind"]),
                "–" if r["rank"] is None else rank_range(r["rank"], r["rank_lo"], r["rank_hi"]),
                f"{F.count(r['games'])} × {r['seats']}",
                F.est_ci(r["win_share_diff"], r["win_share_diff_lo"], r["win_share_diff_hi"], 100, 2, True),
                F.p_value(r["p_adjusted"]) if r["kind"] == "card" else "–",
                F.est_ci(r["score_diff"], r["score_diff_lo"], r["score_diff_hi"], places=2, sign=True),
                F.est_ci_or_undetermined(
                    r["money"],
                    r["money_lo"],
                    r["money_hi"],
                    r.get("money_games"),
                    r.get("money_more_games"),
                    places=1,
                    sign=True,
                ),
                F.points(r.get("played_diff")),
            ]
        )
        marked.append(r["kind"] == "card" and not F.missing(r["p_adjusted"]) and r["p_adjusted"] < alpha)
    source = df["money_source"][0]
    sec.tables.append(
        Table(
            f"Value of one extra {noun} (and of extra {ctx.units.money_plural}) for the seat that gets it",
            [
                "intervention",
                "kind",
                "rank (plausible)",
                "games × seats",
                "win share (points)",
                f"p ({adj})",
                "score (points)",
                ctx.units.money_label,
                "played vs not*",
            ],
            rows,
            note=(
                f"Paired with the control on the same game seeds ({stats.PAIRED_METHOD}). "
                f"{ctx.units.money_label.capitalize()}: "
                + (f"priced by the {source}, Fieller interval. " if source else "no money variants to price them. ")
                + f"* Correlational: win share of seats that played the {noun} at least once minus those that never "
                f"did, in the control games — players who are ahead play more {nouns}, so this is not a value."
            ),
            marked=marked,
        )
    )
    ranks = rank_method(cards.height, nouns, ctx.level)
    sec.notes.append(
        f"Marked rows: significant after adjusting for testing every {noun} at once ({adj}); the p-values in the "
        f"findings are adjusted the same way. {ranks[:1].upper()}{ranks[1:]}."
    )
    return sec, ""
