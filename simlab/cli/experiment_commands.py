"""Commands that play games in a loop to answer a question: compensate, compare, robust."""

from __future__ import annotations

import functools
import sys
from typing import Any

import click

import simlab
from simlab.cli.group import UserError, cli
from simlab.cli.options import (
    _config,
    bots_option,
    chart_option,
    choice_option,
    config_options,
    count_option,
    force_jobs_option,
    json_flag,
    json_option,
    players_option,
    points_option,
    scenario_argument,
    seed_option,
    split_bots,
    tolerance_option,
)


@cli.command()
@click.argument("game")
@config_options
@bots_option
@click.option(
    "--knob",
    default=None,
    help="Per-seat config knob to set (default: the knob of the game's --intervention, e.g. start_money).",
)
@choice_option(
    "--intervention",
    choices=["money", "points"],
    default="money",
    text="Which declared per-seat intervention to compensate with (when --knob is not given).",
)
@click.option(
    "--seat",
    "-k",
    type=int,
    help="Only this seat: the fractional offset where its fitted curve crosses 1/N (the old one-seat search); "
    "without it, the whole vector for all seats.",
)
@points_option(
    "--tolerance",
    default=0.5,
    text="Points of win share: the race ends when the vectors left are this close to the best one's largest "
    "deviation from 1/N.",
)
@points_option(
    "--fair-within",
    positive=True,
    default=1.0,
    text="Points of win share: a vector is fair when every seat's simultaneous interval lies within 1/N ± this "
    "(the report's seat tolerance); the published vector is tested first.",
)
@points_option(
    "--width",
    "-w",
    positive=True,
    default=1.0,
    text="With --seat: stop when the 95% interval of the fair offset is narrower than this.",
)
@click.option(
    "--max-games",
    type=click.IntRange(1),
    default=None,
    help="Most games the search spends, confirmation not included (default: 200,000 for the vector, 100,000 "
    "with --seat).",
)
@count_option("--batch", minimum=1, default=2_000, text="Games per vector in each step.")
@count_option("--confirm-games", minimum=2, default=20_000, text="Games of the confirmation run on fresh seeds.")
@seed_option(0)
@count_option(
    "--jobs",
    "-j",
    minimum=1,
    default=1,
    text="Worker processes (the vectors of a step are played in parallel; same results).",
)
@force_jobs_option
@chart_option
@choice_option(
    "--method",
    choices=["fix", "softmax"],
    default="fix",
    text="fix: simlab fix's search, compensate's preset of it (KNOB on the published value .. +10 for every seat, "
    "objective most_equal; its race ends at half of --fair-within); softmax: compensate's own driver (explore, "
    "softmax shortlist, race; kept for one release). Both confirm on the same fresh seeds.",
)
@click.option(
    "--fix",
    "as_fix",
    is_flag=True,
    help="Answer in simlab fix's words and JSON (the same preset; --tolerance, --width: unused).",
)
@json_flag("Print the answer as one JSON object (docs/analysis.md).")
def compensate(
    game: str,
    players: int | None,
    preset: str | None,
    settings: tuple[str, ...],
    bots: str | None,
    knob: str | None,
    intervention: str,
    seat: int | None,
    tolerance: float,
    fair_within: float,
    width: float,
    max_games: int | None,
    batch: int,
    confirm_games: int,
    seed: int,
    jobs: int,
    force_jobs: bool,
    chart: str | None,
    method: str,
    as_fix: bool,
    fmt: str | None,
) -> None:
    """Find the value of KNOB for every seat, on the knob's own grid, that makes the seats equal, and verify it.

    First replays the published vector on --confirm-games fresh seeds: when every seat is within --fair-within of
    1/N, the rules are already fair and nothing is searched. Otherwise plays the base and each seat with more of the
    knob, fits a model of the seats' win shares (--method fix, the default: simlab fix's search with objective
    most_equal; --method softmax: compensate's own driver, kept for one release), races the whole vectors the model
    ranks best (same seeds for every vector; a paired bootstrap drops the clearly less equal ones, games go where
    the decision is close; of those left fix keeps the cheapest, softmax the most equal on its games), then replays
    the chosen vector on --confirm-games fresh seeds and reports its seat shares with 95% intervals and the
    equal-seats test. Whole numbers for an integer knob (softmax: a continuous knob gets the model's answer). The
    first line is the outcome the confirmations support: already fair, fair vector found and confirmed, no vector on
    the knob's grid fair within --fair-within, or not settled (the budget ran out). Progress goes to stderr.
    Default run with --method softmax and --jobs 1: Massilia 130,000 search and 40,000 confirmation games, 4 min
    12 s on 2 busy cores; Roma: 14 s; Merchant of Venus: 46 min (docs/games/; --method fix: docs/analysis.md).
    """
    from simlab.cli.answer import emit
    from simlab.cli.answers import fair_vector_answer
    from simlab.experiments import fair_vector as fv
    from simlab.experiments.knob_search import KnobSearch
    from simlab.run.bench import seat_specs
    from simlab.run.runner import resolve_jobs

    if seat is not None and fmt:  # refused before a game is played: --json was silently ignored with --seat
        raise UserError(
            "--json: compensate --seat answers in text only (one seat's fitted crossing of 1/N, not a rule to "
            "print); drop --json, or drop --seat for the whole vector, whose answer --json prints"
        )
    jobs = resolve_jobs(jobs, force_jobs)
    specs = split_bots(bots)
    g = simlab.get_game(game)
    if knob is None:
        knob = fv.intervention_knob(g, intervention)
    config = _config(g, players, preset, settings, len(specs))
    lineup = seat_specs(g, specs, config.players)
    search = KnobSearch(g, config, knob, lineup, batch=batch, max_games=max_games, seed=seed, jobs=jobs)
    if as_fix:
        from simlab.cli.fix_commands import compensate_as_fix

        if seat is not None:
            raise UserError("--fix: the fix search answers for the whole vector; drop --seat (or --fix)")
        budget = max_games or 200_000
        compensate_as_fix(g, config, knob, lineup, fair_within, budget, batch, confirm_games, seed, jobs, fmt == "json")
        return
    if seat is not None:
        _compensate_one_seat(search, seat, width, chart)
        return
    if method == "fix":
        from simlab.cli.fix_commands import compensate_with_fix

        if click.get_current_context().get_parameter_source("tolerance").name == "COMMANDLINE":
            raise UserError(
                "--tolerance: applies to --method softmax; the fix preset's race ends when the vectors left are "
                "within half of --fair-within of the most equal (0.5 points at the default 1); drop --tolerance"
            )
        compensate_with_fix(search, confirm_games, fair_within, seed, fmt, chart)
        return
    click.echo(
        f"{g.name}: fair {knob} for all {config.players} seats (base {fv._show(search.base())}), "
        f"lineup {','.join(lineup)} rotated; tolerance {tolerance:g} points",
        err=True,
    )
    result = fv.find_fair_vector(
        search,
        confirm_games=confirm_games,
        tolerance=tolerance / 100,
        within=fair_within / 100,
        progress=lambda line: click.echo(line, err=True),
    )
    answer = fair_vector_answer(result, g.name, tolerance, lineup, seed)
    answer.fields = {**answer.fields, "method": "softmax"}
    emit(answer, fmt, chart)


def _compensate_one_seat(search: Any, seat: int, width: float, chart: str | None) -> None:
    """``compensate --seat``: one seat's fractional offset, reported with what it is and what it is not."""
    from simlab.cli.answer import emit
    from simlab.cli.answers import one_seat_answer
    from simlab.experiments.adaptive import MAX_GAMES, find_fair_offset

    knob, lineup = search.knob, search.lineup
    click.echo(
        f"{search.game.name}: compensating seat {seat} with {knob} (base {search.base()}), "
        f"lineup {','.join(lineup)} rotated; target width {width:g}",
        err=True,
    )

    def show(step: Any) -> None:
        offs = ", ".join(f"{o:+g}" for o in step.offsets)
        click.echo(
            f"  played [{offs}]: {step.games:,} games, fair offset {step.fair:+.2f} "
            f"[{step.lo:+.2f}, {step.hi:+.2f}] (width {step.width:.2f})",
            err=True,
        )

    result = find_fair_offset(search, seat, width=width, on_step=show)
    emit(one_seat_answer(result, knob, seat, search.budget(MAX_GAMES), lineup), None, chart)


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("sides", nargs=-1, type=click.UNPROCESSED, metavar="[--preset P] [--set K=V]... --vs ...")
@players_option("Number of players (default: the game's).")
@bots_option
@count_option("--games", "-n", minimum=2, default=2_000, text="Games per side.")
@seed_option(1)
@click.option("--jobs", "-j", type=click.IntRange(-1), help="Worker processes (default: every core).")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Keep the result folder here (default: none).")
@tolerance_option
@json_option
def compare(
    game: str,
    sides: tuple[str, ...],
    players: int | None,
    bots: str | None,
    games: int,
    seed: int,
    jobs: int | None,
    out: str | None,
    tolerance: float,
    fmt: str | None,
) -> None:
    """A what-if without a scenario file: GAME with one side's preset and knobs against the other's.

    \b
      simlab compare massilia --set start_money=6,7,8,8 --vs --preset rulebook
      simlab compare roma --preset bribe_disc --vs

    Both sides play the game's default lineup, rotated through the seats, on the same game seeds; the answer is
    each side's seat table and verdict and the paired change of every seat against the --vs side (as
    `simlab seats --base`). More games (--games) narrow the intervals; --out keeps the folder for a report.
    --json tables (--csv: the first, both sides): seats, equal_seats, verdicts, compare.
    """
    from simlab.cli.answer import emit
    from simlab.cli.answers import compare_answer
    from simlab.experiments.what_if import what_if

    say = functools.partial(click.echo, err=True)  # one line on stderr before the games start
    result = what_if(game, sides, players, split_bots(bots), games, seed, jobs, out, say)
    emit(compare_answer(result, game, tolerance / 100, games, seed), fmt)


@cli.command()
@scenario_argument
@click.option(
    "--panel",
    required=True,
    metavar="BOTS",
    help="Bot specs, comma-separated (e.g. random,trader,priest); each plays the scenario as --seating says.",
)
@choice_option(
    "--seating",
    choices=["every", "one"],
    default="every",
    text="every: each panel bot in every seat; one: in one seat, rotated among the scenario's lineup (a search "
    "bot then costs about a third as much in a 4-player game: docs/search.md).",
)
@click.option("--games", "-n", type=click.IntRange(1), help="Games per variant for each panel bot [scenario's].")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="The scenario's result folder [results/<name>].")
@click.option("--jobs", "-j", type=int, default=-1, show_default=True, help="Worker processes; -1 = all cores.")
@force_jobs_option
@click.option("--base", metavar="VARIANT", help="The variant the others are compared with [rulebook, control, …].")
@json_option
def robust(
    scenario: str,
    panel: str,
    games: int | None,
    out: str | None,
    jobs: int,
    force_jobs: bool,
    base: str | None,
    fmt: str | None,
    seating: str,
) -> None:
    """Does SCENARIO's answer hold for other bots? Plays it once per --panel bot, that bot in every seat (or with
    --seating one in one seat, rotated among the scenario's lineup), on the same game seeds, into <out>/panel/,
    then compares each headline effect across the bots.

    Each effect (each seat's advantage in the base variant; each variant's paired change per seat, or each card's
    value in a card design) gets its estimate per bot with a 95% interval, a test of the bot x effect interaction
    (Cochran's Q, Holm-adjusted over the effects) and a verdict: holds for every bot tested (every bot's interval
    on one side of zero) / changes with the bots / no detectable effect / not settled, each Holm-adjusted. The
    same bot under two names is refused. A stopped panel resumes. --json tables: verdicts, estimates.
    """
    from simlab.analysis.robust import robustness
    from simlab.cli.answer import emit
    from simlab.cli.answers import robust_answer
    from simlab.experiments.panel import run_panel
    from simlab.run.scenario import load_scenario

    if base:  # a misspelt --base is refused before a single panel game is played, with "did you mean"
        load_scenario(scenario).variant(base)
    root = run_panel(
        scenario,
        split_bots(panel),
        out=out,
        games=games,
        jobs=jobs,
        stream=sys.stderr,
        force_jobs=force_jobs,
        seating=seating,
    )
    emit(robust_answer(robustness(root, base=base), root.parent, seating, load_scenario(scenario).game), fmt)
