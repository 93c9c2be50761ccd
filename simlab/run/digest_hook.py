"""The digest hook: what a run is handed to condense each chunk's rows into a digest for fast reports.

The runner knows nothing of the analyses. Whoever starts a run may hand it the target ("module:attr") of
an object with the :class:`DigestHook` protocol; each worker loads it by that name (so it reaches
Dask and Ray workers as a string), stores ``of_chunk``'s bytes in the chunk's part file
(``store.DIGEST_KEY``), and a compaction merges the parts' bytes with ``combine``. ``simlab.run_scenario``
and the CLI hand runs simlab's own digests (``simlab.analysis.digest``); a run handed none writes parts
without them, and its reports scan the rows.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Protocol

import pyarrow as pa


class DigestHook(Protocol):
    """What a run's digest hook offers: a chunk's digest, and the digest of several chunks' digests."""

    def of_chunk(self, table: pa.Table, variant: str, start: int, stop: int) -> bytes: ...

    def combine(self, blobs: list[bytes]) -> bytes | None: ...


@cache
def load(target: str) -> DigestHook:
    """The hook named ``"module:attr"`` (loaded once per process)."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)
