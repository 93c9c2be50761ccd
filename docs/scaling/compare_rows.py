"""Are two result folders' rows bit-identical? (Used to check that a refactor changed no result.)

python docs/scaling/compare_rows.py FOLDER_A FOLDER_B
"""

from __future__ import annotations

import glob
import sys

import polars as pl


def load(folder: str) -> pl.DataFrame:
    files = sorted(glob.glob(f"{folder}/parts/*.parquet"))
    return pl.concat([pl.read_parquet(f) for f in files], how="vertical").sort("variant", "game", "seat")


if __name__ == "__main__":
    a, b = load(sys.argv[1]), load(sys.argv[2])
    print(a.shape, b.shape, "same columns:", a.columns == b.columns)
    print("columns that differ:", [c for c in a.columns if c in b.columns and not a[c].equals(b[c])])
    print("frames equal:", a.equals(b))
