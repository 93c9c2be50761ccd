"""The failure a contract check raises: an AssertionError (so pytest shows it as a failed test) that names the
game and the check, and survives ``python -O`` (the checks never use ``assert``)."""

from __future__ import annotations


class ContractFailure(AssertionError):
    """A game breaks the simlab game contract; the message says which check, where, and what to fix."""


def expect(condition: object, message: str) -> None:
    """Raise :class:`ContractFailure` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise ContractFailure(message)
