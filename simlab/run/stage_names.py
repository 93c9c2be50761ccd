"""The names of a chunk's timing stages, and the old ones a result folder may still hold.

The stage "game_columns" (time spent in the game's own column code) was called "facts" until it clashed with
the game's declared facts (``simlab.core.facts``); manifests written before the rename are read with it renamed.
"""

from __future__ import annotations

from typing import Any

STAGE_ALIASES = {"facts": "game_columns"}  # old stage name -> current one


def current_stage_names(timings: dict[str, Any]) -> dict[str, Any]:
    """``timings`` (a chunk's ``timings`` or a manifest's ``stage_seconds``) with old stage names renamed."""
    out: dict[str, Any] = {}
    for key, value in timings.items():
        new = STAGE_ALIASES.get(key, key)
        if new in out and isinstance(out[new], (int, float)) and isinstance(value, (int, float)):
            out[new] += value
        else:
            out[new] = value
    return out
