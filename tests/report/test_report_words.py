"""Each game's report in its own words (issue 32): a small run of each game's shipped scenarios, reported, leads
with the scenario's question and its visible text holds no noun or unit of another game (Massilia's
sesterces and fame, Roma's sestertii and VP, Pantheon's feet and gods, Merchant of Venus's credits and items:
the word lists come from each game's declared facts), no internal role name, no double punctuation and no
method named in a finding. The scenario file shown at the end of the report is the designer's own text and the
flags quote the game's config docs: both are left out of the check."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import simlab
from simlab.core.facts import GENERIC_UNITS
from simlab.report import build_report
from simlab.report.html import render

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("massilia", "roma", "pantheon", "merchant_of_venus")
#: (game, shipped scenario, games per variant, the section its report must lead with)
RUNS = [
    ("massilia", "card_value", 10, "cards"),
    ("massilia", "market_shifts", 40, "markets"),
    ("roma", "roma_card_value", 10, "cards"),
    ("roma", "roma_seats", 40, "seats"),
    ("pantheon", "pantheon_god_value", 6, "cards"),
    ("pantheon", "pantheon_seats", 24, "seats"),
    ("merchant_of_venus", "mov_item_value", 6, "cards"),
    ("merchant_of_venus", "mov_market_shifts", 16, "markets"),
]
#: words every game may use for its score and money in general
GENERIC = {w for w in GENERIC_UNITS.as_dict().values() for w in w.lower().split()}
#: the methods a finding never names (they stay in the notes and captions)
METHODS = ("Bonferroni", "Holm", "Benjamini", "Wilson", "Welch", "Fieller", "Wald", "ANOVA", "delta-method")


def game_words(game: str) -> set[str]:
    """The words a game declares for its money, points and what a card intervention grants."""
    facts = simlab.get_game(game).fact_set
    words = set(facts.units.as_dict().values())
    for i in facts.interventions:
        words |= {i.noun, i.nouns} - {""}
    return {w for phrase in words for w in phrase.lower().split()}


def foreign_words(game: str) -> set[str]:
    """Other games' words that are not this game's own (nor generic: "points", "money")."""
    own = game_words(game)
    return {w for other in GAMES if other != game for w in game_words(other)} - own - GENERIC


def visible_text(page: str) -> str:
    """What a reader sees: the page without styles, scripts, embedded images, the scenario file's text and the
    flags, which quote the game's own config docs (a game may have cards of its own: encounter cards)."""
    page = re.sub(r"<style.*?</style>|<script.*?</script>", " ", page, flags=re.S)
    page = re.sub(r'<section id="flags">.*?</section>', " ", page, flags=re.S)
    page = re.sub(r"Scenario file of the run.*?</pre>", " ", page, flags=re.S)
    page = re.sub(r'(src|href)="data:[^"]*"', " ", page)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_word_lists_come_from_the_facts():
    assert {"sesterces", "fame"} <= game_words("massilia")
    assert {"sestertii", "vp"} <= game_words("roma")
    assert {"feet", "god"} <= game_words("pantheon")
    assert {"credits", "item"} <= game_words("merchant_of_venus")
    assert {"card", "cards", "sesterce", "sesterces", "credit", "vp"} <= foreign_words("pantheon")
    assert "fame" not in foreign_words("merchant_of_venus")  # its own word too


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple]:
    """Each run of RUNS, reported: scenario name -> (game, report, rendered page)."""
    out = {}
    for game, name, games, _lead in RUNS:
        base = tmp_path_factory.mktemp("words")
        scenario = ROOT / "scenarios" / f"{name}.toml"
        folder = simlab.run_scenario(
            scenario, games=games, jobs=1, out=base / "results", progress=False, chunk_size=games
        )
        lines: list[str] = []
        report = build_report(folder, progress=lines.append)
        out[name] = (game, report, render(report))
        PROGRESS[name] = lines
    return out


#: the progress lines each report printed while it was built (scenario name -> lines)
PROGRESS: dict[str, list[str]] = {}


@pytest.mark.parametrize(("game", "name", "lead"), [(g, n, lead) for g, n, _, lead in RUNS])
def test_each_report_leads_with_its_question_in_its_own_words(reports, game, name, lead):
    _game, report, page = reports[name]
    assert report.sections[0].id == lead
    assert re.findall(r'<section id="([^"]+)"', page)[:2] == ["summary", lead]  # the page opens with it, too
    text = visible_text(page)
    assert f"Summary {report.sections[0].question}" in text  # the summary asks its question
    found = sorted({w for w in foreign_words(game) if re.search(rf"\b{re.escape(w)}\b", text, re.I)})
    context = {w: re.search(rf".{{0,60}}\b{re.escape(w)}\b.{{0,60}}", text, re.I)[0] for w in found}
    assert not found, f"{name}: another game's words {context}"


@pytest.mark.parametrize("name", [n for _, n, _, _ in RUNS])
def test_no_role_name_double_punctuation_or_method_in_a_finding(reports, name):
    _game, report, page = reports[name]
    text = visible_text(page)
    roles = re.findall(r"\b(?:money|points|score|card|market|game)\.[a-z_]+\b", text)
    assert not roles, roles
    assert "declares no" not in text
    assert not re.search(r"[?!.]\.(?!\.)", text.replace("…", "")), re.search(r".{40}[?!.]\.(?!\.).{20}", text)
    findings = [f.text for s in report.sections for f in s.findings] + report.not_covered
    named = [(m, f) for f in findings for m in METHODS if m in f]
    assert not named, named


@pytest.mark.parametrize(("game", "name"), [(g, n) for g, n, _, _ in RUNS])
def test_the_progress_lines_speak_the_games_words_too(reports, game, name):
    text = " ".join(PROGRESS[name][1:])  # the first names the folder (a path may hold any word)
    found = sorted({w for w in foreign_words(game) if re.search(rf"\b{re.escape(w)}\b", text, re.I)})
    assert not found, (found, PROGRESS[name])
