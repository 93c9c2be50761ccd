"""Massilia on the simlab game contract: the Game object, state wrapper, transcripts and fact columns."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from simlab.core.bots import BotRegistry, heuristic
from simlab.core.game import Game, State
from simlab.core.transcript import count
from simlab.games.massilia import data
from simlab.games.massilia import rules as R
from simlab.games.massilia.bots import PRIEST, TRADER
from simlab.games.massilia.config import MassiliaConfig
from simlab.games.massilia.facts import FACTS

_UNITS = FACTS.units

RULES_VERSION = "massilia-1.2"

_BOTS = BotRegistry(
    "massilia",
    [
        heuristic(
            "trader",
            "sells goods to customers: buys the colours its stalls can sell, walks customers to them",
            TRADER,
        ),
        heuristic(
            "priest",
            "fame and temple player: buys fame when the temple is cheap, prays for cards, uses them",
            PRIEST,
        ),
    ],
    # the search's playouts cut after 67 decisions (about a round) and scored by the final scoring: stronger
    # and several times cheaper than playing every playout to the end (docs/search.md)
    search_defaults={"depth": 67},
)


def _die(src: int, colour: int, value: int) -> str:
    where = "temple" if src == 0 else "own kept"
    return f"{data.DICE[colour]} {value} ({where})"


_TAKES = {
    "take": "take die",
    "extra_token": "extra die for a token",
    "extra_junon": "extra die with Junon",
    "take_exec": "use die as rolled",
}
_NAMED = {
    "pass": "pass",
    "execute": "execute",
    "no": "no",
    "yes": "yes",
    "venus": "play Venus (return penalty tokens)",
    "keepdie_temple": "to the temple",
    "keepdie_pay": "keep (pay)",
    "keepdie_mars": "keep with Mars",
}


def describe_action(action: int) -> str:
    """A readable name for any action id."""
    if R.ACTIONS.find(action) is None:
        return f"action {action}"
    name, x = R.ACTIONS.decode(action)
    if name in _NAMED:
        return _NAMED[name]
    if name in _TAKES:
        src, colour, value = x
        return f"{_TAKES[name]}: {_die(src, colour, value + 1)}"
    match name:
        case "venus_fewer":
            k = x + 1
            return f"play Venus (return only {k} penalty token{'s' if k > 1 else ''})"
        case "mercure":
            location, up = x
            return f"play Mercure: {data.PRICE_LOCATIONS[location]} price {'+1' if up else '-1'}"
        case "change_token":
            return f"token: perform the {data.DIE_ACTIONS[x]} action"
        case "change_jupiter":
            return f"Jupiter: perform the {data.DIE_ACTIONS[x]} action"
        case "mod_token" | "mod_card":
            die, up = x
            how = "free card" if name == "mod_card" else "token"
            return f"{how}: die {die + 1} {'+1' if up else '-1'}"
        case "move":
            pawn, direction = x
            return f"move {data.PAWNS[pawn]} {'clockwise' if direction == 0 else 'counter-clockwise'}"
        case "space":
            return f"space {x}"
        case "cube":
            space, goods = x
            return f"{data.GOODS[goods]} cube from space {space}"
        case "count":
            return f"{x}"
        case "colour":
            return data.GOODS[x]
    return R.ACTIONS.describe(action)


def _goods(counts: np.ndarray) -> str:
    return " ".join(f"{data.GOODS[g]} {int(counts[g])}" for g in range(4))


def _prices(s: np.void) -> str:
    return ", ".join(f"{loc} {int(s['price'][i])}" for i, loc in enumerate(data.PRICE_LOCATIONS))


def _round_header(s: np.void) -> list[str]:
    temple = ", ".join(
        f"{data.DICE[d]} {v + 1}" for d in range(4) for v in range(6) for _ in range(int(s["temple"][d, v]))
    )
    markers = ", ".join(f"{data.GOODS[g]} {int(s['marker'][g])}" for g in range(3))
    order = ", ".join(str(int(x)) for x in s["order"][: int(s["n_players"])])
    return [
        f"=== round {int(s['round_no'])} === turn order {order}",
        f"  prices {_prices(s)}; markers {markers}",
        f"  harbours {_goods(s['harbour'])}; bag {_goods(s['bag'])}",
        f"  temple dice rolled: {temple}",
    ]


class MassiliaState(State):
    """A Massilia game in progress (see ``rules`` for the decision sequence)."""

    def describe(self, action: int) -> str:
        """The action in the words of the decision at hand: a count says what it counts (dice of which
        colour, cubes of which colour), everything else as ``describe_action``."""
        s = self.record[0]
        family = R.ACTIONS.find(action)
        if family is not None and family.name == "count":
            k = action - family.start
            phase = int(s["phase"])
            if phase == R.PH_ROLL:
                colour = data.DICE[int(s["roll_colour"])]
                return f"roll {count(k, colour + ' die', colour + ' dice')}"
            if phase == R.PH_BUY_COUNT:  # the die's value in cubes: k of the colour, the rest beige
                colour = data.GOODS[int(s["buy_colour"])]
                beige = int(s["act_val"][: int(s["act_n"])].sum()) - k
                rest = f" and {count(beige, 'beige cube')}" if beige else ""
                return f"buy {count(k, colour + ' cube')}{rest}"
            if phase == R.PH_TAX:
                rest = int(s["cubes"][int(s["consul_space"])].sum()) - k
                give_up = f", give up {count(rest, 'cube')}" if rest else ""
                return f"pay the tax on {count(k, 'cube')}{give_up}"
        if family is not None and family.name.startswith("keepdie_") and int(s["phase"]) == R.PH_KEEP:
            i = int(s["rolled_i"])
            die = f"{data.DICE[int(s['rolled_col'][i])]} {int(s['rolled_val'][i])}"
            return f"{die}: {describe_action(action)}"
        return describe_action(action)

    # -- transcript ------------------------------------------------------------------------------
    def narrate_start(self) -> list[str]:
        s = self.record[0]
        n = int(s["n_players"])
        return [
            "setup: prices "
            + _prices(s)
            + "; pawns "
            + ", ".join(f"{data.PAWNS[i]}@{int(s['pawn'][i])}" for i in range(4)),
            "  harbours " + _goods(s["harbour"]) + "; bag " + _goods(s["bag"]),
            "  money " + ", ".join(f"seat {p}: {int(s['money'][p])}" for p in range(n)),
        ]

    def narrate_before(self, action: int) -> list[str]:
        s = self.record[0]
        p = int(s["cur"])
        return [f"  r{int(s['round_no'])} seat {p} [{self.decision_name()}] {self.describe(action)}"]

    def narrate_after(self, action: int, after: State) -> list[str]:
        b = self.record[0]
        a = after.record[0]
        lines: list[str] = []
        p = int(b["cur"])
        phase = int(b["phase"])
        if phase == R.PH_SETUP:
            sp = R.ACTIONS.decode(action).index
            lines.append(f"    stall on space {sp} stocked with {_goods(a['cubes'][sp])}")
        for q in range(int(b["n_players"])):
            dm = int(a["money"][q]) - int(b["money"][q])
            df = int(a["fame"][q]) - int(b["fame"][q])
            if dm or df:
                money, fame = int(a["money"][q]), int(a["fame"][q])
                lines.append(f"    seat {q}: money {dm:+d} -> {money}, fame {df:+d} -> {fame}")
        if phase == R.PH_MOVE:
            pawn, _ = R.ACTIONS.decode(action).index
            lines.append(f"    {data.PAWNS[pawn]} moves {int(b['pawn'][pawn])} -> {int(a['pawn'][pawn])}")
        if int(a["phase"]) == R.PH_KEEP and phase == R.PH_ROLL:
            rolled = ", ".join(
                f"{data.DICE[int(a['rolled_col'][i])]} {int(a['rolled_val'][i])}" for i in range(int(a["rolled_n"]))
            )
            lines.append(f"    seat {p} rolls: {rolled}")
        if int(a["phase"]) == R.PH_KEEPCARD and phase != R.PH_KEEPCARD:
            drawn = ", ".join(data.CARDS[int(a["drawn"][i])] for i in range(int(a["drawn_n"])))
            lines.append(f"    draws: {drawn}")
        if int(a["round_no"]) != int(b["round_no"]) or (phase == R.PH_SETUP and int(a["phase"]) != R.PH_SETUP):
            lines.extend(_round_header(a))
        if int(a["phase"]) == R.PH_OVER:
            lines.append("=== game over ===")
        return lines

    def narrate_scores(self) -> list[str]:
        s = self.record[0]
        c = self.config
        out = []
        for p in range(c.players):
            stalls = int((s["stall_owner"] == p).sum())
            money = int(s["money"][p])
            out.append(
                f"  seat {p}: {count(int(s['score'][p]), 'point')} (fame {int(s['fame'][p])}, "
                f"{count(stalls, 'stall')}, {money} {_UNITS.of('money', money)}, "
                f"{count(int(s['tokens'][p]), 'token')}) rank {int(s['rank'][p])}"
            )
        return out

    def determinize(self, player: int, rng: np.random.Generator) -> MassiliaState:
        """Resample what ``player`` cannot see: other players' hand cards and the deck order.

        Hand sizes, the face-up discard pile and everything on the board stay. Money, penalty tokens
        and the dice behind screens are kept: every change to them is a public action, so a player
        with perfect memory knows them.
        """
        other = self.clone()
        stream = np.array([rng.integers(1, 2**63)], dtype=np.uint64)  # the compiled rules draw from a word
        R.determinize(other.record, other.cfg, player, stream)  # the search bot's determinize, one rule
        return other


class MassiliaGame(Game):
    """Massilia (Alain Epron): merchants, customers, a consul and nine deities; 2–4 players."""

    name = "massilia"
    title = "Massilia"
    rules_version = RULES_VERSION
    config_class = MassiliaConfig
    state_class = MassiliaState
    min_players = 2
    hooks = ("determinize", "score_now")
    max_players = 4
    default_bots = ("trader", "priest")
    scenarios: ClassVar[dict[str, str]] = {
        "money_sweep": "scenarios/starting_money_sweep.toml",
        "card_value": "scenarios/card_value.toml",
    }

    @property
    def bots(self) -> BotRegistry:
        return _BOTS


GAME = MassiliaGame()
