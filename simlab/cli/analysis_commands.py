"""Commands that answer a question from a result folder: seats, compensation, cards, markets, balance, report."""

from __future__ import annotations

import click

from simlab.cli.answer import answer_or_reason, emit
from simlab.cli.group import cli
from simlab.cli.options import (
    chart_option,
    choice_option,
    control_variates_option,
    folder_argument,
    json_option,
    tolerance_option,
    variant_filter_option,
)


@cli.command()
@folder_argument
@click.option("--base", metavar="VARIANT", help="Also show each seat's change against this variant (paired).")
@variant_filter_option
@click.option("--top", type=click.IntRange(0), default=5, show_default=True, help="Variants summarised in a big run.")
@click.option("--all", "show_all", is_flag=True, help="Show every variant in full, however many the run has.")
@tolerance_option
@control_variates_option
@chart_option
@json_option
def seats(
    folder: str,
    base: str | None,
    chosen: tuple[str, ...],
    top: int,
    show_all: bool,
    tolerance: float,
    control_variates: bool,
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
    from simlab.cli.answers import seats_answer

    emit(
        answer_or_reason(
            "seats",
            folder,
            "seat_advantage",
            lambda: seats_answer(folder, base, chosen, top, show_all, tolerance / 100, control_variates),
        ),
        fmt,
        chart,
    )


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
    from simlab.cli.answers import compensation_answer

    emit(
        answer_or_reason("compensation", folder, "compensation", lambda: compensation_answer(folder, seat)), fmt, chart
    )


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
@choice_option(
    "--adjust",
    choices=["holm", "bh"],
    default="holm",
    text="Multiple-testing adjustment: holm (family-wise error) or bh (false discovery rate).",
)
@control_variates_option
@chart_option
@json_option
def cards(
    folder: str,
    control: str,
    sweep: str | None,
    adjust: str,
    control_variates: bool,
    chart: str | None,
    fmt: str | None,
) -> None:
    """Card value from an intervention run in FOLDER (e.g. scenarios/card_value.toml), in the game's words.

    What the game's card intervention grants (a card, a god, an item), and granted amounts of money or points.
    Per card: the change in the granted seat's win share and score against the control on the same game
    seeds (paired 95% intervals, adjusted p-values), in the game's money when the run has money<m>_seat<k>
    variants (or --sweep is given), beside the correlational played-vs-not view. --json (and --csv) table: cards.
    """
    from simlab.cli.answers import cards_answer

    emit(
        answer_or_reason(
            "cards", folder, "card_value", lambda: cards_answer(folder, control, sweep, adjust, control_variates)
        ),
        fmt,
        chart,
    )


@cli.command()
@folder_argument
@choice_option(
    "--series",
    choices=["price", "demand", "bought", "sold", "supply", "marker", "harbour"],
    default="demand",
    text="Series drawn by --chart (and, with --json, the trajectories table); marker and harbour are the old "
    "names of demand and supply.",
)
@click.option("--base", metavar="VARIANT", help="Also show each seat's win-share change against this variant.")
@variant_filter_option
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
    from simlab.cli.answers import markets_answer

    emit(
        answer_or_reason(
            "markets", folder, "market_summary", lambda: markets_answer(folder, series, base, chosen, show_all)
        ),
        fmt,
        chart,
    )


@cli.command()
@folder_argument
@choice_option(
    "--outcome",
    choices=["score", "win_share"],
    default="score",
    text="Result whose variance is split into seat, bot and chance.",
)
@chart_option
@json_option
def balance(folder: str, outcome: str, chart: str | None, fmt: str | None) -> None:
    """General balance metrics in FOLDER: length, margin, draws, decisiveness, lead changes, luck.

    Decisiveness and lead changes need per-round scores: for a game that records none (Roma) the rest is
    shown and that part is reported as not available. --chart draws the leader's win chance by round.
    --json tables (--csv: the first): summary, lead, variance.
    """
    from simlab.cli.answers import balance_answer

    emit(balance_answer(folder, outcome), fmt, chart)


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
