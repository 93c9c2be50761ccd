"""The report's plain words for what a game does not record: the analyses ask for fact roles
(``score.round``, ``market.price``, …: ``simlab.core.facts``), a reader is told what is missing instead."""

from __future__ import annotations

#: a role's meaning in a reader's words (a role not listed here is described by its family and name)
ROLE_WORDS = {
    "score.round": "the score after each round",
    "market.price": "market prices by round",
    "market.demand": "market demand by round",
    "money.start": "each seat's starting money",
}


def role_words(role: str) -> str:
    """What a role records, in plain words ("market.sale" -> "the market sale")."""
    return ROLE_WORDS.get(role, "the " + role.replace(".", " ").replace("_", " "))


def not_recorded(roles: list[str]) -> str:
    """ "the game does not record the score after each round" for the roles an analysis needs and lacks."""
    words = [role_words(r) for r in roles]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return "the game does not record " + listed
