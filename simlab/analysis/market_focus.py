"""Which variants ``simlab markets`` shows when a run has many (a card run: 41 variants x every market item).

As with the seats (``seat_focus``), a table of every variant's every item buries the one a reader compares the
others with. Past ``seat_focus.MANY`` variants the text shows the base (``--base``, else the run's control or
rulebook variant) and says how to see the others (``--variant NAME``, ``--all``); ``--json`` keeps every row.
"""

from __future__ import annotations

import polars as pl

from simlab.analysis.frames import AnalysisError
from simlab.analysis.seat_focus import MANY, lead_variant
from simlab.core.suggest import unknown_name


def shown_variants(variants: list[str], base: str | None, chosen: tuple[str, ...], show_all: bool) -> list[str]:
    """The variants the market tables show, the base first: ``chosen`` (with the base), every variant of a small
    run (or with ``show_all``), else the base alone."""
    for name in chosen:
        if name not in variants:
            raise AnalysisError(f"--variant: {unknown_name('variant', name, variants)}")
    lead = lead_variant(variants, base)
    ordered = [lead, *(v for v in variants if v != lead)] if lead in variants else variants
    if chosen:
        return [v for v in ordered if v in chosen or (base and v == lead)]
    if show_all or len(variants) <= MANY:
        return ordered
    return ordered[:1]


def only(table: pl.DataFrame | None, variants: list[str]) -> pl.DataFrame | None:
    """The rows of ``variants`` in that order (a table without a variant column, or None, as it is)."""
    if table is None or "variant" not in table.columns:
        return table
    order = pl.DataFrame({"variant": variants, "_order": list(range(len(variants)))})
    return table.join(order, on="variant").sort("_order", maintain_order=True).drop("_order")


def hidden_line(variants: list[str], shown: list[str], folder: str) -> list[str]:
    """How to see the variants the tables leave out, or nothing."""
    hidden = len(variants) - len(shown)
    if hidden <= 0:
        return []
    return [
        f"{hidden} other variants not shown (the markets of {shown[0]} above); one of them: simlab markets {folder} "
        f"--variant NAME; every variant: simlab markets {folder} --all (or --json)"
    ]
