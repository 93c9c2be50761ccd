"""Intervals valid at every look: coverage under optional stopping, on synthetic streams of known mean.

Each test plays many independent streams (``REPS``) of per-game values, looks after every batch and records
whether the interval missed the truth at *any* look (a confidence sequence's guarantee: at most α), and, for the
verdicts, whether a run that stops at its first settled look says "beyond" about a truth that is not. Bounds are
the nominal α plus three binomial standard deviations at ``REPS``. A fixed 95% interval read at the same looks
misses far more often: that is what the sequence is for.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simlab.analysis import stats
from simlab.analysis.confseq import mean_sequence, mixture_bound, state_of, stitching_bound
from simlab.analysis.sequential import Verdict, _Question, verdicts_from

REPS = 4000
BATCH = 200
LOOKS = 50  # 10,000 games per stream
ALPHA = 0.05


def _bound(nominal: float = ALPHA, reps: int = REPS) -> float:
    return nominal + 3 * math.sqrt(nominal * (1 - nominal) / reps)


def _seat_shares(rng: np.random.Generator, shape: tuple[int, ...], win: float, tie: float) -> np.ndarray:
    """A seat's win share per game: 1 (alone) with probability ``win``, ½ (a two-way tie) with ``tie``, else 0."""
    u = rng.random(shape)
    return np.where(u < win, 1.0, np.where(u < win + tie, 0.5, 0.0))


def _paired(rng: np.random.Generator, shape: tuple[int, ...], base: float = 0.25) -> np.ndarray:
    """The change of a seat's share between two variants on the same seeds: the games share most of their luck
    (mean 0.3 · (0.30 − ``base``))."""
    same = rng.random(shape) < 0.7  # the same winner in both variants' game i
    x = _seat_shares(rng, shape, 0.30, 0.04)
    y = np.where(same, x, _seat_shares(rng, shape, base, 0.04))
    return x - y


def _looks(draw, low: float, high: float, centre: float, alpha: float = ALPHA, seed: int = 1):
    """Per stream and look: n, mean, lo, hi and the fixed-size 95% normal interval's half-width."""
    rng = np.random.default_rng(seed)
    n = s1 = s2 = np.zeros(REPS)
    out = []
    for _ in range(LOOKS):
        x = draw(rng, (REPS, BATCH))
        n, s1, s2 = n + BATCH, s1 + x.sum(axis=1), s2 + (x * x).sum(axis=1)
        mean, lo, hi = mean_sequence(n, s1, s2, low, high, centre, alpha)
        sd = np.sqrt(np.maximum(s2 / n - mean**2, 0) * n / (n - 1))
        out.append((n, mean, lo, hi, stats.z_value(0.95) * sd / np.sqrt(n)))
    return out


def miss_rates(looks: list, truth: float) -> tuple[float, float]:
    """The share of streams whose interval missed the truth at some look: the sequence's, a fixed 95% one's."""
    missed = np.zeros(REPS, dtype=bool)
    naive = np.zeros(REPS, dtype=bool)
    for _n, mean, lo, hi, half in looks:
        missed |= (lo > truth) | (hi < truth)
        naive |= np.abs(mean - truth) > half
    return float(missed.mean()), float(naive.mean())


STREAMS = [
    ("seat share (4 players, ties split)", lambda r, s: _seat_shares(r, s, 0.26, 0.04), 0.28, 0.0, 1.0, 0.25),
    ("rare win (skewed), centre far off", lambda r, s: _seat_shares(r, s, 0.02, 0.0), 0.02, 0.0, 1.0, 0.5),
    ("paired change between variants", _paired, 0.3 * (0.30 - 0.25), -1.0, 1.0, 0.0),
]


@pytest.mark.parametrize(("name", "draw", "truth", "low", "high", "centre"), STREAMS)
def test_the_interval_covers_the_truth_at_every_look(name, draw, truth, low, high, centre):
    looks = _looks(draw, low, high, centre)
    missed, naive = miss_rates(looks, truth)
    assert missed <= _bound(), name
    assert naive > 3 * _bound(), name  # read at 50 looks, a fixed 95% interval misses far more often
    # and it narrows as it should: about √n
    first, last = looks[0], looks[-1]
    assert np.median(last[3] - last[2]) < np.median(first[3] - first[2]) / 6


def test_a_run_that_stops_when_settled_says_beyond_at_most_alpha_of_the_time():
    """The truth exactly on the band's edge (fair + δ): "beyond" is false there; a run stops at the first
    settled look (within or beyond) or at the last."""
    assert false_beyond_rate() <= _bound()


def false_beyond_rate(fair: float = 0.25, delta: float = 0.01) -> float:
    truth = fair + delta
    looks = _looks(lambda r, s: _seat_shares(r, s, truth - 0.02, 0.04), 0.0, 1.0, fair, seed=2)
    stopped = np.zeros(REPS, dtype=bool)
    false_beyond = np.zeros(REPS, dtype=bool)
    for _n, _mean, lo, hi, _half in looks:
        beyond = (lo > fair + delta) | (hi < fair - delta)
        within = (lo >= fair - delta) & (hi <= fair + delta)
        false_beyond |= ~stopped & beyond
        stopped |= beyond | within
    return float(false_beyond.mean())


def test_a_family_of_verdicts_keeps_its_family_wise_error_at_every_look():
    """Four seats of a fair game and a change of zero, read by ``verdicts_from`` (Bonferroni over the five) at
    10 looks: a false "beyond" anywhere in the family, at any look, in at most α of the runs."""
    reps, looks, batch = 300, 10, 400
    rng = np.random.default_rng(3)
    wrong = 0
    for _ in range(reps):
        winners = rng.integers(0, 4, size=(looks, batch))
        change = _paired(rng, (looks, batch), base=0.30)  # mean 0
        bad = False
        for t in range(1, looks + 1):
            w = winners[:t].ravel()
            qs = [
                _Question(
                    f"seats/v/seat {k}", "", ("v",), w.size, float((w == k).sum()), float((w == k).sum()), 0, 1, 0.25
                )
                for k in range(4)
            ]
            d = change[:t].ravel()
            qs.append(
                _Question("change/w/seat 0", "", ("w", "v"), d.size, float(d.sum()), float((d * d).sum()), -1, 1, 0)
            )
            vs = verdicts_from(qs, tolerance=0.0, alpha=ALPHA, players=4)  # δ = 0: any exclusion of the truth
            bad |= any(v.state == "beyond" for v in vs)
        wrong += bad
    assert wrong / reps <= _bound(reps=reps)


def test_verdict_states_against_the_band():
    assert state_of(0.262, 0.27, 0.25, 0.01) == ("beyond", 1)
    assert state_of(0.20, 0.238, 0.25, 0.01) == ("beyond", -1)
    assert state_of(0.245, 0.259, 0.25, 0.01) == ("within", 0)
    assert state_of(0.245, 0.261, 0.25, 0.01) == ("open", 0)


def test_the_equal_seats_verdict_reads_the_seat_intervals():
    n = 400_000
    shares = [0.28, 0.245, 0.24, 0.235]  # seat 0 three points over 1/4, with a 1-point tolerance
    qs = [_Question(f"seats/v/seat {k}", "", ("v",), n, p * n, p * n, 0, 1, 0.25) for k, p in enumerate(shares)]
    vs = {v.key: v for v in verdicts_from(qs, tolerance=0.01, alpha=ALPHA, players=4)}
    assert vs["seats/v/seat 0"].state == "beyond" and vs["seats/v/seat 0"].direction == 1
    assert vs["seats/v"].state == "beyond" and vs["seats/v"].direction == 1
    assert vs["seats/v"].lo > 0.01 and vs["seats/v"].hi >= vs["seats/v"].estimate >= vs["seats/v"].lo
    assert vs["seats/v/seat 1"].state == "within"
    fair = [_Question(f"seats/v/seat {k}", "", ("v",), n, 0.25 * n, 0.25 * n, 0, 1, 0.25) for k in range(4)]
    assert {v.key: v for v in verdicts_from(fair, 0.01, ALPHA, 4)}["seats/v"].state == "within"
    assert isinstance(vs["seats/v"], Verdict) and vs["seats/v"].as_dict()["variants"] == ["v"]


def test_a_variant_without_games_yet_is_open_with_the_whole_range():
    qs = [_Question(f"seats/v/seat {k}", "", ("v",), 0, 0.0, 0.0, 0, 1, 0.25) for k in range(4)]
    qs.append(_Question("change/w/seat 0", "", ("w", "v"), 0, 0.0, 0.0, -1, 1, 0))
    vs = verdicts_from(qs, 0.01, ALPHA, 4)
    assert all(v.state == "open" and v.n == 0 for v in vs)
    assert (vs[1].lo, vs[1].hi) == (0.0, 1.0) and (vs[-1].lo, vs[-1].hi) == (-1.0, 1.0)


def test_the_boundary_costs_a_bounded_factor_and_the_mixture_beats_stitching_where_verdicts_settle():
    """The price of looking: from 3,000 to 100,000 games the sequence is 1.6-1.7 times a fixed 95% interval
    (one interval, α = 5%), where splitting α over 100 looks would cost about 1.8 times and grow with the looks;
    the gamma-exponential mixture is narrower than the stitching boundary over that range."""
    n = np.array([3e3, 1e4, 3e4, 1e5])
    v = 0.1875 * n
    fixed = 1.96 * np.sqrt(0.1875 / n)
    mixture = mixture_bound(v, ALPHA / 2, 1.0) / n / fixed
    assert (mixture < 1.75).all() and (mixture > 1.5).all()
    assert (mixture_bound(v, ALPHA / 2, 1.0) < stitching_bound(v, ALPHA / 2, 1.0)).all()


if __name__ == "__main__":  # the figures in docs/analysis.md: python tests/analysis/test_sequential.py
    print(f"{REPS} streams each, a look every {BATCH} games up to {BATCH * LOOKS:,}, alpha {ALPHA}")
    for name, draw, truth, low, high, centre in STREAMS:
        seq, fixed = miss_rates(_looks(draw, low, high, centre), truth)
        print(f"{name}: missed at some look {seq:.2%} (fixed 95% interval at the same looks: {fixed:.2%})")
    print(f"false 'beyond' with the truth on the band's edge, stopping when settled: {false_beyond_rate():.2%}")
    print("half-width / a fixed 95% interval's (seat share, variance 0.1875), by intervals in the family:")
    for m in (1, 4, 32):
        n = np.array([1e3, 3e3, 1e4, 3e4, 1e5, 1e6])
        fixed = 1.96 * np.sqrt(0.1875 / n)
        mix = mixture_bound(0.1875 * n, ALPHA / m / 2, 1.0) / n / fixed
        stitch = stitching_bound(0.1875 * n, ALPHA / m / 2, 1.0) / n / fixed
        cells = ", ".join(f"{k:,.0f}: {a:.2f} ({b:.2f})" for k, a, b in zip(n, mix, stitch, strict=True))
        print(f"  {m:>2}: games {cells}  [mixture (stitching)]")
