"""``find_fix`` on planted truths: a synthetic response surface whose fair setting is known (fast), and Pig, whose
first-player advantage a known head start for the second player cancels; the rate of certifying a change that is
not fair, over repetitions; the published rules already fair; nothing fair on the grid; the budget; the guards;
and the money-only question agreeing with ``compensate``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from simlab.experiments import fair_vector as fv
from simlab.experiments.fix import find_fix
from simlab.experiments.fix_question import STATUSES, fix_question
from simlab.experiments.knob_search import KnobSearch
from tests.examples.pig.game import GAME as PIG


def surface(truth, turns=None):
    """A fake play: seat k wins with probability truth(config)[k]; one uniform draw per seed, so every setting
    shares the game's luck (common random numbers) as the engine's seeds do. Columns: shares, turns, scores."""

    configs = {}

    def play(lineup, change, start, seeds):
        if (change, len(lineup)) not in configs:
            configs[change, len(lineup)] = change.apply(PIG.make_config(players=len(lineup)))
        cfg = configs[change, len(lineup)]
        p = truth(cfg)
        u = (np.asarray(seeds) % 1_000_003) / 1_000_003.0
        k = np.minimum(np.searchsorted(np.cumsum(p), u, side="right"), len(p) - 1)
        w = np.eye(len(p))[k]
        length = np.full((len(seeds), 1), float(turns(cfg)) if turns else 50.0)
        return np.concatenate([w, length, 10 * w], axis=1)

    return play


def softmax_truth(alpha, beta):
    alpha = np.asarray(alpha, float)

    def truth(cfg):
        eta = alpha + beta * np.asarray(cfg.start_points[: len(alpha)], float)
        e = np.exp(eta - eta.max())
        return e / e.sum()

    return truth


#: seat k's log-odds α_k, one start point worth β = 0.1: equal at (0, 2, 4, 6), one step off is ≥ 1.8 points
PLANTED = softmax_truth([0.6, 0.4, 0.2, 0.0], 0.1)


def four_seats(**options):
    options = {"budget": 200_000, "batch": 2000, "certify_games": 50_000, "seed": 3, **options}
    knobs = options.pop("knobs", {"start_points": {"seats": [0, 10]}})
    return fix_question(PIG, PIG.make_config(players=4), ["holder"] * 4, knobs=knobs, **options)


def test_find_fix_finds_the_planted_vector_of_a_synthetic_surface():
    """(0, 2, 4, 6) passes early; settling that no cheaper vector the model cannot rule out is fair takes most of
    the 300,000 games (the model is refitted every round until it rules them out, or they are played)."""
    q = four_seats(budget=300_000)
    seen = []
    result = find_fix(q, play=surface(PLANTED), progress=seen.append)
    assert result.status == "certified"
    assert result.change.settings == (("start_points", (0, 2, 4, 6)),) and result.change.cost == (1, 12)
    assert np.allclose(PLANTED(result.change.apply(q.config)), 0.25)
    d = json.loads(json.dumps(result.to_dict()))
    assert d["status"] in STATUSES and d["tolerance"] == 1.0 and d["alpha"] == 0.05
    assert d["games"]["total"] == d["games"]["explore"] + d["games"]["race"] + d["games"]["certify"]
    # in looks at 6,250, 12,500, 25,000, 37,500, 50,000 games: the published rules (seat 0 wins 33%) stop for
    # futility at the first, the change is certified at the fourth (the first of two attempts at most: ¾α)
    assert d["games"]["certify"] == 6_250 + 37_500
    assert [s["n"] for s in d["after"]] == [37_500] * 4 and d["before"][0]["share"] > 0.3
    assert d["before"][0]["n"] == 6_250
    assert [(a["outcome"], a["look"], a["alpha"], a["certified"]) for a in d["attempts"]] == [
        ("certified", 4, 0.0375, True)
    ]
    assert all(a["change"]["cost"]["steps"] >= 12 for a in d["alternatives"])
    assert d["panel"][0]["bot"] == "lineup: holder,holder,holder,holder" and d["panel"][0]["fair"]
    assert "intersection-union" in d["method"] and "at most 0.05" in d["method"] and d["search"] == "settled"
    phases = [s["phase"] for s in seen]
    assert phases[0] == "explore" and phases[-1] == "certify" and "race" in phases
    race = [s for s in seen if s["phase"] == "race" and "best" in s]
    assert race and {"round", "games", "candidates_left", "worst_deviation", "lo", "hi"} <= set(race[-1])
    again = find_fix(q, play=surface(PLANTED))
    assert again.to_dict() == result.to_dict()  # the same question and seed: the same answer


def test_pig_first_player_advantage_is_cancelled_by_six_points_for_the_second():
    """The truth, from 400,000 games per head start (seed 11, games from 2⁴⁵, hold-at-20 against itself): the
    first player wins 53.45% (± 0.15) with no head start; with the second player starting on h points it wins
    h=3: 51.84%, h=6: 50.27%, h=9: 48.33%, h=12: 45.12%. On a grid of 3-point steps only h = 6 is within
    ±1 point: the fix gives seat 1 six points, certified."""
    cfg = PIG.make_config(players=2)
    q = fix_question(
        PIG,
        cfg,
        ["holder", "holder"],
        knobs={"start_points": {"seats": [0, 12], "step": 3}},
        guards={"length": 10, "fact": {"busts": 25}},
        budget=60_000,
        batch=2000,
        certify_games=20_000,
        seed=1,
    )
    result = find_fix(q)
    assert result.status == "certified", result.to_dict()
    assert result.change.settings == (("start_points", (0, 6, 0, 0)),)
    # the published rules stop for futility at the first look (2,500 games): seat 0 is clearly ahead
    assert result.before[0].lo > 0.5 and result.before[0].n == 2_500 and abs(result.after[0].share - 0.5027) < 0.01
    assert [g.name for g in result.guards] == ["length", "fact.busts"] and all(g.ok for g in result.guards)
    assert result.games["explore"] + result.games["race"] <= 60_000


def test_the_rate_of_certifying_a_change_that_is_not_fair_is_at_most_alpha():
    """No setting on the grid is fair: the published rules give the first seat 56% of the wins, and target 102..104
    leave it exactly 1 point (the tolerance) off: the hardest changes to tell from fair (each seat's test passes
    with probability α at the band's edge). 150 repetitions (seeds 0..149, 20-60 s on a shared core): the lean
    race handed a change to certification in 146 (191 attempts with the fallbacks), and certification passed 3
    (2.1% of the chosen, 2.0% of all; main's driver: 0 of 32 chosen), within α = 5% plus 3 standard errors.
    Each attempt runs in looks on fresh seeds the search and the other attempts never used, at its share of α,
    so the tests keep their level whatever the search selected and however the looks stopped."""
    dev = {100: 0.06, 101: 0.03, 102: 0.01, 103: 0.01, 104: -0.01, 105: -0.03, 106: -0.06}

    def truth(cfg):
        return np.array([0.5 + dev[cfg.target], 0.5 - dev[cfg.target]])

    chosen = certified = 0
    reps = 150
    for seed in range(reps):
        q = fix_question(
            PIG,
            PIG.make_config(players=2),
            ["holder"] * 2,
            knobs={"target": {"range": [100, 106]}},
            budget=40_000,
            batch=1000,
            certify_games=10_000,
            seed=seed,
        )
        result = find_fix(q, play=surface(truth))
        assert result.status != "already_fair"
        chosen += result.change is not None
        certified += result.status == "certified"
    alpha = 0.05
    assert chosen >= 20  # the test bites: the search often picks a change that sits on the band's edge
    assert certified / chosen <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / chosen)
    assert certified / reps <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / reps)


def test_the_published_rules_already_fair_are_not_searched():
    q = four_seats()
    result = find_fix(q, play=surface(lambda cfg: np.full(4, 0.25)))
    assert result.status == "already_fair" and result.change is None and result.search == ""
    assert "published rules were played in looks at 6,250, 12,500, 25,000, 37,500, 50,000 fresh games" in result.method
    # this fake game's draws leave seat 1 at 24.4%: certified only at the cap (test_fix_looks: an early stop)
    assert result.games["explore"] == result.games["race"] == 0 and result.games["certify"] == 50_000
    assert result.before[0].n == 50_000
    assert result.panel[0].fair


def test_a_grid_without_a_fair_setting_ends_none_on_grid():
    """One head start on seat 1 is worth far too much: 0 leaves seat 0 ahead, 1 puts seat 1 ahead."""
    truth = softmax_truth([0.5, 0.0], 1.0)
    q = fix_question(
        PIG,
        PIG.make_config(players=2),
        ["holder"] * 2,
        knobs={"start_points": {"seats": [[0, 0], [0, 1]]}},
        budget=50_000,
        batch=1000,
        certify_games=10_000,
    )
    result = find_fix(q, play=surface(truth))
    assert result.status == "none_on_grid" and result.change is None and result.after == ()
    assert result.search == "exhausted"
    assert result.games["explore"] + result.games["race"] < 50_000


def test_a_small_budget_ends_budget():
    q = four_seats(budget=12_000)
    result = find_fix(q, play=surface(PLANTED))
    assert result.status == "budget" and result.change is None
    assert result.games["explore"] + result.games["race"] <= 12_000
    assert "ended: its budget ran out" in result.method and result.search == "budget"


def test_a_budget_too_small_to_explore_is_refused_before_any_game():
    from simlab.experiments.fix_question import FixQuestionError

    played = []
    with pytest.raises(FixQuestionError, match=r"'fix.budget': the first exploration needs 10,000 games"):
        find_fix(four_seats(budget=5_000), play=lambda *a: played.append(a))
    assert played == []


def test_a_fix_that_breaks_a_guard_is_not_chosen():
    """The cheapest fair vector (0, 2, 4, 6) doubles the game's length; a 10% length guard rules it out, and the
    next fair one, (1, 3, 5, 7), is certified with the guard held."""
    q = four_seats(guards={"length": 10})
    turns = lambda cfg: 100.0 if tuple(cfg.start_points) == (0, 2, 4, 6) else 50.0  # noqa: E731
    result = find_fix(q, play=surface(PLANTED, turns))
    assert result.status == "certified" and result.change.settings == (("start_points", (1, 3, 5, 7)),)
    assert [(g.name, g.after, g.band, g.ok) for g in result.guards] == [("length", 50.0, (45.0, 55.0), True)]
    found = find_fix(four_seats(guards={"length": 10}), play=surface(PLANTED))
    assert found.status == "certified"
    assert [(g.name, g.before, g.after, g.ok) for g in found.guards] == [("length", 50.0, 50.0, True)]


def test_a_money_only_question_agrees_with_compensate():
    """compensate's synthetic game (tests/experiments/test_fair_vector.py): fair at offsets (0, 1, 2, 3), every
    neighbour ≥ 2 points off. compensate's race and fix's cheapest-first search give the same vector."""
    beta = 0.15
    truth = softmax_truth(-beta * np.array([0, 1, 2, 3]), beta)

    def play_vector(game, config, knob, value, lineup, start, seeds):
        u = (np.asarray(seeds) % 1_000_003) / 1_000_003.0
        p = truth(config.replace(**{knob: tuple(value)}))
        k = np.minimum(np.searchsorted(np.cumsum(p), u, side="right"), 3)
        return np.eye(4)[k]

    cfg = PIG.make_config(players=4)
    search = KnobSearch(PIG, cfg, "start_points", ["holder"] * 4, batch=1000, max_games=80_000, seed=1)
    comp = fv.find_fair_vector(search, play=play_vector)
    q = fix_question(
        PIG,
        cfg,
        ["holder"] * 4,
        knobs={"start_points": {"seats": [0, 5]}},
        budget=80_000,
        batch=1000,
        certify_games=40_000,  # the first attempt at ¾α, in looks: 20,000 four-seat games leave it just short
        seed=1,
    )
    fixed = find_fix(q, play=surface(truth))
    assert comp.value == (0, 1, 2, 3)
    assert fixed.status == "certified" and fixed.change.settings == (("start_points", (0, 1, 2, 3)),)


def test_pig_with_a_panel_is_the_same_on_two_workers_and_names_the_bot_it_fails_for():
    """The fix for hold-at-20 players (seat 1 starts on 6 points) does not hold when everybody rolls at random:
    the random panel entry is named, not fair, with its interval; every figure is identical with --jobs 2."""
    q = fix_question(
        PIG, PIG.make_config(players=2), ["holder", "holder"],
        knobs={"start_points": {"seats": [0, 12], "step": 3}}, guards={"length": 10, "luck": 5},
        panel=["holder", "random"], budget=60_000, batch=2000, certify_games=20_000, seed=1,
    )  # fmt: skip
    one = find_fix(q, jobs=1).to_dict()
    assert find_fix(q, jobs=2).to_dict() == one
    assert one["status"] == "not_certified"
    assert one["change"]["settings"][0]["value"] == [0, 6, 0, 0]
    lineup, rand = one["panel"]  # the holder entry is the lineup itself: played once
    assert lineup["bot"] == "lineup: holder,holder" and lineup["fair"]
    # the lineup is certified at the fourth look (15,000 games); the random panel bot stops for futility at the
    # first (2,500), as do the published rules
    assert rand["bot"] == "random" and not rand["fair"] and rand["lo"] > 0.01 and rand["n"] == 2_500
    assert [(a["outcome"], a["stopped_by"]) for a in one["attempts"]] == [("futile", "random")]
    assert lineup["n"] == 15_000 and one["games"]["certify"] == 2_500 + 15_000 + 2_500
    assert [g["name"] for g in one["guards"]] == ["length", "luck"] and all(g["ok"] for g in one["guards"])


def test_a_combination_the_config_refuses_is_never_played():
    """Each grid is valid alone (checked on load), but a 4- or 5-sided die has no face 6 and a 4-sided one no
    face 5: the search skips those combinations instead of failing on them. The fake game is fair only at 5
    sides with 5 the bust face, an interaction the model cannot see: it rules everything out, so the untried
    settings are played cheapest first, and that one is found."""
    played = []

    def truth(cfg):
        played.append((cfg.sides, cfg.bust_face))
        return np.array([0.5, 0.5]) if (cfg.sides, cfg.bust_face) == (5, 5) else np.array([0.56, 0.44])

    cfg = PIG.make_config(players=2)
    q = fix_question(
        PIG, cfg, ["holder"] * 2, knobs={"sides": {"values": [4, 5]}, "bust_face": {"values": [5, 6]}},
        budget=30_000, batch=1000, certify_games=40_000,
    )  # fmt: skip
    result = find_fix(q, play=surface(truth))
    assert {(4, 5), (4, 6), (5, 6)}.isdisjoint(played) and (5, 5) in played
    assert result.status == "certified" and result.change.describe() == "sides 6 -> 5; bust_face 1 -> 5"


def test_a_scenario_with_a_fix_table_runs_end_to_end(monkeypatch):
    """The [fix] table of a scenario file, through fix_question_from_scenario, to the certified answer."""
    from simlab.core import registry
    from simlab.experiments.fix_question import fix_question_from_scenario
    from simlab.run.scenario import parse_scenario

    monkeypatch.setitem(registry.BUILTIN_GAMES, "pig", "tests.examples.pig.game:GAME")
    registry.get_game.cache_clear()
    try:
        sc = parse_scenario(
            'game = "pig"\nplayers = 2\ngames = 10\nseed = 1\nlineup = ["holder", "holder"]\n'
            "[fix]\nbudget = 60000\nbatch = 2000\ncertify_games = 20000\n"
            "[fix.knobs]\nstart_points = { seats = [0, 12], step = 3 }\n"
            "[fix.guards]\nfact.final_points = 10\n",
            source="pig_fix.toml",
        )
        result = find_fix(fix_question_from_scenario(sc))
    finally:
        registry.get_game.cache_clear()
    assert result.status == "certified" and result.change.describe() == "start_points 0,0,0,0 -> 0,6,0,0"
    assert result.guards[0].name == "fact.final_points" and result.guards[0].ok
