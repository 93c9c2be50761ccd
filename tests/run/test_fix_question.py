"""A scenario's ``[fix]`` table: parsed into a FixQuestion (knobs with grids, guards, target), candidates listed
cheapest first and lazily, and every bad input refused on load naming the key, before any game is played."""

from __future__ import annotations

import itertools
import json
import math
import time

import pytest

from simlab.core import registry
from simlab.core.registry import get_game
from simlab.experiments.fix_question import (
    STATUSES,
    Alternative,
    BotCheck,
    FixQuestionError,
    FixResult,
    GuardCheck,
    SeatShare,
    fix_question,
    fix_question_from_scenario,
)
from simlab.run.errors import ScenarioError
from simlab.run.scenario import parse_scenario

PIG = """
game = "pig"
players = 2
games = 100
seed = 5
lineup = ["holder", "holder"]
"""

FIX = """
[fix]
tolerance = 1.5
budget = 50000
[fix.knobs]
start_points = { seats = [[0, 10], [0, 20]], step = 5 }
target = { range = [90, 110], step = 10 }
[fix.guards]
length = 10
draws = [0, 1]
fact.final_points = 20
"""


@pytest.fixture
def pig(monkeypatch):
    monkeypatch.setitem(registry.BUILTIN_GAMES, "pig", "tests.examples.pig.game:GAME")
    registry.get_game.cache_clear()
    yield get_game("pig")
    registry.get_game.cache_clear()


def test_a_fix_table_becomes_a_question(pig):
    sc = parse_scenario(PIG + FIX, source="pig.toml")
    q = fix_question_from_scenario(sc)
    assert q.tolerance == 1.5 and q.delta == pytest.approx(0.015) and q.budget == 50_000 and q.seed == 5
    assert q.alpha == 0.05 and q.lineup == ("holder", "holder") and q.panel == ("holder",)
    points, target = q.knobs
    assert points.kind == "seats" and points.axes == ((0, 5, 10), (0, 5, 10, 15, 20)) and points.home == (0, 0)
    assert target.kind == "range" and target.axes == ((90, 100, 110),) and target.home == (1,)
    assert [(g.name, g.within, g.band) for g in q.guards] == [
        ("length", 0.1, None),
        ("draws", None, (0.0, 0.01)),
        ("fact.final_points", 0.2, None),
    ]
    length, draws, _ = q.guards
    assert length.bounds(50.0) == pytest.approx((45.0, 55.0)) and length.ok(50.0, 54.0) and not length.ok(50, 56)
    assert draws.ok(0.0, 0.005) and not draws.ok(0.0, 0.02)


def test_a_scenario_without_fix_is_unchanged_and_fix_is_not_in_the_identity(pig):
    plain = parse_scenario(PIG, source="pig.toml")
    with_fix = parse_scenario(PIG + FIX, source="pig.toml")
    assert plain.fix == {} and with_fix.fix["tolerance"] == 1.5
    assert plain.legacy_identity() == with_fix.legacy_identity()


def test_candidates_come_cheapest_first_and_every_one_once(pig):
    q = fix_question_from_scenario(parse_scenario(PIG + FIX, source="pig.toml"))
    cands = list(q.candidates())
    costs = [c.cost for c in cands]
    assert costs == sorted(costs) and costs[0] == (1, 1)
    # 3 × 5 start_points vectors and 3 targets, less the published rules: (15 − 1) + (3 − 1) + 14 × 2
    assert len(cands) == len({c.settings for c in cands}) == 14 + 2 + 28
    first = cands[0]
    assert first.settings == (("start_points", (5, 0, 0, 0)),) and first.steps == (("start_points", 1),)
    cfg = first.apply(q.config)
    assert cfg.start_points == (5, 0, 0, 0) and cfg.target == 100
    both = q.change(start_points=(0, 15, 0, 0), target=110)
    assert both.cost == (2, 4) and both.moves == (0, 3, 1)
    assert both.as_dict() == {
        "settings": [
            {"knob": "start_points", "published": [0, 0, 0, 0], "value": [0, 15, 0, 0], "steps": 3},
            {"knob": "target", "published": 100, "value": 110, "steps": 1},
        ],
        "cost": {"knobs": 2, "steps": 4},
    }
    assert q.no_change().cost == (0, 0) and q.no_change().apply(q.config) is q.config


def test_candidates_are_lazy_on_a_vector_with_a_huge_grid(pig):
    """4 seats × 101 values each is 10⁸ vectors: the first thousand come at once, cheapest first."""
    cfg = pig.make_config(players=4)
    q = fix_question(pig, cfg, ["holder"] * 4, knobs={"start_points": {"seats": [0, 100]}})
    t = time.perf_counter()
    first = list(itertools.islice(q.candidates(), 1000))
    assert time.perf_counter() - t < 2
    assert [c.cost for c in first] == sorted(c.cost for c in first)
    # every vector s steps up from (0, 0, 0, 0), C(s + 3, 3) of them, before any of s + 1: s = 1..10 is 1,000
    per = [sum(1 for c in first if c.cost == (1, s)) for s in range(1, 11)]
    assert per == [math.comb(s + 3, 3) for s in range(1, 11)]


def test_whole_alternatives_of_a_table_knob_in_listed_order(pig):
    q = fix_question(
        pig,
        pig.make_config(players=2),
        ["holder"] * 2,
        knobs={"start_points": {"values": [[0, 5, 0, 0], [0, 10, 0, 0]]}},
    )
    (k,) = q.knobs
    assert k.kind == "tables" and k.axes == (((0, 0, 0, 0), (0, 5, 0, 0), (0, 10, 0, 0)),)
    assert [(c.settings, c.cost) for c in q.candidates()] == [
        ((("start_points", (0, 5, 0, 0)),), (1, 1)),
        ((("start_points", (0, 10, 0, 0)),), (1, 2)),
    ]


@pytest.mark.parametrize(
    ("fix", "says"),
    [
        ("[fix.knobs]\nhand_size = { values = [1, 2] }", ["'fix.knobs.hand_size'", "no knob 'hand_size'", "target"]),
        ("[fix.knobs]\nplayers = { values = [3] }", ["'fix.knobs.players'", "player count"]),
        ("[fix.knobs]\ntarget = { values = [] }", ["'fix.knobs.target.values'", "non-empty"]),
        ("[fix.knobs]\ntarget = { values = [100] }", ["'fix.knobs.target'", "other than the published"]),
        ("[fix.knobs]\ntarget = { range = [0, 10] }", ["'fix.knobs.target'", "refuses target = 0", "at least 1"]),
        ("[fix.knobs]\ntarget = { range = [1, 1e9] }", ["'fix.knobs.target.range'", "at most 1000 values"]),
        ("[fix.knobs]\ntarget = { range = [90, 110], step = 0 }", ["'fix.knobs.target.step'", "above 0"]),
        ("[fix.knobs]\nstart_points = { range = [0, 5] }", ["'fix.knobs.start_points.range'", "seats"]),
        ("[fix.knobs]\ntarget = { seats = [0, 5] }", ["'fix.knobs.target.seats'", "per-seat"]),
        ("[fix.knobs]\nstart_points = { seats = [[0, 5]] }", ["'fix.knobs.start_points.seats'", "2 such pairs"]),
        ("[fix]\ntolerance = 1", ["'fix.knobs'", "at least one knob"]),
        ("[fix]\ntolerance = 0\n[fix.knobs]\ntarget = { values = [90] }", ["'fix.tolerance'", "more than 0"]),
        ("[fix]\ntolerance = -1\n[fix.knobs]\ntarget = { values = [90] }", ["'fix.tolerance'"]),
        ("[fix]\nalpha = 0.7\n[fix.knobs]\ntarget = { values = [90] }", ["'fix.alpha'"]),
        ('[fix]\npanel = ["nobody"]\n[fix.knobs]\ntarget = { values = [90] }', ["'fix.panel[0]'", "nobody"]),
        ("[fix]\nbudgt = 5\n[fix.knobs]\ntarget = { values = [90] }", ["unknown key 'fix.budgt'", "budget"]),
        (
            "[fix.knobs]\ntarget = { values = [90] }\n[fix.guards]\nfact.cards_drawn = 5",
            ["'fix.guards.fact.cards_drawn'", "declares no fact", "final_points"],
        ),
        ("[fix.knobs]\ntarget = { values = [90] }\n[fix.guards]\nlenght = 5", ["'fix.guards.lenght'", "length"]),
        ("[fix.knobs]\ntarget = { values = [90] }\n[fix.guards]\nlength = -5", ["'fix.guards.length'", "above 0"]),
    ],
)
def test_bad_fix_tables_are_refused_on_load_naming_the_key(pig, fix, says):
    with pytest.raises(FixQuestionError) as err:
        parse_scenario(PIG + fix, source="pig.toml")
    text = str(err.value)
    assert text.startswith("pig.toml: ")
    for part in says:
        assert part in text, text
    assert isinstance(err.value, ScenarioError)  # the CLI's exit 2 for a scenario error


def test_a_python_question_checks_its_lineup(pig):
    cfg = pig.make_config(players=2)
    knobs = {"target": {"values": [90]}}
    with pytest.raises(FixQuestionError, match=r"<fix>: key 'lineup': expected 2 bot specs"):
        fix_question(pig, cfg, ["holder"], knobs=knobs)
    with pytest.raises(FixQuestionError, match=r"key 'lineup\[1\]': .*nobody"):
        fix_question(pig, cfg, ["holder", "nobody"], knobs=knobs)
    assert fix_question(pig, cfg, ["holder", "random"], knobs=knobs).panel == ("holder", "random")


def test_a_grid_outside_the_knobs_declared_range_is_refused():
    """Massilia declares rounds 1..MAX_ROUNDS and start_money >= 0 (``knob(range=...)``)."""
    text = """
game = "massilia"
players = 4
games = 100
seed = 1
lineup = ["trader", "trader", "trader", "trader"]
[fix.knobs]
"""
    with pytest.raises(FixQuestionError, match=r"'fix.knobs.rounds': 0 is outside the range of rounds \(1\.\.\d+\)"):
        parse_scenario(text + "rounds = { range = [0, 7] }", source="m.toml")
    with pytest.raises(FixQuestionError, match=r"'fix.knobs.start_money': -1 is outside the range of start_money"):
        parse_scenario(text + "start_money = { seats = [-1, 8] }", source="m.toml")
    sc = parse_scenario(text + "start_money = { seats = [[6, 6], [6, 7], [6, 8], [6, 9]] }", source="m.toml")
    q = fix_question_from_scenario(sc)
    assert q.knobs[0].axes == ((6,), (6, 7), (6, 7, 8), (6, 7, 8, 9))


def test_a_fix_with_several_variants_is_refused(pig):
    text = PIG + "[variants.a]\n[variants.b]\nset = { target = 50 }\n" + FIX
    with pytest.raises(ScenarioError, match=r"key 'fix': a fix question starts from one published rules"):
        parse_scenario(text, source="pig.toml")


def test_the_result_dict_has_the_documented_keys(pig):
    q = fix_question_from_scenario(parse_scenario(PIG + FIX, source="pig.toml"))
    change = q.change(start_points=(0, 5, 0, 0))
    seats = (SeatShare(0, 0.505, 0.49, 0.52, 1000), SeatShare(1, 0.495, 0.48, 0.51, 1000))
    result = FixResult(
        "certified",
        change,
        seats,
        seats,
        (GuardCheck("length", 40.0, 41.0, (36.0, 44.0), True),),
        (BotCheck("holder", True, 0.005, 0.0, 0.009, 1000, seats),),
        (Alternative(change, 0.005, 0.0, 0.01, 41.0, 2000),),
        {"explore": 1, "race": 2, "certify": 3, "total": 6},
        q.tolerance,
        q.alpha,
        "one-sided tests",
    )
    d = json.loads(json.dumps(result.to_dict()))
    assert list(d) == [
        "status",
        "change",
        "before",
        "after",
        "guards",
        "panel",
        "published_panel",
        "alternatives",
        "attempts",
        "games",
        "search",
        "tolerance",
        "alpha",
        "level",
        "interval",
        "method",
    ]
    assert d["level"] == 0.9 and d["published_panel"] == [] and d["attempts"] == []
    assert d["before"][0] == {"seat": 0, "share": 0.505, "lo": 0.49, "hi": 0.52, "n": 1000}
    assert d["guards"][0] == {"name": "length", "before": 40.0, "after": 41.0, "band": [36.0, 44.0], "ok": True}
    assert set(d["panel"][0]) == {"bot", "fair", "worst_deviation", "lo", "hi", "n", "seats"}
    assert set(d["alternatives"][0]) == {"change", "worst_deviation", "lo", "hi", "mean_length", "n"}
    assert d["alternatives"][0]["change"]["cost"] == {"knobs": 1, "steps": 1}  # said once, inside its change
    assert d["change"]["cost"] == {"knobs": 1, "steps": 1} and d["tolerance"] == 1.5
    assert "certified" in STATUSES
    with pytest.raises(ValueError, match="status"):
        FixResult("fair", None, (), (), (), (), (), {}, 1.0, 0.05, "")
