"""Roma's fact columns, declared once (see ``simlab.core.facts``): record sources, roles, units and the
interventions the analyses may turn (one card of a type in a seat's opening hand; starting money or VP)."""

from __future__ import annotations

import numpy as np

from simlab.core.facts import Axis, Fact, FactSet, Group, Intervention, Units
from simlab.games.roma import data

CARD = Axis("card", data.CARD_KEYS, aliases={"name": data.CARDS}, label="card")
VP_SOURCE = Axis("source", data.VP_SOURCES, label="VP source")

VP_DOC = {
    "forum": "VP from Forum activations (the second die's pips)",
    "basilica": "VP from Basilicas next to activated Forums",
    "templum": "VP from Templum dice next to activated Forums",
    "legat": "VP from Legat activations",
    "tribunus_plebis": "VP taken from the opponent with Tribunus Plebis",
    "mercator": "VP bought from the opponent with Mercator",
    "mercatus": "VP gained with Mercatus (taken from the opponent by default)",
}


def _cards_on_board(records: np.ndarray, config) -> np.ndarray:
    return (records["board"] >= 0).sum(2)


def _dice_luck(records: np.ndarray, config) -> np.ndarray:
    return records["f_dice_pips"] - 3.5 * records["f_dice_rolled"]


def _battle_luck(records: np.ndarray, config) -> np.ndarray:
    return records["f_battle_hits"] - records["f_battle_odds"] / config.battle_die_sides


#: why the luck facts' expectation is 0 (shown with every estimate that uses them as control variates)
DICE_EXPECT = (
    "rulebook: fair six-sided action dice; each die rolled adds its pips minus 3.5, a mean-zero amount "
    "independent of everything decided before the roll, so the sum has expectation 0 however many dice a "
    "seat rolls and why (Wald's identity; rerolled triples count as rolled)"
)
BATTLE_EXPECT = (
    "rulebook: a fair battle die of battle_die_sides faces; each battle roll adds 1 if it reaches the "
    "defence minus its chance of doing so (faces at or above the defence over the faces), mean zero given "
    "everything before the roll, so the sum has expectation 0 (Wald's identity; Centurio's added die not counted)"
)


def _seat(pattern, source, description, role=None, unit="count", axes=()):
    return Fact(pattern, source, description, role, "seat", tuple(axes), "int32", unit)


def _game(pattern, source, description, role=None, unit="count"):
    return Fact(pattern, source, description, role, "game", (), "int32", unit)


FACTS = FactSet(
    [
        _seat("start_money", "f_start_money", "sestertii the seat started with", "money.start", "money"),
        _seat("start_vp", "f_start_vp", "VP the seat started with", "points.start", "points"),
        _seat("final_vp", "vp", "VP at the end (the score)", "points.final", "points"),
        _seat("final_money", "money", "sestertii held at the end", "money.final", "money"),
        _seat("turns_taken", "f_turns", "turns the seat took (phase 1 reached)", "game.seat_turns"),
        _seat("vp_{source}", "f_vp", VP_DOC, "points.source", "points", [VP_SOURCE]),
        _seat(
            "vp_lost_empty_discs",
            "f_vp_lost_empty",
            "VP returned to the stockpile for empty spaces (phase 1)",
            unit="points",
        ),
        _seat(
            "vp_lost_to_opponent",
            "f_vp_lost_taken",
            "VP the opponent took (Tribunus Plebis, Mercator, Mercatus)",
            unit="points",
        ),
        _seat("money_taken", "f_money_taken", "sestertii taken with dice on the money disc", unit="money"),
        _seat(
            "money_spent", "f_money_spent", "sestertii paid: cards laid, bribe-disc activations, Mercator", unit="money"
        ),
        _seat("draws", "f_draws", "dice put on the card disc"),
        _seat("rerolls", "f_rerolls", "triples rerolled"),
        _seat("dice_unused", "f_dice_unused", "action dice left unused at the end of the seat's turns"),
        _seat("battles", "f_battles", "battles the seat started (battle die rolls)"),
        _seat("battles_won", "f_battles_won", "battles won (target destroyed, Centurio's added die included)"),
        _seat("cards_returned_to_hand", "f_returned", "own cards the opponent's Gladiator sent back to hand"),
        _seat("final_cards_on_board", _cards_on_board, "cards on the seat's spaces at the end"),
        _seat("final_hand", "hand_n", "cards in hand at the end"),
        Group(
            (CARD,),
            (
                _seat(
                    "laid_{card}",
                    "f_laid",
                    "{name} cards laid from hand (opening, paid, or free via Senator/Architectus)",
                    "card.played",
                    axes=[CARD],
                ),
                _seat("activated_{card}", "f_act", "{name} activations with a die", "card.activated", axes=[CARD]),
                _seat(
                    "destroyed_{card}",
                    "f_destroyed",
                    "own {name} cards destroyed by the opponent (battle, Sicarius, Nero)",
                    "card.destroyed",
                    axes=[CARD],
                ),
            ),
        ),
        _game("game_turns", "turns", "turns in the game (both seats)", "game.turns"),
        _game(
            "end_reason",
            "end_reason",
            "why the game ended: 1 stockpile empty, 2 a player at 0 VP, 3 turn limit (max_turns)",
            "game.end_reason",
        ),
        _game("final_stockpile", "stock", "VP left in the stockpile at the end", unit="points"),
        _game(
            "vp_minted", "minted", "VP credited beyond what the stockpile held (full credit at the end)", unit="points"
        ),
        _game("decisions", "decisions", "decisions taken in the game (both seats)", "game.decisions"),
        # chance facts (last, so every earlier column keeps its place): luck with a known expectation
        Fact(
            "dice_luck",
            _dice_luck,
            "action-dice pips the seat rolled above their expectation (3.5 a die; rerolled triples included)",
            "chance.luck",
            "seat",
            (),
            "float64",
            "pips",
            expect=0.0,
            expect_source=DICE_EXPECT,
        ),
        Fact(
            "battle_luck",
            _battle_luck,
            "battles the seat's battle die won minus their chance of winning (before any Centurio die)",
            "chance.luck",
            "seat",
            (),
            "float64",
            "battles",
            expect=0.0,
            expect_source=BATTLE_EXPECT,
        ),
    ],
    Units("sestertius", "sestertii", "sestertii", "VP", "VP", "VP"),
    [
        Intervention(
            "card",
            "bonus_card",
            "bonus_card_seat",
            "none",
            "card",
            "seat k gets one card of the type in its opening hand",
            noun="card",
            nouns="cards",
        ),
        Intervention("money", "start_money", description="seat k's starting sestertii"),
        Intervention("points", "start_vp", description="seat k's starting VP"),
    ],
)
