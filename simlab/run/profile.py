"""``simlab bench --profile``: where a run's time goes, and which decisions cost the engine most.

Two measurements, each honest about what it is:

1. **Stages** — games are played through the runner's own ``play_chunk`` (the code a ``simlab run`` worker
   runs), which times its stages: the compiled game loop (``game.play_batch``), the game's result and fact
   column functions, the runner's own columns (ids, names, provenance), and Parquet encoding. What is left
   of a chunk's time (seeding, making bots) is "other". The runner's overhead is everything but the engine.
2. **Decision kinds** — a few games are replayed through the Python driver to record the state before every
   decision, grouped by the decision's name (``state.decision_name()``). Each group is then run through the
   compiled ``legal``, ``policy`` and ``apply`` in a compiled loop (so no Python call per decision is timed),
   and the time per decision of each function is the difference between loops that stop after it. The
   states are replayed out of order and from memory, not as one game in the cache, so the sum is close to,
   not equal to, the engine's time per game: the report prints both.
"""

from __future__ import annotations

import dataclasses
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from simlab.core.bots import stack_params
from simlab.core.config import GameConfig
from simlab.core.registry import get_game
from simlab.run.backends import Executor
from simlab.run.chunk import ChunkTask

STAGES = ("play", "game_columns", "columns", "digest", "encode", "other")
STAGE_NAMES = {
    "play": "engine: compiled game loop (game.play_batch)",
    "game_columns": "engine: result and fact columns (game code)",
    "columns": "runner: id and provenance columns, table",
    "digest": "runner: analysis partials for reports (digest)",
    "encode": "runner: Parquet encoding (zstd)",
    "other": "runner: seeds, bots, bookkeeping",
}


@dataclasses.dataclass(frozen=True)
class KindTime:
    """Compiled time per decision of one decision kind, split between the engine's three functions."""

    kind: str
    decisions: int
    legal: float  # seconds per decision
    policy: float
    apply: float

    @property
    def total(self) -> float:
        return self.legal + self.policy + self.apply


@dataclasses.dataclass(frozen=True)
class Profile:
    """Stage seconds summed over chunks (worker time), and the decision-kind replay of ``sample_games``."""

    games: int
    decisions: int
    chunks: int
    jobs: int
    wall_seconds: float
    stages: dict[str, float]
    sample_games: int
    kinds: list[KindTime]

    @property
    def worker_seconds(self) -> float:
        return sum(self.stages.values())

    @property
    def overhead(self) -> float:
        """Runner time as a fraction of the engine's (play + game_columns): what a run loses to bookkeeping."""
        engine = self.stages["play"] + self.stages["game_columns"]
        return (self.worker_seconds - engine) / engine if engine > 0 else 0.0

    def lines(self) -> list[str]:
        """The report ``simlab bench --profile`` prints."""
        per = 1e6 / max(self.games, 1)
        out = [
            f"profile: {self.games:,} games in {self.chunks} chunk(s) through the runner's play_chunk, "
            f"{self.jobs} job(s), {self.wall_seconds:.2f} s wall, {self.worker_seconds:.2f} s in workers",
            f"  {'stage':<48} {'µs/game':>9} {'share':>7}",
        ]
        for key in STAGES:
            sec = self.stages[key]
            out.append(f"  {STAGE_NAMES[key]:<48} {sec * per:>9,.1f} {100 * sec / self.worker_seconds:>6.1f}%")
        out.append(
            f"  runner overhead on top of the engine: {100 * self.overhead:.1f}%  "
            f"(engine alone: {self.games / max(self.stages['play'], 1e-9) * self.jobs:,.0f} games/s "
            f"at {self.jobs} job(s); through the runner: {self.games / self.worker_seconds * self.jobs:,.0f})"
        )
        if self.kinds:
            replayed = sum(k.total * k.decisions for k in self.kinds)
            decisions = sum(k.decisions for k in self.kinds)
            engine_per_decision = self.stages["play"] / max(self.decisions, 1)
            out += [
                f"decision kinds: {decisions:,} decisions of {self.sample_games} game(s) replayed through the compiled "
                "legal / policy / apply",
                f"  {'decision':<28} {'count':>7} {'share':>7} {'legal µs':>9} {'policy µs':>10} {'apply µs':>9} "
                f"{'time':>6}",
            ]
            for k in sorted(self.kinds, key=lambda k: -k.total * k.decisions):
                out.append(
                    f"  {k.kind[:28]:<28} {k.decisions:>7,} {100 * k.decisions / decisions:>6.1f}% "
                    f"{k.legal * 1e6:>9.2f} {k.policy * 1e6:>10.2f} {k.apply * 1e6:>9.2f} "
                    f"{100 * k.total * k.decisions / replayed:>5.1f}%"
                )
            out.append(
                f"  replayed: {replayed / decisions * 1e6:.2f} µs per decision; in the game loop: "
                f"{engine_per_decision * 1e6:.2f} µs (the loop keeps one game's state in cache; replay reads "
                "states from memory)"
            )
        return out


def profile(
    game_name: str,
    config: GameConfig,
    specs: Sequence[str],
    seeds: np.ndarray,
    *,
    jobs: int = 1,
    chunk_size: int = 1000,
    sample_games: int = 20,
    root_seed: int = 0,
    digest_hook: str = "",
    summaries: str = "",
) -> Profile:
    """Play ``seeds`` through the runner's chunks (their digests by the digest hook ``digest_hook``, as a run hands
    it; ``summaries``: its old name, still accepted) and replay ``sample_games`` of them decision by decision."""
    digest_hook = digest_hook or summaries
    import simlab

    game = get_game(game_name)
    games = len(seeds)
    tasks = [
        ChunkTask(
            game=game_name,
            scenario="bench",
            variant="bench",
            config=config,
            lineup=tuple(specs),
            rotate=False,
            start=a,
            stop=min(a + chunk_size, games),
            seeds=None,
            root_seed=root_seed,
            simlab_version=simlab.__version__,
            rules_version=game.rules_version,
            digest_hook=digest_hook,
        )
        for a in range(0, games, chunk_size)
    ]
    stages = dict.fromkeys(STAGES, 0.0)
    decisions = 0
    with Executor("local", None, jobs) as ex:
        # one tiny chunk per worker first: a process's first chunk pays one-time costs (imports, pyarrow setup)
        warm = [dataclasses.replace(tasks[0], start=0, stop=1) for _ in range(jobs)]
        for _ in ex.run(warm):
            pass
        t0 = time.perf_counter()
        for result in ex.run(tasks):
            timings = result.chunk["timings"]
            for key in ("play", "game_columns", "columns", "digest", "encode"):
                stages[key] += timings.get(key, 0.0)
            stages["other"] += result.chunk["seconds"] - timings["play"] - timings["game_columns"] - timings["columns"]
            decisions += result.chunk["decisions"]
    wall = time.perf_counter() - t0
    sample = [int(s) for s in seeds[: max(0, sample_games)]]
    kinds = decision_kinds(game, config, specs, sample) if sample else []
    return Profile(
        games=games,
        decisions=decisions,
        chunks=len(tasks),
        jobs=jobs,
        wall_seconds=wall,
        stages=stages,
        sample_games=len(sample),
        kinds=kinds,
    )


def decision_kinds(game: Any, config: GameConfig, specs: Sequence[str], seeds: Sequence[int]) -> list[KindTime]:
    """Compiled time per decision by decision kind, from the states of ``seeds``' games (see the module doc).

    Only compiled bots can be replayed; with a plain-Python bot in a seat this returns an empty list.
    """
    kernel = game.kernel
    bots = game.make_bots(list(specs), config.players)
    if any(getattr(b, "kind", None) is None for b in bots):
        return []
    states: dict[str, list[np.ndarray]] = defaultdict(list)
    seats: dict[str, list[int]] = defaultdict(list)

    def record(state: Any, action: int) -> None:
        name = state.decision_name()
        states[name].append(state.record[0].copy())
        seats[name].append(state.current_player)

    for seed in seeds:
        game.play(config, seed, bots, on_action=record)

    cf = kernel.config_record(config)
    bot_kinds = np.array([b.kind for b in bots], dtype=np.int64)
    kernel = kernel.for_kinds(bot_kinds)
    params = stack_params(bots)
    buf = np.zeros(kernel.max_actions, dtype=np.int32)
    out = []
    for name, recs in states.items():
        st = np.array(recs, dtype=kernel.state_dtype).view(np.recarray)
        who = np.array(seats[name], dtype=np.int64)
        scratch = np.zeros(1, dtype=kernel.state_dtype).view(np.recarray)
        rng = np.arange(1, config.players + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)

        def best(run: Any) -> float:
            times = []
            for _ in range(3):
                t = time.perf_counter()
                run()
                times.append(time.perf_counter() - t)
            return min(times)

        t_legal = best(lambda st=st: _loop_legal(kernel.legal, st, cf, buf))
        t_policy = best(
            lambda st=st, who=who, rng=rng: _loop_policy(
                kernel.legal, kernel.policy, st, cf, who, bot_kinds, params, rng.copy(), buf
            )
        )
        t_copy = best(lambda st=st, scratch=scratch: _loop_copy(st, scratch))
        t_apply = best(
            lambda st=st, who=who, rng=rng, scratch=scratch: _loop_apply(
                kernel.legal, kernel.policy, kernel.apply, st, scratch, cf, who, bot_kinds, params, rng.copy(), buf
            )
        )
        m = len(recs)
        out.append(
            KindTime(
                kind=name,
                decisions=m,
                legal=t_legal / m,
                policy=max(t_policy - t_legal, 0.0) / m,
                apply=max(t_apply - t_copy - t_policy, 0.0) / m,
            )
        )
    return out


# -- compiled replay loops: the kernel's functions are passed in, so one loop serves every game ----------
@njit
def _loop_legal(legal, states, cf, buf):
    total = 0
    for i in range(states.shape[0]):
        total += legal(states[i : i + 1], cf, buf)
    return total


@njit
def _loop_policy(legal, policy, states, cf, seats, kinds, params, rng, buf):
    total = 0
    for i in range(states.shape[0]):
        st = states[i : i + 1]
        seat = seats[i]
        n = legal(st, cf, buf)
        total += policy(kinds[seat], params[seat], st, cf, buf, n, rng, seat)
    return total


@njit
def _loop_copy(states, scratch):
    for i in range(states.shape[0]):
        scratch[0] = states[i]


@njit
def _loop_apply(legal, policy, apply, states, scratch, cf, seats, kinds, params, rng, buf):
    for i in range(states.shape[0]):
        scratch[0] = states[i]
        seat = seats[i]
        n = legal(scratch, cf, buf)
        a = policy(kinds[seat], params[seat], scratch, cf, buf, n, rng, seat)
        apply(scratch, cf, a)
