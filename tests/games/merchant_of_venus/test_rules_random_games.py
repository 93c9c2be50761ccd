"""Complete games with random bots: legal to the end, invariants after every action (Python driver) and on
thousands of final records (compiled loop), every player count, both purse readings; deterministic."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.games.merchant_of_venus import checks
from simlab.games.merchant_of_venus.game import GAME


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_invariants_after_every_action(players):
    for seed in range(6):
        config = GAME.make_config(players=players, preset=("standard", "literal_purses")[seed % 2])
        st = GAME.new_state(config, seed)
        rng = np.random.default_rng(seed)
        checks.invariants(st.record[0], config)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            st.apply(legal[int(rng.integers(len(legal)))])
            checks.invariants(st.record[0], config)
        assert int(st.record[0]["round_no"]) == config.rounds


def test_thousands_of_compiled_random_games_end_scored():
    total = 0
    for players in (2, 3, 4):
        config = GAME.make_config(players=players)
        out = GAME.play_batch(config, list(range(1000)), GAME.make_bots(["random"] * players, players))
        for rec in out:
            checks.invariants(rec, config)
        assert (out["cur"] == -1).all() and np.allclose(out["share"][:, :players].sum(1), 1.0)
        total += len(out)
    assert total == 3000
