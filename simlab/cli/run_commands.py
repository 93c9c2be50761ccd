"""Commands that play games or look after a result folder: run, bench, play, replay, compact, digest, repair,
verify."""

from __future__ import annotations

import contextlib
import sys

import click

import simlab
from simlab.cli.answer import emit
from simlab.cli.group import EXIT_GAMES_FAILED, FiniteFloatRange, UserError, cli
from simlab.cli.options import (
    _config,
    _echo,
    bots_option,
    choice_option,
    config_options,
    count_option,
    folder_argument,
    force_jobs_option,
    json_flag,
    results_dir_argument,
    scenario_argument,
    split_bots,
)
from simlab.core.errors import SimlabError

#: --json of play and replay: the game's summary
summary_json = json_flag("Print the result summary as JSON instead of the transcript.")


@cli.command()
@scenario_argument
@click.option("--games", "-n", type=int, help="Games per variant (default: the scenario's; on --resume, the run's).")
@click.option(
    "--jobs", "-j", type=int, default=-1, show_default=True, help="Worker processes; -1 = all cores (at most)."
)
@force_jobs_option
@click.option("--out", "-o", type=click.Path(), help="Result folder (default: results/<scenario name>).")
@click.option("--resume", is_flag=True, help="Finish (or extend) an interrupted run in the result folder.")
@click.option("--chunk-size", type=int, help="Games per task and per parquet file (default: the scenario's).")
@click.option("--fail-fast", is_flag=True, help="Stop at the first game that raises instead of logging it.")
@click.option("--quiet", "-q", is_flag=True, help="No progress or summary, only the result folder path.")
@click.option(
    "--no-compact",
    is_flag=True,
    help="Keep one parquet file per chunk (by default a complete run of more than 500 part files "
    "merges them into few large files: see `simlab compact`).",
)
@choice_option(
    "--backend",
    choices=["local", "dask", "ray"],
    default="local",
    text="Where chunks run: local processes, or a Dask or Ray cluster (pip install 'simlab[dask]').",
)
@click.option(
    "--address",
    metavar="ADDRESS",
    help="Scheduler of the cluster: tcp://HOST:8786 for dask, HOST:6379 for ray "
    "(default: start a local one with --jobs workers).",
)
@click.option(
    "--until",
    type=click.Choice(["settled"]),
    help="Play in looks and stop when every verdict (of --settle) is settled (within or beyond --tolerance), at most "
    "--max-games per variant; a variant whose verdicts are settled stops receiving games (docs/running.md).",
)
@click.option(
    "--tolerance",
    type=FiniteFloatRange(min=0, max=100, min_open=True, max_open=True),
    help="With --until settled: the points of win share that matter (default: the scenario's, else 1.0).",
)
@click.option(
    "--max-games",
    type=click.IntRange(1),
    help="With --until settled: the most games per variant (default: the scenario's max_games, else its games).",
)
@click.option(
    "--settle",
    metavar="headline|every",
    help="With --until settled: the verdicts it waits for: headline (each variant's equal-seats question, each "
    "card) or every (also each seat's share and change); default: the scenario's settle, else headline.",
)
@click.option(
    "--futility",
    type=click.FloatRange(0, 1, max_open=True),
    help="With --until settled: stop the games of a verdict less likely than this to settle by --max-games "
    "(out of reach; it stays open); 0 never gives up. Default: the scenario's futility, else 0.05.",
)
def run(
    scenario: str,
    games: int | None,
    jobs: int,
    force_jobs: bool,
    out: str | None,
    resume: bool,
    chunk_size: int | None,
    fail_fast: bool,
    quiet: bool,
    no_compact: bool,
    backend: str,
    address: str | None,
    until: str | None,
    tolerance: float | None,
    max_games: int | None,
    settle: str | None,
    futility: float | None,
) -> None:
    """Run the experiment in SCENARIO (a .toml file) into a result folder of parquet files.

    Results are the same for any --jobs, --chunk-size and --backend. Ctrl-C keeps the games done so
    far; --resume finishes the run (a run --until settled by the rule it began with). Load the results
    with simlab.load_results(folder). On a cluster (--backend dask|ray --address ...), every worker needs
    the same simlab installed: docs/scaling.md.
    """
    from simlab import run_scenario
    from simlab.run.first_look import first_look_lines
    from simlab.run.reader import load_manifest

    folder = run_scenario(
        scenario,
        games=games,
        jobs=jobs,
        out=out,
        resume=resume,
        chunk_size=chunk_size,
        fail_fast=fail_fast,
        progress=not quiet,
        backend=backend,
        address=address,
        compact=not no_compact,
        force_jobs=force_jobs,
        until=until,
        tolerance=tolerance,
        max_games=max_games,
        settle=settle,
        futility=futility,
    )
    manifest = load_manifest(folder)
    if not quiet:
        if manifest.get("games_done"):
            from simlab.analysis.next_step import next_step

            _echo(first_look_lines(folder))
            with contextlib.suppress(SimlabError):  # the first look must not fail a finished run
                _echo(next_step(folder).lines())
        click.echo(f"results: {folder}  (python: simlab.load_results({str(folder)!r}))")
    else:
        click.echo(str(folder))
    failed = int(manifest.get("games_failed", 0))
    if failed:
        raise UserError(
            f"{failed} game(s) failed and are not in the results; see {folder / 'failures.jsonl'} "
            "(each line has a replay command)",
            EXIT_GAMES_FAILED,
        )


@cli.command()
@click.argument("game")
@config_options
@bots_option
@count_option("--games", "-n", minimum=1, default=5000, text="Games to time.")
@count_option("--jobs", "-j", minimum=1, default=1, text="Worker processes.")
@force_jobs_option
@click.option(
    "--profile",
    "show_profile",
    is_flag=True,
    help="Also play the games through the runner's chunks and print where the time goes (engine, "
    "columns, Parquet), and the engine's time by decision kind.",
)
@count_option(
    "--chunk-size",
    minimum=1,
    default=1000,
    text="Games per chunk for --profile (a run's per-chunk costs shrink with bigger chunks).",
)
@click.option(
    "--rotate",
    is_flag=True,
    help="Rotate the bots through the seats (game i by i mod N), as a run with a lineup does: the "
    "figure to compare with such a run's games/s.",
)
@json_flag("Print the timing as one JSON object (the profile's stages and decision kinds as tables).")
def bench(
    game: str,
    players: int | None,
    preset: str | None,
    settings: tuple[str, ...],
    bots: str | None,
    games: int,
    jobs: int,
    force_jobs: bool,
    show_profile: bool,
    chunk_size: int,
    rotate: bool,
    fmt: str | None,
) -> None:
    """Time GAME: games/s and decisions/s of the compiled batch loop (compile time excluded).

    The last line is `games/s: <number>`, for scripts. --profile plays the same games a second time
    through the runner (see simlab.run.profile for what each figure measures).
    """
    from simlab.cli.tool_answers import bench_answer
    from simlab.core.config import parse_overrides
    from simlab.run.bench import bench as run_bench
    from simlab.run.bench import seat_specs
    from simlab.run.runner import resolve_jobs

    jobs = resolve_jobs(jobs, force_jobs)  # more workers than cores only cost memory (and skew the timing)
    specs = split_bots(bots)
    g = simlab.get_game(game)
    config = _config(g, players, preset, settings, len(specs))
    r = run_bench(
        game,
        players=config.players,
        bots=specs,
        games=games,
        jobs=jobs,
        preset=preset,
        overrides=parse_overrides(settings),
        rotate=rotate,
    )
    p = None
    if show_profile:
        from simlab.analysis.digest import TARGET
        from simlab.run.profile import profile
        from simlab.run.seeds import game_seeds

        p = profile(
            game,
            config,
            seat_specs(g, specs, config.players),
            game_seeds(0, 0, games),
            jobs=jobs,
            chunk_size=chunk_size,
            digest_hook=TARGET,
        )
    emit(bench_answer(r, rotate, p), fmt)


@cli.command()
@click.argument("game")
@config_options
@bots_option
@click.option("--seed", "-s", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Game seed.")
@summary_json
def play(
    game: str,
    players: int | None,
    preset: str | None,
    settings: tuple[str, ...],
    bots: str | None,
    seed: int,
    fmt: str | None,
) -> None:
    """Play one game of GAME between bots and print its transcript (every decision and chance outcome).

    The same seed, bots and config give the same game as in a run: failures.jsonl lists the command
    that replays each failing game.
    """
    from simlab.cli.tool_answers import play_answer
    from simlab.core.transcript import play_with_transcript
    from simlab.run.bench import seat_specs

    specs = split_bots(bots)
    g = simlab.get_game(game)
    config = _config(g, players, preset, settings, len(specs))
    emit(play_answer(play_with_transcript(g, config, seed, seat_specs(g, specs, config.players))), fmt)


@cli.command()
@folder_argument
@click.option("--variant", "-v", metavar="VARIANT", help="Variant of the game (default: the run's only variant).")
@click.option("--game", "-g", "index", type=click.IntRange(0), required=True, help="Game index (0, 1, ...).")
@summary_json
def replay(folder: str, variant: str | None, index: int, fmt: str | None) -> None:
    """Replay game GAME of VARIANT in a result FOLDER: print its transcript, as `simlab play` does.

    The bots of each seat and the seed come from the game's rows (or, for a game without rows, from the
    manifest's root seed and lineup), the preset and settings from the manifest; the `simlab play` command
    that gives the same transcript goes to stderr.
    """
    from simlab.cli.tool_answers import play_answer
    from simlab.core.transcript import play_with_transcript
    from simlab.run.reader import load_manifest
    from simlab.run.replay import replay_spec

    if variant is None:
        names = [v["name"] for v in load_manifest(folder)["variants"]]
        if len(names) != 1:
            raise UserError(f"--variant: the run has several variants; pick one of {', '.join(names)}")
        variant = names[0]
    spec = replay_spec(folder, variant, index)
    where = "" if spec.from_rows else " (no rows for this game: rebuilt from the manifest's seed and lineup)"
    click.echo(f"game {index} of {variant}{where}: {spec.command()}", err=True)
    result = play_with_transcript(simlab.get_game(spec.game), spec.config(), spec.seed, list(spec.bots))
    emit(play_answer(result), fmt)


@cli.command()
@results_dir_argument
@click.option(
    "--games-per-file",
    "-n",
    type=click.IntRange(1),
    default=None,
    metavar="N",
    help="Games per merged file (default: 250,000, about 1M rows at 4 players).",
)
def compact(results_dir: str, games_per_file: int | None) -> None:
    """Merge the part files of RESULTS_DIR into few large files: scans of the folder get much faster.

    Per variant, runs of consecutive parts become one file of about N games, with the same rows in the
    same order; resume, the manifest and every analysis work as before. A complete run of more than 500
    parts does this by itself (unless `simlab run --no-compact`). Safe to interrupt: run it again.
    """

    from simlab.analysis.digest import TARGET
    from simlab.run.compact import GAMES_PER_FILE
    from simlab.run.compact import compact as compact_folder

    summary = compact_folder(results_dir, games_per_file or GAMES_PER_FILE, log=sys.stderr, digest_hook=TARGET)
    click.echo(summary.line())


@cli.command()
@results_dir_argument
def digest(results_dir: str) -> None:
    """Add analysis digests to RESULTS_DIR, a folder run by a simlab that did not write them.

    A run's workers store small per-chunk summaries in each part, so `simlab report` merges them instead of
    scanning every row: seconds for ten million games. This computes them for the files that lack them and
    rewrites those files (same rows). Safe to interrupt: run it again.
    """

    from simlab.experiments.backfill import add_digests

    click.echo(add_digests(results_dir, log=sys.stderr).line())


@cli.command()
@folder_argument
@click.option(
    "--scenario",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="The run's scenario file (needed when the manifest is missing or damaged).",
)
def repair(folder: str, scenario: str | None) -> None:
    """Rebuild the manifest of result FOLDER from its part files (the parts are the truth), playing no game.

    For a folder whose manifest.json is missing, empty or damaged, give the run's scenario file; its parts
    must belong to it. `simlab run ... --resume` does the same by itself before it plays the missing games.
    """
    from simlab.run.runner import repair_folder

    click.echo(repair_folder(folder, scenario))


@cli.command()
@folder_argument
@click.option(
    "--quarantine",
    is_flag=True,
    help="Move damaged parts to FOLDER/damaged/, so that `simlab run ... --resume` plays their games again.",
)
@json_flag("Print what was found as one JSON object: ok, the damaged, left-out and moved parts, the missing games.")
def verify(folder: str, quarantine: bool, fmt: str | None) -> None:
    """Read every row of the part files of result FOLDER and name the damaged ones (exit 2 if any).

    Parts carry Parquet page checksums, checked as each page is read: a flipped bit is found here instead of
    silently changing a value. Also checks each part's rows against its footer (count, variant, games).
    """
    import shlex

    from simlab.cli.tool_answers import verify_answer
    from simlab.run.verify import verify_folder

    result = verify_folder(folder, quarantine=quarantine)
    emit(verify_answer(result, quarantine), fmt)
    if result.ok:
        return
    if not result.damaged:  # parts the manifest lists are gone: their games are missing from every figure
        raise UserError(f"{folder}: {result.missing[0]}")
    names = ", ".join(p.name for p, _ in result.damaged)
    if result.moved:
        from simlab.experiments.what_if import resume_command

        raise UserError(
            f"{len(result.damaged)} damaged part file(s) moved to {result.moved[0].parent}: {names}; play their "
            f"games again with: {resume_command(folder)}"
        )
    raise UserError(
        f"{len(result.damaged)} damaged part file(s) in {folder}: {names}; move them aside with "
        f"simlab verify {shlex.quote(folder)} --quarantine, then resume the run to play their games again"
    )
