"""Setting up a Pantheon position from a readable description (see ``docs/games/pantheon.md``).

``position(...)`` starts a normal set-up (``GAME.new_state``), clears what the description may give and
writes it: the era, its nation and the next one, the start player, whose action it is, hands, the deck and
the discard pile, sacrifice tiles, owned, face-up, stacked and boxed gods, demigods, pieces on the board and
in stock, loot on hexes, bonus tiles, points by source. It returns a normal ``PantheonState`` at ``seat``'s
action decision (or, with ``phase="gallia"``, at ``seat``'s Gallia choice of the era's set-up).

What is not given is rebalanced so every total still adds up:

- nations: ``next_nation`` is the top of the nation deck (the nation the next era reveals; not the era's
  own, not in the last era); the rest shuffled. ``start_player`` defaults to ``seat``.
- cards: hands not given are empty; ``discard`` (``{card: n}``) is the discard pile (default empty);
  ``deck`` (names, top first) is the whole deck, and then the cards in no hand, pile or display are
  discarded (with ``discard`` given too, none may be left over); otherwise every other card is in the deck,
  shuffled by the seed, the display dealt from it and ``deck_top`` (names, the first drawn first) laid on
  top. The special money stack is full (``special`` gives its cards, top last).
- gods: ``face_up`` not given: players + 1 random tiles (``[]``: none); ``god_box`` tiles are boxed;
  ``god_stack`` (top first) is the whole stack, and then the tiles not owned, face up or stacked are boxed
  (with ``god_box`` given too, none may be left over); otherwise the tiles not owned, face up or boxed are
  in the stack, shuffled (``god_stack_top`` puts tiles on top, the first given is the top). A god is named
  by its god (``"Stonkus"``: the first such free tile), by its tile index, or by its requirement
  (``(2, 2, 2, 1)``: the first tile printed so; ``("Vinthrad", 4, 1)``: that god's).
- demigods: owned and face-up values given come out of the stack; the stack keeps low values on top.
- loot: ``{hex: type}`` on the board (not given: one random tile per symbol space in use, as the set-up
  places them; ``{}``: none), the rest in the bag. An era ends when its last loot tile or last face-up god
  *leaves* the board, so with ``loot={}`` the next god action ends it, with ``face_up=[]`` the next loot tile
  taken; with both empty only ``era_turn_limit`` does.
- bonus tiles: ``bonus={seat: type}`` is the seat's tile, resolved before era 1 (a steps tile kept, its
  steps in every move; any other boxed: its effect is whatever else the description gives); the rest boxed.
- pieces: ``{seat: {"feet": [hex, ...], "columns": [hex, ...]}}``; stock: ``{seat: (feet, columns)}``
  (default the config's start stock); the general supply holds the rest.
- points: ``{seat: n}`` is the seat's score, its points above the config's ``start_points`` booked to the
  gods' era points; ``{seat: {source: n}}`` books them to those sources (``facts.POINT_SOURCES``: gods,
  era_end, demigods, columns, pietalte), the score being the start points plus their sum. The facts
  (``f_*``) count from this position on: the set-up's own (its bonus deal, its draws) are cleared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from simlab.core import position as P
from simlab.core.errors import PositionError
from simlab.games.pantheon import data as D
from simlab.games.pantheon import rules as R
from simlab.games.pantheon.facts import POINT_SOURCES
from simlab.games.pantheon.game import CARD_NAMES, GAME, PantheonState

PHASES = ("action", "gallia")


def _god_tile(field: str, value: Any, cf: np.void, free: list[int]) -> int:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        t = int(value)
        if t not in free:
            raise PositionError(f"{field}: god tile {t} is not available (0..39, each tile once)")
        return t
    if isinstance(value, (tuple, list)):
        god = -1
        if value and isinstance(value[0], str):
            god, value = P.resolve(field, value[0], D.GODS), value[1:]
        want = [int(x) for x in value]
        for t in free:
            groups = [int(x) for x in cf["tile_req"][t][: int(cf["tile_groups"][t])]]
            if groups == want and god in (-1, int(cf["tile_god"][t])):
                return t
        raise PositionError(
            f"{field}: no free god tile is printed {want}" + (f" for {D.GODS[god]}" if god >= 0 else "")
        )
    g = P.resolve(field, value, D.GODS)
    for t in free:
        if int(cf["tile_god"][t]) == g:
            return t
    raise PositionError(f"{field}: no free {D.GODS[g]} tile left")


def _take(field: str, cards: np.ndarray, rest: np.ndarray, where: str) -> None:
    """Take ``cards`` (counts by kind) out of ``rest``, refusing what the game does not have left."""
    short = cards > rest
    if np.any(short):
        k = int(np.flatnonzero(short)[0])
        raise PositionError(
            f"{field}: {int(cards[k])} {CARD_NAMES[k]} card(s) for {where}, but only {int(rest[k])} are left"
            " after the hands (and what is given before it)"
        )
    rest -= cards


def _card_list(field: str, cards: Sequence[Any]) -> list[int]:
    if isinstance(cards, (str, Mapping)):
        raise PositionError(f"{field}: expected a list of card names (top first), got {cards!r}")
    return [P.resolve(f"{field}[{i}]", c, CARD_NAMES) for i, c in enumerate(cards)]


def _deal_cards(s, config, rng, rest, deck, deck_top, discard) -> None:
    """The display, the discard pile and the deck from the cards not in hands (``rest``, counts by kind).

    ``discard`` given: those cards. ``deck`` given (top first): exactly that deck, and the rest of the cards is
    discarded (with ``discard`` also given, none may be left over). Otherwise the rest is the deck, shuffled,
    the display dealt from its top, and ``deck_top`` laid on top of it (the first given drawn first)."""
    rest = rest.copy()
    s["discard"][:] = 0
    if discard is not None:
        pile = P.count_vector("discard", discard, CARD_NAMES)
        _take("discard", pile, rest, "the discard pile")
        s["discard"][:] = pile
    top = _card_list("deck_top", deck_top)
    if deck is not None:
        if top:
            raise PositionError("deck_top: give either deck (the whole deck) or deck_top")
        order = _card_list("deck", deck)
        _take("deck", np.bincount(order, minlength=R.NCARD), rest, "the deck")
        shuffled = np.repeat(np.arange(R.NCARD), rest).astype(np.int32)
        rng.shuffle(shuffled)
        display = [int(x) for x in shuffled[::-1][: config.display_cards]]  # dealt from the rest
        _take("deck", np.bincount(display, minlength=R.NCARD), rest, "the display")
        if discard is not None and rest.sum():
            k = int(np.flatnonzero(rest)[0])
            raise PositionError(
                f"deck/discard: {int(rest.sum())} card(s) (e.g. {CARD_NAMES[k]}) are in neither; give them to a"
                " hand, the deck or the discard pile (or leave discard out to discard the rest)"
            )
        s["discard"][:] += rest
        cards = order[::-1]  # the top is the end of the array
    else:
        _take("deck_top", np.bincount(top, minlength=R.NCARD), rest, "the top of the deck")
        shuffled = np.repeat(np.arange(R.NCARD), rest).astype(np.int32)
        rng.shuffle(shuffled)
        display = [int(x) for x in shuffled[::-1][: config.display_cards]]
        cards = [int(x) for x in shuffled[: len(shuffled) - len(display)]] + top[::-1]
    s["display"][:] = -1
    s["display"][: len(display)] = display
    s["deck"][:] = 0
    s["deck"][: len(cards)] = cards
    s["deck_n"] = len(cards)


def _book_points(s, config, points) -> None:
    """Points by seat, each booked to its source so start points + points by source = score.

    ``{seat: n}`` (or one number, or one per seat): the score n, its points above the start points booked
    to the gods' era points; ``{seat: {source: n}}``: booked to those sources (``facts.POINT_SOURCES``), the
    score is the start points plus their sum."""
    n = config.players
    start = [int(x) for x in config.start_points[:n]]
    booked = np.zeros((n, R.NPSRC), np.int64)
    if isinstance(points, Mapping) and any(isinstance(v, Mapping) for v in points.values()):
        for p, v in P.seat_map("points", points, n).items():
            if isinstance(v, Mapping):
                booked[p] = P.count_vector(f"points[{p}]", v, POINT_SOURCES)
            else:
                booked[p, R.P_GODS] = _above_start(p, P.check_count(f"points[{p}]", v), start[p])
    else:
        for p, v in enumerate(P.per_seat("points", points, n, start)):
            booked[p, R.P_GODS] = _above_start(p, v, start[p])
    s["f_points_src"][:n] = booked
    s["points"][:n] = np.asarray(start) + booked.sum(axis=1)
    s["score"][:n] = s["points"][:n]


def _above_start(p: int, score: int, start: int) -> int:
    if score < start:
        raise PositionError(
            f"points[{p}]: {score} is below the seat's start points {start} (config start_points); points"
            " are only gained"
        )
    return score - start


def _era(
    setup: P.Setup, *, era: int = 1, nation: Any = None, next_nation: Any = None, start_player: int | None = None
) -> None:
    """The era, its nation (the temple on its start hex), the top of the nation deck, the start player; starts
    the generator every later step draws from, in step order."""
    s, config, n = setup.s, setup.config, setup.n
    seat, cf = setup.seat, setup.state.cfg[0]
    era = P.check_count("era", era, most=config.eras, least=1)
    setup.rng = rng = np.random.default_rng([setup.seed, 77])
    if nation is not None:
        nat = P.resolve("nation", nation, D.NATIONS)
    elif int(s["nation"]) >= 0:
        nat = int(s["nation"])
    else:  # the set-up still waits for a bonus choice: the first nation of the deck
        nat = int(s["nation_deck"][int(s["nation_n"]) - 1])
    s["era"] = era
    s["nation"] = nat
    s["nations_played"][:] = 0
    s["nations_played"][era - 1] = nat
    rest_nations = [x for x in range(R.NNAT) if x != nat]
    rng.shuffle(rest_nations)
    s["nation_n"] = config.nations_in_deck - era
    if next_nation is not None:  # the top of the nation deck: the nation the next era reveals
        nxt = P.resolve("next_nation", next_nation, D.NATIONS)
        if era >= config.eras:
            raise PositionError(f"next_nation: era {era} is the last of {config.eras}; no nation comes next")
        if nxt == nat:
            raise PositionError(f"next_nation: {D.NATIONS[nxt]} is this era's nation; give another")
        rest_nations.remove(nxt)
        rest_nations.insert(int(s["nation_n"]) - 1, nxt)
    s["nation_deck"][:] = [*rest_nations, nat]
    s["temple"] = int(cf["start_hex"][nat]) if setup.phase == "action" else -1
    s["start_player"] = seat if start_player is None else P.check_seat("start_player", start_player, n)
    s["active"] = seat
    s["era_over"] = 0
    s["era_ender"] = -1
    setup.nation = nat


def _cards(
    setup: P.Setup,
    *,
    hands: Mapping[int, Any] | None = None,
    special: Sequence[int] | None = None,
    deck: Sequence[Any] | None = None,
    deck_top: Sequence[Any] = (),
    discard: Any = None,
) -> None:
    """hands: ``{seat: cards}``; special: the special money stack (top last); deck (the whole deck, top
    first) or deck_top (laid on a shuffled deck); discard: ``{card: n}``."""
    s, config, n = setup.s, setup.config, setup.n
    rng = setup.rng
    total = np.array([config.movement_cards, *config.sacrifice_cards, config.money_cards, 0, 0, 0, 0], np.int64)
    s["hand"][:] = 0
    for p, cards in P.seat_map("hands", hands, n).items():
        s["hand"][p] = P.count_vector(f"hands[{p}]", cards, CARD_NAMES)
    if special is not None:
        specials = [int(v) for v in special]
    else:  # the full stack (5 at the bottom, a 2 on top) less the special cards given to hands
        held = s["hand"].sum(axis=0)
        specials = []
        for v in (5, 4, 3, 2):
            specials += [v] * max(0, config.special_money[v - 2] - int(held[R.C_MONEY1 + v - 1]))
    all_special = np.array([0] * 6 + list(config.special_money), np.int64)
    in_stack = np.zeros(R.NCARD, np.int64)
    for v in specials:
        if not 2 <= int(v) <= 5:
            raise PositionError(f"special: {v} is not a special money value (2..5)")
        in_stack[R.C_MONEY1 + int(v) - 1] += 1
    total = total + all_special - in_stack
    rest = total - s["hand"].sum(axis=0)
    if np.any(rest < 0):
        k = int(np.flatnonzero(rest < 0)[0])
        raise PositionError(f"hands: more {CARD_NAMES[k]} cards than the game has (outside the special stack)")
    _deal_cards(s, config, rng, rest, deck, deck_top, discard)
    s["special"][:] = 0
    s["special"][: len(specials)] = specials
    s["special_n"] = len(specials)


def _tiles(setup: P.Setup, *, tiles: Mapping[int, Mapping[Any, int]] | None = None) -> None:
    """tiles: ``{seat: {sacrifice kind: level}}``."""
    s, n = setup.s, setup.n
    s["level"][:] = 0
    s["pile_used"][:] = 0
    for p, lv in P.seat_map("tiles", tiles, n).items():
        for kind, level in dict(lv).items():
            k = P.resolve(f"tiles[{p}]", kind, D.SACRIFICE_KINDS)
            s["level"][p, k] = P.check_count(f"tiles[{p}][{kind}]", level, most=4)
            if level:
                s["pile_used"][k, 0 if level <= 2 else 1] += 1


def _gods(
    setup: P.Setup,
    *,
    gods: Mapping[int, Sequence[Any]] | None = None,
    face_up: Sequence[Any] | None = None,
    god_stack_top: Sequence[Any] = (),
    god_stack: Sequence[Any] | None = None,
    god_box: Sequence[Any] | None = None,
) -> None:
    """gods: ``{seat: [god]}`` owned; face_up; god_stack (whole, top first) or god_stack_top; god_box."""
    s, config, n = setup.s, setup.config, setup.n
    cf, rng = setup.state.cfg[0], setup.rng
    free = list(range(R.NGOD))
    s["god_loc"][:] = R.L_STACK
    s["god_owner"][:] = -1
    s["god_face"][:] = -1
    for p, names in P.seat_map("gods", gods, n).items():
        for i, g in enumerate(names):
            t = _god_tile(f"gods[{p}][{i}]", g, cf, free)
            free.remove(t)
            s["god_loc"][t] = R.L_OWNED
            s["god_owner"][t] = p
    if face_up is None:  # as the era's set-up reveals them: players + 1 random tiles
        face_up = [int(t) for t in rng.permutation(free)[: n + config.gods_per_era_extra]]
    for i, g in enumerate(face_up):
        if i >= R.MAX_FACE:
            raise PositionError(f"face_up: at most {R.MAX_FACE} face-up gods")
        t = _god_tile(f"face_up[{i}]", g, cf, free)
        free.remove(t)
        s["god_loc"][t] = R.L_FACE
        s["god_face"][i] = t
    boxed = []
    for i, g in enumerate(god_box or ()):
        t = _god_tile(f"god_box[{i}]", g, cf, free)
        free.remove(t)
        boxed.append(t)
    if god_stack is not None:  # the whole stack, top first; the rest of the tiles is boxed
        if god_stack_top:
            raise PositionError("god_stack_top: give either god_stack (the whole stack) or god_stack_top")
        top = []
        for i, g in enumerate(god_stack):
            t = _god_tile(f"god_stack[{i}]", g, cf, free)
            free.remove(t)
            top.append(t)
        if free and god_box is not None:
            raise PositionError(
                f"god_stack/god_box: {len(free)} god tile(s) are in neither; give them to the stack, the box,"
                " a seat or the display (or leave god_box out to box the rest)"
            )
        boxed += free
        free = []
    else:
        top = []
        for i, g in enumerate(god_stack_top):
            t = _god_tile(f"god_stack_top[{i}]", g, cf, free)
            free.remove(t)
            top.append(t)
    for t in boxed:
        s["god_loc"][t] = R.L_BOX
    rng.shuffle(free)
    stack = free + top[::-1]
    s["god_stack"][:] = -1
    s["god_stack"][: len(stack)] = stack
    s["god_n"] = len(stack)


def _demigods(
    setup: P.Setup, *, demigods: Mapping[int, Sequence[int]] | None = None, demigods_up: Sequence[int] = ()
) -> None:
    """demigods: ``{seat: [value]}`` owned; demigods_up: the face-up values; the stack keeps the rest."""
    s, config, n = setup.s, setup.config, setup.n
    cf, rng = setup.state.cfg[0], setup.rng
    pool = [int(v) for v in cf["demigod_values"]]
    s["demi_own"][:] = 0
    for p, vals in P.seat_map("demigods", demigods, n).items():
        for v in vals:
            if v not in pool:
                raise PositionError(f"demigods[{p}]: no demigod of value {v} left")
            pool.remove(v)
            s["demi_own"][p, v] += 1
    s["demi_up"][:] = 0
    for i, v in enumerate(demigods_up):
        if v not in pool:
            raise PositionError(f"demigods_up[{i}]: no demigod of value {v} left")
        pool.remove(v)
        s["demi_up"][i] = v
    s["demi_up_n"] = len(demigods_up)
    low = [v for v in pool if v <= config.demigods_low_values]
    high = [v for v in pool if v > config.demigods_low_values]
    rng.shuffle(low)
    rng.shuffle(high)
    s["demi_down"][:] = 0
    s["demi_down"][: len(pool)] = high + low
    s["demi_down_n"] = len(pool)
    s["demi_box"][:] = 0


def _loot(setup: P.Setup, *, loot: Mapping[int, Any] | None = None) -> None:
    """loot: ``{hex: type}`` on the board (not given: as the era's set-up places them), the rest in the bag."""
    s, config, n = setup.s, setup.config, setup.n
    cf, rng = setup.state.cfg[0], setup.rng
    nh = int(cf["n_hex"])
    lt = D.loot_types(config.loot_table or None)
    s["loot_hex"][:] = -1
    s["bag"][:] = lt.loot
    s["loot_box"][:] = 0
    s["loot_kept"][:] = 0
    if loot is None:  # as the era's set-up places them: one per symbol space in use, drawn from the bag
        bag = np.repeat(np.arange(R.NLOOT), lt.loot)
        rng.shuffle(bag)
        hexes = [
            int(h)
            for h, m in zip(cf["symbols"][setup.nation], cf["symbol_min"][setup.nation], strict=True)
            if h >= 0 and m <= n
        ]
        loot = {h: int(bag[i]) for i, h in enumerate(hexes)}
    for h, t in dict(loot).items():
        h = P.check_count(f"loot[{h}]", h, most=nh - 1)
        k = P.resolve(f"loot[{h}]", t, D.LOOT_TYPES)
        if s["bag"][k] == 0:
            raise PositionError(f"loot[{h}]: no {D.LOOT_TYPES[k]} tile left in the bag")
        s["bag"][k] -= 1
        s["loot_hex"][h] = k


def _bonus(setup: P.Setup, *, bonus: Mapping[int, Any] | None = None, steps_tiles: Any = None) -> None:
    """bonus: ``{seat: type}`` resolved before era 1; steps_tiles: +1 steps loot tiles kept per seat."""
    s, config, n = setup.s, setup.config, setup.n
    cf = setup.state.cfg[0]
    lt = D.loot_types(config.loot_table or None)
    s["bonus_pile"][:] = -1
    s["bonus_n"] = 0
    s["bonus_face"][:] = -1
    s["bonus_box"][:] = lt.bonus
    s["bonus_kept"][:] = 0
    s["column_bonus"][:] = 0
    s["steps_bonus"][:] = 0
    s["f_bonus_tile"][:] = -1
    left = lt.bonus.copy()
    for p, t in P.seat_map("bonus", bonus, n).items():  # resolved before era 1: kept (steps) or boxed
        k = P.resolve(f"bonus[{p}]", t, D.LOOT_TYPES)
        if left[k] == 0:
            raise PositionError(f"bonus[{p}]: no {D.LOOT_TYPES[k]} bonus tile left (the game has {lt.bonus[k]})")
        left[k] -= 1
        s["f_bonus_tile"][p] = k
        if int(cf["loot_effect"][k]) == R.E_STEPS:
            s["bonus_box"][k] -= 1
            s["bonus_kept"][p, k] += 1
            s["steps_bonus"][p] += int(cf["loot_amount"][k])
    for p, v in enumerate(P.per_seat("steps_tiles", steps_tiles, n, [0] * n)):
        for _ in range(v):  # a steps tile of +1 each, from the loot bag
            k = D.LOOT_TYPES.index("steps_1")
            if s["bag"][k] == 0:
                raise PositionError("steps_tiles: no steps_1 loot tile left in the bag")
            s["bag"][k] -= 1
            s["loot_kept"][p, k] += 1
            s["steps_bonus"][p] += 1


def _pieces(
    setup: P.Setup,
    *,
    pieces: Mapping[int, Mapping[str, Sequence[int]]] | None = None,
    stock: Mapping[int, Sequence[int]] | None = None,
) -> None:
    """pieces: ``{seat: {"feet": [hex], "columns": [hex]}}``; stock: ``{seat: (feet, columns)}``."""
    s, config, n = setup.s, setup.config, setup.n
    cf = setup.state.cfg[0]
    nh = int(cf["n_hex"])
    s["occ"][:] = -1
    s["occ_col"][:] = 0
    s["virt"][:] = 0
    feet0, cols0 = config.stock()
    given_stock = P.seat_map("stock", stock, n)
    placed = P.seat_map("pieces", pieces, n)
    for p in range(n):
        f, c = given_stock.get(p, (feet0, cols0))
        s["stock_feet"][p] = P.check_count(f"stock[{p}] feet", f, most=config.feet_per_player)
        s["stock_cols"][p] = P.check_count(f"stock[{p}] columns", c, most=config.columns_per_player)
        on = dict(placed.get(p, {}))
        unknown = set(on) - {"feet", "columns"}
        if unknown:
            raise PositionError(f"pieces[{p}]: unknown key(s) {sorted(unknown)}; use 'feet' and 'columns'")
        for key, column in (("feet", 0), ("columns", 1)):
            for h in on.get(key, ()):
                h = P.check_count(f"pieces[{p}][{key}]", h, most=nh - 1)
                if column and not cf["column_space"][h]:
                    raise PositionError(f"pieces[{p}][columns]: hex {h} is not a column space")
                if not column and cf["column_space"][h]:
                    raise PositionError(f"pieces[{p}][feet]: hex {h} is a column space (feet may not stand there)")
                i = 0 if s["occ"][h, 0] < 0 else 1
                if s["occ"][h, i] >= 0 or s["occ"][h, 0] == p:
                    raise PositionError(f"pieces[{p}][{key}]: hex {h} is full or holds a piece of seat {p}")
                s["occ"][h, i] = p
                s["occ_col"][h, i] = column
        board_f = int(np.sum((s["occ"] == p) & (s["occ_col"] == 0)))
        board_c = int(np.sum((s["occ"] == p) & (s["occ_col"] == 1)))
        s["supply_feet"][p] = config.feet_per_player - board_f - int(s["stock_feet"][p])
        s["supply_cols"][p] = config.columns_per_player - board_c - int(s["stock_cols"][p])
        if s["supply_feet"][p] < 0 or s["supply_cols"][p] < 0:
            raise PositionError(f"pieces/stock[{p}]: more than {config.feet_per_player} feet or columns")


def _points(setup: P.Setup, *, points: Any = None) -> None:
    """points: ``{seat: n}`` or ``{seat: {source: n}}``; the facts count from this position on."""
    s, config = setup.s, setup.config
    for f in s.dtype.names:  # the facts count from this position on (the set-up's are not this game's)
        if f.startswith("f_") and f != "f_bonus_tile":
            s[f] = 0
    _book_points(s, config, points)


def _decision(setup: P.Setup) -> None:
    """The seat's action (with its Traitera traits) or, for phase ``gallia``, its Gallia choice."""
    s, seat, cf = setup.s, setup.seat, setup.state.cfg[0]
    s["pend_n"] = 0
    s["pend_bonus"] = 0
    s["jumped"] = -1
    s["sac_left"] = 0
    s["gtile"] = -1
    s["big_foot"] = -1
    s["money_left"] = 0
    s["steps_left"] = 0
    s["cartago"] = 0
    s["step"] = R.S_WAIT
    s["dp"] = seat
    s["cur"] = seat
    if setup.phase == "action":
        s["trait_left"] = sum(
            1
            for t in range(R.NGOD)
            if s["god_loc"][t] == R.L_OWNED and s["god_owner"][t] == seat and cf["tile_god"][t] == D.TRAITERA
        )
        s["phase"] = R.PH_ACTION
    else:
        if setup.nation != D.GALLIA:
            raise PositionError("phase 'gallia' needs nation='Gallia'")
        s["sq"] = 0
        s["phase"] = R.PH_GALLIA


BUILDER = P.Builder(
    GAME,
    phases=PHASES,
    steps=(_era, _cards, _tiles, _gods, _demigods, _loot, _bonus, _pieces, _points, _decision),
)


def position(seat: int = 0, **description: Any) -> PantheonState:
    """A Pantheon state built from the description (``simlab.core.position.build``; see the module docstring
    for the components)."""
    return P.build(BUILDER, seat, **description)


def force(state: PantheonState, loot_types: Sequence[Any]) -> PantheonState:
    """Fix the next loot tiles drawn from the bag, by type name (the only chance drawn by ``draw_counts``)."""
    return P.force(state, [P.resolve("force", t, D.LOOT_TYPES) for t in loot_types])
