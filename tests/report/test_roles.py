"""Analyses by role: the manifest's role map, Roma's card value through its declared intervention, and
"not available for this game" (CLI, report, notebook) where a game declares no market or no money
intervention — never an error, a traceback or a Massilia word."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import simlab
from simlab import analysis as A
from simlab.cli import cli
from simlab.core.errors import NotAvailableError
from simlab.report.build import build_report
from simlab.report.html import render

#: words that belong to Massilia (its money, points, components), never to be seen in a Roma report
MASSILIA_WORDS = re.compile(r"massilia|sesterc|fame|deity|deities|cube|jupiter|mercure|pluton|harbour", re.I)


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def _copy(folder: Path, dest: Path, edit) -> Path:
    shutil.copytree(folder, dest)
    manifest = json.loads((dest / "manifest.json").read_text())
    edit(manifest)
    (dest / "manifest.json").write_text(json.dumps(manifest))
    return dest


def test_manifest_holds_the_role_map_units_and_interventions(roma_folder, quick_folder):
    for folder, name in ((roma_folder, "roma"), (quick_folder, "massilia")):
        facts = simlab.load_manifest(folder)["facts"]
        game = simlab.get_game(name)
        assert facts["roles"] == game.fact_manifest(game.make_config())["roles"]
        assert facts["units"] == game.fact_set.units.as_dict()
        assert {i["kind"] for i in facts["interventions"]} >= {"card", "money"}
    quick = simlab.load_manifest(quick_folder)["facts"]
    assert quick["roles"]["market.price"][0]["column"] == "price_temple_r1"
    assert quick["units"]["money_plural"] == "sesterces"
    assert simlab.load_manifest(roma_folder)["facts"]["units"]["money_plural"] == "sestertii"


def test_roma_markets_are_not_available(roma_folder):
    result = CliRunner().invoke(cli, ["markets", str(roma_folder)])
    assert result.exit_code == 0, result.output
    assert (
        "market analysis is not available for this game: game 'roma' does not record market prices by round"
        in result.output
    )
    assert "market.price" not in result.output  # a reader never sees a role name
    assert "Traceback" not in result.output and "error" not in result.output
    with pytest.raises(NotAvailableError, match="not available for this game") as err:
        A.market_summary(roma_folder)
    assert err.value._render_traceback_() == [str(err.value)]  # a notebook shows the message alone


def test_no_money_intervention_is_not_available(roma_folder, tmp_path):
    def drop(manifest):
        manifest["facts"]["interventions"] = []

    folder = _copy(roma_folder, tmp_path / "nomoney", drop)
    for command in ("compensation", "cards"):
        result = CliRunner().invoke(cli, [command, str(folder)])
        assert result.exit_code == 0, result.output
        assert "is not available for this game: game 'roma' declares no" in result.output, command
        assert "Traceback" not in result.output and "error" not in result.output
    assert "compensation is not available for this game: game 'roma' declares no money intervention" in (
        CliRunner().invoke(cli, ["compensation", str(folder)]).output
    )
    report = build_report(folder)
    seats = next(s for s in report.sections if s.id == "seats")
    # the report says in plain words what the game lacks (the CLI above names the missing declaration)
    assert "No compensation fit: the game has no setting that changes one seat's starting sestertii." in seats.notes
    assert "Card value: not available: the game has nothing a seat can be given at the start to price." in (
        report.not_covered
    )


def test_a_folder_without_a_role_map_gets_the_declared_roles(quick_folder, roma_folder, tmp_path):
    """Folders written before role maps: roles come from the game's declarations and the columns."""

    def drop(manifest):
        del manifest["facts"]

    old = _copy(quick_folder, tmp_path / "old", drop)
    assert A.has_market(old)
    assert A.market_summary(old).collapses.equals(A.market_summary(quick_folder).collapses)
    old_roma = _copy(roma_folder, tmp_path / "old_roma", drop)
    assert not A.has_market(old_roma)
    assert (
        "does not record market prices by round or market demand by round"
        in CliRunner().invoke(cli, ["markets", str(old_roma)]).output
    )


def test_roma_report_speaks_roma(roma_folder):
    report = build_report(roma_folder)
    text = _text(render(report))
    assert not MASSILIA_WORDS.search(text), MASSILIA_WORDS.search(text)
    assert (
        "Markets: not in these results (the game does not record market prices by round or market demand by round)."
        in (report.not_covered)
    )


def test_roma_card_value(roma_cards_folder):
    result = CliRunner().invoke(cli, ["cards", str(roma_cards_folder)])
    assert result.exit_code == 0, result.output
    assert "forum" in result.output and "sestertii" in result.output and "+3 sestertii" in result.output
    assert not MASSILIA_WORDS.search(result.output)
    df = A.card_value(roma_cards_folder)
    assert set(df.filter(pl.col("kind") == "card")["label"]) == set(simlab.games.roma.data.CARD_KEYS)
    assert df["money_source"][0] == "paired money3 variants" and df["money"].drop_nulls().len() == 26
    assert df.filter(pl.col("kind") == "card")["played_diff"].drop_nulls().len() > 0  # laid_<card>: card.played
    report = build_report(roma_cards_folder)
    assert "cards" in [s.id for s in report.sections]
    cards = next(s for s in report.sections if s.id == "cards")
    assert any(f.text.startswith("Most valuable card:") and "sestertii" in f.text for f in cards.findings)
    text = _text(render(report))
    assert not MASSILIA_WORDS.search(text), MASSILIA_WORDS.search(text)
