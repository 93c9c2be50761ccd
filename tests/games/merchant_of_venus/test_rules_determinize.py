"""Hidden information: the compiled determinize resamples in place only what a seat cannot see, from the
rng it is given; and games are deterministic per seed."""

from __future__ import annotations

import numpy as np

from simlab.core.rng import seed_to_state
from simlab.games.merchant_of_venus import checks
from simlab.games.merchant_of_venus import rules as R
from simlab.games.merchant_of_venus.game import GAME
from simlab.games.merchant_of_venus.position import position


def mid_game(seed=4, steps=300):
    st = GAME.new_state(GAME.make_config(players=3), seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
    return st


def test_determinize_keeps_what_the_seat_sees_and_permutes_the_rest():
    st = position(0, overrides={"players": 2}, discovered=["Colony World"])
    before = st.record.copy()
    det = st.record.copy()
    words = np.array([seed_to_state(7)], dtype=np.uint64)
    R.determinize(det, st.cfg, 0, words)
    a, b = before[0], det[0]
    for name in a.dtype.names:
        if name not in checks.hidden_fields(a, 0):
            assert np.array_equal(a[name], b[name]), name
    known = a["discovered"] == 1
    assert (a["sys_culture"][known] == b["sys_culture"][known]).all()
    assert sorted(a["sys_culture"].tolist()) == sorted(b["sys_culture"].tolist())
    assert not np.array_equal(a["rng"], b["rng"])


def test_determinize_draws_only_from_the_given_rng():
    st = mid_game()
    outs = []
    for _ in range(2):
        det = st.record.copy()
        R.determinize(det, st.cfg, 1, np.array([seed_to_state(11)], dtype=np.uint64))
        outs.append(det.tobytes())
    assert outs[0] == outs[1]
    det = st.record.copy()
    R.determinize(det, st.cfg, 1, np.array([seed_to_state(12)], dtype=np.uint64))
    assert det.tobytes() != outs[0]


def test_state_determinize_is_a_copy_and_checks_hold():
    st = mid_game()
    before = st.record.tobytes()
    det = st.determinize(st.current_player, np.random.default_rng(1))
    assert st.record.tobytes() == before
    checks.determinized(st, det, st.current_player)
    checks.invariants(det.record[0], det.config)
    det.apply(det.legal_actions()[0])


def test_unrevealed_market_tokens_are_resampled():
    seen = set()
    st = position(0, overrides={"players": 2}, discovered=["Colony World"])
    for seed in range(12):
        det = st.record.copy()
        R.determinize(det, st.cfg, 0, np.array([seed_to_state(seed)], dtype=np.uint64))
        sy = int(np.flatnonzero(det[0]["discovered"])[0])
        c = int(det[0]["sys_culture"][sy])
        top = int(det[0]["stack_top"][c])
        assert det[0]["stack"][c, top] == st.record[0]["stack"][c, top]
        seen.add(tuple(det[0]["stack"][c].tolist()))
    assert len(seen) == 2


def test_same_seed_same_game():
    config = GAME.make_config(players=4, overrides={"rounds": 8})
    bots = GAME.make_bots(["random"] * 4, 4)
    a = GAME.play_batch(config, [5, 6], bots)
    b = GAME.play_batch(config, [5, 6], bots)
    assert a.tobytes() == b.tobytes()
    assert a[0].tobytes() != a[1].tobytes()
