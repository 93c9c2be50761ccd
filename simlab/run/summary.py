"""The old name of :mod:`simlab.run.first_look` (the first look ``simlab run`` prints), kept importable."""

from simlab.run.first_look import MAX_VARIANTS, first_look_lines, manifest_games

summary_lines = first_look_lines

__all__ = ["MAX_VARIANTS", "first_look_lines", "manifest_games", "summary_lines"]
