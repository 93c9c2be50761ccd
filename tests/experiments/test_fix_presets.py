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


def test_compensate_is_the_money_only_fix_with_objective_most_equal_on_the_planted_truths():
    """issue 34: a money-only fix gives the same answer as compensate. On compensate's synthetic game (fair at
    0,1,2,3) and on the planted 4-seat surface (fair at 0,2,4,6): ``simlab compensate`` (``compensate_by_fix``) and
    the same question asked of ``simlab fix`` (the knob on published .. +10 per seat, objective most_equal, the
    lineup alone) give the same vector and the same certification, game for game; on compensate's synthetic game
    its own softmax driver gives that vector and confirmation too. (On the planted surface the softmax driver,
    seed 1, batch 1,000, races 0,2,4,7 ahead of 0,2,4,6 and ends "none": docs/analysis.md.)"""
    from simlab.analysis.compensation_text import fair_vector_text
    from simlab.experiments import fair_vector as fv
    from simlab.experiments.compensate_fix import compensate_by_fix
    from simlab.experiments.fix_question import fix_question
    from simlab.experiments.knob_search import KnobSearch
    from tests.experiments.test_fix import PLANTED

    synthetic = softmax_truth(-0.15 * np.array([0, 1, 2, 3]), 0.15)
    for truth, fair in ((synthetic, (0, 1, 2, 3)), (PLANTED, (0, 2, 4, 6))):
        cfg = PIG.make_config(players=4)
        search = KnobSearch(PIG, cfg, "start_points", ["holder"] * 4, batch=1000, max_games=80_000, seed=1)
        comp, its_fix = compensate_by_fix(search, confirm_games=40_000, play=surface(truth))
        q = fix_question(
            PIG, cfg, ["holder"] * 4, knobs={"start_points": {"seats": [0, 10]}}, objective="most_equal", panel=[],
            budget=80_000, batch=1000, certify_games=40_000, seed=1,
        )  # fmt: skip
        fixed = find_fix(q, play=surface(truth))
        assert comp.outcome == "fair" and comp.value == fair and fixed.status == "certified"
        assert fixed.change.settings == (("start_points", (*fair,)),) and fixed.to_dict() == its_fix.to_dict()
        # the same fresh seeds: fix's certification reads them in looks and stops at the first that passes;
        # compensate's confirmation plays all 40,000 of them
        looks = {5_000, 10_000, 20_000, 30_000, 40_000}
        assert comp.confirmation.games == 40_000 and {s.n for s in fixed.after} <= looks
        # the published rules: fix's check stops at its first look once they cannot pass (futility); compensate
        # reads them on its own count of the same seeds
        assert fixed.before[0].n <= comp.published.games
        assert comp.games == fixed.games["explore"] + fixed.games["race"]
        listed = [line for line in fair_vector_text(comp) if line.startswith("    ")]  # the vectors it played
        assert any(line.endswith("; chosen") for line in listed) and "in the race" not in " ".join(listed)
        assert any(line.endswith("ruled out: a seat outside the band on its games") for line in listed)
        if truth is synthetic:
            old = fv.find_fair_vector(search, confirm_games=40_000, play=_vector_play(truth))
            assert old.value == comp.value and (old.confirmation.shares == comp.confirmation.shares).all()
            assert (old.published.shares == comp.published.shares).all()


def _vector_play(truth):
    """compensate's own driver's play on the same surface and seeds as ``surface``."""

    def play(game, config, knob, value, lineup, start, seeds):
        u = (np.asarray(seeds) % 1_000_003) / 1_000_003.0
        p = truth(config.replace(**{knob: (*value, *getattr(config, knob)[len(value) :])}))
        k = np.minimum(np.searchsorted(np.cumsum(p), u, side="right"), len(p) - 1)
        return np.eye(len(p))[k]

    return play
