"""Setting up a Roma position from a readable description (see ``docs/games/roma.md``).

``position(...)`` starts a normal set-up (shuffled deck, dealt hands, starting money and VP), writes the
description over it and returns a normal ``RomaState`` at the active player's action phase, its action
dice rolled, the opening done and every card face up. Cards are named as on them (``"Forum"``,
``"Tribunus Plebis"``, any case); discs are 1..6 as on the board, the bribe disc (variant) is 7 or
``"bribe"``.

What is not given keeps the normal set-up, rebalanced so every total still adds up:

- boards: empty; a hand not given: the dealt hand (less any card the description places elsewhere);
  money and VP: the starting values.
- cards: cards put on the boards, in hands, on top of the deck or on the discard pile come out of the
  deck; the rest of the deck keeps the set-up's shuffled order. ``discard="rest"`` puts every card not
  placed otherwise on the discard pile (the deck is then exactly ``deck``).
- VP: the stockpile is the game's total less the seats' VP — VP given to a seat are moved from the
  stockpile, never created; the stockpile may not be emptied (the game would be over).
- dice: the active player's action dice as rolled; not given, they are rolled from the seed.

``force(state, ...)`` fixes the next chance outcomes by value: action dice (rolled at the start of every
turn and by a triple reroll) and the battle die.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from simlab.core import position as P
from simlab.core.errors import PositionError
from simlab.games.roma import data
from simlab.games.roma import rules as R
from simlab.games.roma.config import RomaConfig
from simlab.games.roma.game import GAME, RomaState

#: the decisions a position can be set up at (names as ``state.decision_name()`` shows them)
PHASES = {"action": R.PH_ACTION}
BRIBE = R.BRIBE + 1  # the bribe disc, numbered after the six dice discs


def _disc(field: str, disc: Any, config: RomaConfig) -> int:
    """A disc 1..6 (7 or "bribe": the bribe disc of the variant) as a board index 0..6."""
    if isinstance(disc, str) and disc.strip().lower() in ("bribe", "bribe disc"):
        disc = BRIBE
    if isinstance(disc, bool) or not isinstance(disc, (int, np.integer)) or not 1 <= disc <= BRIBE:
        raise PositionError(f"{field}: disc {disc!r} is not one of 1..6 (or 7 / 'bribe', the bribe disc)")
    if disc == BRIBE and not config.bribe_disc:
        raise PositionError(f"{field}: disc 7 (the bribe disc) needs the bribe_disc variant")
    return int(disc) - 1


def _cards(
    setup: P.Setup,
    *,
    boards: Mapping[int, Mapping[Any, Any]] | None = None,
    hands: Mapping[int, Any] | None = None,
    deck: Sequence[Any] | None = None,
    discard: Any = None,
) -> None:
    """boards: ``{seat: {disc: card}}``; hands: ``{seat: [cards]}`` (or ``{card: n}``); deck: the top of the
    draw pile, top card first; discard: cards or ``"rest"``."""
    s, config = setup.s, setup.config
    s["board"][:] = -1
    for p, cards in P.seat_map("boards", boards, 2).items():
        if not isinstance(cards, Mapping):
            raise PositionError(f"boards[{p}]: expected {{disc: card}}, got {cards!r}")
        for disc, t in cards.items():
            s["board"][p, _disc(f"boards[{p}]", disc, config)] = P.resolve(f"boards[{p}][{disc}]", t, data.CARDS)
    dealt = s["hand"].astype(np.int64).copy()
    held = np.zeros((2, R.NCARDS), dtype=np.int64)
    given = P.seat_map("hands", hands, 2)
    for p, cards in given.items():
        held[p] = P.count_vector(f"hands[{p}]", cards, data.CARDS, items_only=True)
    top = [P.resolve("deck", t, data.CARDS) for t in (deck or [])]
    rest_to_discard = isinstance(discard, str) and discard == "rest"
    face_up = np.zeros(R.NCARDS, dtype=np.int64)
    if discard is not None and not rest_to_discard:
        face_up = P.count_vector("discard", discard, data.CARDS, items_only=True)
    laid = np.bincount(s["board"][s["board"] >= 0], minlength=R.NCARDS)
    used = laid + held.sum(0) + np.bincount(np.array(top, dtype=np.int64), minlength=R.NCARDS) + face_up
    copies = np.array(config.card_copies)
    for t, card in enumerate(data.CARDS):
        if used[t] > copies[t]:
            raise PositionError(
                f"cards: {int(used[t])} {card} cards placed (boards {int(laid[t])}, hands {int(held[:, t].sum())}, "
                f"deck {top.count(t)}, discard {int(face_up[t])}), the game has {int(copies[t])}"
            )
    for p in range(2):  # a hand not given keeps its dealt cards, less those the description needs elsewhere
        if p not in given:
            held[p] = np.minimum(dealt[p], copies - used)
            used = used + held[p]
    rest = copies - used
    below: list[int] = []
    if rest_to_discard:
        face_up = face_up + rest
    else:  # the set-up's deck order, less the cards placed elsewhere; dealt cards not kept go under it
        left = rest.copy()
        for t in s["deck"][: int(s["deck_n"])].tolist():
            if left[t] > 0:
                below.append(t)
                left[t] -= 1
        returned = [t for p in range(2) for t in range(R.NCARDS) for _ in range(int(dealt[p, t]))]
        under = []
        for t in returned:
            if left[t] > 0:
                under.append(t)
                left[t] -= 1
        below = under + below
    pile = below + list(reversed(top))  # drawn from the end
    s["hand"][:] = held
    s["hand_n"][:] = s["hand"].sum(1)
    s["pass_buf"][:] = 0
    s["swap_left"] = 0
    s["discard"][:] = face_up
    s["deck"][:] = 0
    s["deck"][: len(pile)] = pile
    s["deck_n"] = len(pile)
    s["drawn_n"] = 0
    s["relay"][:] = 0
    s["relay_n"] = 0


def _vp_and_money(setup: P.Setup, *, money: Any = None, vp: Any = None) -> None:
    """money / vp: one number, one per seat or ``{seat: n}``; VP come from the stockpile."""
    s, config = setup.s, setup.config
    held_vp = P.per_seat("vp", vp, 2, s["vp"])
    for p, v in enumerate(held_vp):
        if v == 0:
            raise PositionError(f"vp[{p}]: a seat with 0 VP has lost; a position in play needs at least 1")
    stock = config.total_vp - sum(held_vp)
    if stock <= 0:
        raise PositionError(
            f"vp: the seats hold {sum(held_vp)} VP, which leaves {stock} in the stockpile of "
            f"{config.total_vp} (VP move from the stockpile; an empty stockpile ends the game)"
        )
    s["vp"][:] = held_vp
    s["stock"] = stock
    s["minted"] = 0
    s["money"][:] = P.per_seat("money", money, 2, s["money"])
    # the position is where the VP sources start counting from
    s["f_start_vp"][:] = held_vp
    for field in ("f_vp", "f_vp_lost_empty", "f_vp_lost_taken"):
        s[field][:] = 0


def _dice(setup: P.Setup, *, dice: Sequence[int] | None = None) -> None:
    """dice: the action dice as rolled (up to the config's ``action_dice``; fewer: the others are used up)."""
    s, n_dice = setup.s, setup.config.action_dice
    rolled = [int(x) for x in np.random.default_rng([setup.seed, 7]).integers(1, 7, n_dice)]
    if dice is None:
        faces = rolled
    else:
        faces = [P.check_count("dice", v, most=6, least=1) for v in dice]
        if not 1 <= len(faces) <= n_dice:
            raise PositionError(f"dice: {len(faces)} action dice given, the game has {n_dice}")
    s["used"][:] = 1
    s["dice"][:] = 0
    s["dice"][:n_dice] = faces + rolled[len(faces) :]  # a die used up keeps the face it was rolled with
    s["used"][: len(faces)] = 0
    s["rerolls"] = 0


def _decision(setup: P.Setup) -> None:
    """The seat's action phase of the first turn, the opening done and every card face up."""
    s, seat = setup.s, setup.seat
    s["blocked"][:] = 0
    s["essedum"][:] = 0
    s["revealed"] = 1
    s["turns"] = 1
    s["f_turns"][:] = 0
    s["f_turns"][seat] = 1
    s["f_laid"][:] = 0
    s["phase"] = PHASES[setup.phase]
    s["cur"] = seat
    s["active"] = seat


BUILDER = P.Builder(GAME, phases=tuple(PHASES), steps=(_cards, _vp_and_money, _dice, _decision))


def position(seat: int = 0, **description: Any) -> RomaState:
    """A Roma state at ``seat``'s action phase, built from the description (``simlab.core.position.build``;
    components: boards, hands, deck, discard, money, vp, dice; see the module docstring)."""
    return P.build(BUILDER, seat, **description)


def force(state: RomaState, *outcomes: int, **kinds: Iterable[int] | int) -> RomaState:
    """Fix the next chance outcomes, in the order written: action dice and the battle die, e.g.
    ``force(st, dice=[4, 4, 4])`` before a turn ends, ``force(st, battle=5)`` before an attack, or
    ``force(st, 2, 2, 2)``. Keywords: ``dice`` (1..6), ``battle`` (1..battle_die_sides)."""
    sides = state.config.battle_die_sides
    most = {"force": max(6, sides), "dice": 6, "battle": sides}
    values: list[int] = []
    items: list[tuple[str, Any]] = [("force", x) for x in outcomes]
    for kind, xs in kinds.items():
        if kind not in ("dice", "battle"):
            raise PositionError(f"force: unknown outcome kind {kind!r}; allowed: dice, battle")
        items.extend((kind, x) for x in ([xs] if isinstance(xs, int) else xs))
    for kind, x in items:
        values.append(P.check_count(f"{kind} value", x, most=most[kind], least=1))
    P.force(state, values)
    return state
