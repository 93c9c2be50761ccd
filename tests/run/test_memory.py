"""A local worker hands the memory a chunk freed back to the system after every chunk, even a failed one,
so loky does not take the worker's retained heap for a leak and replace it (simlab.run.memory)."""

from __future__ import annotations

import sys

import pytest

from simlab.run import memory, watchdog


def test_release_trims_the_c_heap(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: calls.append)
    memory.release_freed_memory()
    assert calls == [0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim is Linux-only")
def test_glibc_malloc_trim_is_found_on_linux():
    memory._malloc_trim.cache_clear()
    assert memory._malloc_trim() is not None


def test_a_worker_releases_memory_after_a_chunk_that_fails(monkeypatch):
    released: list[bool] = []
    monkeypatch.setattr(watchdog, "watch_parent", lambda: None)
    monkeypatch.setattr(watchdog, "release_freed_memory", lambda: released.append(True))
    assert watchdog.in_worker(lambda x: x + 1, 1) == 2

    def fails() -> None:
        raise RuntimeError("a chunk's failure")

    with pytest.raises(RuntimeError, match="a chunk's failure"):
        watchdog.in_worker(fails)
    assert released == [True, True]
