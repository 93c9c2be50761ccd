"""How much memory a chunk needs, checked before a run starts: a chunk too big for the machine is refused.

A worker holds a whole chunk's game records (``chunk_size`` x the game's record size) and, while it turns
them into columns for its part file, their columns too. Measured on 2026-12-02: Merchant of Venus
(37,360-byte records) in chunks of 10,000 peaked at about 1.2 GB per worker; a Massilia chunk of 1,000,000
games (5,608-byte records) passed 12 GB per worker and was killed by the kernel's out-of-memory killer,
after minutes of play, with nothing saved. So a run refuses a chunk size whose estimate, times the local
workers, exceeds most of this machine's memory, and names the largest chunk size that fits.
"""

from __future__ import annotations

import os

from simlab.run.errors import ScenarioError

#: bytes a worker needs per byte of game record in its chunk (the records, their columns, the part's pages)
RECORD_FACTOR = 3.0
#: a worker's memory before its chunk (the interpreter, numpy, polars, the compiled game)
WORKER_BASE = 300 * 2**20
#: the share of the machine's memory a run's workers may plan to use
SHARE = 0.8


def machine_memory() -> int:
    """Bytes of physical memory of this machine (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def worker_memory(chunk_size: int, record_bytes: int) -> int:
    """Estimated peak bytes of one worker playing a chunk of ``chunk_size`` games."""
    return WORKER_BASE + int(RECORD_FACTOR * chunk_size * record_bytes)


def check_chunk_memory(game: str, chunk_size: int, record_bytes: int, workers: int, memory: int | None = None) -> None:
    """Refuse a chunk size whose ``workers`` concurrent chunks would not fit in this machine's memory."""
    memory = machine_memory() if memory is None else memory
    if memory <= 0:
        return
    budget = SHARE * memory / max(workers, 1)
    need = worker_memory(chunk_size, record_bytes)
    if need <= budget:
        return
    largest = max(1, int((budget - WORKER_BASE) / (RECORD_FACTOR * record_bytes)))
    gb = 2**30
    raise ScenarioError(
        f"chunk_size {chunk_size:,}: a chunk of {game} needs about {need / gb:.1f} GB per worker (a game's record "
        f"is {record_bytes:,} bytes, held with its columns while the part is written); {workers} worker(s) would "
        f"need more than {SHARE:.0%} of this machine's {memory / gb:.1f} GB: use a chunk size of at most "
        f"{largest:,}" + (" or fewer --jobs" if workers > 1 else "")
    )


__all__ = ["check_chunk_memory", "machine_memory", "worker_memory"]
