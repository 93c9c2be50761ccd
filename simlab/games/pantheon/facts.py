"""Pantheon's fact columns, declared once (see ``simlab.core.facts``): record sources, roles, units and the
interventions the analyses may turn (one god tile for a seat before era 1; a seat's starting points or
starting feet).

Roles. The god tiles are what Pantheon's card intervention deals, so the gods a seat gained (any route) are
its ``card.played`` columns: the card-value analysis' observational view compares seats that gained a god
with seats that did not. The action cards (movement, the four sacrifice kinds, money) are ``action_card.*``,
a role no analysis reads, so their labels never mix with the gods'. Pantheon has no money of its own (money
cards are spent within a purchase), so the game's "money" unit is a **foot** in the own stock: the
compensation knob ``extra_start_feet`` offsets a seat's starting feet, and ``money.start`` is the seat's
starting feet. Points by source plus the starting points are the score.
"""

from __future__ import annotations

import numpy as np

from simlab.core.facts import Axis, Fact, FactSet, Group, Intervention, Units, rounds_axis
from simlab.games.pantheon import data
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.config import GOD_KEYS

#: keys of the ten card kinds of the record's ``hand`` axis (rules.NCARD)
CARD_KEYS = ("movement", "gifts", "priests", "dancers", "temples", "money1", "money2", "money3", "money4", "money5")
#: points sources, in the record's ``f_points_src`` order (rules.P_*)
POINT_SOURCES = ("gods", "era_end", "demigods", "columns", "pietalte")
#: routes by which a god tile is gained, in the record's ``f_gods_route`` order (rules.R_*)
ROUTES = ("action", "loot", "bonus", "surparit", "gallia", "given")
ERA_ENDS = {
    0: "not played",
    R.END_LOOT: "last loot tile",
    R.END_GODS: "last face-up god",
    R.END_BOTH: "both",
    R.END_TURN_LIMIT: "turn limit",
}

ERA = rounds_axis("eras")  # eras 1..config.eras, as the analyses' round axis
ERA0 = Axis("era", lambda config: range(0, config.eras + 1), label="era")  # 0: before era 1
GOD = Axis("god", GOD_KEYS, aliases={"name": data.GODS}, label="god")
ROUTE = Axis("route", ROUTES, label="route")
SOURCE = Axis("source", POINT_SOURCES, label="points source")
CARD = Axis("card", CARD_KEYS, label="action card")
KIND = Axis("kind", data.SACRIFICE_KINDS, label="sacrifice kind")


def scorings(config) -> int:
    """Scorings a game under ``config`` holds: each scoring era within the game, and the last era always."""
    eras = {e for e in config.scoring_eras if 1 <= e <= config.eras}
    return min(len(eras | {config.eras}), 6)


SCORING = Axis("scoring", lambda config: range(1, scorings(config) + 1), label="scoring")

POINTS_DOC = {
    "gods": "points from era points of the gods gained (era 1..6: 1..6 each; before era 1: the bonus-god value)",
    "era_end": "points from ending eras (era_end_bonus each)",
    "demigods": "points from demigods at the scorings",
    "columns": "points from columns at the scorings (by the own-total table)",
    "pietalte": "points from Pietalte at the scorings",
}
ROUTE_DOC = {
    "action": "the god action",
    "loot": "a god loot tile",
    "bonus": "a god bonus tile",
    "surparit": "Surparit's extra god",
    "gallia": "Gallia's flip",
    "given": "the start_god experiment knob",
}


def _start_points(records: np.ndarray, config) -> np.ndarray:
    return np.broadcast_to(np.asarray(config.start_points, np.int32), (len(records), R.MAX_PLAYERS))


def _start_feet(records: np.ndarray, config) -> np.ndarray:
    feet, _ = config.stock()
    per_seat = feet + np.asarray(config.extra_start_feet, np.int32)
    return np.broadcast_to(per_seat, (len(records), R.MAX_PLAYERS))


def _start_columns(records: np.ndarray, config) -> np.ndarray:
    _, cols = config.stock()
    return np.full((len(records), R.MAX_PLAYERS), cols, np.int32)


def _gods_by_god(records: np.ndarray, config) -> np.ndarray:
    return records["f_gods_route"].sum(3)


def _demigod_count(records: np.ndarray, config) -> np.ndarray:
    return records["demi_own"].sum(2)


def _demigod_value(records: np.ndarray, config) -> np.ndarray:
    return (records["demi_own"] * np.arange(R.NVAL)[None, None, :]).sum(2)


def _seat(pattern, source, description, role=None, unit="count", axes=()):
    return Fact(pattern, source, description, role, "seat", tuple(axes), "int32", unit)


def _game(pattern, source, description, role=None, unit="count", axes=()):
    return Fact(pattern, source, description, role, "game", tuple(axes), "int32", unit)


FACTS = FactSet(
    [
        # -- the start ---------------------------------------------------------------------------------
        _seat("start_points", _start_points, "points the seat started with", "points.start", "points"),
        _seat("start_feet", _start_feet, "feet in the seat's own stock at set-up", "money.start", "money"),
        _seat("start_columns", _start_columns, "columns in the seat's own stock at set-up", "stock.start_columns"),
        _seat(
            "bonus_tile",
            "f_bonus_tile",
            "the seat's bonus tile: " + ", ".join(f"{i} {t}" for i, t in enumerate(data.LOOT_TYPES)) + " (-1: none)",
            "setup.bonus_tile",
            "code",
        ),
        # -- points ----------------------------------------------------------------------------------
        _seat(
            "final_points", "score", "points at the end (the score, after the last scoring)", "points.final", "points"
        ),
        _seat("points_{source}", "f_points_src", POINTS_DOC, "points.source", "points", [SOURCE]),
        _seat(
            "points_era{round}",
            "f_points_era",
            "points at the end of era {round} (after its scoring)",
            "points.round",
            "points",
            [ERA],
        ),
        _seat("points_after_scoring1", "f_scoring1", "points right after the first scoring", unit="points"),
        # -- gods --------------------------------------------------------------------------------------
        _seat("gods_gained", "f_gods", "god tiles gained (every route)", "god.gained"),
        _seat("gods_{god}", _gods_by_god, "{name} tiles gained (every route)", "card.played", axes=[GOD]),
        Group(
            (GOD,),
            tuple(
                _seat(
                    f"gods_{{god}}_{route}",
                    lambda records, config, r=r: records["f_gods_route"][:, :, :, r],
                    f"{{name}} tiles gained by {ROUTE_DOC[route]}",
                    "god.route",
                    axes=[GOD],
                )
                for r, route in enumerate(ROUTES)
            ),
        ),
        _seat("gods_era{era}", "f_gods_era", "god tiles gained in era {era} (0: before era 1)", "god.era", axes=[ERA0]),
        _seat("god_actions", "f_god_actions", "god actions taken"),
        # -- demigods, columns, sacrifice tiles ------------------------------------------------------
        _seat("demigods", _demigod_count, "demigods held at the end", "demigod.count"),
        _seat("demigod_value", _demigod_value, "face value of the demigods held at the end", "demigod.value", "points"),
        _seat(
            "columns_scoring{scoring}",
            "f_cols_scored",
            "own columns on the board at scoring {scoring}",
            "columns.scoring",
            axes=[SCORING],
        ),
        _seat("columns_placed", "f_columns_placed", "columns placed on the board (moves, purchases, bonus)"),
        _seat(
            "level_{kind}",
            "level",
            "level of the seat's {kind} sacrifice tile at the end (0: none)",
            "sacrifice.level",
            "level",
            [KIND],
        ),
        # -- cards and actions -----------------------------------------------------------------------
        Group(
            (CARD,),
            (
                _seat(
                    "drawn_{card}",
                    "f_drawn",
                    "{card} cards into the hand (deal, deck, display, special money)",
                    "action_card.drawn",
                    axes=[CARD],
                ),
                _seat(
                    "played_{card}",
                    "f_played",
                    "{card} cards played (movement, god payments, purchases)",
                    "action_card.played",
                    axes=[CARD],
                ),
            ),
        ),
        _seat("moves", "f_moves", "movements made (own and joined)", "game.seat_moves"),
        _seat("purchases", "f_buys", "purchase actions"),
        _seat("draw_actions", "f_draws", "draw actions"),
        _seat("loot_taken", "f_loot", "loot tiles taken from the board"),
        _seat("eras_ended", "f_era_ends", "eras the seat's turn ended (era_end_bonus each)"),
        _seat("final_stock_feet", "stock_feet", "feet in the own stock at the end"),
        _seat("final_stock_columns", "stock_cols", "columns in the own stock at the end"),
        # -- per game --------------------------------------------------------------------------------
        _game("game_turns", "turns", "turns in the game (all seats)", "game.turns"),
        Group(
            (ERA,),
            (
                _game("turns_era{round}", "f_era_turns", "turns taken in era {round}", "game.era_turns", axes=[ERA]),
                _game(
                    "era_end_era{round}",
                    "f_era_end_by",
                    "what ended era {round}: " + ", ".join(f"{k} {v}" for k, v in ERA_ENDS.items()),
                    "game.era_end",
                    "code",
                    [ERA],
                ),
                _game(
                    "nation_era{round}",
                    "nations_played",
                    "nation of era {round}: " + ", ".join(f"{i} {x}" for i, x in enumerate(data.NATIONS)),
                    "game.era_nation",
                    "code",
                    [ERA],
                ),
            ),
        ),
        _game("god_reshuffles", "f_god_reshuffles", "times the boxed gods were reshuffled into an empty stack"),
        _game("card_handins", "f_handins", "times every player handed in the hand (deck and discards empty)"),
        _game("decisions", "decisions", "decisions taken in the game (all seats)", "game.decisions"),
    ],
    Units("foot", "feet", "feet", "point", "points", "points"),
    [
        Intervention(
            "card",
            "start_god",
            "start_god_seat",
            "none",
            "god tile",
            "seat k gains the topmost tile of the god in the stack before era 1, like a bonus-tile god",
            noun="god",
            nouns="gods",
        ),
        Intervention("money", "extra_start_feet", description="extra feet in seat k's starting stock"),
        Intervention("points", "start_points", description="seat k's starting points"),
    ],
)
