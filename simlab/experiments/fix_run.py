"""``simlab fix SCENARIO``: the scenario's ``[fix]`` question (with the command's overrides) answered by the fix
driver into a folder that resumes.

The question is read and checked before any game (a bad ``[fix]`` table or override is refused naming its key);
its identity (the scenario text's hash and every option that decides a game or a decision) heads ``fix.json``, so
``--resume`` continues only the same question. Every play goes through ``fix_trials.StoredTrials``: a search
stopped at any point and run again replays the plays it has and takes the same decisions, to the same answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from simlab.analysis.fix_words import progress_line, vocabulary
from simlab.experiments.fix_question import FixQuestion, FixQuestionError, fix_question_from_table
from simlab.experiments.fix_trials import stored_trials
from simlab.run.errors import RunInterrupted
from simlab.run.fix_folder import FORMAT, FixStore
from simlab.run.fix_question import DEFAULT_OBJECTIVE
from simlab.run.scenario import Scenario, load_scenario

#: the options of ``simlab fix`` that override the ``[fix]`` table's keys of the same name
OVERRIDES = ("tolerance", "budget", "batch", "certify_games", "panel", "alpha", "seed", "objective")


@dataclasses.dataclass(frozen=True)
class FixRun:
    """A finished ``simlab fix``: the scenario, the question, its folder and the answer (``FixResult.to_dict()``)."""

    scenario: Scenario
    question: FixQuestion
    folder: Path
    identity_hash: str
    result: dict[str, Any]


def fix_question_of(sc: Scenario, overrides: Mapping[str, Any]) -> FixQuestion:
    """The scenario's ``[fix]`` question with ``overrides`` (None: the table's value) checked as the table is."""
    if not sc.fix:
        raise FixQuestionError(
            f"{sc.source}: no [fix] table: simlab fix answers a scenario's [fix] question; add one (the knobs that "
            "may change and their grids: docs/experiments.md, 'simlab fix: the question')"
        )
    import simlab

    table = {**sc.fix, **{k: v for k, v in overrides.items() if v is not None}}
    if table.get("panel") is not None:
        table["panel"] = list(table["panel"])
    return fix_question_from_table(table, simlab.get_game(sc.game), sc.variants[0].config, sc.seats, sc.source, sc.seed)


def identity_of(sc: Scenario, q: FixQuestion) -> dict[str, Any]:
    """What decides a fix search's games and decisions: the scenario (its text's hash, the rules' version, the
    data files its config reads, by content) and the question's options; the objective only when it is not the
    default (a folder written before there was one is the same question, and resumes)."""
    chosen = {"objective": q.objective} if q.objective != DEFAULT_OBJECTIVE else {}
    return {
        "format": FORMAT,
        "scenario_sha256": sc.text_hash,
        "rules_version": sc.rules_version,
        "data_files": {v: dict(files) for v, files in sc.data_files.items()},
        "tolerance": q.tolerance,
        "alpha": q.alpha,
        "budget": q.budget,
        "batch": q.batch,
        "certify_games": q.certify_games,
        "seed": q.seed,
        "panel": list(q.panel),
        **chosen,
        # only when given: a folder made before panel_games keeps its identity and resumes
        **({"panel_games": dict(q.panel_games)} if q.panel_games else {}),
    }


def run_fix(
    scenario: str | Path | Scenario,
    overrides: Mapping[str, Any] | None = None,
    *,
    out: str | Path | None = None,
    resume: bool = False,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
) -> FixRun:
    """Answer the scenario's fix question into ``out`` (default ``results/<scenario name>``; its ``fix/`` folder)."""
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    q = fix_question_of(sc, overrides or {})
    folder = Path(out) if out is not None else Path("results") / sc.name
    identity = identity_of(sc, q)
    about = {
        "scenario": sc.name,
        "description": sc.description,
        "source": sc.source,
        "text": sc.text,
        "game": sc.game,
        "players": sc.players,
        "lineup": list(sc.seats),
        "seat_knobs": [k.name for k in q.knobs if k.kind == "seats"],
    }
    from simlab.experiments.fix import check_budget, find_fix

    check_budget(q)  # refused before the folder is made
    with FixStore.open(folder, identity, about, resume) as store:
        vocab = vocabulary(sc.game, [k.name for k in q.knobs if k.kind == "seats"])

        def say(info: Mapping[str, Any] | str) -> None:
            line = progress_line(info, vocab)
            store.note(line)
            if progress is not None:
                progress(line)

        try:
            found = find_fix(q, jobs=jobs, progress=say, trials=stored_trials(store))
        except KeyboardInterrupt:
            kept = len(store.meta["plays"])
            raise RunInterrupted(
                f"interrupted: {kept} plays of the fix search are kept in {store.root}; continue it with: "
                f"simlab fix {sc.source} --out {folder} --resume"
            ) from None
        result = found.to_dict()
        store.finish(result)
        return FixRun(sc, q, folder, store.meta["identity_hash"], result)
