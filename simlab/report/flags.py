"""Which results lean on rule assumptions or placeholder numbers, read from the config's provenance.

Every config field records where its default comes from (``GameConfig.provenance()``): the rulebook, a
derivation, an ``assumption`` (the rules leave the point open and simlab settled it) or a ``placeholder``
(a stand-in number until a real one is researched). A report must not present a figure as a property of
the published game when it rests on such a field, so every assumption and placeholder field is listed with
the value each variant used; a field that a variant changed from its default, or that differs between the
variants, is highlighted, since then the comparison itself measures that assumption.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

FLAGGED_SOURCES = ("assumption", "placeholder")


@dataclasses.dataclass(frozen=True)
class ConfigFlag:
    """One assumption/placeholder field: its default, each variant's value, and whether variants change it."""

    field: str
    source: str
    doc: str
    default: str
    values: dict[str, str]
    changed_by: list[str]
    varies: bool

    @property
    def highlighted(self) -> bool:
        return bool(self.changed_by) or self.varies


@dataclasses.dataclass(frozen=True)
class VariantChange:
    """A field a variant sets away from the published default (what the experiment varies)."""

    variant: str
    field: str
    source: str
    default: str
    value: str


def show(value: Any) -> str:
    """A config value as a designer writes it: lists as ``6, 6, 6, 6``."""
    if isinstance(value, list | tuple):
        return ", ".join(show(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _same(a: Any, b: Any) -> bool:
    """Equality across JSON round trips (tuples in the class, lists in the manifest)."""
    return json.dumps(a, default=list, sort_keys=True) == json.dumps(b, default=list, sort_keys=True)


def provenance_of(game: str) -> list[dict[str, Any]] | None:
    """The provenance table of a game's config class, or None if the game cannot be loaded here."""
    try:
        import simlab

        return simlab.get_game(game).config_class.provenance()
    except Exception:  # a plug-in game missing on this machine: the report says so instead of failing
        return None


def config_flags(provenance: list[dict[str, Any]], configs: dict[str, dict[str, Any]]) -> list[ConfigFlag]:
    """Assumption and placeholder fields with each variant's value; highlighted ones first."""
    flags = []
    for entry in provenance:
        if entry["source"] not in FLAGGED_SOURCES:
            continue
        name = entry["name"]
        values = {v: cfg.get(name, entry["default"]) for v, cfg in configs.items()}
        changed = [v for v, value in values.items() if not _same(value, entry["default"])]
        distinct = {json.dumps(value, default=list, sort_keys=True) for value in values.values()}
        flags.append(
            ConfigFlag(
                field=name,
                source=entry["source"],
                doc=entry["doc"],
                default=show(entry["default"]),
                values={v: show(value) for v, value in values.items()},
                changed_by=changed,
                varies=len(distinct) > 1,
            )
        )
    return sorted(flags, key=lambda f: (not f.highlighted, f.source != "placeholder", f.field))


def variant_changes(provenance: list[dict[str, Any]], configs: dict[str, dict[str, Any]]) -> list[VariantChange]:
    """Per variant, the fields it sets away from the published defaults (all sources)."""
    out = []
    for v, cfg in configs.items():
        for entry in provenance:
            name = entry["name"]
            if name in cfg and not _same(cfg[name], entry["default"]):
                out.append(VariantChange(v, name, entry["source"], show(entry["default"]), show(cfg[name])))
    return out
