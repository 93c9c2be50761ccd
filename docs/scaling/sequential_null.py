"""Verdicts valid at every look, on the real engine: false "beyond" in a null design read at many looks.

The null design of tests/analysis/null_design.py (Massilia's price tiles listed in other orders: every variant a
true null against ``rulebook``) is played once; blocks of consecutive games are independent replications. Each
block is read as a settling run would read it, at looks every ``LOOK`` games, by ``sequential.verdicts_from`` (the
12 paired changes of 3 variants x 4 seats against the base, Bonferroni over them, tolerance 0: any interval that
excludes zero is a false "beyond"). Beside it, the fixed-size 95% interval read at the same looks (each change on
its own, and Bonferroni over the 12). Figures in docs/analysis.md.

    PYTHONPATH=.:tests/analysis python docs/scaling/sequential_null.py [games per variant] [block] [look]
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl
from null_design import ORDERS, run

from simlab.analysis import stats
from simlab.analysis.sequential import _Question, verdicts_from


def wilson(k: int, n: int, z: float = 1.96) -> str:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return f"{k}/{n} = {100 * p:.1f}% [{100 * max(c - h, 0):.1f}, {100 * min(c + h, 1):.1f}]"


def main(games: int = 20_000, block: int = 2_000, look: int = 200) -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        rows = run(Path(tmp), games)
    played = time.perf_counter() - started
    shares = {
        v: d.sort("game", "seat")["win_share"].cast(pl.Float64).to_numpy().reshape(-1, 4)
        for (v,), d in rows.group_by("variant")
    }
    base = shares["rulebook"]
    z_each, z_family = stats.z_value(0.95), stats.simultaneous_z(0.95, 12)
    false_seq = false_each = false_family = 0
    blocks = games // block
    for b in range(blocks):
        seq = each = family = False
        for n in range(look, block + 1, look):
            rows_ = slice(b * block, b * block + n)
            qs = []
            for v in ORDERS:
                d = shares[v][rows_] - base[rows_]
                for k in range(4):
                    x = d[:, k]
                    qs.append(_Question(f"change/{v}/seat {k}", "", (v, "rulebook"), n, x.sum(), (x * x).sum(), -1, 1, 0))
                    se = x.std(ddof=1) / math.sqrt(n)
                    each |= abs(x.mean()) > z_each * se
                    family |= abs(x.mean()) > z_family * se
            seq |= any(v.state == "beyond" for v in verdicts_from(qs, 1e-9, 0.05, 4))
        false_seq += seq
        false_each += each
        false_family += family
    print(f"{games:,} games x 4 variants in {played:.0f} s; {blocks} blocks of {block:,} games, a look every {look}")
    print(f"any false 'beyond' among the 12 changes at some look: confidence sequences {wilson(false_seq, blocks)}")
    print(f"  fixed 95% intervals at the same looks: each on its own {wilson(false_each, blocks)}, ", end="")
    print(f"Bonferroni over the 12 {wilson(false_family, blocks)}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
