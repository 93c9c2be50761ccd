"""A bot panel's folder: ``<folder>/panel/panel.json`` and one result folder per entry (the format, read and written).

``simlab.experiments.panel`` plays a panel (the scenario once per bot); ``simlab.analysis.robust`` and the
report read it through this module, which plays nothing.

Layout::

    <folder>/panel/panel.json          the entries: bot spec and folder name, the scenario, the seating
    <folder>/panel/<k>-<bot>/           entry k's result folder (manifest.json, parts/)
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from simlab.run.atomic_file import atomic_write
from simlab.run.errors import ScenarioError
from simlab.run.folder_layout import PANEL
from simlab.run.scenario import Scenario

PANEL_FILE = "panel.json"

#: how an entry is seated (``--seating``), in the words panel.json, the method line and the report use
SEATINGS = {
    "every": "each panel bot in every seat",
    "one": "each panel bot in one seat, rotated, the scenario's other lineup bots in the rest",
}


@dataclasses.dataclass(frozen=True)
class PanelEntry:
    """One bot of the panel and the result folder of its run."""

    bot: str
    folder: Path


def load_panel(folder: str | Path) -> tuple[dict[str, Any], list[PanelEntry]]:
    """The panel of a result folder (``<folder>/panel``) or a panel folder itself: its description and entries."""
    p = Path(folder)
    root = p if (p / PANEL_FILE).is_file() else p / PANEL
    path = root / PANEL_FILE
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError(
            f"{p} holds no bot panel ({path} is missing); play one with: simlab robust SCENARIO"
        ) from None
    except (OSError, ValueError) as exc:
        raise ScenarioError(f"{path} is unreadable ({exc}); play the panel again with simlab robust") from None
    raw = meta.get("entries") if isinstance(meta, dict) else None
    if not isinstance(raw, list) or not all(isinstance(e, dict) and {"bot", "folder"} <= e.keys() for e in raw):
        raise ScenarioError(f"{path} lists no panel entries (bot, folder); play the panel again with simlab robust")
    return meta, [PanelEntry(str(e["bot"]), root / str(e["folder"])) for e in raw]


def has_panel(folder: str | Path) -> bool:
    return (Path(folder) / PANEL / PANEL_FILE).is_file()


def seating_of(meta: dict[str, Any]) -> str:
    """The seating key (``every``, ``one``) of a panel's panel.json (panels written before seatings: every)."""
    key = meta.get("seating_key")
    return key if key in SEATINGS else "every"


def check_same_seating(root: Path, seating: str) -> None:
    """One panel folder holds one seating: a panel played the other way is refused, not mixed in."""
    if not (root / PANEL_FILE).is_file():
        return
    try:
        meta, _entries = load_panel(root)
    except ScenarioError:
        return  # unreadable: rewritten below, and its entries resume by their folders
    if seating_of(meta) != seating:
        raise ScenarioError(
            f"{root} holds a panel with {SEATINGS[seating_of(meta)]}; --seating {seating} plays another "
            "panel: give it another --out folder, or remove that panel folder"
        )


def write_panel(root: Path, sc: Scenario, entries: list[PanelEntry], seating: str = "every") -> None:
    meta = {
        "scenario": sc.name,
        "source": sc.source,
        "game": sc.game,
        "seating": SEATINGS[seating],
        "seating_key": seating,
        "lineup": list(sc.seats),
        "entries": [{"bot": e.bot, "folder": e.folder.name} for e in entries],
    }
    text = json.dumps(meta, indent=2) + "\n"
    atomic_write(root / PANEL_FILE, lambda f: f.write(text.encode()))
