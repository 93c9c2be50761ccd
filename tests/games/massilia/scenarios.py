"""Scenario helpers for Massilia rule tests: build a decision point compactly, name actions readably.

``scenario(...)`` is the position builder (``simlab.games.massilia.position.position``) with these tests'
defaults (a market of only the given stalls, an empty temple, fixed prices): whatever the test leaves out
is rebalanced so the component totals still add up (cubes in the bag, cards in the deck, tokens in the
supply, dice behind the screens), and the game's invariants and ``assert_conserved`` hold in every
scripted scenario too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from simlab import get_game
from simlab.games.massilia import rules as R
from simlab.games.massilia.game import MassiliaState
from simlab.games.massilia.position import position

GAME = get_game("massilia")

# pawns
CONSUL, PINK_CUSTOMER, ORANGE_CUSTOMER, PURPLE_CUSTOMER = 0, 1, 2, 3
# price locations
LOC_TEMPLE, LOC_PURPLE, LOC_ORANGE, LOC_PINK = 0, 1, 2, 3
CW, CCW = 0, 1


# -- action ids (the rules' ActionLayout) --------------------------------------------------------
ENCODE = R.ACTIONS.encode


def take(colour: int, value: int, own: bool = False) -> int:
    """Take a die (from the temple, or from one's own kept dice) as the first die of an action."""
    return ENCODE("take", int(own), colour, value - 1)


def extra_token(colour: int, value: int, own: bool = False) -> int:
    return ENCODE("extra_token", int(own), colour, value - 1)


def extra_junon(colour: int, value: int, own: bool = False) -> int:
    return ENCODE("extra_junon", int(own), colour, value - 1)


def change_token(action: int) -> int:
    return ENCODE("change_token", action)


def change_jupiter(action: int) -> int:
    return ENCODE("change_jupiter", action)


def mod_token(die: int, up: bool) -> int:
    return ENCODE("mod_token", die, int(up))


def mod_card(die: int, up: bool) -> int:
    return ENCODE("mod_card", die, int(up))


def mercure(loc: int, up: bool) -> int:
    return ENCODE("mercure", loc, int(up))


def move(pawn: int, direction: int = CW) -> int:
    return ENCODE("move", pawn, direction)


def space(sp: int) -> int:
    return ENCODE("space", sp)


def cube(sp: int, goods: int) -> int:
    return ENCODE("cube", sp, goods)


def count(k: int) -> int:
    return ENCODE("count", k)


def colour(goods: int) -> int:
    return ENCODE("colour", goods)


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
    screens: Mapping[int, Sequence[int]] | None = None,
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
    """An action-phase decision of ``seat`` (turn order 0..players-1), built by the position builder
    (``simlab.games.massilia.position``) with these tests' defaults: a market of only the given stalls (a
    seat with none is out of the market), an empty temple, no cards in hand, 20 sesterces, no tokens, no
    fame, fixed pawns, prices and markers.

    stalls: space -> (owner, cubes by goods colour pink, orange, purple, beige); temple: (die colour,
    value) pairs; kept: seat -> (die colour, value) pairs kept in front of the player; screens: seat -> dice
    by colour behind the screen (default: the dice nobody holds, one per seat in turn); hands: seat -> card
    ids; prices: temple, purple, orange, pink; deck: the deck from the top down (the remaining cards go to
    the discard pile unless ``discard`` is given; without ``deck`` they form the deck in card order, the
    highest card on top). harbour: cubes by colour (default: the setup harbours, less what the stalls need
    beyond the bag).
    """
    cfg = GAME.make_config(preset=preset, players=players, overrides=dict(overrides or {}))
    n = players
    stalls = dict(stalls or {})
    on_stalls = np.zeros(4, dtype=np.int64)
    for _, goods in stalls.values():
        on_stalls += np.asarray(goods, dtype=np.int64)
    if harbour is None:
        harbour = np.minimum(cfg.harbour_start, np.array(cfg.cubes_total) - on_stalls).tolist()
    rest = np.array(cfg.card_copies)
    for cards in (hands or {}).values():
        for t in cards:
            rest[t] -= 1
    face_up = np.zeros(R.NCARDS, dtype=np.int64)
    if deck is not None:
        for t in deck:
            rest[t] -= 1
        if discard is None:
            face_up, rest = rest, np.zeros_like(rest)
    for t, k in (discard or {}).items():
        face_up[t] += k
        rest[t] -= k
    below = [t for t in range(R.NCARDS) for _ in range(int(rest[t]))]  # drawn from the end: highest on top
    state = position(
        seat,
        config=cfg,
        seed=seed,
        round=round_,
        stalls={sp: (owner, list(goods)) for sp, (owner, goods) in stalls.items()},
        no_stall=[p for p in range(n) if all(owner != p for owner, _ in stalls.values())],
        harbour=list(harbour),
        hands={p: list(cards) for p, cards in (hands or {}).items()},
        deck=list(deck or []) + below[::-1],
        discard={t: int(k) for t, k in enumerate(face_up) if k},
        temple=list(temple),
        kept={p: list(dice) for p, dice in (kept or {}).items()},
        screens=None if screens is None else {p: list(dice) for p, dice in screens.items()},
        money=money,
        fame=[(fame or {}).get(p, 0) for p in range(n)],
        tokens=[(tokens or {}).get(p, 0) for p in range(n)],
        pawns=list(pawns),
        prices=list(prices),
        markers=list(markers),
    )
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
