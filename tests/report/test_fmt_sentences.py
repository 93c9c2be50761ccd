"""Numbers in the report's sentences read as a person writes them (issue 32): "p < 1e-12", never "p = <1e-12";
a value or bound that rounds to zero prints 0.0, never "−0.0" or "-0.0"."""

from __future__ import annotations

import pytest

from simlab.report import fmt as F


@pytest.mark.parametrize(
    ("value", "places", "sign", "shown"),
    [
        (-0.04, 1, False, "0.0"),
        (-0.004, 2, False, "0.00"),
        (-0.04, 1, True, "0.0"),
        (-0.0, 1, False, "0.0"),
        (0.0, 1, True, "0.0"),
        (-0.05, 1, False, "−0.1"),  # a value that does not round to zero keeps its sign
        (-0.06, 1, True, "−0.1"),
        (0.06, 1, True, "+0.1"),
        (-1234.5, 0, False, "−1,234"),
    ],
)
def test_a_number_that_rounds_to_zero_has_no_sign(value, places, sign, shown):
    assert F.num(value, places, sign) == shown


def test_intervals_with_a_bound_that_rounds_to_zero():
    assert F.ci(-0.0004, 0.0123, 100) == "[0.0, 1.2]"
    assert F.ci(-0.0004, 0.0123, 100, sign=True) == "[0.0, +1.2]"
    assert F.est_ci(0.006, -0.0002, 0.0123, 100) == "0.6 [0.0, 1.2]"
    assert F.pct_ci(0.3, -0.00001, 0.6) == "30.0% [0.0%, 60.0%]"
    assert F.points(-0.0001) == "0.0 points"
    for text in (F.ci(-0.0004, 0.0123, 100), F.est_ci(0.006, -0.0002, 0.0123, 100), F.points(-0.0001)):
        assert "−0.0" not in text and "-0.0" not in text


@pytest.mark.parametrize(
    ("p", "shown"), [(1e-15, "p < 0.001"), (0.0, "p < 0.001"), (0.0004, "p < 0.001"), (0.034, "p = 0.034")]
)
def test_p_value_is_a_phrase_with_one_relation(p, shown):
    assert F.p_value(p) == shown


@pytest.mark.parametrize(
    ("text", "tidied"),
    [
        ("all seats equal? chi2 = 51.2, df = 3, p = <1e-12", "all seats equal? chi2 = 51.2, df = 3, p < 1e-12"),
        ("interaction p = <1e-4 Holm-adjusted", "interaction p < 1e-4 Holm-adjusted"),
        ("Holm-adjusted p = < 1e-12)", "Holm-adjusted p < 1e-12)"),
        ("seat 2 wins −0.0 points [−0.0, +1.3]", "seat 2 wins 0.0 points [0.0, +1.3]"),
        ("trader -0.0 [-0.00, +0.4]; priest +0.0%", "trader 0.0 [0.00, +0.4]; priest 0.0%"),
        ("a difference of −0 cubes, then −0.0.", "a difference of 0 cubes, then 0.0."),
    ],
)
def test_sentences_are_tidied(text, tidied):
    assert F.tidy(text) == tidied


@pytest.mark.parametrize(
    "text",
    [
        "−0.05 points [−0.01, +0.02]",  # small but not zero: kept
        "-0.03",
        "x-0.05",
        "rounds 1-0 and 10-0.5",
        "p = 0.034",
        "1e-0.0",
        "version 1.0-0.0",
    ],
)
def test_tidy_leaves_other_numbers_alone(text):
    assert F.tidy(text) == text
