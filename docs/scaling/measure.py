"""Run a command and report its wall time, the load average around it and the peak memory of its process tree.

The figures in docs/scaling.md were measured with this: a run's memory is its main process plus its
worker processes, so the peak of their summed RSS (sampled every 0.2 s from /proc) is what the machine
must have; the largest single process is reported too. The CPU seconds of the whole process tree are
reported beside the wall time: on a shared machine they change far less with other users' load. Linux only.

    python docs/scaling/measure.py simlab run docs/scaling/roma_1m.toml --out /tmp/roma_1m --quiet
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path


def tree_rss(root: int) -> tuple[int, int]:
    """(sum, max) of the resident memory in bytes of ``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue  # the process ended while we looked
    total = biggest = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        biggest = max(biggest, rss.get(pid, 0))
        todo.extend(children.get(pid, []))
    return total, biggest


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    load_before = os.getloadavg()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv)
    peak_total = peak_single = 0
    while proc.poll() is None:
        total, single = tree_rss(proc.pid)
        peak_total, peak_single = max(peak_total, total), max(peak_single, single)
        time.sleep(0.2)
    wall = time.perf_counter() - t0
    load_after = os.getloadavg()
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)  # every descendant that was waited for
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    gib = 1 << 30
    print(
        f"measure: exit {proc.returncode}, wall {wall:.1f} s, cpu {cpu:.1f} s, "
        f"peak RSS of the process tree {peak_total / gib:.2f} GiB "
        f"(largest process {peak_single / gib:.2f} GiB), load average before {load_before[0]:.2f} "
        f"{load_before[1]:.2f} {load_before[2]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}",
        file=sys.stderr,
    )
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
