"""The report's "What would fix it?" section (issue 34, item 4): built from a fix folder, first in the report, in
the game's words; ``simlab report`` on a folder that holds only a fix search works."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from simlab.cli import cli
from simlab.report.build import build_report
from simlab.report.html import render
from simlab.run.fix_folder import FixStore
from tests.fix_example import CERTIFIED, failed_for

IDENTITY = {
    "scenario_sha256": "cd" * 32,
    "tolerance": 2.0,
    "budget": 200000,
    "panel": ["trader", "priest"],
    "alpha": 0.05,
    "seed": 0,
}
ABOUT = {
    "scenario": "massilia_fix",
    "source": "scenarios/massilia_fix.toml",
    "game": "massilia",
    "text": 'game = "massilia"\n',
    "players": 4,
    "lineup": ["trader", "priest"],
}


def _fix_folder(folder: Path, result: dict | None) -> Path:
    with FixStore.open(folder, IDENTITY, ABOUT, resume=False) as store:
        if result is not None:
            store.finish(result)
    return folder


def test_a_fix_only_folder_reports_the_fix_in_the_games_words(tmp_path):
    folder = _fix_folder(tmp_path / "fixed", CERTIFIED)
    report = build_report(folder)
    assert [s.id for s in report.sections] == ["fix"]
    first = report.answer[0]
    assert first.tone == "ok" and first.text.startswith("Recommended change: give seat 3 two more sesterces")
    page = render(report)
    assert "What would fix it?" in page and "The cheapest alternatives that also pass" in page
    assert "simlab fix scenarios/massilia_fix.toml --out" in page and "--resume" in page
    out = tmp_path / "fix.html"
    result = CliRunner().invoke(cli, ["report", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Certified fair within ±2 points" in out.read_text()


def test_a_failed_certification_is_never_reported_fair(tmp_path):
    report = build_report(_fix_folder(tmp_path / "failed", failed_for("priest")))
    text = " ".join(f.text for f in report.sections[0].findings)
    assert "NOT certified" in text and "Certified fair" not in text and "priest (worst seat 3.1" in text


def test_an_unfinished_search_says_how_to_resume_it(tmp_path):
    report = build_report(_fix_folder(tmp_path / "running", None))
    assert "has not finished" in report.answer[0].text and "--resume" in report.answer[0].text


def test_the_fix_section_leads_a_result_folders_report(tmp_path, quick_folder: Path):
    folder = tmp_path / "with_fix"
    shutil.copytree(quick_folder, folder)
    _fix_folder(folder, CERTIFIED)
    report = build_report(folder)
    ids = [s.id for s in report.sections]
    assert ids[0] == "fix" and "seats" in ids
    assert report.answer[0].text.startswith("Recommended change:")
    assert "the fix's 90% intervals, each bound a one-sided test at α = 0.05" in report.interval_note
    assert report.interval_note.endswith("the other sections' intervals are 95%."), "not the page's 95% alone"
