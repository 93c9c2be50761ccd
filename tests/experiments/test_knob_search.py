"""One KnobSearch for both compensation drivers: the same budget defaults, the same per-seat knob, the same refusal."""

from __future__ import annotations

import numpy as np
import pytest

from simlab.analysis.adaptive import as_compensation
from simlab.analysis.frames import AnalysisError
from simlab.experiments import adaptive
from simlab.experiments import fair_vector as fv
from simlab.experiments.knob_search import KnobSearch
from simlab.games.massilia.config import MassiliaConfig


def even_play(game, config, knob, seat, offset, lineup, start, seeds):
    """A seat that wins more with more of the knob (a logistic curve through 1/N at offset 0)."""
    rng = np.random.default_rng(np.asarray(seeds, dtype=np.uint64))
    p = 1 / (1 + (config.players - 1) * np.exp(-0.3 * offset))
    return (rng.random(len(seeds)) < p).astype(float)


def test_the_budget_is_the_drivers_own_unless_given():
    search = KnobSearch(None, None, "start_money", ["a"])
    assert search.budget(fv.MAX_GAMES) == 200_000 and search.budget(adaptive.MAX_GAMES) == 100_000
    assert KnobSearch(None, None, "start_money", ["a"], max_games=500).budget(fv.MAX_GAMES) == 500


def test_a_three_player_one_seat_search_is_a_three_player_answer():
    """Massilia's start_money holds four entries at any player count: the one-seat search kept all four as its
    base, so its chart drew the fair share of 1/4 for a 3-player game."""
    config = MassiliaConfig.from_preset("rulebook", {"players": 3})
    assert len(config.start_money) == 4
    search = KnobSearch(None, config, "start_money", ["trader"] * 3, batch=200, max_games=1200, seed=3)
    result = adaptive.find_fair_offset(search, 0, width=0.01, play=even_play)
    assert result.base == (6, 6, 6) == search.base()
    assert as_compensation(result, ["trader"]).players == 3


@pytest.mark.parametrize("seat", [None, 0])
def test_a_knob_that_is_not_per_seat_is_refused_alike_by_both_drivers(seat):
    search = KnobSearch(None, MassiliaConfig.from_preset("rulebook"), "rounds", ["trader"] * 4)
    with pytest.raises(AnalysisError, match="knob 'rounds' is not a per-seat number"):
        fv.find_fair_vector(search) if seat is None else adaptive.find_fair_offset(search, seat)
