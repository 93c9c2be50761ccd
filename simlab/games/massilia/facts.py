"""Massilia's fact columns, declared once (see ``simlab.core.facts``): record sources, roles, units and the
interventions the analyses may turn (an extra deity card for one seat; one seat's starting money)."""

from __future__ import annotations

import numpy as np

from simlab.core.facts import Axis, Fact, FactSet, Group, Intervention, Units, rounds_axis
from simlab.games.massilia import data

ROUND = rounds_axis()
CARD = Axis("card", data.CARDS, label="deity card")
GOODS = Axis("goods", data.GOODS, label="goods")
MARKED = Axis("goods", data.GOODS[:3], label="goods")  # the three colours with a score marker
LOCATION = Axis("location", data.PRICE_LOCATIONS, label="price location")
ACTION = Axis("action", data.DIE_ACTIONS, aliases={"die": data.DICE}, label="die colour")


def _final_stalls(records: np.ndarray, config) -> np.ndarray:
    n = config.players
    return (records["stall_owner"][:, None, :] == np.arange(n)[None, :, None]).sum(2)


def _seat(pattern, source, description, role=None, unit="count", axes=()):
    return Fact(pattern, source, description, role, "seat", tuple(axes), "int32", unit)


def _game(pattern, source, description, role=None, unit="count", axes=()):
    return Fact(pattern, source, description, role, "game", tuple(axes), "int32", unit)


FACTS = FactSet(
    [
        _seat("start_money", "f_start_money", "sesterces the seat started with", "money.start", "money"),
        _seat("final_money", "money", "sesterces held at the end", "money.final", "money"),
        _seat("final_fame", "fame", "fame at the end (before end scoring)", "points.final", "points"),
        _seat("final_tokens", "tokens", "penalty tokens held at the end"),
        _seat("final_stalls", _final_stalls, "stalls on the market at the end"),
        _seat("tokens_taken", "f_tokens_taken", "penalty tokens taken during the game"),
        _seat("sale_money", "f_sale_money", "sesterces earned from customers", "market.income", "money"),
        _seat("sale_fame", "f_sale_fame", "fame earned from customers", "market.income_points", "points"),
        _seat("fame_bought", "f_fame_bought", "fame bought with the black (fame) action", unit="points"),
        _seat("tax_paid", "f_taxed", "sesterces paid as consul tax", unit="money"),
        _seat("stalls_closed", "f_closed", "own stalls closed by the consul"),
        _seat("pass_money", "f_pass_money", "sesterces from turn-order tiles", unit="money"),
        Group(
            (ROUND,),
            (
                _seat(
                    "money_r{round}",
                    "f_money_r",
                    "sesterces at the end of round {round}",
                    "money.round",
                    "money",
                    [ROUND],
                ),
                _seat(
                    "fame_r{round}", "f_fame_r", "fame at the end of round {round}", "points.round", "points", [ROUND]
                ),
                _seat(
                    "stalls_r{round}", "f_stalls_r", "stalls on the market at the end of round {round}", axes=[ROUND]
                ),
                _seat(
                    "score_r{round}",
                    "f_score_r",
                    "score if the game ended after round {round}",
                    "score.round",
                    "points",
                    [ROUND],
                ),
            ),
        ),
        Group(
            (CARD,),
            (
                _seat("drawn_{card}", "f_drawn", "{card} cards drawn", "card.drawn", axes=[CARD]),
                _seat("kept_{card}", "f_kept", "{card} cards kept", "card.kept", axes=[CARD]),
                _seat("played_{card}", "f_played", "{card} cards played", "card.played", axes=[CARD]),
                _seat(
                    "first_round_{card}",
                    "f_first_played",
                    "round in which the first {card} was played (0 = never)",
                    "card.first_played",
                    "round",
                    [CARD],
                ),
            ),
        ),
        Group(
            (GOODS,),
            (
                _seat("bought_{goods}", "f_bought", "{goods} cubes bought", "market.seat_bought", axes=[GOODS]),
                _seat("sold_{goods}", "f_sold", "{goods} cubes sold to customers", "market.seat_sold", axes=[GOODS]),
            ),
        ),
        Group(
            (ACTION,),
            (
                _seat("dice_{die}_used", "f_dice_used", "{die} dice used in actions", "dice.used", axes=[ACTION]),
                _seat("actions_{action}", "f_actions", "{action} actions performed", "dice.actions", axes=[ACTION]),
            ),
        ),
        Group(
            (ROUND,),
            (
                _game(
                    "price_{location}_r{round}",
                    "f_price_r",
                    "price tile value at the {location} in round {round}",
                    "market.price",
                    "money",
                    [ROUND, LOCATION],
                ),
                _game(
                    "marker_{goods}_r{round}",
                    "f_marker_r",
                    "{goods} score marker (fame per cube sold) at the end of round {round}",
                    "market.demand",
                    "level",
                    [ROUND, MARKED],
                ),
                Group(
                    (ROUND, GOODS),
                    (
                        _game(
                            "harbour_{goods}_r{round}",
                            "f_harbour_r",
                            "{goods} cubes in the harbour after the refill of round {round}",
                            "market.supply",
                            axes=[ROUND, GOODS],
                        ),
                        _game(
                            "bag_{goods}_r{round}",
                            "f_bag_r",
                            "{goods} cubes in the bag after the refill of round {round}",
                            "market.reserve",
                            axes=[ROUND, GOODS],
                        ),
                        _game(
                            "round_bought_{goods}_r{round}",
                            "f_round_bought",
                            "{goods} cubes bought by all players in round {round}",
                            "market.bought",
                            axes=[ROUND, GOODS],
                        ),
                        _game(
                            "round_sold_{goods}_r{round}",
                            "f_round_sold",
                            "{goods} cubes sold to customers by all players in round {round}",
                            "market.sale",
                            axes=[ROUND, GOODS],
                        ),
                    ),
                ),
            ),
        ),
        _game("decisions", "decisions", "decisions taken in the game (all seats)", "game.decisions"),
    ],
    Units("sesterce", "sesterces", "sesterces", "fame point", "fame points", "fame"),
    [
        Intervention(
            "card",
            "bonus_card",
            "bonus_card_seat",
            "none",
            "deity card",
            "seat k gets one extra card",
            noun="card",
            nouns="cards",
        ),
        Intervention("money", "start_money", description="seat k's starting money"),
    ],
)
