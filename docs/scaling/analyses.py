"""Time one analysis over a result folder (run it under measure.py for its peak memory).

    python docs/scaling/measure.py python docs/scaling/analyses.py seat_advantage FOLDER

Prints the analysis's own time (imports excluded) and the size of what it returned. The names are the
functions of ``simlab.analysis`` that take just a folder.
"""

from __future__ import annotations

import sys
import time


def main(name: str, folder: str) -> None:
    import polars as pl

    import simlab.analysis as A

    rows = simlab_rows(folder)
    t0 = time.perf_counter()
    out = getattr(A, name)(folder)
    seconds = time.perf_counter() - t0
    shape = out.shape if isinstance(out, pl.DataFrame) else type(out).__name__
    print(f"{name}: {seconds:.1f} s over {rows:,} rows ({rows // 4:,} 4-player games); result {shape}")


def simlab_rows(folder: str) -> int:
    import polars as pl

    import simlab

    return simlab.load_results(folder).select(pl.len()).collect().item()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
