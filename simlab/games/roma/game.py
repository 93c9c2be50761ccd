"""Roma on the simlab game contract: the Game object, state wrapper, transcripts and fact columns."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from simlab.core.bots import BotRegistry, heuristic
from simlab.core.game import Game, State
from simlab.games.roma import data
from simlab.games.roma import rules as R
from simlab.games.roma.bots import BUILDER, WARRIOR
from simlab.games.roma.config import RomaConfig
from simlab.games.roma.facts import FACTS

_UNITS = FACTS.units

RULES_VERSION = "roma-1.1"

_BOTS = BotRegistry(
    "roma",
    [
        heuristic(
            "builder",
            "economy: covers every disc, Forums beside Basilica/Templum, VP from Forum, Legat, Tribunus",
            BUILDER,
        ),
        heuristic(
            "warrior",
            "aggressive: battle cards, Sicarius/Nero/Gladiator, Essedum before attacks, Praetorianus",
            WARRIOR,
        ),
    ],
)


def _card(t: int) -> str:
    return data.CARDS[t]


def describe_action(action: int, phase: int | None = None) -> str:
    """A readable name for any action id (``phase`` refines the generic ones)."""
    if R.ACTIONS.find(action) is None:
        return f"action {action}"
    name, x = R.ACTIONS.decode(action)
    at = phase if phase is not None else -1
    match name:
        case "done":
            return {
                R.PH_REROLL: "keep the triple",
                R.PH_FREELAY: "done laying",
                R.PH_TEMPLUM: "no Templum die",
                R.PH_CENTURIO: "add no die",
            }.get(at, "end turn")
        case "yes":
            return "reroll the triple"
        case "lay":
            card, space = x
            how = {R.PH_OPENING: "place face down", R.PH_FREELAY: "lay free", R.PH_RELAY: "relay"}.get(at, "lay")
            return f"{how} {_card(card)} on {data.SPACE_NAMES[space]}"
        case "money":
            return f"die {x + 1} on the money disc"
        case "draw":
            return f"die {x + 1} on the card disc"
        case "act":
            return f"activate disc {x + 1}"
        case "bribe":
            return f"activate the bribe disc with die {x + 1} (pay {x + 1})"
        case "die":
            return f"die {x + 1}"
        case "consul":
            pips, up = x
            return f"Consul: die {pips + 1} {'+' if up else '-'}1"
        case "disc":
            return data.SPACE_NAMES[x]
        case "card":
            return _card(x)
        case "count":
            return f"buy {x} VP"
    return R.ACTIONS.describe(action)


def _money(amount: int) -> str:
    """``amount`` sestertii in the game's words ("1 sestertius", "3 sestertii")."""
    return f"{amount} {_UNITS.of('money', amount)}"


def _board(s: np.void, p: int, spaces: int) -> str:
    cells = []
    for d in range(spaces):
        t = int(s["board"][p, d])
        cells.append(f"{d + 1 if d < 6 else 'B'}:{_card(t) if t >= 0 else '-'}")
    return " ".join(cells)


class RomaState(State):
    """A Roma game in progress (see ``rules`` for the decision sequence)."""

    def describe(self, action: int) -> str:
        return describe_action(action, int(self.record[0]["phase"]))

    # -- transcript ------------------------------------------------------------------------------
    def narrate_start(self) -> list[str]:
        s = self.record[0]
        return [
            f"setup: VP {int(s['vp'][0])}/{int(s['vp'][1])}, stockpile {int(s['stock'])}, "
            f"sestertii {int(s['money'][0])}/{int(s['money'][1])}",
            "  hands: "
            + "; ".join(
                f"seat {p}: " + ", ".join(_card(t) for t in range(R.NCARDS) for _ in range(int(s["hand"][p, t])))
                for p in range(2)
            ),
        ]

    def narrate_before(self, action: int) -> list[str]:
        s = self.record[0]
        return [f"  t{int(s['turns'])} seat {int(s['cur'])} [{self.decision_name()}] {self.describe(action)}"]

    def narrate_after(self, action: int, after: State) -> list[str]:
        b = self.record[0]
        a = after.record[0]
        lines: list[str] = []
        spaces = self.config.spaces()
        new_turn = int(b["turns"]) != int(a["turns"])
        p = int(a["active"])
        lost = int(a["f_vp_lost_empty"][p]) - int(b["f_vp_lost_empty"][p]) if new_turn else 0
        if new_turn:
            lines.append(f"=== turn {int(a['turns'])}: seat {p} ===")
            lines.append(f"    seat 0: {_board(a, 0, spaces)}")
            lines.append(f"    seat 1: {_board(a, 1, spaces)}")
            if lost:
                lines.append(f"    phase 1: seat {p} returns {lost} VP for empty spaces")
            lines.append(
                f"    VP {int(a['vp'][0])}/{int(a['vp'][1])}, stockpile {int(a['stock'])}, "
                f"sestertii {int(a['money'][0])}/{int(a['money'][1])}"
            )
        rerolled = int(b["phase"]) == R.PH_REROLL and action == R.A_YES
        if int(a["phase"]) in (R.PH_ACTION, R.PH_REROLL) and (new_turn or rerolled):
            dice = ", ".join(str(int(a["dice"][i])) for i in range(self.config.action_dice))
            lines.append(f"    rolls {dice}")
        if int(a["phase"]) == R.PH_DRAWKEEP and int(b["phase"]) != R.PH_DRAWKEEP:
            lines.append("    draws " + ", ".join(_card(int(a["drawn"][i])) for i in range(int(a["drawn_n"]))))
        if int(a["f_battles"].sum()) != int(b["f_battles"].sum()):
            lines.append(f"    battle die {int(a['battle_roll'])} against defence {int(a['battle_def'])}")
        for q in range(2):
            dv = int(a["vp"][q]) - int(b["vp"][q]) + (lost if q == p else 0)
            dm = int(a["money"][q]) - int(b["money"][q])
            if dv or dm:
                vp_after, money_after = int(a["vp"][q]), int(a["money"][q])
                lines.append(f"    seat {q}: VP {dv:+d} -> {vp_after}, sestertii {dm:+d} -> {money_after}")
            for d in range(spaces):
                old, new = int(b["board"][q, d]), int(a["board"][q, d])
                if old >= 0 and new != old and int(b["phase"]) != R.PH_OPENING:
                    lines.append(f"    seat {q}'s {_card(old)} leaves {data.SPACE_NAMES[d]}")
        if int(a["phase"]) == R.PH_OVER:
            lines.append(f"=== game over: {data.END_REASONS[int(a['end_reason'])]} ===")
        return lines

    def narrate_scores(self) -> list[str]:
        s = self.record[0]
        return [
            f"  seat {p}: {int(s['score'][p])} VP, {_money(int(s['money'][p]))}, rank {int(s['rank'][p])}"
            for p in range(2)
        ]

    def determinize(self, player: int, rng: np.random.Generator) -> RomaState:
        """Resample what ``player`` cannot see: the opponent's hand, the draw pile's order and contents,
        the cards the opponent is passing (setup) and its face-down opening cards.

        Hand sizes, occupied spaces, the face-up discard pile and everything public stay. While the
        player searches the draw pile (Haruspex) its contents are known, so only its order is reshuffled
        (the opponent's hand is then fully determined).
        """
        other = self.clone()
        stream = np.array([rng.integers(1, 2**63)], dtype=np.uint64)  # the compiled rules draw from a word
        R.determinize(other.record, other.cfg, player, stream)  # the search bot's determinize, one rule
        return other


class RomaGame(Game):
    """Roma (Stefan Feld, 2005): two players, dice discs, 52 character and building cards."""

    name = "roma"
    title = "Roma"
    rules_version = RULES_VERSION
    config_class = RomaConfig
    state_class = RomaState
    min_players = 2
    hooks = ("determinize", "score_now")
    max_players = 2
    default_bots = ("builder", "warrior")
    scenarios: ClassVar[dict[str, str]] = {
        "money_sweep": "scenarios/roma_seats.toml",
        "card_value": "scenarios/roma_card_value.toml",
    }

    @property
    def bots(self) -> BotRegistry:
        return _BOTS


GAME = RomaGame()
