"""Machine-readable answers of the analysis commands (``simlab seats|compensation|cards|markets|balance --json``).

Every answer is one JSON object with the same envelope (documented in docs/analysis.md, "JSON output")::

    {"format": 1, "command": "seats", "folder": "...", "game": "<game id>", "level": 0.95,
     "units": {"money": "feet", "money_singular": "foot", "points": "points", ..., "intervention": "god", ...},
     "tables": {"seats": [{...}, ...], ...},
     "not_available": [{"analysis": "...", "reason": "... is not available for this game: ..."}]}

A table is a list of row objects with the analysis frame's columns (``simlab.analysis``), so the Python API
and the JSON agree: an estimate ``x`` comes with its interval ``x_lo``, ``x_hi`` (``level``, 95%) and the
number of games behind it (``games``); NaN and infinities are ``null`` (an interval end that is ``null`` is
unbounded, as a Fieller interval can be, or could not be estimated). ``units`` says what the columns are
counted in, in the game's own words (``simlab.analysis.words``): money, points and the score, and what a card
intervention grants (card, god, item). An analysis the game does not
declare is not an error: its table is absent and ``not_available`` says why (the command exits 0).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

FORMAT = 1


def records(df: Any) -> list[dict[str, Any]]:
    """A polars DataFrame as JSON-ready row objects (NaN and infinities as None)."""
    return [{k: _clean(v) for k, v in row.items()} for row in df.iter_rows(named=True)]


def _clean(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    return value


def answer(
    command: str,
    folder: str | Path,
    tables: dict[str, Any],
    not_available: list[tuple[str, str]] = (),
    level: float = 0.95,
    game: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The JSON envelope of an analysis command: its tables (DataFrames or row lists) and what is missing.
    ``game``: the game of an answer whose folder is no result folder (a robustness panel's), for its words."""
    return envelope(command, folder_fields(folder, level, game, **extra), tables, not_available)


def folder_fields(folder: str | Path, level: float = 0.95, game: str | None = None, **extra: Any) -> dict[str, Any]:
    """What an answer read from a result folder says before its tables: the folder, its game, the level of the
    intervals, the game's units, then the command's own fields (its options: base, series, ...)."""
    from simlab.analysis.words import game_words, words
    from simlab.run.reader import load_manifest

    try:
        game = load_manifest(folder).get("game")
        said = words(folder)
    except Exception:  # a folder without a manifest: the analysis itself says what is wrong
        said = game_words(game)
    return {"folder": str(folder), "game": game, "level": level, "units": said.as_json(), **extra}


def envelope(
    command: str, fields: dict[str, Any], tables: dict[str, Any], not_available: list[tuple[str, str]] = ()
) -> dict[str, Any]:
    """Every answer's JSON object: format and command, the answer's own ``fields`` in their order, its tables
    (a table that is None is left out) and what is not available, each with its reason."""
    return {
        "format": FORMAT,
        "command": command,
        **fields,
        "tables": {name: t if isinstance(t, list) else records(t) for name, t in tables.items() if t is not None},
        "not_available": [{"analysis": a, "reason": r} for a, r in not_available],
    }


def dumps(payload: dict[str, Any]) -> str:
    return json.dumps(_clean(payload), indent=1, allow_nan=False, default=str)
