"""A sensitivity run's report (its variants change only assumed or placeholder knobs) leads with whether each
seat's verdict keeps its sign across the data variants."""

from __future__ import annotations

from pathlib import Path

import pytest

from simlab.analysis.robust import CHANGES, HOLDS, NONE, UNSETTLED, WORDS
from simlab.analysis.sensitivity import sensitivity
from simlab.report import build_report

SCENARIO = """\
description = "report tests: two assumed readings changed one at a time"
game = "massilia"
players = 4
games = 300
seed = 77
chunk_size = 150
lineup = ["trader", "priest", "trader", "priest"]
preset = "rulebook"

[variants.baseline]

[variants.beige2]
set = { beige_price = 2 }

[variants.keep_uncapped]
set = { hand_limit_caps_keep = false }
"""


@pytest.fixture(scope="module")
def sensitivity_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from simlab.run.runner import run_scenario

    base = tmp_path_factory.mktemp("sensitivity")
    path = base / "sensitivity.toml"
    path.write_text(SCENARIO)
    return run_scenario(path, jobs=1, out=base / "results", progress=False)


def test_the_report_leads_with_the_seat_verdicts_across_the_data(sensitivity_folder):
    report = build_report(sensitivity_folder)
    assert report.sections[0].id == "sensitivity"
    sec = report.sections[0]
    assert len(sec.findings) == 4 and all(f.headline for f in sec.findings)
    assert report.answer == sec.findings
    for f in sec.findings:
        assert f.text.startswith("seat advantage, seat ") and "300 games per variant" in f.text
    table = sec.tables[0]
    assert table.header == ["effect", "baseline", "beige2", "keep_uncapped", "verdict"]
    result = sensitivity(sensitivity_folder)
    assert set(result.verdicts["verdict"]) <= {CHANGES, HOLDS, NONE, UNSETTLED}
    assert [r[-1] for r in table.rows] == [WORDS["variant"][v] for v in result.verdicts["verdict"]]


def test_a_run_that_changes_a_rule_gets_no_sensitivity_section(tmp_path):
    from simlab.run.runner import run_scenario

    path = tmp_path / "rule.toml"
    path.write_text(
        SCENARIO.replace("games = 300", "games = 40").replace(
            "[variants.keep_uncapped]\nset = { hand_limit_caps_keep = false }",
            "[variants.rich]\nset = { start_money = [9, 9, 9, 9] }",
        )
    )
    folder = run_scenario(path, jobs=1, out=tmp_path / "results", progress=False)
    assert sensitivity(folder) is None
    assert "sensitivity" not in [s.id for s in build_report(folder).sections]


SWEEP = """\
description = "report tests: a starting-money sweep for seat 3"
game = "massilia"
players = 4
games = 200
seed = 41
chunk_size = 100
lineup = ["trader", "priest", "trader", "priest"]
preset = "rulebook"

[variants.control]

[variants.money2_seat3]
set = { start_money = [6, 6, 6, 8] }

[variants.money4_seat3]
set = { start_money = [6, 6, 6, 10] }
"""


def test_a_sweep_leads_with_the_fair_money_and_the_verified_vector(tmp_path):
    from simlab.run.runner import run_scenario

    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP)
    report = build_report(run_scenario(path, jobs=1, out=tmp_path / "results", progress=False))
    seats = report.sections[0]
    assert seats.id == "seats"
    first, second = seats.findings[0].text, seats.findings[1].text
    assert first.startswith("Seat 3") and ("would win 1/4" in first or "fair starting money is" in first)
    assert "simlab compensate massilia --players 4 --bots trader,priest,trader,priest" in second
    assert "confirmation run" in second and "seated them fixed" not in second  # compensate rotates, as this run
    assert report.answer[0].text == first
