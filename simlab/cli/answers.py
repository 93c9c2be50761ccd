"""The :class:`Answer` of each analysis command (seats, compensation, cards, markets, balance) and of
``compensate``, from the command's options: what the analyses return, put into words, tables and a chart.

The command modules only parse arguments and hand the answer to ``emit``; the text is the ``simlab.analysis``
text functions', the JSON the envelope of ``simlab.analysis.export``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.cli.answer import Answer
from simlab.core.errors import NotAvailableError


def seats_answer(
    folder: str, base: str | None, chosen: tuple[str, ...], top: int, show_all: bool, tolerance: float
) -> Answer:
    """Seat advantage per variant (``tolerance`` as a share), with each seat's paired change against ``base``."""
    from simlab.analysis import compare_variants, seat_advantage
    from simlab.analysis.frames import roles
    from simlab.analysis.seat_focus import focus, shown_changes, summary_lines
    from simlab.analysis.seats import seat_verdicts
    from simlab.analysis.stopping import stopping_json, stopping_lines
    from simlab.analysis.text import compare_text, seats_text

    df = seat_advantage(folder)
    compared = compare_variants(folder, base) if base else None
    equal = df.select("variant", "chi2_equal", "df_equal", "p_equal", "games").unique(
        "variant", keep="first", maintain_order=True
    )  # polars keeps no order otherwise: --json would differ between two invocations
    tables = {"seats": df, "equal_seats": equal, "verdicts": seat_verdicts(df, tolerance), "compare": compared}

    def lines() -> list[str]:
        shown = focus(df, base, chosen, top, show_all)
        text = [*seats_text(shown.full, tolerance, roles(folder).units), *summary_lines(df, shown, tolerance, folder)]
        text += compare_text(shown_changes(compared, shown)) if compared is not None else []
        return text + stopping_lines(folder)

    def chart() -> Any:
        from simlab.report import charts

        return charts.seat_win_shares(df)

    stopping = stopping_json(folder)  # a run that stopped when settled says its rule (absent for a fixed size)
    fields = {"base": base, **({"stopping": stopping} if stopping else {})}
    return Answer("seats", lines, tables, folder=folder, fields=fields, chart=chart)


def compensation_answer(folder: str, seat: int | None) -> Answer:
    """Fair starting money (and points, when swept too) from a sweep in ``folder``."""
    from simlab.analysis import compensation as fit
    from simlab.analysis.compensation import folder_sweep, swept_kinds
    from simlab.analysis.compensation_text import compensation_text, left_out_line
    from simlab.analysis.frames import roles
    from simlab.analysis.words import with_unit

    _, left_out = folder_sweep(folder)  # refuses a folder whose variants differ in more than the knob
    comp = fit(folder, seat=seat)
    # a points intervention swept in the same folder is fitted too, in the game's points
    more = [fit(folder, seat=seat, kind=k) for k in swept_kinds(folder) if k != "money"]
    units = roles(folder).units
    unit = units.of("money")  # every table's offsets are in the game's money; a fit_points' in its points
    tables = {"fit": with_unit(comp.fit, unit), "points": with_unit(comp.points, unit), "curve": comp.curve}
    tables |= {f"fit_{c.kind}": with_unit(c.fit, units.of(c.kind)) for c in more}
    fields = {"level": comp.level, "players": comp.players, "bots": comp.bots, "left_out": left_out}

    def lines() -> list[str]:
        text = [line for c in (comp, *more) for line in compensation_text(c, units)]
        return text + ([left_out_line(left_out, units)] if left_out else [])  # after the answer, and short

    def chart() -> Any:
        from simlab.report import charts

        return charts.compensation_curve(comp, units=units)

    return Answer("compensation", lines, tables, folder=folder, fields=fields, chart=chart)


def cards_answer(folder: str, control: str, sweep: str | None, adjust: str) -> Answer:
    """Card value against ``control``, priced in money by the run's money variants or by ``sweep``."""
    import polars as pl

    from simlab.analysis import MoneyRate, card_value, with_ranks
    from simlab.analysis import compensation as fit
    from simlab.analysis.folder_question import require_card_run
    from simlab.analysis.frames import roles
    from simlab.analysis.stopping import stopping_json, stopping_lines
    from simlab.analysis.text import cards_text
    from simlab.analysis.words import with_units, words

    require_card_run(folder, control)  # a seat run, a sweep: names the scenario that would answer
    money = None
    if sweep:
        r = fit(sweep).fit.row(0, named=True)
        money = MoneyRate(r["rate"], r["rate_se"], f"the sweep in {sweep}, seat {r['seat']}", r["games"])
    df = card_value(folder, control=control, money=money, adjust=adjust)
    df = with_ranks(df, ranked=pl.col("kind") == "card")
    units, said = roles(folder).units, words(folder)

    def chart() -> Any:
        from simlab.report import charts

        return charts.card_value_forest(df, units=units)

    stopping = stopping_json(folder)  # a run that stopped when settled says its rule (absent for a fixed size)
    fields = {"control": control, "adjust": adjust, "sweep": sweep, **({"stopping": stopping} if stopping else {})}
    tables = {"cards": with_units(df, said)}

    def lines() -> list[str]:
        return [*cards_text(df, said), *stopping_lines(folder)]

    return Answer("cards", lines, tables, folder=folder, fields=fields, chart=chart)


def markets_answer(
    folder: str, series: str, base: str | None, chosen: tuple[str, ...], show_all: bool
) -> Answer:  # fmt: skip
    """Market collapses, sale yields and the ``series`` trajectories; the yields' reason when not declared."""
    from simlab.analysis import compare_variants, market_summary, sale_yield
    from simlab.analysis.frames import roles
    from simlab.analysis.market_focus import hidden_line, only, shown_variants
    from simlab.analysis.markets import applicable_yields, series_name
    from simlab.analysis.text import compare_text, markets_text

    series = series_name(series)  # an old name (marker, harbour) answers under its current one
    summary = market_summary(folder, series=(series,))  # one pass over the market columns
    missing = None
    if summary.sale_yield is None:
        try:
            sale_yield(folder)  # raises NotAvailableError saying which roles are missing
        except NotAvailableError as exc:
            missing = str(exc)
    units = roles(folder).units
    compared = compare_variants(folder, base) if base else None
    tables = {
        "collapses": summary.collapses,
        "sale_yield": applicable_yields(summary.sale_yield),  # no points column where no sale earns one
        "trajectories": summary.trajectories,
        "compare": compared,
    }

    def lines() -> list[str]:
        variants = list(dict.fromkeys(summary.collapses["variant"].to_list()))
        shown = shown_variants(variants, base, chosen, show_all)
        text = markets_text(only(summary.collapses, shown), only(summary.sale_yield, shown), units)
        text = [*text, *hidden_line(variants, shown, folder), *([missing] if missing else [])]
        return text + (compare_text(compared) if compared is not None else [])

    def chart() -> Any:
        from simlab.report import charts

        return charts.market_trajectories(summary.trajectories, series, units=units)

    not_available = [("sale_yield", missing)] if missing else []
    return Answer("markets", lines, tables, not_available, folder, {"series": series}, chart)


def balance_answer(folder: str, outcome: str) -> Answer:
    """Length, margin, draws, lead changes and the variance split of ``outcome``; what needs per-round scores
    is not available for a game that records none (said after the rest)."""
    from simlab.analysis import balance_summary, lead_metrics, leader_curve, variance_decomposition
    from simlab.analysis.frames import roles
    from simlab.analysis.text import balance_text

    missing: list[tuple[str, str]] = []
    try:
        lead = lead_metrics(folder)
    except NotAvailableError as exc:
        lead = None
        missing.append(("lead_metrics", str(exc)))
    summary, variance = balance_summary(folder), variance_decomposition(folder, outcome)

    def lines() -> list[str]:
        return [*balance_text(summary, lead, variance, roles(folder).units), *(reason for _, reason in missing)]

    def chart() -> Any:
        from simlab.report import charts

        return charts.leader_curve(leader_curve(lead))

    tables = {"summary": summary, "lead": lead, "variance": variance}
    fields = {"outcome": outcome}
    return Answer("balance", lines, tables, missing, folder, fields, chart if lead is not None else missing[0][1])


def fair_vector_answer(result: Any, game: str, tolerance: float, lineup: list[str], seed: int) -> Answer:
    """``simlab compensate`` (the whole vector): the outcome and its first line, the answer, both
    confirmations, the race; no result folder (the fields say the game, knob, budget and seed)."""
    from simlab.analysis.compensation_text import fair_vector_fields, fair_vector_tables, fair_vector_text

    def chart() -> Any:
        from simlab.report import charts

        return charts.seat_win_shares(result.chart_frame())

    fields = fair_vector_fields(result, game, tolerance, lineup, seed)
    tables = fair_vector_tables(result)
    return Answer("compensate", lambda: fair_vector_text(result), tables, fields=fields, chart=chart)


def one_seat_answer(result: Any, knob: str, seat: int, max_games: int, lineup: list[str]) -> Answer:
    """``simlab compensate --seat``: one seat's fractional offset, with what it is and what it is not (text only)."""
    import math

    lo, hi = result.interval
    status = "converged" if result.converged else f"stopped at --max-games {max_games:,} before the target width"
    if math.isfinite(lo) and math.isfinite(hi):
        found = f"{result.fair:+.2f} (95% interval [{lo:+.2f}, {hi:+.2f}])"
    else:
        from simlab.analysis.compensation import games_needed, undetermined

        fit = result.fit
        more = games_needed(result.games, fit.b, math.sqrt(fit.cov[1, 1])) if fit is not None else math.inf
        found = undetermined(result.games, more)
    lines = [f"fair {knob} offset for seat {seat}: {found}; {result.games:,} games spent; {status}"]
    if isinstance(result.base[seat], int):
        lines.append(
            f"note: {knob} takes whole values and this is one seat's curve crossing 1/N, not a rule to print; "
            "without --seat, compensate finds and verifies the whole vector for all seats"
        )

    def chart() -> Any:
        from simlab.analysis.adaptive import as_compensation
        from simlab.report import charts

        return charts.compensation_curve(as_compensation(result, lineup))

    return Answer("compensate", lines, chart=chart)


def robust_answer(result: Any, folder: Path, seating: str, game: str) -> Answer:
    """``simlab robust``: each headline effect per panel bot and its verdict, from the panel in ``folder``."""
    seated = "each in every seat" if seating == "every" else "each in one seat, rotated"
    lines = [
        f"does it hold for other bots? {len(result.bots)} bots, {seated}: {', '.join(result.bots)}",
        *result.lines(),
        f"method: {result.method}",
        f"next: simlab report {folder} (its section 'Does it hold for stronger play?')",
    ]
    tables = {"verdicts": result.verdicts, "estimates": result.estimates}
    fields = {"bots": result.bots, "method": result.method, "seating": seating, "game": game}
    return Answer("robust", lines, tables, folder=str(folder), fields=fields)
