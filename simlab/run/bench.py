"""``simlab bench``: how fast a game plays, in games/s and decisions/s, without the runner around it.

Compile time is measured apart (the first game), and so is starting the worker pool with ``jobs`` > 1
(spawn, imports, loading the engine in each worker; near zero when this process's pool is already up), so
the figure is the steady-state speed. A run's games/s counts its pool's start-up: compare it with the
bench's games/s counting the start-up too to see the runner's overhead per game.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from simlab.core.config import GameConfig
from simlab.core.errors import ConfigError
from simlab.core.registry import get_game
from simlab.run.chunk_memory import WORKER_BASE
from simlab.run.scenario import rotated_lineup
from simlab.run.seeds import game_seeds


@dataclasses.dataclass(frozen=True)
class BenchResult:
    """Timing of ``games`` games (after a warm-up game that includes compilation)."""

    game: str
    players: int
    bots: tuple[str, ...]
    preset: str
    config_hash: str
    games: int
    jobs: int
    seconds: float
    decisions: int
    warmup_seconds: float
    #: starting the ``jobs`` worker processes (spawn, imports, loading the engine): before the clock, as it is a
    #: fixed cost per pool, but a run pays it inside its session, so it is reported for comparing with one
    worker_start_seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def games_per_second_with_start(self) -> float:
        """games/s counting the workers' start-up too: the pace of a run of this many games."""
        total = self.seconds + self.worker_start_seconds
        return self.games / total if total > 0 else float("inf")

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else float("inf")


def default_bots(game: Any, players: int) -> list[str]:
    """The game's default lineup (``Game.default_lineup``: its heuristic bots, repeated to fill the seats)."""
    return game.default_lineup(players)


def seat_specs(game: Any, bots: Sequence[str] | None, players: int) -> list[str]:
    """One bot spec per seat: none given = the default mix, one given = that bot in every seat."""
    if not bots:
        return default_bots(game, players)
    if len(bots) == 1:
        return list(bots) * players
    if len(bots) != players:
        raise ConfigError(f"{players} players need {players} bots (or one for every seat), got {len(bots)}")
    return list(bots)


def bench(
    game_name: str,
    *,
    players: int | None = None,
    bots: Sequence[str] | None = None,
    games: int = 5000,
    jobs: int = 1,
    preset: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    seed: int = 0,
    rotate: bool = False,
) -> BenchResult:
    """Play ``games`` games with ``play_batch`` (split over ``jobs`` loky workers) and time them.

    ``rotate``: game i seats the lineup rotated by i mod N, as a run with a lineup does (one batch per
    rotation), so the figure compares with such a run's; otherwise every game has the lineup as given.
    """
    if games < 1 or jobs < 1:
        raise ConfigError(f"bench needs at least one game and one job, got games={games}, jobs={jobs}")
    game = get_game(game_name)
    config = game.make_config(preset=preset, players=players, overrides=dict(overrides or {}))
    specs = seat_specs(game, bots, config.players)
    bot_objects = game.make_bots(specs, config.players)
    check_bench_games(game.name, games, jobs, game.kernel.state_dtype.itemsize)
    seeds = game_seeds(seed, 0, games)

    t0 = time.perf_counter()
    game.play_batch(config, seeds[:1].tolist(), bot_objects)
    warmup = time.perf_counter() - t0

    worker_start = 0.0
    if jobs == 1:
        t0 = time.perf_counter()
        decisions = _play(game_name, config, specs, seeds, 0, rotate)
        seconds = time.perf_counter() - t0
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=jobs, backend="loky")
        t0 = time.perf_counter()
        parallel(delayed(_play)(game_name, config, specs, seeds[:1]) for _ in range(jobs))  # start workers
        worker_start = time.perf_counter() - t0
        parts = np.array_split(seeds, jobs)
        starts = np.cumsum([0, *(len(p) for p in parts[:-1])]).tolist()
        t0 = time.perf_counter()
        decisions = sum(
            parallel(
                delayed(_play)(game_name, config, specs, part, start, rotate)
                for part, start in zip(parts, starts, strict=True)
            )
        )
        seconds = time.perf_counter() - t0
    return BenchResult(
        game=game.name,
        players=config.players,
        bots=tuple(str(b.name) for b in bot_objects),
        preset=preset or game.config_class.DEFAULT_PRESET,
        config_hash=config.config_hash(),
        games=games,
        jobs=jobs,
        seconds=seconds,
        decisions=decisions,
        warmup_seconds=warmup,
        worker_start_seconds=worker_start,
    )


#: a bench worker's peak bytes per byte of its games' records (they are all held at once; no columns)
BENCH_RECORD_FACTOR = 1.5


def check_bench_games(game: str, games: int, jobs: int, record_bytes: int, memory: int | None = None) -> None:
    """Refuse a game count whose records do not fit in memory: a bench worker plays its share of the games in one
    batch (unlike a run's chunks), and numpy's allocator would otherwise fail with a traceback (issue 30). Measured
    2026-12-06: 100,000 Massilia games (5,608-byte records) peaked 561 MB above a 100-game bench: 1.0 x the
    records; the check allows 1.5 x."""
    from simlab.run.chunk_memory import SHARE, machine_memory
    from simlab.run.scenario import MAX_GAMES

    memory = machine_memory() if memory is None else memory
    per_worker = -(-games // jobs)
    budget = SHARE * memory / jobs - WORKER_BASE if memory > 0 else float("inf")
    fits = max(1, int(budget / (BENCH_RECORD_FACTOR * record_bytes))) * jobs if memory > 0 else MAX_GAMES
    most = min(MAX_GAMES, fits)
    if games > most or per_worker * BENCH_RECORD_FACTOR * record_bytes > budget:
        raise ConfigError(
            f"--games {games:,}: bench plays each worker's games in one batch, and a game of {game} holds a "
            f"{record_bytes:,}-byte record: {per_worker:,} games per worker need more than {SHARE:.0%} of this "
            f"machine's memory; use --games {most:,} or fewer (a run plays any number, in chunks)"
        )


def _play(
    game_name: str, config: GameConfig, specs: Sequence[str], seeds: np.ndarray, start: int = 0, rotate: bool = False
) -> int:
    """Play games ``start ..`` (their seeds given); with ``rotate``, one batch per rotation of the lineup."""
    game = get_game(game_name)
    n = config.players
    index = np.arange(start, start + len(seeds))
    decisions = 0
    for r in range(n) if rotate else (0,):
        chosen = seeds[index % n == r] if rotate else seeds
        if len(chosen):
            records = game.play_batch(config, chosen.tolist(), game.make_bots(rotated_lineup(specs, r), n))
            decisions += int(game.decisions(records).sum())
    return decisions
