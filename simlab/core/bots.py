"""The bot protocol, spec strings and the per-game bot registry.

A bot is an object with ``act(state, legal_actions, rng) -> action``. Bots are named per game and built
from spec strings such as ``random``, ``trader`` or ``trader:token_cost=3``. Compiled bots (numba
policies over the state record) also carry ``kind`` and ``params`` so the whole game loop can run
compiled; a plain-Python bot plugs in through the same ``act`` and is slower.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import math
import weakref
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

import numpy as np

from simlab.core import search_spec
from simlab.core.errors import BotSpecError
from simlab.core.loop import KIND_HEURISTIC, KIND_RANDOM, KIND_SEARCH
from simlab.core.search import P_DEPTH
from simlab.core.suggest import did_you_mean, unknown_name


@runtime_checkable
class Bot(Protocol):
    """What every bot offers: one decision method. ``rng`` is the bot's own numpy Generator."""

    name: str

    def act(self, state: Any, legal_actions: Sequence[int], rng: np.random.Generator) -> int: ...


@dataclasses.dataclass(frozen=True)
class BotInfo:
    """A registered bot: its short name, the factory ("module:attr"), defaults and a description.

    A compiled bot of the game's own (``kind`` set, no factory) is built by the registry itself: its
    parameters, in the order of ``params``, are handed to the game's compiled ``heuristic_policy``.
    """

    name: str
    factory: str
    doc: str
    params: Mapping[str, float] = dataclasses.field(default_factory=dict)
    kind: int | None = None
    #: bumped when the bot plays differently at the same parameters: a run's identity holds it (with the
    #: parameters resolved, :meth:`BotRegistry.resolve`), so a result folder never mixes two versions
    version: str = "1"

    def load(self) -> Any:
        module, _, attr = self.factory.partition(":")
        return getattr(importlib.import_module(module), attr)


def heuristic(name: str, doc: str, params: Mapping[str, float], version: str = "1") -> BotInfo:
    """One of the game's compiled heuristic bots: ``heuristic_policy`` with these default parameters."""
    return BotInfo(name, "", doc, dict(params), KIND_HEURISTIC, version)


#: every game's baseline, played by the compiled loop itself (simlab.core.loop)
RANDOM = BotInfo("random", "", "uniformly random legal action", {}, KIND_RANDOM)
#: core's search bot, offered for every game whose rules define ``determinize`` (simlab.core.search)
SEARCH = BotInfo(
    search_spec.SEARCH_NAME, "", search_spec.DOC, dict(search_spec.DEFAULTS), KIND_SEARCH, search_spec.VERSION
)
#: the same search under its honest name for the default, the rollout race (simlab.core.search_spec)
RACE = BotInfo(
    search_spec.RACE_NAME, "", search_spec.RACE_DOC, dict(search_spec.RACE_DEFAULTS), KIND_SEARCH, search_spec.VERSION
)
SEARCHES = {RACE.name: RACE, SEARCH.name: SEARCH}


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A parsed spec string: the bot name and the parameters given on top of its defaults."""

    name: str
    params: Mapping[str, float]

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v:g}" for k, v in self.params.items())


def parse_spec(spec: str) -> BotSpec:
    """Parse ``name`` or ``name:key=value,key=value`` (values are numbers)."""
    text = spec.strip()
    if not text:
        raise BotSpecError("empty bot spec; expected a name such as 'random' or 'trader:token_cost=3'")
    name, _, rest = text.partition(":")
    params: dict[str, float] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise BotSpecError(f"bot spec {spec!r}: parameter {item!r} must look like key=value")
        try:
            number = float(value)
        except ValueError:
            raise BotSpecError(
                f"bot spec {shorten(spec)}: value of {shorten(key)} must be a number, got {shorten(value)}"
            ) from None
        if not math.isfinite(number):
            raise BotSpecError(
                f"bot spec {shorten(spec)}: value of {shorten(key)} must be a finite number, got {shorten(value)}"
            )
        if key.strip() in params:  # the last would win silently: a typo in a long spec is refused instead
            raise BotSpecError(
                f"bot spec {shorten(spec)}: parameter {shorten(key.strip())} is given twice; give it once"
            )
        params[key.strip()] = number
    return BotSpec(name.strip(), params)


def shorten(value: str, most: int = 60) -> str:
    """``repr(value)``, cut to about ``most`` characters (a bad value can be megabytes long)."""
    text = repr(value)
    return text if len(text) <= most else f"{text[: most - 12]}...' ({len(value):,} characters)"


class BotRegistry:
    """The bots of one game, by name: the game's own, plus plug-ins from the ``simlab.bots`` entry point
    group whose names read ``<game>.<bot>`` (value ``"module:factory"``).

    A Game class declares it in its body (``bots = BotRegistry("pig", [...])``); read from a game object it is
    bound to that object (:meth:`bound`), and the bots it makes hold the game itself, not its name: a game no
    registry lists builds, checks and plays its bots like any other, and they pickle with it.
    """

    def __init__(
        self,
        game: str,
        infos: Sequence[BotInfo],
        rollout: str | None = None,
        search_defaults: Mapping[str, float] | None = None,
    ):
        """``rollout``: the heuristic a search bot plays its playouts with unless its spec names one — a game
        names its strongest measured heuristic here (default: its first heuristic). ``search_defaults``: the search
        bot's defaults for this game where its ladder measured better ones than core's (``{"depth": 120}``);
        a spec's own parameters override them."""
        self.game = game
        #: the Game object the registry is bound to (None until it is read from one), and its copies bound to
        #: other game objects that read it (a subclass's)
        self.owner: Any = None
        self._copies: weakref.WeakKeyDictionary[Any, BotRegistry] = weakref.WeakKeyDictionary()
        self._infos = {RANDOM.name: RANDOM} | {info.name: info for info in infos}
        self._plugins_loaded = False
        if rollout is not None and self._infos.get(rollout, RANDOM).kind != KIND_HEURISTIC:
            raise BotSpecError(f"{game}: the search bot's default rollout {rollout!r} is not one of its heuristics")
        self.rollout = rollout
        self._search_defaults = search_spec.game_defaults(game, search_defaults)

    def __get__(self, instance: Any, owner: type | None = None) -> BotRegistry:
        """Declared in a Game class body: ``game.bots`` is this registry bound to ``game``."""
        return self if instance is None else self.bound(instance)

    def bound(self, game: Any) -> BotRegistry:
        """This registry bound to the Game object ``game``: itself (bound on first use), or a copy sharing its
        bots when another game object (a subclass's) reads it."""
        if self.owner is game:
            return self
        if self.owner is None and game.name == self.game:
            self.owner = game
            return self
        other = self._copies.get(game)
        if other is None:  # the same bots (one dict): a bot registered through either is in both
            other = copy.copy(self)
            other.game, other.owner, other._copies = game.name, game, weakref.WeakKeyDictionary()
            self._copies[game] = other
        return other

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for ep in entry_points(group="simlab.bots"):
            game, _, name = ep.name.partition(".")
            if game == self.game and name and name not in self._infos:
                self._infos[name] = BotInfo(name, ep.value, f"plug-in bot from {ep.value}")

    def register(self, info: BotInfo) -> None:
        """Add a bot at run time (e.g. from a notebook); its factory is a "module:attr" string."""
        self._infos[info.name] = info

    def names(self) -> list[str]:
        """The game's playing bots (random, its heuristics, plug-ins): the mixes of default lineups. The
        search bot is not among them (it is orders of magnitude slower): see :meth:`search_names`."""
        self._load_plugins()
        return list(self._infos)

    def default_rollout(self) -> str:
        """The bot a search bot's playouts use unless its spec names one: the game's ``rollout``, else its first
        heuristic, else ``random``."""
        self._load_plugins()
        heuristics = [name for name, info in self._infos.items() if info.kind == KIND_HEURISTIC]
        return self.rollout or (heuristics[0] if heuristics else RANDOM.name)

    def search_defaults(self) -> dict[str, float]:
        """The search bot's numeric parameters when a spec does not set them: core's, with the game's on top."""
        return dict(self._search_defaults)

    def search_names(self) -> list[str]:
        """Core's search bots, offered for every game (``race``, ``ismcts``; docs/search.md)."""
        return list(SEARCHES)

    def info(self, name: str) -> BotInfo:
        if name in SEARCHES:
            return SEARCHES[name]
        self._load_plugins()
        if name not in self._infos:
            names = [*self._infos, *SEARCHES]
            raise BotSpecError(unknown_name("bot", name, names, where=f" for game {self.game!r}"))
        return self._infos[name]

    def make(self, spec: str | BotSpec) -> Any:
        """Build a bot from a spec string, checking parameter names against the bot's defaults."""
        if isinstance(spec, str) and search_spec.is_search(spec):
            return self._make_search(spec.strip())
        parsed = parse_spec(spec) if isinstance(spec, str) else spec
        if parsed.name in SEARCHES:
            return self._make_search(str(parsed))
        info = self.info(parsed.name)
        unknown = [k for k in parsed.params if k not in info.params]
        if unknown:
            allowed = ", ".join(info.params) or "none"
            hint = did_you_mean(unknown[0], info.params)
            raise BotSpecError(
                f"bot {parsed.name!r} of {self.game!r} has no parameter {unknown[0]!r}"
                + (f" ({hint})" if hint else "")
                + f"; allowed: {allowed}"
            )
        values = {**info.params, **parsed.params}
        if info.kind is not None:
            # every compiled bot of a game carries a parameter vector of the same length (random: zeros), so a
            # vector handed to the game's heuristic_policy is never shorter than what it reads
            width = max((len(i.params) for i in self._infos.values() if i.kind is not None), default=0)
            params = np.zeros(width, dtype=np.float64)
            params[: len(info.params)] = [values[k] for k in info.params]
            return CompiledBot(str(parsed), info.kind, params, self.owner)
        return info.load()(name=str(parsed), **values)

    def resolve(self, spec: str) -> dict[str, Any]:
        """What a spec plays, with every default filled in: the bot, its version and its full parameter vector
        (a search bot's with its rollout bot's). A run's identity holds it, so a default changed between two
        sessions of one result folder is seen, not mixed in (issue 30)."""
        bot = self.make(spec)
        name = spec.strip().partition(":")[0].strip()
        info = self.info(name)
        out: dict[str, Any] = {"bot": info.name, "version": info.version}
        if info.factory:  # a plug-in: its factory and the keyword arguments it was given
            out["factory"] = info.factory
            out["params"] = {**info.params, **parse_spec(spec).params}
            return out
        vector = [float(v) for v in bot.params]  # a heuristic's is padded with zeros past its own parameters
        names = search_spec.vector_names(len(vector)) if bot.kind == KIND_SEARCH else list(info.params)
        out["kind"] = int(bot.kind)
        out["params"] = dict(zip(names, vector, strict=False))
        return out

    def _make_search(self, spec: str) -> CompiledBot:
        """The search bot of ``spec`` (``ismcts:iterations=200,rollout=trader,c=0.7``): its rollout bot is
        one of this game's compiled bots (default: the registry's ``rollout``, else the first heuristic), its
        parameters travel in its vector."""
        if self.owner is not None:
            _require_determinize(self.owner)
        self._load_plugins()
        compiled = {name: self.make(name) for name, info in self._infos.items() if info.kind is not None}
        params = search_spec.search_params(spec, self.game, compiled, self.default_rollout(), self._search_defaults)
        if params[P_DEPTH] > 0 and self.owner is not None:
            _require_score_now(self.owner, spec)
        return CompiledBot(spec, KIND_SEARCH, params, self.owner)


def _require_determinize(game: Any) -> None:
    """A clear error when a game declares no compiled ``determinize`` hook (the search needs it)."""
    if "determinize" not in game.hooks:
        raise BotSpecError(
            f"bot {SEARCH.name!r} cannot play {game.name!r}: its rules ({game.rules_module}) offer no compiled "
            "determinize(st, cf, seat, rng) hook; define one and declare it in the Game class's hooks, as "
            "docs/adding_a_game.md says ('Hidden information')"
        )


def _require_score_now(game: Any, spec: str) -> None:
    """A clear error when ``depth`` asks a game that declares no ``score_now`` (nor an ``estimate_now``) to cut
    its playouts short."""
    if not {"score_now", "estimate_now"} & set(game.hooks):
        raise BotSpecError(
            f"bot spec {spec!r}: depth cuts the playouts short, but {game.name!r} declares no compiled "
            f"score_now(st, cf) in its rules ({game.rules_module}), nor an estimate_now(st, cf) in its bots, to "
            "score a position where it stands; leave depth out "
            "(docs/adding_a_game.md, 'Cheaper playouts')"
        )


class CompiledBot:
    """A compiled policy (numba, over the state record) and its parameters.

    Game loops call the game kernel's ``policy(kind, params, …)`` directly; ``act`` serves callers that
    hold a Python State (notebooks, search bots using it for rollouts). ``act`` draws the policy's
    generator state from the ``rng`` it is given, so it stays reproducible.
    """

    def __init__(self, name: str, kind: int, params: np.ndarray, game: Any):
        self.name = name
        self.kind = kind
        self.params = params
        self.game = game  # the Game object whose registry made it (its kernel is bound on first use)

    def act(self, state: Any, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        game = self.game if self.game is not None else state.game  # a registry used unbound (a test's)
        kernel = game.kernel.for_kinds([self.kind])
        buf = np.zeros(kernel.max_actions, dtype=np.int32)
        legal = np.asarray(legal_actions, dtype=np.int32)
        buf[: len(legal)] = legal
        seat = state.current_player
        bot_rng = np.zeros(seat + 1, dtype=np.uint64)
        bot_rng[seat] = np.uint64(rng.integers(1, 2**63))
        return int(kernel.policy(self.kind, self.params, state.record, state.cfg, buf, len(legal), bot_rng, seat))

    def __repr__(self) -> str:
        return f"<bot {self.name}>"


def stack_params(bots: Sequence[Any]) -> np.ndarray:
    """The compiled bots' parameters as one (seats, k) matrix, shorter rows padded with zeros (random
    has none), as the compiled loop reads them."""
    width = max((len(b.params) for b in bots), default=0)
    out = np.zeros((len(bots), width), dtype=np.float64)
    for i, b in enumerate(bots):
        out[i, : len(b.params)] = b.params
    return out
