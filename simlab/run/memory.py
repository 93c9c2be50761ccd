"""Hand the memory a finished chunk freed back to the system, so a worker's size is that of one chunk.

A chunk's games and rows are many small allocations; when they are freed, glibc keeps the pages in the
process (measured: a 10,000-game Merchant of Venus chunk left a worker at 767 MB resident, 264 MB after
``malloc_trim``). loky takes a worker that stays over 300 MB above its size after the first chunk for a leak
and replaces it, with a warning, after every chunk: each replacement imports simlab and loads the engine
again (about 8% of a million-game run's time). Trimming after each chunk keeps the worker, and its memory,
small.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (macOS, musl, Windows)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None


def release_freed_memory() -> None:
    """Collect garbage and return the C heap's free pages to the system (a no-op without glibc)."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
