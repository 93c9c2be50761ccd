"""Game seeds: game i of a scenario gets a seed derived only from (root seed, i).

Seeds never depend on chunking, worker ids or time, so a run is bit-identical for any ``--jobs`` and chunk
size. They do not depend on the variant either: every variant plays game i with the same seed (common
random numbers), so a paired comparison sees the same shuffles and dice.

Derivation: games are grouped in blocks of 2**16; block b is the numpy ``SeedSequence(root, spawn_key=(b,))``
child, whose PCG64 raw output (a stream numpy keeps stable across versions) gives one 63-bit seed per
game. This costs nanoseconds per game, where one SeedSequence per game would cost ~20 µs.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

BLOCK_BITS = 16
BLOCK = 1 << BLOCK_BITS


@lru_cache(maxsize=8)
def _block(root: int, block: int) -> np.ndarray:
    bits = np.random.PCG64(np.random.SeedSequence(root, spawn_key=(block,)))
    seeds = (bits.random_raw(BLOCK) >> np.uint64(1)).astype(np.int64)  # below 2**63: fits int64 columns
    seeds.setflags(write=False)  # cached: shared by every caller
    return seeds


def game_seeds(root: int, start: int, stop: int) -> np.ndarray:
    """Seeds (int64, non-negative) of games ``start`` .. ``stop - 1`` under root seed ``root``."""
    if not 0 <= start <= stop:
        raise ValueError(f"bad game range {start}..{stop}")
    out = np.empty(stop - start, dtype=np.int64)
    pos = start
    while pos < stop:
        b, off = divmod(pos, BLOCK)
        take = min(stop - pos, BLOCK - off)
        out[pos - start : pos - start + take] = _block(root, b)[off : off + take]
        pos += take
    return out


def game_seed(root: int, index: int) -> int:
    """The seed of one game (what ``simlab play --seed`` needs to replay it)."""
    return int(game_seeds(root, index, index + 1)[0])
