"""Local workers end within a second of the run that started them, however it ended.

loky keeps idle workers for five minutes, and a worker whose parent was killed (``kill -9``, an OOM kill)
never hears of it: it lives on for those minutes, holding the parent's stdout and stderr open, so a pipe
reader of the run (``simlab run ... | tee``) blocks until it goes. A daemon thread in each worker watches
its parent process id; when the parent is gone (the worker is re-parented), the worker exits at once.
Polling ``getppid`` costs nothing measurable (one system call a second).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from simlab.run.memory import release_freed_memory

#: seconds between two looks at the parent
POLL_SECONDS = 0.5

_watching: int | None = None  # the parent pid this process watches (None: not started)


def watch_parent() -> None:
    """Start (once per process) the thread that ends this process when its parent dies."""
    global _watching
    if _watching is not None:
        return
    _watching = os.getppid()
    threading.Thread(target=_watch, args=(_watching,), name="simlab-parent-watchdog", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)  # no cleanup to run: a chunk in progress is replayed by --resume


def in_worker(function: Any, *args: Any) -> Any:
    """Call ``function(*args)`` in a local worker process, with the parent watchdog running; then hand the
    memory it freed back to the system (simlab.run.memory), so loky keeps the worker."""
    watch_parent()
    try:
        return function(*args)
    finally:
        release_freed_memory()
