"""Roma's data tables: the 25 card types (cost, defence, copies, kind) and the board's spaces.

Numbers are from ``shared/rules/roma.md`` §1 (checked against the English rulebook's card images;
two independent implementations agree on every one). Rule logic lives in rules.py.
"""

from __future__ import annotations

CHARACTER, BUILDING = 0, 1
KINDS = ("character", "building")

# Card types, in the order of the rules page's table (characters first, then buildings).
(
    SICARIUS,
    ARCHITECTUS,
    CONSILIARIUS,
    LEGAT,
    GLADIATOR,
    MERCATOR,
    CONSUL,
    LEGIONARIUS,
    NERO,
    PRAETORIANUS,
    SCAENICUS,
    HARUSPEX,
    SENATOR,
    VELITES,
    ESSEDUM,
    TRIBUNUS_PLEBIS,
    CENTURIO,
    AESCULAPINUM,
    BASILICA,
    MACHINA,
    FORUM,
    MERCATUS,
    ONAGER,
    TEMPLUM,
    TURRIS,
) = range(25)

CARDS = (
    "Sicarius",
    "Architectus",
    "Consiliarius",
    "Legat",
    "Gladiator",
    "Mercator",
    "Consul",
    "Legionarius",
    "Nero",
    "Praetorianus",
    "Scaenicus",
    "Haruspex",
    "Senator",
    "Velites",
    "Essedum",
    "Tribunus Plebis",
    "Centurio",
    "Aesculapinum",
    "Basilica",
    "Machina",
    "Forum",
    "Mercatus",
    "Onager",
    "Templum",
    "Turris",
)
#: snake_case names used in fact columns and config docs
CARD_KEYS = tuple(name.lower().replace(" ", "_") for name in CARDS)
CARD_KIND = (CHARACTER,) * 17 + (BUILDING,) * 8
CARD_COST = (9, 3, 4, 5, 6, 7, 3, 4, 8, 4, 8, 4, 3, 5, 6, 5, 9, 5, 6, 4, 5, 6, 5, 2, 6)
CARD_DEFENCE = (2, 4, 4, 2, 5, 2, 3, 5, 9, 4, 3, 3, 3, 3, 3, 5, 5, 2, 5, 4, 5, 3, 4, 2, 6)
CARD_COPIES = (1, 2, 2, 2, 2, 1, 2, 3, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 6, 2, 2, 2, 2)
#: cards that are never activated themselves (passive, or triggered by an adjacent Forum)
NEVER_ACTIVATED = (BASILICA, TEMPLUM, TURRIS)

# Spaces on each player's side: dice discs 1..6 are spaces 0..5; the bribe disc (variant) is space 6.
DICE_DISCS = 6
BRIBE_SPACE = 6
MAX_SPACES = 7
SPACE_NAMES = ("disc 1", "disc 2", "disc 3", "disc 4", "disc 5", "disc 6", "bribe disc")

# Sources of victory points, for the fact columns (vp_<source>).
VP_SOURCES = ("forum", "basilica", "templum", "legat", "tribunus_plebis", "mercator", "mercatus")

# Why a game ended (the ``end_reason`` fact column).
END_REASONS = ("not over", "stockpile empty", "player at 0 VP", "turn limit")
