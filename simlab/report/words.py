"""The report's plain words for what a game does not record: the analyses ask for fact roles
(``score.round``, ``market.price``, …: ``simlab.core.facts``), a reader is told what is missing instead."""

from __future__ import annotations

from simlab.core.facts import ROLE_WORDS, role_words
from simlab.core.facts import not_recorded as _not_recorded

__all__ = ["ROLE_WORDS", "not_recorded", "role_words"]


def not_recorded(roles: list[str]) -> str:
    """ "the game does not record the score after each round" for the roles an analysis needs and lacks."""
    return "the game " + _not_recorded(roles)
