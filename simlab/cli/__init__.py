"""The ``simlab`` command: a thin click group over the library (a notebook calls the same functions).

Heavy modules (numba engines, joblib, polars) are imported inside the commands, so ``simlab --help`` and
``simlab games`` start fast. Every error simlab raises on purpose (a SimlabError) prints as
``error: <message>`` with exit code 2 and no traceback; an interrupted run exits with 130.

The group and its error handling live in ``group``, the shared options in ``options``, every answer's emitter in
``answer`` (builders: ``answers``, ``tool_answers``); each command module
registers its commands on the group when imported here: ``setup_commands`` (games, bots, config, new-game,
new-scenario), ``run_commands`` (run, bench, play, replay, compact, digest, repair, verify),
``analysis_commands`` (seats, compensation, cards, markets, balance, report), ``experiment_commands``
(compensate, compare, robust) and ``fix_commands`` (fix).
"""

from __future__ import annotations

from simlab.cli import analysis_commands, experiment_commands, fix_commands, run_commands, setup_commands
from simlab.cli.group import EXIT_GAMES_FAILED, EXIT_INTERRUPTED, EXIT_USER_ERROR, UserError, cli, main
from simlab.cli.options import split_bots

__all__ = [
    "EXIT_GAMES_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_USER_ERROR",
    "UserError",
    "analysis_commands",
    "cli",
    "experiment_commands",
    "fix_commands",
    "main",
    "run_commands",
    "setup_commands",
    "split_bots",
]
