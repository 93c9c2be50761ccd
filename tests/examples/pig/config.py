"""Pig's rule numbers: every one a knob with its provenance (see simlab.core.config)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from simlab.core.config import GameConfig, knob, require

MAX_PLAYERS = 4


@dataclasses.dataclass(frozen=True)
class PigConfig(GameConfig):
    """Pig (folk dice game, John Scarne's 1945 rules): race to ``target`` points."""

    PRESETS: ClassVar[dict[str, dict[str, object]]] = {"default": {}, "short": {"target": 50}}
    players: int = knob(2, "rulebook", "number of players (2 to 4)")
    target: int = knob(100, "rulebook", "points that win the game")
    sides: int = knob(6, "rulebook", "faces of the die")
    bust_face: int = knob(1, "rulebook", "the face that ends the turn and loses its points")
    start_points: tuple[int, ...] = knob((0, 0, 0, 0), "assumption", "banked points each seat starts with")

    def validate(self) -> None:
        require(2 <= self.players <= MAX_PLAYERS, f"players must be 2 to {MAX_PLAYERS}, got {self.players}")
        require(self.target >= 1, f"target must be at least 1, got {self.target}")
        require(2 <= self.sides <= 20, f"sides must be 2 to 20, got {self.sides}")
        require(1 <= self.bust_face <= self.sides, f"bust_face must be a face of the die, got {self.bust_face}")
        require(len(self.start_points) >= self.players, "start_points needs a value for every seat")
