"""Random games to their end: every action legal, the invariants after every action, the same seed the same
game, and determinize changing only what the seat cannot see."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.pantheon import rules as R
from simlab.games.pantheon.checks import determinized, hidden_fields, invariants, resampled
from simlab.games.pantheon.game import GAME

VARIANTS = [
    {},
    {"bonus_draft": True},
    {"start_stock_by_player_count": True, "cartago_before_temple": False},
    {"purchase_takes_loot": False, "jump_reached_connected": False, "face_up_demigod_newest_first": False},
]


def random_game(players, seed, overrides, check_views=False):
    config = GAME.make_config(players=players, overrides=overrides)
    st = GAME.new_state(config, seed)
    rng = np.random.default_rng(seed)
    invariants(st.record[0], config)
    views = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        assert legal, f"no legal action at {st.decision_name()}"
        st.apply(int(legal[rng.integers(len(legal))]))
        invariants(st.record[0], config)
        if check_views and rng.random() < 0.02:
            seat = int(rng.integers(players))
            view = st.determinize(seat, rng)
            determinized(st, view, seat)
            hidden = set(hidden_fields(st.record[0], seat))
            for f in st.record.dtype.names:
                if f not in hidden:
                    assert np.array_equal(st.record[0][f], view.record[0][f]), f"determinize changed {f}"
            views += resampled(st, view, seat)
    return st, views


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_random_games_end_legally_with_the_invariants_after_every_action(players, variant):
    for seed in range(4):
        st, _ = random_game(players, 1000 * variant + seed, VARIANTS[variant])
        s = st.record[0]
        assert s["era"] == 6 and s["cur"] == -1 and s["phase"] == R.PH_OVER
        assert s["share"][:players].sum() == pytest.approx(1.0)


def test_the_same_seed_plays_the_same_game():
    a, _ = random_game(3, 7, {})
    b, _ = random_game(3, 7, {})
    assert a.record.tobytes() == b.record.tobytes() and a.history == b.history


def test_determinize_resamples_only_hidden_fields():
    _, views = random_game(4, 11, {}, check_views=True)
    assert views > 0


def test_thousands_of_compiled_random_games_end_with_the_invariants():
    for players in (2, 3, 4):
        config = GAME.make_config(players=players)
        recs = GAME.play_batch(config, list(range(700)), GAME.make_bots(["random"] * players, players))
        again = GAME.play_batch(config, list(range(700)), GAME.make_bots(["random"] * players, players))
        assert recs.tobytes() == again.tobytes()
        for r in recs:
            invariants(r, config)
            assert r["era"] == 6 and r["cur"] == -1
