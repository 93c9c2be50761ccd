"""The batch runner: plays a scenario's games in chunks (joblib tasks) and streams them to a result folder.

Seeds come from (root seed, game index) only (see ``seeds``), and rows carry nothing that depends on
chunking or workers, so results are bit-identical for any ``jobs`` and chunk size. The part files on disk
say which games are done, so a resumed run plays exactly the missing ones. ``run_scenario`` is what
``simlab run`` calls; a notebook calls it the same way.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import IO, Any

import simlab
from simlab.run.backends import Executor
from simlab.run.chunk import ChunkResult, ChunkTask, SpooledChunk
from simlab.run.chunk_memory import check_chunk_memory
from simlab.run.content import copy_data_files, run_identity
from simlab.run.errors import ResultFolderError, ResultWriteError, RunFailed, RunInterrupted, ScenarioError
from simlab.run.folder_check import FOOTERS, footer_entry
from simlab.run.folder_layout import FORMAT, identity_hash
from simlab.run.folder_writer import REBUILT, ResultFolder
from simlab.run.integrity import check_parts, file_sha256, manifest_hashes, quarantine
from simlab.run.looks import Looks, reached
from simlab.run.plan import Plan
from simlab.run.progress import Progress, format_duration, format_rate
from simlab.run.scenario import Scenario, load_scenario, replay_settings
from simlab.run.stage_names import current_stage_names

#: seconds between manifest rewrites during a run (the parts are the truth; the manifest is a summary)
MANIFEST_EVERY = 2.0


def run_scenario(
    scenario: str | Path | Scenario,
    *,
    games: int | None = None,
    jobs: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    chunk_size: int | None = None,
    fail_fast: bool = False,
    progress: bool = True,
    stream: IO[str] | None = None,
    backend: str = "local",
    address: str | None = None,
    compact: bool = True,
    compact_threshold: int | None = None,
    digest_hook: str = "",
    summaries: str = "",
    force_jobs: bool = False,
    repair_only: bool = False,
    looks: Looks | None = None,
) -> Path:
    """Play a scenario into a result folder and return the folder's path.

    ``games`` and ``chunk_size`` override the scenario's; ``jobs`` is the number of worker processes
    (default: all cores; 1 runs in this process; more than the cores only with ``force_jobs``); ``out``
    defaults to ``results/<scenario name>``.
    With ``resume``, an interrupted run in ``out`` is finished (or extended to more games) without
    losing or duplicating a game. Failing games are logged to failures.jsonl unless ``fail_fast``.
    ``backend`` is ``local`` (joblib's processes), ``dask`` or ``ray``, on the cluster at ``address`` (or
    a local one of ``jobs`` workers); the rows are the same on every backend (see ``simlab.run.backends``).
    A complete run whose folder holds more than ``compact_threshold`` part files (default
    ``compact.AUTO_THRESHOLD``) merges them into few large files (see ``simlab.run.compact``) unless ``compact``
    is false; the rows read back are the same. ``digest_hook`` ("module:attr", see ``simlab.run.digest_hook``) is
    the hook whose per-chunk digests each part carries; ``simlab.run_scenario`` hands simlab's own, this
    function none by default (``summaries``: its old name, still accepted). ``repair_only`` (``simlab repair``):
    write the manifest from the parts on disk and play nothing (a missing or damaged manifest is rebuilt as with
    ``resume``). ``looks`` (``simlab.run.looks``): play in looks, each variant up to the games the rule asks for,
    at most ``games`` (a run until settled: ``simlab.experiments.settle``).
    """
    digest_hook = digest_hook or summaries
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    log = stream if stream is not None else sys.stderr
    folder_path = Path(out) if out is not None else Path("results") / sc.name
    # on a remote cluster the workers are not this machine's cores
    n_jobs = resolve_jobs(jobs, force_jobs or (backend != "local" and bool(address)))
    executor = Executor(backend, address, n_jobs)  # checks the backend's name and address
    checked = sc.with_options(games=games, chunk_size=chunk_size)  # check the options before touching the disk
    if backend == "local":  # a cluster's workers have their own memory
        record_bytes = simlab.get_game(checked.game).kernel.state_dtype.itemsize
        check_chunk_memory(checked.game, min(checked.chunk_size, checked.games), record_bytes, n_jobs)
    identity = run_identity(folder_path, sc, repair_only)  # refuses a folder of other data files or bots
    legacy = identity != sc.identity()  # simlab repair of a results format 1 folder
    identity_key = identity_hash(identity)
    # while the run holds the folder's lock, a second run or a compaction of this folder is refused
    with ResultFolder.open_for_run(folder_path, identity, resume or repair_only) as (folder, previous):
        rebuilt = previous.pop(REBUILT, None)
        if rebuilt:
            log.write(
                f"notice: {folder_path / 'manifest.json'} {rebuilt.removeprefix('manifest.json ')}; rebuilding it "
                f"from the part files in {folder.parts}\n"
            )
        if previous:  # a resumed run keeps its game count and chunk size unless told otherwise
            games = games if games is not None else previous.get("games")
            chunk_size = chunk_size if chunk_size is not None else previous.get("chunk_size")
        sc = sc.with_options(games=games, chunk_size=chunk_size)

        if folder.salvaged:
            log.write(
                f"notice: kept {len(folder.salvaged)} finished part(s) a stopped run had not yet put in place "
                f"(first: {folder.salvaged[0]})\n"
            )
        hashes = _check_parts(folder, identity_key, previous, log)
        chunks = folder.scan_parts(identity_key)
        failures = [f for c in chunks for f in c["failures"]]
        # local workers write their parts into the folder themselves (see SpooledChunk); remote ones cannot
        spool = str(folder.parts) if backend == "local" else ""
        run = _Run(sc, folder, identity_key, chunks, failures, previous, n_jobs, folder_path, backend, address)
        run.hashes = hashes
        run.footers = {name: footer_entry(folder.parts / name) for name in hashes}  # parts checked just now
        run.identity = identity
        # a copy of each data file in data/, so a report or a replay reads what was played
        run.data_files = {} if legacy else copy_data_files(folder.path, sc.data_files)

        def plan() -> Plan:  # the games still to play (up to the next look's, when the run plays in looks)
            if looks is not None:  # the manifest is written for the look to read, then with its decision
                state = "running" if run.session_games or not chunks else "interrupted"
                run.manifest(state)
                run.targets = dict(looks.targets(folder_path, reached(run.chunks, sc.variant_names)))
                run.manifest(state)  # before the next game: a resume finds every decision taken
            return _plan(sc, run.chunks, identity_key, spool=spool, digest_hook=digest_hook, targets=run.targets)

        if looks is not None:
            looks.begin(previous)
            run.looks = looks
        tasks = plan()
        if repair_only:
            run.manifest("complete" if not tasks else "interrupted")
            folder.write_failures(failures)
            return folder_path
        if not tasks:
            run.manifest("complete")
            if progress:
                done = sum(run.targets.values()) if run.targets else sc.games * len(sc.variants)
                log.write(f"{folder_path}: all {done:,} games already done\n")
            folder.write_failures(failures)
        else:
            with executor:  # a cluster that cannot be reached fails here
                run.workers = executor.workers
                run.manifest("running")
                _play(sc, tasks, chunks, run, executor, fail_fast, log if progress else None, plan if looks else None)
        if compact:
            _auto_compact(folder, compact_threshold, log if progress else None, digest_hook)
    return folder_path


def repair_folder(folder: str | Path, scenario: str | Path | None = None) -> str:
    """Rebuild the manifest of result ``folder`` from its part files, playing no game (``simlab repair``).

    The scenario comes from the manifest's own copy of its text, or, when the manifest is missing or
    damaged, from ``scenario`` (the run's scenario file: its parts must name the same experiment). Returns a
    line saying what the folder holds now.
    """
    from simlab.run.folder_layout import MANIFEST, PARTS
    from simlab.run.manifest import manifest_damage, read_manifest
    from simlab.run.scenario import parse_scenario

    p = Path(folder)
    if not p.is_dir():
        raise ResultFolderError(f"no result folder at {p}")
    parts = p / PARTS
    if not parts.is_dir() or not any(e.name.endswith(".parquet") for e in parts.iterdir()):
        raise ResultFolderError(f"{p} holds no part files ({p / PARTS}): nothing to repair")
    if scenario is not None:
        sc = load_scenario(scenario)
    else:
        damage = manifest_damage(p)
        if damage:
            raise ResultFolderError(
                f"{p / MANIFEST} {damage}: give the run's scenario file (simlab repair {p} --scenario FILE) to "
                "rebuild it from the part files"
            )
        m = read_manifest(p)
        about = m.get("scenario") if isinstance(m.get("scenario"), dict) else {}
        if not isinstance(about.get("text"), str):
            raise ResultFolderError(f"{p / MANIFEST} holds no scenario text: give the scenario file with --scenario")
        sc = parse_scenario(
            about["text"],
            source=str(about.get("source", "<manifest>")),
            default_name=str(about.get("name", "scenario")),
        )
    run_scenario(sc, out=p, jobs=1, progress=False, compact=False, repair_only=True)
    m = read_manifest(p)
    return (
        f"{p}: manifest written from the part files: {int(m['games_done']):,} of {int(m['games_target']):,} "
        f"games ({m['status']})"
        + ("" if m["status"] == "complete" else f"; finish with: simlab run {sc.source} --out {p} --resume")
    )


def _check_parts(folder: ResultFolder, identity_key: str, previous: dict[str, Any], log: IO[str]) -> dict[str, str]:
    """Check the parts already in the folder against the manifest's content hashes (see simlab.run.integrity);
    move the damaged ones to damaged/ (their games are played again) and return the good ones' hashes.

    A part the manifest hashes whose bytes changed is moved before its footer is read: a truncated part of
    this run is replayed like a bit-flipped one, not refused as unreadable."""
    known = manifest_hashes(previous)
    digests = {path.name: file_sha256(path) for path in sorted(folder.parts.glob("*.parquet")) if path.name in known}
    changed = [
        (folder.parts / name, "its bytes differ from the content hash the manifest holds for it")
        for name, digest in digests.items()
        if digest != known[name]
    ]
    _quarantine(folder, changed, log)
    files = folder.part_files(identity_key)
    if not files:
        return {}
    check = check_parts([f.path for f in files], {f.path.name: f.rows for f in files}, known, digests)
    _quarantine(folder, check.damaged, log)
    return check.hashes


def _quarantine(folder: ResultFolder, damaged: list[tuple[Path, str]], log: IO[str]) -> None:
    """Move ``damaged`` (path, why) parts to damaged/, saying so: their games are played again."""
    if damaged:
        moved = quarantine(folder.path, [path for path, _why in damaged])
        for (path, why), dest in zip(damaged, moved, strict=True):
            log.write(f"damaged: {path.name}: {why}; moved to {dest}; its games are played again\n")


def _auto_compact(folder: ResultFolder, threshold: int | None, log: IO[str] | None, digest_hook: str) -> None:
    """Merge the parts of a complete run when there are more than ``threshold`` of them."""
    from simlab.run.compact import AUTO_THRESHOLD
    from simlab.run.compact import compact as compact_folder

    threshold = AUTO_THRESHOLD if threshold is None else threshold
    if sum(1 for _ in folder.parts.glob("*.parquet")) <= threshold:
        return
    if log is not None:
        log.write(f"compacting the part files of {folder.path} (more than {threshold:,}; --no-compact skips this)...\n")
        log.flush()
    try:
        summary = compact_folder(folder.path, locked=True, digest_hook=digest_hook)  # the run holds the folder's lock
    except (ResultFolderError, ResultWriteError) as exc:  # the run is complete and its parts intact: say so
        (log or sys.stderr).write(
            f"warning: the part files were not compacted ({exc}); the results are complete; "
            f"try again with: simlab compact {shlex.quote(str(folder.path))}\n"
        )
        return
    if log is not None:
        log.write(summary.line() + "\n")


def _play(
    sc: Scenario,
    tasks: Plan,
    chunks: list[dict[str, Any]],
    run: _Run,
    executor: Executor,
    fail_fast: bool,
    log: IO[str] | None,
    next_plan: Callable[[], Plan] | None = None,
) -> None:
    """Play the planned tasks on the executor, writing each chunk as it arrives, and the manifest at the end;
    with ``next_plan`` (a run in looks), then the tasks it plans after each batch, until it plans none."""
    folder, folder_path = run.folder, run.path
    done_before = sum(c["stop"] - c["start"] for c in chunks)
    total = done_before + tasks.games
    if log is not None:
        where = f"{min(executor.jobs, len(tasks))} job(s)" if executor.backend == "local" else executor.where
        log.write(
            f"{sc.name}: {'until settled, at most ' if run.looks else ''}{sc.games:,} games x {len(sc.variants)} "
            f"variant(s) of {sc.game}, {where}, into {folder_path}\n"
        )
    bar = Progress(total, done_before, stream=log or sys.stderr, enabled=log is not None)
    if run.looks is not None:
        bar.note = run.looks.note
    status = "failed"
    results = executor.run(tasks)
    try:
        if executor.backend == "local" or not executor.address:  # remote workers compile on their machines
            _warm_up(sc, tasks[0].seeded(), log)
        bar.start = run.session_start = time.perf_counter()  # games/s without compile time
        while tasks:
            for returned in results:
                bar.advance(run.add(returned, fail_fast).games)
                run.maybe_write_manifest()
            if bar.session < total - done_before:  # a pool that ends quietly short of its tasks has lost workers
                raise RunFailed(
                    f"the workers returned {bar.session:,} of the {total - done_before:,} games asked for; "
                    f"{run.games_done:,} games are saved in {folder_path}; finish with: {run.resume_command()}"
                )
            run.session_games = bar.session
            tasks = next_plan() if next_plan is not None else None
            if tasks:  # the next look's games
                results.close()
                total += tasks.games
                bar.total = total
                results = executor.run(tasks)
        status = "complete"
    except KeyboardInterrupt:
        status = "interrupted"
        raise RunInterrupted(
            f"interrupted: {run.games_done:,} of {total:,} games are saved in {folder_path}; "
            f"finish with: {run.resume_command()}"
        ) from None
    except executor.worker_errors() as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        why = " ".join(lines[:1] + [line for line in lines[1:] if "exit code" in line])
        raise RunFailed(
            f"a worker process died ({type(exc).__name__}: {why}); {run.games_done:,} games are saved in "
            f"{folder_path}; finish with: {run.resume_command()}"
        ) from None
    finally:
        results.close()  # stops dispatching (and the local workers) if the run ends early
        bar.close()
        run.session_seconds = time.perf_counter() - run.session_start
        run.session_games = bar.session
        folder.write_failures(run.failures)
        run.manifest(status)
    if log is not None:
        log.write(
            f"done: {bar.session:,} games in {format_duration(run.session_seconds)} "
            f"({format_rate(bar.session / max(run.session_seconds, 1e-9))} games/s)\n"
        )
        if run.failures:
            log.write(f"{len(run.failures)} game(s) failed; see {folder_path / 'failures.jsonl'}\n")
        no_digest = [c for c in run.chunks if c.get("digest_error")]
        if no_digest:
            log.write(
                f"warning: {len(no_digest)} chunk(s) have no digest ({no_digest[0]['digest_error']}), so "
                "reports of this folder scan its rows; the manifest's chunks say which\n"
            )
    return folder_path


class _Run:
    """Book-keeping of one session: chunks on disk, failures, and the manifest written from them."""

    def __init__(
        self,
        sc: Scenario,
        folder: ResultFolder,
        identity_key: str,
        chunks: list,
        failures: list,
        previous: dict,
        jobs: int,
        path: Path,
        backend: str = "local",
        address: str | None = None,
    ):
        self.sc, self.folder, self.identity_key, self.path = sc, folder, identity_key, path
        self.chunks, self.failures = chunks, failures
        self.jobs = jobs
        self.backend, self.address = backend, address
        self.workers = jobs
        self.created = previous.get("timings", {}).get("started_at") or _now()
        self.sessions = list(previous.get("timings", {}).get("sessions", []))
        self.session_started_at = _now()
        self.session_start = time.perf_counter()
        self.session_seconds = 0.0
        self.session_games = 0
        self.last_write = 0.0
        self.compactions = list(previous.get("compactions", []))
        self.hashes: dict[str, str] = {}  # part file name -> SHA-256 of its bytes (the manifest's "files")
        self.footers: dict[str, dict[str, Any]] = {}  # part file name -> its size and footer hash (FOOTERS)
        self.identity = sc.identity()
        self.data_files: dict[str, Any] = {}  # variant -> knob -> {path, sha256, copy} (simlab.run.content)
        self.looks: Looks | None = None  # the rule of a run played in looks (simlab.run.looks)
        self.targets: dict[str, int] | None = None  # games per variant up to its next look (None: ``games``)

    @property
    def games_done(self) -> int:
        return sum(c["stop"] - c["start"] - len(c["failures"]) for c in self.chunks)

    def resume_command(self) -> str:
        where = f" --backend {self.backend}" if self.backend != "local" else ""
        where += f" --address {shlex.quote(self.address)}" if self.address else ""
        return f"simlab run {shlex.quote(self.sc.source)} --out {shlex.quote(str(self.path))}{where} --resume"

    def add(self, result: ChunkResult | SpooledChunk, fail_fast: bool) -> ChunkResult:
        """Put a chunk's part in place and book it; returns the chunk's result (read back if it was spooled)."""
        if isinstance(result, SpooledChunk):
            result = result.load(self.folder.parts)
        if result.failures and fail_fast:
            if result.spooled:
                Path(result.spooled).unlink(missing_ok=True)
            self.failures.extend(result.failures)
            first = result.failures[0]
            raise RunFailed(
                f"game {first['game']} of variant '{first['variant']}' (seed {first['seed']}) failed: "
                f"{first['error']}\nreplay it with: {first['replay']}\n"
                f"(without --fail-fast, failing games are logged to failures.jsonl and the run goes on)"
            )
        name = result.chunk["file"]
        if result.spooled:
            self.folder.adopt_part(Path(result.spooled), name)
            self.hashes[name] = file_sha256(self.folder.parts / name)
        else:
            self.folder.write_part(name, result.parquet)
            self.hashes[name] = hashlib.sha256(result.parquet).hexdigest()
        self.footers[name] = footer_entry(self.folder.parts / name)
        self.chunks.append(result.chunk)
        self.failures.extend(result.failures)
        return result

    def maybe_write_manifest(self) -> None:
        if time.perf_counter() - self.last_write >= MANIFEST_EVERY:
            self.session_seconds = time.perf_counter() - self.session_start
            self.manifest("running")

    def fact_manifest(self, game: Any) -> dict[str, Any]:
        """The facts' role map (merged over the variants' configs), units and interventions, once per run."""
        if getattr(self, "_facts", None) is None:
            from simlab.core.facts import merge_manifests

            self._facts = merge_manifests([game.fact_manifest(v.config) for v in self.sc.variants])
        return self._facts

    def manifest(self, status: str) -> None:
        self.last_write = time.perf_counter()
        sc = self.sc
        game = simlab.get_game(sc.game)
        chunks = sorted(self.chunks, key=lambda c: (sc.variant_names.index(c["variant"]), c["start"]))
        variants = []
        for v in sc.variants:
            mine = [c for c in chunks if c["variant"] == v.name]
            preset, settings = replay_settings(game, v)
            variants.append(
                {
                    "name": v.name,
                    "description": v.description,
                    "preset": preset,
                    "overrides": dict(v.overrides),
                    "replay_set": settings,
                    "config": v.config.as_dict(),
                    "config_hash": v.config_hash,
                    "games_done": sum(c["games"] for c in mine),
                    "games_failed": sum(len(c["failures"]) for c in mine),
                }
                | ({"data_files": self.data_files[v.name]} if self.data_files.get(v.name) else {})
            )
        session = {
            "started_at": self.session_started_at,
            "jobs": self.jobs,
            "backend": self.backend,
            "address": self.address,
            "workers": self.workers,
            "games": self.session_games,
            "seconds": round(self.session_seconds, 3),
        }
        sessions = [*self.sessions, session] if status != "complete" or self.session_games else self.sessions
        play_seconds = sum(c["seconds"] for c in chunks)
        self.folder.write_manifest(
            {
                "format": FORMAT,
                "status": status,
                "scenario": {
                    "name": sc.name,
                    "source": sc.source,
                    "description": sc.description,
                    "sha256": sc.text_hash,
                    "text": sc.text,
                },
                "identity": self.identity,
                "identity_hash": self.identity_key,
                "game": sc.game,
                "rules_version": sc.rules_version,
                # the fact columns' roles (role -> columns with their axis labels), the game's units and its
                # interventions: what the analyses ask for instead of parsing column names
                "facts": self.fact_manifest(game),
                "simlab_version": simlab.__version__,
                "versions": _versions(),
                "players": sc.players,
                "seating": "lineup" if sc.rotate else "bots",
                "bots": list(sc.seats),
                "root_seed": sc.seed,
                "games": sc.games,
                "chunk_size": sc.chunk_size,
                "games_target": sum(self.targets.values()) if self.targets else sc.games * len(sc.variants),
                "games_done": sum(c["games"] for c in chunks),
                "games_failed": sum(len(c["failures"]) for c in chunks),
                "variants": variants,
                "chunks": [
                    {k: v for k, v in c.items() if k not in ("failures", "identity")} | {"failed": len(c["failures"])}
                    for c in chunks
                ],
                # each part file's SHA-256: --resume, compact and verify check a part's bytes against it
                "files": {c["file"]: self.hashes[c["file"]] for c in chunks if c["file"] in self.hashes},
                # each part file's size and footer hash: every reader checks them when it opens the folder
                FOOTERS: {c["file"]: self.footers[c["file"]] for c in chunks if c["file"] in self.footers},
                "timings": {
                    "started_at": self.created,
                    "updated_at": _now(),
                    "sessions": sessions,
                    "play_seconds": round(play_seconds, 3),
                    # worker seconds by stage (engine loop, game's columns, runner's columns, Parquet encoding)
                    "stage_seconds": _stage_seconds(chunks),
                    "games_per_second_per_worker": round(sum(c["games"] for c in chunks) / play_seconds, 1)
                    if play_seconds
                    else None,
                },
                # compactions of the part files (simlab.run.compact): when, files before and after
                "compactions": self.compactions,
            }
            | (dict([self.looks.record()]) if self.looks is not None else {})
        )


def _stage_seconds(chunks: list[dict[str, Any]]) -> dict[str, float]:
    """Sum of the chunks' stage timings (chunks written before timings existed are left out; old stage names
    are summed under the current ones)."""
    total: dict[str, float] = {}
    for c in chunks:
        for key, seconds in current_stage_names(c.get("timings", {})).items():
            total[key] = total.get(key, 0.0) + seconds
    return {k: round(v, 3) for k, v in total.items()}


def _plan(
    sc: Scenario,
    chunks: list[dict[str, Any]],
    identity_key: str,
    spool: str = "",
    digest_hook: str = "",
    targets: dict[str, int] | None = None,
) -> Plan:
    """Tasks for every game not on disk (up to ``targets``' games of a variant, when given), interleaved across
    variants so a partial run stays paired (made as they are dispatched: see simlab.run.plan)."""
    game = simlab.get_game(sc.game)
    gaps, settings = [], []
    for v in sc.variants:
        done = sorted((c["start"], c["stop"]) for c in chunks if c["variant"] == v.name)
        if done and done[-1][1] > sc.games:
            raise ResultFolderError(
                f"the result folder already holds games up to {done[-1][1]:,} of variant '{v.name}', more than "
                f"the {sc.games:,} asked for; resume without --games or with --games {done[-1][1]} or more"
            )
        gaps.append(list(_gaps(done, min(sc.games, targets.get(v.name, sc.games)) if targets else sc.games)))
        settings.append(replay_settings(game, v))

    def make(vi: int, a: int, b: int) -> ChunkTask:
        v, (preset, replay_set) = sc.variants[vi], settings[vi]
        return ChunkTask(
            game=sc.game,
            scenario=sc.name,
            variant=v.name,
            config=v.config,
            lineup=sc.seats,
            rotate=sc.rotate,
            start=a,
            stop=b,
            seeds=None,
            root_seed=sc.seed,
            simlab_version=simlab.__version__,
            preset=preset,
            replay_set=replay_set,
            identity=identity_key,
            rules_version=sc.rules_version,
            spool=spool,
            digest_hook=digest_hook,
            data_sha256={knob: f["sha256"] for knob, f in sc.data_files.get(v.name, {}).items()},
        )

    return Plan(gaps, sc.chunk_size, make)


def _gaps(done: list[tuple[int, int]], games: int) -> Iterator[tuple[int, int]]:
    pos = 0
    for start, stop in done:
        if start > pos:
            yield pos, start
        pos = max(pos, stop)
    if pos < games:
        yield pos, games


def _warm_up(sc: Scenario, task: ChunkTask, log: IO[str] | None) -> None:
    """Compile the engine once here, before workers start, so they load it from numba's on-disk cache."""
    from simlab.core.engine import is_cached

    game = simlab.get_game(sc.game)
    cached = is_cached(game.name, game.rules_module, game.policy)
    if log is not None and not cached:  # a warm cache loads in seconds: nothing to announce
        if cached is False:
            log.write(f"compiling the {sc.game} engine (first use on this machine, 15-40 s; cached after)...\n")
        else:
            log.write(f"loading the {sc.game} engine (the first use on a machine compiles it, 15-40 s)...\n")
        log.flush()
    t0 = time.perf_counter()
    with contextlib.suppress(Exception):  # a failing game is reported by its chunk, with a replay command
        game.play_batch(task.config, task.seeds[:1].tolist(), game.make_bots(task.seat_bots(0), task.players))
    if log is not None and time.perf_counter() - t0 > 5:
        log.write(f"engine ready in {time.perf_counter() - t0:.0f} s (compiled once, cached for later runs)\n")


def resolve_jobs(jobs: int | None, force: bool = False) -> int:
    """The number of worker processes: ``jobs`` (-1 or None: all cores), at most the machine's cores unless
    ``force`` (each worker holds an engine and a chunk, a few hundred MB: more workers than cores only cost
    memory)."""
    cores = _cores()
    if jobs is None or jobs == -1:
        return cores
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ScenarioError(f"--jobs: expected a positive integer or -1 (all cores), found {str(jobs)[:40]!r}")
    if jobs > cores and not force:
        raise ScenarioError(
            f"--jobs {jobs}: more than the {cores} core(s) of this machine (more workers only cost memory, "
            "a few hundred MB each); use --jobs -1 for all cores, or add --force-jobs to start them anyway"
        )
    return jobs


def _cores() -> int:
    """The cores this process may run on (its CPU affinity, e.g. in a container), else the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # macOS has no sched_getaffinity
        return os.cpu_count() or 1


def _versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0]}
    for package in ("numpy", "numba", "pyarrow", "polars", "joblib"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:  # pragma: no cover
            out[package] = "?"
    return out


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
