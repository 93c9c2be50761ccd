"""The report's sections: one module each in this package, found through a registry that orders them.

A section module registers the function that builds it::

    @register("markets", "markets", order=30)
    def markets_section(ctx: Context) -> tuple[Section | None, str]:
        ...

The function returns the section, or None and the sentence that says why the results do not support it (the
overview lists those). ``order`` places the section in the report; :func:`lead_first` then puts the section
that answers the scenario's question first: the one the scenario names (its ``question`` key: a market
scenario says ``question = "markets"``), else a section registered with ``leads=True`` (it is built only for a
design that asks its question: a card-value run, a sensitivity run), else the first in order (the seats).
Every module of this package is imported when the package is, so a new section is one new file here;
``simlab.report.build`` asks :func:`registered` for them in order.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simlab.report.context import Context
    from simlab.report.model import Section

Builder = Callable[["Context"], "tuple[Section | None, str]"]


@dataclasses.dataclass(frozen=True)
class SectionKind:
    """A registered section: its id (the page anchor), the words of its progress line, its builder and its
    place in the report."""

    id: str
    name: str
    build: Builder
    order: int
    leads: bool = False


_REGISTRY: dict[str, SectionKind] = {}


def register(id: str, name: str, order: int, leads: bool = False) -> Callable[[Builder], Builder]:
    """Register the decorated function as the builder of section ``id`` (a second registration of the same
    id replaces the first, so a module reloaded in a session does not appear twice). ``name`` may hold
    ``{noun}``, the game's word for what a card intervention grants (card, god, item). ``leads``: whenever the
    section is built it answers the scenario's question (it exists only for a design that asks it)."""

    def add(build: Builder) -> Builder:
        _REGISTRY[id] = SectionKind(id, name, build, order, leads)
        return build

    return add


def registered() -> list[SectionKind]:
    """Every registered section, in report order (ties: in registration order)."""
    return sorted(_REGISTRY.values(), key=lambda k: k.order)


def lead_first(sections: list[Section], question: str = "") -> list[Section]:
    """The built sections with the one that answers the scenario's question first: the section the scenario
    names, else the first built section registered with ``leads``, else as they are (the first in order)."""
    ids = [s.id for s in sections]
    leading = [k.id for k in registered() if k.leads and k.id in ids]
    lead = question if question in ids else next(iter(leading), None)
    if lead is None:
        return sections
    i = ids.index(lead)
    return [sections[i], *sections[:i], *sections[i + 1 :]]


def _discover() -> None:
    """Import every section module of this package (their ``register`` calls fill the registry)."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


_discover()
