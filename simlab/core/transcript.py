"""Play one game and narrate it: the readable transcript behind ``simlab play`` and its JSON summary."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from simlab.core.config import GameConfig
from simlab.core.game import Game, State


def count(amount: int, one: str, many: str | None = None) -> str:
    """``amount`` and the word that goes with it: ``count(1, "stall")`` is "1 stall", ``count(2, "stall")``
    "2 stalls", ``count(0, "die", "dice")`` "0 dice" (only 1 and -1 are singular)."""
    word = one if abs(amount) == 1 else (many if many is not None else one + "s")
    return f"{amount} {word}"


@dataclasses.dataclass
class PlayResult:
    """A finished game: its transcript lines and the summary ``--json`` prints."""

    lines: list[str]
    summary: dict[str, Any]
    state: State


def play_with_transcript(game: Game, config: GameConfig, seed: int, bot_specs: Sequence[str]) -> PlayResult:
    """Play one game between the bots named by ``bot_specs`` (one per seat) and narrate it.

    The narration is the game's own: ``state.narrate_before(action)`` and ``state.narrate_after(action)``
    return lines for the decision, the action and any chance outcome it caused (dice, draws, refills).
    The same seed and bots give the same transcript every time.
    """
    bots = game.make_bots(list(bot_specs), config.players)
    lines: list[str] = [
        f"{game.title} — seed {seed}, {config.players} players, rules {game.rules_version}, "
        f"config {config.config_hash()}",
        "seats: " + ", ".join(f"{seat}={bot.name}" for seat, bot in enumerate(bots)),
    ]
    game.compile_for(config, bots)  # before the first state: compiles on two cores at first use
    state = game.new_state(config, seed)
    lines.extend(state.narrate_start())
    pending: list[tuple[State, int]] = []

    def on_action(st: State, action: int) -> None:
        if pending:
            prev, prev_action = pending.pop()
            lines.extend(prev.narrate_after(prev_action, st))
        lines.extend(st.narrate_before(action))
        pending.append((st.clone(), action))

    final = game.play(config, seed, bots, on_action=on_action)
    if pending:
        prev, prev_action = pending.pop()
        lines.extend(prev.narrate_after(prev_action, final))
    outcome = final.outcome()
    lines.append("final scores:")
    lines.extend(final.narrate_scores())
    lines.append("winners: " + ", ".join(f"seat {w}" for w in outcome.winners))
    summary = {
        "game": game.name,
        "seed": seed,
        "players": config.players,
        "bots": [bot.name for bot in bots],
        "config_hash": config.config_hash(),
        "rules_version": game.rules_version,
        "scores": list(outcome.scores),
        "ranks": list(outcome.ranks),
        "win_shares": list(outcome.win_shares),
        "winners": outcome.winners,
        "decisions": len(final.history),
    }
    return PlayResult(lines, summary, final)
