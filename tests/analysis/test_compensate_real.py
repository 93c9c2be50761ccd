"""``simlab compensate`` on the real engine, at small budgets: the first line states the outcome its
confirmations support. Pantheon's rules are not fair and 400 confirmation games cannot certify a vector within
±1 point, so the answer is "not settled" or "no vector", never "fair" (it printed "fair extra_start_feet: 0,1,3,4"
over a confirmation that rejected equal seats)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from simlab.cli import cli

ARGS = ["--batch", "300", "--max-games", "6000", "--confirm-games", "400", "--seed", "1"]


def test_pantheon_compensate_never_says_fair_over_a_confirmation_that_cannot_support_it():
    result = CliRunner().invoke(cli, ["compensate", "pantheon", *ARGS, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["outcome"] in {"budget", "none"}
    assert answer["headline"].startswith(("not settled: the budget ran out", "no vector on this knob's grid"))
    published = answer["tables"]["published"]
    assert [r["value"] for r in published] == [0.0, 0.0, 0.0, 0.0] and all(r["games"] == 400 for r in published)
    assert answer["fair_within"] == 1.0
    text = CliRunner().invoke(cli, ["compensate", "pantheon", *ARGS], catch_exceptions=False)
    first = text.stdout.splitlines()[0]
    assert first == answer["headline"] and not first.startswith("fair ")
    assert "confirmation of the published rules on 400 fresh games" in text.stdout
