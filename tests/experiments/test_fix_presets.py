"""``simlab compensate``'s question as a preset of ``simlab fix`` (issue 34, item 4): the per-seat knob on the
published value .. + 10 steps for every seat; on compensate's synthetic game both give the same whole vector."""

from __future__ import annotations

import numpy as np

from simlab.experiments.fix import find_fix
from simlab.experiments.fix_presets import compensate_question
from tests.examples.pig.game import GAME as PIG
from tests.experiments.test_fix import softmax_truth, surface


def test_the_compensate_preset_is_the_knob_on_its_published_value_and_some_steps_up():
    cfg = PIG.make_config(players=3).replace(start_points=(0, 5, 10, 0))
    q = compensate_question(PIG, cfg, "start_points", ["holder"] * 3, fair_within=2.0, seed=4, most=4)
    (knob,) = q.knobs
    assert knob.kind == "seats" and knob.axes == ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13, 14))
    assert knob.home == (0, 0, 0) and q.tolerance == 2.0 and q.seed == 4 and q.source == "<compensate start_points>"


def test_the_compensate_preset_agrees_with_compensate():
    """Compensate's synthetic game: fair at offsets (0, 1, 2, 3), every neighbour ≥ 2 points off; compensate's own
    search gives (0, 1, 2, 3) on it (tests/experiments/test_fix.py, the money-only test; measured here before its
    driver changed form), and so does its preset of fix."""
    beta = 0.15
    truth = softmax_truth(-beta * np.array([0, 1, 2, 3]), beta)
    cfg = PIG.make_config(players=4)
    q = compensate_question(
        PIG, cfg, "start_points", ["holder"] * 4, budget=200_000, batch=1000, certify_games=40_000, seed=1
    )  # certification in looks at ¾α (fix_looks): 20,000 four-seat games left (0, 1, 2, 3) just short
    assert q.knobs[0].axes == (tuple(range(11)),) * 4  # published .. +10 for every seat
    fixed = find_fix(q, play=surface(truth))
    assert fixed.status == "certified" and fixed.change.settings == (("start_points", (0, 1, 2, 3)),)
    assert np.allclose(truth(fixed.change.apply(cfg)), 0.25)


def test_a_knob_that_is_not_per_seat_or_not_in_the_config_is_refused_naming_it():
    import pytest

    from simlab.experiments.fix_question import FixQuestionError

    cfg = PIG.make_config(players=2)
    with pytest.raises(FixQuestionError, match=r"key 'fix\.knobs\.target\.seats': expected a per-seat list knob"):
        compensate_question(PIG, cfg, "target", ["holder"] * 2)
    with pytest.raises(FixQuestionError, match=r"key 'fix\.knobs\.no_such_knob'"):
        compensate_question(PIG, cfg, "no_such_knob", ["holder"] * 2)
