"""The explicit chance generator that lives inside a state record.

xorshift64* (Vigna 2016): one uint64 of state, so ``clone()`` stays one array copy and a game replays
exactly from its seed. Seeds come from ``numpy.random.SeedSequence`` in Python (``seed_to_state``), never
from a global generator. All functions are numba-compiled and also run as plain Python under
``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MULT = np.uint64(0x2545F4914F6CDD1D)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S11 = np.uint64(11)
_S32 = np.uint64(32)


def seed_to_state(seed: int, stream: int = 0) -> np.uint64:
    """A non-zero generator state derived from (seed, stream) through SeedSequence."""
    words = np.random.SeedSequence([int(seed) & 0xFFFFFFFFFFFFFFFF, int(stream)]).generate_state(
        2, dtype=np.uint32
    )
    value = (int(words[0]) << 32) | int(words[1])
    return np.uint64(value or 0x9E3779B97F4A7C15)


@njit(cache=True)
def next_u64(state: np.ndarray, idx: int) -> np.uint64:
    """Advance the generator stored at ``state[idx]`` and return 64 random bits."""
    x = state[idx]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    state[idx] = x
    return x * _MULT


@njit(cache=True)
def randint(state: np.ndarray, idx: int, n: int) -> int:
    """Uniform integer in [0, n) from the generator at ``state[idx]`` (n >= 1; bias < 2**-32)."""
    r = next_u64(state, idx) >> _S32
    return int((r * np.uint64(n)) >> _S32)


@njit(cache=True)
def uniform(state: np.ndarray, idx: int) -> float:
    """Uniform float in [0, 1)."""
    return float(next_u64(state, idx) >> _S11) * (1.0 / 9007199254740992.0)
