"""Display defaults the notebooks share (``notebooks/*.ipynb`` call :func:`setup_notebook` first).

Floats print with polars' "mixed" format: about six significant digits, scientific notation for very large
or small numbers (0.019519, 1.2346e6), instead of every digit of the double (0.019518634264255555), so a
table of win shares and intervals reads at a glance without hiding a small difference.
"""

from __future__ import annotations

import polars as pl


def setup_notebook(rows: int = 12) -> None:
    """Show at most ``rows`` rows of a table, floats with their significant digits."""
    pl.Config.set_tbl_rows(rows)
    pl.Config.set_fmt_float("mixed")
    pl.Config.set_float_precision(None)
