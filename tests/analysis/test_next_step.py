"""`simlab run` ends with the run's answer in one line and the command that shows more (issue 17, item 7)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from simlab.analysis.next_step import next_step
from simlab.cli import cli

SEATS = """\
game = "massilia"
players = 4
games = 40
seed = 9
chunk_size = 20
lineup = ["trader", "priest", "trader", "priest"]

[variants.rulebook]
preset = "rulebook"

[variants.quined2014]
preset = "quined2014"
"""


def test_a_card_value_run_answers_with_its_best_card(real_folder):
    step = next_step(real_folder)
    assert re.match(r"the most valuable card is (mercure|pluton): [+-]\d+\.\d points of win share", step.answer)
    assert re.search(
        r"\[[+-]\d+\.\d, [+-]\d+\.\d\] against the control \(95% simultaneous over the 2 cards, as it is the "
        r"largest of them\); .* \(rank intervals 95% simultaneous\); \d of 2 cards change the win share clearly "
        r"\(Holm-adjusted p < 0\.05\)$",
        step.answer,
    )
    assert step.command == f"simlab cards {real_folder}" and step.report == f"simlab report {real_folder}"


def test_a_money_sweep_answers_with_the_fair_offset(real_folder, tmp_path):
    """Without a card intervention's variants the money variants make it a sweep: simlab compensation."""
    import json
    import shutil

    folder = tmp_path / "sweep"
    shutil.copytree(real_folder, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["facts"]["interventions"] = [i for i in manifest["facts"]["interventions"] if i["kind"] != "card"]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    step = next_step(folder)
    assert step.answer.startswith("seat 3 wins a fair 1/4 with ")
    assert " starting sesterces [" in step.answer and step.answer.endswith("] against the others' mean")
    assert step.command == f"simlab compensation {folder}"


@pytest.fixture(scope="module")
def seats_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("next")
    (base / "seats.toml").write_text(SEATS)
    return base


def test_simlab_run_prints_the_answer_and_the_next_command(seats_run):
    out = seats_run / "out"
    result = CliRunner().invoke(cli, ["run", str(seats_run / "seats.toml"), "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    answer = next(ln for ln in lines if ln.startswith("answer: "))
    assert re.search(
        r"rulebook: with n=40 games per seat, seat \d — the furthest from the fair 25\.0% — wins \d+\.\d% "
        r"\[\d+\.\d, \d+\.\d\] \(95% simultaneous over the 4 seats\), so ",
        answer,
    )
    assert "; quined2014: with n=40 games per seat, seat" in answer
    nxt = next(ln for ln in lines if ln.startswith("next: "))
    assert f"simlab seats {out} --base rulebook" in nxt and f"simlab report {out}" in nxt
    assert lines.index(answer) < lines.index(nxt) < len(lines) - 1  # before the results: line


def test_a_run_of_many_variants_keeps_its_first_look_short(real_folder):
    from simlab.run.first_look import first_look_lines

    lines = first_look_lines(real_folder, max_variants=2)
    assert len(lines) == 2 + 2 + 2 + 2 + 1  # two tables of two variants, and the note
    assert "the first 2 of 5 variants" in lines[-1]
    assert len(first_look_lines(real_folder)) == 2 + 5 + 2 + 5  # six or fewer: all of them


def test_the_first_look_reads_under_its_old_name_too() -> None:
    """``simlab.run.summary.summary_lines`` (the name cli.py and older scripts import) is the first look."""
    from simlab.run import first_look, summary

    assert summary.summary_lines is first_look.first_look_lines
