"""Which variants ``simlab seats`` shows in full when a run has many (a card run has 41 to 53).

A block per variant buries the one a reader compares everything with: a 53-variant card run printed 53 blocks with
``control`` among them in alphabetical order. The base (``--base``, else the run's control or rulebook variant)
leads in full; past ``MANY`` variants the rest are summarised, one verdict sentence each for the ``top`` seated
furthest from the fair share, and the command says how to see the others (``--variant NAME``, ``--all``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from simlab.analysis.frames import AnalysisError
from simlab.analysis.sweep import BASE_NAMES
from simlab.core.suggest import unknown_name

#: a run with more variants than this shows its base in full and summarises the rest
MANY = 6
#: variants summarised by default (the ones whose furthest seat is furthest from the fair share)
TOP = 5


@dataclass
class SeatFocus:
    """The seat table's rows to show in full (base first), the variants summarised, and those left out."""

    full: pl.DataFrame
    summarised: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def lead_variant(variants: list[str], base: str | None) -> str:
    """The variant a reader compares the others with: ``base``, else a conventional base name, else the first."""
    if base:
        return base
    return next((name for name in BASE_NAMES if name in variants), variants[0])


def focus(seats: pl.DataFrame, base: str | None, chosen: tuple[str, ...], top: int, show_all: bool) -> SeatFocus:
    """Split ``seats`` (``seat_advantage`` rows) into what is shown in full and what is summarised.

    ``chosen`` (``--variant``) shows those variants in full, the base first; ``show_all`` every variant; else a
    run of at most ``MANY`` variants shows them all, and a larger one its base in full and the ``top`` variants
    furthest from the fair share as one sentence each.
    """
    variants = list(dict.fromkeys(seats["variant"].to_list()))
    for name in chosen:
        if name not in variants:
            raise AnalysisError(f"--variant: {unknown_name('variant', name, variants)}")
    lead = lead_variant(variants, base)
    if chosen:
        full = [lead] if lead in variants and base else []
        full += [v for v in chosen if v not in full]
        return SeatFocus(_rows(seats, full))
    ordered = [lead, *(v for v in variants if v != lead)] if lead in variants else variants
    if show_all or len(variants) <= MANY:
        return SeatFocus(_rows(seats, ordered))
    rest = ordered[1:]
    far = (
        seats.filter(pl.col("variant").is_in(rest))
        .group_by("variant")
        .agg(((pl.col("win_share") - pl.col("fair_share")).abs().max()).alias("off"))
        .sort(["off", "variant"], descending=[True, False])
    )["variant"].to_list()
    return SeatFocus(_rows(seats, ordered[:1]), far[:top], far[top:])


def _rows(seats: pl.DataFrame, variants: list[str]) -> pl.DataFrame:
    """The rows of ``variants``, in that order (each variant's seats in their order)."""
    order = pl.DataFrame({"variant": variants, "_order": list(range(len(variants)))})
    return seats.join(order, on="variant").sort("_order", maintain_order=True).drop("_order")


def shown_changes(compared: pl.DataFrame, shown: SeatFocus) -> pl.DataFrame:
    """The paired changes (``compare_variants`` rows) of the variants shown; their p-values and simultaneous
    intervals stay those of the whole family of seats and variants."""
    return compared.filter(pl.col("variant").is_in({*shown.full["variant"].to_list(), *shown.summarised}))


def summary_lines(seats: pl.DataFrame, shown: SeatFocus, tolerance: float, folder: str) -> list[str]:
    """One verdict sentence per summarised variant, and how to see the variants left out."""
    from simlab.analysis.seats import seat_verdicts
    from simlab.analysis.text import verdict_sentence

    if not shown.summarised and not shown.left_out:
        return []
    total = len(shown.summarised) + len(shown.left_out)
    lead = shown.full["variant"][0] if shown.full.height else "BASE"
    lines = [
        f"the other {total} variants, furthest from the fair share first (picked by their own estimates; each "
        f"one's paired change, with intervals simultaneous over every variant: --base {lead}):"
    ]
    verdicts = seat_verdicts(_rows(seats, shown.summarised), tolerance)
    lines += [f"  {verdict_sentence(v, prefix=v['variant'] + ': ')}" for v in verdicts.iter_rows(named=True)]
    if shown.left_out:
        lines.append(
            f"  and {len(shown.left_out)} more; one of them in full: simlab seats {folder} --variant NAME; "
            f"every variant: simlab seats {folder} --all (or --top N)"
        )
    return lines
