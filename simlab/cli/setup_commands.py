"""Commands that describe games and write starting points: games, bots, config, new-game, new-scenario."""

from __future__ import annotations

import click

import simlab
from simlab.cli.answer import emit
from simlab.cli.group import UserError, cli
from simlab.cli.options import _player_range, json_flag, players_option


@cli.command()
@json_flag("Print what each game declares (GameInfo: hooks, roles, ...).")
def games(fmt: str | None) -> None:
    """List the registered games: id, title, players, rules version and presets."""
    from simlab.cli.tool_answers import games_answer

    emit(games_answer(simlab.available_games(), simlab.get_game), fmt)


@cli.command()
@click.argument("game")
@json_flag("Print the bots and the search bots' parameters as one JSON object (docs/analysis.md).")
def bots(game: str, fmt: str | None) -> None:
    """List the bots of GAME with what they do and their parameters (spec strings: name:key=value,...)."""
    from simlab.cli.tool_answers import bots_answer

    emit(bots_answer(simlab.get_game(game)), fmt)


@cli.command()
@click.argument("game")
@click.option("--preset", metavar="NAME", help="Show this preset's values (see `simlab games`); default: the game's.")
@players_option("Number of players (for knobs that depend on it).")
@json_flag("Print the knobs as one JSON object (keys: see docs/running.md).")
def config(game: str, preset: str | None, players: int | None, fmt: str | None) -> None:
    """List every config knob of GAME: its value (the preset's), default, type, range, provenance and description.

    The range is what every config enforces (each entry of a list knob; a bound set by another knob is
    shown for this preset). Provenance says where a default comes from: rulebook, derived, assumption (a
    point the rules leave open) or placeholder. Change a knob with `--set key=value` (play, bench) or a
    scenario's [set] table.
    """
    from simlab.cli.tool_answers import config_answer
    from simlab.core.config import knob_table

    g = simlab.get_game(game)
    name = g.config_class.preset_name(preset)  # an old name of a preset: the preset's name today
    emit(config_answer(g, name, knob_table(g.config_class, name, players)), fmt)


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
@players_option("Number of players (default: the game's).")
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
