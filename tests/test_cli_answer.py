"""The CLI as argument parsing over one ``Answer`` and one emitter (issue 33, item 3): an answer prints as text,
``--json`` or ``--csv`` from the same object; the command modules are small and write no JSON of their own."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import polars as pl
import pytest

import simlab
from simlab.core.errors import NotAvailableError

ROOT = Path(simlab.__file__).parent


def cli_modules() -> list[Path]:
    """The CLI's source files: the package's modules (or the single file it once was)."""
    return sorted([*ROOT.glob("cli.py"), *(ROOT / "cli").glob("*.py")])


def test_the_cli_modules_are_small():
    """No module of the ``simlab`` command is longer than about 650 lines (cli.py was 1,408)."""
    long = {p.name: n for p in cli_modules() if (n := len(p.read_text(encoding="utf-8").splitlines())) > 650}
    assert long == {}


def test_no_command_writes_json_of_its_own():
    """Every command hands an Answer to the emitter (games, config, play, bench and verify too): no module but the
    emitter imports the JSON envelope or ``json``, none builds a payload by hand."""
    found = {}
    for path in cli_modules():
        if path.name == "answer.py":
            continue  # the emitter
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        bad = imported & {"json", "simlab.analysis.export"}
        if bad:
            found[path.name] = sorted(bad)
    assert found == {}


def an_answer(calls: list[str] | None = None):
    from simlab.cli.answer import Answer

    def lines() -> list[str]:
        if calls is not None:
            calls.append("text")
        return ["seat 0 wins 30% [25, 35]", "method: test"]

    first = pl.DataFrame({"seat": [0, 1], "win": [0.3, float("nan")]})
    tables = {"absent": None, "first": first, "second": pl.DataFrame({"x": [[1, 2]]})}
    return Answer(
        "seats", lines, tables, [("lead", "lead changes are not available")], fields={"game": "g", "base": None}
    )


def test_one_answer_prints_as_text(capsys):
    from simlab.cli.answer import emit

    emit(an_answer(), None)
    out = capsys.readouterr()
    assert out.out == "seat 0 wins 30% [25, 35]\nmethod: test\n" and out.err == ""


def test_one_answer_prints_as_json_in_the_envelope_without_its_text(capsys):
    from simlab.cli.answer import emit

    calls: list[str] = []
    emit(an_answer(calls), "json")
    data = json.loads(capsys.readouterr().out)
    assert calls == []  # the text is not computed for --json
    assert list(data) == ["format", "command", "game", "base", "tables", "not_available"]
    assert data["tables"] == {"first": [{"seat": 0, "win": 0.3}, {"seat": 1, "win": None}], "second": [{"x": [1, 2]}]}
    assert data["not_available"] == [{"analysis": "lead", "reason": "lead changes are not available"}]


def test_one_answer_prints_its_first_table_as_csv_and_reasons_on_stderr(capsys):
    from simlab.cli.answer import emit

    emit(an_answer(), "csv")
    out = capsys.readouterr()
    assert out.out == "seat,win\n0,0.3\n1,NaN\n"
    assert out.err == "lead changes are not available\n"


def test_an_analysis_the_game_does_not_declare_answers_its_reason(tmp_path, capsys):
    from simlab.cli.answer import answer_or_reason, emit

    def build():
        raise NotAvailableError("market prices: not available for this game")

    answer = answer_or_reason("markets", tmp_path, "market_summary", build)
    emit(answer, None, chart_path=str(tmp_path / "never.png"))
    assert capsys.readouterr().out == "market prices: not available for this game\n"
    assert not (tmp_path / "never.png").exists()  # no chart for an answer that is not there
    emit(answer, "json")
    data = json.loads(capsys.readouterr().out)
    assert data["folder"] == str(tmp_path) and data["tables"] == {}
    reason = "market prices: not available for this game"
    assert data["not_available"] == [{"analysis": "market_summary", "reason": reason}]


@pytest.mark.parametrize("fmt", [None, "json"])
def test_a_chart_that_cannot_be_drawn_says_why_where_the_answer_is_not(fmt, tmp_path, capsys):
    from simlab.cli.answer import Answer, emit

    emit(Answer("balance", ["x"], folder=tmp_path, chart="needs per-round scores"), fmt, chart_path="c.png")
    out = capsys.readouterr()
    where = out.err if fmt else out.out
    assert "no chart: needs per-round scores\n" in where


def test_compensate_seat_with_json_is_refused_before_a_game_is_played():
    """``compensate --seat --json`` printed text and ignored --json; now it says so and plays nothing."""
    from click.testing import CliRunner

    from simlab.cli import cli

    result = CliRunner().invoke(cli, ["compensate", "roma", "--seat", "1", "--max-games", "200", "--json"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: --json: compensate --seat answers in text only")
    assert "played" not in result.output  # no search step ran
