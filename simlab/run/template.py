"""A commented, runnable scenario file for a game: what ``simlab new-scenario GAME`` writes.

Its variants are the game's presets, its lineup the game's bots (heuristics first, rotated through the seats),
and every config knob is listed, commented out, with its default, type, provenance and description, so a
newcomer edits a file that already runs (``simlab run FILE``) instead of starting from the format's page.
"""

from __future__ import annotations

import json
from typing import Any

from simlab.core.config import allowed_text, knob_table

GAMES = 1000
SEED = 1
CHUNK_SIZE = 250


def toml_value(value: Any) -> str:
    """A JSON-ready value (from ``knob_table``) as TOML: lists as arrays, booleans lower-case, strings quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def template_lineup(game: Any, players: int) -> list[str]:
    """The game's default lineup (``Game.default_lineup``: its declared bots, not the random baseline whose
    moves bury the game), the same as ``simlab play`` seats."""
    return game.default_lineup(players)


def scenario_template(game: Any, players: int | None = None, name: str | None = None) -> str:
    """The text of a runnable scenario for ``game`` (a registered Game) with every knob listed in comments."""
    cls = game.config_class
    players = players if players is not None else cls.from_preset(None).players
    table = knob_table(cls, None, players)
    lineup = template_lineup(game, players)
    name = name or f"{game.name}_experiment"
    lines = [
        f"# A scenario for {game.title} ({game.name}, rules {game.rules_version}), written by `simlab new-scenario`.",
        "# Run it:      simlab run THIS_FILE --jobs 2        (results/<name>; Ctrl-C, then --resume)",
        "# Then:        simlab seats results/<name> --base "
        + cls.DEFAULT_PRESET
        + "     or     simlab report results/<name>",
        "# The format:  docs/running.md; every knob below: simlab config " + game.name,
        "",
        f"name = {toml_value(name)}",
        'description = "what this experiment asks (edit me)"',
        f"game = {toml_value(game.name)}",
        f"players = {players}                 # {_player_range(game)}",
        f"games = {GAMES}               # per variant: every variant plays the same game seeds (paired)",
        f"seed = {SEED}                   # root seed: game i of every variant gets the same seed",
        f"chunk_size = {CHUNK_SIZE}           # games per task and per parquet file",
        "",
        "# the lineup is rotated through the seats (game i shifts it by i mod players), so bot strength does not",
        "# masquerade as seat advantage; `bots = [...]` instead fixes one bot per seat.",
        f"# the bots of {game.name} (see `simlab bots {game.name}` for their parameters, e.g. name:key=value):",
        *(f"#   {b}: {game.bots.info(b).doc}" for b in game.bots.names()),
        f"lineup = {toml_value(lineup)}",
        "",
        "# settings every variant shares: uncomment a knob and change its value (the preset's value otherwise)",
        "[set]",
    ]
    for row in table:
        if row["name"] == "players":
            continue  # the top-level key above
        lines.append(
            f"# {row['name']} = {toml_value(row['default'])}    # {row['type']}, {row['source']}: {row['doc']}"
            f"{allowed_text(row)}"
        )
    for preset in game.presets():
        changes = {k: v for k, v in cls.PRESETS[preset].items() if k != "players"}
        what = ", ".join(f"{k} = {toml_value(_plain(v))}" for k, v in changes.items()) or "the defaults above"
        default = " (the default preset)" if preset == cls.DEFAULT_PRESET else ""
        lines += [
            "",
            f"[variants.{preset}]",
            f"description = {toml_value(f'preset {preset}{default}: {what}')}",
            f"preset = {toml_value(preset)}",
            f"# [variants.{preset}.set]           # settings of this variant only, e.g.",
            f"# {_example(table)}",
        ]
    return "\n".join(lines) + "\n"


def _player_range(game: Any) -> str:
    if game.min_players == game.max_players:
        return f"{game.name} is a {game.min_players}-player game"
    return f"{game.min_players} to {game.max_players}"


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple | list) else value


def _example(table: list[dict[str, Any]]) -> str:
    """A ``key = value`` line for the template's variant comment: the first integer knob, one more."""
    for row in table:
        if row["name"] != "players" and row["type"] == "int":
            return f"{row['name']} = {row['default'] + 1}"
    row = table[-1]
    return f"{row['name']} = {toml_value(row['default'])}"
