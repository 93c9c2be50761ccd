"""``simlab bench --rotate`` plays the games a run with the same lineup plays (game i rotated by i mod N)."""

from __future__ import annotations

import simlab
from simlab.core.registry import get_game
from simlab.run.bench import bench
from simlab.run.chunk import ChunkTask, play_chunk


def test_rotated_bench_plays_the_runs_games():
    game = get_game("roma")
    config = game.make_config(players=2)
    lineup = ("builder", "warrior")
    task = ChunkTask(
        game="roma",
        scenario="x",
        variant="v",
        config=config,
        lineup=lineup,
        rotate=True,
        start=0,
        stop=41,
        seeds=None,
        simlab_version=simlab.__version__,
        root_seed=0,
    )
    run_decisions = play_chunk(task).chunk["decisions"]
    for jobs in (1, 2):
        rotated = bench("roma", players=2, bots=list(lineup), games=41, jobs=jobs, rotate=True)
        assert rotated.decisions == run_decisions
    fixed = bench("roma", players=2, bots=list(lineup), games=41, jobs=1)
    assert fixed.decisions != run_decisions  # without rotation the odd games seat the bots the other way
