"""A game's optional compiled hooks, declared on its Game class instead of found by name.

A game offers core's search bot (``determinize``), cut-short playouts (``score_now``) or a bots' valuation of a
position (``estimate_now``) by defining the function AND naming it in ``Game.hooks``. Found by ``hasattr``, a
misspelt ``determinise`` made a game silently unsearchable; declared, every mismatch is an error naming the
hook: a declared hook the module does not define, a defined hook the game does not declare, and (in the contract
suite, ``simlab.testing.check_game``) a function whose name is a near miss of a hook.
"""

from __future__ import annotations

import inspect
from collections.abc import Collection
from types import ModuleType

from simlab.core.errors import SimlabError
from simlab.core.suggest import did_you_mean

#: hook -> (the module that defines it: "rules" or "bots", what it offers)
OPTIONAL_HOOKS: dict[str, tuple[str, str]] = {
    "determinize": ("rules", "determinize(st, cf, seat, rng): resample what a seat cannot see; the search bot"),
    "score_now": ("rules", "score_now(st, cf): the final scoring where the game stands; search depth cut-offs"),
    "estimate_now": ("bots", "estimate_now(st, cf): the bots' valuation of a position; depth cut-offs"),
}
#: how many edits (a letter added, dropped, changed or two swapped; case and _ ignored) make a function's name a
#: misspelling of a hook's: ``determinise``, ``scoreNow``, ``estimate_nwo``, but not Massilia's ``score_of``
NEAR_MISS = 1


class HookError(SimlabError):
    """A game's declared hooks and the functions its modules define disagree."""


def require_known(game: str, hooks: Collection[str]) -> None:
    """Every declared name is a hook core knows (checked when the Game class is created)."""
    for hook in hooks:
        if hook not in OPTIONAL_HOOKS:
            hint = did_you_mean(hook, OPTIONAL_HOOKS)
            raise HookError(
                f"{game}: hooks names {hook!r}, which is no optional hook"
                + (f" ({hint})" if hint else "")
                + f"; the hooks are: {', '.join(OPTIONAL_HOOKS)} (docs/adding_a_game.md)"
            )


def _module_of(hook: str, rules: ModuleType, bots: ModuleType | None) -> ModuleType | None:
    return rules if OPTIONAL_HOOKS[hook][0] == "rules" else bots


def defined_hooks(rules: ModuleType, bots: ModuleType | None) -> tuple[str, ...]:
    """The hooks the modules define (for a kernel bound without declarations: tests binding a loop by hand)."""
    return tuple(h for h in OPTIONAL_HOOKS if getattr(_module_of(h, rules, bots), h, None) is not None)


def require_consistent(game: str, hooks: Collection[str], rules: ModuleType, bots: ModuleType | None) -> None:
    """A declared hook the module does not define, or a defined one the game does not declare: an error
    naming the hook and what to do (raised when the game's kernel is bound, before anything is played)."""
    for hook in OPTIONAL_HOOKS:
        module = _module_of(hook, rules, bots)
        where = module.__name__ if module is not None else f"the {OPTIONAL_HOOKS[hook][0]} module"
        defined = module is not None and getattr(module, hook, None) is not None
        if hook in hooks and not defined:
            near = near_misses(module) if module is not None else {}
            seen = [name for name, h in near.items() if h == hook]
            also = f" (it defines {seen[0]!r}: a misspelling?)" if seen else ""
            raise HookError(
                f"{game}: hooks declares {hook!r}, but {where} defines no {hook}{also}; define "
                f"{OPTIONAL_HOOKS[hook][1].partition(':')[0]} there or drop it from hooks"
            )
        if defined and hook not in hooks:
            raise HookError(
                f"{game}: {where} defines {hook}, which the game does not declare; add {hook!r} to its "
                "Game class's hooks (or rename the function if it is not the hook)"
            )


def near_misses(module: ModuleType) -> dict[str, str]:
    """Functions of ``module`` whose names are near misses of a hook's (``determinise``): name -> the hook."""
    out: dict[str, str] = {}
    for name, value in vars(module).items():
        if name in OPTIONAL_HOOKS or name.startswith("__") or not callable(value) or inspect.isclass(value):
            continue
        for hook in OPTIONAL_HOOKS:
            if edits(_plain(name), _plain(hook)) <= NEAR_MISS:
                out[name] = hook
    return out


def _plain(name: str) -> str:
    return name.casefold().replace("_", "")


def edits(a: str, b: str) -> int:
    """The fewest single-letter insertions, deletions, substitutions or swaps of neighbours from ``a`` to ``b``."""
    if abs(len(a) - len(b)) > NEAR_MISS:
        return NEAR_MISS + 1
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def misspelt_hooks(game: str, rules: ModuleType, bots: ModuleType | None) -> list[str]:
    """One message per function of the game's rules or bots whose name is a near miss of a hook's."""
    out = []
    for module in (rules, bots):
        if module is None:
            continue
        for name, hook in near_misses(module).items():
            out.append(
                f"{game}: {module.__name__} defines {name}, a near miss of the optional hook {hook!r} "
                f"({OPTIONAL_HOOKS[hook][1]}); core finds a hook only by its exact name: rename it to {hook} "
                "and declare it in the Game class's hooks"
            )
    return out
