"""Bind a game's compiled functions into the compiled game loop, once per game and process.

``bind`` copies each template of ``simlab.core.loop`` as a new function whose globals are the game's
rules and heuristic policy and whose name is ``<game>.<template>``, and compiles it with numba's on-disk
cache. The copies share the template's code object, so numba files each game's loop under its own name
next to ``loop.py`` and finds it again in every fresh process and joblib worker.

numba checks a cached function against its own source file only; a loop inlines the game's rules and
bots, so :func:`simlab.core.jitcache.refresh` drops the game's cached code whenever one of its compiled
sources (or the shared rng and components) changed since it was written.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core import components, jitcache, loop, record, rng, search
from simlab.core.compiled import compiled
from simlab.core.hooks import defined_hooks, require_consistent
from simlab.core.loop import KIND_HEURISTIC, KIND_RANDOM, KIND_SEARCH

__all__ = ["KIND_HEURISTIC", "KIND_RANDOM", "KIND_SEARCH", "Kernel", "bind", "is_cached", "kernel_for"]

_CORE = Path(__file__).resolve().parent
#: core modules compiled into every game's code (inlined by its rules, or its loop's templates, or computing the
#: action ids and parameter slots its rules and bots freeze as constants): an edit to one recompiles every game
SHARED_SOURCES = (
    _CORE / "rng.py",
    _CORE / "components.py",
    _CORE / "loop.py",
    _CORE / "search.py",
    _CORE / "compiled.py",
    _CORE / "actions.py",
    _CORE / "params.py",
)
#: the template modules bound per game (their cached copies are named ``<module>.<game>.<template>``)
TEMPLATE_MODULES = ("loop", "search")
#: the game's own names a loop template reads (module attributes of its rules)
RULES_NAMES = ("init", "legal", "apply", "MAX_ACTIONS")
#: names a game's rules may define, read from the record contract otherwise (simlab.core.components)
CONTRACT_DEFAULTS = {"current_player": components.current_player, "is_terminal": components.is_terminal}


@dataclasses.dataclass(frozen=True)
class Kernel:
    """The compiled functions of one game, gathered so the shared Python layer can call them.

    ``init(st, cf, rng_state)``, ``legal(st, cf, buf) -> n``, ``apply(st, cf, action)`` come from the
    game's rules, ``current_player(st)`` and ``is_terminal(st)`` too if it defines them (else the record
    contract's: ``cur``, and ``cur < 0``); ``policy(kind, params, st, cf, buf, n, bot_rng, seat) -> action``
    and ``play_many(cf, rng_states, bot_states, kinds, params, out)`` are the bound loop;
    ``config_record(config)`` builds the config record the functions read (the rules' ``CONFIG_DTYPE``,
    filled by ``simlab.core.record.config_record`` and the rules' ``derive_config``). ``searchable``: the
    rules define the compiled ``determinize(st, cf, seat, rng)`` core's search bot needs; ``cut_scoring``:
    what scores a search playout cut short (``ismcts:depth=D``), the bots' ``estimate_now(st, cf)`` if they
    define one, else the rules' ``score_now(st, cf)`` (the game ended where it stands), else None.
    """

    name: str
    state_dtype: np.dtype
    max_actions: int
    config_record: Callable[[Any], np.ndarray]
    init: Callable
    legal: Callable
    apply: Callable
    current_player: Callable
    is_terminal: Callable
    policy: Callable
    play_many: Callable
    searchable: bool = False
    cut_scoring: Callable | None = None
    with_search: Callable[[], Kernel] | None = None

    @property
    def cuttable(self) -> bool:
        """Whether a search playout may stop early (``depth``): something scores the position it stops at."""
        return self.cut_scoring is not None

    def for_kinds(self, kinds: Sequence[int]) -> Kernel:
        """The kernel whose loop can play bots of these ``kinds``: this one, or — when a search bot plays —
        the one with core's search compiled in, bound on first use (a game nobody searches never compiles
        the search: its first play is that much shorter)."""
        if self.with_search is not None and any(int(k) == KIND_SEARCH for k in kinds):
            return self.with_search()
        return self


def _copy(template: types.FunctionType, namespace: dict[str, Any], game: str, inline: bool = False) -> Any:
    qualname = f"{game}.{template.__name__}"
    fn = types.FunctionType(template.__code__, namespace, qualname, template.__defaults__)
    fn.__qualname__ = qualname
    fn.__module__ = template.__module__
    fn.__doc__ = template.__doc__
    namespace[template.__name__] = dispatcher = compiled(fn, inline=inline)
    return dispatcher


def cache_patterns(game: str, sources: Sequence[Path]) -> list[tuple[Path, str]]:
    """Where numba caches the game's compiled code: its own modules and its copies of the loop."""
    patterns = [(path.parent / "__pycache__", f"{path.stem}.*.nb[ic]") for path in sources]
    patterns.extend((_CORE / "__pycache__", f"{module}.{game}.*.nb[ic]") for module in TEMPLATE_MODULES)
    return patterns


def cut_scorer(
    rules: types.ModuleType, bots: types.ModuleType | None = None, hooks: Sequence[str] | None = None
) -> Callable | None:
    """What scores a search playout cut short (``ismcts:depth=D``): the bots' ``estimate_now(st, cf)`` if the
    game declares it, else the rules' ``score_now(st, cf)``, else None (the game refuses ``depth``).
    ``hooks``: the game's declared hooks (None: those the modules define)."""
    hooks = defined_hooks(rules, bots) if hooks is None else hooks
    if "estimate_now" in hooks and bots is not None:
        return bots.estimate_now
    return rules.score_now if "score_now" in hooks else None


def bind(
    game: str,
    rules: types.ModuleType,
    heuristic_policy: Callable,
    sources: Sequence[Path],
    bots: types.ModuleType | None = None,
    hooks: Sequence[str] | None = None,
) -> Kernel:
    """The compiled loop of ``game`` over ``rules`` and ``heuristic_policy``.

    ``sources`` are the game's files whose compiled functions the loop inlines (its rules and bots); a
    change to any of them, or to :data:`SHARED_SOURCES`, drops the game's cached machine code first.
    ``bots``: the module of ``heuristic_policy``, whose ``estimate_now``, if it defines one, scores a search
    playout cut short in place of the rules' ``score_now`` (:func:`cut_scorer`). ``hooks``: the optional hooks the
    game declares (simlab.core.hooks; checked against what the modules define); None binds those they define.
    """
    if hooks is not None:
        require_consistent(game, hooks, rules, bots)
    hooks = defined_hooks(rules, bots) if hooks is None else tuple(hooks)
    own = [Path(p).resolve() for p in sources]
    jitcache.refresh(own + list(SHARED_SOURCES), cache_patterns(game, own), own[0].parent / "__pycache__")
    namespace: dict[str, Any] = {name: getattr(rules, name) for name in RULES_NAMES}
    namespace.update({name: getattr(rules, name, default) for name, default in CONTRACT_DEFAULTS.items()})
    searchable = "determinize" in hooks
    cut_scoring = cut_scorer(rules, bots, hooks)
    namespace.update(
        np=np,
        below=rng.below,
        heuristic_policy=heuristic_policy,
        determinize=rules.determinize if searchable else search.missing_determinize,
        score_now=cut_scoring if cut_scoring is not None else search.missing_score_now,
        KIND_RANDOM=KIND_RANDOM,
        KIND_SEARCH=KIND_SEARCH,
        __builtins__=__builtins__,
    )
    derive = getattr(rules, "derive_config", None)
    _copy(loop.base_policy, namespace, game)
    namespace["search_decide"] = search.search_unbound
    policy = _copy(loop.policy, namespace, game)
    _copy(loop.play_one, namespace, game)
    play_many = _copy(loop.play_many, namespace, game)

    @functools.cache
    def with_search() -> Kernel:
        """The same loop with the search bot compiled in (its cached copies: ``<module>.<game>.search.*``)."""
        searching = dict(namespace) | search.bound_names()
        label = f"{game}.search"
        for template in search.TEMPLATES:  # the search's one declaration of what a game binds
            _copy(template, searching, label, inline=template in search.INLINED)
        search_policy = _copy(loop.policy, searching, label)
        _copy(loop.play_one, searching, label)
        return dataclasses.replace(
            kernel, policy=search_policy, play_many=_copy(loop.play_many, searching, label), with_search=None
        )

    kernel = Kernel(
        name=game,
        state_dtype=rules.STATE_DTYPE,
        max_actions=rules.MAX_ACTIONS,
        config_record=functools.partial(record.config_record, dtype=rules.CONFIG_DTYPE, derive=derive),
        init=rules.init,
        legal=rules.legal,
        apply=rules.apply,
        current_player=namespace["current_player"],
        is_terminal=namespace["is_terminal"],
        policy=policy,
        play_many=play_many,
        searchable=searchable,
        cut_scoring=cut_scoring,
        with_search=with_search,
    )
    return kernel


_BOUND: dict[str, Kernel] = {}


def kernel_for(game: str, rules_module: str, policy_target: str, hooks: Sequence[str] | None = None) -> Kernel:
    """The game's kernel, bound on first use in this process (``policy_target`` is "module:attr"; ``hooks``: the
    optional hooks the game declares, see :func:`bind`)."""
    if game not in _BOUND:
        rules = importlib.import_module(rules_module)
        module, _, attr = policy_target.partition(":")
        bots = importlib.import_module(module)
        sources = [Path(rules.__file__), Path(bots.__file__)]
        _BOUND[game] = bind(game, rules, getattr(bots, attr), sources, bots, hooks)
    return _BOUND[game]


def is_cached(game: str, rules_module: str, policy_target: str) -> bool | None:
    """Whether the game's loop loads from numba's on-disk cache (True) or compiles on first use (False):
    bound in this process, or its cache index is there and its sources are those the cache was written for.

    None when simlab cannot tell (numba caches somewhere else: ``NUMBA_CACHE_DIR``). Nothing is imported or
    compiled: the sources are found by module name.
    """
    if game in _BOUND or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return True
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    try:
        own = [_source(rules_module), _source(policy_target.partition(":")[0])]
        stamp = own[0].parent / "__pycache__" / jitcache.STAMP
        if not stamp.exists() or stamp.read_text() != jitcache.sources_hash(own + list(SHARED_SOURCES)):
            return False  # never compiled here, or a source changed: bind drops the cache and compiles
    except (OSError, ImportError, ValueError):
        return None
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    return any((_CORE / "__pycache__").glob(f"loop.{game}.play_many-*.{tag}.nbi"))


def _source(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        raise ImportError(module)
    return Path(spec.origin).resolve()
