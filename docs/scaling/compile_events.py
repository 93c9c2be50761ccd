"""Where a game's first-use compile goes: numba compile time per function (inclusive of what it compiles).

Remove every __pycache__ first, then: python docs/scaling/compile_events.py GAME
"""

from __future__ import annotations

import collections
import contextlib
import sys
import time

from numba.core import event

TIMES: dict[str, float] = collections.defaultdict(float)


class CompileTimes(event.Listener):
    def __init__(self) -> None:
        self.started: dict[tuple[int, str], float] = {}

    def on_start(self, ev: event.Event) -> None:
        self.started[id(ev.data["dispatcher"]), str(ev.data["args"])] = time.perf_counter()

    def on_end(self, ev: event.Event) -> None:
        fn = ev.data["dispatcher"].py_func
        start = self.started.pop((id(ev.data["dispatcher"]), str(ev.data["args"])))
        TIMES[fn.__module__.rsplit(".", 1)[-1] + "." + fn.__qualname__] += time.perf_counter() - start


if __name__ == "__main__":
    event.register("numba:compile", CompileTimes())
    from simlab.cli import cli

    t0 = time.perf_counter()
    with contextlib.suppress(SystemExit):
        cli(["play", sys.argv[1], "--seed", "1"], standalone_mode=False)
    print(f"total {time.perf_counter() - t0:.1f} s; numba compile by function (inclusive):", file=sys.stderr)
    for name, seconds in sorted(TIMES.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {seconds:6.2f} {name}", file=sys.stderr)
