"""Questions of ``simlab fix`` that other commands ask: ``simlab compensate`` is the money-only (or points-only)
preset, a per-seat knob on the published value .. + ``most`` for every seat, whole steps, objective
``most_equal`` (compensate looks for the most equal vector, not the cheapest one within the tolerance), certified
with the lineup alone (compensate confirms with its lineup; ``simlab fix`` adds a panel).

A compensate vector is normalised so that the strongest seat keeps the published value (6,6,6,7 and 7,7,7,8 are
one answer); on this grid ``most_equal``'s tie-break does the same: vectors the games cannot tell apart are tied,
the cheaper wins, and every seat only ever gains, so the cost counts the steps moved above the published value.
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
    on published .. published + ``most`` × ``step`` for every seat, every seat fair within ±``fair_within`` points,
    the most equal vector preferred, the lineup alone certified; ``options`` (alpha, budget, batch, certify_games,
    seed, panel, objective) as the ``[fix]`` table's."""
    options = {"objective": "most_equal", "panel": [], **options}
    published = getattr(config, knob, None)  # a knob not in the config, or not per seat: fix_question says so
    if isinstance(published, tuple):
        seats: list[Any] = [
            [b, b + _reach(config, knob, seat, most, step) * step] for seat, b in enumerate(published[: config.players])
        ]
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


def _reach(config: Any, knob: str, seat: int, most: int, step: float) -> int:
    """How many steps above the published entry the config accepts for ``seat`` (at most ``most``, at least 1: a
    knob that accepts no step up is refused by ``fix_question``, naming it): Pantheon's extra start feet stop
    where a seat's stock would pass its limit."""
    from simlab.core.errors import SimlabError

    value = list(getattr(config, knob))
    for steps in range(most, 0, -1):
        try:
            config.replace(**{knob: tuple(v + steps * step if k == seat else v for k, v in enumerate(value))})
        except SimlabError:
            continue
        return steps
    return 1
