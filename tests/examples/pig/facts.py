"""Pig's fact columns, declared once (see ``simlab.core.facts``): what each seat banked, rolled and lost,
with the roles the analyses read, and the intervention that prices a head start (starting points)."""

from __future__ import annotations

import numpy as np

from simlab.core.facts import Fact, FactSet, Intervention, Units


def _start_points(records: np.ndarray, config) -> np.ndarray:
    n = config.players
    return np.broadcast_to(np.array(config.start_points[:n], dtype=np.int32), (len(records), n))


FACTS = FactSet(
    [
        Fact("start_points", _start_points, "points the seat started with", "points.start", unit="points"),
        Fact("final_points", "banked", "points banked at the end (the score)", "points.final", unit="points"),
        Fact("rolls", "f_rolls", "times the seat rolled the die"),
        Fact("busts", "f_busts", "turns the seat lost to the bust face"),
        Fact("decisions", "decisions", "decisions taken in the game (all seats)", "game.decisions", per="game"),
    ],
    Units("coin", "coins", "coins", "point", "points", "points"),
    [Intervention("points", "start_points", description="seat k's starting points")],
)
