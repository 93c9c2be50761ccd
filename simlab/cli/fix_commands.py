"""``simlab fix``: the smallest rule change that makes a scenario's game fair, certified (argument parsing; the
search is ``simlab.experiments.fix_run``, its words ``simlab.analysis.fix_words``)."""

from __future__ import annotations

from typing import Any

import click

from simlab.cli.group import FiniteFloatRange, cli
from simlab.cli.options import split_bots
from simlab.run.fix_question import LEAST_BATCH, LEAST_CERTIFY_GAMES


@cli.command("fix")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option(
    "--tolerance",
    type=FiniteFloatRange(min=0, min_open=True),
    help="Points of win share: every seat within 1/N ± this [the scenario's fix.tolerance, else 1].",
)
@click.option(
    "--budget",
    type=click.IntRange(1),
    help="Most search games (explore and race; certification extra) [fix.budget, else 200,000].",
)
@click.option(
    "--batch",
    type=click.IntRange(LEAST_BATCH),
    help=f"Games per candidate and round of the search (at least {LEAST_BATCH}) [fix.batch, else 1,000].",
)
@click.option(
    "--certify-games",
    type=click.IntRange(LEAST_CERTIFY_GAMES),
    help="Most fresh games per certification lineup (the scenario's, then each panel bot) and attempt, read in "
    f"looks that stop early (at least {LEAST_CERTIFY_GAMES}) [fix.certify_games, else 20,000].",
)
@click.option("--panel", metavar="BOTS", help="Bots the fix is certified with, each in every seat [fix.panel].")
@click.option(
    "--alpha",
    type=FiniteFloatRange(min=0, max=0.5, min_open=True, max_open=True),
    help="At most this chance of certifying a change that is not fair within the tolerance [fix.alpha, else 0.05].",
)
@click.option("--seed", "-s", type=click.IntRange(0), help="Root seed of the search [fix.seed, else the scenario's].")
@click.option(
    "--jobs", "-j", type=click.IntRange(1), default=1, show_default=True, help="Worker processes (same answer)."
)
@click.option("--force-jobs", is_flag=True, help="Allow more --jobs than this machine's cores.")
@click.option("--out", "-o", type=click.Path(file_okay=False), help="Result folder [results/<scenario name>].")
@click.option("--resume", is_flag=True, help="Continue the search kept in --out (the same question).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as one JSON object (docs/experiments.md).")
def fix(
    scenario: str,
    tolerance: float | None,
    budget: int | None,
    batch: int | None,
    certify_games: int | None,
    panel: str | None,
    alpha: float | None,
    seed: int | None,
    jobs: int,
    force_jobs: bool,
    out: str | None,
    resume: bool,
    as_json: bool,
) -> None:
    """What is the smallest change of the rules that makes SCENARIO's game fair? Answers the scenario's [fix]
    question (the knobs that may change and their grids, the guards; docs/experiments.md).

    Explores the knobs on shared seeds, races the cheapest candidates the response model says are fair, then
    certifies the chosen change on fresh seeds with the scenario's lineup and each --panel bot in every seat. The
    answer is the change in the game's words, the seat shares before and after with intervals, the guards, the
    panel, the cheapest alternatives that also pass and the games spent; "fair" only when every certification
    passed. Progress on stderr; every play is kept in <out>/fix, so a stopped search continues with --resume to
    the same answer; `simlab report <out>` shows it as "What would fix it?".
    """
    from simlab.cli.answer import emit
    from simlab.experiments.fix_run import run_fix
    from simlab.run.runner import resolve_jobs

    jobs = resolve_jobs(jobs, force_jobs)
    overrides = {"tolerance": tolerance, "budget": budget, "batch": batch, "certify_games": certify_games}
    overrides |= {"alpha": alpha, "seed": seed}
    overrides["panel"] = split_bots(panel) if panel else None
    run = run_fix(
        scenario, overrides, out=out, resume=resume, jobs=jobs, progress=lambda line: click.echo(line, err=True)
    )
    head = {"scenario": run.scenario.source, "folder": str(run.folder), "question": run.identity_hash}
    seat_knobs = [k.name for k in run.question.knobs if k.kind == "seats"]
    more = [f"next: simlab report {run.folder}"]
    answer = fix_answer("fix", run.result, run.scenario.game, head, more, seat_knobs)
    emit(answer, "json" if as_json else None)


def fix_answer(
    command: str, result: dict[str, Any], game: str, head: dict[str, Any], more: list[str], seat_knobs: list[str]
) -> Any:
    """The answer of a fix search (``simlab fix``, ``simlab compensate --fix``): the words and tables of
    ``analysis.fix_words``; its JSON the game, its units, ``head``, the headline and the result's keys."""
    from simlab.analysis import fix_words as W
    from simlab.cli.answer import Answer

    vocab = W.vocabulary(game, seat_knobs)
    fields = {
        "game": game,
        "units": vocab.words.as_json(),
        **head,
        "headline": W.headline(result, vocab)[0],
        "change_words": W.change_text(result.get("change"), vocab) if result.get("change") else None,
        "certified": W.is_certified(result),
        **result,
    }
    return Answer(command, [*W.answer_lines(result, vocab), *more], fields=fields)


def compensate_as_fix(
    game: Any, config: Any, knob: str, lineup: list[str], within: float, budget: int, batch: int,
    certify_games: int, seed: int, jobs: int, as_json: bool,
) -> None:  # fmt: skip
    """``simlab compensate --fix``: compensate's question (``fix_presets.compensate_question``) answered by the fix
    search, in its words; no folder is kept (``simlab fix`` with a scenario keeps one and resumes)."""
    from simlab.analysis.fix_words import progress_line, vocabulary
    from simlab.cli.answer import emit
    from simlab.experiments.fix import find_fix
    from simlab.experiments.fix_presets import compensate_question

    q = compensate_question(
        game, config, knob, lineup, fair_within=within, budget=budget, batch=batch, certify_games=certify_games,
        seed=seed,
    )  # fmt: skip
    click.echo(f"{game.name}: {knob} for all {config.players} seats as a fix, lineup {','.join(lineup)}", err=True)
    said = vocabulary(game.name, [knob])
    result = find_fix(q, jobs=jobs, progress=lambda info: click.echo(progress_line(info, said), err=True)).to_dict()
    head = {"knob": knob, "lineup": list(lineup), "seed": seed, "preset": "compensate"}
    emit(fix_answer("compensate", result, game.name, head, [], [knob]), "json" if as_json else None)
