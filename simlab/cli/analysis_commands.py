"""Commands that answer a question from a result folder: seats, compensation, cards, markets, balance, report."""

from __future__ import annotations

import click

from simlab.cli.group import cli
from simlab.cli.options import (
    _chart_line,
    _echo,
    _emit_json,
    _json_guard,
    chart_option,
    folder_argument,
    json_option,
    tolerance_option,
)
from simlab.core.errors import NotAvailableError


@cli.command()
@folder_argument
@click.option("--base", metavar="VARIANT", help="Also show each seat's change against this variant (paired).")
@click.option("--variant", "chosen", multiple=True, metavar="VARIANT", help="Show only this variant (repeatable).")
@click.option("--top", type=click.IntRange(0), default=5, show_default=True, help="Variants summarised in a big run.")
@click.option("--all", "show_all", is_flag=True, help="Show every variant in full, however many the run has.")
@tolerance_option
@chart_option
@json_option
def seats(
    folder: str,
    base: str | None,
    chosen: tuple[str, ...],
    top: int,
    show_all: bool,
    tolerance: float,
    chart: str | None,
    fmt: str | None,
) -> None:
    """Seat advantage in a result FOLDER: win share, score and rank by seat with 95% intervals.

    Also tests "all seats are equal" per variant (Wald chi-square on per-game win shares, split wins
    included); a seat is flagged only if that test rejects and its interval, simultaneous over the seats
    (Bonferroni), excludes 1/N; each variant's verdict says whether the seats are unequal by more than
    --tolerance points. With --base, each other variant's change per seat, paired by game seed, with Holm-adjusted
    p-values and simultaneous intervals over all seats and variants. A run of more than six variants shows its
    base (--base, else control or rulebook) in full and the --top variants furthest from the fair share in a
    sentence each. --json tables (--csv: the first, every variant): seats, equal_seats, verdicts (and compare).
    """
    from simlab.analysis import compare_variants, seat_advantage
    from simlab.analysis.frames import roles
    from simlab.analysis.seat_focus import focus, shown_changes, summary_lines
    from simlab.analysis.seats import seat_verdicts
    from simlab.analysis.text import compare_text, seats_text

    with _json_guard("seats", folder, "seat_advantage", fmt):
        df = seat_advantage(folder)
        compared = compare_variants(folder, base) if base else None
        if fmt:
            equal = df.select("variant", "chi2_equal", "df_equal", "p_equal", "games").unique(
                "variant", keep="first", maintain_order=True
            )  # polars keeps no order otherwise: --json would differ between two invocations
            tables = {"seats": df, "equal_seats": equal, "verdicts": seat_verdicts(df, tolerance / 100)}
            _emit_json("seats", folder, tables | {"compare": compared}, [], fmt, base=base)
        else:
            shown = focus(df, base, chosen, top, show_all)
            _echo(seats_text(shown.full, tolerance / 100, roles(folder).units))
            _echo(summary_lines(df, shown, tolerance / 100, folder))
            if compared is not None:
                _echo(compare_text(shown_changes(compared, shown)))
        if chart:
            from simlab.report import charts

            _chart_line(charts.save(charts.seat_win_shares(df), chart), fmt)


@cli.command()
@folder_argument
@click.option("--seat", type=int, help="Fit only this seat (default: every seat whose starting money varies).")
@chart_option
@json_option
def compensation(folder: str, seat: int | None, chart: str | None, fmt: str | None) -> None:
    """Fair starting money from a starting-money sweep in FOLDER (e.g. scenarios/starting_money_sweep.toml).

    Fits the seat's win share against its money offset (logistic, game-clustered sandwich covariance)
    and prints the offset at which it wins 1/N of the games, with a Fieller 95% interval, and the fair amount
    against the published rules' starting money of every seat (never a negative amount). A sweep of the
    starting points in the same folder is fitted too (--json table fit_points). --json tables
    (--csv: the first): fit (one row per seat), points (win share by offset), curve (the fitted curve).
    """
    from simlab.analysis import compensation as fit
    from simlab.analysis.compensation import folder_sweep, swept_kinds
    from simlab.analysis.compensation_text import compensation_text, left_out_line
    from simlab.analysis.frames import roles
    from simlab.analysis.words import with_unit

    with _json_guard("compensation", folder, "compensation", fmt):
        _, left_out = folder_sweep(folder)  # refuses a folder whose variants differ in more than the knob
        comp = fit(folder, seat=seat)
        # a points intervention swept in the same folder is fitted too, in the game's points
        more = [fit(folder, seat=seat, kind=k) for k in swept_kinds(folder) if k != "money"]
        units = roles(folder).units
        if fmt:
            unit = units.of("money")  # every table's offsets are in the game's money; a fit_points' in its points
            tables = {"fit": with_unit(comp.fit, unit), "points": with_unit(comp.points, unit), "curve": comp.curve}
            tables |= {f"fit_{c.kind}": with_unit(c.fit, units.of(c.kind)) for c in more}
            extra = {"level": comp.level, "players": comp.players, "bots": comp.bots, "left_out": left_out}
            _emit_json("compensation", folder, tables, [], fmt, **extra)
        else:
            _echo([line for c in (comp, *more) for line in compensation_text(c, units)])
            if left_out:  # after the answer, and short: a card run leaves fifty variants out
                click.echo(left_out_line(left_out, units))
        if chart:
            from simlab.report import charts

            _chart_line(charts.save(charts.compensation_curve(comp, units=units), chart), fmt)


@cli.command()
@folder_argument
@click.option("--control", default="control", show_default=True, help="The variant without an intervention.")
@click.option(
    "--sweep",
    type=click.Path(file_okay=False),
    metavar="FOLDER",
    help="Price the cards (gods, items: the game's noun) in its money with this sweep (when the run has no money "
    "variants).",
)
@click.option(
    "--adjust",
    type=click.Choice(["holm", "bh"]),
    default="holm",
    show_default=True,
    help="Multiple-testing adjustment: holm (family-wise error) or bh (false discovery rate).",
)
@chart_option
@json_option
def cards(folder: str, control: str, sweep: str | None, adjust: str, chart: str | None, fmt: str | None) -> None:
    """Card value from an intervention run in FOLDER (e.g. scenarios/card_value.toml), in the game's words.

    What the game's card intervention grants (a card, a god, an item), and granted amounts of money or points.
    Per card: the change in the granted seat's win share and score against the control on the same game
    seeds (paired 95% intervals, adjusted p-values), in the game's money when the run has money<m>_seat<k>
    variants (or --sweep is given), beside the correlational played-vs-not view. --json (and --csv) table: cards.
    """
    import polars as pl

    from simlab.analysis import MoneyRate, card_value, with_ranks
    from simlab.analysis import compensation as fit
    from simlab.analysis.folder_question import require_card_run
    from simlab.analysis.frames import roles
    from simlab.analysis.text import cards_text
    from simlab.analysis.words import with_units, words

    with _json_guard("cards", folder, "card_value", fmt):
        require_card_run(folder, control)  # a seat run, a sweep: names the scenario that would answer
        money = None
        if sweep:
            r = fit(sweep).fit.row(0, named=True)
            money = MoneyRate(r["rate"], r["rate_se"], f"the sweep in {sweep}, seat {r['seat']}", r["games"])
        df = card_value(folder, control=control, money=money, adjust=adjust)
        df = with_ranks(df, ranked=pl.col("kind") == "card")
        units, said = roles(folder).units, words(folder)
        if fmt:
            _emit_json(
                "cards", folder, {"cards": with_units(df, said)}, [], fmt, control=control, adjust=adjust, sweep=sweep
            )
        else:
            _echo(cards_text(df, said))
        if chart:
            from simlab.report import charts

            _chart_line(charts.save(charts.card_value_forest(df, units=units), chart), fmt)


@cli.command()
@folder_argument
@click.option(
    "--series",
    type=click.Choice(["price", "marker", "bought", "sold", "harbour"]),
    default="marker",
    show_default=True,
    help="Series drawn by --chart (and, with --json, the trajectories table).",
)
@click.option("--base", metavar="VARIANT", help="Also show each seat's win-share change against this variant.")
@click.option("--variant", "chosen", multiple=True, metavar="VARIANT", help="Show only this variant (repeatable).")
@click.option("--all", "show_all", is_flag=True, help="Show every variant, however many the run has.")
@chart_option
@json_option
def markets(
    folder: str,
    series: str,
    base: str | None,
    chosen: tuple[str, ...],
    show_all: bool,
    chart: str | None,
    fmt: str | None,
) -> None:
    """Market shifts in FOLDER: demand collapses and recoveries, money and points per unit sold.

    A game that declares no market answers "not available for this game" with the missing roles (exit 0).
    A run of more than six variants shows its base (--base, else control or rulebook); --variant, --all the others.
    --json tables (--csv: the first, every variant): collapses, sale_yield, trajectories (of --series), compare.
    """
    from simlab.analysis import compare_variants, market_summary, sale_yield
    from simlab.analysis.frames import roles
    from simlab.analysis.market_focus import hidden_line, only, shown_variants
    from simlab.analysis.markets import applicable_yields
    from simlab.analysis.text import compare_text, markets_text

    with _json_guard("markets", folder, "market_summary", fmt):
        summary = market_summary(folder, series=(series,))  # one pass over the market columns
        missing = None
        if summary.sale_yield is None:
            try:
                sale_yield(folder)  # raises NotAvailableError saying which roles are missing
            except NotAvailableError as exc:
                missing = str(exc)
        units = roles(folder).units
        compared = compare_variants(folder, base) if base else None
        if fmt:
            tables = {
                "collapses": summary.collapses,
                "sale_yield": applicable_yields(summary.sale_yield),  # no points column where no sale earns one
                "trajectories": summary.trajectories,
                "compare": compared,
            }
            _emit_json("markets", folder, tables, [("sale_yield", missing)] if missing else [], fmt, series=series)
        else:
            variants = list(dict.fromkeys(summary.collapses["variant"].to_list()))
            shown = shown_variants(variants, base, chosen, show_all)
            _echo(markets_text(only(summary.collapses, shown), only(summary.sale_yield, shown), units))
            _echo(hidden_line(variants, shown, folder))
            if missing:
                click.echo(missing)
            if compared is not None:
                _echo(compare_text(compared))
        if chart:
            from simlab.report import charts

            fig = charts.market_trajectories(summary.trajectories, series, units=units)
            _chart_line(charts.save(fig, chart), fmt)


@cli.command()
@folder_argument
@click.option(
    "--outcome",
    type=click.Choice(["score", "win_share"]),
    default="score",
    show_default=True,
    help="Result whose variance is split into seat, bot and chance.",
)
@chart_option
@json_option
def balance(folder: str, outcome: str, chart: str | None, fmt: str | None) -> None:
    """General balance metrics in FOLDER: length, margin, draws, decisiveness, lead changes, luck.

    Decisiveness and lead changes need per-round scores: for a game that records none (Roma) the rest is
    shown and that part is reported as not available. --chart draws the leader's win chance by round.
    --json tables (--csv: the first): summary, lead, variance.
    """
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
    if fmt:
        _emit_json(
            "balance", folder, {"summary": summary, "lead": lead, "variance": variance}, missing, fmt, outcome=outcome
        )
    else:
        _echo(balance_text(summary, lead, variance, roles(folder).units))
        for _, reason in missing:
            click.echo(reason)
    if chart:
        if lead is None:
            click.echo(f"no chart: {missing[0][1]}", err=bool(fmt))
        else:
            from simlab.report import charts

            _chart_line(charts.save(charts.leader_curve(leader_curve(lead)), chart), fmt)


@cli.command()
@folder_argument
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=True, allow_dash=True),
    metavar="FILE",
    help="HTML file to write (default: reports/<result folder name>.html); - writes to standard output. "
    "A symlink is written through to its target; a directory, device or FIFO is refused.",
)
@click.option(
    "--sweep",
    type=click.Path(file_okay=False),
    metavar="FOLDER",
    help="A starting-money sweep whose exchange rate prices seat deficits (and cards) in sesterces.",
)
@tolerance_option
def report(folder: str, out: str | None, sweep: str | None, tolerance: float) -> None:
    """Write the balance report of a result FOLDER: one self-contained HTML file.

    Headline findings in plain words with their 95% intervals, one section per analysis the results
    support (seats and money, card value, markets, general metrics) with charts and tables, flags for
    results that rest on rule assumptions, and the commands that reproduce it. Opens offline.
    """
    import time

    from simlab.report.html import write_report

    t0 = time.perf_counter()
    path = write_report(
        folder, out, sweep=sweep, progress=lambda line: click.echo(line, err=True), tolerance=tolerance / 100
    )
    if str(path) == "-":
        click.echo(f"report: written to standard output (built in {time.perf_counter() - t0:.1f} s)", err=True)
        return
    size = path.stat().st_size
    click.echo(f"report: {path}  ({size / 1e6:.1f} MB, built in {time.perf_counter() - t0:.1f} s)")
