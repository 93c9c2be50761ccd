"""The search's spec names (simlab.core.search_spec): ``race`` is the rollout race, ``ismcts:candidates=0`` the
tree, and a bare ``ismcts`` — the name folders and scenarios made before ``race`` hold — still the race with the
same identity, so such a folder loads, reports and resumes as it did (tests/run/folders/legacy_ismcts, made by
main of 2026-12-06 before the names)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import simlab
from simlab.cli import cli
from simlab.core.errors import BotSpecError
from simlab.core.loop import KIND_SEARCH
from simlab.core.search import P_CANDIDATES

FOLDERS = Path(__file__).parents[1] / "run" / "folders"
LEGACY = FOLDERS / "legacy_ismcts"


@pytest.fixture(scope="module")
def pig():
    from tests.examples.pig.game import GAME

    return GAME


def test_every_game_offers_the_race_first_and_ismcts_beside_it(pig):
    assert pig.bots.search_names() == ["race", "ismcts"]
    assert not {"race", "ismcts"} & set(pig.bots.names())  # neither joins default lineups
    race = pig.bots.make("race")
    assert race.kind == KIND_SEARCH and race.name == "race" and race.params[P_CANDIDATES] == 4
    assert "rollout race" in pig.bots.info("race").doc and "c" not in pig.bots.info("race").params


@pytest.mark.parametrize(
    ("race", "ismcts"),
    [
        ("race", "ismcts"),
        ("race:iterations=24,candidates=3,rank_weight=0.3", "ismcts:iterations=24,candidates=3,rank_weight=0.3"),
        ("race:rollout=random,iterations=8", "ismcts:iterations=8,rollout=random"),
    ],
)
def test_race_is_the_same_bot_as_a_bare_ismcts(pig, race, ismcts):
    """The same parameter vector, so the same decisions: a spec renamed from ismcts to race plays identically."""
    assert np.array_equal(pig.bots.make(race).params, pig.bots.make(ismcts).params)
    a, b = pig.bots.resolve(race), pig.bots.resolve(ismcts)
    assert (a["bot"], b["bot"]) == ("race", "ismcts") and a["params"] == b["params"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("race:candidates=0", r"race needs candidates >= 1; for the tree write ismcts:candidates=0"),
        ("race:c=1.2", r"c is a parameter of the tree.*ismcts:candidates=0,c=\.\.\."),
        ("race:seconds=1", r"seconds is a parameter of the tree"),
        ("race:prior=2", r"prior is a parameter of the tree"),
        ("race:bogus=1", r"bot 'race' of 'pig' has no parameter 'bogus'; allowed: iterations, rank_weight"),
    ],
)
def test_race_refuses_what_only_the_tree_reads(pig, spec, message):
    with pytest.raises(BotSpecError, match=message):
        pig.bots.make(spec)


def test_the_tree_is_still_ismcts_with_candidates_0(pig):
    tree = pig.bots.make("ismcts:candidates=0,c=1.2,prior=2")
    assert tree.params[P_CANDIDATES] == 0


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [*args])
    return result.exit_code, result.output


def _rows(folder: Path):
    return simlab.load_results(folder).collect().sort(["game"] if "game" in _columns(folder) else [])


def _columns(folder: Path) -> list[str]:
    return simlab.load_results(folder).collect_schema().names()


def test_an_old_folder_naming_ismcts_loads_reports_and_resumes_with_the_same_identity(tmp_path):
    folder = tmp_path / "legacy_ismcts"
    shutil.copytree(LEGACY, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    stored = manifest["identity"]["resolved_bots"]["ismcts:iterations=4"]
    assert stored == simlab.get_game("roma").bots.resolve("ismcts:iterations=4")  # the same bot today
    assert simlab.load_results(folder).collect().height == 4 * 2
    for command in (["verify", str(folder)], ["seats", str(folder), "--json"]):
        code, output = _run(*command)
        assert code == 0, output
    code, output = _run("report", str(folder), "--out", str(tmp_path / "report.html"))
    assert code == 0 and (tmp_path / "report.html").stat().st_size > 0, output
    scenario = FOLDERS / "legacy_ismcts.toml"
    code, output = _run("run", str(scenario), "--out", str(folder), "--resume", "--games", "8", "-j", "1")
    assert code == 0, output
    resumed = json.loads((folder / "manifest.json").read_text())
    assert resumed["games_done"] == 8 and resumed["identity"] == manifest["identity"]
    fresh = tmp_path / "fresh"
    code, output = _run("run", str(scenario), "--out", str(fresh), "--games", "8", "-j", "1")
    assert code == 0, output
    # the resumed games are those the old name plays today: equal on every column the old folder wrote (the
    # game has recorded more facts since, Roma's luck: the old parts read them as nulls)
    written = _columns(LEGACY)
    assert _rows(folder).select(written).equals(_rows(fresh).select(written))
    added = [c for c in _columns(fresh) if c not in written]
    later = _rows(folder).filter(pl.col("game") >= 4).select(added)  # the games the resume played
    assert later.equals(_rows(fresh).filter(pl.col("game") >= 4).select(added))
