"""What a reader checks each time it opens a result folder, cheaply, so that no command counts a smaller or
another set of games than the run played without saying so.

``store.folder_contents`` (every reader's file list) calls ``listing_problems`` after it has read the footers:

- every chunk the manifest lists must be held by one of the kept part files (a deleted or left-out part is
  named, with its games): a missing part is never a silently smaller n;
- each part the manifest records a footer for (manifest key ``footers``: file name -> its size in bytes and
  the SHA-256 of its Parquet footer) must still have that size and footer. The footer holds the chunk
  records, the column statistics and the analysis digest, so an edit of any of them is found by one small
  read per file; a flipped bit in a data page is found by the page checksums (``simlab verify``,
  ``load_results(..., verify=True)``) or the full-file hash (``files``). A part without a recorded footer (a
  folder of an older simlab, or a part written after the last manifest write of a running run) is
  *unchecked*, and the analysis digests it carries are not used unless its full-file hash matches.

``manifest_facts`` checks the manifest's facts against what the parts can confirm: the games done and failed
(counted from the parts' chunk records: the manifest's counts are replaced by them), the failures log, and the
experiment's identity (its hash, the bots, seed, players and variants' configs the identity names). What the
parts cannot confirm (timings, versions, descriptions) is said to be taken from the manifest unchecked.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: manifest key: part file name -> {"bytes": size, "footer": SHA-256 of its footer} (added in the 2026-12 format;
#: a manifest without it is read as before, its parts unchecked)
FOOTERS = "footers"
_TAIL = 8  # a Parquet file ends with the footer's length (4 bytes) and b"PAR1"


def footer_entry(path: Path) -> dict[str, Any]:
    """The manifest's ``footers`` entry of a part: its size and the SHA-256 of its footer (one small read)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < _TAIL:
            return {"bytes": size, "footer": hashlib.sha256(b"").hexdigest()}
        f.seek(size - _TAIL)
        tail = f.read(_TAIL)
        length = min(int.from_bytes(tail[:4], "little"), size - _TAIL)
        f.seek(size - _TAIL - length)
        footer = f.read(length + _TAIL)
    return {"bytes": size, "footer": hashlib.sha256(footer).hexdigest()}


def manifest_footers(manifest: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The ``footers`` map of a manifest; entries of the wrong shape are dropped (their parts are unchecked)."""
    footers = manifest.get(FOOTERS) if isinstance(manifest, Mapping) else None
    if not isinstance(footers, Mapping):
        return {}
    return {
        name: entry
        for name, entry in footers.items()
        if isinstance(name, str)
        and isinstance(entry, Mapping)
        and isinstance(entry.get("bytes"), int)
        and isinstance(entry.get("footer"), str)
    }


def footer_problem(path: Path, expected: Mapping[str, Any]) -> str:
    """Why a part's size or footer is not the one the manifest recorded ("" if it is)."""
    try:
        found = footer_entry(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if found["bytes"] != expected["bytes"]:
        return f"it holds {found['bytes']:,} bytes, the manifest recorded {expected['bytes']:,}"
    if found["footer"] != expected["footer"]:
        return (
            "its Parquet footer (chunk records, column statistics, digest) differs from the one the manifest "
            "recorded: it was edited or damaged"
        )
    return ""


def listing_problems(
    manifest: Mapping[str, Any], files: list[Any], skipped: list[Any]
) -> tuple[list[str], set[str], list[str]]:
    """(what is missing or wrong, the names of the files whose footer does not match the manifest's, the
    lines about missing games alone).

    ``files`` are the kept ``PartFile``s, ``skipped`` the ``Skipped`` files of parts/ (see ``folder_contents``).
    """
    problems: list[str] = []
    suspect: set[str] = set()
    footers = manifest_footers(manifest)
    for f in files:
        expected = footers.get(f.path.name)
        if expected is not None:
            why = footer_problem(f.path, expected)
            if why:
                suspect.add(f.path.name)
                problems.append(
                    f"{f.path} is damaged: {why}; its rows are read but cannot be trusted: run simlab verify "
                    f"{f.path.parent.parent} --quarantine, then simlab run ... --resume to play its games again"
                )
    held = {(str(r.get("variant")), r.get("start"), r.get("stop")) for f in files for r in f.records}
    left_out = {s.path.name: s.reason for s in skipped}
    missing: dict[str, list[tuple[str, int, int]]] = {}
    chunks = manifest.get("chunks") if isinstance(manifest.get("chunks"), list) else []
    for c in chunks:
        if not isinstance(c, Mapping):
            continue
        key = (str(c.get("variant")), c.get("start"), c.get("stop"))
        if key not in held and isinstance(key[1], int) and isinstance(key[2], int):
            missing.setdefault(str(c.get("file", "?")), []).append(key)
    gone = []
    for name, keys in sorted(missing.items()):
        games = sum(b - a for _v, a, b in keys)
        where = f"left out ({left_out[name]})" if name in left_out else "not in parts/"
        first = keys[0]
        gone.append(
            f"{games:,} game(s) the manifest lists are missing (games {first[1]}-{first[2] - 1} of '{first[0]}'"
            f"{' and more' if len(keys) > 1 else ''}): their file {name} is {where}; every figure counts "
            "fewer games than the run played: play them again with simlab run ... --resume"
        )
    return problems + gone, suspect, gone


def counted(files: list[Any]) -> dict[str, dict[str, int]]:
    """Games done and failed per variant, counted from the kept files' chunk records."""
    out: dict[str, dict[str, int]] = {}
    for f in files:
        for r in f.records:
            v = out.setdefault(str(r.get("variant")), {"done": 0, "failed": 0})
            v["done"] += int(r.get("games", 0))
            v["failed"] += len(r.get("failures") or [])
    return out


def manifest_facts(manifest: dict[str, Any], files: list[Any], folder: Path) -> list[str]:
    """Check the manifest's facts against the parts; returns what differs or cannot be checked (and replaces
    the manifest's game counts by those of the parts, see ``use_part_counts``)."""
    if not files or not any(f.records for f in files):
        return []
    notes = use_part_counts(manifest, files)
    if manifest.get("status") != "running":  # a run writes its failures log at its end
        notes += _failures_log_problem(folder, files)
    return notes + _identity_problems(manifest)


def use_part_counts(manifest: dict[str, Any], files: list[Any]) -> list[str]:
    """Replace the manifest's games done and failed (per variant and in all) by what the kept files' chunk
    records hold; returns where the manifest said otherwise (a running run's manifest may lag behind: fewer)."""
    notes: list[str] = []
    if not files or not any(f.records for f in files):
        return notes
    count = counted(files)
    running = manifest.get("status") == "running"  # its manifest lags its parts by up to a few seconds
    for v in manifest.get("variants", []):
        c = count.get(v.get("name"), {"done": 0, "failed": 0})
        for key, part_key in (("games_done", "done"), ("games_failed", "failed")):
            said = _number(v.get(key, 0))
            if said != c[part_key] and not (running and said < c[part_key]):
                notes.append(
                    f"the manifest says {v.get(key, 0)} for {key} of variant '{v.get('name')}', its part files "
                    f"hold {c[part_key]:,}: the parts' count is used"
                )
            v[key] = c[part_key]
    for key in ("games_done", "games_failed"):
        total = sum(int(v.get(key, 0)) for v in manifest.get("variants", []))
        said = _number(manifest.get(key))
        if said != total and not (running and said < total):
            notes.append(f"the manifest's {key} ({manifest.get(key)}) is not what its part files hold ({total:,})")
        manifest[key] = total
    return notes


def _number(value: Any) -> int:
    """A manifest count as a number (-1 for anything else: it then differs from any count of the parts)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _failures_log_problem(folder: Path, files: list[Any]) -> list[str]:
    """The failures log against the failures the parts' chunk records hold (the log is a copy of them)."""
    records = sorted(json.dumps(f, sort_keys=True) for p in files for r in p.records for f in r.get("failures") or [])
    path = folder / "failures.jsonl"
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        logged = sorted(json.dumps(json.loads(line), sort_keys=True) for line in text.splitlines() if line.strip())
    except (OSError, ValueError):
        return [f"{path} cannot be read; the failures counted are those the part files record ({len(records)})"]
    if logged != records:
        return [
            f"{path} lists {len(logged)} failure(s) the part files do not match (they record {len(records)}): "
            "the figures use the parts' records; the log is not to be trusted"
        ]
    return []


def _identity_problems(manifest: dict[str, Any]) -> list[str]:
    """The manifest's facts that decide the games (bots, seed, players, configs) against its identity, whose
    hash every part names."""
    from simlab.run.folder_layout import identity_hash

    identity = manifest.get("identity")
    if not isinstance(identity, dict) or identity_hash(identity) != manifest.get("identity_hash"):
        return ["the manifest's identity does not give its identity hash (the one the parts name): it was edited"]
    notes = []
    for key, ident_key in (("bots", "bots"), ("players", "players"), ("root_seed", "seed"), ("game", "game")):
        if key in manifest and _plain(identity.get(ident_key)) and manifest[key] != identity[ident_key]:
            notes.append(f"the manifest's {key} ({manifest[key]}) is not the run's ({identity[ident_key]})")
    configs = identity.get("variants") if isinstance(identity.get("variants"), dict) else {}
    for v in manifest.get("variants", []):
        want = configs.get(v.get("name"))
        if isinstance(want, str) and _config_hash(manifest.get("game"), v.get("config")) not in (want, None):
            notes.append(f"the manifest's config of variant '{v.get('name')}' is not the one the run played")
    notes += _scenario_text_problem(manifest, identity)
    return notes


def _plain(value: Any) -> bool:
    """Whether an identity entry has the shape this check knows (a number or text, a list of texts, a map of
    texts): a newer identity format (resolved bot parameters, data-file hashes) is left to its own checks."""
    if isinstance(value, str | int):
        return True
    if isinstance(value, list):
        return all(isinstance(x, str) for x in value)
    if isinstance(value, dict):
        return all(isinstance(x, str) for x in value.values())
    return False


def _config_hash(game: Any, config: Any) -> str | None:
    """The hash of a config as the manifest shows it (None: the game cannot be loaded here to check it)."""
    try:
        import simlab

        return simlab.get_game(str(game)).config_class.from_mapping(config).config_hash()
    except Exception:  # an unknown game or a config its class refuses: cannot be checked here
        return None


def _scenario_text_problem(manifest: dict[str, Any], identity: dict[str, Any]) -> list[str]:
    """The scenario text the manifest shows against the identity the parts name (bots, seed, variants...)."""
    about = manifest.get("scenario")
    if not isinstance(about, dict) or not isinstance(about.get("text"), str):
        return []
    try:
        from simlab.run.scenario import parse_scenario

        theirs = parse_scenario(about["text"], source="<manifest>", default_name=str(about.get("name"))).identity()
    except Exception:  # a game not installed here, or text a newer simlab wrote
        return ["the scenario text in the manifest cannot be checked here (it does not parse)"]
    keys = ("scenario", "game", "players", "seating", "bots", "seed", "variants")
    differs = [k for k in keys if _plain(identity.get(k)) and theirs.get(k) != identity[k]]
    if differs:
        return [f"the scenario text in the manifest is not the run's: it differs in {', '.join(differs)}"]
    return []


#: what a report takes from the manifest without a way to check it against the parts
UNCHECKED = "timings, versions and descriptions are as the manifest says (not checked against the parts)"


def digest_parts(folder: str | Path) -> list[Any] | None:
    """The run's part files, if the analysis digests in their footers can be trusted, else None (a report then
    scans the rows).

    A digest is trusted when its file's footer is the one the manifest recorded; a file without a recorded
    footer (an older folder, or a part a running run wrote after its last manifest) when its bytes match the
    manifest's content hash (one pass over the file, once per process); a file with neither is not.
    """
    from simlab.run.folder_contents import folder_contents
    from simlab.run.integrity import file_sha256, manifest_hashes
    from simlab.run.manifest import read_manifest
    from simlab.run.reader import result_parts

    files = result_parts(folder)
    contents = folder_contents(folder)
    if contents.suspect or contents.missing:
        return None
    unchecked = [f for f in files if f.path.name not in contents.checked]
    if unchecked:
        try:
            hashes = manifest_hashes(read_manifest(Path(folder)))
        except Exception:  # no readable manifest: nothing to check the digests against
            return None
        for f in unchecked:
            key = (str(f.path.resolve()), f.path.stat().st_mtime_ns, f.path.stat().st_size)
            if key not in _HASHED:
                _HASHED[key] = file_sha256(f.path)
            if hashes.get(f.path.name) != _HASHED[key]:
                return None
    return files


#: (path, mtime, size) -> the file's SHA-256, for ``digest_parts``
_HASHED: dict[tuple[str, int, int], str] = {}
