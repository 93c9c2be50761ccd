"""Where chunks run: this process, local worker processes, or a Dask or Ray cluster, all through joblib.

A chunk is a pure function of its task (seeds come from the root seed and the game index, never from a
worker), so every backend gives bit-identical rows; only speed and fault tolerance differ:

- ``local`` (default): joblib's loky processes on this machine (``--jobs``); ``--jobs 1`` runs in-process.
- ``dask``: joblib's Dask backend on a ``distributed`` cluster (``--address tcp://HOST:PORT`` of a
  ``dask scheduler``; without an address, a local cluster of ``--jobs`` worker processes). The scheduler
  re-runs the chunks of a worker that dies on another worker, so a lost machine costs time, not games.
- ``ray``: joblib's Ray backend (``--address HOST:PORT`` of a ``ray start --head`` node; without one, a
  local Ray instance). Its pool actors are restarted and their pending chunks retried when a worker dies.

Results stream back as chunks finish, and only a bounded number of chunks is in flight, so the main
process's memory does not grow with the number of games. joblib's Ray backend cannot stream results
(it is built on ``multiprocessing.Pool``), so chunks go to Ray in windows of a few per worker, each
window written as soon as it completes.

The cluster's workers must have simlab installed (the same version: a chunk checks it) and, ideally, a
warm numba cache: see docs/scaling.md.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
from collections.abc import Collection, Iterator
from typing import Any

from simlab.run.chunk import ChunkResult, ChunkTask, SpooledChunk, play_chunk
from simlab.run.errors import BackendError
from simlab.run.watchdog import in_worker

BACKENDS = ("local", "dask", "ray")

#: chunks sent to Ray per worker and window (joblib's Ray backend returns a window's results together)
RAY_WINDOW_PER_WORKER = 4
#: seconds to wait for a cluster's workers before giving up
CONNECT_TIMEOUT = 60.0
#: times a Ray pool actor is restarted, and its pending chunks retried, after its process died
RAY_RETRIES = 3


class Executor:
    """Runs chunk tasks on one backend; a context manager that connects on enter and disconnects on exit.

    ``workers`` (known after entering) is how many chunks run at once; ``where`` says where, for the
    progress line. A cluster the executor started itself (no ``address``) is stopped on exit; a cluster
    it only connected to is left running.
    """

    def __init__(self, backend: str = "local", address: str | None = None, jobs: int | None = None):
        if backend not in BACKENDS:
            raise BackendError(f"--backend: expected one of {', '.join(BACKENDS)}, found {backend!r}")
        if backend == "local" and address:
            raise BackendError("--address needs --backend dask or --backend ray (the local backend has no address)")
        self.backend = backend
        self.address = address or None
        self.jobs = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
        self.workers = self.jobs if backend == "local" else 0
        self.where = f"{self.jobs} local process(es)" if backend == "local" else backend
        self._stack = contextlib.ExitStack()
        self._client: Any = None

    # -- connecting -------------------------------------------------------------------------------
    def __enter__(self) -> Executor:
        try:
            if self.backend == "dask":
                self._connect_dask()
            elif self.backend == "ray":
                self._connect_ray()
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _connect_dask(self) -> None:
        distributed = _import("distributed", "dask")
        if self.address:
            try:
                client = distributed.Client(self.address, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise BackendError(
                    f"cannot reach the dask scheduler at {self.address} ({type(exc).__name__}: {exc}); start one "
                    "with `dask scheduler` and workers with `dask worker ADDRESS --nthreads 1` (see docs/scaling.md)"
                ) from None
        else:  # a throwaway local cluster: one single-threaded worker process per job
            cluster = distributed.LocalCluster(
                n_workers=self.jobs, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self._stack.callback(cluster.close)
            client = distributed.Client(cluster, set_as_default=False)
        self._stack.callback(client.close)
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError):
            raise BackendError(
                f"the dask scheduler at {self.address} has no workers after {CONNECT_TIMEOUT:.0f} s; start some "
                "with `dask worker ADDRESS --nthreads 1`"
            ) from None
        self._client = client
        threads = client.nthreads()
        self.workers = sum(threads.values())
        self.where = f"dask at {client.scheduler.address}: {len(threads)} worker(s), {self.workers} thread(s)"

    def _connect_ray(self) -> None:
        ray = _import("ray", "ray")
        from ray.util.joblib import register_ray

        if not ray.is_initialized():
            if self.address:
                try:
                    ray.init(address=self.address, log_to_driver=False, logging_level=logging.ERROR)
                except (ConnectionError, OSError, RuntimeError, ValueError) as exc:
                    raise BackendError(
                        f"cannot reach the Ray cluster at {self.address} ({type(exc).__name__}: {exc}); start one "
                        "with `ray start --head` (see docs/scaling.md)"
                    ) from None
            else:
                # a throwaway instance for this run, reachable from this machine only
                ray.init(
                    num_cpus=self.jobs,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    _node_ip_address="127.0.0.1",
                )
            self._stack.callback(ray.shutdown)
        register_ray()
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.where = f"ray at {self.address or 'a local instance'}: {self.workers} CPU(s)"

    # -- running ----------------------------------------------------------------------------------
    def run(self, tasks: Collection[ChunkTask]) -> Iterator[ChunkResult | SpooledChunk]:
        """Chunk results as they finish (in any order; spooled when the tasks say so). Closing the iterator stops
        dispatching new chunks."""
        if self.backend == "local":
            yield from self._run_local(tasks)
        elif self.backend == "dask":
            yield from self._run_dask(tasks)
        else:
            yield from self._run_ray(tasks)

    def _run_local(self, tasks: Collection[ChunkTask]) -> Iterator[ChunkResult | SpooledChunk]:
        if self.jobs == 1 or len(tasks) == 1:
            for task in tasks:
                yield play_chunk(task.seeded())
            return
        from joblib import Parallel, delayed

        # batch_size=1: a chunk is the unit of work, and each message through loky's pipes stays one chunk's
        # (small: see SpooledChunk); auto-batching would grow batches of short chunks into large messages
        parallel = Parallel(
            n_jobs=min(self.jobs, len(tasks)), backend="loky", return_as="generator_unordered", batch_size=1
        )
        # seeds made as tasks are dispatched; each worker ends as soon as this process does (simlab.run.watchdog)
        results = parallel(delayed(in_worker)(play_chunk, t.seeded()) for t in tasks)
        try:
            yield from results
        finally:
            results.close()

    def _run_dask(self, tasks: Collection[ChunkTask]) -> Iterator[ChunkResult | SpooledChunk]:
        from joblib import Parallel, delayed, parallel_config

        # batch_size=1: a chunk is already seconds of work; pre-dispatch keeps 2 chunks per thread in flight
        with parallel_config(backend="dask", client=self._client, wait_for_workers_timeout=CONNECT_TIMEOUT):
            parallel = Parallel(n_jobs=-1, return_as="generator_unordered", batch_size=1)
            results = parallel(delayed(play_chunk)(t.seeded()) for t in tasks)
            try:
                yield from results
            finally:
                results.close()

    def _run_ray(self, tasks: Collection[ChunkTask]) -> Iterator[ChunkResult | SpooledChunk]:
        from joblib import Parallel, delayed, parallel_config

        retry = {"max_restarts": RAY_RETRIES, "max_task_retries": RAY_RETRIES}
        window = RAY_WINDOW_PER_WORKER * self.workers
        with parallel_config(backend="ray", ray_remote_args=retry), Parallel(n_jobs=-1, batch_size=1) as parallel:
            pending = iter(tasks)
            while batch := list(itertools.islice(pending, window)):
                yield from parallel(delayed(play_chunk)(t.seeded()) for t in batch)

    # -- failures ---------------------------------------------------------------------------------
    def worker_errors(self) -> tuple[type[BaseException], ...]:
        """Exceptions meaning "workers died" (not "a game failed"): the run stops and says how to resume."""
        from concurrent.futures.process import BrokenProcessPool

        errors: list[type[BaseException]] = [BrokenProcessPool]
        with contextlib.suppress(ImportError):
            from joblib.externals.loky.process_executor import TerminatedWorkerError

            errors.append(TerminatedWorkerError)
        if self.backend == "dask":
            with contextlib.suppress(ImportError):
                from distributed import KilledWorker

                errors.append(KilledWorker)
        if self.backend == "ray":
            with contextlib.suppress(ImportError):
                from ray.exceptions import RayActorError, WorkerCrashedError

                errors += [RayActorError, WorkerCrashedError]
        return tuple(errors)


def _import(module: str, extra: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise BackendError(
            f"--backend {extra} needs {module}, which is not installed: pip install 'simlab[{extra}]'"
        ) from None
