"""A result folder's manifest read as it is: what is wrong with it, if anything, and its fields a run reads back.

``reader.load_manifest`` is what analyses call (it also checks the fields they rely on and takes the game
counts from the parts); the folder writer reads the manifest here before a run resumes it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simlab.run.errors import ResultFolderError
from simlab.run.folder_hint import parent_folder_error
from simlab.run.folder_layout import MANIFEST
from simlab.run.stage_names import current_stage_names

#: the families of verdicts a run until settled may wait for (scenario key ``settle``, ``--settle``, the manifest's
#: ``stopping.settle``): "headline" (each variant's equal-seats question, each card's value) or "every" (also each
#: seat's share and each seat's change against the base). One home for the scenario, the rule and the analyses
#: that read its record; a record without the key waited for every verdict
SETTLE_FAMILIES = ("headline", "every")
#: the family a new run waits for unless told (docs/running.md "Which verdicts a run waits for")
DEFAULT_SETTLE = "headline"


def manifest_damage(folder: Path) -> str:
    """What is wrong with a folder's manifest ("" if it reads as a simlab manifest), e.g. "is missing"."""
    path = Path(folder) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "is missing"
    except (OSError, UnicodeDecodeError) as exc:
        return f"is unreadable ({exc.strerror if isinstance(exc, OSError) else exc})"
    if not text.strip():
        return "is empty"
    try:
        manifest = json.loads(text)
    except ValueError as exc:
        return f"is unreadable ({exc})"
    if not isinstance(manifest, dict):
        return f"is not a simlab manifest (a JSON {type(manifest).__name__}, not an object)"
    if not isinstance(manifest.get("identity"), dict) or not isinstance(manifest.get("identity_hash"), str):
        return "is not a simlab manifest (its 'identity' is missing or damaged)"
    return ""


def sanitized_manifest(manifest: dict[str, Any]) -> dict[str, Any]:
    """``manifest`` without the fields a run reads back that are of the wrong type (a list for an object,
    text for a number): a run rebuilds them instead of failing on them."""
    out = dict(manifest)
    for key in ("games", "chunk_size"):
        value = out.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            del out[key]
    timings = out.get("timings")
    if not isinstance(timings, dict):
        out["timings"] = {}
    else:
        timings = dict(timings)
        if not isinstance(timings.get("sessions"), list):
            timings["sessions"] = []
        timings["sessions"] = [s for s in timings["sessions"] if isinstance(s, dict)]
        if not isinstance(timings.get("started_at"), str):
            timings.pop("started_at", None)
        if isinstance(timings.get("stage_seconds"), dict):
            timings["stage_seconds"] = current_stage_names(timings["stage_seconds"])
        out["timings"] = timings
    if not isinstance(out.get("compactions"), list):
        out["compactions"] = []
    if isinstance(out.get("chunks"), list):  # stages named before a rename are read under their current names
        out["chunks"] = [
            {**c, "timings": current_stage_names(c["timings"])}
            if isinstance(c, dict) and isinstance(c.get("timings"), dict)
            else c
            for c in out["chunks"]
        ]
    return out


def read_manifest(folder: Path) -> dict[str, Any]:
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise parent_folder_error(folder) or ResultFolderError(
            f"{folder} holds no simlab results ({MANIFEST} is missing)"
        ) from None
    except (OSError, ValueError) as exc:
        raise ResultFolderError(f"{path} is unreadable ({exc}); it is not a simlab result folder") from None


def reader_fields_problem(manifest: dict[str, Any]) -> str:
    """Which field of a manifest the readers need is missing or of the wrong type ("" if none)."""
    if not isinstance(manifest.get("scenario"), dict) or not isinstance(manifest["scenario"].get("name"), str):
        return "its 'scenario' is missing or not an object with a name"
    if not isinstance(manifest.get("game"), str):
        return "its 'game' is missing or not a string"
    variants = manifest.get("variants")
    if not isinstance(variants, list) or not variants:
        return "its 'variants' is missing or not a list"
    for v in variants:
        if not (isinstance(v, dict) and isinstance(v.get("name"), str) and isinstance(v.get("config"), dict)):
            return "an entry of its 'variants' is not an object with a name and a config"
        if isinstance(v.get("games_done"), bool) or not isinstance(v.get("games_done", 0), int):
            return f"the games_done of variant {v['name'][:40]!r} is not a number"
    for key in ("games_done", "games_target", "games_failed", "games"):
        if key in manifest and (isinstance(manifest[key], bool) or not isinstance(manifest[key], int)):
            return f"its {key!r} is not a number"
    return ""
