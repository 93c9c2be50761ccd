"""The data files a Pantheon config names, checked before a run and named by their bytes.

A config chooses its map (``map_file``), god-tile table (``god_tiles``), demigod table (``demigods``) and
loot/bonus mix (``loot_table``) by a bundled name or a path. :func:`data_files` resolves each to the file the
game reads; :func:`check_data_files` loads them all when the config is made (so a scenario naming a broken
file is refused before its result folder exists), every failure a ``DataFileError`` naming the file. A run's
identity hashes the files :func:`data_files` lists (``simlab.run.content``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.core.datafile import changed_since_seen, leaks_as_data_error, read_bytes
from simlab.games.pantheon import board, data

#: config knob -> (table kind of ``data.SCHEMAS``, bundled names); map_file is the board's, not a table
TABLE_KNOBS = {
    "god_tiles": ("god_tiles", data.GOD_TILE_TABLES),
    "demigods": ("demigods", data.DEMIGOD_TABLES),
    "loot_table": ("loot_bonus", {}),
}


def data_files(config: Any) -> dict[str, Path]:
    """Config knob -> the file it makes the game read (a bundled name or '' resolved to the shipped file)."""
    out = {"map_file": Path(config.map_file) if config.map_file else board.DEFAULT_MAP}
    for knob, (kind, named) in TABLE_KNOBS.items():
        source = getattr(config, knob)
        out[knob] = data.TABLES_DIR / data.DEFAULT_FILES[kind] if not source else data.resolve(source, named)
    return out


def check_data_files(config: Any) -> None:
    """Load every file of :func:`data_files` (cached) so that any malformed one, even of a shape the loaders
    did not foresee, fails as a ``DataFileError`` naming the file."""
    files = data_files(config)
    if changed_since_seen(files.values()):  # a file edited since it was loaded in this process
        forget_tables()
    for knob, path in files.items():
        what = "map file" if knob == "map_file" else f"{TABLE_KNOBS[knob][0]} table"
        if path.exists():  # bounded, named as given (the map loader resolves a symlink before it reads)
            read_bytes(path, what)
        with leaks_as_data_error(path, what):
            if knob == "map_file":
                board.load_map(path)
            elif knob == "god_tiles":
                data.god_tiles(getattr(config, knob))
            elif knob == "demigods":
                data.demigod_values(getattr(config, knob))
            else:
                data.loot_types(getattr(config, knob) or None)


def forget_tables() -> None:
    """Drop the cached map and the config-named tables: a file they came from changed on disk."""
    for cached in (board._load, data.god_tiles, data.demigod_table, data.loot_types):
        cached.cache_clear()
