"""Errors of the runner: each says what was wrong and what to do, so the CLI prints them without a traceback."""

from __future__ import annotations

from simlab.core.errors import SimlabError


class ScenarioError(SimlabError, ValueError):
    """A scenario file is missing, not valid TOML, or holds a key of the wrong type or value."""


class ResultFolderError(SimlabError):
    """The output folder cannot be used: it is a file, not writable, or holds other results."""


class FolderInUse(ResultFolderError):
    """Another process (a run, a compaction) holds the result folder's lock: nothing of its is touched."""


class ResultWriteError(SimlabError, OSError):
    """A result file could not be written (full disk, permissions); nothing half-written is left behind."""


class RunFailed(SimlabError):
    """A run stopped early (``--fail-fast`` after a failing game, or a worker that died)."""


class RunInterrupted(SimlabError):
    """The user interrupted a run (Ctrl-C); the games finished so far are kept for ``--resume``."""


class BackendError(SimlabError):
    """A cluster backend cannot be used: its extra is not installed, or its scheduler cannot be reached."""


class WorkerMismatch(SimlabError):
    """A worker runs another simlab or rules version than the run's main process (its rows would differ)."""
