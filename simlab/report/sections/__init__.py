"""The report's sections: one module each in this package, found through a registry that orders them.

A section module registers the function that builds it::

    @register("markets", "markets", order=30)
    def markets_section(ctx: Context) -> tuple[Section | None, str]:
        ...

The function returns the section, or None and the sentence that says why the results do not support it (the
overview lists those). ``order`` places the section in the report. Every module of this package is imported
when the package is, so a new section is one new file here; ``simlab.report.build`` asks :func:`registered`
for them in order.
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


_REGISTRY: dict[str, SectionKind] = {}


def register(id: str, name: str, order: int) -> Callable[[Builder], Builder]:
    """Register the decorated function as the builder of section ``id`` (a second registration of the same
    id replaces the first, so a module reloaded in a session does not appear twice)."""

    def add(build: Builder) -> Builder:
        _REGISTRY[id] = SectionKind(id, name, build, order)
        return build

    return add


def registered() -> list[SectionKind]:
    """Every registered section, in report order (ties: in registration order)."""
    return sorted(_REGISTRY.values(), key=lambda k: k.order)


def _discover() -> None:
    """Import every section module of this package (their ``register`` calls fill the registry)."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


_discover()
