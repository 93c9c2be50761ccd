"""The experiments engine on synthetic arms: batches share seeds and continue the game index, a fresh run uses
seeds no batch saw and does not depend on how it is split, and the race drops the clearly worse arms."""

from __future__ import annotations

import numpy as np

from simlab.analysis.arms import Candidate
from simlab.experiments.engine import CONFIRM_START, Trials
from simlab.experiments.race import race
from simlab.run.seeds import game_seeds


def seat_play(truths: dict[tuple, list[float]]):
    """Arm -> per-game win shares (games x seats): the same seed gives the same uniform draw for every arm."""
    seen: list[tuple[tuple, int, int]] = []

    def play(arm, start, seeds):
        seen.append((arm, start, len(seeds)))
        u = (np.asarray(seeds) % 1_000_003) / 1_000_003.0
        cum = np.cumsum(truths[arm])
        return np.eye(len(cum))[np.minimum(np.searchsorted(cum, u, side="right"), len(cum) - 1)]

    return play, seen


def test_a_batch_plays_every_arm_on_the_same_seeds_and_the_next_batch_on_the_next_games():
    seeds_of: list[np.ndarray] = []

    def play(arm, start, seeds):
        seeds_of.append(np.asarray(seeds).copy())
        return np.zeros((len(seeds), 2))

    trials = Trials(play, seed=7)
    trials.batch([(0, 0), (0, 1)], 30)
    trials.batch([(0, 0)], 20)
    assert (seeds_of[0] == seeds_of[1]).all() and (seeds_of[0] == game_seeds(7, 0, 30)).all()
    assert (seeds_of[2] == game_seeds(7, 30, 50)).all()
    assert trials.spent == 80 and trials.next_game == 50
    assert [c.games for c in trials.pool.values()] == [50, 30]
    g, d, _w = trials.observations()
    assert len(g) == len(d) == 80 and g[:30].tolist() == list(range(30)) and g[30:50].tolist() == list(range(30, 50))


def test_results_do_not_depend_on_the_batch_size():
    truths = {(0, 0): [0.3, 0.7], (0, 2): [0.5, 0.5]}
    one = Trials(seat_play(truths)[0], seed=3)
    two = Trials(seat_play(truths)[0], seed=3)
    one.batch(list(truths), 100)
    two.batch(list(truths), 40)
    two.batch(list(truths), 60)
    for arm in truths:
        assert (np.concatenate(one.pool[arm].wins) == np.concatenate(two.pool[arm].wins)).all()


def test_a_fresh_run_plays_seeds_no_batch_plays_and_does_not_touch_the_batches():
    play, seen = seat_play({(0,): [0.5, 0.5]})
    trials = Trials(play, seed=1)
    trials.batch([(0,)], 10)
    w = trials.fresh((0,), 2500)
    assert seen[-1] == ((0,), CONFIRM_START, 2500) and w.shape == (2500, 2)
    assert trials.spent == 10 and trials.next_game == 10 and trials.pool[(0,)].games == 10
    # split in two parts (at least 1,000 games each) played by two worker processes: the same games
    assert (Trials(play, seed=1, jobs=2, worker=play).fresh((0,), 2500) == w).all()


def test_the_race_drops_the_clearly_worse_arms_and_stops_giving_them_games():
    truths = {(0,): [0.25, 0.75], (1,): [0.5, 0.5], (2,): [0.46, 0.54]}
    play, _seen = seat_play(truths)
    trials = Trials(play, seed=11)
    racers = [trials.pool.setdefault(arm, Candidate(arm)) for arm in truths]
    rounds_seen: list[int] = []
    status, rounds = race(
        trials,
        racers,
        batch=400,
        max_games=20_000,
        alpha=0.05,
        tolerance=0.0,
        on_round=lambda r, b: rounds_seen.append(b),
    )
    assert status == "decided" and rounds == len(rounds_seen)
    alive = [c for c in racers if c.dropped is None]
    assert [c.offsets for c in alive] == [(1,)]
    assert min(c.games for c in racers if c.dropped is not None) < alive[0].games  # the far one left early


def test_the_engine_plays_game_i_as_the_runner_plays_it(tmp_path):
    """Game i of a batch has the runner's seed and lineup rotation: the win shares of a small rotated run
    (Roma) are the engine's, game by game, for a batch of all its games and for batches split anywhere."""
    import polars as pl

    import simlab
    from simlab.experiments.engine import play_vector

    scenario = tmp_path / "s.toml"
    scenario.write_text('game = "roma"\nplayers = 2\ngames = 24\nseed = 5\nlineup = ["builder", "warrior"]\n')
    folder = simlab.run_scenario(scenario, jobs=1, out=tmp_path / "out", progress=False)
    rows = simlab.load_results(folder).sort("game", "seat").collect()
    runner = rows["win_share"].to_numpy().reshape(-1, 2)
    game = simlab.get_game("roma")
    config = game.make_config("rulebook")
    base = tuple(config.start_money[:2])

    def play(arm, start, seeds):
        return play_vector(game, config, "start_money", arm, ["builder", "warrior"], start, seeds)

    whole = Trials(play, seed=5)
    (w,) = whole.batch([base], 24)
    assert (w == runner).all()
    split = Trials(play, seed=5)
    parts = [split.batch([base], n)[0] for n in (7, 10, 7)]
    assert (np.concatenate(parts) == runner).all()
    assert pl.Series(rows["bot"]).to_list()[:4] == ["builder", "warrior", "warrior", "builder"]
