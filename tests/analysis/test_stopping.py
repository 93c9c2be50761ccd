"""A run that stopped when its question was settled says so: ``simlab seats|cards --json`` carry its ``stopping``
block, the text states the rule, the report shows "games needed per verdict"; a fixed-size run shows none of it.

The block is the one the runner writes (``simlab run --until settled``); here a real card-value folder's manifest
is extended with it, its verdicts those ``settled_verdicts`` gives at two looks.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from simlab.analysis import sequential
from simlab.analysis.frames import AnalysisError
from simlab.analysis.stopping import needed_table, read_stopping, rule_sentence
from simlab.cli import cli


def _block(folder: Path) -> dict:
    """A stopping block as the runner would write it after looks at 80 and 160 games (δ = 20 points)."""
    looks = [80, 160]
    first = {v.key: v for v in sequential.settled_verdicts(folder, tolerance=20.0, games=80)}
    last = sequential.settled_verdicts(folder, tolerance=20.0)
    verdicts = []
    for v in last:
        settled_at = 80 if first[v.key].settled else 160 if v.settled else None
        verdicts.append({**v.as_dict(), "settled_at": settled_at})
    variants = {name: {"games": 160, "stopped_at": None} for name in ("control", "mercure_seat1", "pluton_seat2")}
    variants |= {"money2_seat3": {"games": 160, "stopped_at": 160}, "money4_seat3": {"games": 160, "stopped_at": None}}
    outcome = "settled" if all(v.settled for v in last) else "max_games"
    return {
        "rule": "settled",
        "tolerance": 20.0,
        "alpha": 0.05,
        "max_games": 160,
        "looks": looks,
        "outcome": outcome,
        "variants": variants,
        "verdicts": verdicts,
    }


@pytest.fixture(scope="module")
def settled_folder(real_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("settled") / "results"
    shutil.copytree(real_folder, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["stopping"] = _block(folder)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def _json(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_card_verdicts_of_a_card_value_folder(real_folder):
    verdicts = sequential.settled_verdicts(real_folder, tolerance=20.0)
    assert [v.key for v in verdicts] == [
        "card/mercure_seat1",
        "card/pluton_seat2",
        "card/money2_seat3",
        "card/money4_seat3",
    ]
    assert all(v.variants[1] == "control" and v.n == 160 and v.lo <= v.estimate <= v.hi for v in verdicts)
    assert "seat 1" in verdicts[0].label and "mercure" in verdicts[0].label
    money = verdicts[2].label
    assert money.startswith("+2 ") and "money" not in money  # the game's own unit, not the internal label


def test_cards_and_seats_json_carry_the_stopping_block(settled_folder, real_folder):
    for command in ("cards", "seats"):
        data = _json(command, str(settled_folder))
        block = data["stopping"]
        assert block["rule"] == "settled" and block["looks"] == [80, 160] and block["tolerance"] == 20.0
        assert {v["key"] for v in block["verdicts"]} == {v["key"] for v in _block(settled_folder)["verdicts"]}
        assert all("settled_at" in v and v["lo"] <= v["estimate"] <= v["hi"] for v in block["verdicts"])
        assert "every look" in block["rule_text"] and "95%" in block["rule_text"]
        assert block["variants"]["money2_seat3"]["stopped_at"] == 160
        assert "stopping" not in _json(command, str(real_folder))  # a fixed-size run states no rule


def test_the_text_answer_states_the_rule(settled_folder):
    result = CliRunner().invoke(cli, ["cards", str(settled_folder)], catch_exceptions=False)
    assert result.exit_code == 0
    assert "Stopping rule:" in result.output and "at every look" in result.output


def test_the_report_shows_games_needed_per_verdict(settled_folder, real_folder):
    from simlab.report.context import load_context
    from simlab.report.sections.stopping import stopping_section

    sec, _ = stopping_section(load_context(settled_folder, 0.95))
    assert sec is not None and sec.tables[0].title == "Games needed per verdict"
    table = sec.tables[0]
    assert len(table.rows) == 4 and table.header[-1] == "settled at"
    assert any("Stopping rule" in f.text for f in sec.findings)
    assert "money2_seat3 at 160" in sec.notes[-1] and "valid at every look" in sec.notes[0]
    assert stopping_section(load_context(real_folder, 0.95)) == (None, "")


def test_the_games_needed_table_lists_settled_verdicts_first():
    block = {
        "rule": "settled",
        "tolerance": 1.0,
        "alpha": 0.05,
        "max_games": 1000,
        "looks": [100, 200],
        "outcome": "max_games",
        "variants": {"v": {"games": 200, "stopped_at": None}},
        "verdicts": [
            {"key": k, "label": k, "state": s, "direction": 0, "estimate": 0.0, "lo": -0.1, "hi": 0.1, "n": 200}
            | {"settled_at": at}
            for k, s, at in (("a", "open", None), ("b", "within", 200), ("c", "beyond", 100))
        ],
    }
    assert needed_table(read_stopping({"stopping": block}))["key"].to_list() == ["c", "b", "a"]
    assert "±1 point of win share" in rule_sentence(block)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"rule": "fixed"}, "stopping.rule"),
        ({"looks": "100"}, "stopping.looks"),
        ({"verdicts": [{"key": "a"}]}, "stopping.verdicts[0]"),
        ({"outcome": "done"}, "stopping.outcome"),
        ({"alpha": 5}, "stopping.alpha"),
    ],
)
def test_a_malformed_block_is_refused_with_where(change, where):
    block = {
        "rule": "settled",
        "tolerance": 1.0,
        "alpha": 0.05,
        "max_games": 1000,
        "looks": [],
        "outcome": "settled",
        "variants": {},
        "verdicts": [],
    }
    with pytest.raises(AnalysisError, match=f"manifest.json: {where.replace('[', '.').replace(']', '.')}"):
        read_stopping({"stopping": block | change})


def test_an_unfinished_run_until_settled_reads_as_not_finished():
    """A run killed between looks records no outcome yet (null): it is read, and said to be unfinished."""
    from simlab.analysis.stopping import outcome_sentence, read_stopping

    block = {
        "rule": "settled", "tolerance": 1.0, "alpha": 0.05, "max_games": 200, "looks": [20, 40], "outcome": None,
        "variants": {"control": {"games": 40, "stopped_at": None}},
        "verdicts": [{"key": "card/a", "label": "a", "state": "open", "direction": 0, "estimate": 0.01, "lo": -0.1,
                      "hi": 0.12, "n": 40, "settled_at": None}],
    }  # fmt: skip
    assert read_stopping({"stopping": block}) is block
    assert outcome_sentence(block).startswith("The run has not finished its rule: 1 of 1 verdicts open after 2 looks")


def _kinds_block(keys: list[str], settle: str) -> dict:
    verdicts = [
        {"key": k, "label": k, "state": "within", "direction": 0, "estimate": 0.0, "lo": -0.01, "hi": 0.01, "n": 9}
        | {"settled_at": 9}
        for k in keys
    ]
    return {"rule": "settled", "settle": settle, "tolerance": 1.0, "alpha": 0.05, "max_games": 9, "looks": [9],
            "outcome": "settled", "variants": {}, "verdicts": verdicts}  # fmt: skip


def test_the_rule_sentence_names_the_null_values_of_the_verdicts_it_waited_for():
    """A card design's rule was asked of its cards against zero, a headline seats design of its seats against 1/N:
    the sentence names those, not "zero for a change or a card" whatever the design."""
    cards = rule_sentence(_kinds_block(["card/a", "card/b"], "headline"), "god")
    assert "of its null value (zero for a god's value)" in cards and "1/N" not in cards and "change" not in cards
    seats = rule_sentence(_kinds_block(["seats/base", "seats/more"], "headline"), "card")
    assert "(1/N for a seat's share)" in seats and "zero for" not in seats
    every = rule_sentence(_kinds_block(["seats/base", "seats/base/seat 0", "change/more/seat 0"], "every"), "card")
    assert "(1/N for a seat's share, zero for a seat's change against the base)" in every


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"futility": 1.5}, "stopping.futility"),
        ({"futility": True}, "stopping.futility"),
        ({"verdicts": [{**_kinds_block(["card/a"], "headline")["verdicts"][0], "p_settle": 2}]}, "p_settle"),
        ({"verdicts": [{**_kinds_block(["card/a"], "headline")["verdicts"][0], "out_of_reach_at": -1}]}, "out_of_r"),
    ],
)
def test_a_malformed_futility_record_is_refused(change, where):
    with pytest.raises(AnalysisError, match=where):
        read_stopping({"stopping": _kinds_block(["card/a"], "headline") | change})
