"""``simlab fix`` on every game (the project's rule: a new path gets the old paths' checks on every game): bad input
refused naming its key with nothing written, the change said in each game's own words and units, and an answer
that says what its tables and intervals are (an open search's candidates are not "alternatives that also pass";
the certification's intervals are one-sided tests at α, not the page's 95%)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from simlab.analysis import fix_words as W
from simlab.cli import cli
from simlab.core import registry

#: one small question per game: (scenario head, [fix] table)
GAMES = {
    "massilia": (
        'game = "massilia"\nplayers = 4\nlineup = ["trader", "priest", "trader", "priest"]\n',
        'panel = ["trader", "priest"]\n[fix.knobs]\nstart_money = { seats = [5, 8] }\n'
        "turn_tiles = { values = [[3, 4, 5], [1, 2, 3]] }\n",
    ),
    "roma": (
        'game = "roma"\nplayers = 2\nlineup = ["builder", "warrior"]\n',
        'panel = ["builder", "warrior"]\n[fix.knobs]\nstart_money = { seats = [[0, 3], [0, 8]] }\n'
        "start_vp = { seats = [[8, 10], [10, 13]] }\n",
    ),
    "pantheon": (
        'game = "pantheon"\nplayers = 4\nlineup = ["builder", "devout", "builder", "devout"]\n',
        'panel = ["builder", "devout"]\n[fix.knobs]\nextra_start_feet = { seats = [0, 4] }\n'
        "start_points = { seats = [0, 6] }\n",
    ),
    "merchant_of_venus": (
        'game = "merchant_of_venus"\nplayers = 4\nlineup = ["trader", "porter", "trader", "porter"]\n',
        'panel = ["trader", "porter"]\n[fix.knobs]\nthird_seat_extra = { range = [0, 60], step = 10 }\n'
        "purse_offset = { seats = [-40, 40], step = 20 }\n",
    ),
}
HEAD = 'games = 1000\nseed = 3\npreset = "rulebook"\n'
FIX = "[fix]\ntolerance = 3\nbudget = 20000\nbatch = 1000\ncertify_games = 2000\n"


def _scenario(game: str, tolerance: str = "3", extra: str = "", first_knob: str | None = None) -> str:
    head, table = GAMES[game]
    fix = FIX.replace("tolerance = 3", f"tolerance = {tolerance}") + table
    if first_knob is not None:  # replace the first knob's grid
        fix = re.sub(r"(\[fix\.knobs\]\n)(\w+) = \{[^\n]*", lambda m: f"{m[1]}{m[2]} = {first_knob}", fix, count=1)
    return head + HEAD + fix + extra


def _run(tmp_path, text: str, *args: str):
    path = tmp_path / "q.toml"
    path.write_text(text)
    return CliRunner().invoke(cli, ["fix", str(path), "--out", str(tmp_path / "out"), *args])


#: a grid for each game's first knob with a value below its range (or one its config refuses)
OUTSIDE = {
    "massilia": "{ seats = [-5, 8] }",
    "roma": "{ seats = [[-5, 3], [0, 8]] }",
    "pantheon": "{ seats = [-9, 4] }",
    "merchant_of_venus": "{ range = [-1000, 60], step = 10 }",
}
BAD = {
    "a knob not in the config": (
        {"extra": "", "first_knob": None, "knob": "no_such_knob = { values = [1, 2] }\n"},
        r"key 'fix\.knobs\.no_such_knob'",
    ),
    "a grid outside the knob's range": (
        {"first_knob": "OUTSIDE"},
        r"key 'fix\.knobs\.\w+.*(outside the range|refuses)",
    ),
    "an empty grid": ({"first_knob": "{ values = [] }"}, r"key 'fix\.knobs\.\w+\.values'.*found \[\]"),
    "a guard on an undeclared fact": ({"extra": "[fix.guards]\nfact.no_such_fact = 10\n"}, r"key 'fix\.guards\.fact"),
    "a tolerance of zero": ({"tolerance": "0"}, r"key 'fix\.tolerance'"),
    "a tolerance below zero": ({"tolerance": "-1"}, r"key 'fix\.tolerance'"),
    "a budget below the first exploration": ({"extra": "", "budget": "2000"}, r"key 'fix\.budget'"),
}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_on_every_game_is_refused_naming_its_key_with_nothing_written(tmp_path, game, case):
    how, pattern = BAD[case]
    first = OUTSIDE[game] if how.get("first_knob") == "OUTSIDE" else how.get("first_knob")
    text = _scenario(game, how.get("tolerance", "3"), how.get("extra", ""), first)
    if "knob" in how:
        text = text.replace("[fix.knobs]\n", "[fix.knobs]\n" + how["knob"])
    if "budget" in how:
        text = text.replace("budget = 20000", f"budget = {how['budget']}")
    result = _run(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert re.search(r"^error: .*" + pattern, result.stderr, re.M), result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists(), "refused before anything is written"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_panel_bot_that_does_not_exist_is_refused_on_every_game(tmp_path, game):
    result = _run(tmp_path, _scenario(game), "--panel", "no_such_bot")
    assert result.exit_code == 2 and "key 'fix.panel[0]'" in result.stderr and "no_such_bot" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("game", "knob", "published", "value", "said"),
    [
        ("massilia", "start_money", [6, 6, 6, 6], [5, 6, 6, 7], "give seat 0 one sesterce fewer and give seat 3 one "
         "more sesterce"),
        ("massilia", "turn_tiles", [2, 3, 4], [1, 2, 3], "make the turn-order tiles"),
        ("roma", "start_money", [0, 0], [0, 4], "give seat 1 four more sestertii"),
        ("roma", "start_vp", [10, 10], [9, 10], "give seat 0 one VP fewer"),
        ("pantheon", "extra_start_feet", [0, 0, 0, 0], [0, 0, 0, 2], "give seat 3 two more feet"),
        ("pantheon", "start_points", [0, 0, 0, 0], [1, 0, 0, 0], "give seat 0 one more point"),
        ("merchant_of_venus", "purse_offset", [0, 0, 0, 0], [0, 20, 0, 0], "give seat 1 20 more credits"),
        ("merchant_of_venus", "third_seat_extra", 20, 30, "make the extra credits of the '3rd player'"),
    ],
)  # fmt: skip
def test_each_game_says_its_change_in_its_own_words_description_first(game, knob, published, value, said):
    vocab = W.vocabulary(game, [knob] if isinstance(published, list) and knob != "turn_tiles" else [])
    text = W.change_text({"settings": [{"knob": knob, "published": published, "value": value, "steps": 1}]}, vocab)
    assert text.startswith(said), text
    if vocab.docs.get(knob):
        assert not text.startswith(f"make {knob}"), "the description leads, the config name only in brackets"


def _open_result(status: str) -> dict:
    alt = {"change": {"settings": [{"knob": "start_points", "published": [0, 0], "value": [0, 5], "steps": 1}],
                      "cost": {"knobs": 1, "steps": 1}},
           "worst_deviation": 0.01, "lo": 0.0, "hi": 0.03, "mean_length": 9.0, "n": 1000}  # fmt: skip
    return {
        "status": status, "change": None, "search": "budget", "tolerance": 3.0, "alpha": 0.05,
        "before": [{"seat": 0, "share": 0.55, "lo": 0.53, "hi": 0.57, "n": 2000}], "after": [], "panel": [],
        "guards": [{"name": "length", "before": 9.0, "after": None, "band": [8.1, 9.9], "ok": None}],
        "alternatives": [alt], "games": {"explore": 1000, "race": 0, "certify": 2000, "total": 3000}, "method": "m",
    }  # fmt: skip


def test_an_open_search_lists_its_open_candidates_not_alternatives_that_pass():
    lines = W.answer_lines(_open_result("budget"), W.Vocabulary())
    assert not any("also pass" in line for line in lines), lines
    assert any(line.startswith("candidates still open") for line in lines), lines
    assert W.alternatives_title(_open_result("certified")).startswith("cheapest alternatives that also pass")


def test_an_alternatives_cost_is_said_once_inside_its_change_and_read_from_there():
    from simlab.experiments.fix_question import Alternative, Change

    change = Change((("start_points", (0, 5)),), (("start_points", (0, 0)),), (("start_points", 1),), (0, 1))
    said = Alternative(change, 0.01, 0.0, 0.03, 9.0, 1000).as_dict()
    assert "cost" not in said and said["change"] == change.as_dict(), said  # docs/experiments.md's schema table
    assert said["change"]["cost"] == {"knobs": 1, "steps": 1}
    rows = W.alternative_rows(_open_result("budget"), W.Vocabulary())
    assert rows[0][1] == "1 knob, 1 step", rows
    old = _open_result("budget")  # a folder written before: the cost beside the change, not inside it
    old["alternatives"][0]["cost"] = old["alternatives"][0]["change"].pop("cost")
    assert W.alternative_rows(old, W.Vocabulary())[0][1] == "1 knob, 1 step"


def test_the_method_says_how_the_search_ended_in_words():
    from simlab.experiments.fix_certify import ENDED

    assert set(ENDED) == {"settled", "exhausted", "budget"}
    for ended, words in ENDED.items():
        assert ended not in words.split()[:1] and len(words.split()) > 3, words


@pytest.fixture
def pig(monkeypatch):
    monkeypatch.setitem(registry.BUILTIN_GAMES, "pig", "tests.examples.pig.game:GAME")
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


PIG = """
game = "pig"
players = 2
games = 100
seed = 5
lineup = ["holder", "holder"]
[fix]
tolerance = 4
budget = 1500
batch = 500
certify_games = 1000
[fix.knobs]
start_points = { seats = [[0, 20], [0, 20]], step = 10 }
[fix.guards]
length = 10
"""


def test_the_fix_only_report_says_its_intervals_are_one_sided_tests_at_alpha(pig, tmp_path):
    from simlab.report.html import write_report
    from simlab.run.fix_folder import load_fix

    assert _run(tmp_path, PIG).exit_code == 0
    page = write_report(tmp_path / "out", tmp_path / "fix.html").read_text()
    kept = load_fix(tmp_path / "out")["result"]
    assert kept["level"] == 0.9 and "one-sided test at alpha" in kept["interval"], "the JSON says its intervals"
    assert kept["status"] != "already_fair" and kept["published_panel"], "why the published rules are not fair"
    assert kept["published_panel"][0]["bot"] == "lineup: holder,holder" and "why they are not already fair" in page
    assert "Each finding comes with its 95% interval" not in page
    # the certification reads its games in looks: each bound is its look's test, at least a 90% interval
    assert "each at its look&#39;s group-sequential boundary" in page or "each at its look's group-sequential" in page
    assert "each at least a 90% interval" in page, page


def test_a_certified_headline_names_the_lineup_apart_from_the_panel_bots():
    """Roma's certified run said "every bot tested (lineup: builder,warrior, builder, warrior)": the lineup's
    entry read as two more bots."""
    panel = [
        {"bot": "lineup: builder,warrior", "fair": True, "worst_deviation": 0.002, "lo": 0.0, "hi": 0.02, "n": 2000},
        {"bot": "builder", "fair": True, "worst_deviation": 0.013, "lo": 0.0, "hi": 0.031, "n": 2000},
        {"bot": "warrior", "fair": True, "worst_deviation": 0.007, "lo": 0.0, "hi": 0.025, "n": 2000},
    ]
    change = {"settings": [{"knob": "start_vp", "published": [10, 10], "value": [8, 10], "steps": 2}]}
    result = {**_open_result("certified"), "change": change, "panel": panel, "guards": []}
    text, tone = W.headline(result, W.vocabulary("roma", ["start_vp"]))
    assert tone == "ok" and text.startswith("Recommended change: give seat 0 two VP fewer. Certified fair"), text
    assert "(the lineup builder, warrior; builder and warrior each in every seat)" in text, text


def test_the_panel_and_guards_read_as_the_designer_reads_them():
    result = {
        "panel": [{"bot": "lineup: builder,warrior", "fair": True, "worst_deviation": 0.002, "lo": 0.0, "hi": 0.02,
                   "n": 2000}, {"bot": "builder", "fair": False, "worst_deviation": 0.06, "lo": 0.04, "hi": 0.08,
                   "n": 2000}],
        "guards": [{"name": "length", "before": 17.2565, "after": 16.5985, "band": [15.53085, 18.98215], "ok": True}],
    }  # fmt: skip
    assert [r[0] for r in W.panel_rows(result)] == ["the lineup builder, warrior", "builder in every seat"]
    assert W.guard_rows(result)[0][1:4] == ["17.3", "16.6", "[15.5, 19.0]"], "one decimal, not 19 beside 15.5"


def test_the_fix_only_report_states_the_question_with_its_knobs_and_guards_in_words(tmp_path):
    from simlab.report.build import build_report
    from simlab.run.fix_folder import FixStore

    identity = {"scenario_sha256": "cd" * 32, "rules_version": "roma-1.1", "tolerance": 5.0, "alpha": 0.05,
                "budget": 14000, "batch": 1000, "certify_games": 2000, "seed": 34002, "panel": ["builder"]}  # fmt: skip
    text = _scenario("roma") + "[fix.guards]\nlength = 10\n"
    about = {"scenario": "q", "source": "q.toml", "game": "roma", "text": text, "players": 2, "lineup": ["builder"]}
    with FixStore.open(tmp_path / "f", identity, about, resume=False) as store:
        store.finish(_open_result("budget"))
    rows = {r[0]: r[1] for r in build_report(tmp_path / "f").variants.rows}
    assert rows["fix.budget"].startswith("14,000 search games") and rows["fix.seed"] == "34002"
    assert rows["fix.tolerance"] == "every seat within 1/N ± 5 points of win share"
    assert rows["fix.alpha"] == "α = 0.05: at most a 5% chance of certifying a change that is not fair within ±5 points"
    assert (
        rows["fix.knobs.start_money"].startswith("starting sestertii by seat")
        and "[[0, 3], [0, 8]]" in (rows["fix.knobs.start_money"])
    )
    assert rows["fix.guards.length"] == "mean game length (turns): within ±10% of the published rules'"


def test_progress_says_the_current_best_in_the_games_words():
    """Roma's progress said "best start_vp 10,10 -> 8,10", the config's name, while the answer said "give seat 0
    two VP fewer"."""
    change = {"settings": [{"knob": "start_vp", "published": [10, 10], "value": [8, 10], "steps": 2}]}
    info = {"phase": "race", "round": 2, "games": 10000, "candidates_left": 3, "best": "start_vp 10,10 -> 8,10",
            "change": change, "worst_deviation": 0.015, "lo": 0.0, "hi": 0.041}  # fmt: skip
    line = W.progress_line(info, W.vocabulary("roma", ["start_vp"]))
    assert line == (
        "race round 2: 3 candidates left, 10,000 games spent; best: give seat 0 two VP fewer "
        "(worst seat 1.5 [0.0, 4.1] points)"
    ), line
    assert "best start_vp 10,10 -> 8,10" in W.progress_line(info), "without the game's words: the settings"


def test_a_failed_certification_says_its_test_failed_not_that_the_change_does_not_hold():
    """Massilia's run: priest's worst seat 4.2 [2.7, 5.7] points against a tolerance of 4 was said "it does not
    hold for priest"; its interval reaches inside the band: the test failed, nothing more is known."""
    change = {"settings": [{"knob": "start_money", "published": [6] * 4, "value": [5, 6, 6, 6], "steps": 1}]}
    priest = {"bot": "priest", "fair": False, "worst_deviation": 0.042, "lo": 0.027, "hi": 0.057, "n": 2000}
    result = {**_open_result("not_certified"), "change": change, "panel": [priest], "guards": [], "tolerance": 4.0}
    text, tone = W.headline(result, W.vocabulary("massilia", ["start_money"]))
    assert tone == "warn" and "the test failed for priest (worst seat 4.2 [2.7, 5.7] points" in text, text
    assert "does not hold" not in text
    alt = W.alternative_rows({"alternatives": [{**result["alternatives"][0], "mean_length": 61.0}]}, W.Vocabulary())
    assert alt[0][3] == "61.0", "one decimal as its neighbours (62.4), not 61"
