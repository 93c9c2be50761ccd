"""Merchant of Venus's fact columns, declared once (see ``simlab.core.facts``): record sources, roles, units
and the interventions the analyses may turn (one seat's starting purse; one equipment item or race tech for
one seat at the start).

The markets are the 14 cultures: per culture and round the top market token (low / active / high, coded
0 / 1 / 2: ``market.demand``), the price level it sets (``market.price``: the mean resale, in credits, of the
goods the culture buys at that token), the goods sold there and the credits they realised, and the seat
whose sales shifted the market. A culture not yet discovered has no market: its entries are nulls.
"""

from __future__ import annotations

import numpy as np

from simlab.core.facts import Axis, Fact, FactSet, Group, Intervention, Units, rounds_axis
from simlab.games.merchant_of_venus.config import CULTURE_NAMES, GOOD_NAMES, N_CULTURES

ROUND = rounds_axis()
CULTURE_KEYS = tuple(name.lower() for name in CULTURE_NAMES)
CULTURE = Axis("culture", CULTURE_KEYS, aliases={"good": GOOD_NAMES, "name": CULTURE_NAMES}, label="culture")
#: the sources of credits besides sales (sales are ``credits_sales``, the market's income)
SOURCES = ("fares", "drills", "port_fees", "end_ports", "fame", "missions", "encounters")
SOURCE = Axis("source", SOURCES, label="credit source")
SOURCE_FIELDS = {
    "fares": "f_fares",
    "drills": "f_drill_income",
    "port_fees": "f_fees_earned",
    "end_ports": "f_port_credits",
    "fame": "f_fame_credits",
    "missions": "f_mission_credits",
    "encounters": "f_encounter_credits",
}
SOURCE_DOC = {
    "fares": "credits from passenger fares",
    "drills": "credits from drills taken back on drill rounds",
    "port_fees": "credits from port fees: other players' at the seat's ports, and the bank's at its own",
    "end_ports": "credits for the seat's spaceports sold at the end",
    "fame": "credits for total fame at the end (x10, x20 on a Fuzzy Dice double)",
    "missions": "credits from completed missions",
    "encounters": "credits from encounter cards, net of fines",
}


def _credit_sources(records: np.ndarray, config) -> np.ndarray:
    return np.stack([records[SOURCE_FIELDS[s]] for s in SOURCES], axis=-1)


def _no_sale_fame(records: np.ndarray, config) -> np.ndarray:
    """Sales pay credits only: the fame they earn is 0 (the yield analysis reads money and points)."""
    return np.zeros(records["f_sale_income"].shape, dtype=np.int32)


def _turn_position(records: np.ndarray, config) -> np.ndarray:
    seats = np.arange(records["credits"].shape[1])[None, :]
    return (seats - records["first"][:, None]) % config.players


def _price_level(records: np.ndarray, config) -> np.ndarray:
    """Per game, round and culture: the mean resale (credits) of the goods the culture buys, at its top
    token (NaN while undiscovered, or for a culture that buys nothing)."""
    resale = np.asarray(config.good_resale, dtype=np.float64).reshape(N_CULTURES, 3)  # good, token
    buys = np.array([[(config.buyer_masks[g] >> cu) & 1 for g in range(N_CULTURES)] for cu in range(N_CULTURES)])
    count = buys.sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        level = (buys @ resale) / count[:, None]  # culture, token
    top = records["f_top_r"][:, : config.rounds].astype(np.int64)  # the rounds the game has
    out = level[np.arange(N_CULTURES)[None, None, :], np.clip(top, 0, 2)]
    return np.where(top >= 0, out, np.nan)


def _mean_sale_price(records: np.ndarray, config) -> np.ndarray:
    sales = records["f_sales_r"][:, : config.rounds].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(sales > 0, records["f_sale_sum_r"][:, : config.rounds] / sales, np.nan)


def _seat(pattern, source, description, role=None, unit="count", axes=(), dtype="int32"):
    return Fact(pattern, source, description, role, "seat", tuple(axes), dtype, unit)


def _market(pattern, source, description, role, unit="count", dtype="int32", missing=None):
    return Fact(pattern, source, description, role, "game", (ROUND, CULTURE), dtype, unit, missing)


FACTS = FactSet(
    [
        _seat("start_credits", "start_credits", "credits the seat started with", "money.start", "money"),
        _seat(
            "final_credits",
            "credits",
            "credits at the end (ports sold and fame paid): the score",
            "money.final",
            "money",
        ),
        _seat(
            "final_fame",
            "total_fame",
            "total fame at the end (Fuzzy Dice included, less infamy)",
            "points.final",
            "points",
        ),
        _seat("turn_position", _turn_position, "place in turn order (0: the start player)", "seat.turn_position"),
        _seat("eliminated", "eliminated", "1 if the seat's fame was below the elimination threshold"),
        _seat("credits_sales", "f_sale_income", "credits from goods sold", "market.income", "money"),
        _seat(
            "fame_sales",
            _no_sale_fame,
            "fame from goods sold (none: a sale pays credits)",
            "market.income_points",
            "points",
        ),
        _seat("credits_{source}", _credit_sources, SOURCE_DOC, "money.source", "money", [SOURCE]),
        _seat("fees_paid", "f_fees_paid", "credits paid as port fees to other players' ports", unit="money"),
        _seat("goods_sold", "f_sales", "goods tokens sold"),
        _seat("buys", "f_buys", "buy actions (goods, equipment, race techs)"),
        _seat("spaceports_built", "ports", "merchant spaceports built", "board.ports"),
        _seat("systems_discovered", "f_discoveries", "systems discovered (contact made first)", "board.discovered"),
        _seat("missions_done", "missions_done", "missions completed"),
        _seat("hazards_failed", "f_hazards_failed", "hazard tests failed (each ended a turn)"),
        Group(
            (ROUND,),
            (
                _seat(
                    "credits_r{round}",
                    "f_credits_r",
                    "credits at the end of round {round}",
                    "money.round",
                    "money",
                    [ROUND],
                ),
                _seat(
                    "fame_r{round}",
                    "f_fame_r",
                    "total fame at the end of round {round} (no Fuzzy Dice roll)",
                    "points.round",
                    "points",
                    [ROUND],
                ),
                _seat(
                    "score_r{round}",
                    "f_score_r",
                    "final credits if the game ended after round {round} (ports sold, fame x10)",
                    "score.round",
                    "money",
                    [ROUND],
                ),
            ),
        ),
        Group(
            (CULTURE,),
            (
                _seat(
                    "bought_{culture}", "f_bought_good", "{good} tokens bought", "market.seat_bought", axes=[CULTURE]
                ),
                _seat("sold_{culture}", "f_sold_good", "{good} tokens sold", "market.seat_sold", axes=[CULTURE]),
                _seat("sold_at_{culture}", "f_sold_at", "goods tokens sold to the {name} market", axes=[CULTURE]),
                _seat(
                    "shifts_{culture}",
                    "f_shifts_made",
                    "times the seat's sales shifted the {name} market",
                    "market.seat_shifts",
                    axes=[CULTURE],
                ),
            ),
        ),
        Group(
            (ROUND,),
            (
                _market(
                    "token_{culture}_r{round}",
                    "f_top_r",
                    "{name} top market token at the end of round {round} (0 low, 1 active, 2 high; null: undiscovered)",
                    "market.demand",
                    "level",
                    "int8",
                    -1,
                ),
                _market(
                    "price_{culture}_r{round}",
                    _price_level,
                    "{name} price level at the end of round {round}: mean resale of the goods it buys at its top "
                    "token (null: undiscovered)",
                    "market.price",
                    "money",
                    "float64",
                    np.nan,
                ),
                _market(
                    "sales_{culture}_r{round}",
                    "f_sales_r",
                    "goods tokens sold to the {name} market in round {round}",
                    "market.sale",
                    dtype="int16",
                ),
                _market(
                    "sale_price_{culture}_r{round}",
                    _mean_sale_price,
                    "mean credits per token of the sales to the {name} market in round {round} (null: none)",
                    "market.sale_price",
                    "money",
                    "float64",
                    np.nan,
                ),
                _market(
                    "shifted_by_{culture}_r{round}",
                    "f_shifter_r",
                    "seat whose sales shifted the {name} market in round {round} (the last if several; null: none)",
                    "market.shifted_by",
                    "seat",
                    "int8",
                    -1,
                ),
            ),
        ),
        Fact("game_turns", "turns", "turns in the game (all seats)", "game.turns", "game"),
        Fact("decisions", "decisions", "decisions taken in the game (all seats)", "game.decisions", "game"),
    ],
    Units("credit", "credits", "credits", "fame point", "fame points", "fame"),
    [
        Intervention(
            "card",
            "bonus_item",
            "bonus_item_seat",
            "none",
            "item",
            "seat k starts with one equipment item or race-tech token of the type",
            noun="item",
            nouns="items",
        ),
        Intervention("money", "purse_offset", description="credits added to seat k's starting purse"),
    ],
)
