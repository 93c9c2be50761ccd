"""The chunks a run still has to play, made one at a time as they are dispatched.

Why lazily: a run of 10^10 games is up to ``MAX_CHUNKS`` chunks, and a list of them all took seconds and a
hundred MB before the first game. A plan holds only each variant's gaps (ranges not on disk), so it counts
its chunks and games by arithmetic and makes each task when the executor asks for the next one, in the same
order as before: by first game, then by variant (so a partial run stays paired).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence

from simlab.run.chunk import ChunkTask

#: (variant index, first game, stop) -> the task of that chunk
MakeTask = Callable[[int, int, int], ChunkTask]


class Plan:
    """The pending chunks of a run: ``gaps[v]`` are variant v's game ranges not on disk, cut into ``chunk_size``."""

    def __init__(self, gaps: Sequence[Sequence[tuple[int, int]]], chunk_size: int, make: MakeTask):
        self.gaps = [list(g) for g in gaps]
        self.chunk_size = chunk_size
        self._make = make

    def __len__(self) -> int:
        return sum(-(-(b - a) // self.chunk_size) for g in self.gaps for a, b in g)

    def __bool__(self) -> bool:
        return any(self.gaps)

    @property
    def games(self) -> int:
        """Games the plan plays, over all variants."""
        return sum(b - a for g in self.gaps for a, b in g)

    def __iter__(self) -> Iterator[ChunkTask]:
        ranges = heapq.merge(*(self._ranges(vi) for vi in range(len(self.gaps))))
        return (self._make(vi, a, b) for a, vi, b in ranges)

    def __getitem__(self, index: int) -> ChunkTask:
        """The task at ``index`` in dispatch order (tests and the warm-up ask for the first)."""
        if not 0 <= index < len(self):
            raise IndexError(index)
        return next(t for i, t in enumerate(self) if i == index)

    def _ranges(self, vi: int) -> Iterator[tuple[int, int, int]]:
        for start, stop in self.gaps[vi]:
            for a in range(start, stop, self.chunk_size):
                yield a, vi, min(a + self.chunk_size, stop)
