"""Keep numba's on-disk cache honest when compiled code spans several modules.

numba keys a cached function on its own source file only. A compiled game loop inlines the rules and
the bots, so editing ``rules.py`` alone would leave the loop's cached machine code stale and silently
wrong. ``refresh(sources)`` hashes every source a compiled entry point depends on and, when the hash
changed since the cache was written, deletes the cache files of those modules before numba loads them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

STAMP = "simlab-jit-sources.sha256"


def refresh(sources: list[Path]) -> bool:
    """Drop stale numba cache files of ``sources``; returns True if anything was dropped."""
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    stamp_dir = sources[0].parent / "__pycache__"
    stamp = stamp_dir / STAMP
    current = digest.hexdigest()
    try:
        if stamp.exists() and stamp.read_text() == current:
            return False
        dropped = False
        for path in sources:
            cache_dir = path.parent / "__pycache__"
            for pattern in (f"{path.stem}.*.nbi", f"{path.stem}.*.nbc"):
                for cached in cache_dir.glob(pattern):
                    cached.unlink(missing_ok=True)
                    dropped = True
        stamp_dir.mkdir(exist_ok=True)
        stamp.write_text(current)
        return dropped
    except OSError:  # a read-only install: numba then caches elsewhere, keyed per file as usual
        return False
