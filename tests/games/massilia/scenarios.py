"""Scenario helpers for Massilia rule tests: build a decision point compactly, name actions readably.

``scenario(...)`` plays the setup with fixed choices, lets nobody roll, and then rewrites the board into
the situation a test describes (stalls, temple dice, hands, money, ...). Whatever the test leaves out is
rebalanced so the component totals still add up (cubes in the bag, cards in the deck, tokens in the
supply, dice behind the screens): the conservation checks of ``assert_conserved`` then hold in every
scripted scenario too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from simlab import get_game
from simlab.games.massilia import rules as R
from simlab.games.massilia.game import MassiliaState

GAME = get_game("massilia")

# pawns
CONSUL, PINK_CUSTOMER, ORANGE_CUSTOMER, PURPLE_CUSTOMER = 0, 1, 2, 3
# price locations
LOC_TEMPLE, LOC_PURPLE, LOC_ORANGE, LOC_PINK = 0, 1, 2, 3
CW, CCW = 0, 1


# -- action ids ---------------------------------------------------------------------------------
def take(colour: int, value: int, own: bool = False) -> int:
    """Take a die (from the temple, or from one's own kept dice) as the first die of an action."""
    return R.A_TAKE + int(own) * 24 + colour * 6 + value - 1


def extra_token(colour: int, value: int, own: bool = False) -> int:
    return R.A_EXTRA_TOKEN + int(own) * 24 + colour * 6 + value - 1


def extra_junon(colour: int, value: int, own: bool = False) -> int:
    return R.A_EXTRA_JUNON + int(own) * 24 + colour * 6 + value - 1


def change_token(action: int) -> int:
    return R.A_CHANGE_TOKEN + action


def change_jupiter(action: int) -> int:
    return R.A_CHANGE_JUPITER + action


def mod_token(die: int, up: bool) -> int:
    return R.A_MOD_TOKEN + die * 2 + int(up)


def mod_card(die: int, up: bool) -> int:
    return R.A_MOD_CARD + die * 2 + int(up)


def mercure(loc: int, up: bool) -> int:
    return R.A_MERCURE + loc * 2 + int(up)


def move(pawn: int, direction: int = CW) -> int:
    return R.A_MOVE + pawn * 2 + direction


def space(sp: int) -> int:
    return R.A_SPACE + sp


def cube(sp: int, goods: int) -> int:
    return R.A_CUBE + sp * 4 + goods


def count(k: int) -> int:
    return R.A_COUNT + k


def colour(goods: int) -> int:
    return R.A_COLOUR + goods


# -- states -------------------------------------------------------------------------------------
def config(players: int = 4, preset: str | None = None, **overrides):
    return GAME.make_config(preset=preset, players=players, overrides=overrides)


def new_state(players: int = 4, seed: int = 0, preset: str | None = None, **overrides) -> MassiliaState:
    return GAME.new_state(config(players, preset, **overrides), seed)


def rec(state: MassiliaState) -> np.void:
    """The state record (a numpy structured scalar; writes go to the state)."""
    return state.record[0]


def play(state: MassiliaState, *actions: int) -> MassiliaState:
    """Apply the actions in order (each must be legal) and check the component totals after each."""
    for a in actions:
        state.apply(a)
        assert_conserved(state)
    return state


def finish_setup(state: MassiliaState) -> MassiliaState:
    """Place the setup stalls on the first free corner spaces."""
    while rec(state)["phase"] == R.PH_SETUP:
        state.apply(state.legal_actions()[0])
    return state


def scenario(
    players: int = 4,
    seat: int = 0,
    *,
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    seed: int = 0,
    stalls: Mapping[int, tuple[int, Sequence[int]]] | None = None,
    temple: Iterable[tuple[int, int]] = (),
    kept: Mapping[int, Iterable[tuple[int, int]]] | None = None,
    hands: Mapping[int, Iterable[int]] | None = None,
    money: Sequence[int] | int = 20,
    tokens: Mapping[int, int] | None = None,
    fame: Mapping[int, int] | None = None,
    pawns: Sequence[int] = (2, 6, 10, 14),
    prices: Sequence[int] = (2, 2, 1, 3),
    markers: Sequence[int] = (2, 2, 2),
    harbour: Sequence[int] | None = None,
    deck: Sequence[int] | None = None,
    discard: Mapping[int, int] | None = None,
    round_: int = 1,
) -> MassiliaState:
    """An action-phase decision of ``seat`` (turn order 0..players-1) on a board built from the arguments.

    stalls: space -> (owner, cubes by goods colour pink, orange, purple, beige); temple: (die colour,
    value) pairs; kept: seat -> (die colour, value) pairs kept in front of the player; hands: seat ->
    card ids; prices: temple, purple, orange, pink; deck: the deck from the top down (the remaining cards
    go to the discard pile unless ``discard`` is given). The dice nobody holds go behind the screens.
    """
    cfg = GAME.make_config(preset=preset, players=players, overrides=dict(overrides or {}))
    state = GAME.new_state(cfg, seed)
    finish_setup(state)
    while rec(state)["phase"] != R.PH_MAIN:  # nobody rolls a die in round 1
        state.apply(count(0))
    s = rec(state)
    n = players
    s["round_no"] = round_
    # market
    s["stall_owner"][:] = -1
    s["cubes"][:] = 0
    for sp, (owner, goods) in (stalls or {}).items():
        s["stall_owner"][sp] = owner
        s["cubes"][sp, :] = goods
    for p in range(n):
        s["reserve"][p] = cfg.stalls_per_player - int((s["stall_owner"] == p).sum())
    s["pawn"][:] = pawns
    s["price"][:] = prices
    s["price_mod"][:] = 0
    s["marker"][:] = markers
    if harbour is not None:
        s["harbour"][:] = harbour
    else:  # the setup harbours, less what the stalls need beyond the bag
        s["harbour"][:] = np.minimum(cfg.harbour_start, np.array(cfg.cubes_total) - s["cubes"].sum(0))
    s["bag"][:] = np.array(cfg.cubes_total) - s["harbour"] - s["cubes"].sum(0)
    assert (s["bag"] >= 0).all(), "scenario uses more cubes than the game has"
    # players
    s["money"][:n] = [money] * n if isinstance(money, int) else money
    s["fame"][:n] = 0
    for p, f in (fame or {}).items():
        s["fame"][p] = f
    s["tokens"][:] = 0
    for p, t in (tokens or {}).items():
        s["tokens"][p] = t
    s["supply"] = cfg.tokens_per_player * n - int(s["tokens"][:n].sum())
    # cards
    s["hand"][:] = 0
    for p, cards in (hands or {}).items():
        for t in cards:
            s["hand"][p, t] += 1
    s["hand_n"][:] = s["hand"].sum(1)
    rest = np.array(cfg.card_copies) - s["hand"].sum(0)
    s["discard"][:] = 0
    if deck is not None:
        for t in deck:
            rest[t] -= 1
        if discard is None:
            s["discard"][:] = rest
            rest[:] = 0
    if discard is not None:
        for t, k in discard.items():
            s["discard"][t] = k
            rest[t] -= k
    assert (rest >= 0).all(), "scenario uses more cards than the game has"
    pile = [t for t in range(R.NCARDS) for _ in range(int(rest[t]))]
    pile += list(reversed(list(deck or [])))  # the deck is drawn from its end
    s["deck"][:] = 0
    s["deck"][: len(pile)] = pile
    s["deck_n"] = len(pile)
    s["drawn_n"] = 0
    # dice
    s["temple"][:] = 0
    s["kept"][:] = 0
    s["screen"][:] = 0
    for d, v in temple:
        s["temple"][d, v - 1] += 1
    for p, dice in (kept or {}).items():
        for d, v in dice:
            s["kept"][p, d, v - 1] += 1
    for d in range(4):
        free = n + 1 - int(s["temple"][d].sum()) - int(s["kept"][:n, d].sum())
        assert free >= 0, "scenario uses more dice than the game has"
        p = 0
        while free > 0:  # one per seat, round robin
            s["screen"][p % n, d] += 1
            free -= 1
            p += 1
    # the decision: seat's turn in the action phase
    s["order"][:n] = np.arange(n)
    s["order_pos"] = seat
    s["passed"][:] = 0
    s["n_passed"] = 0
    s["tile_of"][:] = 0
    s["last_passer"] = -1
    s["act_n"] = 0
    s["phase"] = R.PH_MAIN
    s["cur"] = seat
    s["active"] = seat
    assert_conserved(state)
    return state


def assert_conserved(state: MassiliaState) -> None:
    """Component totals: 55 cubes, 55 cards, 10 tokens per player, 4 dice per player + 4; no negatives."""
    s = rec(state)
    cfg = state.config
    n = cfg.players
    ph = int(s["phase"])
    cubes = s["bag"] + s["harbour"] + s["cubes"].sum(0)
    if ph == R.PH_PLACE:
        cubes = cubes + s["place_left"]
    assert cubes.tolist() == list(cfg.cubes_total), f"cubes by colour {cubes.tolist()}"
    cards = int(s["deck_n"]) + int(s["discard"].sum()) + int(s["hand"][:n].sum())
    if ph == R.PH_KEEPCARD:
        cards += int(s["drawn_n"]) - int(s["drawn_i"])
    assert cards == sum(cfg.card_copies), f"{cards} cards"
    assert s["hand"][:n].sum(1).tolist() == s["hand_n"][:n].tolist()
    assert int(s["supply"]) + int(s["tokens"][:n].sum()) == cfg.tokens_per_player * n
    dice = int(s["temple"].sum()) + int(s["kept"][:n].sum()) + int(s["screen"][:n].sum()) + int(s["act_n"])
    if ph == R.PH_KEEP:
        dice += int(s["rolled_n"]) - int(s["rolled_i"])
    assert dice == 4 * (n + 1), f"{dice} dice"
    for field in ("money", "tokens", "screen", "kept", "temple", "hand", "cubes", "bag", "harbour", "reserve"):
        assert (s[field] >= 0).all(), f"negative {field}"
    assert (s["cubes"].sum(1) <= cfg.stall_capacity).all()
    assert ((s["cubes"].sum(1) == 0) | (s["stall_owner"] >= 0)).all(), "cubes on a space without a stall"


def stalls_of(state: MassiliaState, p: int) -> list[int]:
    return [int(sp) for sp in np.flatnonzero(rec(state)["stall_owner"] == p)]


def pass_all(state: MassiliaState) -> MassiliaState:
    """Every player still in the round passes, in turn."""
    while rec(state)["phase"] == R.PH_MAIN and state.current_player >= 0:
        r = int(rec(state)["round_no"])
        play(state, R.A_PASS)
        if int(rec(state)["round_no"]) != r or state.is_terminal():
            break
    return state
