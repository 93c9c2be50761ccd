"""Plain-text tables of analysis results, for the CLI and for quick looks in a notebook.

Numbers are shown the way a designer reads them: win shares in percent, intervals as [lo, hi], and
every table says how many games are behind it.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from simlab.analysis.compensation_text import compensation_text  # noqa: F401  (moved; kept importable here)
from simlab.analysis.ranks import rank_method, rank_range
from simlab.analysis.words import Words
from simlab.core.facts import GENERIC_UNITS, Units


def _pct(x: Any) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x * 100:.1f}"


def _num(x: Any, fmt: str = ".2f") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return format(x, fmt)


def _ci(lo: Any, hi: Any, f: Any = _pct) -> str:
    return f"[{f(lo)}, {f(hi)}]"


def _p(p: Any) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "<1e-12" if p < 1e-12 else f"{p:.2g}"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell; the first column left-aligned, the rest right-aligned."""
    cells = [header, *rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    out = []
    for r in cells:
        out.append(
            "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        )
    return out


def verdict_sentence(v: dict[str, Any], prefix: str = "") -> str:
    """One plain sentence per variant: the games, the seat furthest from fair with its simultaneous interval,
    and the verdict against the tolerance (a row of ``seats.seat_verdicts``)."""
    from simlab.analysis.seats import VERDICTS

    tol = _num(v["tolerance"] * 100, "g")
    level = v["simultaneous"].split(" (")[0]
    text = (
        f"{prefix}with n={v['games']:,} games per seat, seat {v['seat']} — the furthest from the fair "
        f"{_pct(v['fair_share'])}% — wins {_pct(v['win_share'])}% {_ci(v['win_share_slo'], v['win_share_shi'])} "
        f"(95% {level}), so {VERDICTS[v['verdict']].format(tol=tol)} (all seats equal? {_p_eq(v['p_equal'])})"
    )
    text += games_needed_text(v)
    return text + "."


def _p_eq(p: Any) -> str:
    return p_phrase(_p(p))


def p_phrase(shown: str) -> str:
    """A p-value as a sentence writes it: "p = 0.03", or "p < 1e-12" for a table cell's "<1e-12"."""
    shown = shown.strip()
    return f"p < {shown[1:].strip()}" if shown.startswith("<") else f"p = {shown}"


def games_needed_text(v: dict[str, Any]) -> str:
    """How many games would decide an open verdict (see ``seats.seat_verdicts``), or nothing."""
    from simlab.analysis.seats import MAX_NEEDED

    n = v.get("games_needed")
    if not n:
        return ""
    if n >= MAX_NEEDED * v["games"]:
        return (
            f"; a seat sits almost on the tolerance's edge: even {MAX_NEEDED} times as many games would not decide it"
        )
    return f"; about {n:,} games per seat would decide it"


def seats_text(df: pl.DataFrame, tolerance: float | None = None, units: Units = GENERIC_UNITS) -> list[str]:
    """The seat table per variant, each variant's verdict against ``tolerance`` (default 1 point) and the
    bias-corrected gap between the best and the worst seat; the score in the game's points (``units``)."""
    from simlab.analysis import stats
    from simlab.analysis.seats import seat_verdicts

    verdicts = {
        v["variant"]: v
        for v in seat_verdicts(df, stats.DEFAULT_TOLERANCE if tolerance is None else tolerance).iter_rows(named=True)
    }
    lines = []
    for (v,), d in df.group_by("variant", maintain_order=True):
        r0 = d.row(0, named=True)
        lines.append(
            f"{v}: {r0['games']:,} games per seat; all seats equal? chi2 = {_num(r0['chi2_equal'], '.1f')}, "
            f"df = {r0['df_equal']}, {_p_eq(r0['p_equal'])}"
        )
        rows = [
            [
                f"seat {r['seat']}",
                _pct(r["win_share"]),
                _ci(r["win_share_lo"], r["win_share_hi"]),
                _ci(r["win_share_slo"], r["win_share_shi"]),
                r["flag"] or "-",
                _num(r["score"], ".1f"),
                _ci(r["score_lo"], r["score_hi"], lambda x: _num(x, ".1f")),
                _num(r["rank"]),
                _ci(r["rank_lo"], r["rank_hi"], _num),
            ]
            for r in d.iter_rows(named=True)
        ]
        score = f"score ({units.points_label})"
        header = ["", "win %", "95% CI", "simult. CI", "flag", score, "95% CI", "rank", "95% CI"]
        lines += ["  " + s for s in table(header, rows)]
        lines.append(
            f"  gap best - worst seat: {_pct(r0['gap'])} points of win share {_ci(r0['gap_lo'], r0['gap_hi'])} "
            f"(bias-corrected; the plain difference reads {_pct(r0['gap_raw'])})"
        )
        lines.append("  " + verdict_sentence(verdicts[v]))
    lines += [
        f"fair share 1/N = {_pct(df['fair_share'][0])}%; intervals: {df['interval'][0]}; simult. CI: "
        f"{df['simultaneous'][0]}; a seat is flagged only if the equal-seats test rejects and its simultaneous "
        "interval excludes 1/N",
        f"gap: {stats.GAP_METHOD}",
    ]
    return lines


def compare_text(df: pl.DataFrame, metric: str = "win share") -> list[str]:
    rows = [
        [
            f"{r['variant']} seat {r['seat']}",
            f"{r['diff'] * 100:+.2f}",
            _ci(r["diff_lo"], r["diff_hi"], lambda x: f"{x * 100:+.2f}"),
            _ci(r["diff_slo"], r["diff_shi"], lambda x: f"{x * 100:+.2f}"),
            _p(r["p"]),
            _p(r["p_adjusted"]),
        ]
        for r in df.iter_rows(named=True)
    ]
    base = df["base_variant"][0] if df.height else "?"
    lines = [
        f"change in {metric} (points) against {base}, paired by game seed:",
        *("  " + s for s in table(["", "change", "95% CI", "simult. CI", "p", "p (Holm)"], rows)),
    ]
    if df.height:
        lines.append(f"simult. CI: {df['simultaneous'][0]}")
    return lines


def cards_text(df: pl.DataFrame, words: Words | Units = GENERIC_UNITS) -> list[str]:
    """The value of each granted thing (a card, god, item; an amount of money or points) in the game's words:
    ``words`` (a :class:`~simlab.analysis.words.Words`; bare ``Units`` keep the generic noun "card")."""
    words = words if isinstance(words, Words) else Words(words)
    units, nouns = words.units, words.nouns
    has_money = "money" in df.columns and df["money"].drop_nulls().len() > 0
    header = ["", "games x seats", "win pts", "95% CI", "p (adj)", f"score ({units.points_label})", "95% CI"]
    if has_money:
        header += [units.money_label, "95% CI"]
    if "played_diff" in df.columns:
        header += ["played-vs-not*"]
    ranked = "rank" in df.columns
    if ranked:
        header += ["rank (plausible)"]
    rows = []
    for r in df.sort("kind", "win_share_diff", descending=[False, True]).iter_rows(named=True):
        row = [
            words.grant(r["label"]),
            f"{r['games']:,} x {r['seats']}",
            f"{r['win_share_diff'] * 100:+.2f}",
            _ci(r["win_share_diff_lo"], r["win_share_diff_hi"], lambda x: f"{x * 100:+.2f}"),
            _p(r["p_adjusted"]) if r["kind"] == "card" else "-",
            f"{r['score_diff']:+.2f}",
            _ci(r["score_diff_lo"], r["score_diff_hi"], lambda x: f"{x:+.2f}"),
        ]
        if has_money:
            row += _money_cells(r)
        if "played_diff" in df.columns:
            row += [f"{r['played_diff'] * 100:+.1f}" if r.get("played_diff") is not None else "-"]
        if ranked:
            row += ["-" if r["rank"] is None else rank_range(r["rank"], r["rank_lo"], r["rank_hi"], "-")]
        rows.append(row)
    adj = "Holm" if df["adjustment"][0] == "holm" else "Benjamini-Hochberg"
    lines = [f"value of one extra {words.noun} for the seat that gets it ({df['interval'][0]}):", *table(header, rows)]
    lines.append(f"p (adj): {adj}-adjusted over the {nouns}.")
    if has_money:
        lines.append(
            f"{units.money_label}: win-share change / win share per {units.money} "
            f"({words.grants_in(str(df['money_source'][0]))}), "
            "Fieller interval."
        )
    if ranked:
        k = int(df["rank"].drop_nulls().len())
        lines.append(f"rank (plausible): {rank_method(k, nouns, 0.95)}.")
    if "played_diff" in df.columns:
        lines.append(
            f"* CORRELATIONAL: win share of seats that played (or gained) the {words.noun} at least once minus "
            "those that never did (control games); not a value."
        )
    return lines


def _money_cells(r: dict[str, Any]) -> list[str]:
    """A card's price in money and its interval, or "not determined ..." (no point beside an unbounded one)."""
    lo, hi = r["money_lo"], r["money_hi"]
    if any(isinstance(v, float) and math.isinf(v) for v in (lo, hi)):
        from simlab.analysis.compensation import undetermined

        return [undetermined(r.get("money_games"), r.get("money_more_games")), ""]
    return [_num(r["money"], "+.2f"), _ci(lo, hi, lambda x: _num(x, "+.2f"))]


def markets_text(collapses: pl.DataFrame, yields: pl.DataFrame | None, units: Units = GENERIC_UNITS) -> list[str]:
    rows = [
        [
            f"{r['variant']} {r['item']}",
            f"{r['games']:,}",
            _pct(r["collapse_rate"]),
            _ci(r["collapse_rate_lo"], r["collapse_rate_hi"]),
            _pct(r["recover_rate"]),
            _ci(r["recover_rate_lo"], r["recover_rate_hi"]),
            _num(r["first_round"], ".1f"),
            _ci(r.get("first_round_lo"), r.get("first_round_hi"), lambda x: _num(x, ".1f")),
        ]
        for r in collapses.iter_rows(named=True)
    ]
    header = ["", "games", "collapse %", "95% CI", "recover %", "95% CI", "first round", "95% CI"]
    lines = [
        "demand falling to the floor (collapse) and climbing back (recovery), Wilson intervals; the first "
        "collapse round's over the games that collapse:",
        *("  " + s for s in table(header, rows)),
    ]
    if yields is None:
        return lines
    from simlab.analysis.markets import applicable_yields

    shown = applicable_yields(yields)
    points = "points_per_cube" in shown.columns  # not where no sale earned a point
    rows = [
        [
            r["variant"],
            _num(r["money_per_cube"], ".3f"),
            _ci(r["money_per_cube_lo"], r["money_per_cube_hi"], lambda x: _num(x, ".3f")),
            *(
                [
                    _num(r["points_per_cube"], ".3f"),
                    _ci(r["points_per_cube_lo"], r["points_per_cube_hi"], lambda x: _num(x, ".3f")),
                ]
                if points
                else []
            ),
            _num(r["cubes_per_seat"], ".1f"),
            _ci(r.get("cubes_per_seat_lo"), r.get("cubes_per_seat_hi"), lambda x: _num(x, ".1f")),
        ]
        for r in shown.iter_rows(named=True)
    ]
    header = [
        "",
        units.money_label,
        "95% CI",
        *([units.points_label, "95% CI"] if points else []),
        "units/seat",
        "95% CI",
    ]
    lines += [
        "realised per unit sold (ratio of totals, delta-method intervals; units per seat game-clustered):",
        *("  " + s for s in table(header, rows)),
    ]
    return lines


def shift_text(df: pl.DataFrame) -> list[str]:
    rows = [
        [
            f"{r['variant']} seat {r['seat']}",
            _pct(r["win_share_turbulent"]),
            _pct(r["win_share_calm"]),
            "-" if r["diff"] is None else f"{r['diff'] * 100:+.2f}",
            "-" if r["diff"] is None else _ci(r["diff_lo"], r["diff_hi"], lambda x: f"{x * 100:+.2f}"),
        ]
        for r in df.iter_rows(named=True)
    ]
    return [
        "CORRELATIONAL: win share (%) in turbulent games (more round ends with a demand at the floor than the "
        "median) vs calm ones:",
        *("  " + s for s in table(["", "turbulent", "calm", "difference", "95% CI"], rows)),
    ]


def balance_text(
    summary: pl.DataFrame, lead: pl.DataFrame | None, variance: pl.DataFrame, units: Units = GENERIC_UNITS
) -> list[str]:
    """Length, margin (in the game's points, ``units``), shared wins, decisiveness and the luck's share."""
    rows = [
        [
            r["variant"],
            f"{r['games']:,}",
            _num(r["turns"], ".1f"),
            _ci(r["turns_lo"], r["turns_hi"], _num),
            _num(r["margin"]),
            _ci(r["margin_lo"], r["margin_hi"], _num),
            f"{r['draw_rate'] * 100:.3f}",
            _ci(r["draw_rate_lo"], r["draw_rate_hi"], lambda x: f"{x * 100:.3f}"),
        ]
        for r in summary.iter_rows(named=True)
    ]
    lines = [
        "game length, margin of victory (winner minus runner-up) and shared wins:",
        *(
            "  " + s
            for s in table(
                ["", "games", "turns", "95% CI", f"margin ({units.points_label})", "95% CI", "draw %", "95% CI"], rows
            )
        ),
    ]
    if lead is not None:  # None: the game records no per-round scores (the caller says so)
        rounds = sorted(
            int(c.removeprefix("leader_wins_r"))
            for c in lead.columns
            if c.startswith("leader_wins_r") and c[-1].isdigit()
        )
        rows = [
            [
                r["variant"],
                *(
                    f"{_pct(r[f'leader_wins_r{k}'])} {_ci(r[f'leader_wins_r{k}_lo'], r[f'leader_wins_r{k}_hi'])}"
                    for k in rounds
                ),
                f"{_num(r['lead_from'])} {_ci(r['lead_from_lo'], r['lead_from_hi'], _num)}",
                f"{_num(r['lead_changes'])} {_ci(r['lead_changes_lo'], r['lead_changes_hi'], _num)}",
            ]
            for r in lead.iter_rows(named=True)
        ]
        lines += [
            "decisiveness: win chance (%) of the leader after each round; round from which the winner leads; "
            "lead changes (each with its 95% interval):",
            *("  " + s for s in table(["", *(f"r{k}" for k in rounds), "lead from", "changes"], rows)),
        ]
    rows = []
    for (v,), d in variance.group_by("variant", maintain_order=True):
        comp = {r["component"]: r for r in d.iter_rows(named=True)}
        pct2 = lambda x: _num(x * 100, ".2f")  # noqa: E731
        rows.append(
            [
                v,
                *(
                    f"{pct2(comp[c]['share'])} {_ci(comp[c]['share_lo'], comp[c]['share_hi'], pct2)}"
                    for c in ("seat", "bot", "seat_bot", "chance")
                ),
            ]
        )
    out = variance["outcome"][0] if variance.height else "score"
    lines += [
        f"how much of the {out} is luck? shares of its variance (%), batch-means intervals:",
        *("  " + s for s in table(["", "seat", "bot", "seat x bot", "chance"], rows)),
    ]
    return lines
