"""``@compiled``: a game function numba compiles once per kind of argument, not once per integer width.

numba compiles a function anew for every combination of argument types it is called with. In a game's
rules and bots the same function is called with a seat that is an ``int32`` (a record field) in one place,
an ``int64`` (a loop index) in another and a constant (``Literal[int](0)``) in a third, so the heaviest
heuristics were compiled 6–12 times each (Roma's ``base_value``: 8 specialisations, 10 s of a 61 s first
play). A ``@compiled`` function is compiled, for calls from compiled code, with every integer argument
widened to ``int64``; numba converts the caller's ``int32`` or constant at the call, as for any call whose
signature is wider than its arguments.

Boolean flags (``Literal[bool](True)``) keep their own specialisations: the compiled code drops the branch
they rule out. Values are unchanged: signed integers and unsigned ones narrower than 64 bits fit in
``int64``; ``uint64`` (generator states) and every non-scalar argument are compiled for as they are.

Measured on this 2-core machine (first play from an empty cache, compile seconds): Roma 61 → 27, Massilia
54 → 28, Pantheon 47 → 39, Merchant of Venus 39 → 21; games per second unchanged within noise (Roma
builder 20.6k → 20.8k, Massilia 3.61k → 3.61k, Pantheon 2.45k → 2.42k, MoV 593 → 587–602) and every game's
records bit-identical (tests/games/test_golden.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba.core import config, types
from numba.core.registry import CPUDispatcher


def canonical_type(t: types.Type) -> types.Type:
    """The argument type a ``@compiled`` function is compiled for, for a caller's argument of type ``t``."""
    if isinstance(t, types.Boolean):
        return t
    if isinstance(t, types.Integer) and (t.signed or t.bitwidth < 64):
        return types.int64
    return t


class OneWidthDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, compiling calls from compiled code for :func:`canonical_type` arguments."""

    def get_call_template(self, args, kws):
        _, folded = self._compiler.fold_argument_types(args, kws)
        return super().get_call_template(tuple(canonical_type(a) for a in folded), {})


def compiled(fn: Callable[..., Any], *, inline: bool = False) -> Any:
    """``njit(cache=True)`` whose calls from compiled code share one specialisation for all integer widths.
    ``inline``: compiled code that calls it gets its body in place (numba's ``inline="always"``), so it is no
    library of its own, compiled and then linked again into every caller (called from Python, it compiles as
    any other)."""
    if config.DISABLE_JIT:
        return fn
    options: dict[str, Any] = {"nopython": True, "inline": "always"} if inline else {"nopython": True}
    dispatcher = OneWidthDispatcher(py_func=fn, locals={}, targetoptions=options)
    dispatcher.enable_caching()
    return dispatcher
