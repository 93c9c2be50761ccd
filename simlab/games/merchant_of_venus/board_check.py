"""The Merchant of Venus board file a config names, checked before a run (issue 30).

``board.load_board`` checks the rules of a board (no dangling edge, every system reachable from Galactic Base,
navigation spaces with a route for each die number, fourteen market systems, ...), but it ran only when a game
derived its config, inside every game of a run: a broken board made the result folder and failed every game.
:func:`check_board` runs it when the config is made, after a first pass over the fields' types (a list where
a name belongs must not reach a dictionary lookup as a ``TypeError``), every failure a ``DataFileError``
naming the file, the space or edge, and what is allowed. Keys the checks do not know are left alone: the
board format may grow optional keys (docs/games/merchant_of_venus.md).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from simlab.core.datafile import changed_since_seen, file_sha256, leaks_as_data_error, read_json
from simlab.core.errors import DataFileError
from simlab.games.merchant_of_venus.board import Board, load_board

#: a coordinate or penalty beyond this is no board of a board game (and would overflow its int32 arrays)
MAX_NUMBER = 1_000_000_000
#: the engine's record holds at most this many spaces, each with at most this many neighbours (``rules.MAX_SPACES``
#: and ``rules.DEG``, which import this module's config: a test holds the two equal)
ENGINE_MAX_SPACES = 300
ENGINE_MAX_DEGREE = 6
#: space fields that hold a name (a string), and those that may also be null
_NAME_FIELDS = ("name", "type")
_NULLABLE_NAME_FIELDS = ("system", "line", "color", "orbit")
_NUMBER_FIELDS = ("penalty", "x", "y")


def check_board(path: Path) -> Board:
    """Refuse a board file that the game could not play, naming the file and what is wrong (cached by the
    file's bytes: a config is made many times a run, and an edited file is checked again)."""
    if changed_since_seen([path]):  # edited since it was loaded in this process: the rules' arrays are stale
        forget_board()
    return _check_board(str(path), file_sha256(path, "board file"))


def forget_board() -> None:
    """Drop the rules' cached board arrays and route costs (a board file changed on disk)."""
    rules = sys.modules.get("simlab.games.merchant_of_venus.rules")  # not imported: nothing cached
    if rules is not None:
        rules.board_arrays.cache_clear()
        rules.route_costs.cache_clear()


@functools.cache
def _check_board(path: str, _sha256: str) -> Board:
    with leaks_as_data_error(path, "board file"):
        check_field_types(Path(path), read_json(path, "board file"))
        board = load_board(path)
    if board.n_spaces > ENGINE_MAX_SPACES or board.adj.shape[1] > ENGINE_MAX_DEGREE:
        widest = board.names[int(board.degree.argmax())]
        raise DataFileError(
            f"{path}: {board.n_spaces} spaces, up to {board.adj.shape[1]} neighbours a space ({widest!r}); the "
            f"engine's record holds at most {ENGINE_MAX_SPACES} spaces of at most {ENGINE_MAX_DEGREE} neighbours"
        )
    return board


def mission_problem(board: Board, targets: tuple[int, ...], route: int = 100) -> str:
    """Why the missions' targets do not fit the board ("" if they do): a target is a market system
    0..13 or ``route`` + a line of the board, and a mission to a line the board lacks could never be done."""
    lines = len(board.line_names)
    for m, t in enumerate(targets):
        if not (0 <= t < len(board.market_systems) or route <= t < route + lines):
            routes = f"{route} + one of its {lines} lines ({route}..{route + lines - 1})" if lines else "no line"
            return (
                f"mission_target[{m}] = {t} names no target of the board {board.path}: its targets are a market "
                f"system 0..{len(board.market_systems) - 1} or {routes}"
            )
    return ""


def check_field_types(path: Path, doc: Any) -> None:
    """The types of the fields the loader looks up by value: names are strings, numbers are integers in range,
    edge ends and kinds are strings. Rules of the board (which names, which kinds) are the loader's."""
    if not isinstance(doc, dict):
        return  # the loader says what the top level must be
    for i, s in enumerate(doc.get("spaces") or []):
        if not isinstance(s, dict):
            continue
        label = f"spaces[{i}]" + (f" ({s['name']!r})" if isinstance(s.get("name"), str) else "")
        for field in (*_NAME_FIELDS, *_NULLABLE_NAME_FIELDS):
            value = s.get(field)
            if field in s and not isinstance(value, str) and not (value is None and field in _NULLABLE_NAME_FIELDS):
                allowed = "a string" + (" or null" if field in _NULLABLE_NAME_FIELDS else "")
                raise DataFileError(f"{path}: {label}: field '{field}' = {_show(value)}; expected {allowed}")
        for field in _NUMBER_FIELDS:
            value = s.get(field, 0)
            if isinstance(value, bool) or not isinstance(value, int) or not -MAX_NUMBER <= value <= MAX_NUMBER:
                raise DataFileError(
                    f"{path}: {label}: field '{field}' = {_show(value)}; expected an integer from "
                    f"{-MAX_NUMBER:,} to {MAX_NUMBER:,}"
                )
    for j, e in enumerate(doc.get("edges") or []):
        if not isinstance(e, dict):
            continue
        for field in ("a", "b", "kind"):
            if field in e and not isinstance(e[field], str):
                raise DataFileError(f"{path}: edges[{j}]: field '{field}' = {_show(e[field])}; expected a string")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:68]}... ({len(text):,} characters)"
