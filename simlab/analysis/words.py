"""A game's own words for a reader of the analyses: its money, its points and what an intervention grants.

The analyses' internal names stay what they are (an intervention's kind ``card``/``money``/``points``, a
variant ``money2_seat0``, a column ``money``); what a reader sees is the game's declared vocabulary from the
results' facts (``simlab.core.facts``: :class:`~simlab.core.facts.Units` and the card intervention's
``noun``), so one game's gods are never called cards and its feet never money. Every ``--json`` answer carries
the same words in its ``units`` block (``as_json``).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from simlab.core.facts import GENERIC_UNITS, Roles, Units

#: a granted amount's internal label (``money2``, ``points4``): the intervention's kind and the amount
GRANT_RE = re.compile(r"^(?P<kind>money|points)(?P<amount>\d+)$")


@dataclasses.dataclass(frozen=True)
class Words:
    """The words of one set of results: ``units`` (money and points) and the intervention's ``noun``/``nouns``."""

    units: Units = GENERIC_UNITS
    noun: str = "card"
    nouns: str = "cards"

    @classmethod
    def of(cls, r: Roles) -> Words:
        """The words of these roles; a folder written before its card intervention declared a noun takes the noun
        its game declares now (gods, not cards)."""
        card = r.intervention("card") or {}
        if card and not card.get("noun") and r.game:
            now = game_words(r.game)
            return cls(r.units, now.noun, now.nouns)
        return cls(r.units, r.noun(), r.noun(plural=True))

    def unit(self, kind: str, amount: float = 2.0) -> str:
        """The word for ``amount`` of an intervention ``kind``: money and points in the game's units, a card
        intervention in its noun."""
        if kind in ("money", "points"):
            return self.units.of(kind, amount)
        return self.noun if abs(amount) == 1 else self.nouns

    def grant(self, label: str) -> str:
        """A row label as a reader sees it: ``money2`` is "+2 feet", ``points2`` "+2 points", a card its name."""
        m = GRANT_RE.match(str(label))
        if not m:
            return str(label)
        amount = int(m.group("amount"))
        return f"+{amount} {self.unit(m.group('kind'), amount)}"

    def grants_in(self, text: str) -> str:
        """``text`` with every internal grant label in it read out ("paired money4 variants": "paired +4 feet
        variants")."""
        return re.sub(r"\b(?:money|points)\d+\b", lambda m: self.grant(m.group(0)), text)

    def as_json(self) -> dict[str, str]:
        """The ``units`` block of a ``--json`` answer: what each family of columns is counted in."""
        u = self.units
        return {
            "money": u.money_plural,
            "money_singular": u.money,
            "points": u.points_plural,
            "points_singular": u.points,
            "score": u.points_plural,
            "intervention": self.noun,
            "interventions": self.nouns,
        }


def words(results: Any) -> Words:
    """The words of a result folder (or rows): generic ones when its game declares none."""
    from simlab.analysis.frames import roles

    return Words.of(roles(results))


def with_units(cards: Any, said: Words) -> Any:
    """``card_value``'s frame with its units spelled out for a ``--json`` reader: ``unit`` (what the row grants:
    the intervention's noun, or the money or points of a granted amount), ``money_unit`` (the unit of ``money``)
    and ``score_unit`` (of ``score_diff``)."""
    import polars as pl

    unit = [said.unit(str(k), 1 if k == "card" else 2) for k in cards["kind"].to_list()]
    return cards.with_columns(
        pl.Series("unit", unit, dtype=pl.String),
        pl.lit(said.units.money_plural).alias("money_unit"),
        pl.lit(said.units.points_plural).alias("score_unit"),
    )


def with_unit(table: Any, unit: str) -> Any:
    """A table whose amounts are all in one unit (a compensation fit's offsets) with that unit as column ``unit``."""
    import polars as pl

    return table.with_columns(pl.lit(unit, dtype=pl.String).alias("unit"))


def game_words(game_id: str | None) -> Words:
    """The words a game declares (for an answer without a result folder: ``simlab compensate``, a robustness
    panel); generic ones for a game not installed here or without declared facts."""
    import simlab

    try:
        fact_set = simlab.get_game(str(game_id)).fact_set
    except Exception:  # a plug-in game missing on this machine
        return Words()
    if fact_set is None:
        return Words()
    return Words.of(
        Roles({"units": fact_set.units.as_dict(), "interventions": fact_set.manifest_for([])["interventions"]})
    )
