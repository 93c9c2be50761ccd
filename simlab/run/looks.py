"""A run played in looks: the runner plays up to each look's per-variant game counts, then asks its ``Looks``
how far to go next.

Why a hook and not a loop around ``run_scenario``: the folder's lock, the workers and the session stay the same
from the first look to the last (a second run cannot slip in between two looks, and workers start once), and the
manifest is written before each look is judged, so a run killed at any point resumes to the same decisions. The
runner knows nothing of what a look judges: the rule lives above it (``simlab.experiments.settle``), which reads
the folder through the analyses. Game i stays game i (seeds and lineup rotation by index), so a run stopped at n
games holds the rows of a fixed run of n games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol


class Looks(Protocol):
    """What the runner asks of a rule that decides, look by look, how many games each variant plays."""

    def begin(self, previous: Mapping[str, Any]) -> None:
        """The folder's manifest before this session ({} for a new folder): a resumed rule reads its record."""

    def targets(self, folder: Path, reached: Mapping[str, int]) -> Mapping[str, int]:
        """Games each variant is to have before the next look (``reached``: the games on disk from game 0 on,
        per variant). Called when the run starts and after every batch, with the manifest written; a target
        equal to ``reached`` for every variant ends the run."""

    def record(self) -> tuple[str, dict[str, Any]]:
        """The manifest key and value recording the rule and its decisions so far."""

    def note(self) -> str:
        """What the progress line adds (the open questions and their state); "" for nothing."""


def reached(chunks: Iterable[Mapping[str, Any]], variants: Iterable[str]) -> dict[str, int]:
    """Per variant, the first game index not on disk: the games 0 .. reached-1 are all played (failed games
    count as played: they were tried and are in failures.jsonl)."""
    spans: dict[str, list[tuple[int, int]]] = {v: [] for v in variants}
    for c in chunks:
        spans.setdefault(str(c["variant"]), []).append((int(c["start"]), int(c["stop"])))
    out = {}
    for v, ranges in spans.items():
        pos = 0
        for start, stop in sorted(ranges):
            if start > pos:
                break
            pos = max(pos, stop)
        out[v] = pos
    return out
