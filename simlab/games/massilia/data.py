"""Massilia's data tables: colours, card names, the market layout. Rule logic lives in rules.py."""

from __future__ import annotations

# Goods colours (cubes, harbours, customers, score markers). Beige is the cheap wildcard good.
PINK, ORANGE, PURPLE, BEIGE = 0, 1, 2, 3
GOODS = ("pink", "orange", "purple", "beige")

# Dice colours and the action each performs.
GREY, BROWN, BLACK, BEIGE_DIE = 0, 1, 2, 3
DICE = ("grey", "brown", "black", "beige")
DIE_ACTIONS = ("sacrifice", "move", "fame", "buy")

# Price tile locations, in rotation order: temple -> purple -> orange -> pink -> temple.
TEMPLE, LOC_PURPLE, LOC_ORANGE, LOC_PINK = 0, 1, 2, 3
PRICE_LOCATIONS = ("temple", "purple", "orange", "pink")
#: price location of each goods colour's harbour (beige has a printed price, no tile)
HARBOUR_LOCATION = (LOC_PINK, LOC_ORANGE, LOC_PURPLE, -1)

# Pawns: the consul and the three customers; a customer buys the goods of its colour.
CONSUL = 0
PAWNS = ("consul", "pink customer", "orange customer", "purple customer")
PAWN_GOODS = (-1, PINK, ORANGE, PURPLE)

# Deity cards.
JUPITER, JUNON, MINERVE, NEPTUNE, PHOEBUS, VENUS, MERCURE, MARS, PLUTON = range(9)
CARDS = ("jupiter", "junon", "minerve", "neptune", "phoebus", "venus", "mercure", "mars", "pluton")
CARD_COPIES = (5, 5, 7, 7, 7, 9, 5, 5, 5)
#: the free ±1 card that goes with each action colour (grey has none)
ACTION_MOD_CARD = (-1, MINERVE, PHOEBUS, NEPTUNE)

# The market ring [assumption]: 16 spaces, corners of 3, one darker middle space per side.
MARKET_SPACES = 16
CORNER_SPACES = (15, 0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13)
MIDDLE_SPACES = (2, 6, 10, 14)
