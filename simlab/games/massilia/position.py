"""Setting up a Massilia position from a readable description (see ``docs/games/massilia.md``).

``position(...)`` plays a normal set-up (the setup stalls on the first free corners, nobody rolls in round
1), then writes the description over it and returns a normal ``MassiliaState`` at the decision asked for.
Names are the game's own words: goods ``pink orange purple beige``, dice ``grey brown black beige``, cards
``jupiter junon …``, pawns ``consul``, ``pink customer`` …, price locations ``temple purple orange pink``.

What is not given keeps the normal set-up, rebalanced so every total still adds up:

- stalls not given: the setup stalls and their cubes; given: exactly those stalls are on the market. Every
  seat needs one (nobody loses their last stall), except the seats named in ``no_stall``: all their tiles
  in reserve, a position play never reaches, for rule tests that keep a seat out of the market (the game's
  invariants are checked on it with that one rule set aside).
- cubes: the harbours keep the set-up's cubes, the bag holds the rest; cubes put on stalls come from the
  bag (then from the harbour when the bag runs out). Give ``harbour`` or ``bag`` (or both) to fix them.
- cards: cards put in hands, on top of the deck or on the discard pile come out of the deck; the rest of
  the deck keeps the set-up's shuffled order. ``discard="rest"`` puts every card not placed otherwise on
  the discard pile (the deck is then exactly ``deck``).
- dice: the temple keeps the set-up's dice unless ``temple`` is given; the dice nobody holds go behind
  the screens one per seat in turn, unless ``screens`` is given (then every die must be placed).
- tokens: the supply holds what the seats do not; money, fame, pawns, prices and markers keep the set-up.

``force(state, ...)`` fixes the next chance outcomes by value: die faces (the temple dice rolled at a
round's start, in colour order, and the dice a player rolls) and the colours of the next cubes drawn
from the bag (refill at a round's start, setup cubes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from simlab.core import position as P
from simlab.core.errors import PositionError
from simlab.games.massilia import data
from simlab.games.massilia import rules as R
from simlab.games.massilia.config import MassiliaConfig
from simlab.games.massilia.game import GAME, MassiliaState

#: the decisions a position can be set up at (names as ``state.decision_name()`` shows them)
PHASES = {"turn": R.PH_MAIN, "dice to roll": R.PH_ROLL}

Dice = Iterable[tuple[Any, int]] | Mapping[Any, Iterable[int]]


def _dice(field: str, value: Dice) -> np.ndarray:
    """Dice by colour and face (4 x 6) from (colour, face) pairs or ``{colour: [faces]}``."""
    out = np.zeros((4, 6), dtype=np.int64)
    pairs = [(c, v) for c, faces in value.items() for v in faces] if isinstance(value, Mapping) else list(value or [])
    for item in pairs:
        if not (isinstance(item, Sequence) and len(item) == 2):
            raise PositionError(f"{field}: expected (colour, face) pairs, got {item!r}")
        colour, face = item
        d = P.resolve(f"{field} die colour", colour, data.DICE)
        out[d, P.check_count(f"{field} {data.DICE[d]} die face", face, most=6, least=1) - 1] += 1
    return out


def _set_up(config: MassiliaConfig, seed: int) -> MassiliaState:
    state = GAME.new_state(config, seed)
    while state.record[0]["phase"] == R.PH_SETUP:
        state.apply(state.legal_actions()[0])  # setup stalls on the first free corners
    while state.record[0]["phase"] != R.PH_MAIN:  # nobody rolls a die in round 1
        state.apply(R.A_COUNT)
    return state


def _market(
    setup: P.Setup,
    *,
    stalls: Mapping[int, tuple[int, Any]] | None = None,
    no_stall: Iterable[int] = (),
    harbour: Any = None,
    bag: Any = None,
) -> None:
    """stalls: ``{space: (owner, cubes)}``, cubes as ``{goods: n}``, a list of goods names or 4 counts;
    no_stall: seats with no stall on the market; harbour / bag: cubes by goods."""
    s, config, n = setup.s, setup.config, setup.n
    spaces = config.market_spaces
    setup.absent = absent = {P.check_seat("no_stall", p, n) for p in no_stall}
    if absent and stalls is None:
        raise PositionError("no_stall: give stalls too (the set-up puts a stall of every seat on the market)")
    if stalls is not None:
        if not isinstance(stalls, Mapping):
            raise PositionError("stalls: expected {space: (owner, cubes)}")
        s["stall_owner"][:] = -1
        s["cubes"][:] = 0
        for sp, spec in stalls.items():
            if isinstance(sp, bool) or not isinstance(sp, (int, np.integer)) or not 0 <= sp < spaces:
                raise PositionError(f"stalls: space {sp!r} is not one of 0..{spaces - 1}")
            if not (isinstance(spec, Sequence) and len(spec) == 2):
                raise PositionError(f"stalls[{sp}]: expected (owner, cubes), got {spec!r}")
            owner, goods = spec
            s["stall_owner"][sp] = P.check_seat(f"stalls[{sp}] owner", owner, n)
            cubes = P.count_vector(f"stalls[{sp}] cubes", goods, data.GOODS)
            if cubes.sum() > config.stall_capacity:
                raise PositionError(
                    f"stalls[{sp}]: {int(cubes.sum())} cubes on a stall that holds {config.stall_capacity}"
                )
            s["cubes"][sp, :] = cubes
        for p in range(n):
            on_market = int((s["stall_owner"] == p).sum())
            if on_market == 0 and p not in absent:
                raise PositionError(
                    f"stalls: seat {p} has no stall on the market (nobody loses their last stall); name the seat "
                    "in no_stall for a rule test that keeps it out of the market"
                )
            if on_market > 0 and p in absent:
                raise PositionError(f"no_stall: seat {p} has {on_market} stall(s) in stalls")
            if on_market > config.stalls_per_player:
                raise PositionError(
                    f"stalls: seat {p} has {on_market} stalls on the market, more than its {config.stalls_per_player}"
                )
            s["reserve"][p] = config.stalls_per_player - on_market
    total = np.array(config.cubes_total)
    on_stalls = s["cubes"].sum(0)
    if harbour is not None:
        s["harbour"][:] = P.count_vector("harbour", harbour, data.GOODS)
    if bag is not None:
        s["bag"][:] = P.count_vector("bag", bag, data.GOODS)
    if harbour is not None and bag is not None:
        for g, goods in enumerate(data.GOODS):
            have = int(on_stalls[g] + s["harbour"][g] + s["bag"][g])
            if have != total[g]:
                raise PositionError(
                    f"cubes: {goods}: {int(on_stalls[g])} on stalls + {int(s['harbour'][g])} in the harbour + "
                    f"{int(s['bag'][g])} in the bag = {have}, the game has {int(total[g])}"
                )
    elif bag is not None:
        s["harbour"][:] = total - on_stalls - s["bag"]
        _enough("bag", total, on_stalls + s["bag"])
    else:
        if harbour is None:  # the set-up's harbours, less what the stalls need beyond the bag
            s["harbour"][:] = np.minimum(s["harbour"], total - on_stalls)
        _enough("harbour", total, on_stalls + s["harbour"])
        s["bag"][:] = total - on_stalls - s["harbour"]


def _cards(
    setup: P.Setup, *, hands: Mapping[int, Any] | None = None, deck: Sequence[Any] | None = None, discard: Any = None
) -> None:
    """hands: ``{seat: [card names]}``; deck: the top of the deck, top card first; discard: cards
    (``{card: n}`` or names) or ``"rest"``."""
    s, config, n = setup.s, setup.config, setup.n
    held = np.zeros((n, R.NCARDS), dtype=np.int64)
    for p, cards in P.seat_map("hands", hands, n).items():
        held[p] = P.count_vector(f"hands[{p}]", cards, data.CARDS, items_only=True)
        if held[p].sum() > config.hand_limit:
            raise PositionError(f"hands[{p}]: {int(held[p].sum())} cards, the hand limit is {config.hand_limit}")
    top = [P.resolve("deck", t, data.CARDS) for t in (deck or [])]
    rest_to_discard = isinstance(discard, str) and discard == "rest"
    face_up = np.zeros(R.NCARDS, dtype=np.int64)
    if discard is not None and not rest_to_discard:
        face_up = P.count_vector("discard", discard, data.CARDS, items_only=True)
    used = held.sum(0) + np.bincount(np.array(top, dtype=np.int64), minlength=R.NCARDS) + face_up
    copies = np.array(config.card_copies)
    for t, card in enumerate(data.CARDS):
        if used[t] > copies[t]:
            raise PositionError(
                f"cards: {int(used[t])} {card} cards placed (hands {int(held[:, t].sum())}, deck "
                f"{top.count(t)}, discard {int(face_up[t])}), the game has {int(copies[t])}"
            )
    rest = copies - used
    if rest_to_discard:
        face_up = face_up + rest
        below: list[int] = []
    else:  # the set-up's deck order, less the cards placed elsewhere
        below, left = [], rest.copy()
        for t in s["deck"][: int(s["deck_n"])].tolist():
            if left[t] > 0:
                below.append(t)
                left[t] -= 1
    pile = below + list(reversed(top))  # the deck is drawn from its end
    s["hand"][:] = 0
    s["hand"][:n] = held
    s["hand_n"][:] = s["hand"].sum(1)
    s["discard"][:] = face_up
    s["deck"][:] = 0
    s["deck"][: len(pile)] = pile
    s["deck_n"] = len(pile)
    s["drawn_n"] = 0
    s["drawn_i"] = 0


def _dice_on_table(
    setup: P.Setup, *, temple: Dice | None = None, kept: Mapping[int, Dice] | None = None, screens: Any = None
) -> None:
    """temple: ``[(die colour, face), …]`` or ``{colour: [faces]}``; kept: ``{seat: dice}`` kept in front of
    a player; screens: ``{seat: {die colour: n}}`` behind the screens."""
    s, n = setup.s, setup.n
    if temple is not None:
        s["temple"][:] = _dice("temple", temple)
    s["kept"][:] = 0
    for p, dice in P.seat_map("kept", kept, n).items():
        s["kept"][p] = _dice(f"kept[{p}]", dice)
    s["screen"][:] = 0
    for p, dice in P.seat_map("screens", screens, n).items():
        s["screen"][p] = P.count_vector(f"screens[{p}]", dice, data.DICE)
    for d, colour in enumerate(data.DICE):
        placed = int(s["temple"][d].sum() + s["kept"][:n, d].sum() + s["screen"][:n, d].sum())
        free = n + 1 - placed
        if free < 0:
            raise PositionError(
                f"dice: {placed} {colour} dice placed (temple {int(s['temple'][d].sum())}, kept "
                f"{int(s['kept'][:n, d].sum())}, screens {int(s['screen'][:n, d].sum())}), the game has {n + 1}"
            )
        if screens is not None and free > 0:
            raise PositionError(f"screens: {free} {colour} dice are placed nowhere (temple, kept, screens)")
        for k in range(free):  # one per seat, round robin
            s["screen"][k % n, d] += 1


def _players(setup: P.Setup, *, money: Any = None, fame: Any = None, tokens: Any = None) -> None:
    """money / fame / tokens: one number, one per seat, or ``{seat: n}``; the supply holds the other tokens."""
    s, config, n = setup.s, setup.config, setup.n
    s["money"][:n] = P.per_seat("money", money, n, s["money"][:n])
    s["fame"][:n] = P.per_seat("fame", fame, n, s["fame"][:n])
    s["tokens"][:n] = P.per_seat("tokens", tokens, n, s["tokens"][:n])
    supply = config.tokens_per_player * n - int(s["tokens"][:n].sum())
    if supply < 0:
        raise PositionError(
            f"tokens: the seats hold {int(s['tokens'][:n].sum())} penalty tokens, the game has "
            f"{config.tokens_per_player * n} with {n} players"
        )
    s["supply"] = supply


def _board(setup: P.Setup, *, pawns: Any = None, prices: Any = None, markers: Any = None) -> None:
    """pawns: ``{pawn: space}`` or 4 spaces; prices: ``{location: value}`` or 4 values (a permutation of the
    price tiles); markers: ``{goods: fame}`` for pink, orange, purple."""
    s, config = setup.s, setup.config
    spaces = config.market_spaces
    if pawns is not None:
        where = _by_name("pawns", pawns, data.PAWNS, s["pawn"])
        for i, sp in enumerate(where):
            P.check_count(f"pawns[{data.PAWNS[i]}]", sp, most=spaces - 1)
        s["pawn"][:] = where
    if prices is not None:
        values = _by_name("prices", prices, data.PRICE_LOCATIONS, s["price"])
        if sorted(values) != sorted(config.price_tiles):
            raise PositionError(
                f"prices: {values} are not the price tiles {sorted(config.price_tiles)} in some order "
                f"({', '.join(data.PRICE_LOCATIONS)})"
            )
        s["price"][:] = values
    s["price_mod"][:] = 0
    if markers is not None:
        values = _by_name("markers", markers, data.GOODS[:3], s["marker"])
        for g, v in enumerate(values):
            P.check_count(f"markers[{data.GOODS[g]}]", v, most=config.marker_max, least=config.marker_min)
        s["marker"][:] = values


def _decision(setup: P.Setup, *, round: int = 1, order: Sequence[int] | None = None) -> None:
    """round: the round number; order: the turn order (default seat order); the phase: ``"turn"`` (the action
    phase) or ``"dice to roll"`` (seat's roll in phase 2)."""
    s, config, n, seat = setup.s, setup.config, setup.n, setup.seat
    s["round_no"] = P.check_count("round", round, most=config.rounds, least=1)
    turn_order = list(range(n)) if order is None else [P.check_seat("order", p, n) for p in order]
    if sorted(turn_order) != list(range(n)):
        raise PositionError(f"order: {list(order or [])} is not an order of the seats 0..{n - 1}")
    s["order"][:n] = turn_order
    s["order_pos"] = turn_order.index(seat)
    s["passed"][:] = 0
    s["n_passed"] = 0
    s["tile_of"][:] = 0
    s["last_passer"] = -1
    s["act_n"] = 0
    s["rolled_n"] = 0
    s["rolled_i"] = 0
    s["cur"] = seat
    s["active"] = seat
    s["phase"] = PHASES[setup.phase]
    if s["phase"] == R.PH_ROLL:
        colours = [d for d in range(4) if s["screen"][seat, d] > 0]
        if not colours:
            raise PositionError(f"phase: seat {seat} has no dice behind its screen to roll")
        s["roll_count"][:] = 0
        s["roll_colour"] = colours[0]


def _check_setup(setup: P.Setup) -> None:
    _check(setup.state, getattr(setup, "absent", set()))


BUILDER = P.Builder(
    GAME,
    phases=tuple(PHASES),
    steps=(_market, _cards, _dice_on_table, _players, _board, _decision),
    start=lambda config, seed: _set_up(config, seed),
    check=_check_setup,
)


def position(seat: int = 0, **description: Any) -> MassiliaState:
    """A Massilia state at ``seat``'s decision, built from the description (``simlab.core.position.build``;
    components: stalls, no_stall, harbour, bag, hands, deck, discard, temple, kept, screens, money, fame,
    tokens, pawns, prices, markers, round, order; see the module docstring)."""
    return P.build(BUILDER, seat, **description)


def _check(state: MassiliaState, absent: set[int]) -> None:
    """The game's invariants on the position; a seat in ``absent`` (no_stall) is checked as if one of its
    reserve tiles stood on a free space: the one invariant it breaks on purpose is "nobody loses their
    last stall", every other one (cubes, cards, dice, tokens, tiles, bounds) still holds."""
    if not absent:
        P.check_position(state)
        return
    probe = state.clone()
    s = probe.record[0]
    free = [int(sp) for sp in np.flatnonzero(s["stall_owner"][: state.config.market_spaces] < 0)]
    if len(free) < len(absent):
        raise PositionError(f"no_stall: {len(absent)} seats without a stall but {len(free)} free spaces to check")
    for sp, p in zip(free, sorted(absent), strict=False):
        s["stall_owner"][sp] = p
        s["reserve"][p] -= 1
    P.check_position(probe)


def _enough(field: str, total: np.ndarray, used: np.ndarray) -> None:
    for g, goods in enumerate(data.GOODS):
        if used[g] > total[g]:
            raise PositionError(
                f"{field}: the description uses {int(used[g])} {goods} cubes, the game has {int(total[g])}"
            )


def _by_name(field: str, value: Any, names: Sequence[str], current: np.ndarray) -> list[int]:
    """Values by name from ``{name: value}`` (others keep ``current``) or a full sequence."""
    out = [int(x) for x in current]
    if isinstance(value, Mapping):
        for k, v in value.items():
            out[P.resolve(field, k, names)] = P.check_count(f"{field}[{k}]", v)
        return out
    items = list(value)
    if len(items) != len(names):
        raise PositionError(f"{field}: give {{name: value}} or {len(names)} values ({', '.join(names)})")
    return [P.check_count(f"{field}[{names[i]}]", v) for i, v in enumerate(items)]


def force(state: MassiliaState, *outcomes: Any, **kinds: Iterable[Any]) -> MassiliaState:
    """Fix the next chance outcomes, in the order written: die faces (ints 1..6) and the colours of
    cubes drawn from the bag (goods names), e.g. ``force(st, dice=[3, 5])``, ``force(st, cubes=["pink"])``
    or ``force(st, "pink", "orange", 6, 6)``. Keywords: ``dice``, ``cubes``."""
    values: list[int] = []
    items: list[tuple[str, Any]] = [("force", x) for x in outcomes]
    for kind, xs in kinds.items():
        if kind not in ("dice", "cubes"):
            raise PositionError(f"force: unknown outcome kind {kind!r}; allowed: dice, cubes")
        items.extend((kind, x) for x in ([xs] if isinstance(xs, (int, str)) else xs))
    bag = state.record[0]["bag"].astype(np.int64).copy()
    for kind, x in items:
        if isinstance(x, str) and kind in ("force", "cubes"):
            g = P.resolve(f"{kind} cube colour", x, data.GOODS)
            if bag[g] <= 0:
                raise PositionError(f"{kind}: no {data.GOODS[g]} cube left in the bag to draw")
            bag[g] -= 1
            values.append(g)
        elif kind in ("force", "dice") and not isinstance(x, str):
            values.append(P.check_count(f"{kind} die face", x, most=6, least=1))
        else:
            raise PositionError(f"{kind}: {x!r} is not a {'die face 1..6' if kind == 'dice' else 'cube colour'}")
    P.force(state, values)
    return state
