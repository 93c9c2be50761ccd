"""One chunk of games: the unit of work a joblib worker runs, returning a columnar table.

A chunk is a range of game indices of one variant. Its games are grouped by lineup rotation (one
compiled ``play_batch`` per rotation), then turned into long-format rows, one per (game, seat), in game
order. A game that raises (a bot error, an illegal action) does not sink the chunk: the chunk is re-played
game by game to isolate it, and the failure comes back with a replay command instead of a row.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shlex
import signal
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from simlab.core.config import GameConfig
from simlab.core.registry import get_game
from simlab.run.atomic_file import write_temporary
from simlab.run.content import check_played_data
from simlab.run.digest_hook import load as load_digest_hook
from simlab.run.errors import WorkerMismatch
from simlab.run.folder_layout import DIGEST_KEY, META_KEY, part_name
from simlab.run.part_file import file_records
from simlab.run.scenario import rotated_lineup
from simlab.run.seeds import game_seeds

#: columns every row starts with, before the game's result and fact columns
ID_COLUMNS = ("scenario", "variant", "game", "seed", "seat", "bot", "lineup")
RESULT_COLUMNS = ("score", "rank", "win_share", "turns")
PROVENANCE_COLUMNS = ("rules_version", "config_hash", "simlab_version")


@dataclasses.dataclass(frozen=True)
class ChunkTask:
    """Everything a worker needs to play games ``start .. stop-1`` of one variant (picklable, no game objects)."""

    game: str
    scenario: str
    variant: str
    config: GameConfig
    lineup: tuple[str, ...]
    rotate: bool
    start: int
    stop: int
    seeds: np.ndarray | None  # None until ``seeded()``: a plan of a long run holds no seed arrays
    simlab_version: str
    preset: str = ""
    replay_set: Mapping[str, str] = dataclasses.field(default_factory=dict)
    identity: str = ""
    root_seed: int = 0
    rules_version: str = ""  # the main process's; a worker with another engine refuses the chunk
    spool: str = ""  # parts/ of the result folder: the worker writes the part there itself (see SpooledChunk)
    digest_hook: str = ""  # "module:attr" of the run's digest hook (simlab.run.digest_hook); "": none
    #: config knob -> SHA-256 of the data file the run's identity names; a worker reading other bytes refuses
    data_sha256: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def seeded(self) -> ChunkTask:
        """This task with its game seeds, derived in the parent from (root seed, game index) only."""
        if self.seeds is not None:
            return self
        return dataclasses.replace(self, seeds=game_seeds(self.root_seed, self.start, self.stop))

    @property
    def players(self) -> int:
        return self.config.players

    def seat_bots(self, rotation: int) -> list[str]:
        return rotated_lineup(self.lineup, rotation)


@dataclasses.dataclass
class ChunkResult:
    """A played chunk: its rows as Parquet bytes (or in a spooled file), and its chunk record (range, failures, timing).

    The worker encodes the Parquet file itself: encoding is spread over the workers, and the bytes a Dask or
    Ray worker sends back are ~10x smaller than the Arrow table. A local worker writes them into the result
    folder and sends back only a SpooledChunk.
    """

    parquet: bytes  # empty when ``spooled``
    chunk: dict[str, Any]
    spooled: str = ""  # the temporary file in parts/ that holds the rows (a SpooledChunk's)

    @property
    def failures(self) -> list[dict[str, Any]]:
        return self.chunk["failures"]

    @property
    def games(self) -> int:
        return self.chunk["stop"] - self.chunk["start"]


@dataclasses.dataclass(frozen=True)
class SpooledChunk:
    """A played chunk a local worker wrote into parts/ under a temporary name: all it sends back is where.

    Why: a worker killed while sending a large result through loky's result pipe leaves half a message there,
    and the pool then waits for the rest forever instead of reporting the dead worker. A message this small
    (< PIPE_BUF bytes, see the tests) is written to the pipe in one atomic write, so it is never half-sent; the
    rows and the chunk record (with its failures) travel in the file. The main process reads the record from
    the file's footer and gives the file its name (``ResultFolder.adopt_part``).
    """

    name: str  # of the temporary file in parts/ (a name, not a path: its length is bounded by the file system)
    encode: float  # seconds spent encoding the Parquet bytes (the file's own record cannot hold it)

    def load(self, parts: Path) -> ChunkResult:
        """The chunk's result, its rows left in the file."""
        import pyarrow.parquet as pq

        path = parts / self.name
        (record,), _compacted = file_records(pq.read_schema(path).metadata)
        record["timings"] = record["timings"] | {"encode": self.encode}
        return ChunkResult(b"", record, spooled=str(path))


def replay_command(
    game: str, players: int, bots: Sequence[str], seed: int, preset: str = "", settings: Mapping[str, str] = ()
) -> str:
    """The ``simlab play`` command line that replays one game with a transcript."""
    parts = ["simlab", "play", game, "--players", str(players), "--bots", ",".join(bots), "--seed", str(seed)]
    if preset:
        parts += ["--preset", preset]
    for key, value in dict(settings).items():
        parts += ["--set", f"{key}={value}"]
    return " ".join(shlex.quote(p) for p in parts)


def play_chunk(task: ChunkTask) -> ChunkResult | SpooledChunk:
    """Play a chunk and return its rows; runs in a joblib worker (or in-process with ``--jobs 1``).

    With ``task.spool`` the rows go into a temporary part file there, and only a SpooledChunk comes back.
    A Ctrl-C while it plays takes effect when it ends (see ``_interrupts_deferred``).
    """
    with _interrupts_deferred():
        return _play_chunk(task)


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that arrives inside the block and raise KeyboardInterrupt when the block ends.

    Compiled and native code cannot be interrupted anyway (a chunk's games are one numba call), but an interrupt
    arriving inside it could be lost: measured, a SIGINT during a numba dispatch came back as a SystemError (which
    the chunk's replay-on-error and the digest's error handling take for the code's own failure), and one during
    polars calls vanished without a trace (a Ctrl-C with ``--jobs 1`` then did nothing; CI's Ctrl-C test failed
    once). A Python handler that only notes the signal lets every library carry on, and the block's end raises
    it. Only on the main thread with Python's default handler: elsewhere nothing is changed.
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    noted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if noted:
        raise KeyboardInterrupt


def _play_chunk(task: ChunkTask) -> ChunkResult | SpooledChunk:
    t0 = time.perf_counter()
    task = task.seeded()
    game = get_game(task.game)
    _check_versions(task, game)
    config = task.config
    check_played_data(game, config, task.data_sha256)  # a data file edited during the run is not played
    n = task.players
    count = task.stop - task.start
    index = np.arange(task.start, task.stop, dtype=np.int64)
    rotation = index % n if task.rotate else np.zeros(count, dtype=np.int64)
    # records are KBs per game: no zero-fill, one copy in (below), none out when every game played
    records = np.empty(count, dtype=game.kernel.state_dtype)
    ok = np.ones(count, dtype=bool)
    names = np.empty((n, n), dtype=object)  # names[rotation, seat] -> bot spec in that seat
    failures: list[dict[str, Any]] = []
    timings = {"play": 0.0, "game_columns": 0.0, "columns": 0.0}  # where a chunk's time goes (simlab bench --profile)

    for r in np.unique(rotation).tolist():
        sel = np.flatnonzero(rotation == r)
        specs = task.seat_bots(r)
        bots = game.make_bots(specs, n)
        names[r] = [str(getattr(b, "name", s)) for b, s in zip(bots, specs, strict=True)]
        seeds = task.seeds[sel].tolist()
        t = time.perf_counter()
        try:
            played = game.play_batch(config, seeds, bots)
            timings["play"] += time.perf_counter() - t
            if len(sel) == count:
                records = played  # one lineup for the whole chunk: no copy at all
            else:  # copied as raw bytes: ~4x faster than numpy's field-by-field copy of a structured dtype
                raw = np.dtype((np.void, records.dtype.itemsize))
                records.view(raw)[sel] = np.ascontiguousarray(played).view(raw)
        except Exception:
            # the compiled batch cannot say which game failed: replay one by one to isolate it
            for i, seed in zip(sel.tolist(), seeds, strict=True):
                try:
                    records[i] = game.play(config, seed, game.make_bots(specs, n)).record[0]
                except Exception as exc:
                    ok[i] = False
                    failures.append(_failure(task, int(index[i]), seed, specs, exc))

    good = records if ok.all() else records[ok]
    t = time.perf_counter()
    table = _table(task, game, good, index[ok], rotation[ok], names, timings)
    decisions = int(game.decisions(good).sum()) if len(good) else 0
    timings["columns"] = time.perf_counter() - t - timings["game_columns"]
    chunk = {
        "variant": task.variant,
        "start": task.start,
        "stop": task.stop,
        "file": part_name(task.variant, task.start, task.stop),
        "games": int(ok.sum()),
        "failures": failures,
        "seconds": round(time.perf_counter() - t0, 4),
        "decisions": decisions,
        "identity": task.identity,
        "timings": {k: round(v, 4) for k, v in timings.items()},
    }
    t = time.perf_counter()
    digest, error = chunk_digest(table, task)
    chunk["timings"]["digest"] = round(time.perf_counter() - t, 4)
    if error:
        chunk["digest_error"] = error
    t = time.perf_counter()
    data = encode_part(table, chunk, digest)
    # the part's own metadata cannot hold the time it took to encode it: only the returned record has it
    encode = round(time.perf_counter() - t, 4)
    if task.spool:
        tmp = write_temporary(Path(task.spool) / chunk["file"], lambda f: f.write(data))
        return SpooledChunk(tmp.name, encode)
    chunk["timings"] = chunk["timings"] | {"encode": encode}
    return ChunkResult(data, chunk)


def _check_versions(task: ChunkTask, game: Any) -> None:
    """A cluster worker with another simlab or engine would write different rows under the same names."""
    import simlab

    mine = (simlab.__version__, game.rules_version)
    wanted = (task.simlab_version, task.rules_version or game.rules_version)
    if mine != wanted:
        import socket

        raise WorkerMismatch(
            f"worker {socket.gethostname()} (pid {os.getpid()}) runs simlab {mine[0]} with rules {mine[1]}, but the "
            f"run needs simlab {wanted[0]} with rules {wanted[1]}: install the same simlab on every worker"
        )


def chunk_digest(table: pa.Table, task: ChunkTask) -> tuple[bytes | None, str]:
    """The chunk's digest by the run's digest hook (``task.digest_hook``, see ``simlab.run.digest_hook``), which lets a
    report of millions of games merge a few KB per chunk instead of scanning its rows; or none and why.

    A digest only speeds reports up, so an error in it (a plug-in game's columns an analysis trips on) must
    not lose the chunk's games: the part is written without one, its record says why, the run warns at its
    end, and reports scan the rows. A run handed no hook writes none, and says nothing."""
    if not task.digest_hook:
        return None, ""
    try:
        return load_digest_hook(task.digest_hook).of_chunk(table, task.variant, task.start, task.stop), ""
    except Exception as exc:  # recorded in the chunk record and reported by the runner, not raised
        return None, f"{type(exc).__name__}: {exc}"


def encode_part(table: pa.Table, chunk: dict[str, Any], digest: bytes | None = None) -> bytes:
    """A part file's bytes: the rows, with the chunk record (and the digest) in the Parquet metadata."""
    import pyarrow.parquet as pq

    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(chunk).encode()
    if digest is not None:
        meta[DIGEST_KEY] = digest
    sink = pa.BufferOutputStream()
    # page checksums: a flipped bit in a data page is an error when read (simlab verify), not a changed value
    pq.write_table(table.replace_schema_metadata(meta), sink, compression="zstd", write_page_checksum=True)
    return sink.getvalue().to_pybytes()


def _failure(task: ChunkTask, game_index: int, seed: int, specs: list[str], exc: BaseException) -> dict[str, Any]:
    return {
        "variant": task.variant,
        "game": game_index,
        "seed": seed,
        "bots": list(specs),
        "error": f"{type(exc).__name__}: {exc}",
        "replay": replay_command(task.game, task.players, specs, seed, task.preset, task.replay_set),
    }


def _table(
    task: ChunkTask,
    game: Any,
    records: np.ndarray,
    index: np.ndarray,
    rotation: np.ndarray,
    names: np.ndarray,
    timings: dict[str, float] | None = None,
) -> pa.Table:
    """Long-format rows, one per (game, seat), game-major like the game's own column functions.

    ``timings["game_columns"]`` gets the time spent in the game's own column functions (engine code, not runner).
    """
    n = task.players
    rows = len(records) * n
    seat = np.tile(np.arange(n, dtype=np.int32), len(records))
    rot_rows = np.repeat(rotation, n)

    def const(value: str) -> pa.Array:
        return string_column([value], np.zeros(rows, dtype=np.intp))

    columns: dict[str, Any] = {
        "scenario": const(task.scenario),
        "variant": const(task.variant),
        "game": np.repeat(index, n),
        "seed": np.repeat(task.seeds[index - task.start], n),
        "seat": seat,
        "bot": string_column([str(x) for x in names.ravel().tolist()], rot_rows * n + seat),
        "lineup": rot_rows.astype(np.int32),
    }
    t = time.perf_counter()
    result = game.result_columns(records, task.config)
    facts = game.fact_columns(records, task.config)
    if timings is not None:
        timings["game_columns"] += time.perf_counter() - t
    for key in RESULT_COLUMNS:
        columns[key] = result[key]
    columns["rules_version"] = const(game.rules_version)
    columns["config_hash"] = const(task.config.config_hash())
    columns["simlab_version"] = const(task.simlab_version)
    for key, values in facts.items():
        if key in columns:
            raise ValueError(f"{task.game}: fact column {key!r} clashes with a runner column")
        columns[key] = values
    return pa.table({key: arrow_column(values) for key, values in columns.items()})


def arrow_column(values: Any) -> pa.Array:
    """A numeric or boolean numpy column as an Arrow array over the same memory (no copy).

    ``pa.array`` would do the same, but its first call in a process imports pandas (to check whether the
    values are a pandas Series): 0.6 s in every worker, a tenth of a fast engine's overhead.
    """
    if isinstance(values, pa.Array):
        return values
    if isinstance(values, np.ma.MaskedArray):  # a fact with missing values: masked entries are nulls
        data = np.ascontiguousarray(values.data)
        mask = np.ma.getmaskarray(values)
        valid = np.packbits(~mask, bitorder="little")
        buffers = [pa.py_buffer(valid), pa.py_buffer(data)]
        return pa.Array.from_buffers(pa.from_numpy_dtype(data.dtype), len(data), buffers, int(mask.sum()))
    arr = np.ascontiguousarray(values)
    if arr.ndim == 1 and arr.dtype == np.bool_:
        bits = np.packbits(arr, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(arr), [None, pa.py_buffer(bits)])
    if arr.ndim == 1 and arr.dtype.kind in "iuf" and arr.dtype.isnative:
        return pa.Array.from_buffers(pa.from_numpy_dtype(arr.dtype), len(arr), [None, pa.py_buffer(arr)])
    return pa.array(arr)


def string_column(values: Sequence[str], index: np.ndarray) -> pa.Array:
    """The Arrow string array ``values[index]``, built from numpy buffers.

    A long column of a few distinct strings (variant, bot, versions). ``pa.array(list)`` is slow per row, and
    ``Array.take`` loads pyarrow's compute module and pandas on its first call: 0.7 s of every worker.
    """
    encoded = [v.encode() for v in values]
    width = max(1, *(len(e) for e in encoded))
    lengths = np.array([len(e) for e in encoded], dtype=np.int64)[index]
    offsets = np.zeros(len(index) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] >= 2**31:  # pragma: no cover - chunks are far smaller
        raise ValueError("a chunk's string column exceeds 2 GiB")
    padded = np.array(encoded, dtype=f"S{width}")[index].view(np.uint8).reshape(len(index), width)
    data = padded[np.arange(width)[None, :] < lengths[:, None]]  # row-major: the strings back to back
    return pa.StringArray.from_buffers(len(index), pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data))
