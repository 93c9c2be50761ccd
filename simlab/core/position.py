"""Setting up a position: the shared machinery of the games' position builders.

A position builder (``simlab/games/<game>/position.py``) turns a readable description — cards in hands,
cubes on stalls, dice, money, whose decision — into a normal ``State`` that plays on with
``legal_actions()`` and ``apply()``. It starts from a normal set-up of the game (``Game.new_state``), writes
what it is given, rebalances what it is not given so every component total still adds up (the game's
position page says which), validates the result with errors that name the field (``PositionError``), and
finally runs the game's own invariants (``simlab.core.checks``) on it.

It also fixes the next chance outcomes by value: ``force(state, values)`` queues values (after any still
pending; at most ``simlab.core.record.MAX_FORCED``) in the record's core fields ``forced`` / ``forced_n`` /
``forced_i``; the compiled components ``roll`` and ``draw_counts`` (``simlab.core.components``) return
them, in order, before they use the chance stream again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from simlab.core.checks import checks_for
from simlab.core.errors import PositionError
from simlab.core.record import force_chance
from simlab.core.record import forced_pending as record_pending


def _norm(name: str) -> str:
    return " ".join(str(name).lower().replace("_", " ").split())


def resolve(field: str, value: Any, names: Sequence[str]) -> int:
    """The index of ``value`` in ``names`` (a name, any case, ``_`` for a space; or an index)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if 0 <= int(value) < len(names):
            return int(value)
        raise PositionError(f"{field}: {value} is not one of 0..{len(names) - 1} ({', '.join(names)})")
    if isinstance(value, str):
        table = {_norm(n): i for i, n in enumerate(names)}
        if _norm(value) in table:
            return table[_norm(value)]
    raise PositionError(f"{field}: unknown {value!r}; allowed: {', '.join(names)}")


def count_vector(field: str, value: Any, names: Sequence[str], items_only: bool = False) -> np.ndarray:
    """Counts by kind from ``{name: n}``, a list of items (names or indices, one entry per item; an empty
    list is none) or, unless ``items_only``, a full sequence of ``len(names)`` counts of names."""
    out = np.zeros(len(names), dtype=np.int64)
    if isinstance(value, Mapping):
        for k, n in value.items():
            out[resolve(field, k, names)] += check_count(f"{field}[{k}]", n)
        return out
    if isinstance(value, str):
        value = [value]
    items = list(value)
    if not items:
        return out
    if items_only or all(isinstance(x, str) for x in items):
        for x in items:
            out[resolve(field, x, names)] += 1
        return out
    if len(items) != len(names):
        raise PositionError(
            f"{field}: give a mapping {{name: count}}, a list of names, or {len(names)} counts "
            f"({', '.join(names)}); got {value!r}"
        )
    for i, n in enumerate(items):
        out[i] = check_count(f"{field}[{names[i]}]", n)
    return out


def check_count(field: str, n: Any, most: int | None = None, least: int = 0) -> int:
    """An integer count within ``least..most``."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise PositionError(f"{field}: expected a whole number, got {n!r}")
    n = int(n)
    if n < least:
        raise PositionError(f"{field}: {n} is below {least}" if least else f"{field}: {n} is negative")
    if most is not None and n > most:
        raise PositionError(f"{field}: {n} is more than the {most} allowed")
    return n


def per_seat(field: str, value: Any, players: int, default: Sequence[int]) -> list[int]:
    """Per-seat numbers from one number (every seat), a sequence (one per seat) or ``{seat: n}``."""
    out = [int(x) for x in default]
    if value is None:
        return out
    if isinstance(value, Mapping):
        for seat, n in value.items():
            out[check_seat(field, seat, players)] = check_count(f"{field}[{seat}]", n)
        return out
    if isinstance(value, (int, np.integer)):
        return [check_count(field, value)] * players
    items = list(value)
    if len(items) != players:
        raise PositionError(f"{field}: {players} players need {players} values, got {len(items)}")
    return [check_count(f"{field}[{p}]", n) for p, n in enumerate(items)]


def check_seat(field: str, seat: Any, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < players:
        raise PositionError(f"{field}: seat {seat!r} is not one of 0..{players - 1}")
    return int(seat)


def seat_map(field: str, value: Mapping[Any, Any] | None, players: int) -> dict[int, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise PositionError(f"{field}: expected a mapping {{seat: ...}}, got {value!r}")
    return {check_seat(field, seat, players): v for seat, v in value.items()}


def has_forcing(record: np.ndarray) -> bool:
    """Whether this engine's record carries the forced-outcome fields (core record contract)."""
    names = record.dtype.names or ()
    return all(f in names for f in ("forced", "forced_n", "forced_i"))


def force(state: Any, values: Iterable[int], field: str = "force") -> Any:
    """Queue chance outcomes (already game values: die faces, item indices) for the next ``roll`` /
    ``draw_counts`` calls of ``state``, after any still queued. Returns ``state``."""
    if not has_forcing(state.record):
        raise PositionError(
            f"{field}: this engine's state record has no forced-outcome fields (forced, forced_n, forced_i); "
            "forcing chance outcomes needs the core record contract"
        )
    try:
        force_chance(state.record, values)
    except ValueError as exc:
        raise PositionError(f"{field}: {exc}") from None
    return state


def forced_pending(state: Any) -> list[int]:
    """The queued chance outcomes not used yet."""
    return record_pending(state.record) if has_forcing(state.record) else []


def check_position(state: Any) -> None:
    """Run the game's invariants on a built position; a failure is a PositionError."""
    try:
        checks_for(state.game).invariants(state.record[0], state.config)
    except AssertionError as exc:
        raise PositionError(f"{state.game.name}: the position breaks an invariant of the game: {exc}") from exc
