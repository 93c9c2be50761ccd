"""The fair-vector search on synthetic games whose true win shares are known: the race finds the optimum on the
knob's grid, the confirmation run's intervals cover the truth at their nominal rate, continuous knobs get the
model's answer, and the stopping rules and errors behave."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from simlab.analysis.confirmation import confirmation_of
from simlab.analysis.frames import AnalysisError
from simlab.analysis.softmax_fit import SoftmaxFit, fit_softmax, shortlist
from simlab.experiments import fair_vector as fv
from simlab.experiments.knob_search import KnobSearch, knob_vector

BASE = (6, 6, 6, 6)


def softmax_game(alpha, beta, base=BASE):
    """A synthetic game: seat k wins with probability ∝ exp(α_k + β·(value_k − base_k)); the same seed gives the
    same uniform draw at every vector (common random numbers), as the real engine's seeds do."""
    alpha = np.asarray(alpha, float)

    def truth(value):
        eta = alpha + beta * (np.asarray(value, float) - np.asarray(base, float))
        e = np.exp(eta - eta.max())
        return e / e.sum()

    def play(game, config, knob, value, lineup, start, seeds):
        u = (np.asarray(seeds) % 1_000_003) / 1_000_003.0
        cum = np.cumsum(truth(value))
        k = np.minimum(np.searchsorted(cum, u, side="right"), len(cum) - 1)
        return np.eye(len(cum))[k]

    return truth, play


def config(base=BASE):
    return SimpleNamespace(players=len(base), start_money=tuple(base))


def test_the_race_finds_the_known_whole_vector():
    """Truth fair at offsets (0, 1, 2, 3): exactly equal shares there, every neighbour ≥ 2 points off."""
    beta = 0.15
    truth, play = softmax_game(-beta * np.array([0, 1, 2, 3]), beta)
    found = fv.find_fair_vector(KnobSearch(None, config(), "start_money", ["a"] * 4, 1000, 80_000, 1), play=play)
    assert found.value == (6, 7, 8, 9)
    assert found.status in {"decided", "equivalent"}
    assert all(isinstance(v, int) for v in found.value)
    assert np.allclose(truth(found.value), 0.25)
    chosen = found.candidates_table().filter("chosen")
    assert chosen.height == 1 and chosen["dropped_in_round"][0] is None


def test_the_race_spends_its_games_where_the_decision_is_close():
    """Dropped candidates stop getting games; the survivors get more."""
    beta = 0.15
    _, play = softmax_game(-beta * np.array([0, 1, 2, 3]), beta)
    found = fv.find_fair_vector(KnobSearch(None, config(), "start_money", ["a"] * 4, 1000, 80_000, 2), play=play)
    games = {c.offsets: c.games for c in found.candidates}
    dropped = [c for c in found.candidates if c.dropped is not None]
    assert dropped, "some candidate is dropped"
    assert all(games[found.offsets] >= c.games for c in dropped)
    assert games[found.offsets] > min(c.games for c in dropped)


def test_softmax_fit_recovers_the_model():
    alpha, beta = np.array([0.0, -0.2, -0.3, -0.1]), 0.12
    _, play = softmax_game(alpha, beta)
    rng = np.random.default_rng(0)
    vectors = [(0, 0, 0, 0), (2, 0, 0, 0), (0, 2, 0, 0), (0, 0, 2, 0), (0, 0, 0, 2)]
    seeds = rng.integers(0, 2**62, 40_000)
    g = np.concatenate([np.arange(len(seeds))] * len(vectors))
    d = np.concatenate([np.tile(v, (len(seeds), 1)) for v in vectors]).astype(float)
    w = np.concatenate([play(None, None, "k", tuple(np.add(BASE, v)), [], 0, seeds) for v in vectors])
    fit = fit_softmax(g, d, w)
    se = np.sqrt(np.diag(fit.cov))
    assert abs(fit.beta - beta) < 4 * se[-1]
    assert np.all(np.abs(fit.alpha[1:] - alpha[1:]) < 4 * se[:-1])
    assert np.allclose(fit.fair(), (alpha.max() - alpha) / beta, atol=1.0)


def test_confirmation_intervals_cover_the_truth():
    """Over 400 synthetic confirmation runs: each seat's interval covers its true share at about 95%, and the
    equal-seats test at an exactly fair vector rejects at about 5%."""
    truth_p = np.array([0.25, 0.25, 0.25, 0.25])
    rng = np.random.default_rng(11)
    reps, games = 400, 800
    covered, rejected = np.zeros(4), 0
    for _ in range(reps):
        w = np.eye(4)[rng.choice(4, size=games, p=truth_p)]
        c = confirmation_of(BASE, w)
        covered += (c.lo <= truth_p) & (truth_p <= c.hi)
        rejected += c.p_equal < 0.05
    sd = np.sqrt(0.95 * 0.05 / reps)
    assert np.all(np.abs(covered / reps - 0.95) < 3.5 * sd)
    assert rejected / reps < 0.05 + 3.5 * np.sqrt(0.05 * 0.95 / reps)


def test_search_then_confirmation_covers_the_truth_of_the_chosen_vector():
    """The whole procedure replicated: the confirmation (fresh seeds) covers the chosen vector's true shares."""
    beta = 0.1
    truth, play = softmax_game(-beta * np.array([0.0, 0.6, 1.4, 2.2]), beta)
    reps, covered, seats = 40, 0, 0
    for r in range(reps):
        search = KnobSearch(None, config(), "start_money", ["a"] * 4, batch=400, max_games=12_000, seed=100 + r)
        found = fv.find_fair_vector(search, play=play, confirm_games=1500)
        c = found.confirmation
        p = truth(found.value)
        covered += int(((c.lo <= p) & (p <= c.hi)).sum())
        seats += 4
        assert found.confirmation.games == 1500
    rate = covered / seats
    assert abs(rate - 0.95) < 3.5 * np.sqrt(0.95 * 0.05 / seats) + 0.01


def test_the_confirmation_plays_fresh_seeds():
    seen = []

    def play(game, config, knob, value, lineup, start, seeds):
        seen.append((start, len(seeds)))
        return np.eye(4)[np.asarray(seeds) % 4]

    fv.confirm(KnobSearch(None, config(), "start_money", ["a"] * 4, seed=0), BASE, 100, play=play)
    assert seen == [(fv.CONFIRM_START, 100)]


def test_a_continuous_knob_gets_the_models_fractional_answer():
    beta = 0.2
    fair = np.array([0.0, 0.7, 1.3, 2.5])
    base = (6.0, 6.0, 6.0, 6.0)
    _, play = softmax_game(-beta * fair, beta, base)
    found = fv.find_fair_vector(KnobSearch(None, config(base), "start_money", ["a"] * 4, 5000, 60_000, 4), play=play)
    assert found.status == "continuous"
    assert all(isinstance(v, float) for v in found.value)
    assert np.all(found.offset_lo <= fair) and np.all(fair <= found.offset_hi)


def test_budget_spent_says_so():
    beta = 0.15
    _, play = softmax_game(-beta * np.array([0, 1, 2, 3]), beta)
    found = fv.find_fair_vector(KnobSearch(None, config(), "start_money", ["a"] * 4, 200, 2_000, 1), play=play)
    assert found.status == "budget"
    assert found.games <= 2_000


def test_too_small_a_budget_and_scalar_knobs_are_errors():
    _, play = softmax_game(np.zeros(4), 0.1)
    with pytest.raises(AnalysisError, match="not enough games to explore"):
        fv.find_fair_vector(KnobSearch(None, config(), "start_money", ["a"] * 4, batch=100, max_games=300), play=play)
    with pytest.raises(AnalysisError, match="not a per-seat number"):
        knob_vector(SimpleNamespace(players=4, rounds=7), "rounds")


def test_shortlist_normalises_to_the_strongest_seat():
    fit = SoftmaxFit(np.array([0.0, -0.1, -0.2, -0.3]), 0.1, np.eye(4) * 1e-4, 100)
    short = shortlist(fit, 5)
    assert short[0] == (0, 1, 2, 3)
    assert all(min(c) == 0 for c in short)


def test_the_compensation_searches_read_under_their_old_name_too() -> None:
    """``search`` (the name cli.py and older scripts import) is the compensation search of each driver."""
    from simlab.experiments import adaptive

    assert fv.search is fv.find_fair_vector and adaptive.search is adaptive.find_fair_offset
