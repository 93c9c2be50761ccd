"""The game contract: a Game (config, bots, batch play) and its State (an OpenSpiel-like state machine).

A game's rules are numba functions over a structured state record (see DESIGN.md). This module is the
thin Python layer every game shares: it validates actions before the compiled ``apply`` (so an illegal
action never corrupts a state), keeps the action history, drives bots, and turns finished games into
long-format columns (one row per game and seat).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import pickle
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from simlab.core.bots import BotRegistry, stack_params
from simlab.core.config import GameConfig
from simlab.core.engine import Kernel, kernel_for
from simlab.core.errors import ConfigError, IllegalActionError, SimlabError
from simlab.core.hooks import require_known
from simlab.core.info import GameInfo, game_info
from simlab.core.rng import seed_to_state, seeds_to_states
from simlab.core.warm import compile_for_play

#: streams of SeedSequence([seed, stream]) used by a game: the chance generator and one per seat's bot
CHANCE_STREAM = 0
BOT_STREAM_BASE = 1
VIEW_STREAM_BASE = 1001  # resampling of hidden information for Python bots' views


@dataclasses.dataclass(frozen=True)
class Outcome:
    """Final result by seat: score, rank (1 = best, ties share a rank) and win share (ties split)."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    win_shares: tuple[float, ...]

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]


class State:
    """One game in progress. Mutable; ``clone()`` is a single record copy."""

    def __init__(self, game: Game, config: GameConfig, seed: int, record: np.ndarray, cfg: np.ndarray):
        self.game = game
        self.config = config
        self.seed = seed
        self.record = record
        self.cfg = cfg
        self.history: list[int] = []
        self._buf = np.zeros(game.kernel.max_actions, dtype=np.int32)

    # -- the contract --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """Seat that decides next (-1 when the game is over)."""
        return int(self.game.kernel.current_player(self.record))

    def legal_actions(self) -> list[int]:
        n = self.game.kernel.legal(self.record, self.cfg, self._buf)
        return self._buf[:n].tolist()

    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises IllegalActionError and leaves the state as it was."""
        legal = self.legal_actions()
        if action not in legal:
            allowed = ", ".join(f"{a} ({self.describe(a)})" for a in legal[:12])
            more = f" … and {len(legal) - 12} more" if len(legal) > 12 else ""
            raise IllegalActionError(
                f"{self.game.name} (seed {self.seed}): action {action} is not legal at decision "
                f"'{self.decision_name()}' for seat {self.current_player}; legal: {allowed}{more}"
            )
        self.game.kernel.apply(self.record, self.cfg, int(action))
        self.history.append(int(action))

    def is_terminal(self) -> bool:
        return bool(self.game.kernel.is_terminal(self.record))

    def clone(self) -> State:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.record = self.record.copy()
        other.history = list(self.history)
        other._buf = np.zeros_like(self._buf)
        return other

    def outcome(self) -> Outcome:
        if not self.is_terminal():
            raise IllegalActionError(f"{self.game.name} (seed {self.seed}): the game is not over yet")
        return self.game.outcome(self.record, self.config)[0]

    def fact_columns(self) -> dict[str, list[Any]]:
        """The fact columns a run would write for this game, one list entry per seat (``Game.fact_columns``)."""
        cols = self.game.fact_columns(self.record, self.config)
        return {k: v.tolist() for k, v in cols.items()}

    def facts(self) -> dict[str, list[Any]]:
        """The old name of :meth:`fact_columns` ("facts" alone are the game's declarations, core.facts)."""
        return self.fact_columns()

    # -- game-specific helpers, overridden by each game's State ----------------------------------
    def describe(self, action: int) -> str:
        return str(action)

    def decision_name(self) -> str:
        """The decision at hand, by the rules' ``PHASE_NAMES`` for the record's ``phase``."""
        return self.game.phase_names[int(self.record[0]["phase"])]

    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A copy in which everything ``player`` cannot see is resampled consistently."""
        raise NotImplementedError

    # -- transcripts (see simlab.core.transcript) --------------------------------------------------
    def narrate_start(self) -> list[str]:
        return []

    def narrate_before(self, action: int) -> list[str]:
        return [f"  seat {self.current_player}: {self.describe(action)}"]

    def narrate_after(self, action: int, after: State) -> list[str]:
        return []

    def narrate_scores(self) -> list[str]:
        out = self.outcome()
        return [f"  seat {p}: {s:g} (rank {r})" for p, (s, r) in enumerate(zip(out.scores, out.ranks, strict=True))]


class Game:
    """A registered game: its config class, kernel, bots and the shared driver code.

    ``rules_module`` names the module of the game's compiled rules (``init``, ``legal``, ``apply``,
    ``STATE_DTYPE``, ``CONFIG_DTYPE`` and optionally ``derive_config``, ``MAX_ACTIONS``, ``PHASE_NAMES``) and
    ``policy`` its compiled heuristic bots (``"module:heuristic_policy"``); core binds them into the
    compiled game loop on first use (``simlab.core.engine``). Both are found by convention, like the ``facts``
    and ``checks`` companions: ``rules.py`` and ``bots.py`` beside the game's ``game.py``
    (:func:`convention_module`); a class laid out otherwise names them (``rules_module = "pkg.engine"``,
    ``bots_module = "pkg.players"`` or ``policy = "pkg.players:heuristic_policy"``). ``bots`` is the game's
    ``BotRegistry``, bound to the game object it is read from; ``hooks`` the optional compiled hooks it defines
    (simlab.core.hooks).

    A game object pickles as its name and the address it is importable at (:func:`game_target`): a joblib, Dask
    or Ray worker imports that address and gets the very object the registry would hand out there, so a game no
    registry lists (a designer's, a test's) travels to workers too, as long as its module is importable there.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    config_class: ClassVar[type[GameConfig]]
    state_class: ClassVar[type[State]] = State
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: the bots ``simlab play``, ``bench`` and ``compensate`` seat when none are given, repeated to fill the
    #: seats: the game's own strategies (a random bot's churn buries a narrated game); empty = the game's
    #: heuristic bots in registry order
    default_bots: ClassVar[tuple[str, ...]] = ()
    #: the shipped scenario files that answer each kind of question for this game ("money_sweep": a
    #: starting-money sweep, "card_value": a card intervention run), for the pointers reports and errors give
    scenarios: ClassVar[dict[str, str]] = {}
    #: the optional compiled hooks the game defines, by name: "determinize" and "score_now" (in its rules),
    #: "estimate_now" (in its bots); declared, so a misspelt one is an error, never a silently missing feature
    hooks: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Tell a game's config class its game id, so that its errors say ``simlab config <game>``; refuse a
        hook name core does not know; bind a ``bots`` property's registry to the game it is read from."""
        super().__init_subclass__(**kwargs)
        if "config_class" in cls.__dict__ and isinstance(cls.__dict__.get("name"), str):
            cls.config_class.GAME_ID = cls.name
        require_known(str(cls.__dict__.get("name", cls.__name__)), cls.hooks)
        declared = cls.__dict__.get("bots")
        if isinstance(declared, property) and declared.fget is not None:  # the older form: a property
            getter = declared.fget
            cls.bots = property(lambda self: getter(self).bound(self), doc=declared.__doc__)  # type: ignore[assignment]

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickled as its name and address (see the class docstring); a game defined in ``__main__`` (a script,
        a notebook) pickles as before, by value under cloudpickle (joblib's loky, Dask, Ray)."""
        if type(self).__module__ == "__main__":
            return object.__reduce_ex__(self, protocol)
        return rebuild_game, (game_target(self), self.name)

    def info(self) -> GameInfo:
        """What the game declares: players, presets, bots, optional hooks, fact roles and interventions
        (``simlab games --json``)."""
        return game_info(self)

    @property
    def rules_module(self) -> str:
        """The module of the compiled rules: ``rules`` beside the game's ``game.py`` unless the class names one."""
        return convention_module(self, "rules")

    @property
    def policy(self) -> str:
        """The compiled heuristic bots, ``"module:heuristic_policy"``: in ``bots`` beside the game's ``game.py``
        unless the class names the module (``bots_module``) or the whole target (``policy``)."""
        return f"{convention_module(self, 'bots')}:heuristic_policy"

    @property
    def phase_names(self) -> tuple[str, ...]:
        """Names of the decisions (``phase`` values), from the rules module's ``PHASE_NAMES``."""
        return importlib.import_module(self.rules_module).PHASE_NAMES

    @property
    def kernel(self) -> Kernel:
        """The game's compiled functions and loop, bound once per process."""
        return kernel_for(self.name, self.rules_module, self.policy, self.hooks)

    @property
    def bots(self) -> BotRegistry:
        """The game's bots: a subclass declares ``bots = BotRegistry(...)`` in its class body."""
        raise NotImplementedError(f"{self.name}: its Game class declares no bots (bots = BotRegistry(...))")

    # -- configs ---------------------------------------------------------------------------------
    def make_config(
        self, preset: str | None = None, players: int | None = None, overrides: dict[str, Any] | None = None
    ) -> GameConfig:
        extra: dict[str, Any] = dict(overrides or {})
        if players is not None:
            extra["players"] = players
        return self.config_class.from_preset(preset, extra)

    def presets(self) -> list[str]:
        """The names of the game's presets today (an old name of one still works: ``PRESET_ALIASES``)."""
        return list(self.config_class.PRESETS)

    def data_files(self, config: GameConfig) -> dict[str, Path]:
        """Config knob -> the data file (map, table, board) it makes the game read, a bundled name or '' resolved
        to the shipped file. A run's identity holds each file's SHA-256 and its folder a copy (simlab.run.content):
        a game that reads files a config names lists them here (default: none)."""
        return {}

    def forget_data(self) -> None:
        """Drop the game's cached data tables (a data file changed on disk: see ``datafile.changed_since_seen``)."""

    # -- states ----------------------------------------------------------------------------------
    def new_state(self, config: GameConfig | None = None, seed: int = 0) -> State:
        config = config or self.make_config()
        if not isinstance(config, self.config_class):
            raise ConfigError(f"{self.name}: config must be a {self.config_class.__name__}")
        kernel = self.kernel
        cfg = kernel.config_record(config)
        record = np.zeros(1, dtype=kernel.state_dtype).view(np.recarray)
        rng = np.array([seed_to_state(seed, CHANCE_STREAM)], dtype=np.uint64)
        kernel.init(record, cfg, rng)
        return self.state_class(self, config, seed, record, cfg)

    def bot_states(self, seed: int, players: int) -> np.ndarray:
        """Each seat's compiled-bot generator state for a game seed (separate from the chance stream)."""
        return np.array([seed_to_state(seed, BOT_STREAM_BASE + p) for p in range(players)], dtype=np.uint64)

    def default_lineup(self, players: int) -> list[str]:
        """One bot name per seat when none are given: ``default_bots`` (or else the game's heuristic bots,
        or else random) repeated to fill the seats."""
        names = list(self.default_bots) or [
            n for n in self.bots.names() if n != "random" and self.bots.info(n).kind is not None
        ]
        names = names or ["random"]
        return [names[i % len(names)] for i in range(players)]

    def make_bots(self, specs: Sequence[str], players: int) -> list[Any]:
        if len(specs) != players:
            raise ConfigError(f"{self.name}: {players} players need {players} bots, got {len(specs)}")
        return [self.bots.make(spec) for spec in specs]

    def compile_for(self, config: GameConfig, bots: Sequence[Any]) -> Kernel:
        """The kernel that plays ``bots``, with every entry point :meth:`play` calls compiled (on two cores
        at first use, see simlab.core.warm): call it before the first ``new_state`` of a driven game."""
        kernel = self.kernel.for_kinds([b.kind for b in bots if getattr(b, "kind", None) is not None])
        if isinstance(config, self.config_class):  # else new_state says what is wrong
            target = None if type(self).__module__ == "__main__" else game_target(self)
            search = kernel is not self.kernel
            compile_for_play(self.name, kernel, kernel.config_record(config), search=search, target=target)
        return kernel

    def play(
        self,
        config: GameConfig,
        seed: int,
        bots: Sequence[Any],
        on_action: Callable[[State, int], None] | None = None,
    ) -> State:
        """Play one game with the given bot objects; ``on_action(state, action)`` is called before each
        action (for transcripts). Compiled bots use the same generator streams as ``play_batch``, so a
        game replayed here equals the same game in a batch run. A plain-Python bot is handed
        ``state.determinize(seat, ...)``: a copy in which what its seat cannot see is resampled, so it
        cannot cheat even by accident."""
        kernel = self.compile_for(config, bots)
        state = self.new_state(config, seed)
        bot_rng = self.bot_states(seed, config.players)
        py_rngs = [np.random.default_rng([seed, BOT_STREAM_BASE + p]) for p in range(config.players)]
        view_rngs = [np.random.default_rng([seed, VIEW_STREAM_BASE + p]) for p in range(config.players)]
        buf = np.zeros(kernel.max_actions, dtype=np.int32)
        while not state.is_terminal():
            seat = state.current_player
            n = kernel.legal(state.record, state.cfg, buf)
            bot = bots[seat]
            if getattr(bot, "kind", None) is not None:
                action = int(kernel.policy(bot.kind, bot.params, state.record, state.cfg, buf, n, bot_rng, seat))
            else:  # a Python bot sees its seat's view: what it cannot see is resampled
                view = state.determinize(seat, view_rngs[seat])
                view.record[0]["forced_n"] = 0  # outcomes a test fixed in advance are not the bot's to see
                action = int(bot.act(view, buf[:n].tolist(), py_rngs[seat]))
            if on_action is not None:
                on_action(state, action)
            state.apply(action)
        return state

    def play_batch(self, config: GameConfig, seeds: Sequence[int], bots: Sequence[Any]) -> np.ndarray:
        """Play one game per seed and return the final state records (compiled loop when every bot is
        compiled, else the Python driver)."""
        kernel = self.kernel
        out = np.zeros(len(seeds), dtype=kernel.state_dtype).view(np.recarray)
        if all(getattr(b, "kind", None) is not None for b in bots):
            cfg = kernel.config_record(config)
            words = np.array([int(s) & 0xFFFFFFFFFFFFFFFF for s in seeds], dtype=np.uint64)
            rng = seeds_to_states(words, CHANCE_STREAM)
            bot_rng = np.stack([seeds_to_states(words, BOT_STREAM_BASE + p) for p in range(config.players)], axis=1)
            kinds = np.array([b.kind for b in bots], dtype=np.int64)
            params = stack_params(bots)
            kernel.for_kinds(kinds).play_many(cfg, rng, bot_rng, kinds, params, out)
        else:
            for i, seed in enumerate(seeds):
                out[i] = self.play(config, int(seed), bots).record[0]
        return out

    # -- results ---------------------------------------------------------------------------------
    # Every engine's final record carries ``score``, ``rank`` and ``share`` per seat and ``turns`` and
    # ``decisions`` per game, so these defaults serve every game; a game overrides them only if its
    # record differs.
    def outcome(self, records: np.ndarray, config: GameConfig) -> list[Outcome]:
        n = config.players
        return [
            Outcome(
                tuple(float(x) for x in rec["score"][:n]),
                tuple(int(x) for x in rec["rank"][:n]),
                tuple(float(x) for x in rec["share"][:n]),
            )
            for rec in records
        ]

    @property
    def fact_set(self) -> Any:
        """The game's fact declarations (a ``simlab.core.facts.FactSet``: ``FACTS`` of its ``facts`` module, see
        :func:`companion_module`), or None for a game that declares none. A state's ``fact_columns()`` are their
        values for one game."""
        module = companion_module(self, "facts")
        return getattr(module, "FACTS", None) if module is not None else None

    def fact_columns(self, records: np.ndarray, config: GameConfig) -> dict[str, np.ndarray]:
        """Per (game, seat) fact columns, flattened game-major: row = game * players + seat."""
        if self.fact_set is None:
            raise NotImplementedError(f"{self.name} declares no facts")
        return self.fact_set.columns(records, config)

    def fact_schema(self, config: GameConfig | None = None) -> dict[str, str]:
        """Column name -> description of every fact column under ``config`` (default: the default config)."""
        if self.fact_set is None:
            raise NotImplementedError(f"{self.name} declares no facts")
        return self.fact_set.schema(config if config is not None else self.make_config())

    def fact_manifest(self, config: GameConfig) -> dict[str, Any]:
        """The role map, units and interventions of the facts under ``config`` (written into manifests)."""
        return self.fact_set.manifest(config) if self.fact_set is not None else {"roles": {}}

    def result_columns(self, records: np.ndarray, config: GameConfig) -> dict[str, np.ndarray]:
        """score (float64), rank (int32), win_share (float64) and turns (int32) per (game, seat)."""
        cols = SeatColumns(config.players)
        cols.seat("score", records["score"], np.float64)
        cols.seat("rank", records["rank"])
        cols.seat("win_share", records["share"], np.float64)
        cols.game("turns", records["turns"])
        return cols.columns

    def decisions(self, records: np.ndarray) -> np.ndarray:
        """Number of decisions each game took (for decisions/s in benchmarks)."""
        return records["decisions"].astype(np.int64)


class SeatColumns:
    """Builds long-format columns (row = game * players + seat) from per-game record fields."""

    def __init__(self, players: int):
        self.players = players
        self.columns: dict[str, np.ndarray] = {}

    def seat(self, name: str, values: np.ndarray, dtype: type = np.int32) -> None:
        """A per-seat field ``values[game, seat]``: one value per row."""
        self.columns[name] = values[:, : self.players].reshape(-1).astype(dtype)

    def game(self, name: str, values: np.ndarray, dtype: type = np.int32) -> None:
        """A per-game field ``values[game]``: repeated on each seat's row."""
        self.columns[name] = np.repeat(values.astype(dtype), self.players)


def game_target(game: Game) -> str:
    """Where ``game`` is importable: "module:attr" for the module attribute that holds it (the registry's own form,
    ``simlab.games.roma.game:GAME``), else "module:Class" (a fresh instance of its class: a Game holds no state of
    its own). A class defined inside a function is importable nowhere: that is a PicklingError saying so."""
    cls = type(game)
    module = sys.modules.get(cls.__module__)
    for attr, value in vars(module).items() if module is not None else ():
        if value is game:
            return f"{cls.__module__}:{attr}"
    if "<locals>" in cls.__qualname__:
        raise pickle.PicklingError(
            f"game {game.name!r}: its class {cls.__qualname__} is defined inside a function, so no worker process "
            "can import it; define the class (and its object) at the top level of an importable module, or play "
            "it in this process (jobs=1)"
        )
    return f"{cls.__module__}:{cls.__qualname__}"


def load_game_target(target: str) -> Game:
    """The game at "module:attr" (:func:`game_target`; the registry's targets have the same form): the module's
    attribute, or a fresh instance when the attribute is a Game class."""
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj() if isinstance(obj, type) and issubclass(obj, Game) else obj


def rebuild_game(target: str, name: str) -> Game:
    """A game unpickled in a worker: the object at ``target``, which must still be the game called ``name``."""
    try:
        game = load_game_target(target)
    except (ImportError, AttributeError) as exc:
        raise SimlabError(
            f"game {name!r}: this worker cannot import {target} ({exc}); a game played in worker processes must "
            "live in a module the workers can import (installed, or on their PYTHONPATH)"
        ) from exc
    if getattr(game, "name", None) != name:
        raise SimlabError(f"game {name!r}: {target} holds {getattr(game, 'name', game)!r} in this worker, not {name!r}")
    return game


def companion_name(game: Any, kind: str) -> str:
    """The name of a game's ``kind`` companion module (see :func:`companion_module`)."""
    explicit = getattr(game, f"{kind}_module", None)
    if explicit:
        return str(explicit)
    package = type(game).__module__.rpartition(".")[0]
    return f"{package}.{kind}" if package else kind


def convention_module(game: Any, kind: str) -> str:
    """The name of a module every game has (``rules``, ``bots``): the one its class names in ``<kind>_module``,
    else ``<kind>`` in the package of the nearest class (the game's own, then the classes it derives from) that
    has one, so a subclass defined elsewhere (a test's variant of a game) still finds its parent's rules."""
    explicit = getattr(type(game), f"{kind}_module", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    derived = [c for c in type(game).__mro__ if issubclass(c, Game) and c is not Game]
    packages = list(dict.fromkeys(c.__module__.rpartition(".")[0] for c in derived))
    for package in packages:
        name = f"{package}.{kind}" if package else kind
        try:
            if importlib.util.find_spec(name) is not None:
                return name
        except (ImportError, ValueError):
            continue
    where = packages[0] if packages and packages[0] else "its module's folder"
    raise SimlabError(
        f"game {getattr(game, 'name', type(game).__name__)!r}: no {kind} module found: by convention it is "
        f'{kind}.py beside game.py in {where}; add it there, or name it on the Game class ({kind}_module = "...")'
    )


def companion_module(game: Any, kind: str) -> ModuleType | None:
    """A module a game ships beside its ``game.py`` (``facts``, ``checks``): the one its class names in
    ``<kind>_module`` (a plug-in laid out otherwise), else ``<kind>`` in the game's own package; None if
    there is none. A companion that exists but fails to import raises: that is a real error."""
    name = companion_name(game, kind)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name and not name.startswith(f"{exc.name}."):
            raise
        return None
