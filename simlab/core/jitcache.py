"""Keep numba's on-disk cache honest when compiled code spans several modules.

numba keys a cached function on its own source file only. A game's compiled loop inlines its rules and
bots (and the shared rng and components), so editing ``rules.py`` alone would leave the loop's cached
machine code stale and silently wrong. ``refresh(sources, patterns, stamp_dir)`` hashes every source the
game's compiled code depends on and, when the hash changed since the cache was written, deletes the
game's cache files (``patterns``) before numba loads them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

STAMP = "simlab-jit-sources.sha256"


def sources_hash(sources: Sequence[Path]) -> str:
    """One hash of the names and contents of ``sources`` (order-independent)."""
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def refresh(sources: Sequence[Path], patterns: Sequence[tuple[Path, str]], stamp_dir: Path) -> bool:
    """Drop the cache files matching ``patterns`` ((folder, glob) pairs) if ``sources`` changed since
    the stamp in ``stamp_dir`` was written; returns True if anything was dropped."""
    stamp = stamp_dir / STAMP
    current = sources_hash(sources)
    try:
        if stamp.exists() and stamp.read_text() == current:
            return False
        dropped = False
        for folder, pattern in patterns:
            for cached in folder.glob(pattern):
                cached.unlink(missing_ok=True)
                dropped = True
        stamp_dir.mkdir(exist_ok=True)
        stamp.write_text(current)
        return dropped
    except OSError:  # a read-only install: numba then caches elsewhere, keyed per file as usual
        return False
