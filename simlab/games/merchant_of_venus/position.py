"""Setting up a Merchant of Venus position from a readable description (see docs/games/merchant_of_venus.md).

``position(...)`` starts a normal set-up (shuffled contact cards, purses, missions, the first passenger),
sets every dial to the description (laser at ``dial_high`` unless given), writes what it is given and
returns a normal ``MerchantOfVenusState`` at ``seat``'s decision: ``"start"`` (move or skip), or
``"trade"`` (landed where the ship is: contact if the system is undiscovered, then trading, as after a
landing this turn; ``skipped=True`` as after skipping movement).

Spaces are named as on the board file (``"Galactic Base"``, ``"Southern Comfort"``), cultures and goods
by name (``"Nillis"``, ``"Bionic Perfume"``), systems by board name (``"Colony World"``).

What is not given keeps the normal set-up, rebalanced so every total still adds up:

- ``cultures``: ``{system: culture}`` puts that contact card on that system (swapping the cards); with
  ``discovered`` the system is revealed (its goods on the market, its market stack as rolled, or ``top``);
- ``cargo``: goods come out of their culture's supply (or market if discovered); more than the culture has
  is an error;
- ``ports``: ``{seat: [orbital spaces]}`` merchant spaceports (tokens within the colour's 12);
- everything else: numbers per seat (one number, a list per seat or ``{seat: n}``).

``force(state, ...)`` fixes the next chance outcomes by value: speed dice, the thrust die, hazard and
Fuzzy Dice dice (1..6), encounter cards and passengers drawn (their index).
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

PHASES = ("start", "trade")
TOKENS = ("low", "active", "high")


def _space(field: str, name: Any, names: Sequence[str]) -> int:
    if isinstance(name, str) and name in names:
        return names.index(name)
    return P.resolve(field, name, names)


def position(
    seat: int = 0,
    *,
    config: MerchantOfVenusConfig | None = None,
    preset: str | None = None,
    overrides: Mapping[str, object] | None = None,
    seed: int = 0,
    phase: str = "start",
    skipped: bool = False,
    first: int = 0,
    round_no: int = 1,
    at: Mapping[int, Any] | None = None,
    came_from: Mapping[int, Any] | None = None,
    cultures: Mapping[str, str] | None = None,
    discovered: Sequence[str] = (),
    top: Mapping[str, str] | None = None,
    cargo: Mapping[int, Mapping[str, int]] | None = None,
    ports: Mapping[int, Sequence[Any]] | None = None,
    techs: Mapping[int, Sequence[str]] | None = None,
    credits: Any = None,
    holds: Any = None,
    laser: Any = None,
    shield: Any = None,
    pilot: Any = None,
    drive: Mapping[int, str] | None = None,
    fame_tokens: Any = None,
    infamy: Any = None,
    rewards: Any = None,
    missions: Mapping[int, Sequence[int]] | None = None,
    mission_fame_won: Any = None,
    missions_done: Any = None,
    upgrades: Any = None,
) -> MerchantOfVenusState:
    """A state at ``seat``'s decision ``phase`` built from the description (see the module docstring)."""
    if config is None:
        config = GAME.make_config(preset=preset, overrides=dict(overrides or {}))
    elif not isinstance(config, MerchantOfVenusConfig):
        raise PositionError(f"config: expected a MerchantOfVenusConfig, got {type(config).__name__}")
    n = config.players
    seat = P.check_seat("seat", seat, n)
    first = P.check_seat("first", first, n)
    if phase not in PHASES:
        raise PositionError(f"phase: unknown {phase!r}; allowed: {', '.join(PHASES)}")
    state = GAME.new_state(config, seed)
    s = state.record[0]
    board = R.board_for(config)
    names = board["names"]
    systems = [board["board"].system_names[i] for i in board["board"].market_systems]

    # -- the table: start player, dials, round -------------------------------------------------
    s["first"] = first
    s["round_no"] = P.check_count("round_no", round_no, most=config.rounds, least=1)
    s["laser"][:n] = P.per_seat("laser", laser, n, [config.dial_high] * n)
    s["shield"][:n] = P.per_seat("shield", shield, n, [config.dial_low] * n)
    s["pilot"][:n] = P.per_seat("pilot", pilot, n, [1] * n)
    s["holds"][:n] = P.per_seat("holds", holds, n, [config.start_holds] * n)
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
    for p, d in P.seat_map("drive", drive, n).items():
        s["drive"][p] = P.resolve(f"drive[{p}]", d, DRIVE_NAMES)
    for p, held in P.seat_map("missions", missions, n).items():
        s["mission_bag"][: len(config.mission_target)] = 1
        s["mission"][p] = -1
        for k, m in enumerate(held):
            s["mission"][p, k] = P.check_count(f"missions[{p}]", m, most=len(config.mission_target) - 1)
    for p in range(n):  # missions held are out of the deck
        for m in s["mission"][p]:
            if m >= 0:
                s["mission_bag"][m] = 0

    # -- contact cards and discovered systems ----------------------------------------------------
    for sys_name, cu_name in (cultures or {}).items():
        sy = P.resolve("cultures", sys_name, systems)
        cu = P.resolve(f"cultures[{sys_name}]", cu_name, CULTURE_NAMES)
        other = int(np.flatnonzero(s["sys_culture"] == cu)[0])
        s["sys_culture"][other], s["sys_culture"][sy] = s["sys_culture"][sy], cu
    for sys_name in discovered:
        sy = P.resolve("discovered", sys_name, systems)
        R.discover(s, state.cfg[0], first, sy)
        s["f_discoveries"][first] -= 1
    for cu_name, token in (top or {}).items():
        cu = P.resolve("top", cu_name, CULTURE_NAMES)
        if int(s["culture_sys"][cu]) < 0:
            raise PositionError(f"top[{cu_name}]: the culture is not discovered; add its system to discovered")
        t = P.resolve(f"top[{cu_name}]", token, TOKENS)
        k = int(np.flatnonzero(s["stack"][cu] == t)[0])
        s["stack_top"][cu] = k

    # -- cargo, techs, ports ----------------------------------------------------------------------
    for p, goods in P.seat_map("cargo", cargo, n).items():
        for g_name, k in dict(goods).items():
            g = P.resolve(f"cargo[{p}]", g_name, GOOD_NAMES)
            k = P.check_count(f"cargo[{p}][{g_name}]", k)
            for _ in range(k):
                if s["supply"][g, g] > 0:
                    s["supply"][g, g] -= 1
                elif s["market_goods"][g] > 0:
                    s["market_goods"][g] -= 1
                else:
                    raise PositionError(f"cargo[{p}][{g_name}]: the culture has only {config.goods_tokens[g]} tokens")
                s["cargo"][p, g] += 1
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
            s["port_owner"][sp] = p
            s["ports"][p] += 1

    # -- money and ships ------------------------------------------------------------------------
    s["credits"][:n] = P.per_seat("credits", credits, n, s["credits"][:n])
    for p, sp_name in P.seat_map("at", at, n).items():
        s["pos"][p] = _space(f"at[{p}]", sp_name, names)
    for p, sp_name in P.seat_map("came_from", came_from, n).items():
        s["came_from"][p] = _space(f"came_from[{p}]", sp_name, names)

    # -- the decision ----------------------------------------------------------------------------
    k = (seat - first) % n
    R.start_turn(s, state.cfg[0], k)
    s["turns"] = 1
    if phase == "trade":
        sp = int(s["pos"][seat])
        if not (board["kind"][sp] in (R.K_CITY, R.K_STATION) or s["port_owner"][sp] >= 0):
            raise PositionError(f"phase 'trade': {names[sp]} is not a city or a port")
        s["skipped_move"] = 1 if skipped else 0
        s["steps"] = 0 if skipped else 1
        R.begin_trade(s, state.cfg[0])
    P.check_position(state)
    return state


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
    return R.A_EDGE + slots[0]


def force(state: MerchantOfVenusState, *outcomes: int, **kinds: Iterable[int] | int) -> MerchantOfVenusState:
    """Fix the next chance outcomes in order: ``force(st, 4, 2, 1)`` before the roll, ``force(st, dice=[5])``
    before a thrust die; keywords ``dice`` (1..6), ``card`` (an encounter, passenger or mission index)."""
    values = [int(v) for v in outcomes]
    for key, vals in kinds.items():
        if key not in ("dice", "card"):
            raise PositionError(f"force: unknown outcome kind {key!r}; allowed: dice, card")
        vals = [vals] if isinstance(vals, int) else list(vals)
        if key == "dice":
            for v in vals:
                P.check_count("force.dice", v, most=6, least=1)
        values += [int(v) for v in vals]
    return P.force(state, values)
