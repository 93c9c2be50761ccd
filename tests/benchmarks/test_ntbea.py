"""The benchmark's anchor (benchmarks/ntbea.py, TAG's NTBEA mirrored) and its evaluator and truth table: the
landscape model's estimates are TAG's mean of tuple means, every evaluation is a game no other sees, the answer
is the best of the repeats' re-scores, and on a synthetic game with a known fair diagonal it finds the diagonal."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from benchmarks.fresh_games import FreshGames
from benchmarks.ntbea import NTupleModel, mutants, neighbour_count, ntbea, worst_deviation
from benchmarks.truth import TRUTH_START, TruthTable, borderline, truly_fair

FAIR_GAP = 5  # the synthetic game is fair when the second seat starts 5 steps ahead of the first


def synthetic_play(setting, start, seeds):
    """Two seats; seat 0 wins with 0.5 + 0.03 (5 − (x1 − x0)), a uniform draw per seed (the same for every
    setting on the same seed)."""
    x0, x1 = setting
    p0 = np.clip(0.5 + 0.03 * (FAIR_GAP - (x1 - x0)), 0.02, 0.98)
    u = (np.asarray(seeds) % 1_000_003) / 1_000_003.0
    w0 = (u < p0).astype(float)
    return np.column_stack([w0, 1 - w0])


def test_the_model_estimate_is_the_mean_of_the_tuples_mean_vectors_and_exploration_is_tags():
    rng = np.random.default_rng(1)
    sizes = (3, 4, 2)
    model = NTupleModel(sizes, seats=2)
    assert model.tuples == [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
    data = []
    for _ in range(40):
        p = tuple(int(rng.integers(s)) for s in sizes)
        r = np.array([1.0, 0.0]) if rng.random() < 0.6 else np.array([0.0, 1.0])
        model.add(p, r)
        data.append((p, r))
    for q in itertools.product(*(range(s) for s in sizes)):
        means, explore = [], []
        for t in model.tuples:
            hits = [r for p, r in data if all(p[i] == q[i] for i in t)]
            if hits:
                means.append(np.mean(hits, axis=0))
            explore.append(np.sqrt(np.log((1 + len(data)) / (0.1 + len(hits)))))
        got = model.mean_vector(np.array([q]))[0]
        if means:
            np.testing.assert_allclose(got, np.mean(means, axis=0))
            assert model.estimate(np.array([q]))[0] == pytest.approx(-worst_deviation(np.mean(means, axis=0)))
        else:
            assert np.isnan(got).all()
        assert model.exploration(np.array([q]))[0] == pytest.approx(np.mean(explore))


def test_a_mutant_changes_at_least_one_dimension_to_another_value_inside_the_grid():
    rng = np.random.default_rng(2)
    sizes = (5, 2, 7)
    point = np.array([4, 0, 3])
    out = mutants(point, sizes, 2000, rng)
    assert (out != point).any(axis=1).all()
    assert ((out >= 0) & (out < np.array(sizes))).all()
    changed = out != point
    assert 0.25 < changed[:, 0].mean() < 0.5  # probability 1/3 per dimension, plus the forced one
    assert set(out[changed[:, 2], 2].tolist()) == set(range(7)) - {3}
    assert neighbour_count((11, 11)) == 30 and neighbour_count((2, 2)) == 5 and neighbour_count((50, 50)) == 50


def test_every_evaluation_is_a_game_no_other_sees_and_the_games_are_counted():
    indices: list[int] = []

    def play(setting, start, seeds):
        indices.extend(range(start, start + len(seeds)))
        return synthetic_play(setting, start, seeds)

    fresh = FreshGames(play, seed=7)
    handed = [fresh((0, k % 3)) for k in range(100)]
    assert fresh.used == 100 and fresh.played >= 100 and len(handed) == 100
    assert len(indices) == len(set(indices)) == fresh.played  # no game index played twice

    fresh = FreshGames(synthetic_play, seed=7)
    result = ntbea(fresh, (11, 11), seats=2, iterations=300, seed=3, repeats=5, eval_games=200)
    assert result.games == fresh.used == 5 * (300 + 200)


def test_the_answer_is_the_run_with_the_best_rescore():
    fresh = FreshGames(synthetic_play, seed=11)
    result = ntbea(fresh, (11, 11), seats=2, iterations=200, seed=5, repeats=5, eval_games=50)
    fitness = [-worst_deviation(r.rescore) for r in result.runs]
    assert result.best == int(np.argmax(fitness))
    assert result.setting == result.runs[result.best].recommended
    assert result.claimed_deviation == pytest.approx(min(worst_deviation(r.rescore) for r in result.runs))


def test_with_enough_games_ntbea_ends_near_the_fair_diagonal():
    gaps = []
    for seed in range(4):
        fresh = FreshGames(synthetic_play, seed=100 + seed)
        x0, x1 = ntbea(fresh, (11, 11), seats=2, iterations=3000, seed=seed, repeats=5, eval_games=200).setting
        gaps.append(x1 - x0)
    assert all(abs(g - FAIR_GAP) <= 2 for g in gaps), gaps


def test_the_truth_table_plays_each_setting_once_on_the_same_fresh_games_and_refuses_another_question(tmp_path):
    calls = []

    def play(setting, start, seeds):
        calls.append((setting, start, seeds.copy()))
        return synthetic_play(setting, start, seeds)

    prov = {"game": "synthetic", "games": 3000, "seed": 9, "grid": [[0, 10], [0, 10]]}
    table = TruthTable(tmp_path / "truth.json", prov)
    fair, unfair = table.entry((0, 5), play), table.entry((0, 0), play)
    assert table.entry((0, 5), play) is fair and len(calls) == 2  # cached
    assert calls[0][1] == calls[1][1] == TRUTH_START and (calls[0][2] == calls[1][2]).all()
    assert fair["games"] == 3000 and truly_fair(fair, 0.02) and not truly_fair(unfair, 0.02)
    assert unfair["deviation"] == pytest.approx(0.15, abs=0.02)
    assert borderline({"deviation": 0.021, "deviation_se": 0.001}, 0.02)

    again = TruthTable(tmp_path / "truth.json", prov)  # read back from disk, nothing played
    assert again.entry((0, 5), play) == fair and len(calls) == 2
    assert json.loads((tmp_path / "truth.json").read_text())["provenance"]["seed"] == 9
    with pytest.raises(ValueError, match=r"another question.*games"):
        TruthTable(tmp_path / "truth.json", dict(prov, games=5000))


def test_a_screened_truth_stops_a_clear_setting_early_and_plays_a_close_one_to_the_full_count(tmp_path):
    prov = {"game": "synthetic", "games": 20_000, "screen": 2_000, "delta": 0.01, "seed": 9}
    table = TruthTable(tmp_path / "truth.json", prov)
    far, near = table.entry((0, 0), synthetic_play), table.entry((0, 5), synthetic_play)
    assert far["games"] == 2_000 and far["deviation"] > 0.1  # 15 points off: clear after the screen
    assert near["games"] == 20_000  # within a few SE of δ after 2,000 games: played to the full count
    whole = TruthTable(tmp_path / "whole.json", dict(prov, screen=0)).entry((0, 5), synthetic_play)
    assert near == {**whole, "written_by": near["written_by"]}  # the same games, the screen's first


def test_fix_is_asked_the_benchmark_question_on_the_same_grid_lineup_and_tolerance():
    from benchmarks.fix_runs import question_for_fix
    from benchmarks.questions import pig

    q = pig()
    fq = question_for_fix(q, budget=50_000, seed=3)
    (knob,) = fq.knobs
    assert knob.name == "start_points" and knob.kind == "seats"
    assert knob.axes == tuple(d.values for d in q.dims)  # the anchor's grid, entry by entry
    assert fq.lineup == q.lineup and fq.panel == () and fq.tolerance == q.delta * 100
    assert fq.budget == 50_000 and fq.seed == 3
    assert fq.change(start_points=(0, 6, 0, 0)).apply(fq.config) == q.config_of((0, 6))
