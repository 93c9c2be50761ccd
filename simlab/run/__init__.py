"""Running experiments: scenario files, the chunked parallel runner and the result folder.

``run_scenario(path)`` plays a scenario into a result folder and returns its path; ``load_results(folder)``
gives a polars LazyFrame over it; ``compact_results(folder)`` merges its part files into few large ones. They
are what the CLI calls, so a notebook gets the same behaviour.
Heavy modules (joblib, pyarrow, polars) load only when these functions are first used.
"""

from __future__ import annotations

from typing import Any

from simlab.run.errors import ResultFolderError, ResultWriteError, RunFailed, RunInterrupted, ScenarioError

__all__ = [
    "ResultFolderError",
    "ResultWriteError",
    "RunFailed",
    "RunInterrupted",
    "ScenarioError",
    "compact_results",
    "load_manifest",
    "load_results",
    "load_scenario",
    "run_scenario",
]

_LAZY = {
    "run_scenario": "simlab.run.runner",
    "compact_results": "simlab.run.compact",
    "load_results": "simlab.run.reader",
    "load_manifest": "simlab.run.reader",
    "load_scenario": "simlab.run.scenario",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'simlab.run' has no attribute {name!r}")
