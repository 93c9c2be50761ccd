"""The lock of a result folder: one run or compaction at a time, and a refused one touches nothing.

``folder_lock`` holds an flock on ``LOCK`` (see its docstring); ``make_folders`` and ``remove_empty`` let a run
that is refused remove exactly the folders it made itself, never one another process made an instant before.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from simlab.run.errors import FolderInUse, ResultFolderError

LOCK = ".simlab.lock"


@contextlib.contextmanager
def folder_lock(folder: Path, what: str) -> Iterator[None]:
    """Hold the exclusive lock of result ``folder`` for ``what``, or refuse at once if another holder has it.

    An flock on ``LOCK``: the kernel drops it when its process dies, so a killed holder leaves no stale lock.
    The file stays (unlinking it would let two processes lock two different files); a lock taken on a file
    that was unlinked or replaced between its open and its flock is given up and taken again on the file the
    path names, so two holders never lock two files. It names the holder's pid while it is held, for the
    refusal message (best effort: on a full disk the note is not written, the lock holds all the same). flock
    is per open file, so a second lock taken in the same process is refused too.
    """
    import fcntl  # Linux and macOS

    path = Path(folder) / LOCK
    for _attempt in range(100):
        fd = _lock_fd(folder, path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise FolderInUse(
                f"result folder {folder} is in use: {holder} holds its lock ({path}); {what} cannot work on it "
                "at the same time: wait until that process finishes (or stop it), then try again"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        if _names_file(path, fd):
            break
        os.close(fd)  # the file was unlinked or replaced meanwhile: lock the one the path names now
    else:
        raise ResultFolderError(f"cannot lock result folder {folder}: its lock file {path} keeps being replaced")
    try:
        with contextlib.suppress(OSError):  # a full disk: the pid note is lost, not the lock
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()} ({what})\n".encode(), 0)
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # releases the flock


def _lock_fd(folder: Path, path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ResultFolderError(f"cannot lock result folder {folder}: {exc.strerror or exc}") from None


def _names_file(path: Path, fd: int) -> bool:
    """Whether ``path`` still names the open file ``fd`` (the same inode on the same device)."""
    try:
        on_disk, held = os.stat(path), os.fstat(fd)
    except OSError:
        return False
    return (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)


def make_folders(target: Path) -> list[Path]:
    """Make ``target`` and its missing parents; returns the folders this call made (outermost first).

    Each level is made with one ``mkdir`` that fails if it exists, so a folder another process made in the
    same instant is never counted as ours (and never removed by ``remove_empty``).
    """
    missing = [d for d in (*reversed(target.parents), target) if not d.is_dir()]
    made = []
    for d in missing:
        try:
            d.mkdir()
        except FileExistsError:
            if not d.is_dir():
                remove_empty(made)
                raise ResultFolderError(f"cannot create output folder {target.parent}: {d} is a file") from None
        except OSError as exc:
            remove_empty(made)
            raise ResultFolderError(f"cannot create output folder {target.parent}: {exc.strerror or exc}") from None
        else:
            made.append(d)
    return made


def remove_empty(folders: list[Path]) -> None:
    """Remove the folders a refused run created (innermost first), if they are still empty."""
    for d in reversed(folders):
        with contextlib.suppress(OSError):
            d.rmdir()
