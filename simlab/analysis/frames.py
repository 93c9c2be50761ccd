"""Getting result rows into a lazy frame and finding the columns an analysis needs.

Analyses accept a result folder path, a polars LazyFrame or a DataFrame, so a notebook can pass
``simlab.load_results(folder)``, a filtered frame, or synthetic rows in a test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polars as pl

from simlab.core.errors import SimlabError

Results = str | Path | pl.LazyFrame | pl.DataFrame

#: one row per game: these keys identify it (game i of every variant shares its seed)
GAME_KEYS = ("variant", "game")


class AnalysisError(SimlabError):
    """An analysis cannot answer for these rows (a needed column is missing, too few games...)."""


class NoMarketError(AnalysisError):
    """The game has no market columns (prices, demand markers, cubes bought and sold)."""


def as_lazy(results: Results) -> pl.LazyFrame:
    """A LazyFrame over result rows given as a folder, a LazyFrame or a DataFrame."""
    if isinstance(results, pl.LazyFrame):
        return results
    if isinstance(results, pl.DataFrame):
        return results.lazy()
    if isinstance(results, str | Path):
        from simlab.run.store import load_results

        return load_results(results)
    raise AnalysisError(f"expected a result folder or a polars frame of result rows, got {type(results).__name__}")


def names(lf: pl.LazyFrame) -> list[str]:
    return lf.collect_schema().names()


def require(lf: pl.LazyFrame, columns: tuple[str, ...] | list[str], what: str) -> None:
    """Raise AnalysisError naming the missing columns, instead of a polars ColumnNotFoundError."""
    have = set(names(lf))
    missing = [c for c in columns if c not in have]
    if missing:
        raise AnalysisError(f"{what} needs the column(s) {', '.join(missing)}, which these results do not have")


def by_round(columns: list[str], pattern: str) -> dict[int, str]:
    """Columns matching ``pattern`` (a regex with one ``(\\d+)`` round group), keyed by round."""
    rx = re.compile(pattern)
    out = {}
    for c in columns:
        m = rx.fullmatch(c)
        if m:
            out[int(m.group(1))] = c
    return dict(sorted(out.items()))


def players(lf: pl.LazyFrame) -> int:
    """Seats per game (the highest seat number plus one)."""
    n = lf.select(pl.col("seat").max()).collect().item()
    if n is None:
        raise AnalysisError("no result rows")
    return int(n) + 1


def sample(lf: pl.LazyFrame) -> dict[str, Any]:
    """Games, variants and bots behind a set of rows, for chart captions and printed headers."""
    df = lf.select(
        pl.struct("variant", "game").n_unique().alias("games"),
        pl.col("variant").n_unique().alias("variants"),
        pl.col("bot").unique().sort().implode().alias("bots"),
    ).collect()
    return {"games": int(df["games"][0]), "variants": int(df["variants"][0]), "bots": df["bots"][0].to_list()}


def bots_label(lf: pl.LazyFrame) -> str:
    """The bots in a set of rows, comma-separated (chart captions state them)."""
    if "bot" not in names(lf):
        return ""
    return ", ".join(sorted(lf.select(pl.col("bot").unique()).collect()["bot"].to_list()))
