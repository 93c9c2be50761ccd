"""Setting up a Merchant of Venus position from a readable description (see docs/games/merchant_of_venus.md).

``position(...)`` starts a normal set-up (shuffled contact cards, purses, missions, the first passenger),
sets every dial to the description (laser at ``dial_high`` unless given), writes what it is given and
returns a normal ``MerchantOfVenusState`` at ``seat``'s decision: ``"start"`` (move or skip),
``"trade"`` (landed where the ship is: contact if the system is undiscovered, then trading, as after a
landing this turn; ``skipped=True`` as after skipping movement), or ``"move"`` (mid-move: the dice are
rolled and assigned, ``mp`` MP are left, ``nav`` is the navigation die's value (0: none); with
``came_from`` the ship has just entered ``at`` from there, without it the ship has not moved yet; the
engine then goes on as after that step: a navigation die takes its exit, no way to spend the MP stops).

Spaces are named as on the board file (``"Galactic Base"``, ``"Southern Comfort"``), cultures and goods
by name (``"Nillis"``, ``"Bionic Perfume"``), systems by board name (``"Colony World"``).

What is not given keeps the normal set-up, rebalanced so every total still adds up:

- ``cultures``: ``{system: culture}`` puts that contact card on that system (swapping the cards); with
  ``discovered`` (systems, or ``{system: seat}`` naming the discoverer; default the start player) the
  system is revealed (its goods on the market, its market stack as rolled, or ``top``, or ``stacks``:
  ``{culture: [token, token, token]}`` the whole stack, the face-up token first, then the ones each market
  shift turns up); ``iou``: ``{culture: credits}`` left on a discovered culture's card (at most its IOU);
- ``cargo``: goods come out of their culture's supply (or market if discovered); more than the culture has
  is an error;
- ``supply``: ``{area culture: {good: n}}`` goods tokens in a culture's off-board supply area, taken like
  cargo (sold goods collect there; market production draws from there);
- ``ports``: ``{seat: [orbital spaces]}`` merchant spaceports (a port no surface city reaches by a green line
  was built from the neutral port three green lines away: that port is bankrupt), ``drills``: ``{seat:
  [asteroid spaces]}`` drill tokens (one per asteroid; ports and drills within the colour's ``tokens_per_colour``);
- ``passengers``: ``{passenger: where}``, where ``"bag"`` (face down), ``"waiting"`` (at its origin),
  ``"delivered"`` or a seat (aboard that ship: its holds count); passengers not given keep the set-up;
- everything else: numbers per seat (one number, a list per seat or ``{seat: n}``).

``force(state, ...)`` fixes the next chance outcomes by value: speed dice, the thrust die, hazard and
Fuzzy Dice dice (1..6), encounter cards and passengers drawn (their index), and the market stack of the
next culture discovered (``stack=["high", "low", "active"]``: the face-up token first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from simlab.core import position as P
from simlab.core.errors import PositionError
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.config import CULTURE_NAMES, DRIVE_NAMES, GOOD_NAMES, MerchantOfVenusConfig
from simlab.games.merchant_of_venus.game import GAME, MerchantOfVenusState

PHASES = ("start", "trade", "move")
TOKENS = ("low", "active", "high")
PASSENGER_PLACES = ("bag", "waiting", "delivered")


def _space(field: str, name: Any, names: Sequence[str]) -> int:
    if isinstance(name, str) and name in names:
        return names.index(name)
    return P.resolve(field, name, names)


def _table(setup: P.Setup, *, first: int = 0, round_no: int = 1) -> None:
    """first: the start player of the round; round_no: the round."""
    s, config, n = setup.s, setup.config, setup.n
    s["first"] = P.check_seat("first", first, n)
    s["round_no"] = P.check_count("round_no", round_no, most=config.rounds, least=1)


def _dials(
    setup: P.Setup,
    *,
    laser: Any = None,
    shield: Any = None,
    pilot: Any = None,
    holds: Any = None,
    drive: Mapping[int, str] | None = None,
) -> None:
    """Each ship's dials (laser at ``dial_high`` unless given) and holds, per seat; drive: ``{seat: drive}``."""
    s, config, n = setup.s, setup.config, setup.n
    s["laser"][:n] = P.per_seat("laser", laser, n, [config.dial_high] * n)
    s["shield"][:n] = P.per_seat("shield", shield, n, [config.dial_low] * n)
    s["pilot"][:n] = P.per_seat("pilot", pilot, n, [1] * n)
    s["holds"][:n] = P.per_seat("holds", holds, n, [config.start_holds] * n)
    for p, d in P.seat_map("drive", drive, n).items():
        s["drive"][p] = P.resolve(f"drive[{p}]", d, DRIVE_NAMES)


def _fame(
    setup: P.Setup,
    *,
    fame_tokens: Any = None,
    infamy: Any = None,
    rewards: Any = None,
    mission_fame_won: Any = None,
    missions_done: Any = None,
    upgrades: Any = None,
    missions: Mapping[int, Sequence[int]] | None = None,
) -> None:
    """Fame and Reward cards per seat; missions: ``{seat: [mission]}`` held (out of the deck)."""
    s, config, n = setup.s, setup.config, setup.n
    for field, value in (
        ("fame_tokens", fame_tokens),
        ("infamy", infamy),
        ("rewards", rewards),
        ("mission_fame_won", mission_fame_won),
        ("missions_done", missions_done),
        ("upgrades", upgrades),
    ):
        s[field][:n] = P.per_seat(field, value, n, s[field][:n])
    s["rewards_left"] = config.reward_cards - int(s["rewards"][:n].sum())
    if s["rewards_left"] < 0:
        raise PositionError(f"rewards: more than the {config.reward_cards} Reward cards")
    for p, held in P.seat_map("missions", missions, n).items():
        s["mission_bag"][: len(config.mission_target)] = 1
        s["mission"][p] = -1
        for k, m in enumerate(held):
            s["mission"][p, k] = P.check_count(f"missions[{p}]", m, most=len(config.mission_target) - 1)
    for p in range(n):  # missions held are out of the deck
        for m in s["mission"][p]:
            if m >= 0:
                s["mission_bag"][m] = 0


def _contacts(
    setup: P.Setup,
    *,
    cultures: Mapping[str, str] | None = None,
    discovered: Sequence[str] | Mapping[str, int] = (),
    top: Mapping[str, str] | None = None,
    stacks: Mapping[str, Sequence[str]] | None = None,
    iou: Mapping[str, int] | None = None,
) -> None:
    """Contact cards on systems, discovered systems, their market stacks and IOUs (see the module docstring)."""
    state, s, config, n = setup.state, setup.s, setup.config, setup.n
    board = R.board_for(config)
    systems = [board["board"].system_names[i] for i in board["board"].market_systems]
    for sys_name, cu_name in (cultures or {}).items():
        sy = P.resolve("cultures", sys_name, systems)
        cu = P.resolve(f"cultures[{sys_name}]", cu_name, CULTURE_NAMES)
        other = int(np.flatnonzero(s["sys_culture"] == cu)[0])
        s["sys_culture"][other], s["sys_culture"][sy] = s["sys_culture"][sy], cu
    found = discovered if isinstance(discovered, Mapping) else {name: int(s["first"]) for name in discovered}
    for sys_name, who in found.items():
        sy = P.resolve("discovered", sys_name, systems)
        who = P.check_seat(f"discovered[{sys_name}]", who, n)
        R.discover(s, state.cfg[0], who, sy)
        s["f_discoveries"][who] -= 1  # found before the position: no discovery of the game's facts
    for cu_name, token in (top or {}).items():
        cu = _discovered_culture("top", cu_name, s)
        t = P.resolve(f"top[{cu_name}]", token, TOKENS)
        k = int(np.flatnonzero(s["stack"][cu] == t)[0])
        s["stack_top"][cu] = k
    for cu_name, order in (stacks or {}).items():
        cu = _discovered_culture("stacks", cu_name, s)
        s["stack"][cu] = _stack_order(f"stacks[{cu_name}]", order)
        s["stack_top"][cu] = 0
    for cu_name, credits_left in (iou or {}).items():
        cu = _discovered_culture("iou", cu_name, s)
        s["iou_left"][cu] = P.check_count(f"iou[{cu_name}]", credits_left, most=config.iou[cu])


def _goods(
    setup: P.Setup,
    *,
    cargo: Mapping[int, Mapping[str, int]] | None = None,
    supply: Mapping[str, Mapping[str, int]] | None = None,
) -> None:
    """cargo: ``{seat: {good: n}}`` aboard; supply: ``{area culture: {good: n}}`` off the board."""
    s, config, n = setup.s, setup.config, setup.n
    for p, goods in P.seat_map("cargo", cargo, n).items():
        for g_name, k in dict(goods).items():
            g = P.resolve(f"cargo[{p}]", g_name, GOOD_NAMES)
            _take_goods(s, config, f"cargo[{p}][{g_name}]", g, P.check_count(f"cargo[{p}][{g_name}]", k))
            s["cargo"][p, g] += k
    for area_name, goods in (supply or {}).items():
        area = P.resolve("supply", area_name, CULTURE_NAMES)
        for g_name, k in dict(goods).items():
            g = P.resolve(f"supply[{area_name}]", g_name, GOOD_NAMES)
            _take_goods(s, config, f"supply[{area_name}][{g_name}]", g, P.check_count(f"supply[{area_name}]", k))
            s["supply"][area, g] += k


def _tokens(
    setup: P.Setup,
    *,
    techs: Mapping[int, Sequence[str]] | None = None,
    ports: Mapping[int, Sequence[Any]] | None = None,
    drills: Mapping[int, Sequence[Any]] | None = None,
) -> None:
    """techs: ``{seat: [tech]}``; ports / drills: ``{seat: [space]}`` within the colour's tokens."""
    state = setup.state
    s, config, n = setup.s, setup.config, setup.n
    board = R.board_for(config)
    names = board["names"]
    tech_names = [t.name for t in GAME_DATA().race_techs]
    for p, held in P.seat_map("techs", techs, n).items():
        for t_name in held:
            kind = P.resolve(f"techs[{p}]", t_name, tech_names)
            free = [
                j
                for j in range(sum(config.race_techs))
                if s["tech_owner"][j] < 0 and config.culture_tech[int(state.cfg[0]["token_culture"][j])] == kind
            ]
            if not free:
                raise PositionError(f"techs[{p}]: no {t_name} token left")
            s["tech_owner"][free[0]] = p
    for p, spaces in P.seat_map("ports", ports, n).items():
        for sp_name in spaces:
            sp = _space(f"ports[{p}]", sp_name, names)
            if not board["board"].orbital[sp] or s["port_owner"][sp] >= 0:
                raise PositionError(f"ports[{p}]: {names[sp]} is not an empty orbital space")
            _bankrupt_builder(s, board, f"ports[{p}]", sp)
            s["port_owner"][sp] = p
            s["ports"][p] += 1
    for p, spaces in P.seat_map("drills", drills, n).items():
        for sp_name in spaces:
            sp = _space(f"drills[{p}]", sp_name, names)
            if board["kind"][sp] != R.K_ASTEROID or s["drill_owner"][sp] >= 0:
                raise PositionError(f"drills[{p}]: {names[sp]} is not an asteroid space without a drill")
            s["drill_owner"][sp] = p
            s["drills"][p] += 1
    for p in range(n):
        if s["ports"][p] + s["drills"][p] > config.tokens_per_colour:
            raise PositionError(
                f"ports/drills[{p}]: {int(s['ports'][p])} ports + {int(s['drills'][p])} drills, more than the "
                f"colour's {config.tokens_per_colour} tokens"
            )


def _passengers(setup: P.Setup, *, passengers: Mapping[int, Any] | None = None) -> None:
    """passengers: ``{passenger: where}`` (``"bag"``, ``"waiting"``, ``"delivered"`` or a seat)."""
    s, config, n = setup.s, setup.config, setup.n
    for i, where in (passengers or {}).items():
        _place_passenger(s, config, i, where, n)


def _ships(
    setup: P.Setup,
    *,
    credits: Any = None,
    at: Mapping[int, Any] | None = None,
    came_from: Mapping[int, Any] | None = None,
) -> None:
    """credits per seat; at / came_from: ``{seat: space}``."""
    s, config, n = setup.s, setup.config, setup.n
    names = R.board_for(config)["names"]
    s["credits"][:n] = P.per_seat("credits", credits, n, s["credits"][:n])
    for p, sp_name in P.seat_map("at", at, n).items():
        s["pos"][p] = _space(f"at[{p}]", sp_name, names)
    for p, sp_name in P.seat_map("came_from", came_from, n).items():
        s["came_from"][p] = _space(f"came_from[{p}]", sp_name, names)


def _decision(setup: P.Setup, *, skipped: bool = False, mp: int | None = None, nav: int = 0) -> None:
    """The seat's turn at ``phase``: skipped (trade), mp / nav (move)."""
    state, s, n, seat = setup.state, setup.s, setup.n, setup.seat
    board = R.board_for(setup.config)
    names = board["names"]
    k = (seat - int(s["first"])) % n
    R.start_turn(s, state.cfg[0], k)
    s["turns"] = 1
    if setup.phase == "move":
        _mid_move(state, seat, mp, nav, seat in dict(setup.given.get("came_from") or {}))
    elif mp is not None or nav:
        raise PositionError(f"mp/nav: only for phase 'move' (the phase is {setup.phase!r})")
    if setup.phase == "trade":
        sp = int(s["pos"][seat])
        if not (board["kind"][sp] in (R.K_CITY, R.K_STATION) or s["port_owner"][sp] >= 0):
            raise PositionError(f"phase 'trade': {names[sp]} is not a city or a port")
        s["skipped_move"] = 1 if skipped else 0
        s["steps"] = 0 if skipped else 1
        R.begin_trade(s, state.cfg[0])


BUILDER = P.Builder(
    GAME,
    phases=PHASES,
    steps=(_table, _dials, _fame, _contacts, _goods, _tokens, _passengers, _ships, _decision),
)


def position(seat: int = 0, **description: Any) -> MerchantOfVenusState:
    """A state at ``seat``'s decision ``phase`` built from the description (``simlab.core.position.build``;
    see the module docstring for the components)."""
    return P.build(BUILDER, seat, **description)


def _bankrupt_builder(s: np.void, board: dict, field: str, sp: int) -> None:
    """A port on sp (no surface city one green line away) was built from the neutral port three green lines
    away, which went bankrupt then; a site two neutral ports reach is ambiguous, so an error."""
    if R.city_site(board, sp):
        return
    names = board["names"]
    builders = [int(x) for x in np.flatnonzero((board["port_far"] == sp).any(axis=1))]
    if not builders:
        raise PositionError(
            f"{field}: {names[sp]} is no port site: no surface city one green line away and no neutral port "
            "three green lines away"
        )
    if len(builders) > 1 and not any(s["bankrupt"][b] for b in builders):
        raise PositionError(
            f"{field}: {names[sp]} is three green lines from {', '.join(names[b] for b in builders)}; which one "
            "went bankrupt is not known, so the builder cannot place this port"
        )
    if not any(s["bankrupt"][b] for b in builders):
        s["bankrupt"][builders[0]] = 1


def _discovered_culture(field: str, name: Any, s: np.void) -> int:
    cu = P.resolve(field, name, CULTURE_NAMES)
    if int(s["culture_sys"][cu]) < 0:
        raise PositionError(f"{field}[{name}]: the culture is not discovered; add its system to discovered")
    return cu


def _stack_order(field: str, order: Any) -> np.ndarray:
    """A market stack, the face-up token first: the three tokens low / active / high, each once."""
    tokens = [P.resolve(field, t, TOKENS) for t in (order if not isinstance(order, str) else [order])]
    if sorted(tokens) != [0, 1, 2]:
        raise PositionError(f"{field}: {list(order)!r} is not the tokens {', '.join(TOKENS)} in some order")
    return np.array(tokens, dtype=np.int32)


def _take_goods(s: np.void, config: MerchantOfVenusConfig, field: str, g: int, k: int) -> None:
    """k tokens of good g out of its culture's supply area, then its market: the total stays the culture's."""
    for _ in range(k):
        if s["supply"][g, g] > 0:
            s["supply"][g, g] -= 1
        elif s["market_goods"][g] > 0:
            s["market_goods"][g] -= 1
        else:
            raise PositionError(
                f"{field}: no {GOOD_NAMES[g]} left in its culture's supply or market (the game has "
                f"{config.goods_tokens[g]}; cargo and supply areas given take them first come)"
            )


def _place_passenger(s: np.void, config: MerchantOfVenusConfig, i: Any, where: Any, n: int) -> None:
    i = P.check_count("passengers", i, most=len(config.passenger_origin) - 1)
    field = f"passengers[{i}]"
    if isinstance(where, str):
        place = P.resolve(field, where, PASSENGER_PLACES)
        loc = (R.LOC_BAG, int(config.passenger_origin[i]), R.LOC_DELIVERED)[place]
    else:
        loc = R.LOC_HOLD + P.check_seat(field, where, n)
    s["pass_loc"][i] = loc
    s["pass_bag"][i] = 1 if loc == R.LOC_BAG else 0


def _mid_move(state: MerchantOfVenusState, seat: int, mp: Any, nav: Any, moved: bool) -> None:
    """Phase 'move': the roll and the assignments done, ``mp`` left; the engine continues as after a step."""
    if mp is None:
        raise PositionError("mp: phase 'move' needs the MP left (mp=...)")
    s, c = state.record[0], state.cfg[0]
    s["mp"] = P.check_count("mp", mp, least=1)
    s["nav_value"] = P.check_count("nav", nav, most=6)
    s["steps"] = 1 if moved else 0
    if not moved:
        s["came_from"][seat] = -1
    s["phase"] = R.PH_MOVE
    R.move_along(s, c, R.continue_move(s, c))


def GAME_DATA():
    from simlab.games.merchant_of_venus.data import DEFAULT_DATA

    return DEFAULT_DATA


def space(state: MerchantOfVenusState, name: str) -> int:
    """A space's index by its board name."""
    names = state._names()
    return _space("space", name, names)


def edge_to(state: MerchantOfVenusState, target: str) -> int:
    """The action that moves the active ship (or heads, or builds) along the edge to ``target``."""
    s = state.record[0]
    p = int(s["active"])
    where = int(s["port_city"]) if int(s["phase"]) == R.PH_PORT else int(s["pos"][p])
    t = space(state, target)
    adj = state.cfg[0]["adj"][where]
    slots = [k for k in range(int(state.cfg[0]["adj_n"][where])) if int(adj[k]) == t]
    if not slots:
        raise PositionError(f"edge_to: {target} is not next to {state._names()[where]}")
    return R.ACTIONS.encode("edge", slots[0])


def force(state: MerchantOfVenusState, *outcomes: int, **kinds: Iterable[int] | int) -> MerchantOfVenusState:
    """Fix the next chance outcomes in order: ``force(st, 4, 2, 1)`` before the roll, ``force(st, dice=[5])``
    before a thrust die; keywords ``dice`` (1..6), ``card`` (an encounter, passenger or mission index),
    ``stack`` (the market stack of the next culture discovered, face-up token first)."""
    values = [int(v) for v in outcomes]
    for key, vals in kinds.items():
        if key not in ("dice", "card", "stack"):
            raise PositionError(f"force: unknown outcome kind {key!r}; allowed: dice, card, stack")
        if key == "stack":
            values += _stack_draws(_stack_order("force.stack", vals))
            continue
        vals = [vals] if isinstance(vals, int) else list(vals)
        if key == "dice":
            for v in vals:
                P.check_count("force.dice", v, most=6, least=1)
        values += [int(v) for v in vals]
    return P.force(state, values)


def _stack_draws(order: np.ndarray) -> list[int]:
    """The two draws ``rules.discover``'s shuffle makes (``roll(i + 1)`` for i = 2, 1: swap slot i with slot
    draw - 1) that turn a fresh stack (low, active, high) into ``order``."""
    stack, draws = [0, 1, 2], []
    for i in (2, 1):
        j = stack.index(int(order[i]))
        draws.append(j + 1)
        stack[i], stack[j] = stack[j], stack[i]
    return draws
