"""The ``simlab`` command: a thin click group over the library (a notebook calls the same functions).

Heavy modules (numba engines, joblib, polars) are imported inside the commands, so ``simlab --help`` and
``simlab games`` start fast. Every error simlab raises on purpose (a SimlabError) prints as
``error: <message>`` with exit code 2 and no traceback; an interrupted run exits with 130.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import click

import simlab
from simlab.core.errors import NotAvailableError, SimlabError

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_GAMES_FAILED = 1
#: longest error message shown (the rest is cut: a message may quote a bad value of megabytes)
MAX_MESSAGE = 2_000


class UserError(click.ClickException):
    """A SimlabError shown the simlab way: ``error: <message>`` on stderr, no traceback."""

    def __init__(self, message: str, exit_code: int = EXIT_USER_ERROR):
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file: Any = None) -> None:
        message = self.format_message()
        if len(message) > MAX_MESSAGE:  # a message that quotes a huge bad value
            message = f"{message[:MAX_MESSAGE]}... (message cut: {len(message):,} characters)"
        click.echo(f"error: {message}", err=True)


class FiniteFloatRange(click.FloatRange):
    """A float option in a range that also refuses nan and inf (click's range lets nan through, since every
    comparison with nan is false: ``--width nan`` made the seat search play to --max-games)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"expected a finite number, found {value!r}", param, ctx)
        return number


class SimlabGroup(click.Group):
    """Turns SimlabErrors raised by any command into UserErrors."""

    def invoke(self, ctx: click.Context) -> Any:
        from simlab.run.errors import RunInterrupted

        warnings.showwarning = _show_warning
        try:
            return super().invoke(ctx)
        except RunInterrupted as exc:
            raise UserError(str(exc), EXIT_INTERRUPTED) from None
        except KeyboardInterrupt:  # outside a run's chunks (a run turns its own into RunInterrupted)
            raise UserError("interrupted", EXIT_INTERRUPTED) from None
        except NotAvailableError as exc:  # the game does not declare what the analysis needs: not an error
            click.echo(str(exc))
            return None
        except SimlabError as exc:
            raise UserError(str(exc)) from None


_PYTHON_SHOWWARNING = warnings.showwarning


def _show_warning(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
    """simlab's own warnings (a file left out of a result folder...) as ``warning: <message>`` on stderr."""
    if category.__module__.startswith("simlab."):
        click.echo(f"warning: {message}", err=True)
    else:
        _PYTHON_SHOWWARNING(message, category, *args, **kwargs)


# -- shared options ---------------------------------------------------------------------------------
def config_options(func: Callable) -> Callable:
    """--players, --preset and --set key=value: how every command builds a game config."""
    func = click.option(
        "--set",
        "settings",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override a config field, e.g. --set start_money=5,6,7,8 (repeatable).",
    )(func)
    func = click.option("--preset", metavar="NAME", help="Config preset (see `simlab games`); default: the game's.")(
        func
    )
    func = click.option("--players", "-p", type=click.IntRange(1), help="Number of players.")(func)
    return func


def bots_option(func: Callable) -> Callable:
    return click.option(
        "--bots",
        "-b",
        metavar="A,B,...",
        help="Bot spec per seat, comma-separated (e.g. trader,random,priest,trader:token_cost=3); "
        "one name fills every seat; default: the game's heuristic bots in turn (see `simlab bots GAME`).",
    )(func)


def split_bots(text: str | None) -> list[str]:
    """Split ``a,b:k=1,j=2,c`` into specs: an item with ``=`` but no ``:`` continues the previous spec."""
    if not text:
        return []
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if "=" in item and ":" not in item and specs:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def _player_range(game: Any) -> str:
    lo, hi = game.min_players, game.max_players
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _config(game: Any, players: int | None, preset: str | None, settings: tuple[str, ...], n_bots: int) -> Any:
    """The config a command asked for; without --players, a list of several bots sets the player count."""
    from simlab.core.config import parse_overrides

    if players is None and n_bots > 1:
        players = n_bots
    return game.make_config(preset=preset, players=players, overrides=parse_overrides(settings))


# -- commands ---------------------------------------------------------------------------------------
@click.group(cls=SimlabGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(simlab.__version__, prog_name="simlab")
def cli() -> None:
    """simlab: balance questions about tabletop games, answered by millions of seeded games between bots.

    \b
    Start with:
      simlab games                              the games simlab knows
      simlab bots massilia                      the bots of a game
      simlab config massilia                    its config knobs, defaults and their provenance
      simlab new-scenario massilia -o my.toml   a commented scenario to edit and run
      simlab play massilia --seed 7             one game, narrated
      simlab run scenarios/quickstart.toml      an experiment, into results/quickstart
      simlab bench massilia                     how fast a game plays
    """


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print what each game declares (GameInfo: hooks, roles, ...).")
def games(as_json: bool) -> None:
    """List the registered games: id, title, players, rules version and presets."""
    if as_json:
        from simlab.core.info import games_json

        click.echo(json.dumps(games_json(simlab.available_games(), simlab.get_game), indent=1))
        return
    for name in simlab.available_games():
        try:
            game = simlab.get_game(name)
        except Exception as exc:  # a broken plug-in must not hide the other games
            click.echo(f"{name:<12} (cannot be loaded: {type(exc).__name__}: {exc})")
            continue
        click.echo(
            f"{name:<12} {game.title} — {_player_range(game)} players, rules {game.rules_version}, "
            f"presets: {', '.join(game.presets())}{_old_names(game)}"
        )


def _old_names(game: Any) -> str:
    """`` (old names: original = rulebook)``: preset names that still work, for ``simlab games``."""
    aliases = game.config_class.PRESET_ALIASES
    return f" (old names: {', '.join(f'{a} = {b}' for a, b in aliases.items())})" if aliases else ""


@cli.command()
@click.argument("game")
def bots(game: str) -> None:
    """List the bots of GAME with what they do and their parameters (spec strings: name:key=value,...)."""
    g = simlab.get_game(game)
    for name in g.bots.names():
        info = g.bots.info(name)
        click.echo(f"{name:<10} {info.doc}")
        if info.params:
            params = ", ".join(f"{k}={v:g}" for k, v in info.params.items())
            click.echo(f"{'':<10} parameters: {params}")
    from simlab.core.search_spec import PARAM_DOC

    for name in g.bots.search_names():  # core's search bot: its strength and cost are measured in docs/search.md
        click.echo(f"{name:<10} {g.bots.info(name).doc}")
        defaults = g.bots.search_defaults()
        for key, doc in PARAM_DOC.items():
            default = defaults.get(key)
            shown = f"{key}={default:g}" if default is not None else key
            if key == "rollout":
                shown = f"rollout={g.bots.default_rollout()}"
            click.echo(f"{'':<10} {shown}: {doc}")


@cli.command()
@click.argument("game")
@click.option("--preset", metavar="NAME", help="Show this preset's values (see `simlab games`); default: the game's.")
@click.option("--players", "-p", type=click.IntRange(1), help="Number of players (for knobs that depend on it).")
@click.option("--json", "as_json", is_flag=True, help="Print the knobs as JSON (keys: see docs/running.md).")
def config(game: str, preset: str | None, players: int | None, as_json: bool) -> None:
    """List every config knob of GAME: its value (the preset's), default, type, range, provenance and description.

    The range is what every config enforces (each entry of a list knob; a bound set by another knob is
    shown for this preset). Provenance says where a default comes from: rulebook, derived, assumption (a
    point the rules leave open) or placeholder. Change a knob with `--set key=value` (play, bench) or a
    scenario's [set] table.
    """
    from simlab.core.config import allowed_text, knob_table
    from simlab.run.scenario import format_value

    g = simlab.get_game(game)
    name = g.config_class.preset_name(preset)  # an old name of a preset: the preset's name today
    rows = knob_table(g.config_class, name, players)
    if as_json:
        payload = {"game": g.name, "rules_version": g.rules_version, "preset": name, "knobs": rows}
        click.echo(json.dumps(payload, indent=1))
        return
    click.echo(
        f"{g.name} ({g.title}), preset {name} of {', '.join(g.presets())}: {len(rows)} knobs; "
        "* = differs from the default"
    )
    shown = [(r, format_value(r["value"]), format_value(r["default"])) for r in rows]
    w_name = max(len(r["name"]) for r in rows)
    w_value = min(24, max(len(v) for _, v, _ in shown))
    w_type = max(len(r["type"]) for r in rows)
    w_range = max(5, *(len(r["range"] or "") for r in rows))
    click.echo(
        f"  {'knob':<{w_name}}  {'value':<{w_value}}  {'type':<{w_type}}  {'range':<{w_range}}  {'source':<11} "
        "description"
    )
    for r, value, default in shown:
        mark = "*" if r["changed"] else " "
        doc = r["doc"]
        if r["changed"]:
            doc += f" (default {default})"
        doc += allowed_text(r)
        click.echo(
            f"{mark} {r['name']:<{w_name}}  {value:<{w_value}}  {r['type']:<{w_type}}  {r['range'] or '':<{w_range}}  "
            f"{r['source']:<11} {doc}"
        )


@cli.command("new-game")
@click.argument("name")
@click.option("--out", "-o", type=click.Path(file_okay=False), default=".", help="Folder to write NAME/ into.")
def new_game(name: str, out: str) -> None:
    """Write a complete, runnable game package NAME/ to edit into your game (docs/adding_a_game.md).

    Every file a game has, and test_NAME.py, which runs simlab.testing.check_game on it; as written it is a small
    dice race that passes them. Run `pytest` in the --out folder.
    """
    from simlab.testing.new_game import write_game

    package = write_game(name, out)
    click.echo(f"game package: {package}  (check it: cd {out} && pytest {name})")


@cli.command("new-scenario")
@click.argument("game")
@click.option("--players", "-p", type=click.IntRange(1), help="Number of players (default: the game's).")
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Scenario file to write (default: print it); an existing file is not overwritten.",
)
def new_scenario(game: str, players: int | None, out: str | None) -> None:
    """Write a commented, runnable scenario for GAME: its presets as variants, its bots as the lineup.

    Every config knob is listed in comments with its default, type, provenance and description; uncomment
    one to change it. Run the file with `simlab run FILE`.
    """
    from pathlib import Path

    from simlab.run.scenario import NAME_RE, parse_scenario
    from simlab.run.template import scenario_template

    g = simlab.get_game(game)
    if players is not None and not g.min_players <= players <= g.max_players:
        raise UserError(f"--players: {g.name} plays with {_player_range(g)} players, got {players}")
    name = Path(out).stem if out and NAME_RE.match(Path(out).stem) else None
    text = scenario_template(g, players, name=name)
    parse_scenario(text, source="the template")  # it must load as written
    if out is None:
        click.echo(text, nl=False)
        return
    path = Path(out)
    if path.exists():
        raise UserError(f"{path} exists; pick another --out (or delete it)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    click.echo(f"scenario: {path}  (run it: simlab run {path})")


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=int, help="Games per variant (default: the scenario's; on --resume, the run's).")
@click.option(
    "--jobs", "-j", type=int, default=-1, show_default=True, help="Worker processes; -1 = all cores (at most)."
)
@click.option("--force-jobs", is_flag=True, help="Allow more --jobs than this machine's cores.")
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
@click.option(
    "--backend",
    type=click.Choice(["local", "dask", "ray"]),
    default="local",
    show_default=True,
    help="Where chunks run: local processes, or a Dask or Ray cluster (pip install 'simlab[dask]').",
)
@click.option(
    "--address",
    metavar="ADDRESS",
    help="Scheduler of the cluster: tcp://HOST:8786 for dask, HOST:6379 for ray "
    "(default: start a local one with --jobs workers).",
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
) -> None:
    """Run the experiment in SCENARIO (a .toml file) into a result folder of parquet files.

    Results are the same for any --jobs, --chunk-size and --backend. Ctrl-C keeps the games done so
    far; --resume finishes the run. Load the results with simlab.load_results(folder). On a cluster
    (--backend dask|ray --address ...), every worker needs the same simlab installed: docs/scaling.md.
    """
    from simlab import run_scenario
    from simlab.run.reader import load_manifest
    from simlab.run.summary import summary_lines

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
    )
    manifest = load_manifest(folder)
    if not quiet:
        if manifest.get("games_done"):
            from simlab.analysis.next_step import next_step

            _echo(summary_lines(folder))
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
@click.option("--games", "-n", type=click.IntRange(1), default=5000, show_default=True, help="Games to time.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True, help="Worker processes.")
@click.option("--force-jobs", is_flag=True, help="Allow more --jobs than this machine's cores.")
@click.option(
    "--profile",
    "show_profile",
    is_flag=True,
    help="Also play the games through the runner's chunks and print where the time goes (engine, "
    "columns, Parquet), and the engine's time by decision kind.",
)
@click.option(
    "--chunk-size",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Games per chunk for --profile (a run's per-chunk costs shrink with bigger chunks).",
)
@click.option(
    "--rotate",
    is_flag=True,
    help="Rotate the bots through the seats (game i by i mod N), as a run with a lineup does: the "
    "figure to compare with such a run's games/s.",
)
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
) -> None:
    """Time GAME: games/s and decisions/s of the compiled batch loop (compile time excluded).

    The last line is `games/s: <number>`, for scripts. --profile plays the same games a second time
    through the runner (see simlab.run.profile for what each figure measures).
    """
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
            summaries=TARGET,
        )
        _echo(p.lines())
    click.echo(f"{r.game}: {r.players} players, preset {r.preset}, config {r.config_hash}")
    click.echo(f"bots: {', '.join(r.bots)}" + (" (rotated through the seats)" if rotate else ""))
    click.echo(f"warm-up (first game, includes compiling): {r.warmup_seconds:.2f} s")
    if r.worker_start_seconds:
        click.echo(
            f"worker start-up (spawn, imports, engine; before the clock): {r.worker_start_seconds:.2f} s, "
            f"{r.games_per_second_with_start:.1f} games/s counting it"
        )
    click.echo(f"{r.games:,} games in {r.seconds:.2f} s with {r.jobs} job(s)")
    click.echo(f"decisions/s: {r.decisions_per_second:.0f}")
    click.echo(f"games/s: {r.games_per_second:.1f}")


@cli.command()
@click.argument("game")
@config_options
@bots_option
@click.option("--seed", "-s", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Game seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the result summary as JSON instead of the transcript.")
def play(
    game: str,
    players: int | None,
    preset: str | None,
    settings: tuple[str, ...],
    bots: str | None,
    seed: int,
    as_json: bool,
) -> None:
    """Play one game of GAME between bots and print its transcript (every decision and chance outcome).

    The same seed, bots and config give the same game as in a run: failures.jsonl lists the command
    that replays each failing game.
    """
    from simlab.core.transcript import play_with_transcript
    from simlab.run.bench import seat_specs

    specs = split_bots(bots)
    g = simlab.get_game(game)
    config = _config(g, players, preset, settings, len(specs))
    result = play_with_transcript(g, config, seed, seat_specs(g, specs, config.players))
    if as_json:
        click.echo(json.dumps(result.summary))
    else:
        for line in result.lines:
            click.echo(line)


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--variant", "-v", metavar="VARIANT", help="Variant of the game (default: the run's only variant).")
@click.option("--game", "-g", "index", type=click.IntRange(0), required=True, help="Game index (0, 1, ...).")
@click.option("--json", "as_json", is_flag=True, help="Print the result summary as JSON instead of the transcript.")
def replay(folder: str, variant: str | None, index: int, as_json: bool) -> None:
    """Replay game GAME of VARIANT in a result FOLDER: print its transcript, as `simlab play` does.

    The bots of each seat and the seed come from the game's rows (or, for a game without rows, from the
    manifest's root seed and lineup), the preset and settings from the manifest; the `simlab play` command
    that gives the same transcript goes to stderr.
    """
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
    if as_json:
        click.echo(json.dumps(result.summary))
    else:
        _echo(result.lines)


@cli.command()
@click.argument("results_dir", metavar="RESULTS_DIR", type=click.Path(file_okay=False))
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
    import sys

    from simlab.analysis.digest import TARGET
    from simlab.run.compact import GAMES_PER_FILE
    from simlab.run.compact import compact as compact_folder

    summary = compact_folder(results_dir, games_per_file or GAMES_PER_FILE, log=sys.stderr, summaries=TARGET)
    click.echo(summary.line())


@cli.command()
@click.argument("results_dir", metavar="RESULTS_DIR", type=click.Path(file_okay=False))
def digest(results_dir: str) -> None:
    """Add analysis digests to RESULTS_DIR, a folder run by a simlab that did not write them.

    A run's workers store small per-chunk summaries in each part, so `simlab report` merges them instead of
    scanning every row: seconds for ten million games. This computes them for the files that lack them and
    rewrites those files (same rows). Safe to interrupt: run it again.
    """
    import sys

    from simlab.analysis.backfill import add_digests

    click.echo(add_digests(results_dir, log=sys.stderr).line())


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False))
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
@click.argument("folder", type=click.Path(file_okay=False))
@click.option(
    "--quarantine",
    is_flag=True,
    help="Move damaged parts to FOLDER/damaged/, so that `simlab run ... --resume` plays their games again.",
)
def verify(folder: str, quarantine: bool) -> None:
    """Read every row of the part files of result FOLDER and name the damaged ones (exit 2 if any).

    Parts carry Parquet page checksums, checked as each page is read: a flipped bit is found here instead of
    silently changing a value. Also checks each part's rows against its footer (count, variant, games).
    """
    import shlex

    from simlab.run.reader import load_manifest
    from simlab.run.verify import verify_folder

    result = verify_folder(folder, quarantine=quarantine)
    _echo(result.lines())
    if result.ok:
        return
    if not result.damaged:  # parts the manifest lists are gone: their games are missing from every figure
        raise UserError(f"{folder}: {result.missing[0]}")
    names = ", ".join(p.name for p, _ in result.damaged)
    if result.moved:
        try:
            source = load_manifest(folder)["scenario"]["source"]
        except (SimlabError, KeyError, TypeError):
            source = "SCENARIO"
        raise UserError(
            f"{len(result.damaged)} damaged part file(s) moved to {result.moved[0].parent}: {names}; play their "
            f"games again with: simlab run {shlex.quote(str(source))} --out {shlex.quote(folder)} --resume"
        )
    raise UserError(
        f"{len(result.damaged)} damaged part file(s) in {folder}: {names}; move them aside with "
        f"simlab verify {shlex.quote(folder)} --quarantine, then resume the run to play their games again"
    )


# -- analysis commands ------------------------------------------------------------------------------
def folder_argument(func: Callable) -> Callable:
    return click.argument("folder", type=click.Path(file_okay=False))(func)


def _check_chart(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse a --chart path that cannot take a chart before any game is read or played."""
    if value is not None:
        from simlab.core.output import check_chart_path

        check_chart_path(value)  # an OutputError, shown by SimlabGroup as error: ...
    return value


def chart_option(func: Callable) -> Callable:
    return click.option(
        "--chart",
        callback=_check_chart,
        type=click.Path(dir_okay=True),
        metavar="PATH",
        help="Also draw the chart into PATH (.png, .svg or .pdf; a regular file, or a symlink to one).",
    )(func)


def _echo(lines: list[str]) -> None:
    for line in lines:
        click.echo(line)


def tolerance_option(func: Callable) -> Callable:
    """--tolerance: the points of win share from 1/N that matter to the seat verdict (``tolerance``)."""
    return click.option(
        "--tolerance",
        type=FiniteFloatRange(min=0),
        default=1.0,
        show_default=True,
        help="Points of win share from the fair 1/N that matter: the seat verdict says whether the seats are "
        "unequal by more than this.",
    )(func)


def json_option(func: Callable) -> Callable:
    """--json (the whole answer as one JSON object) and --csv (its main table as CSV): ``fmt`` is "json",
    "csv" or None (text)."""
    func = click.option(
        "--csv",
        "fmt",
        flag_value="csv",
        help="Print the answer's main table as CSV (the first table of --json; its columns likewise).",
    )(func)
    return click.option(
        "--json",
        "fmt",
        flag_value="json",
        help="Print the answer as one JSON object: its tables (each estimate with its interval and games) "
        "and what is not available for this game (docs/analysis.md, JSON output).",
    )(func)


def _chart_line(path: Any, fmt: str | None) -> None:
    click.echo(f"chart: {path}", err=bool(fmt))  # with --json or --csv, stdout holds the answer alone


def _emit_json(
    command: str, folder: str, tables: dict[str, Any], missing: list[tuple[str, str]], fmt: str = "json", **extra: Any
) -> None:
    """The answer as JSON, or (``fmt`` "csv") its first table as CSV, what is missing on stderr."""
    from simlab.analysis.export import answer, dumps

    if fmt != "csv":
        click.echo(dumps(answer(command, folder, tables, missing, **extra)))
        return
    for _, reason in missing:
        click.echo(reason, err=True)
    main = next((t for t in tables.values() if t is not None), None)
    if main is not None:
        click.echo(_csv(main), nl=False)


def _csv(df: Any) -> str:
    import polars as pl

    nested = [c for c, t in df.schema.items() if isinstance(t, pl.List | pl.Array | pl.Struct | pl.Object)]
    flat = df.with_columns(pl.col(c).map_elements(str, return_dtype=pl.String) for c in nested) if nested else df
    return flat.write_csv()


@contextlib.contextmanager
def _json_guard(command: str, folder: str, analysis: str, fmt: str | None) -> Iterator[None]:
    """With --json (or --csv), an analysis the game does not declare answers saying why (exit 0)."""
    if not fmt:
        yield
        return
    try:
        yield
    except NotAvailableError as exc:
        _emit_json(command, folder, {}, [(analysis, str(exc))], fmt)


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

    jobs = resolve_jobs(jobs, force_jobs)
    specs = split_bots(bots)
    g = simlab.get_game(game)
    if knob is None:
        knob = fv.intervention_knob(g, intervention)
    config = _config(g, players, preset, settings, len(specs))
    lineup = seat_specs(g, specs, config.players)
    if seat is not None:
        _compensate_one_seat(g, config, knob, seat, lineup, width, max_games or 100_000, batch, seed, jobs, chart)
        return
    click.echo(
        f"{g.name}: fair {knob} for all {config.players} seats (base {fv._show(fv.knob_vector(config, knob))}), "
        f"lineup {','.join(lineup)} rotated; tolerance {tolerance:g} points",
        err=True,
    )
    result = fv.search(
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
    if as_json:
        from simlab.analysis.compensation_text import fair_vector_payload
        from simlab.analysis.export import dumps

        click.echo(dumps(fair_vector_payload(result, g.name, tolerance, lineup, seed)))
    else:
        from simlab.analysis.compensation_text import fair_vector_text

        _echo(fair_vector_text(result))
    if chart:
        from simlab.report import charts

        _chart_line(charts.save(charts.seat_win_shares(result.chart_frame()), chart), "json" if as_json else None)


def _compensate_one_seat(
    g: Any, config: Any, knob: str, seat: int, lineup: list[str], width: float, max_games: int, batch: int,
    seed: int, jobs: int, chart: str | None,
) -> None:  # fmt: skip
    """``compensate --seat``: one seat's fractional offset, reported with what it is and what it is not."""
    from simlab.experiments.adaptive import search

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

    result = search(
        g, config, knob, seat, lineup, width=width, max_games=max_games, batch=batch, seed=seed, on_step=show, jobs=jobs
    )
    lo, hi = result.interval
    status = "converged" if result.converged else f"stopped at --max-games {max_games:,} before the target width"
    if math.isfinite(lo) and math.isfinite(hi):
        click.echo(
            f"fair {knob} offset for seat {seat}: {result.fair:+.2f} (95% interval [{lo:+.2f}, {hi:+.2f}]); "
            f"{result.games:,} games spent; {status}"
        )
    else:
        from simlab.analysis.compensation import games_needed, undetermined

        fit = result.fit
        more = games_needed(result.games, fit.b, math.sqrt(fit.cov[1, 1])) if fit is not None else math.inf
        click.echo(
            f"fair {knob} offset for seat {seat}: {undetermined(result.games, more)}; {result.games:,} games spent; "
            f"{status}"
        )
    if isinstance(result.base[seat], int):
        click.echo(
            f"note: {knob} takes whole values and this is one seat's curve crossing 1/N, not a rule to print; "
            "without --seat, compensate finds and verifies the whole vector for all seats"
        )
    if chart:
        from simlab.analysis.adaptive import as_compensation
        from simlab.report import charts

        click.echo(f"chart: {charts.save(charts.compensation_curve(as_compensation(result, lineup)), chart)}")


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
    from simlab.experiments.what_if import what_if, what_if_lines

    say = functools.partial(click.echo, err=True)  # one line on stderr before the games start
    result = what_if(game, sides, players, split_bots(bots), games, seed, jobs, out, say)
    _echo(what_if_lines(result, tolerance / 100, games))


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
    result = robustness(root, base=base)
    if fmt:
        tables = {"verdicts": result.verdicts, "estimates": result.estimates}
        extra = {"bots": result.bots, "method": result.method, "seating": seating, "game": load_scenario(scenario).game}
        _emit_json("robust", str(root.parent), tables, [], fmt, **extra)
        return
    seated = "each in every seat" if seating == "every" else "each in one seat, rotated"
    click.echo(f"does it hold for other bots? {len(result.bots)} bots, {seated}: {', '.join(result.bots)}")
    _echo(result.lines())
    click.echo(f"method: {result.method}")
    click.echo(f"next: simlab report {root.parent} (its section 'Does it hold for stronger play?')")


def main() -> None:
    """Entry point of the ``simlab`` script.

    Once the command is done, Ctrl-C is ignored: a late one (as a run finishes) would otherwise interrupt
    the interpreter's shutdown (joblib's worker clean-up, atexit hooks) into "Exception ignored …
    KeyboardInterrupt" tracebacks, with the results already complete.
    """
    try:
        cli(prog_name="simlab")
    finally:
        _ignore_interrupts()


def _ignore_interrupts() -> None:
    import signal

    with contextlib.suppress(ValueError):  # not the main thread: nothing to do
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    main()
