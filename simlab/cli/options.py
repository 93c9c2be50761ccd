"""Options and output helpers shared by the command modules (--players/--preset/--set, --bots, --chart,
--json/--csv, --tolerance)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from simlab.cli.group import FiniteFloatRange

# -- shared options ---------------------------------------------------------------------------------
Decorator = Callable[[Callable], Callable]


def players_option(text: str) -> Decorator:
    """--players/-p, a count of at least 1, saying ``text``."""
    return click.option("--players", "-p", type=click.IntRange(1), help=text)


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
    return players_option("Number of players.")(func)


def count_option(*decls: str, minimum: int, default: int, text: str) -> Decorator:
    """A whole-number option of at least ``minimum`` (games, jobs, a batch) whose default the help shows."""
    return click.option(*decls, type=click.IntRange(minimum), default=default, show_default=True, help=text)


def choice_option(*decls: str, choices: list[str], default: str, text: str) -> Decorator:
    """An option that takes one of ``choices``, whose default the help shows."""
    return click.option(*decls, type=click.Choice(choices), default=default, show_default=True, help=text)


def seed_option(default: int) -> Decorator:
    """--seed/-s: the root seed of the games a command plays itself."""
    return count_option("--seed", "-s", minimum=0, default=default, text="Root seed.")


#: --force-jobs: more worker processes than cores, for the commands that take --jobs
force_jobs_option = click.option("--force-jobs", is_flag=True, help="Allow more --jobs than this machine's cores.")

#: --variant (repeatable) of the answers that show only some variants of a big run
variant_filter_option = click.option(
    "--variant", "chosen", multiple=True, metavar="VARIANT", help="Show only this variant (repeatable)."
)


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


# -- analysis commands ------------------------------------------------------------------------------
def control_variates_option(func: Callable) -> Callable:
    """--control-variates (``control_variates``): the estimates adjusted for the seats' declared luck
    (``simlab.analysis.chance``); seats and cards offer it alike."""
    return click.option(
        "--control-variates",
        "control_variates",
        is_flag=True,
        help="Adjust for the seats' luck (a game that declares chance facts, docs/analysis.md): same games, narrower "
        "intervals.",
    )(func)


def folder_argument(func: Callable) -> Callable:
    """FOLDER: a result folder (the analyses, replay, repair, verify)."""
    return click.argument("folder", type=click.Path(file_okay=False))(func)


def results_dir_argument(func: Callable) -> Callable:
    """RESULTS_DIR: the result folder whose files a command rewrites (compact, digest)."""
    return click.argument("results_dir", metavar="RESULTS_DIR", type=click.Path(file_okay=False))(func)


def scenario_argument(func: Callable) -> Callable:
    """SCENARIO: a scenario file (run, robust)."""
    return click.argument("scenario", type=click.Path(dir_okay=False))(func)


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


def points_option(*decls: str, default: float, text: str, positive: bool = False) -> Decorator:
    """An amount of points of win share (a finite number ≥ 0, or > 0 when ``positive``) whose default the help
    shows."""
    kind = FiniteFloatRange(min=0, min_open=positive)
    return click.option(*decls, type=kind, default=default, show_default=True, help=text)


#: --tolerance: the points of win share from 1/N that matter to the seat verdict (``tolerance``)
tolerance_option = points_option(
    "--tolerance",
    default=1.0,
    text="Points of win share from the fair 1/N that matter: the seat verdict says whether the seats are "
    "unequal by more than this.",
)


def json_flag(text: str) -> Callable[[Callable], Callable]:
    """--json, saying ``text``: ``fmt`` is "json" or None (text); the answer is printed by ``answer.emit``."""
    return click.option("--json", "fmt", flag_value="json", help=text)


def json_option(func: Callable) -> Callable:
    """--json (the whole answer as one JSON object) and --csv (its main table as CSV): ``fmt`` is "json",
    "csv" or None (text)."""
    func = click.option(
        "--csv",
        "fmt",
        flag_value="csv",
        help="Print the answer's main table as CSV (the first table of --json; its columns likewise).",
    )(func)
    return json_flag(
        "Print the answer as one JSON object: its tables (each estimate with its interval and games) "
        "and what is not available for this game (docs/analysis.md, JSON output)."
    )(func)
