"""Errors users see: each names what was wrong and what is allowed, so the CLI can print it plainly."""


class SimlabError(Exception):
    """Base class of every error simlab raises on purpose (the CLI prints these without a traceback)."""


class ConfigError(SimlabError, ValueError):
    """A config key, value or preset is unknown, of the wrong type or out of range."""


class DataFileError(ConfigError):
    """A game's data file (a table, a map, a board) is malformed: the message names the file, the row, hex or
    space, the field and what is allowed, so a designer can fix the file without reading code."""


class UnknownGameError(SimlabError, KeyError):
    """A game id that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class BotSpecError(SimlabError, ValueError):
    """A bot spec string names an unknown bot or parameter, or has a malformed value."""


class IllegalActionError(SimlabError, ValueError):
    """An action that is not in ``legal_actions()`` for the decision at hand; the state is unchanged."""


class PositionError(SimlabError, ValueError):
    """A position description (``simlab.core.position``) names an unknown thing, breaks a component total
    or asks for an impossible count; the message names the field and what is allowed."""


class NotAvailableError(SimlabError):
    """An analysis the game does not declare (a fact role, an intervention): "not available for this game".
    Expected, not a failure: the CLI prints the message and exits 0; a report lists it as not covered; a
    notebook shows the message alone, without a traceback."""

    def _render_traceback_(self) -> list[str]:
        """IPython/Jupyter show this instead of a traceback."""
        return [str(self)]
