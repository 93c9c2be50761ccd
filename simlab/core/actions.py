"""A game's action ids, declared once by family: ``ActionLayout("pass", "roll[4]", "take[2,4,6]", ...)``.

The compiled rules see plain module-level ints (``A_TAKE = ACTIONS.start("take")``, ``MAX_ACTIONS =
ACTIONS.size``): numba freezes them as constants, so the engines are exactly as fast as with hand-placed
offsets. Tests, transcripts and ``describe`` go through :meth:`ActionLayout.encode` and
:meth:`ActionLayout.decode` instead of repeating the offset arithmetic (``A_TAKE + src * 24 + colour * 6 +
value - 1`` becomes ``encode("take", src, colour, value - 1)``).

Families take consecutive ids in the order declared; a family of shape ``[2,4,6]`` numbers its members in
row-major order (the last index fastest), as the compiled code's arithmetic does. :func:`reserved` keeps a
block of ids unused, so the ids after it stay those that result folders and transcripts already hold.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import NamedTuple

from simlab.core.suggest import did_you_mean

_SPEC = re.compile(r"^([a-z][a-z0-9_]*)(?:\[(\d+(?:\s*,\s*\d+)*)\])?$")


@dataclasses.dataclass(frozen=True)
class Family:
    """One family of actions: ids ``start .. start + size - 1``, one per index of ``shape``."""

    name: str
    shape: tuple[int, ...]
    start: int

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def offset(self, index: tuple[int, ...]) -> int:
        """The member's place in the family (row-major); an index out of the shape is refused."""
        if len(index) != len(self.shape) and not (not index and self.shape == (1,)):
            raise ValueError(
                f"action family {self.name!r} takes {len(self.shape)} index(es) ({self.spec}), got {index!r}"
            )
        flat = 0
        for i, n in zip(index, self.shape, strict=False):
            if not 0 <= i < n:
                raise ValueError(f"action family {self.name!r} ({self.spec}): index {index!r} is out of range")
            flat = flat * n + int(i)
        return flat

    def index(self, offset: int) -> int | tuple[int, ...]:
        """The member at ``offset``: an int for a one-dimensional family, a tuple for a wider one."""
        if len(self.shape) == 1:
            return offset
        out = []
        for n in reversed(self.shape):
            offset, i = divmod(offset, n)
            out.append(i)
        return tuple(reversed(out))

    @property
    def spec(self) -> str:
        return self.name if self.shape == (1,) else f"{self.name}[{','.join(map(str, self.shape))}]"


@dataclasses.dataclass(frozen=True)
class Reserved:
    """A block of ids no action uses (see :func:`reserved`)."""

    size: int
    why: str


def reserved(size: int, why: str) -> Reserved:
    """``size`` ids left unused, and ``why``: keeps the ids declared after it where result folders have them."""
    if size < 1:
        raise ValueError(f"a reserved block needs at least 1 id, got {size}")
    return Reserved(size, why)


class Decoded(NamedTuple):
    """An action id read back: its family and its index in it (an int, or a tuple for a wider family)."""

    family: str
    index: int | tuple[int, ...]


class ActionLayout:
    """The action families of one game, in id order; see the module docstring."""

    def __init__(self, *entries: str | Reserved):
        self._families: dict[str, Family] = {}
        self._ordered: list[Family] = []  # in id order, for decode
        self._starts: list[int] = []  # the start of each of them
        start = 0
        for entry in entries:
            if isinstance(entry, Reserved):
                start += entry.size
                continue
            match = _SPEC.match(entry.strip())
            if match is None:
                raise ValueError(
                    f"action family {entry!r}: write a lower-case name, optionally with its size or shape "
                    "in brackets ('pass', 'roll[4]', 'take[2,4,6]')"
                )
            name, dims = match.group(1), match.group(2)
            shape = tuple(int(d) for d in dims.split(",")) if dims else (1,)
            if any(n < 1 for n in shape):
                raise ValueError(f"action family {entry!r}: every size must be at least 1")
            if name in self._families:
                raise ValueError(f"action family {name!r} is declared twice")
            family = Family(name, shape, start)
            self._families[name] = family
            self._ordered.append(family)
            self._starts.append(start)
            start += family.size
        self.size = start  # MAX_ACTIONS: every id is below it

    @property
    def families(self) -> tuple[Family, ...]:
        return tuple(self._ordered)

    def family(self, name: str) -> Family:
        """The family called ``name``; a misspelt name is refused with the closest ones."""
        try:
            return self._families[name]
        except KeyError:
            hint = did_you_mean(name, self._families)
            raise ValueError(f"no action family {name!r}" + (f" ({hint})" if hint else "")) from None

    def start(self, name: str) -> int:
        """The first id of family ``name``: the constant the compiled rules use (``A_TAKE``)."""
        return self.family(name).start

    def starts(self, *names: str) -> tuple[int, ...]:
        """The first ids of several families, in the order named (``A_MOVE, A_BUY = ACTIONS.starts(...)``)."""
        return tuple(self.start(name) for name in names)

    def encode(self, family: str, *index: int) -> int:
        """The id of member ``index`` of ``family`` (no index for a family of one)."""
        fam = self.family(family)
        return fam.start + fam.offset(tuple(int(i) for i in index))

    def decode(self, action: int) -> Decoded:
        """The family and index of an id; an id of no family (reserved, or out of range) is refused."""
        a = int(action)
        family = self.find(a)
        if family is None:
            raise ValueError(f"action id {a} belongs to no action family (ids 0..{self.size - 1})")
        return Decoded(family.name, family.index(a - family.start))

    def find(self, action: int) -> Family | None:
        """The family holding id ``action``, None for a reserved or out-of-range id."""
        a = int(action)
        lo, hi = 0, len(self._starts)
        while lo < hi:  # the last family starting at or before a
            mid = (lo + hi) // 2
            if self._starts[mid] <= a:
                lo = mid + 1
            else:
                hi = mid
        if lo == 0:
            return None
        family = self._ordered[lo - 1]
        return family if a < family.start + family.size else None

    def describe(self, action: int) -> str:
        """The default words for an id: the family's name, then its index (``roll 2``, ``take 1,3,5``)."""
        family = self.find(action)
        if family is None:
            return f"action {int(action)}"
        words = family.name.replace("_", " ")
        if family.shape == (1,):
            return words
        index = family.index(int(action) - family.start)
        return f"{words} {index if isinstance(index, int) else ','.join(map(str, index))}"

    def __contains__(self, name: object) -> bool:
        return name in self._families

    def __repr__(self) -> str:
        return f"ActionLayout({', '.join(f.spec for f in self.families)}; size {self.size})"


__all__ = ["ActionLayout", "Decoded", "Family", "Reserved", "reserved"]
