"""What verifying Parquet page checksums costs a reader, against polars' own scan (which does not verify them).

    PYTHONPATH=. python docs/scaling/checksum_cost.py RESULT_FOLDER [COPIES]

Builds four files of one part's rows repeated COPIES times (default 25,000: 1M rows each at 40 rows a part),
written as a run writes (zstd, page checksums, 64,000-row row groups), and times the best of three reads:
every column and the four columns a seat analysis reads, by polars and by pyarrow with and without checksums.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

COLUMNS = ["variant", "seat", "win_share", "game"]


def best(fn, n: int = 3) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(folder: Path, copies: int) -> None:
    part = sorted((folder / "parts").glob("*.parquet"))[0]
    table = pq.read_table(part)
    big = pa.concat_tables([table] * copies)
    with tempfile.TemporaryDirectory() as tmp:
        paths = [str(Path(tmp) / f"p{i}.parquet") for i in range(4)]
        for p in paths:
            pq.write_table(big, p, compression="zstd", write_page_checksum=True, row_group_size=64_000)
        print(f"{4 * big.num_rows:,} rows x {big.num_columns} columns")
        for label, cols in (("every column", None), ("4 columns", COLUMNS)):
            polars = best(lambda c=cols: pl.scan_parquet(paths, use_statistics=False).select(c or pl.all()).collect())
            plain = best(lambda c=cols: [pq.ParquetFile(p).read(columns=c) for p in paths])
            checked = best(
                lambda c=cols: [pq.ParquetFile(p, page_checksum_verification=True).read(columns=c) for p in paths]
            )
            print(f"{label}: polars {polars:.2f} s, pyarrow {plain:.2f} s, pyarrow with page checksums {checked:.2f} s")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 25_000)
