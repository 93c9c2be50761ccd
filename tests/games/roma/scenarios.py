"""Scenario helpers for Roma rule tests: build a decision point compactly, name actions readably.

``scenario(...)`` starts a game, skips the setup and rewrites the record into the action phase the test
describes (cards on each side, hands, dice, money, VP). Whatever the test leaves out is rebalanced so
the totals still add up: the cards not placed anywhere form the draw pile, the VP not held by a player
are in the stockpile. ``assert_conserved`` then holds in every scripted scenario too. Discs are numbered
1..6 as on the board; the bribe space is 7.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from simlab.games.roma import rules as R
from simlab.games.roma.game import GAME, RomaState
from simlab.games.roma.position import force

# -- action ids (discs 1..6, bribe space 7) ---------------------------------------------------
DONE, YES = R.A_DONE, R.A_YES
BRIBE_DISC = 7


def lay(card: int, disc: int) -> int:
    return R.ACTIONS.encode("lay", card, disc - 1)


def laid(a: int) -> tuple[int, int]:
    """The (card, disc - 1) of a lay action, read back from its id (any other action is refused)."""
    family, index = R.ACTIONS.decode(a)
    assert family == "lay", f"{a} is a {family} action, not a lay"
    return index


def money(pips: int) -> int:
    return R.ACTIONS.encode("money", pips - 1)


def draw(pips: int) -> int:
    return R.ACTIONS.encode("draw", pips - 1)


def act(disc: int) -> int:
    return R.ACTIONS.encode("act", disc - 1)


def bribe(pips: int) -> int:
    return R.ACTIONS.encode("bribe", pips - 1)


def die(pips: int) -> int:
    return R.ACTIONS.encode("die", pips - 1)


def consul(pips: int, up: bool) -> int:
    return R.ACTIONS.encode("consul", pips - 1, int(up))


def target(disc: int) -> int:
    return R.ACTIONS.encode("disc", disc - 1)


def card(t: int) -> int:
    return R.ACTIONS.encode("card", t)


def count(k: int) -> int:
    return R.ACTIONS.encode("count", k)


# -- chance ----------------------------------------------------------------------------------------
def force_rolls(state: RomaState, *rolls: int) -> None:
    """The next chance outcomes (battle die, dice of a roll) come out as ``rolls``, in order
    (``simlab.games.roma.position.force``)."""
    force(state, *rolls)


# -- states ----------------------------------------------------------------------------------------
def config(preset: str | None = None, **overrides):
    return GAME.make_config(preset=preset, overrides=overrides)


def new_state(seed: int = 0, preset: str | None = None, **overrides) -> RomaState:
    return GAME.new_state(config(preset, **overrides), seed)


def rec(state: RomaState) -> np.void:
    """The state record (a numpy structured scalar; writes go to the state)."""
    return state.record[0]


def legal(state: RomaState) -> set[int]:
    return set(state.legal_actions())


def play(state: RomaState, *actions: int) -> RomaState:
    """Apply the actions in order (each must be legal) and check the totals after each."""
    for a in actions:
        state.apply(a)
        assert_conserved(state)
    return state


def scenario(
    seat: int = 0,
    *,
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    seed: int = 0,
    boards: Mapping[int, Mapping[int, int]] | None = None,
    hands: Mapping[int, Iterable[int]] | None = None,
    dice: Sequence[int] = (1, 2, 3),
    money: Sequence[int] | int = 0,
    vp: Sequence[int] = (10, 10),
    deck: Sequence[int] | None = None,
    discard: Iterable[int] = (),
) -> RomaState:
    """An action-phase decision of ``seat`` (its first turn) on a table built from the arguments.

    boards: seat -> {disc (1..6, 7 = bribe space): card}; hands: seat -> cards; dice: the action dice
    as rolled; deck: the top of the draw pile, top card first (the other cards lie below it in a fixed
    order); discard: the face-up discard pile. The stockpile holds total_vp minus the players' VP.
    """
    cfg = GAME.make_config(preset=preset, overrides=dict(overrides or {}))
    state = GAME.new_state(cfg, seed)
    s = rec(state)
    s["board"][:] = -1
    for p, cards in (boards or {}).items():
        for d, t in cards.items():
            s["board"][p, d - 1] = t
    s["hand"][:] = 0
    for p, cards in (hands or {}).items():
        for t in cards:
            s["hand"][p, t] += 1
    s["hand_n"][:] = s["hand"].sum(1)
    s["pass_buf"][:] = 0
    s["discard"][:] = 0
    for t in discard:
        s["discard"][t] += 1
    rest = np.array(cfg.card_copies) - s["hand"].sum(0) - s["discard"]
    for p in range(2):
        for t in s["board"][p]:
            if t >= 0:
                rest[t] -= 1
    top = list(deck or [])
    for t in top:
        rest[t] -= 1
    assert (rest >= 0).all(), "scenario uses more cards than the game has"
    pile = [t for t in range(R.NCARDS) for _ in range(int(rest[t]))] + list(reversed(top))  # drawn from the end
    s["deck"][:] = 0
    s["deck"][: len(pile)] = pile
    s["deck_n"] = len(pile)
    s["drawn_n"] = 0
    s["vp"][:] = vp
    s["stock"] = cfg.total_vp - sum(vp)
    assert s["stock"] > 0, "scenario leaves no VP in the stockpile"
    s["minted"] = 0
    s["money"][:] = [money] * 2 if isinstance(money, int) else money
    set_dice(state, dice)
    s["rerolls"] = 0
    s["blocked"][:] = 0
    s["essedum"][:] = 0
    s["revealed"] = 1
    s["turns"] = 1
    s["f_turns"][:] = 0
    s["f_turns"][seat] = 1
    s["f_laid"][:] = 0
    s["phase"] = R.PH_ACTION
    s["cur"] = seat
    s["active"] = seat
    assert_conserved(state)
    return state


def set_dice(state: RomaState, dice: Sequence[int]) -> None:
    """The active player's action dice show ``dice`` (all unused)."""
    s = rec(state)
    s["used"][:] = 1
    s["dice"][:] = 0
    s["dice"][: len(dice)] = dice
    s["used"][: len(dice)] = 0


def end_turn(state: RomaState, dice: Sequence[int] | None = None) -> RomaState:
    """End the active player's turn; the next player's dice show ``dice`` if given."""
    play(state, DONE)
    if dice is not None and not state.is_terminal():
        set_dice(state, dice)
        rec(state)["phase"] = R.PH_ACTION
    return state


def board(state: RomaState, p: int) -> dict[int, int]:
    """p's cards by disc (1..7)."""
    return {d + 1: int(t) for d, t in enumerate(rec(state)["board"][p]) if t >= 0}


def assert_conserved(state: RomaState) -> None:
    """52 cards by type across draw pile, discard pile, hands, boards and cards in transit; 36 VP across
    players and stockpile (plus any VP credited beyond an empty stockpile); no negative money."""
    s = rec(state)
    cfg = state.config
    ph = int(s["phase"])
    cards = (
        np.bincount(s["deck"][: int(s["deck_n"])], minlength=R.NCARDS)
        + s["discard"]
        + s["hand"].sum(0)
        + s["pass_buf"].sum(0)
        + np.bincount(s["board"][s["board"] >= 0], minlength=R.NCARDS)
    )
    if ph == R.PH_DRAWKEEP:
        cards = cards + np.bincount(s["drawn"][: int(s["drawn_n"])], minlength=R.NCARDS)
    if ph == R.PH_RELAY:
        cards = cards + s["relay"]
    assert cards.tolist() == list(cfg.card_copies), f"cards by type {cards.tolist()}"
    assert s["hand"].sum(1).tolist() == s["hand_n"].tolist(), "hand_n out of step"
    assert int(s["vp"].sum()) + int(s["stock"]) == cfg.total_vp + int(s["minted"]), "VP not conserved"
    assert (s["vp"] >= 0).all() and s["stock"] >= 0 and s["minted"] >= 0
    for field in ("money", "hand", "discard", "pass_buf", "relay", "essedum", "blocked"):
        assert (s[field] >= 0).all(), f"negative {field}"
    if not cfg.bribe_disc:
        assert (s["board"][:, R.BRIBE] == -1).all(), "a card on the bribe space without the variant"
