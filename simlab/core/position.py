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

Every game's builder has one shape: ``build(game, seat, *, config=None, preset=None, players=None,
overrides=None, seed=0, phase=None, **components)`` (the game's ``position(...)`` is this call with its own
game). The game declares a ``Builder`` (``BUILDER`` in its ``position.py``): the normal set-up it starts
from, the decisions it can stop at, and its components as one small step function each (cards, board,
tokens, ...), whose keyword parameters are the components' names. An unknown component is refused before
anything is built, with the nearest names.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.core.checks import checks_for
from simlab.core.errors import PositionError
from simlab.core.game import companion_module, companion_name
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


class Setup:
    """A position under construction, handed to each component step in turn: the state being written, its
    config, the seat and decision asked for, the seed, and what the steps leave for later ones (a step may
    set further attributes, e.g. a shared random generator, so the steps keep one order of draws)."""

    def __init__(self, state: Any, seat: int, phase: str, seed: int, given: Mapping[str, Any]) -> None:
        self.state = state
        self.config = state.config
        self.s = state.record[0]
        self.n = int(getattr(state.config, "players", 2))
        self.seat = seat
        self.phase = phase
        self.seed = seed
        self.given = dict(given)  # every component the description gives, for a step that must know


Step = Callable[..., None]


@dataclass(frozen=True)
class Builder:
    """How a game builds a position: the set-up it writes over (``start(config, seed)``), the decisions it
    can stop at (the first is the default), and its component steps, run in order. A step is
    ``step(setup, *, component=default, ...)``; the last one sets the decision. ``check(setup)`` replaces the
    game's invariants as the final check (default ``check_position``)."""

    game: Any
    phases: Sequence[str]
    steps: Sequence[Step]
    start: Callable[[Any, int], Any] | None = None
    check: Callable[[Setup], None] | None = None
    components: dict[str, Step] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for step in self.steps:
            for name, param in list(inspect.signature(step).parameters.items())[1:]:
                if param.kind is not inspect.Parameter.KEYWORD_ONLY:
                    raise TypeError(f"{step.__name__}: component {name!r} must be keyword-only")
                if name in self.components:
                    raise TypeError(f"{step.__name__}: component {name!r} is also {self.components[name].__name__}'s")
                self.components[name] = step

    def check_components(self, given: Mapping[str, Any]) -> None:
        """Refuse a component the game does not have, naming the nearest ones and all of them."""
        for name in given:
            if name not in self.components:
                near = difflib.get_close_matches(name, list(self.components), n=3, cutoff=0.6)
                hint = f"; did you mean {' or '.join(repr(x) for x in near)}?" if near else ""
                raise PositionError(
                    f"{name}: {self.game.name} has no such position component{hint} "
                    f"(components: {', '.join(self.components)}; also seat, config, preset, players, "
                    "overrides, seed, phase)"
                )


def builder_of(game: Any) -> Builder:
    """The game's position builder: ``BUILDER`` in its ``position`` companion module (beside ``game.py``)."""
    module = companion_module(game, "position")
    found = getattr(module, "BUILDER", None)
    if not isinstance(found, Builder):
        raise PositionError(f"{game.name}: {companion_name(game, 'position')} declares no position BUILDER")
    return found


def build(
    game: Any,
    seat: int = 0,
    *,
    config: Any = None,
    preset: str | None = None,
    players: int | None = None,
    overrides: Mapping[str, object] | None = None,
    seed: int = 0,
    phase: str | None = None,
    **components: Any,
) -> Any:
    """A state of ``game`` at ``seat``'s decision ``phase`` (default: the game's first), written over a normal
    set-up of ``config`` (or of ``preset`` / ``players`` / ``overrides``) and ``seed`` from the components
    given, then checked against the game's invariants."""
    builder = game if isinstance(game, Builder) else builder_of(game)
    game = builder.game
    builder.check_components(components)
    if config is None:
        config = game.make_config(preset=preset, players=players, overrides=dict(overrides or {}))
    elif not isinstance(config, game.config_class):
        raise PositionError(f"config: expected a {game.config_class.__name__}, got {type(config).__name__}")
    elif preset is not None or players is not None or overrides:
        raise PositionError("config: give either a config or preset / players / overrides, not both")
    phase = builder.phases[0] if phase is None else phase
    if not isinstance(phase, str) or phase not in builder.phases:
        raise PositionError(f"phase: unknown {phase!r}; allowed: {', '.join(builder.phases)}")
    seat = check_seat("seat", seat, int(getattr(config, "players", 2)))
    state = builder.start(config, seed) if builder.start is not None else game.new_state(config, seed)
    setup = Setup(state, seat, phase, seed, components)
    for step in builder.steps:
        step(setup, **{k: v for k, v in components.items() if builder.components[k] is step})
    if builder.check is not None:
        builder.check(setup)
    else:
        check_position(state)
    return state
