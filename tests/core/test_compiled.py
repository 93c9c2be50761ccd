"""``@compiled`` (simlab.core.compiled): one specialisation for every integer width a caller passes, values
unchanged, ``uint64`` generator states kept, constants and booleans still specialised."""

from __future__ import annotations

import numpy as np
from numba import types

from simlab.core.compiled import OneWidthDispatcher, canonical_type, compiled


def uncached(fn):
    """``@compiled`` without the disk cache: a fresh compile in every test process, so the dispatchers'
    ``signatures`` show what was compiled (a caller loaded from the cache never compiles its callees)."""
    return OneWidthDispatcher(py_func=fn, locals={}, targetoptions={"nopython": True})


@uncached
def seat_sum(seats, p, q):
    """A stand-in for a heuristic: called with seats from records (int32), loops (int64) and constants."""
    return seats[p] + seats[q] + p * 10


@uncached
def mixed_callers(seats, rec):
    total = seat_sum(seats, rec[0], rec[1])  # int32, int32
    for p in range(2):
        total += seat_sum(seats, p, rec[1])  # int64, int32
    return total + seat_sum(seats, np.int16(1), np.int8(0))  # int16, int8


def _half(x):
    return x // 2


#: compiled into its callers (no library of its own): the search's small per-game parts are bound like this
inlined_half = compiled(_half, inline=True)


@uncached
def call_inlined_half(x):
    return inlined_half(x) + inlined_half(x + 2)


@uncached
def high_bits(state):
    return state >> np.uint64(60)


@uncached
def call_high_bits(x):
    return high_bits(x)


def test_every_integer_width_shares_one_specialisation():
    seats = np.array([5, 7, 11], dtype=np.int64)
    rec = np.array([2, 1], dtype=np.int32)
    got = mixed_callers(seats, rec)
    want = (11 + 7 + 20) + (5 + 7 + 0) + (7 + 7 + 10) + (7 + 5 + 10)
    assert got == want
    assert len(seat_sum.signatures) == 1, seat_sum.signatures
    assert [str(t) for t in seat_sum.signatures[0][1:]] == ["int64", "int64"]


def test_a_uint64_generator_state_passes_unchanged():
    x = np.uint64(0xF000_0000_0000_0001)
    assert call_high_bits(x) == 15
    assert str(high_bits.signatures[0][0]) == "uint64"


def test_the_canonical_types():
    assert canonical_type(types.int32) == types.int64
    assert canonical_type(types.uint8) == types.int64
    assert canonical_type(types.IntegerLiteral(3)) == types.int64
    assert canonical_type(types.uint64) == types.uint64
    assert canonical_type(types.boolean) == types.boolean
    assert canonical_type(types.BooleanLiteral(True)) == types.BooleanLiteral(True)
    assert canonical_type(types.float64) == types.float64
    arr = types.Array(types.int32, 1, "C")
    assert canonical_type(arr) == arr


def test_compiled_is_the_one_width_dispatcher_with_the_disk_cache():
    def twice(x):
        return 2 * x

    dispatcher = compiled(twice)
    assert isinstance(dispatcher, OneWidthDispatcher)
    assert type(dispatcher._cache).__name__ == "FunctionCache"  # numba's on-disk cache, as njit(cache=True)


def test_an_inlined_function_is_compiled_into_its_caller_not_on_its_own():
    assert call_inlined_half(7) == 3 + 4
    assert inlined_half.signatures == []  # the caller holds its body: nothing compiled for it apart
    assert inlined_half.targetoptions["inline"] == "always"
    assert inlined_half(9) == 4  # called from Python, it compiles like any other
    assert "inline" not in compiled(_half).targetoptions
