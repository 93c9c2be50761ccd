"""simlab: Monte Carlo balance analysis for tabletop games.

The library surface a notebook uses: ``simlab.get_game(name)`` for the game contract,
``simlab.run_scenario(path)`` to play an experiment into a result folder, and
``simlab.load_results(folder)`` for a polars LazyFrame over it. The runner functions load lazily (on
first use), so ``import simlab`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simlab.core.errors import SimlabError
from simlab.core.registry import available_games, get_game

if TYPE_CHECKING:
    from pathlib import Path

    from simlab.run import load_manifest, load_results, load_scenario

__version__ = "0.1.0"

__all__ = [
    "SimlabError",
    "__version__",
    "available_games",
    "get_game",
    "load_manifest",
    "load_results",
    "load_scenario",
    "run_scenario",
]

_RUNNER = ("load_results", "load_manifest", "load_scenario")


def run_scenario(scenario: Any, **options: Any) -> Path:
    """Play a scenario into a result folder (``simlab.run.runner.run_scenario``, whose options it takes),
    handing the run simlab's per-chunk digests so that reports of millions of games build fast. A scenario with
    ``until = "settled"``, or ``until="settled"`` (``tolerance`` in points of win share, ``max_games`` per
    variant), plays until its verdicts are settled (``simlab.experiments.settle``)."""
    from simlab.analysis.digest import TARGET
    from simlab.experiments.settle import run_scenario as run

    if "summaries" not in options:  # the digest hook's old name, still accepted
        options.setdefault("digest_hook", TARGET)
    return run(scenario, **options)


def __getattr__(name: str) -> Any:
    if name in _RUNNER:
        import simlab.run

        return getattr(simlab.run, name)
    raise AttributeError(f"module 'simlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API (what ``simlab.<tab>`` offers in a notebook), not the module's imports."""
    return sorted({*__all__, "analysis", "core", "report", "run"})
