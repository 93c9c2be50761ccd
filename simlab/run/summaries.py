"""The old name of :mod:`simlab.run.digest_hook` (the per-chunk digest hook a run is handed), kept importable."""

from simlab.run.digest_hook import DigestHook, load

ChunkSummaries = DigestHook

__all__ = ["ChunkSummaries", "DigestHook", "load"]
