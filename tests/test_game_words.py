"""Each game in its own words (issue 32): the answers of ``seats``, ``cards``, ``markets`` and ``compensation``
(text and ``--json``) and the ``answer:`` line of a small run of every game say the game's own intervention noun
(card, god, item) and units (sesterces, sestertii, feet, credits; fame, VP, points), never another game's, and
every JSON answer carries its units. The words expected are read from each game's declared facts, not copied."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import simlab
from simlab.analysis.next_step import next_step
from simlab.analysis.words import Words
from simlab.cli import cli
from simlab.core.facts import Roles
from tests.scenario_runs import MASSILIA_CARDS, run_text, with_head

GAMES = ["massilia", "roma", "pantheon", "merchant_of_venus"]
COMMANDS = ["seats", "cards", "markets", "compensation", "balance"]

#: a control, two grants of the game's card intervention, two (or three) granted amounts per game
SCENARIOS = {
    "massilia": MASSILIA_CARDS,
    "roma": """\
game = "roma"
players = 2
lineup = ["builder", "warrior"]
preset = "rulebook"
[variants.control]
[variants.sicarius_seat0]
set = { bonus_card = "sicarius", bonus_card_seat = 0 }
[variants.architectus_seat1]
set = { bonus_card = "architectus", bonus_card_seat = 1 }
[variants.money3_seat0]
set = { start_money = [3, 0] }
[variants.money6_seat0]
set = { start_money = [6, 0] }
""",
    "pantheon": """\
game = "pantheon"
players = 4
lineup = ["builder", "devout", "builder", "devout"]
preset = "rulebook"
[variants.control]
[variants.surparit_seat0]
set = { start_god = "surparit", start_god_seat = 0 }
[variants.pietalte_seat1]
set = { start_god = "pietalte", start_god_seat = 1 }
[variants.money2_seat0]
set = { extra_start_feet = [2, 0, 0, 0] }
[variants.money4_seat0]
set = { extra_start_feet = [4, 0, 0, 0] }
[variants.points2_seat0]
set = { start_points = [2, 0, 0, 0] }
""",
    "merchant_of_venus": """\
game = "merchant_of_venus"
players = 4
lineup = ["trader", "porter", "trader", "porter"]
[variants.control]
[variants.laser_seat0]
set = { bonus_item = "laser", bonus_item_seat = 0 }
[variants.shield_seat1]
set = { bonus_item = "shield", bonus_item_seat = 1 }
[variants.money40_seat0]
set = { purse_offset = [40, 0, 0, 0] }
[variants.money80_seat0]
set = { purse_offset = [80, 0, 0, 0] }
""",
}

#: words every game's answers use for statistics, not for a game's points ("win-share points", "1-point")
STATISTICS = {"point", "points"}
#: JSON fields whose values are internal identifiers a reader never sees (an intervention's kind, names)
IDENTIFIERS = {"command", "kind", "label", "variant", "folder", "game", "left_out", "money_source", "colour", "item"}


def declared(game: str) -> Words:
    """The game's words from its declared facts (units, the card intervention's noun)."""
    fact_set = simlab.get_game(game).fact_set
    return Words.of(
        Roles({"units": fact_set.units.as_dict(), "interventions": fact_set.manifest_for([])["interventions"]})
    )


def vocabulary(said: Words) -> set[str]:
    u = said.units
    phrases = [u.money, u.money_plural, u.money_label, u.points, u.points_plural, u.points_label, said.noun, said.nouns]
    return {w for p in phrases for w in p.split()}


def foreign(game: str) -> re.Pattern[str]:
    """Every other game's words that this game does not use itself (whole words; "VP" in capitals)."""
    own = vocabulary(declared(game))
    others = {w for g in GAMES if g != game for w in vocabulary(declared(g))} - own - STATISTICS
    return re.compile("|".join(rf"\b{re.escape(w)}\b" if w.isupper() else rf"(?i:\b{re.escape(w)}\b)" for w in others))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small run of each game (40 games per variant)."""
    texts = {game: with_head(text, "words", 40, 7, 40) for game, text in SCENARIOS.items()}
    return {game: run_text(text, tmp_path_factory.mktemp(game)) for game, text in texts.items()}


def answer(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def reader_strings(value: Any, key: str = "") -> list[str]:
    """Every string a reader of a JSON answer sees (values, not keys; not the internal identifiers)."""
    if key in IDENTIFIERS:
        return []
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in reader_strings(v, k)]
    if isinstance(value, list):
        return [s for v in value for s in reader_strings(v, key)]
    return [value] if isinstance(value, str) else []


def test_the_foreign_words_are_the_other_games_declared_ones():
    assert foreign("pantheon").search("one extra card") and foreign("pantheon").search("sesterces")
    assert foreign("pantheon").search("12 credits") and not foreign("pantheon").search("feet, gods, points")
    assert foreign("merchant_of_venus").search("a god") and not foreign("merchant_of_venus").search("fame, items")
    assert foreign("massilia").search("10 VP") and not foreign("massilia").search("every vp")  # VP in capitals only


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", COMMANDS)
def test_text_answers_speak_the_games_words_and_no_other_games(runs, game, command):
    said, folder = declared(game), str(runs[game])
    text = answer(command, folder)
    assert not foreign(game).search(text), foreign(game).findall(text)
    u = said.units
    if command == "seats":
        assert f"score ({u.points_label})" in text
    elif command == "cards":
        assert f"value of one extra {said.noun} for the seat" in text and f"over the {said.nouns}." in text
        grants = re.findall(r"^\+\d+ (.+?)  ", text, re.M)  # the granted amounts' rows, read out
        assert grants and set(grants) <= {u.money_plural, u.points_plural}, grants
        assert not re.search(r"^(money|points)\d", text, re.M)  # not the internal money2
    elif command == "compensation":
        assert text.startswith(f"starting {u.money_plural}:\n")
        assert "starting money" not in text or u.money_plural == "money"
    elif command == "balance":
        assert f"margin ({u.points_label})" in text
    elif command == "markets" and game in ("roma", "pantheon"):
        assert "is not available for this game" in text
    else:
        assert re.search(rf"^ +{re.escape(u.money_label)} +95% CI", text, re.M)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", COMMANDS)
def test_json_answers_carry_their_units_in_the_games_words(runs, game, command):
    said, folder = declared(game), str(runs[game])
    payload = json.loads(answer(command, folder, "--json"))
    assert payload["units"] == said.as_json()
    for s in reader_strings(payload):
        assert not foreign(game).search(s), s
    tables = payload["tables"]
    if command == "cards":
        units = {(r["kind"], r["unit"]) for r in tables["cards"]}
        assert ("card", said.noun) in units and ("money", said.units.money_plural) in units
        assert {r["money_unit"] for r in tables["cards"]} == {said.units.money_plural}
        assert {r["score_unit"] for r in tables["cards"]} == {said.units.points_plural}
    if command == "compensation":
        assert {r["unit"] for r in tables["fit"]} == {said.units.money_plural}
        assert all(r["unit"] == said.units.points_plural for r in tables.get("fit_points", []))


@pytest.mark.parametrize("game", GAMES)
def test_the_answer_line_of_a_run_names_the_games_noun(runs, game):
    said = declared(game)
    lines = "\n".join(next_step(runs[game]).lines())
    assert f"the most valuable {said.noun} is " in lines and f" {said.nouns} change the win share" in lines
    assert not foreign(game).search(lines.replace("simlab cards ", "simlab COMMAND "))  # a command's name stays


def test_a_market_paying_no_points_for_sales_shows_no_points_column(runs):
    """Merchant of Venus's sales pay credits only: no "fame 0.000" column; Massilia's sales earn fame: shown."""
    mov, massilia = declared("merchant_of_venus").units, declared("massilia").units
    text = answer("markets", str(runs["merchant_of_venus"]))
    header = next(line for line in text.splitlines() if re.match(rf"^ +{mov.money_label} ", line))
    assert mov.points_label not in header and "0.000" not in text
    rows = json.loads(answer("markets", str(runs["merchant_of_venus"]), "--json"))["tables"]["sale_yield"]
    assert rows and all("points_per_cube" not in r and r["money_per_cube"] > 0 for r in rows)
    text = answer("markets", str(runs["massilia"]))
    assert re.search(rf"^ +{massilia.money_label} +95% CI +{massilia.points_label} +95% CI", text, re.M)
    rows = json.loads(answer("markets", str(runs["massilia"]), "--json"))["tables"]["sale_yield"]
    assert all(r["points_per_cube"] > 0 for r in rows)


def test_compensation_says_its_answer_first_and_the_left_out_variants_after_in_short(runs, tmp_path):
    """A card run leaves dozens of variants out of the fit: one short line after the answer, not fifty names
    before it."""
    folder = runs["pantheon"]
    text = answer("compensation", str(folder))
    assert text.startswith("starting feet:\n")
    last = text.rstrip().splitlines()[-1]
    assert last == (
        "left out of the fit: 3 variant(s) that change more than the starting feet "
        "(surparit_seat0, pietalte_seat1, points2_seat0)"
    )
    payload = json.loads(answer("compensation", str(folder), "--json"))
    assert payload["left_out"] == ["surparit_seat0", "pietalte_seat1", "points2_seat0"]


def test_fifty_left_out_variants_are_five_names_and_a_count():
    from simlab.analysis.compensation_text import left_out_line

    names = [f"card{i}_seat{i % 4}" for i in range(50)]
    line = left_out_line(names, declared("roma").units)
    assert line == (
        "left out of the fit: 50 variant(s) that change more than the starting sestertii "
        "(card0_seat0, card1_seat1, card2_seat2, card3_seat3, card4_seat0 and 45 more)"
    )


@pytest.mark.parametrize("game", GAMES)
def test_robust_panel_names_the_effect_in_the_games_noun(runs, game):
    from simlab.analysis.robust import panel_effects

    kinds = set(panel_effects(runs[game])["kind"].to_list())
    assert kinds == {"seat advantage", f"{declared(game).noun} value"}


def test_markets_of_a_many_variant_run_lead_with_the_control_and_say_how_to_see_the_rest(tmp_path):
    """A card run of Massilia: 7 variants x 5 goods printed 35 collapse rows; the control's alone now, the others
    on request (--variant, --all), every row still in --json."""
    cards = "".join(
        f'[variants.{c}_seat{k}]\nset = {{ bonus_card = "{c}", bonus_card_seat = {k} }}\n'
        for c in ("mercure", "pluton", "neptune")
        for k in (0, 1)
    )
    head = SCENARIOS["massilia"].split("[variants.control]")[0]
    folder = str(run_text(with_head(f"{head}[variants.control]\n{cards}", "many", 10, 3), tmp_path, "many"))
    text = answer("markets", folder)
    rows = re.findall(r"^  (\S+) \S+ +10 ", text, re.M)
    assert rows and set(rows) == {"control"}
    assert f"6 other variants not shown (the markets of control above); one of them: simlab markets {folder}" in text
    chosen = answer("markets", folder, "--variant", "pluton_seat1", "--base", "control")
    assert set(re.findall(r"^  (\S+) \S+ +10 ", chosen, re.M)) == {"control", "pluton_seat1"}
    assert len(set(re.findall(r"^  (\S+) \S+ +10 ", answer("markets", folder, "--all"), re.M))) == 7
    every = json.loads(answer("markets", folder, "--json"))["tables"]["collapses"]
    assert len({r["variant"] for r in every}) == 7
    result = CliRunner().invoke(cli, ["markets", folder, "--variant", "plutonseat1"])
    assert result.exit_code == 2 and "unknown variant 'plutonseat1' (did you mean 'pluton_seat1'" in result.stderr


def test_a_quick_what_if_shows_the_score_in_the_games_points():
    said = declared("merchant_of_venus")
    out = answer(
        "compare", "merchant_of_venus", "--set", "purse_offset=40,0,0,0", "--vs", "--preset", "rulebook", "-n", "10"
    )
    assert f"score ({said.units.points_label})" in out and "score (points)" not in out
    assert " points of win share; the largest change is seat " in out
    assert not foreign("merchant_of_venus").search(out)


def test_answers_without_a_result_folder_carry_their_games_units_too():
    """``simlab compensate --json`` (no folder) and a robustness panel's answer (its folder holds panels)."""
    from simlab.analysis.export import answer as envelope

    payload = json.loads(
        answer(
            "compensate", "roma", "--json", "--confirm-games", "100", "--batch", "100", "--max-games", "600", "-j", "1"
        )
    )
    assert payload["units"] == declared("roma").as_json()
    assert envelope("robust", "/nonexistent", {}, game="pantheon")["units"] == declared("pantheon").as_json()


def test_a_folder_written_before_the_noun_was_declared_takes_its_games_noun(runs, tmp_path):
    import shutil

    folder = tmp_path / "old"
    shutil.copytree(runs["pantheon"], folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    for i in manifest["facts"]["interventions"]:
        i.pop("noun", None), i.pop("nouns", None)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    text = answer("cards", str(folder))
    assert "value of one extra god for the seat" in text and not foreign("pantheon").search(text)
    assert json.loads(answer("seats", str(folder), "--json"))["units"]["interventions"] == "gods"


@pytest.mark.parametrize("game", GAMES)
def test_no_analysis_or_report_module_names_a_game(game):
    """The words come from the results' declared facts: an analysis or report module that named a game (even in
    a docstring) would speak for it alone."""
    g = simlab.get_game(game)
    pattern = re.compile(rf"\b({re.escape(g.name)}|{re.escape(g.title)})\b", re.I)
    root = Path(simlab.__file__).parent
    modules = sorted([*(root / "analysis").rglob("*.py"), *(root / "report").rglob("*.py")])
    named = [str(p.relative_to(root)) for p in modules if pattern.search(p.read_text())]
    assert named == []
