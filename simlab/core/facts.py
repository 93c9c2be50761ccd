"""Facts declared once: a game's fact columns, their roles, its units and its interventions.

A game declares each fact column once, as a :class:`Fact`: a name pattern (``money_r{round}``,
``price_{location}_r{round}``), a source (a record field such as ``f_money_r``, or a function of the
records for a derived fact such as ``final_stalls``), whether it is per seat or per game, its item axes
in the source array's order (:class:`Axis`: round, card, goods, location, …), a description with the same
placeholders, a dtype and a **role**. :class:`Group` iterates several facts over shared axes, so the
generated columns keep the order the game has always written. From a :class:`FactSet` come
``columns(records, config)`` (the long-format fact columns), ``schema(config)`` (name -> description),
``role_map(config)`` (role -> the columns that play it, with their axis labels) and ``manifest(config)``
(what a run writes into its manifest: the role map, the units and the interventions).

Analyses never parse column names: they ask a :class:`Roles` (from a manifest, or matched from the
declarations for a folder written before role maps existed) for the columns of a role, and an analysis a
game does not declare reports "not available for this game" naming the missing role.

Role vocabulary (``<family>.<what>``; ``[axes]`` are the item axes an entry carries in ``at``):

Money, points and score (per seat; the words come from the game's :class:`Units`)
  ``money.start``        money the seat started with
  ``money.final``        money held at the end
  ``money.round``        money held at the end of each round [round]
  ``points.start``       points (VP, fame, …) the seat started with
  ``points.final``       points at the end (before any end scoring)
  ``points.round``       points at the end of each round [round]
  ``score.round``        the score if the game ended after each round [round] (lead and decisiveness)

Cards (per seat, one column per card type [card])
  ``card.drawn``, ``card.kept``, ``card.played`` (played or laid from hand), ``card.first_played`` (round of
  the first play, 0 = never), ``card.activated`` (used on the board), ``card.destroyed``

Markets. A market is a set of *market items* (the first non-round axis of an entry: a price location,
a goods colour, a culture) observed per round; the same roles describe a price-tile/demand-marker market
(Massilia) and a demand-token-stack market (Merchant of Venus):
  ``market.price``       per game [item, round]: the price level in force for the item in the round
                         (a price tile's value; in a token-stack market the top token's price level)
  ``market.demand``      per game [item, round]: the demand level of the item after the round (a score
                         marker; the top token's level low/active/high coded 0/1/2); a level at or below
                         the analysis' floor is a collapsed demand
  ``market.bought``      per game [item, round]: units bought from the market in the round
  ``market.sale``        per game [item, round]: units sold to the market in the round
  ``market.sale_price``  per game [item, round]: mean price realised by the round's sales (null: none)
  ``market.supply``      per game [item, round]: units on offer after the round's refill or production
  ``market.reserve``     per game [item, round]: units in reserve (bag, off-board supply)
  ``market.seat_bought`` per seat [item]: units the seat bought
  ``market.seat_sold``   per seat [item]: units the seat sold (who sold)
  ``market.income``      per seat: money the seat earned from sales
  ``market.income_points`` per seat: points the seat earned from sales
  ``market.shifted_by``  per game [item, round]: the seat whose sales shifted the item's market in the round
                         (the last one if several did; null: no shift)
  ``market.seat_shifts`` per seat [item]: times the seat's sales shifted the item's market
The market analyses need ``market.price`` and ``market.demand`` (trajectories, collapses, shifts) and
``market.seat_sold`` with ``market.income`` (yield per unit sold).

Chance (per seat): ``chance.luck`` a seat's luck from chance events: what the dice (or draws) gave it minus
what they give on average, so its expectation is known *whatever the players decided* — declared on the fact
(``Fact.expect``, with ``Fact.expect_source`` saying why it holds). The seat analyses may use these facts as
control variates (``simlab.analysis.chance``).

Money by source (per seat [source]): ``money.source`` money earned from each source (sales, fares, …),
``points.source`` points earned from each source.

A fact may declare a ``missing`` source value (``Fact.missing``): those entries are nulls in the results
(a market not yet discovered, a round without sales), which the analyses skip.

Other roles a game may use freely (``game.decisions``, ``game.turns``, …) are listed like any other; an
analysis only reads the roles above. A fact without a role is still a column and in the schema.

Interventions (:class:`Intervention`) name the config knobs an experiment turns to ask "what is X worth":
``card`` (seat k gets one component of type X at the start: a knob naming the type and one naming the
seat), ``money`` (offset seat k's starting money: a per-seat tuple knob) and ``points`` (the same for
starting points).
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: the conventional knob of a money intervention (a per-seat tuple of starting money)
MONEY_KNOB = "start_money"

#: roles the shipped analyses read (the rest of the vocabulary is descriptive)
MARKET_ROLES = ("market.price", "market.demand", "market.bought", "market.sale", "market.supply")


@dataclass(frozen=True)
class Axis:
    """An item axis: its placeholder ``name``, its labels (or a function of the config giving them, e.g.
    rounds 1..N) and ``aliases``: other placeholders naming the same index (``{die}`` beside ``{action}``)."""

    name: str
    labels: Sequence[Any] | Callable[[Any], Sequence[Any]]
    aliases: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    label: str = ""  # a short axis label for charts (default: the name)

    def values(self, config: Any) -> list[Any]:
        return list(self.labels(config) if callable(self.labels) else self.labels)

    def alias_values(self, config: Any) -> dict[str, list[Any]]:
        return {k: list(v(config) if callable(v) else v) for k, v in self.aliases.items()}


def rounds_axis(attr: str = "rounds") -> Axis:
    """The round axis 1..config.<attr>."""
    return Axis("round", lambda config: range(1, getattr(config, attr) + 1), label="round")


Source = str | Callable[[np.ndarray, Any], np.ndarray]


@dataclass(frozen=True)
class Fact:
    """One fact column pattern. ``source``: a record field, or ``f(records, config)`` giving an array of
    shape (games, players, *axes) for a per-seat fact or (games, *axes) for a per-game one (a per-seat
    record field may be wider than the player count: it is cut). ``description``: a str with the pattern's
    placeholders, or a dict label -> text for an axis whose items each need their own words."""

    pattern: str
    source: Source
    description: str | Mapping[Any, str]
    role: str | None = None
    per: str = "seat"  # "seat" or "game"
    axes: tuple[Axis, ...] = ()
    dtype: str = "int32"
    unit: str = "count"  # money, points, count, round, level, …
    #: a source value that means "no value" (written as null: a market not yet open, a round without
    #: sales); NaN for a float source whose NaNs are nulls; None: every value is a value
    missing: float | None = None
    #: the fact's expectation over games when it is known from the rules alone (a chance fact: dice pips above
    #: their mean have expectation 0 whoever rolled them and why); None: not known
    expect: float | None = None
    #: why ``expect`` holds (the rule and the argument), shown with any estimate that relies on it
    expect_source: str = ""

    def placeholders(self) -> list[str]:
        return [f for _, f, _, _ in string.Formatter().parse(self.pattern) if f]


@dataclass(frozen=True)
class Group:
    """Facts iterated together over shared outer ``axes`` (outer axis first, members inside), as a game's
    loops have always written them: ``Group((round,), [money_r, fame_r])`` gives money_r1, fame_r1,
    money_r2, …  A member's own ``axes`` must start with the group's."""

    axes: tuple[Axis, ...]
    members: tuple[Fact | Group, ...]


@dataclass(frozen=True)
class Units:
    """The words of a game's money and points: singular, plural and a short axis label."""

    money: str
    money_plural: str
    money_label: str
    points: str
    points_plural: str
    points_label: str

    def as_dict(self) -> dict[str, str]:
        return dict(self.__dict__)

    def of(self, unit: str, amount: float = 2.0) -> str:
        """The word for ``amount`` of ``unit`` ("money" or "points")."""
        one = abs(amount) == 1
        if unit == "money":
            return self.money if one else self.money_plural
        return self.points if one else self.points_plural


#: words for results whose game is unknown (synthetic frames)
GENERIC_UNITS = Units("coin", "coins", "money", "point", "points", "points")


@dataclass(frozen=True)
class Intervention:
    """A knob an experiment turns to price something: ``kind`` card (``knob`` names the component type,
    ``seat_knob`` the seat that gets it, ``none`` the off value, ``what`` the component's word, ``noun`` and
    ``nouns`` the short word a reader sees: card, god, item), money or points (``knob`` is a per-seat tuple
    offset per seat). ``kind`` is the analyses' internal name; a reader only ever sees ``noun``."""

    kind: str
    knob: str
    seat_knob: str | None = None
    none: Any = None
    what: str = ""
    description: str = ""
    noun: str = ""
    nouns: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None and v != ""}


@dataclass(frozen=True)
class Column:
    """A generated column: its name, fact, axis labels (``at``) and axis indices (into the source)."""

    name: str
    fact: Fact
    at: dict[str, Any]
    index: tuple[int, ...]


class FactSet:
    """A game's declarations: facts (in column order), units and interventions."""

    def __init__(self, facts: Sequence[Fact | Group], units: Units, interventions: Sequence[Intervention] = ()):
        self.facts = tuple(facts)
        self.units = units
        self.interventions = tuple(interventions)
        for fact in self.all_facts():
            names = {a.name for a in fact.axes} | {k for a in fact.axes for k in a.aliases}
            missing = [p for p in fact.placeholders() if p not in names]
            if missing:
                raise ValueError(f"fact {fact.pattern!r}: placeholder(s) {missing} name no axis of the fact")

    def all_facts(self) -> list[Fact]:
        out: list[Fact] = []

        def walk(items: Sequence[Fact | Group]) -> None:
            for item in items:
                if isinstance(item, Group):
                    walk(item.members)
                else:
                    out.append(item)

        walk(self.facts)
        return out

    # -- generation ----------------------------------------------------------------------------------
    def layout(self, config: Any) -> list[Column]:
        """Every column for ``config``, in the order the game writes them."""
        out: list[Column] = []

        def emit(item: Fact | Group, bound: tuple[int, ...]) -> None:
            if isinstance(item, Group):
                depth = len(bound)
                outer = item.axes[depth:]
                for idx in itertools.product(*(range(len(a.values(config))) for a in outer)):
                    for member in item.members:
                        emit(member, bound + idx)
                return
            free = item.axes[len(bound) :]
            for idx in itertools.product(*(range(len(a.values(config))) for a in free)):
                full = bound + idx
                at, fmt = {}, {}
                for axis, i in zip(item.axes, full, strict=True):
                    at[axis.name] = fmt[axis.name] = axis.values(config)[i]
                    for alias, labels in axis.alias_values(config).items():
                        fmt[alias] = labels[i]
                out.append(Column(item.pattern.format(**fmt), item, at, full))

        for item in self.facts:
            emit(item, ())
        return out

    def columns(self, records: np.ndarray, config: Any) -> dict[str, np.ndarray]:
        """Per (game, seat) fact columns, flattened game-major: row = game * players + seat."""
        n = config.players
        cache: dict[int, np.ndarray] = {}
        cols: dict[str, np.ndarray] = {}
        for col in self.layout(config):
            f = col.fact
            key = id(f)
            if key not in cache:
                cache[key] = records[f.source] if isinstance(f.source, str) else f.source(records, config)
            values = cache[key]
            dtype = np.dtype(f.dtype)
            if f.per == "seat":
                v = values[:, :n][(slice(None), slice(None), *col.index)].reshape(-1)
            else:
                v = np.repeat(values[(slice(None), *col.index)], n)
            cols[col.name] = v.astype(dtype) if f.missing is None else _with_nulls(v, f.missing, dtype)
        return cols

    def schema(self, config: Any) -> dict[str, str]:
        """Column name -> description of every fact column."""
        out = {}
        for col in self.layout(config):
            d = col.fact.description
            if isinstance(d, str):
                fmt = dict(col.at)
                for axis, i in zip(col.fact.axes, col.index, strict=True):
                    for alias, labels in axis.alias_values(config).items():
                        fmt[alias] = labels[i]
                out[col.name] = d.format(**fmt)
            else:
                out[col.name] = d[next(iter(col.at.values()))]
        return out

    def dtypes(self, config: Any) -> dict[str, str]:
        return {col.name: col.fact.dtype for col in self.layout(config)}

    def role_map(self, config: Any) -> dict[str, list[dict[str, Any]]]:
        """Role -> its columns: ``{"column", "per", "unit", "at": {axis: label}}`` in column order."""
        return _role_map((c.name, c.fact, c.at) for c in self.layout(config))

    def manifest(self, config: Any) -> dict[str, Any]:
        """What a run writes under the manifest's ``"facts"`` key."""
        return {
            "roles": self.role_map(config),
            "units": self.units.as_dict(),
            "interventions": [i.as_dict() for i in self.interventions],
        }

    # -- matching (folders written before role maps existed, and frames of unknown origin) -----------
    def match(self, columns: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """The role map of the given columns, matched against the declared patterns (round labels are any
        integer, other axes their declared labels under any config)."""
        found = []
        for fact in self.all_facts():
            if fact.role is None:
                continue
            rx = _pattern_regex(fact)
            for c in columns:
                m = rx.fullmatch(c)
                if m:
                    at = {a.name: _matched(a, m.groupdict()) for a in fact.axes}
                    found.append((c, fact, at))
        return _role_map(found)

    def manifest_for(self, columns: Sequence[str]) -> dict[str, Any]:
        return {
            "roles": self.match(columns),
            "units": self.units.as_dict(),
            "interventions": [i.as_dict() for i in self.interventions],
        }


def _with_nulls(values: np.ndarray, missing: float, dtype: np.dtype) -> np.ndarray:
    """A column whose ``missing`` values (or NaNs, for ``missing`` NaN) are masked: the runner writes the
    masked entries as nulls (``simlab.run.chunk.arrow_column``), ``.tolist()`` gives None for them."""
    mask = np.isnan(values) if np.isnan(missing) else values == missing
    return np.ma.MaskedArray(np.where(mask, 0, values).astype(dtype), mask=mask)


def merge_manifests(manifests: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One facts manifest for several configs (variants): each role's columns in first-seen order."""
    if not manifests:
        return {"roles": {}}
    roles: dict[str, list[dict[str, Any]]] = {}
    for m in manifests:
        for role, entries in m.get("roles", {}).items():
            have = roles.setdefault(role, [])
            seen = {e["column"] for e in have}
            have.extend(e for e in entries if e["column"] not in seen)
    return {**manifests[0], "roles": roles}


def _role_map(items: Iterator[tuple[str, Fact, dict[str, Any]]] | list) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for name, fact, at in items:
        if fact.role is not None:
            entry = {"column": name, "per": fact.per, "unit": fact.unit, "at": at}
            if fact.expect is not None:  # only then: every other role map stays as it was
                entry |= {"expect": fact.expect, "expect_source": fact.expect_source}
            out.setdefault(fact.role, []).append(entry)
    return out


def _matched(axis: Axis, groups: dict[str, str]) -> Any:
    """An axis' label from a pattern match (through an alias if the pattern names the axis by one)."""
    if axis.name in groups:
        return int(groups[axis.name]) if axis.name == "round" else groups[axis.name]
    for alias, labels in axis.aliases.items():
        if alias in groups and not callable(labels) and not callable(axis.labels):
            return list(axis.labels)[list(labels).index(groups[alias])]
    return None


def _pattern_regex(fact: Fact) -> re.Pattern[str]:
    parts = []
    for literal, name, _spec, _conv in string.Formatter().parse(fact.pattern):
        parts.append(re.escape(literal))
        if name:
            axis = next((a for a in fact.axes if a.name == name), None)
            if axis is not None and axis.name == "round":
                parts.append(rf"(?P<{name}>\d+)")
            else:
                labels = _all_labels(fact, name)
                alt = (
                    "|".join(re.escape(str(x)) for x in sorted(labels, key=lambda s: -len(str(s))))
                    if labels is not None
                    else r"[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*?"  # labels that depend on the config
                )
                parts.append(f"(?P<{name}>{alt})")
    return re.compile("".join(parts))


def _all_labels(fact: Fact, name: str) -> list[Any] | None:
    """The labels a placeholder can take whatever the config, or None if they depend on it."""
    for axis in fact.axes:
        if axis.name == name and not callable(axis.labels):
            return list(axis.labels)
        if name in axis.aliases and not callable(axis.aliases[name]):
            return list(axis.aliases[name])
    return None


class NotAvailable(Exception):
    """Raised by :meth:`Roles.require` (analyses turn it into their "not available for this game")."""


class Roles:
    """Role lookups over one set of results: ``columns(role)``, ``entries(role)``, ``has(role)``, the
    game's ``units`` and ``interventions``. Built from a manifest's ``"facts"`` (``from_manifest``) or
    matched against a game's declarations (``for_columns``)."""

    def __init__(self, facts: Mapping[str, Any] | None, game: str | None = None):
        facts = facts or {}
        self.map: dict[str, list[dict[str, Any]]] = {k: list(v) for k, v in facts.get("roles", {}).items()}
        units = facts.get("units")
        self.units = Units(**units) if units else GENERIC_UNITS
        self.interventions = [dict(i) for i in facts.get("interventions", [])]
        self.game = game

    def has(self, *roles: str) -> bool:
        return all(self.map.get(r) for r in roles)

    def missing(self, *roles: str) -> list[str]:
        return [r for r in roles if not self.map.get(r)]

    def entries(self, role: str) -> list[dict[str, Any]]:
        return list(self.map.get(role, []))

    def columns(self, role: str) -> list[str]:
        return [e["column"] for e in self.map.get(role, [])]

    def column(self, role: str) -> str | None:
        """The one column of a role without item axes (None if undeclared)."""
        cols = self.columns(role)
        return cols[0] if cols else None

    def by_round(self, role: str) -> dict[int, str]:
        """A per-round role without other axes: round -> column, sorted by round."""
        return dict(sorted((int(e["at"]["round"]), e["column"]) for e in self.entries(role) if "round" in e["at"]))

    def by_item(self, role: str) -> dict[str, str]:
        """A role with one item axis: item label -> column."""
        return {str(item_of(e)): e["column"] for e in self.entries(role)}

    def intervention(self, kind: str) -> dict[str, Any] | None:
        return next((i for i in self.interventions if i.get("kind") == kind), None)

    def noun(self, plural: bool = False) -> str:
        """The game's word for what a card intervention grants (card, god, item); "card" when undeclared
        (results written before the word was declared, synthetic frames)."""
        card = self.intervention("card") or {}
        if plural:
            return str(card.get("nouns") or (card["noun"] + "s" if card.get("noun") else "cards"))
        return str(card.get("noun") or "card")

    def require(self, what: str, *roles: str) -> None:
        """Raise NotAvailable naming the missing roles."""
        missing = self.missing(*roles)
        if missing:
            raise NotAvailable(not_available(what, "role", missing, self.game))

    def as_manifest(self) -> dict[str, Any]:
        return {"roles": self.map, "units": self.units.as_dict(), "interventions": self.interventions}


def item_of(entry: Mapping[str, Any]) -> Any:
    """The market item (first non-round axis label) of a role entry, or None."""
    return next((v for k, v in entry["at"].items() if k != "round"), None)


def item_axis(entry: Mapping[str, Any]) -> str | None:
    return next((k for k in entry["at"] if k != "round"), None)


#: a role's meaning in a reader's words (a role not listed is described by its family and name)
ROLE_WORDS = {
    "money.start": "each seat's starting money",
    "money.final": "each seat's money at the end",
    "money.round": "each seat's money after each round",
    "points.start": "each seat's starting points",
    "points.final": "each seat's points at the end",
    "points.round": "each seat's points after each round",
    "score.round": "the score after each round",
    "card.played": "which cards each seat played",
    "market.price": "market prices by round",
    "market.demand": "market demand by round",
    "market.bought": "units bought from the market by round",
    "market.sale": "units sold to the market by round",
    "market.supply": "units on offer by round",
    "market.seat_bought": "the units each seat bought",
    "market.seat_sold": "the units each seat sold",
    "market.income": "each seat's income from sales",
    "market.income_points": "each seat's points from sales",
    "market.shifted_by": "who shifted each market",
    "chance.luck": "each seat's luck from chance events",
}


def role_words(role: str) -> str:
    """What a role records, in plain words ("market.sale" -> "the market sale")."""
    return ROLE_WORDS.get(role, "the " + role.replace(".", " ").replace("_", " "))


def not_recorded(roles: Sequence[str]) -> str:
    """ "the game does not record the score after each round" for the roles an analysis needs and lacks."""
    words = [role_words(r) for r in roles]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return "does not record " + listed


def not_available(what: str, kind: str, missing: Sequence[str], game: str | None = None) -> str:
    """The one wording of "not available for this game" (``kind``: role, or e.g. "money intervention"); a missing
    role is said in plain words (what the game does not record), never by its internal name."""
    who = f"game {game!r}" if game else "this game"
    if kind != "role":
        return f"{what} is not available for this game: {who} declares no {kind}"
    return f"{what} is not available for this game: {who} {not_recorded(missing)}"
