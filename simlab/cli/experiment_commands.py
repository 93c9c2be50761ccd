"""Commands that play games in a loop to answer a question: compensate, compare, robust."""

from __future__ import annotations

import functools
import sys
from typing import Any

import click

import simlab
from simlab.cli.group import FiniteFloatRange, UserError, cli
from simlab.cli.options import (
    _config,
    bots_option,
    chart_option,
    config_options,
    json_option,
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
@click.option(
    "--intervention",
    type=click.Choice(["money", "points"]),
    default="money",
    show_default=True,
    help="Which declared per-seat intervention to compensate with (when --knob is not given).",
)
@click.option(
    "--seat",
    "-k",
    type=int,
    help="Only this seat: the fractional offset where its fitted curve crosses 1/N (the old one-seat search); "
    "without it, the whole vector for all seats.",
)
@click.option(
    "--tolerance",
    type=FiniteFloatRange(min=0),
    default=0.5,
    show_default=True,
    help="Points of win share: the race ends when the vectors left are this close to the best one's largest "
    "deviation from 1/N.",
)
@click.option(
    "--fair-within",
    type=FiniteFloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Points of win share: a vector is fair when every seat's simultaneous interval lies within 1/N ± this "
    "(the report's seat tolerance); the published vector is tested first.",
)
@click.option(
    "--width",
    "-w",
    type=FiniteFloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="With --seat: stop when the 95% interval of the fair offset is narrower than this.",
)
@click.option(
    "--max-games",
    type=click.IntRange(1),
    default=None,
    help="Most games the search spends, confirmation not included (default: 200,000 for the vector, 100,000 "
    "with --seat).",
)
@click.option(
    "--batch", type=click.IntRange(1), default=2_000, show_default=True, help="Games per vector in each step."
)
@click.option(
    "--confirm-games",
    type=click.IntRange(2),
    default=20_000,
    show_default=True,
    help="Games of the confirmation run on fresh seeds.",
)
@click.option("--seed", "-s", type=click.IntRange(0), default=0, show_default=True, help="Root seed.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Worker processes (the vectors of a step are played in parallel; same results).",
)
@click.option("--force-jobs", is_flag=True, help="Allow more --jobs than this machine's cores.")
@chart_option
@click.option(
    "--fix",
    "as_fix",
    is_flag=True,
    help="Answer with simlab fix's search, compensate's preset of it: KNOB on the published value .. +10 for every "
    "seat, the cheapest vector certified fair within --fair-within on fresh seeds (--tolerance, --width: unused).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as one JSON object (docs/analysis.md).")
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
    as_fix: bool,
    as_json: bool,
) -> None:
    """Find the value of KNOB for every seat, on the knob's own grid, that makes the seats equal, and verify it.

    First replays the published vector on --confirm-games fresh seeds: when every seat is within --fair-within of
    1/N, the rules are already fair and nothing is searched. Otherwise plays the base and each seat with more of the
    knob, fits a softmax model of the seats' win shares, races the whole vectors the model ranks best (same seeds
    for every vector; a paired bootstrap drops the clearly worse ones, games go where the decision is close), then
    replays the chosen vector on --confirm-games fresh seeds and reports its seat shares with 95% intervals and the
    equal-seats test. Integer knobs get whole numbers; continuous ones the model's answer. The first line is the
    outcome the confirmations support: already fair, fair vector found and confirmed, no vector on the knob's grid
    fair within --fair-within, or not settled (the budget ran out). Progress goes to stderr. Default run on Massilia
    with --jobs 1: 130,000 search and 40,000 confirmation games, 4 min 12 s on 2 busy cores; Roma: 14 s; Merchant
    of Venus: 46 min (docs/games/).
    """
    from simlab.experiments import fair_vector as fv
    from simlab.run.bench import seat_specs
    from simlab.run.runner import resolve_jobs

    if seat is not None and as_json:  # refused before a game is played: --json was silently ignored with --seat
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
    if as_fix:
        from simlab.cli.fix_commands import compensate_as_fix

        if seat is not None:
            raise UserError("--fix: the fix search answers for the whole vector; drop --seat (or --fix)")
        budget = max_games or 200_000
        compensate_as_fix(g, config, knob, lineup, fair_within, budget, batch, confirm_games, seed, jobs, as_json)
        return
    if seat is not None:
        _compensate_one_seat(g, config, knob, seat, lineup, width, max_games or 100_000, batch, seed, jobs, chart)
        return
    click.echo(
        f"{g.name}: fair {knob} for all {config.players} seats (base {fv._show(fv.knob_vector(config, knob))}), "
        f"lineup {','.join(lineup)} rotated; tolerance {tolerance:g} points",
        err=True,
    )
    result = fv.find_fair_vector(
        g,
        config,
        knob,
        lineup,
        batch=batch,
        max_games=max_games or 200_000,
        confirm_games=confirm_games,
        tolerance=tolerance / 100,
        seed=seed,
        progress=lambda line: click.echo(line, err=True),
        jobs=jobs,
        within=fair_within / 100,
    )
    from simlab.cli.answer import emit
    from simlab.cli.answers import fair_vector_answer

    emit(fair_vector_answer(result, g.name, tolerance, lineup, seed), "json" if as_json else None, chart)


def _compensate_one_seat(
    g: Any, config: Any, knob: str, seat: int, lineup: list[str], width: float, max_games: int, batch: int,
    seed: int, jobs: int, chart: str | None,
) -> None:  # fmt: skip
    """``compensate --seat``: one seat's fractional offset, reported with what it is and what it is not."""
    from simlab.cli.answer import emit
    from simlab.cli.answers import one_seat_answer
    from simlab.experiments.adaptive import find_fair_offset

    click.echo(
        f"{g.name}: compensating seat {seat} with {knob} (base {getattr(config, knob, '?')}), "
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

    result = find_fair_offset(
        g, config, knob, seat, lineup, width=width, max_games=max_games, batch=batch, seed=seed, on_step=show, jobs=jobs
    )
    emit(one_seat_answer(result, knob, seat, max_games, lineup), None, chart)


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("sides", nargs=-1, type=click.UNPROCESSED, metavar="[--preset P] [--set K=V]... --vs ...")
@click.option("--players", "-p", type=click.IntRange(1), help="Number of players (default: the game's).")
@bots_option
@click.option("--games", "-n", type=click.IntRange(2), default=2_000, show_default=True, help="Games per side.")
@click.option("--seed", "-s", type=click.IntRange(0), default=1, show_default=True, help="Root seed.")
@click.option("--jobs", "-j", type=click.IntRange(-1), help="Worker processes (default: every core).")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Keep the result folder here (default: none).")
@tolerance_option
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
) -> None:
    """A what-if without a scenario file: GAME with one side's preset and knobs against the other's.

    \b
      simlab compare massilia --set start_money=6,7,8,8 --vs --preset rulebook
      simlab compare roma --preset bribe_disc --vs

    Both sides play the game's default lineup, rotated through the seats, on the same game seeds; the answer is
    each side's seat table and verdict and the paired change of every seat against the --vs side (as
    `simlab seats --base`). More games (--games) narrow the intervals; --out keeps the folder for a report.
    """
    from simlab.cli.answer import Answer, emit
    from simlab.experiments.what_if import what_if, what_if_lines

    say = functools.partial(click.echo, err=True)  # one line on stderr before the games start
    result = what_if(game, sides, players, split_bots(bots), games, seed, jobs, out, say)
    emit(Answer("compare", what_if_lines(result, tolerance / 100, games)), None)  # text only: no --json yet


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option(
    "--panel",
    required=True,
    metavar="BOTS",
    help="Bot specs, comma-separated (e.g. random,trader,priest); each plays the scenario as --seating says.",
)
@click.option(
    "--seating",
    type=click.Choice(["every", "one"]),
    default="every",
    show_default=True,
    help="every: each panel bot in every seat; one: in one seat, rotated among the scenario's lineup (a search "
    "bot then costs about a third as much in a 4-player game: docs/search.md).",
)
@click.option("--games", "-n", type=click.IntRange(1), help="Games per variant for each panel bot [scenario's].")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="The scenario's result folder [results/<name>].")
@click.option("--jobs", "-j", type=int, default=-1, show_default=True, help="Worker processes; -1 = all cores.")
@click.option("--force-jobs", is_flag=True, help="Allow more --jobs than this machine's cores.")
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
