"""Reading a game's data files (maps, tables, boards) with bounds, and naming them by their bytes.

A data file is named in a config by a path a designer types, so it may be anything: a folder, a FIFO that
blocks a read for good, a symlink to ``/dev/zero`` that never ends, bytes that are not UTF-8, JSON nested
deep enough to overflow the parser's stack. :func:`read_json` refuses each with a ``DataFileError`` naming
the file, what is wrong and what is allowed, before a byte is parsed. :func:`file_sha256` reads the same
bounded bytes for a run's identity: a data file enters it by its content, not its path (issue 30).
:func:`leaks_as_data_error` is the loaders' last guard: a malformed file whose shape a loader did not foresee
still fails as a ``DataFileError`` naming the file, never as a traceback.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from simlab.core.errors import DataFileError, SimlabError

#: a data file of a board game is kilobytes (the largest shipped one is ~60 KB); anything bigger is a mistake
MAX_DATA_BYTES = 8_000_000
#: JSON nested deeper than this is no table (the shipped files nest 4 deep); Python's parser would recurse
MAX_DEPTH = 64


def read_bytes(path: str | Path, what: str = "data file") -> bytes:
    """The bytes of ``path``, refusing what is not a regular file of at most ``MAX_DATA_BYTES`` bytes."""
    p = Path(path)
    try:
        st = p.stat()  # follows a symlink: a link to /dev/zero is judged by what it points to
    except FileNotFoundError:
        raise DataFileError(f"{p}: no such {what}; give the path of an existing file") from None
    except OSError as exc:
        raise DataFileError(f"{p}: cannot read the {what}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise DataFileError(f"{p}: is a folder; expected a {what} (a .json file)")
    if not stat.S_ISREG(st.st_mode):  # a FIFO blocks a read for good, a device may never end
        raise DataFileError(f"{p}: is not a regular file (a device, FIFO or socket); expected a {what} (a .json file)")
    if st.st_size > MAX_DATA_BYTES:
        raise DataFileError(f"{p}: is {st.st_size:,} bytes; a {what} is at most {MAX_DATA_BYTES:,} bytes")
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, the open does not wait for a writer
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise DataFileError(f"{p}: is not a regular file; expected a {what} (a .json file)")
            data = f.read(MAX_DATA_BYTES + 1)
    except OSError as exc:
        raise DataFileError(f"{p}: cannot read the {what}: {exc.strerror or exc}") from None
    if len(data) > MAX_DATA_BYTES:  # it grew while we looked
        raise DataFileError(f"{p}: is more than {MAX_DATA_BYTES:,} bytes; a {what} is at most that")
    return data


def read_json(path: str | Path, what: str = "data file") -> Any:
    """The JSON document of ``path`` (bounded as :func:`read_bytes`): UTF-8 text, standard JSON (no NaN or
    Infinity), nested at most ``MAX_DEPTH`` deep. Every refusal is a ``DataFileError`` naming the file."""
    p = Path(path)
    data = read_bytes(p, what)
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise DataFileError(
            f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start}); save the {what} as UTF-8 JSON"
        ) from None
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise DataFileError(f"{p}: arrays or objects nested {depth} deep; a {what} nests at most {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{p}: line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg})") from None
    except ValueError as exc:  # _no_constant, or an integer too long for Python to parse
        raise DataFileError(f"{p}: not valid JSON for a {what} ({exc})") from None


def file_sha256(path: str | Path, what: str = "data file") -> str:
    """The SHA-256 of a data file's bytes (bounded as :func:`read_bytes`): what a run's identity holds."""
    return hashlib.sha256(read_bytes(path, what)).hexdigest()


@contextlib.contextmanager
def leaks_as_data_error(path: str | Path, what: str = "data file") -> Iterator[None]:
    """Turn an error a loader did not foresee (a value of a type its checks assumed away, a number too big for
    an array) into a ``DataFileError`` naming the file; a ``SimlabError`` passes as it is."""
    try:
        yield
    except SimlabError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise DataFileError(
            f"{path}: not a valid {what}: a field holds a value of the wrong type or size "
            f"({type(exc).__name__}: {str(exc)[:120]}); see the file format in the game's docs"
        ) from None


#: resolved path -> (device, inode, size, mtime) of a data file when a loader last looked (this process)
_SEEN: dict[str, tuple[int, int, int, int]] = {}


def changed_since_seen(paths: Iterable[str | Path]) -> bool:
    """Whether any of ``paths`` changed on disk since this process last asked (a file first seen has not): a game
    drops its cached tables then, so a long-lived process (a notebook, a reused worker) never plays stale ones."""
    changed = False
    for path in paths:
        p = Path(path)
        try:
            st = p.stat()
        except OSError:
            continue  # the loader says what is wrong with it
        key, stamp = str(p.resolve()), (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        changed |= _SEEN.get(key, stamp) != stamp
        _SEEN[key] = stamp
    return changed


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number; write a finite number")


def _depth(text: str) -> int:
    """How deep arrays and objects nest in JSON ``text`` (brackets inside strings not counted)."""
    deepest = depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
