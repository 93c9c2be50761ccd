"""The ``simlab`` click group: how errors, warnings and interrupts reach the user, and the entry point."""

from __future__ import annotations

import contextlib
import math
import warnings
from typing import Any

import click

import simlab
from simlab.core.errors import NotAvailableError, SimlabError

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_GAMES_FAILED = 1
#: longest error message shown (the rest is cut: a message may quote a bad value of megabytes)
MAX_MESSAGE = 2_000


class UserError(click.ClickException):
    """A SimlabError shown the simlab way: ``error: <message>`` on stderr, no traceback."""

    def __init__(self, message: str, exit_code: int = EXIT_USER_ERROR):
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file: Any = None) -> None:
        message = self.format_message()
        if len(message) > MAX_MESSAGE:  # a message that quotes a huge bad value
            message = f"{message[:MAX_MESSAGE]}... (message cut: {len(message):,} characters)"
        click.echo(f"error: {message}", err=True)


class FiniteFloatRange(click.FloatRange):
    """A float option in a range that also refuses nan and inf (click's range lets nan through, since every
    comparison with nan is false: ``--width nan`` made the seat search play to --max-games)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"expected a finite number, found {value!r}", param, ctx)
        return number


class SimlabGroup(click.Group):
    """Turns SimlabErrors raised by any command into UserErrors."""

    def invoke(self, ctx: click.Context) -> Any:
        from simlab.run.errors import RunInterrupted

        warnings.showwarning = _show_warning
        try:
            return super().invoke(ctx)
        except RunInterrupted as exc:
            raise UserError(str(exc), EXIT_INTERRUPTED) from None
        except KeyboardInterrupt:  # outside a run's chunks (a run turns its own into RunInterrupted)
            raise UserError("interrupted", EXIT_INTERRUPTED) from None
        except NotAvailableError as exc:  # the game does not declare what the analysis needs: not an error
            click.echo(str(exc))
            return None
        except SimlabError as exc:
            raise UserError(str(exc)) from None


_PYTHON_SHOWWARNING = warnings.showwarning


def _show_warning(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
    """simlab's own warnings (a file left out of a result folder...) as ``warning: <message>`` on stderr."""
    if category.__module__.startswith("simlab."):
        click.echo(f"warning: {message}", err=True)
    else:
        _PYTHON_SHOWWARNING(message, category, *args, **kwargs)


# -- commands ---------------------------------------------------------------------------------------
@click.group(cls=SimlabGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(simlab.__version__, prog_name="simlab")
def cli() -> None:
    """simlab: balance questions about tabletop games, answered by millions of seeded games between bots.

    \b
    Start with:
      simlab games                              the games simlab knows
      simlab bots massilia                      the bots of a game
      simlab config massilia                    its config knobs, defaults and their provenance
      simlab new-scenario massilia -o my.toml   a commented scenario to edit and run
      simlab play massilia --seed 7             one game, narrated
      simlab run scenarios/quickstart.toml      an experiment, into results/quickstart
      simlab bench massilia                     how fast a game plays
    """


def main() -> None:
    """Entry point of the ``simlab`` script.

    Once the command is done, Ctrl-C is ignored: a late one (as a run finishes) would otherwise interrupt
    the interpreter's shutdown (joblib's worker clean-up, atexit hooks) into "Exception ignored …
    KeyboardInterrupt" tracebacks, with the results already complete.
    """
    try:
        cli(prog_name="simlab")
    finally:
        _ignore_interrupts()


def _ignore_interrupts() -> None:
    import signal

    with contextlib.suppress(ValueError):  # not the main thread: nothing to do
        signal.signal(signal.SIGINT, signal.SIG_IGN)
