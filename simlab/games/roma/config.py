"""Roma's rule numbers: a frozen config whose every field says where its default comes from.

Defaults are the original 2005 game as restated in ``shared/rules/roma.md``; the ``bribe_disc`` preset
adds the 7th card space of *Arena: Roma II* as the published Roma test scenarios use it (5-card hands,
the bribe space counting for the empty-disc loss and for Legat). Fields marked ``assumption`` settle
points the rules leave open; experiments change them here, never in rules.py.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from simlab.core.config import GameConfig, knob, require
from simlab.games.roma import data

MAX_DECK = 96  # most cards in a (modified) deck
MAX_HAND_DEAL = 12
MAX_VP = 200


# bounds of a knob's range set by other knobs (see simlab.core.config.knob)
def _more_than_start_vp(c: RomaConfig) -> int:
    return sum(c.start_vp[:2]) + 1  # the stockpile starts with at least one VP


def _hand_size(c: RomaConfig) -> int:
    return c.hand_size


def _names(values: tuple[int, ...]) -> str:
    return ", ".join(f"{k} {v}" for k, v in zip(data.CARD_KEYS, values, strict=True))


@dataclasses.dataclass(frozen=True)
class RomaConfig(GameConfig):
    """Every number of Roma's rules page (see each field's provenance and description)."""

    PYTHON_ONLY: ClassVar[dict[str, str]] = {"players": "always 2 (validated); the rules are written for two seats"}
    PRESETS: ClassVar[dict[str, dict[str, object]]] = {
        "rulebook": {},
        "bribe_disc": {"bribe_disc": True, "hand_size": 5},
    }
    DEFAULT_PRESET: ClassVar[str] = "rulebook"
    PRESET_ALIASES: ClassVar[dict[str, str]] = {"original": "rulebook"}

    players: int = knob(2, "rulebook", "number of players (Roma is a two-player game)", range=(2, 2))
    # -- victory points and money ----------------------------------------------------------------
    total_vp: int = knob(
        36, "rulebook", "victory points in the game (players' plus the stockpile)", range=(_more_than_start_vp, MAX_VP)
    )
    start_vp: tuple[int, ...] = knob(
        (10, 10), "rulebook", "starting VP by seat (seat 0 starts); the rest is the stockpile", range=(1, None)
    )
    start_money: tuple[int, ...] = knob(
        (0, 0), "rulebook", "starting sestertii by seat (EN-RB gives none; one review says 5 each)", range=(0, None)
    )
    full_credit: bool = knob(
        True, "rulebook", "a payout the stockpile cannot cover is still credited in full (then the game ends)"
    )
    max_turns: int = knob(
        400, "assumption", "safety limit: the game ends after this many turns in all (0: no limit)", range=(0, None)
    )
    # -- setup -------------------------------------------------------------------------------------
    hand_size: int = knob(
        4, "rulebook", "cards dealt to each player (the bribe-disc variant deals 5)", range=(1, MAX_HAND_DEAL)
    )
    swap_size: int = knob(
        2, "rulebook", "cards each player passes face down to the other at setup", range=(0, _hand_size)
    )
    bribe_disc: bool = knob(
        False, "rulebook", "Arena: Roma II's bribe disc as a 7th card space (preset bribe_disc)", record="bribe"
    )
    action_dice: int = knob(3, "rulebook", "action dice per player", record="n_dice", range=(1, 6))
    # -- deck ----------------------------------------------------------------------------------------
    card_copies: tuple[int, ...] = knob(
        data.CARD_COPIES,
        "rulebook",
        "copies of each card (" + _names(data.CARD_COPIES) + ")",
        record="copies",
        range=(0, None),
    )
    card_cost: tuple[int, ...] = knob(
        data.CARD_COST, "rulebook", "cost in sestertii of each card (same order)", record="cost", range=(0, None)
    )
    card_defence: tuple[int, ...] = knob(
        data.CARD_DEFENCE, "rulebook", "defence of each card (same order)", record="defence", range=(0, None)
    )
    # -- phases 1 and 2 --------------------------------------------------------------------------------
    empty_disc_loss: int = knob(
        1,
        "rulebook",
        "VP returned to the stockpile per own empty space at the start of a turn",
        record="empty_loss",
        range=(0, None),
    )
    triple_reroll: bool = knob(True, "rulebook", "a player who rolls a triple may reroll all three dice")
    triple_reroll_limit: int = knob(
        -1,
        "assumption",
        "most triple rerolls in one turn (-1: as long as triples come)",
        record="reroll_limit",
        range=(0, None),
        also=(-1,),
    )
    # -- bribe disc ------------------------------------------------------------------------------------
    bribe_cost_per_pip: int = knob(
        1,
        "rulebook",
        "sestertii paid per pip of the die that activates the bribe-disc card",
        record="bribe_pip_cost",
        range=(0, None),
    )
    bribe_counts_empty: bool = knob(True, "rulebook", "an empty bribe space costs VP in phase 1 like an empty disc")
    bribe_counts_legat: bool = knob(True, "rulebook", "Legat counts the opponent's empty bribe space")
    bribe_adjacent_disc6: bool = knob(
        True,
        "assumption",
        "the bribe space lies next to disc 6 (Forum, Basilica and Templum adjacency)",
        record="bribe_adjacent",
    )
    praetorianus_blocks_bribe: bool = knob(
        False,
        "assumption",
        "Praetorianus may block the opponent's bribe space too (rules: not specified)",
        record="praetorianus_bribe",
    )
    # -- card abilities ----------------------------------------------------------------------------------
    battle_die_sides: int = knob(6, "rulebook", "sides of the battle die", record="battle_sides", range=(2, 20))
    turris_bonus: int = knob(
        1, "rulebook", "defence each face-up Turris adds to each of the owner's other cards", range=(0, None)
    )
    essedum_reduction: int = knob(
        2, "rulebook", "defence each Essedum activation takes from every opposing card", range=(0, None)
    )
    essedum_whole_turn: bool = knob(
        True, "assumption", "Essedum lasts to the end of the turn (False: only for the next battle of the turn)"
    )
    basilica_vp: int = knob(2, "rulebook", "extra VP for each Basilica next to an activated Forum", range=(0, None))
    basilica_each: bool = knob(True, "assumption", "two adjacent Basilicas pay twice (SUITE); False: once")
    legat_vp: int = knob(1, "rulebook", "VP from the stockpile per opponent space without a card", range=(0, None))
    tribunus_vp: int = knob(1, "rulebook", "VP Tribunus Plebis takes from the opponent", range=(0, None))
    mercator_price: int = knob(
        2, "rulebook", "sestertii per VP bought with Mercator (paid to the opponent)", range=(1, None)
    )
    mercator_cap: int = knob(
        -1,
        "assumption",
        "most VP one Mercator activation buys (-1: no cap; HU hints at a cap)",
        range=(1, None),
        also=(-1,),
    )
    mercatus_vp: int = knob(1, "rulebook", "VP Mercatus gains per face-up Forum of the opponent", range=(0, None))
    mercatus_from_opponent: bool = knob(
        True, "assumption", "Mercatus takes its VP from the opponent (HU, SUITE); False: from the stockpile"
    )
    consul_step: int = knob(
        1, "rulebook", "how far Consul changes a die (up or down, staying within 1..6)", range=(1, 5)
    )
    scaenicus_copies_scaenicus: bool = knob(
        True, "assumption", "Scaenicus may copy another Scaenicus (SUITE)", record="scaen_scaen"
    )
    free_lay_covers_self: bool = knob(
        True, "rulebook", "Senator and Architectus may cover themselves (HU)", record="free_lay_self"
    )
    # -- experiment knobs ----------------------------------------------------------------------------------
    bonus_card: str = knob(
        "none",
        "intervention",
        "experiment knob: a card (by key, e.g. forum) put into bonus_card_seat's opening hand as an extra card",
        record=None,
        choices=("none", *data.CARD_KEYS),
        hash_default=False,  # added in simlab's facts release: existing Roma config hashes stay
    )
    bonus_card_seat: int = knob(
        -1,
        "intervention",
        "seat that receives bonus_card (-1: nobody)",
        record=None,
        hash_default=False,
        range=(0, 1),
        also=(-1,),
    )

    def bonus(self) -> tuple[int, int]:
        """(card type, seat) of the bonus card, or (-1, -1) when none is dealt."""
        if self.bonus_card == "none" or self.bonus_card_seat < 0:
            return -1, -1
        return data.CARD_KEYS.index(self.bonus_card), self.bonus_card_seat

    def spaces(self) -> int:
        return data.MAX_SPACES if self.bribe_disc else data.DICE_DISCS

    def validate(self) -> None:
        require(self.players == 2, f"Roma is a two-player game: players must be 2, got {self.players}")
        require(
            len(self.start_vp) >= 2 and all(v >= 1 for v in self.start_vp[:2]),
            f"start_vp needs a positive value for each of 2 seats, got {self.start_vp}",
        )
        require(
            len(self.start_money) >= 2 and all(m >= 0 for m in self.start_money[:2]),
            f"start_money needs a non-negative value for each of 2 seats, got {self.start_money}",
        )
        require(
            sum(self.start_vp[:2]) < self.total_vp <= MAX_VP,
            f"total_vp must exceed the starting VP ({sum(self.start_vp[:2])}) so the stockpile is not empty, "
            f"and be at most {MAX_VP}; got {self.total_vp}",
        )
        for name in ("card_copies", "card_cost", "card_defence"):
            values = getattr(self, name)
            require(
                len(values) == 25 and all(v >= 0 for v in values),
                f"{name} needs 25 non-negative values (one per card: {', '.join(data.CARD_KEYS)})",
            )
        deck = sum(self.card_copies)
        require(deck <= MAX_DECK, f"card_copies add up to {deck} cards; at most {MAX_DECK}")
        require(1 <= self.hand_size <= MAX_HAND_DEAL, f"hand_size must be 1..{MAX_HAND_DEAL}, got {self.hand_size}")
        require(0 <= self.swap_size <= self.hand_size, f"swap_size must be 0..hand_size, got {self.swap_size}")
        require(
            self.bonus_card == "none" or self.bonus_card in data.CARD_KEYS,
            f"bonus_card must be 'none' or one of {', '.join(data.CARD_KEYS)}, got {self.bonus_card!r}",
        )
        require(
            -1 <= self.bonus_card_seat < 2, f"bonus_card_seat must be -1 or a seat 0..1, got {self.bonus_card_seat}"
        )
        bonus_type, _seat = self.bonus()
        if bonus_type >= 0:
            require(self.card_copies[bonus_type] > 0, f"bonus_card {self.bonus_card!r} has no copies in card_copies")
        opening = self.hand_size + (1 if bonus_type >= 0 else 0)
        require(
            opening <= self.spaces(),
            f"all {opening} opening cards must fit on the {self.spaces()} spaces (one card per space)",
        )
        require(2 * self.hand_size <= deck, f"the deck of {deck} cards cannot deal {self.hand_size} to each player")
        require(1 <= self.action_dice <= 6, f"action_dice must be 1..6, got {self.action_dice}")
        require(self.triple_reroll_limit >= -1, "triple_reroll_limit must be -1 (no limit) or >= 0")
        require(self.max_turns >= 0, "max_turns must be >= 0 (0: no limit)")
        require(2 <= self.battle_die_sides <= 20, "battle_die_sides must be 2..20")
        require(self.mercator_price >= 1, "mercator_price must be >= 1")
        require(self.mercator_cap == -1 or self.mercator_cap >= 1, "mercator_cap must be -1 (no cap) or >= 1")
        require(1 <= self.consul_step <= 5, "consul_step must be 1..5")
        for name in (
            "empty_disc_loss",
            "bribe_cost_per_pip",
            "turris_bonus",
            "essedum_reduction",
            "basilica_vp",
            "legat_vp",
            "tribunus_vp",
            "mercatus_vp",
        ):
            require(getattr(self, name) >= 0, f"{name} must be >= 0, got {getattr(self, name)}")
