"""`--json` on the analysis commands: one JSON object per answer with stable keys (docs/analysis.md, JSON output),
every estimate with its interval and games; "not available for this game" as a JSON object with the reason;
`simlab balance` on a game without per-round scores (Roma) answers what it can and says what it cannot."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli

ENVELOPE = {"format", "command", "folder", "game", "level", "tables", "not_available"}

ROMA = """\
game = "roma"
players = 2
games = 40
seed = 5
chunk_size = 20
lineup = ["builder", "warrior"]

[variants.original]
preset = "original"

[variants.bribe_disc]
preset = "bribe_disc"
"""


@pytest.fixture(scope="module")
def roma_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("roma_json")
    (base / "roma.toml").write_text(ROMA)
    return simlab.run_scenario(base / "roma.toml", jobs=1, out=base / "results", progress=False)


def answer(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # stdout holds the JSON alone
    assert set(data) >= ENVELOPE and data["format"] == 1 and data["command"] == args[0] and data["level"] == 0.95
    return data


def assert_estimates(rows: list[dict], *names: str) -> None:
    assert rows
    for row in rows:
        assert "games" in row and row["games"] > 0
        for name in names:
            assert {name, f"{name}_lo", f"{name}_hi"} <= set(row), name
            if row[name] is not None and row[f"{name}_lo"] is not None:
                assert row[f"{name}_lo"] <= row[name] <= row[f"{name}_hi"]


def test_seats_json(real_folder):
    data = answer("seats", str(real_folder), "--base", "control")
    assert data["game"] == "massilia" and data["base"] == "control" and data["not_available"] == []
    assert set(data["tables"]) == {"seats", "equal_seats", "verdicts", "compare"}
    assert {v["verdict"] for v in data["tables"]["verdicts"]} <= {"unequal", "small", "within", "fair", "undetermined"}
    assert_estimates(data["tables"]["seats"], "win_share", "score", "rank")
    assert len(data["tables"]["seats"]) == 5 * 4
    assert {"variant", "chi2_equal", "df_equal", "p_equal", "games"} == set(data["tables"]["equal_seats"][0])
    assert_estimates(data["tables"]["compare"], "diff")


def test_compensation_json(real_folder):
    data = answer("compensation", str(real_folder))
    fit = data["tables"]["fit"]
    assert [r["seat"] for r in fit] == [3]
    assert {"fair_offset", "fair_lo", "fair_hi", "games"} <= set(fit[0])
    # 160 games per offset: the Fieller interval is unbounded, and an infinite end is null (not Infinity)
    assert fit[0]["fair_lo"] is None or fit[0]["fair_lo"] <= fit[0]["fair_offset"]
    assert data["players"] == 4 and data["tables"]["points"] and data["tables"]["curve"]


def test_cards_json(real_folder):
    data = answer("cards", str(real_folder))
    rows = data["tables"]["cards"]
    assert {r["label"] for r in rows} == {"mercure", "pluton", "money2", "money4"}
    assert_estimates(rows, "win_share_diff")
    assert data["control"] == "control" and data["adjust"] == "holm"
    cards = sorted((r for r in rows if r["kind"] == "card"), key=lambda r: r["rank"])
    assert [r["rank"] for r in cards] == [1, 2] and all(r["rank_lo"] <= r["rank"] <= r["rank_hi"] for r in cards)
    assert cards[0]["win_share_diff"] >= cards[1]["win_share_diff"]
    assert all(r["rank"] is None for r in rows if r["kind"] == "money")


def test_markets_json(real_folder):
    data = answer("markets", str(real_folder))
    assert {"collapses", "sale_yield", "trajectories"} <= set(data["tables"]) and data["not_available"] == []
    assert data["tables"]["collapses"] and data["tables"]["trajectories"]


def test_balance_json(real_folder):
    data = answer("balance", str(real_folder))
    assert set(data["tables"]) == {"summary", "lead", "variance"} and data["not_available"] == []
    assert_estimates(data["tables"]["summary"], "turns", "margin", "draw_rate")
    assert {r["component"] for r in data["tables"]["variance"]} >= {"seat", "bot", "chance"}


def test_json_is_valid_json_with_nulls_not_nan(real_folder):
    for command in ("seats", "cards", "balance"):
        text = CliRunner().invoke(cli, [command, str(real_folder), "--json"]).stdout
        assert "NaN" not in text and "Infinity" not in text
        json.loads(text)


def test_chart_line_goes_to_stderr_with_json(real_folder, tmp_path):
    result = CliRunner().invoke(cli, ["seats", str(real_folder), "--json", "--chart", str(tmp_path / "s.png")])
    assert result.exit_code == 0 and "chart:" in result.stderr
    json.loads(result.stdout)


def test_roma_markets_json_is_not_available_with_the_reason(roma_results):
    data = answer("markets", str(roma_results))
    assert data["game"] == "roma" and data["tables"] == {}
    (missing,) = data["not_available"]
    assert missing["analysis"] == "market_summary"
    assert "not available for this game" in missing["reason"]
    # the missing role in plain words, never its internal name (31ff1a5)
    assert "does not record market prices by round" in missing["reason"] and "market.price" not in missing["reason"]


def test_roma_balance_answers_what_it_can(roma_results):
    result = CliRunner().invoke(cli, ["balance", str(roma_results)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "game length, margin of victory" in result.output and "how much of the score is luck" in result.output
    assert "decisiveness: win chance" not in result.output
    assert (
        "not available for this game" in result.output and "does not record the score after each round" in result.output
    )
    data = answer("balance", str(roma_results))
    assert set(data["tables"]) == {"summary", "variance"}
    assert_estimates(data["tables"]["summary"], "turns", "margin")
    (missing,) = data["not_available"]
    assert missing["analysis"] == "lead_metrics" and "the score after each round" in missing["reason"]
    assert "score.round" not in missing["reason"]  # the role in plain words, never its internal name


def test_roma_seats_json(roma_results):
    data = answer("seats", str(roma_results))
    assert_estimates(data["tables"]["seats"], "win_share", "score")
    assert len(data["tables"]["seats"]) == 2 * 2


def test_csv_prints_the_main_table(real_folder):
    import polars as pl

    for command, first, n in (
        ("seats", "win_share_lo", 5 * 4),
        ("cards", "win_share_diff_hi", 4),
        ("balance", "turns", 5),
    ):
        result = CliRunner().invoke(cli, [command, str(real_folder), "--csv"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        df = pl.read_csv(io.StringIO(result.stdout))
        assert df.height == n and first in df.columns and "games" in df.columns, command
        table = answer(command, str(real_folder))["tables"]
        assert df.columns == list(next(iter(table.values()))[0])  # the first table of --json, same columns


def test_csv_of_an_unavailable_analysis_says_why_on_stderr(roma_results):
    result = CliRunner().invoke(cli, ["markets", str(roma_results), "--csv"], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout == ""
    assert "not available for this game" in result.stderr
