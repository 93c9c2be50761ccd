"""Massilia's rule numbers: a frozen config whose every field says where its default comes from.

Defaults are the rulebook (``rules/massilia.md``); the ``quined2014`` preset is what reports of the
published 2014 edition describe. Fields marked ``assumption`` settle points the rulebook leaves open;
experiments change them here, never in rules.py.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from simlab.core.config import GameConfig, knob, require
from simlab.games.massilia import data

MAX_PLAYERS = 4
MAX_ROUNDS = 12
MAX_SPACES = 32
MAX_VENUS_RETURNS = 4  # action ids for returning fewer tokens have room for this many


# bounds of a knob's range set by another knob (see simlab.core.config.knob)
def _price_min(c: MassiliaConfig) -> int:
    return c.price_min


def _price_max(c: MassiliaConfig) -> int:
    return c.price_max


def _marker_min(c: MassiliaConfig) -> int:
    return c.marker_min


def _marker_max(c: MassiliaConfig) -> int:
    return c.marker_max


def _setup_stalls(c: MassiliaConfig) -> int:
    return max(1, c.setup_stalls_by_players[c.players - 2])


def _stall_capacity(c: MassiliaConfig) -> int:
    return c.stall_capacity


def _last_seat(c: MassiliaConfig) -> int:
    return c.players - 1


@dataclasses.dataclass(frozen=True)
class MassiliaConfig(GameConfig):
    """Every number of Massilia's rules page (see each field's provenance and description)."""

    PRESETS: ClassVar[dict[str, dict[str, object]]] = {
        "rulebook": {},
        "quined2014": {
            "start_money": (5, 6, 7, 8),
            "hand_limit": 3,
            "marker_drop_per_cube": False,
        },
    }
    DEFAULT_PRESET: ClassVar[str] = "rulebook"

    players: int = knob(4, "rulebook", "number of players (2 to 4)", range=(2, MAX_PLAYERS))
    rounds: int = knob(7, "rulebook", "rounds in a game", range=(1, MAX_ROUNDS))
    start_money: tuple[int, ...] = knob(
        (6, 6, 6, 6), "rulebook", "starting sesterces by seat (seat 0 is the first player)", range=(0, None)
    )
    cubes_total: tuple[int, ...] = knob(
        (15, 15, 15, 10), "rulebook", "goods cubes by colour (pink, orange, purple, beige)", range=(0, None)
    )
    harbour_start: tuple[int, ...] = knob(
        (6, 6, 6, 10), "rulebook", "cubes in each harbour at setup (same order)", range=(0, None)
    )
    refill_by_players: tuple[int, ...] = knob(
        (8, 10, 12),
        "rulebook",
        "cubes drawn from the bag in phase 1 for 2, 3 and 4 players",
        record=None,
        range=(0, None),
    )
    card_copies: tuple[int, ...] = knob(
        data.CARD_COPIES, "rulebook", "deity cards by type (" + ", ".join(data.CARDS) + ")", range=(0, None)
    )
    price_tiles: tuple[int, ...] = knob(
        (1, 2, 2, 3), "rulebook", "price tile values, placed at random at setup", range=(_price_min, _price_max)
    )
    beige_price: int = knob(
        1, "assumption", "printed price of a beige cube (the rulebook lists only 4 tiles)", range=(1, None)
    )
    price_min: int = knob(1, "rulebook", "lowest price a Mercure may set", range=(1, _price_max))
    price_max: int = knob(3, "rulebook", "highest price a Mercure may set", range=(_price_min, None))
    turn_tiles: tuple[int, ...] = knob(
        (2, 3, 4), "rulebook", "turn-order tiles; the lowest players-1 are used", record=None
    )
    tokens_per_player: int = knob(10, "rulebook", "penalty tokens in the common supply per player", range=(0, None))
    marker_start: int = knob(2, "rulebook", "starting position of each score marker", range=(_marker_min, _marker_max))
    marker_min: int = knob(1, "rulebook", "lowest score-marker position")
    marker_max: int = knob(3, "rulebook", "highest score-marker position")
    marker_drop_per_cube: bool = knob(
        True, "rulebook", "buying drops the colour's marker one step per cube (False: one step per purchase)"
    )
    marker_drop_counts_beige: bool = knob(
        False, "assumption", "a per-cube marker drop also counts the beige cubes of the purchase (rulebook wording)"
    )
    stalls_per_player: int = knob(6, "rulebook", "stall tiles per player", range=(_setup_stalls, 12))
    stall_capacity: int = knob(6, "rulebook", "most cubes a stall may hold", range=(1, 12))
    setup_stalls_by_players: tuple[int, ...] = knob(
        (2, 1, 1), "rulebook", "stalls each player places at setup for 2, 3 and 4 players", record=None
    )
    setup_cubes_per_stall: int = knob(
        3,
        "rulebook",
        "cubes drawn from the bag onto each setup stall",
        record="setup_cubes",
        range=(0, _stall_capacity),
    )
    keep_die_cost: int = knob(2, "rulebook", "sesterces per rolled die kept", range=(0, None))
    consul_place_cost: int = knob(5, "rulebook", "sesterces to place a stall where the consul stops", range=(0, None))
    consul_move_cubes: int = knob(
        6, "rulebook", "most cubes moved onto a stall placed with the consul", range=(0, None)
    )
    tax_per_cube: int = knob(1, "rulebook", "consul tax in sesterces per cube on the stall", range=(1, None))
    hand_limit: int = knob(4, "rulebook", "most deity cards in hand", range=(1, None))
    hand_limit_caps_keep: bool = knob(True, "assumption", "a sacrifice keeps at most hand_limit minus cards in hand")
    beige_per_card: int = knob(
        2, "rulebook", "beige cubes paid per kept deity card (or one coloured cube)", range=(1, None)
    )
    venus_returns: int = knob(
        2,
        "rulebook",
        "most penalty tokens a Venus returns to the supply (the player may return fewer)",
        range=(0, MAX_VENUS_RETURNS),
    )
    stall_points: tuple[int, ...] = knob(
        (0, 0, 4, 9, 16, 25),
        "rulebook",
        "end points for 0, 1, 2, … stalls on the market (last entry caps)",
        record=None,
    )
    money_per_point: int = knob(
        3,
        "assumption",
        "sesterces per end point (the Hungarian line lost its digit; 1 per 3 per play reports)",
        range=(1, None),
    )
    token_penalty: int = knob(2, "rulebook", "points lost per penalty token held at the end", range=(0, None))
    removed_beige_to_bag: bool = knob(
        True, "assumption", "beige cubes discarded for cards or taxed go to the bag (False: to the harbour)"
    )
    kept_dice_to_screen_on_pass: bool = knob(
        True,
        "assumption",
        "kept dice unused at a pass go behind the screen (False: to the temple)",
        record="kept_to_screen",
    )
    fame_must_buy_full: bool = knob(
        True, "assumption", "the fame action must buy the die's whole value", record="fame_full"
    )
    market_spaces: int = knob(
        16,
        "assumption",
        "stall spaces around the market (4 sides; middle space per side)",
        record=None,
        range=(8, MAX_SPACES),
    )
    random_pawn_start: bool = knob(
        True, "rulebook", "characters start on the middle spaces in random order", record="random_pawns"
    )
    bonus_card: str = knob(
        "none",
        "intervention",
        "experiment knob: a deity card (by name) dealt from the deck to bonus_card_seat at setup",
        record=None,
        choices=("none", *data.CARDS),
    )
    bonus_card_seat: int = knob(
        -1, "intervention", "seat that receives bonus_card (-1: nobody)", record=None, range=(0, _last_seat), also=(-1,)
    )

    def validate(self) -> None:
        n = self.players
        require(2 <= n <= MAX_PLAYERS, f"players must be 2, 3 or 4, got {n}")
        require(1 <= self.rounds <= MAX_ROUNDS, f"rounds must be 1..{MAX_ROUNDS}, got {self.rounds}")
        require(
            len(self.start_money) >= n and all(m >= 0 for m in self.start_money),
            f"start_money needs a non-negative value for each of {n} seats, got {self.start_money}",
        )
        require(
            len(self.cubes_total) == 4 and len(self.harbour_start) == 4,
            "cubes_total and harbour_start need 4 values (pink, orange, purple, beige)",
        )
        require(
            all(0 <= h <= t for h, t in zip(self.harbour_start, self.cubes_total, strict=True)),
            f"harbour_start {self.harbour_start} must be within cubes_total {self.cubes_total}",
        )
        require(len(self.refill_by_players) == 3, "refill_by_players needs 3 values (2, 3, 4 players)")
        require(len(self.setup_stalls_by_players) == 3, "setup_stalls_by_players needs 3 values (2, 3, 4 players)")
        require(
            len(self.card_copies) == 9 and all(c >= 0 for c in self.card_copies) and sum(self.card_copies) <= 64,
            "card_copies needs 9 non-negative counts, at most 64 cards in all",
        )
        require(len(self.price_tiles) == 4, "price_tiles needs 4 values (temple, purple, orange, pink)")
        require(1 <= self.price_min <= self.price_max, "price_min must be >= 1 and <= price_max")
        require(
            all(self.price_min <= p <= self.price_max for p in self.price_tiles),
            f"price_tiles must lie within price_min..price_max ({self.price_min}..{self.price_max})",
        )
        require(len(self.turn_tiles) >= n - 1, f"turn_tiles needs at least {n - 1} tiles for {n} players")
        require(
            self.market_spaces % 4 == 0 and 8 <= self.market_spaces <= MAX_SPACES,
            f"market_spaces must be a multiple of 4 between 8 and {MAX_SPACES}",
        )
        setup = self.setup_stalls_by_players[n - 2]
        corners = self.market_spaces - 4
        require(setup * n <= corners, f"{setup * n} setup stalls do not fit on {corners} corner spaces")
        require(1 <= setup <= self.stalls_per_player <= 12, "stalls_per_player must be 1..12 and >= setup stalls")
        require(1 <= self.stall_capacity <= 12, "stall_capacity must be 1..12")
        require(self.setup_cubes_per_stall <= self.stall_capacity, "setup_cubes_per_stall exceeds stall_capacity")
        bag = sum(t - h for t, h in zip(self.cubes_total, self.harbour_start, strict=True))
        require(
            setup * n * self.setup_cubes_per_stall <= bag,
            f"setup needs {setup * n * self.setup_cubes_per_stall} cubes but the bag holds {bag}",
        )
        require(len(self.stall_points) >= 2, "stall_points needs at least 2 values")
        require(self.money_per_point >= 1, "money_per_point must be >= 1")
        require(self.marker_min <= self.marker_start <= self.marker_max, "marker_start must be within min..max")
        require(self.beige_per_card >= 1 and self.beige_price >= 1, "beige_per_card and beige_price must be >= 1")
        for name in (
            "rounds",
            "tokens_per_player",
            "keep_die_cost",
            "consul_place_cost",
            "consul_move_cubes",
            "tax_per_cube",
            "hand_limit",
            "venus_returns",
            "token_penalty",
        ):
            require(getattr(self, name) >= 0, f"{name} must be >= 0, got {getattr(self, name)}")
        require(self.tax_per_cube >= 1, "tax_per_cube must be >= 1")
        require(
            self.venus_returns <= MAX_VENUS_RETURNS,
            f"venus_returns must be 0..{MAX_VENUS_RETURNS}, got {self.venus_returns}",
        )
        require(
            self.bonus_card == "none" or self.bonus_card in data.CARDS,
            f"bonus_card must be 'none' or one of {', '.join(data.CARDS)}, got {self.bonus_card!r}",
        )
        require(-1 <= self.bonus_card_seat < n, f"bonus_card_seat must be -1 or a seat 0..{n - 1}")
        if self.bonus_card != "none" and self.bonus_card_seat >= 0:
            require(
                self.card_copies[data.CARDS.index(self.bonus_card)] > 0,
                f"bonus_card {self.bonus_card!r} has no copies in card_copies",
            )
        require(self.hand_limit >= 1, "hand_limit must be >= 1")
