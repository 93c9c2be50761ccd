"""What to say when a command is given a folder that is not a result folder but holds some (``results/``).

``simlab seats results`` used to answer "holds no results yet", which sends a newcomer to wait for a run that
finished long ago; the results are one level down. The readers ask here first and, when the folder holds
result folders, name them (game, scenario, variants, games) so the next command can be typed.
"""

from __future__ import annotations

import json
from pathlib import Path

from simlab.run.errors import ResultFolderError

MANIFEST = "manifest.json"
PARTS = "parts"
#: result folders named in one message (a results/ of a long project holds many)
MAX_SHOWN = 12


def results_inside(folder: str | Path, depth: int = 2) -> list[Path]:
    """The result folders (a ``manifest.json`` or a ``parts/``) under ``folder``, ``depth`` levels down at most,
    in name order; [] when ``folder`` is itself one."""
    root = Path(folder)
    if _is_result_folder(root) or not root.is_dir():
        return []
    found: list[Path] = []
    level = [root]
    for _ in range(depth):
        below = []
        for parent in level:
            try:
                children = sorted(p for p in parent.iterdir() if p.is_dir() and not p.name.startswith("."))
            except OSError:
                continue
            for child in children:
                (found if _is_result_folder(child) else below).append(child)
        level = below
    return sorted(found)


def _is_result_folder(path: Path) -> bool:
    return (path / MANIFEST).is_file() or (path / PARTS).is_dir()


def describe(folder: Path) -> str:
    """``results/quickstart (massilia, scenarios/quickstart.toml: 2 variant(s), 20,000 games)``; the path alone
    when its manifest is unreadable."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        variants = manifest["variants"]
        games = sum(int(v.get("games_done", 0)) for v in variants)
        source = manifest.get("scenario", {}).get("source") or manifest.get("scenario", {}).get("name", "")
        return f"{folder} ({manifest['game']}, {source}: {len(variants)} variant(s), {games:,} games)"
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return str(folder)


def parent_folder_error(folder: str | Path) -> ResultFolderError | None:
    """The error for a folder that is not a result folder but holds result folders: it names them; None when the
    folder holds none (the caller's own message applies)."""
    inside = results_inside(folder)
    if not inside:
        return None
    shown = "; ".join(describe(p) for p in inside[:MAX_SHOWN])
    more = f"; and {len(inside) - MAX_SHOWN} more" if len(inside) > MAX_SHOWN else ""
    return ResultFolderError(
        f"{folder} is not a result folder, but it holds {len(inside)}: {shown}{more}; give one of them instead "
        f"(e.g. {inside[0]})"
    )
