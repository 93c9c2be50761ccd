"""Files simlab writes because a user named them (``report --out``, ``--chart``): regular files only, never clobbered.

``write_output(path, data, what)`` is the one way such a file is written:

- ``-`` means standard output (where the caller allows it);
- a symlink is written through: its target gets the new content and the link stays a link;
- an existing path that is not a regular file (a directory, a device such as ``/dev/full`` or
  ``/dev/stdout``, a FIFO, a socket) is refused, so nothing but a file is ever replaced;
- the content goes to a temporary file beside the target, is flushed to disk and renamed over it, so the
  target holds the old content or the whole new one; on any failure (a read-only folder, a full disk) the
  temporary file is removed and an ``OutputError`` says what happened.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from simlab.core.errors import SimlabError

STDOUT = "-"


class OutputError(SimlabError):
    """A file a user asked for cannot be written there (not a regular file, a read-only folder, a full disk)."""


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def output_target(path: str | Path, what: str, allow_stdout: bool = True) -> Path | None:
    """The regular file ``path`` names (a symlink's target), or None for ``-`` (standard output).

    Raises OutputError, before anything is computed or written, for a path that exists and is not a regular
    file, or for ``-`` when ``allow_stdout`` is false. ``what`` names the option in messages (``--out``).
    """
    text = str(path)
    if text == STDOUT:
        if not allow_stdout:
            raise OutputError(f"{what} -: this output cannot go to standard output; give a file path")
        return None
    if not text:
        raise OutputError(f"{what}: expected a file path, found an empty string")
    target = Path(os.path.realpath(path))  # through symlinks: the link's target is written, the link stays
    try:
        st = target.stat()
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise OutputError(f"{what} {path}: cannot use it ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        shown = f"{path} (-> {target})" if str(target) != os.path.abspath(path) else str(path)
        raise OutputError(
            f"{what} {shown} is {_kind(st.st_mode)}; simlab writes only regular files: give a file path"
            + (", or - for standard output" if allow_stdout else "")
        )
    return target


def write_output(path: str | Path, data: bytes, what: str, allow_stdout: bool = True) -> Path | None:
    """Write ``data`` to the file ``path`` names (see the module docstring); returns the file written, or None
    when it went to standard output. Missing parent folders are created."""
    target = output_target(path, what, allow_stdout)
    if target is None:
        out: BinaryIO = sys.stdout.buffer
        out.write(data)
        out.flush()
        return None
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "xb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{what} {path}: cannot write it ({exc.strerror or exc}); nothing was written") from None
        raise
    return target


#: the chart formats simlab writes (``--chart``), by file extension
CHART_FORMATS = ("png", "svg", "pdf")


def check_chart_path(path: str | Path) -> str:
    """The format of the chart file ``path`` names (its extension), or OutputError: an unknown extension, or a
    path that is not a regular file."""
    output_target(path, "--chart", allow_stdout=False)
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in CHART_FORMATS:
        shown = f".{ext}" if ext else "no extension"
        raise OutputError(f"--chart {path}: expected a .png, .svg or .pdf file, found {shown}")
    return ext
