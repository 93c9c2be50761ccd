"""A run's identity by content: the bytes of its data files and the bots its specs resolve to (issue 30).

A result folder's identity (``Scenario.identity``) used to name a data file by its path and a bot by its spec:
a board edited in place, a relative ``map_file`` resumed from another folder or a bot default changed between
two sessions extended a run with games of another experiment under the same identity, and the numbers mixed
silently. Here each data file a config names (``Game.data_files``) enters by the SHA-256 of its bytes, and each
bot spec by its fully resolved parameters and version (``BotRegistry.resolve``); the run keeps a copy of every
data file in the folder's ``data/`` (named by its hash), so a report or a replay reads what was played.

Folders of results format 1 (before this) hold no such record: they load and report as before; a run may not
add games to them (:func:`legacy_refusal` says what to do), and ``simlab repair`` rebuilds their manifest under
their own identity.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simlab.core.datafile import changed_since_seen, file_sha256, read_bytes

#: the result folder's copies of the run's data files, each named ``<sha256[:16]>-<file name>``
DATA = "data"
#: identity keys that hold content (absent from folders of results format 1)
CONTENT_KEYS = ("data_files", "resolved_bots")


def data_file_record(game: Any, config: Any) -> dict[str, dict[str, str]]:
    """Config knob -> {"path": the file the game reads, "sha256": its bytes' hash} for one variant's config."""
    return {
        knob: {"path": str(path), "sha256": file_sha256(path, f"{knob} file")}
        for knob, path in sorted(game.data_files(config).items())
    }


def resolved_bots(game: Any, specs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Spec -> what it plays (bot, version, every parameter with its default filled in), once per distinct spec."""
    return {spec: game.bots.resolve(spec) for spec in dict.fromkeys(specs)}


def content_identity(data_files: Mapping[str, Mapping[str, Mapping[str, str]]], bots: Mapping[str, Any]) -> dict:
    """The identity keys of the content: each variant's data files by hash, each spec's resolved bot."""
    return {
        "data_files": {v: {knob: f["sha256"] for knob, f in files.items()} for v, files in data_files.items()},
        "resolved_bots": {spec: dict(bot) for spec, bot in bots.items()},
    }


def copy_name(entry: Mapping[str, str]) -> str:
    """The name of a data file's copy in ``data/``: its hash first, so two files of one name never collide."""
    return f"{entry['sha256'][:16]}-{Path(entry['path']).name}"


def copy_data_files(folder: Path, data_files: Mapping[str, Mapping[str, Mapping[str, str]]]) -> dict[str, Any]:
    """Copy each data file the run reads into ``folder/data`` (once per content) and return the manifest's record:
    variant -> knob -> {path, sha256, copy}. A file whose bytes changed since the scenario was checked is refused
    (the run would play other bytes than its identity names)."""
    from simlab.run.atomic_file import atomic_write
    from simlab.run.errors import ResultFolderError

    out: dict[str, Any] = {}
    for variant, files in data_files.items():
        out[variant] = {}
        for knob, entry in files.items():
            name = copy_name(entry)
            target = folder / DATA / name
            if not target.is_file():
                data = read_bytes(entry["path"], f"{knob} file")
                if _sha256(data) != entry["sha256"]:
                    raise ResultFolderError(
                        f"{entry['path']}: changed while the run was starting (its bytes differ from when the "
                        f"scenario was checked); start the run again"
                    )
                target.parent.mkdir(exist_ok=True)
                atomic_write(target, lambda f, data=data: f.write(data))
            out[variant][knob] = {**entry, "copy": f"{DATA}/{name}"}
    return out


def content_changes(theirs: Mapping[str, Any], ours: Mapping[str, Any], variants_theirs: Any = None) -> list[str]:
    """What differs between a folder's identity and this run's in content, one phrase each (empty: nothing)."""
    out: list[str] = []
    paths = _paths(variants_theirs)
    old_files, new_files = theirs.get("data_files") or {}, ours.get("data_files") or {}
    for variant in sorted(set(old_files) & set(new_files)):
        for knob in sorted(set(old_files[variant]) | set(new_files[variant])):
            was, now = old_files[variant].get(knob), new_files[variant].get(knob)
            if was != now:
                where = paths.get((variant, knob), "")
                out.append(
                    f"variant '{variant}': {knob}{f' ({where})' if where else ''} holds other bytes than when the "
                    f"run began (sha256 {str(was)[:12]}... then, {str(now)[:12]}... now)"
                )
    old_bots, new_bots = theirs.get("resolved_bots") or {}, ours.get("resolved_bots") or {}
    for spec in sorted(set(old_bots) & set(new_bots)):
        was, now = old_bots[spec], new_bots[spec]
        if was == now:
            continue
        if was.get("version") != now.get("version"):
            out.append(f"bot '{spec}': version {was.get('version')} then, {now.get('version')} now")
        changed = [
            f"{k} {_num(was['params'].get(k))} then, {_num(now['params'].get(k))} now"
            for k in dict.fromkeys([*was.get("params", {}), *now.get("params", {})])
            if was.get("params", {}).get(k) != now.get("params", {}).get(k)
        ]
        if changed:
            out.append(f"bot '{spec}' resolves to other parameters: {'; '.join(changed[:4])}")
        elif was.get("version") == now.get("version"):
            out.append(f"bot '{spec}' resolves to another bot ({json.dumps(was)[:80]} then)")
    return out


def run_identity(path: Path, scenario: Any, repair_only: bool) -> dict[str, Any]:
    """The identity a run of ``scenario`` takes in the folder at ``path``: its own (by content), or for ``simlab
    repair`` of a results format 1 folder of the same scenario that folder's. Refuses, naming what changed, a
    folder of the same scenario whose data files or resolved bots differ, and a run adding games to a format 1
    folder. Read-only: the folder's own checks (``ResultFolder.open_for_run``) follow."""
    from simlab.run.errors import ResultFolderError
    from simlab.run.folder_layout import MANIFEST, identity_hash
    from simlab.run.folder_writer import ResultFolder
    from simlab.run.manifest import manifest_damage, read_manifest

    ours, legacy = scenario.identity(), scenario.legacy_identity()
    if not (path / MANIFEST).is_file():
        return ours
    if manifest_damage(path):  # the parts' footers say whose they are
        folder = ResultFolder(path)
        if repair_only and folder._parts_of(identity_hash(legacy)) and not folder._parts_of(identity_hash(ours)):
            return legacy
        return ours
    manifest = read_manifest(path)
    theirs = manifest.get("identity")
    if not isinstance(theirs, dict) or theirs == ours:
        return ours
    if not any(key in theirs for key in CONTENT_KEYS):  # results format 1
        if theirs != legacy:
            return ours  # another experiment: the folder's own check says so
        if repair_only:
            return legacy
        raise ResultFolderError(legacy_refusal(path))
    same_otherwise = {k: v for k, v in theirs.items() if k not in CONTENT_KEYS} == legacy
    changes = content_changes(theirs, ours, manifest.get("variants"))
    if same_otherwise and changes:
        raise ResultFolderError(
            f"output folder {path} holds games of scenario '{legacy['scenario']}' played with other data files or "
            f"bots than this run's: {'; '.join(changes)}; games of the two would mix under one identity, so "
            f"nothing was played; restore what changed (the run's data files are in {path / DATA}), or run "
            "into a new folder with --out"
        )
    return ours


def played_copies(folder: Path, variant: Mapping[str, Any]) -> dict[str, str]:
    """Knob -> the folder's copy of a data file whose bytes at its path are no longer what the run played (edited,
    moved, or a relative path read from another directory): a replay reads the copy instead. Empty for a folder
    of results format 1 (no copies) and when every file is unchanged."""
    from simlab.core.errors import DataFileError
    from simlab.run.errors import ResultFolderError

    out: dict[str, str] = {}
    for knob, entry in (variant.get("data_files") or {}).items():
        try:
            unchanged = file_sha256(entry["path"]) == entry["sha256"]
        except DataFileError:
            unchanged = False
        if unchanged:
            continue
        copy = Path(folder) / entry["copy"]
        try:
            kept = file_sha256(copy) == entry["sha256"]
        except DataFileError:
            kept = False
        if not kept:
            raise ResultFolderError(
                f"{entry['path']} ({knob} of variant '{variant.get('name')}') is not the file the run played, and "
                f"the folder's copy {copy} is missing or damaged: the game cannot be replayed as it was played"
            )
        out[knob] = str(copy)
    return out


def check_played_data(game: Any, config: Any, expected: Mapping[str, str]) -> None:
    """In a worker, before a chunk: the game's cached tables are fresh (dropped if a file changed since this
    process read it) and every data file still holds the bytes the run's identity names; else the chunk is
    refused, so a file edited during a run never mixes its games into the folder."""
    from simlab.run.errors import WorkerMismatch

    if not expected:
        return
    files = game.data_files(config)
    if changed_since_seen(files.values()):
        game.forget_data()
    for knob, path in files.items():
        now = file_sha256(path, f"{knob} file")
        if knob in expected and now != expected[knob]:
            raise WorkerMismatch(
                f"{path} ({knob}) changed on disk during the run: its bytes (sha256 {now[:12]}...) are not those "
                f"the run began with ({expected[knob][:12]}...); restore it and finish with --resume"
            )


def legacy_refusal(path: Path) -> str:
    """Why a run may not add games to a folder of results format 1, and what to do."""
    return (
        f"output folder {path} was made by an older simlab (results format 1), which named data files by their path "
        "and bots by their spec, so games added now could not be told apart from games of other files or bot "
        "defaults; its results load and report as before; to play more games, run into a new folder with --out"
    )


def _paths(variants: Any) -> dict[tuple[str, str], str]:
    """(variant, knob) -> path, from a manifest's variants list (their data_files records), where it has them."""
    out: dict[tuple[str, str], str] = {}
    for v in variants if isinstance(variants, list) else []:
        if isinstance(v, dict) and isinstance(v.get("data_files"), dict):
            for knob, entry in v["data_files"].items():
                if isinstance(entry, dict):
                    out[(str(v.get("name")), knob)] = str(entry.get("path", ""))
    return out


def _num(value: Any) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


__all__ = [
    "CONTENT_KEYS",
    "DATA",
    "check_played_data",
    "content_changes",
    "content_identity",
    "copy_data_files",
    "data_file_record",
    "legacy_refusal",
    "played_copies",
    "resolved_bots",
    "run_identity",
]
