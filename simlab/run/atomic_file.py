"""Writing a file of a result folder atomically: readers see the old file or the whole new one, never a part.

A killed writer leaves at most a temporary file ``.<name>.<pid>.tmp``, which is never a result (the folder
writer salvages or deletes it on the next run).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, NoReturn

from simlab.run.errors import ResultWriteError


def atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write a file through a temporary name and ``os.replace``: readers see the old file or the whole new one.

    Any failure (full disk, permissions, Ctrl-C) removes the temporary file; an OSError becomes a
    ResultWriteError naming the file.
    """
    move_into_place(write_temporary(path, write), path)


def write_temporary(path: Path, write: Callable[[IO[bytes]], None]) -> Path:
    """Write (and fsync) the temporary file that will become ``path``; ``remove_temporaries`` owns it if it stays.

    Its name, ``.<name>.<pid>.tmp``, says which process writes it (see ``folder_writer._writer_alive``).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
    except BaseException as exc:
        _give_up(tmp, path, exc)
    return tmp


def move_into_place(tmp: Path, path: Path) -> None:
    """Rename a written temporary file to ``path`` (atomic); on failure it is removed, as ``atomic_write`` says."""
    try:
        os.replace(tmp, path)
    except BaseException as exc:
        _give_up(tmp, path, exc)


def _give_up(tmp: Path, path: Path, exc: BaseException) -> NoReturn:
    with contextlib.suppress(OSError):
        tmp.unlink(missing_ok=True)
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        raise ResultWriteError(f"could not write {path}: {reason}; nothing half-written was kept") from exc
    raise exc
