"""Questions of ``simlab fix`` that other commands ask: ``simlab compensate --fix`` is the money-only (or
points-only) preset, a per-seat knob on the published value .. + ``most`` for every seat, whole steps.

A compensate vector is normalised so that the strongest seat keeps the published value (6,6,6,7 and 7,7,7,8 are
one answer); on this grid the cheapest fair change of ``find_fix`` is that same vector, since every seat only ever
gains and the cost counts the steps moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simlab.experiments.fix_question import FixQuestion, fix_question

#: how far above the published value each seat's grid reaches (in whole steps of the knob)
COMPENSATE_STEPS = 10


def compensate_question(
    game: Any,
    config: Any,
    knob: str,
    lineup: Sequence[str],
    *,
    fair_within: float = 1.0,
    most: int = COMPENSATE_STEPS,
    step: float = 1,
    **options: Any,
) -> FixQuestion:
    """``simlab compensate``'s question as a fix: ``knob`` (a per-seat number, the money or points intervention's)
    on published .. published + ``most`` × ``step`` for every seat, every seat fair within ±``fair_within`` points;
    ``options`` (alpha, budget, batch, certify_games, seed, panel) as the ``[fix]`` table's."""
    published = getattr(config, knob, None)  # a knob not in the config, or not per seat: fix_question says so
    if isinstance(published, tuple):
        seats: list[Any] = [[b, b + most * step] for b in published[: config.players]]
    else:
        seats = [0, most * step]
    return fix_question(
        game,
        config,
        lineup,
        knobs={knob: {"seats": seats, "step": step}},
        tolerance=fair_within,
        source=f"<compensate {knob}>",
        **options,
    )
