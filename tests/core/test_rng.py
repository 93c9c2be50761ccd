"""The chance generator: stream derivation is consistent, streams differ, draws are uniform."""

import numpy as np

from simlab.core.rng import below, seed_to_state, seeds_to_states


def test_scalar_and_vector_stream_states_agree() -> None:
    seeds = np.array([0, 1, 2, 12345, 2**63 - 1, 2**64 - 1], dtype=np.uint64)
    for stream in (0, 1, 4, 1001):
        vector = seeds_to_states(seeds, stream)
        assert [int(x) for x in vector] == [int(seed_to_state(int(s), stream)) for s in seeds]
        assert (vector != 0).all()


def test_streams_and_seeds_give_distinct_states() -> None:
    states = {int(seed_to_state(seed, stream)) for seed in range(200) for stream in range(5)}
    assert len(states) == 1000


def test_below_is_uniform() -> None:
    state = np.array([seed_to_state(7)], dtype=np.uint64)
    counts = np.bincount([below(state, 0, 6) for _ in range(60_000)], minlength=6)
    expected = 10_000
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 20.5  # 99.9% quantile of chi-square with 5 degrees of freedom
