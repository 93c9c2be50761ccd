"""A rule fix in the game's own words and units, and never "fair" over a failed certification (issue 34, item 4)."""

from __future__ import annotations

import copy

from simlab.analysis import fix_words as W
from tests.fix_example import CERTIFIED, failed_for


def test_a_money_change_is_said_in_the_games_money_and_a_table_change_by_its_entries():
    said = W.change_text(CERTIFIED["change"], W.vocabulary("massilia"))
    assert said.startswith("give seat 3 two more sesterces and make the turn-order tiles (turn_tiles")
    assert "2, 4, 4 instead of 2, 3, 4 (the 3 becomes 4)" in said


def test_each_game_says_its_own_money_and_points():
    roma = W.vocabulary("roma")
    change = {"settings": [{"knob": "start_vp", "published": [10, 10], "value": [10, 11]}]}
    assert W.change_text(change, roma) == f"give seat 1 one more {roma.words.units.points}"
    fewer = {"settings": [{"knob": "start_money", "published": [6, 6, 6, 6], "value": [6, 4, 6, 6]}]}
    assert W.change_text(fewer, W.vocabulary("massilia")) == "give seat 1 two sesterces fewer"


def test_a_scalar_knob_says_its_description_and_both_values():
    change = {"settings": [{"knob": "rounds", "published": 7, "value": 8}]}
    assert W.change_text(change, W.vocabulary("massilia")) == "make the rounds in a game (rounds) 8 instead of 7"


def test_a_certified_change_is_fair_for_every_bot_tested():
    text, tone = W.headline(CERTIFIED, W.vocabulary("massilia"))
    assert tone == "ok" and "Certified fair within ±2 points of win share for every bot tested" in text
    assert "(trader and priest each in every seat)" in text
    assert "132,000 games" in text


def test_never_fair_over_a_failed_certification():
    vocab = W.vocabulary("massilia")
    for result in (failed_for("priest"), {**copy.deepcopy(CERTIFIED), "status": "not_certified"}):
        text, tone = W.headline(result, vocab)
        assert tone == "warn" and "NOT certified" in text and "fair" not in text.replace("NOT certified", "")
        assert not W.is_certified(result)
    text, _ = W.headline(failed_for("priest"), vocab)
    assert "priest (worst seat 3.1 [2.4, 3.8] points from an equal share, n=20,000)" in text
    assert "trader" not in text  # only the bots for which it does not hold
    assert not W.is_certified({**CERTIFIED, "panel": []})  # no panel played: nothing certified


def test_the_answer_has_shares_guards_panel_alternatives_and_games():
    lines = W.answer_lines(CERTIFIED, W.vocabulary("massilia"))
    text = "\n".join(lines)
    assert "seat 3 | 20.7% [19.8%, 21.6%] | 24.9% [24.0%, 25.8%] | 20,000 / 20,000" in text
    assert "mean game length (turns) | 21.4 | 21.9 | [19.3, 23.5] | kept" in text
    assert "priest in every seat | yes | 0.8 [0.2, 1.3] points | 20,000" in text
    assert (
        "give seat 2 one more sesterce and give seat 3 three more sesterces | 1 knob, 4 steps | 0.9 [0.3, 1.5] points"
        in text
    )
    assert "games spent: explore 24,000, race 48,000, certify 60,000; total 132,000" in text


def test_progress_says_candidates_left_games_spent_and_the_best_with_its_interval():
    line = W.progress_line(
        {"phase": "race", "round": 3, "games": 12000, "candidates_left": 4, "best": "start_money 6,6,6,6 -> 6,6,7,8",
         "worst_deviation": 0.012, "lo": 0.004, "hi": 0.02}
    )  # fmt: skip
    assert line == (
        "race round 3: 4 candidates left, 12,000 games spent; best start_money 6,6,6,6 -> 6,6,7,8 "
        "(worst seat 1.2 [0.4, 2.0] points)"
    )
    certify = {"phase": "certify", "games": 12000, "certify_games": 40000, "best": "x", "fair": False}
    assert W.progress_line(certify) == "certify: 12,000 games spent, 40,000 certification games; best x; NOT certified"


def test_guards_are_said_in_words_rates_as_percentages_and_facts_by_their_description():
    vocab = W.vocabulary("massilia")
    fact = next(iter(vocab.facts))
    guards = {
        "guards": [
            {"name": "draws", "before": 0.012, "after": 0.03, "band": [0.0, 0.022], "ok": False},
            {"name": f"fact.{fact}", "before": 3.0, "after": 3.1, "band": [2.7, 3.3], "ok": True},
        ]
    }
    draws, facts = W.guard_rows(guards, vocab)
    assert draws == ["shared wins (share of games)", "1.2%", "3.0%", "[0.0%, 2.2%]", "BROKEN"]
    assert facts[0] == f"mean {vocab.facts[fact]} ({fact})" and facts[-1] == "kept"


def test_a_broken_guard_or_an_unsettled_search_is_never_fair():
    vocab = W.vocabulary("massilia")
    broken = copy.deepcopy(CERTIFIED)
    broken["status"] = "not_certified"
    broken["guards"][0]["ok"] = False
    text, tone = W.headline(broken, vocab)
    assert tone == "warn" and "NOT certified" in text and "breaks the guard mean game length (turns)" in text
    assert "the test failed for" not in text  # every bot passed: the guard is why
    assert not W.is_certified({**copy.deepcopy(CERTIFIED), "guards": broken["guards"]})
    budget = {**copy.deepcopy(CERTIFIED), "status": "budget", "change": None}
    text, tone = W.headline(budget, vocab)
    assert tone == "info" and text.startswith("Not settled: the budget ran out") and "fair" not in text
    none = {**copy.deepcopy(CERTIFIED), "status": "none_on_grid"}
    text, _ = W.headline(none, vocab)
    assert "No change on the declared grid" in text and "the closest: give seat 3 two more sesterces" in text


def test_a_knob_with_a_per_seat_grid_is_said_seat_by_seat_whatever_its_description():
    change = {"settings": [{"knob": "harbour_start", "published": [6, 6, 6, 10], "value": [6, 7, 6, 10]}]}
    said = W.change_text(change, W.vocabulary("massilia"))
    assert said.startswith("make the cubes in each harbour at setup (harbour_start")
    said = W.change_text(change, W.vocabulary("massilia", ["harbour_start"]))
    assert said == "set seat 1's cubes in each harbour at setup (harbour_start; same order) to 7 instead of 6"
