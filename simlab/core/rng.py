"""The explicit chance generator that lives inside a state record.

xorshift64* (Vigna 2016): one uint64 of state, so ``clone()`` stays one array copy and a game replays
exactly from its seed. Game seeds come from ``numpy.random.SeedSequence`` (the runner); the states of a
game's streams are mixed from them by ``seeds_to_states``; nothing uses a global generator. The in-record
functions are numba-compiled and also run as plain Python under ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np

from simlab.core.compiled import compiled

_MULT = np.uint64(0x2545F4914F6CDD1D)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S11 = np.uint64(11)
_S32 = np.uint64(32)


_GOLDEN = 0x9E3779B97F4A7C15
_MASK = 0xFFFFFFFFFFFFFFFF


def _splitmix64(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser (Steele et al. 2014): a bijective mix of 64-bit words, vectorised."""
    with np.errstate(over="ignore"):
        x = (x + np.uint64(_GOLDEN)) & np.uint64(_MASK)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def seeds_to_states(seeds: np.ndarray | list[int], stream: int = 0) -> np.ndarray:
    """Non-zero generator states for many game seeds at once, one independent stream per ``stream``.

    Game seeds are themselves drawn from ``numpy.random.SeedSequence`` by the runner; a game's chance
    stream (0) and each seat's bot stream (1, 2, …) are mixed from (seed, stream) with SplitMix64, which
    costs nanoseconds instead of a SeedSequence's microseconds per game.
    """
    words = np.asarray(seeds, dtype=np.uint64)
    with np.errstate(over="ignore"):
        mixed = _splitmix64(_splitmix64(words) ^ np.uint64((stream * 0xD1B54A32D192ED03) & _MASK))
    return np.where(mixed == 0, np.uint64(_GOLDEN), mixed)


def _splitmix64_int(x: int) -> int:
    x = (x + _GOLDEN) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def seed_to_state(seed: int, stream: int = 0) -> np.uint64:
    """The generator state of one (seed, stream); equal to ``seeds_to_states([seed], stream)[0]``."""
    mixed = _splitmix64_int(_splitmix64_int(int(seed) & _MASK) ^ ((stream * 0xD1B54A32D192ED03) & _MASK))
    return np.uint64(mixed or _GOLDEN)


@compiled
def next_u64(state: np.ndarray, idx: int) -> np.uint64:
    """Advance the generator stored at ``state[idx]`` and return 64 random bits."""
    x = state[idx]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    state[idx] = x
    return x * _MULT


@compiled
def below(state: np.ndarray, idx: int, n: int) -> int:
    """A uniform integer below ``n`` (in [0, n), n >= 1; bias < 2**-32) from the generator at ``state[idx]``.

    Named for what it returns: unlike numpy's ``randint(low, high)``, the first two arguments say which
    generator to advance, not a range."""
    r = next_u64(state, idx) >> _S32
    return int((r * np.uint64(n)) >> _S32)


@compiled
def uniform(state: np.ndarray, idx: int) -> float:
    """Uniform float in [0, 1)."""
    return float(next_u64(state, idx) >> _S11) * (1.0 / 9007199254740992.0)
