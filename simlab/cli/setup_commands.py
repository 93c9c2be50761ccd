"""Commands that describe games and write starting points: games, bots, config, new-game, new-scenario."""

from __future__ import annotations

import json
from typing import Any

import click

import simlab
from simlab.cli.group import UserError, cli
from simlab.cli.options import (
    _player_range,
)


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
