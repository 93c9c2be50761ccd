"""Does a verdict survive other plausible data? The seat verdicts of a sensitivity run, variant by variant.

A game whose printed numbers are not public ships them as placeholder tables and knobs (provenance
``placeholder``, or ``assumption`` for a reading of an unclear rule). A *sensitivity run* plays a base variant
and variants that each change only such knobs, on the same game seeds (a game ships one as a scenario).
Experiment knobs (provenance ``intervention``, and any knob the game declares as an intervention: a grant, an
offset) are never data: a run that turns them is an intervention design, not a sensitivity run.
Its headline verdict is the seat advantage; here each seat's advantage (win share − 1/N) is estimated in every
variant and the variants are compared as :mod:`simlab.analysis.robust` compares the bots of a panel: Cochran's
Q test of the variant × seat interaction, Holm-adjusted over the seats, and per seat one of "keeps its sign
for every data variant tested", "changes with the data", "no detectable effect for any data variant" or
"not settled". The variants share their seeds, which correlates their estimates positively; Q treats them as
independent, which makes it conservative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from simlab.analysis import stats
from simlab.analysis.frames import AnalysisError
from simlab.analysis.robust import Robustness, from_estimates

#: the provenance of knobs whose value is not known: what a sensitivity run varies
UNKNOWN_SOURCES = ("placeholder", "assumption")
METHOD = (
    "each seat's win share minus 1/N per data variant; Cochran's Q test of the variant x seat interaction, "
    "Holm-adjusted over the seats; pooled estimate by inverse variance, Holm-adjusted; same game seeds"
)


def knob_sources(game: Any) -> dict[str, str]:
    """Knob → provenance, with every knob the game declares as an intervention (its knob and seat knob)
    marked ``intervention`` whatever its config says: an experiment knob is never unknown data."""
    sources = {k["name"]: k["source"] for k in game.config_class.provenance()}
    facts = getattr(game, "fact_set", None)
    for i in facts.interventions if facts is not None else ():
        for knob in (i.knob, i.seat_knob):
            if knob:
                sources[knob] = "intervention"
    return sources


def data_variants(configs: Mapping[str, Mapping[str, Any]], sources: Mapping[str, str], base: str) -> list[str] | None:
    """The variants of a sensitivity run, base first, or None when the folder is not one: every other variant
    must differ from ``base`` only in knobs whose provenance (``sources``: knob → source) is unknown data."""
    if base not in configs or len(configs) < 2:
        return None
    reference = configs[base]
    for name, config in configs.items():
        changed = [k for k in set(config) | set(reference) if config.get(k) != reference.get(k)]
        if name != base and (not changed or any(sources.get(k) not in UNKNOWN_SOURCES for k in changed)):
            return None
    return [base, *(name for name in configs if name != base)]


def seat_effects(results: Any, variants: Sequence[str], level: float = 0.95) -> pl.DataFrame:
    """Each seat's advantage in each variant: kind, effect, bot (the variant), estimate, se, lo, hi, games."""
    from simlab.analysis.seats import seat_advantage

    z = stats.z_value(level)
    order = {name: i for i, name in enumerate(variants)}  # the scenario's order, base first
    seats = (
        seat_advantage(results, level)
        .filter(pl.col("variant").is_in(list(variants)))
        .sort(pl.col("variant").replace_strict(order, return_dtype=pl.Int64), "seat")
    )
    if seats.is_empty():
        raise AnalysisError(f"no games of the variants {', '.join(variants)} in these results")
    return seats.select(
        pl.lit("seat advantage").alias("kind"),
        pl.format("seat {}", pl.col("seat")).alias("effect"),
        pl.col("variant").alias("bot"),
        (pl.col("win_share") - pl.col("fair_share")).alias("estimate"),
        ((pl.col("win_share_hi") - pl.col("win_share_lo")) / (2 * z)).alias("se"),
        (pl.col("win_share_lo") - pl.col("fair_share")).alias("lo"),
        (pl.col("win_share_hi") - pl.col("fair_share")).alias("hi"),
        pl.col("games").cast(pl.Int64),
    )


def sensitivity(
    folder: str | Path, base: str | None = None, level: float = 0.95, alpha: float = 0.05
) -> Robustness | None:
    """The seat verdicts of a sensitivity run across its data variants, or None when ``folder`` is not one."""
    from simlab.core.registry import get_game
    from simlab.run.reader import load_manifest

    manifest = load_manifest(folder)
    configs = {v["name"]: v["config"] for v in manifest["variants"]}
    sources = knob_sources(get_game(manifest["game"]))
    base = base or next(iter(configs))
    variants = data_variants(configs, sources, base)
    if variants is None:
        return None
    result = from_estimates(seat_effects(folder, variants, level), level, alpha, across="variant")
    result.method = METHOD
    return result
