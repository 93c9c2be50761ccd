"""The fix question's declared objective (``fix_objective``): ``cheapest`` (the default: fewest knobs, then fewest
grid steps) or ``most_equal`` (the smallest worst seat deviation, cost as the tie-break: ``simlab compensate``'s).
On a fine grid they differ, as on Pig (a head start one step short of the most equal one still passes)."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.experiments.fix import find_fix
from simlab.experiments.fix_question import FixQuestionError, fix_question
from tests.examples.pig.game import GAME as PIG
from tests.experiments.test_fix import surface

#: seat 0's advantage in points against seat 1's head start h (seat 1's start points − seat 0's), as on Pig: within
#: ±1 point from h = 5 (0.8) on, the most equal h = 6 (0.2); the same head start with more points for both seats
#: (1,7, 2,8) is exactly as equal
ADVANTAGE = {3: 3.2, 4: 1.8, 5: 0.8, 6: 0.2, 7: -0.5, 8: -1.1, 9: -1.7, 10: -2.3}


def head_start_truth(cfg):
    h = cfg.start_points[1] - cfg.start_points[0]
    d = ADVANTAGE.get(h, 5.0 - 0.6 * h) / 100
    return np.array([0.5 + d, 0.5 - d])


def question(**options):
    options = {"budget": 150_000, "batch": 2000, "certify_games": 20_000, "seed": 2, **options}
    return fix_question(
        PIG, PIG.make_config(players=2), ["holder"] * 2, knobs={"start_points": {"seats": [0, 10]}}, **options
    )


def test_cheapest_stops_at_the_first_head_start_within_the_tolerance_and_most_equal_at_the_most_equal():
    cheapest = find_fix(question(), play=surface(head_start_truth))
    # the cheapest within ±1 point leaves 0.8 points: certification on fresh seeds cannot pass it (its bound reaches
    # past the band's edge), so its attempt stops for futility; the fallback, 0,6, is tried at a quarter of α and
    # its 20,000 games do not pass it at that level; the most equal leaves 0.2, is tried first, and is certified
    first = cheapest.to_dict()["attempts"][0]
    assert first["change"]["settings"][0]["value"] == [0, 5, 0, 0] and first["outcome"] == "futile"
    assert cheapest.change.settings == (("start_points", (0, 6, 0, 0)),) and cheapest.status == "not_certified"
    assert cheapest.objective == "cheapest" and "objective cheapest" in cheapest.method
    equal = find_fix(question(objective="most_equal"), play=surface(head_start_truth))
    assert equal.status == "certified", equal.to_dict()
    # 1,7 or 2,8 are never played: the model predicts them exactly as 0,6, so they would tie and the cheaper win.
    # The race does not separate 5 (0.8 points) from 6 (0.2) within the budget (a worst deviation near 0 is noisy
    # in a way the shared seeds do not cancel: |0.8 + e| − |0.2 + e|), so it ends on the budget with the most equal
    # on its games, as compensate's race does
    assert equal.change.settings == (("start_points", (0, 6, 0, 0)),)
    d = equal.to_dict()
    assert d["objective"] == "most_equal" and "objective most_equal" in d["method"]
    assert "cheapest of them is chosen" in d["method"] and d["search"] == "budget"
    played = {a["change"]["settings"][0]["value"][1] for a in d["alternatives"]}
    assert played <= {5, 7, 8}
    assert abs(d["after"][0]["share"] - 0.502) < 0.005


def test_most_equal_gives_the_same_answer_again():
    q = question(objective="most_equal")
    once, again = (find_fix(q, play=surface(head_start_truth)).to_dict() for _ in range(2))
    assert once == again


@pytest.mark.parametrize("bad", ["equal", 3, ["most_equal"], ""])
def test_an_unknown_objective_is_refused_naming_its_key(bad):
    with pytest.raises(FixQuestionError, match=r"key 'fix\.objective': expected \"cheapest\" or \"most_equal\""):
        question(objective=bad)


def test_the_default_objective_is_cheapest():
    assert question().objective == "cheapest"
