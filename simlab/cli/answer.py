"""An analysis command's answer, built once and printed by one emitter as text, ``--json`` or ``--csv``.

A command builds an :class:`Answer` (its tables, its text lines, what is not available and why, the fields of
its JSON envelope, its chart) and hands it to :func:`emit`; no command writes its own JSON or CSV. The JSON is
the envelope of ``simlab.analysis.export`` (docs/analysis.md, "JSON output"); the CSV is the first table present.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from simlab.core.errors import NotAvailableError

#: what the command was asked for: "json", "csv" or None (text)
Format = str | None


@dataclass
class Answer:
    """What a command answers, in every form it can be printed in.

    - ``lines``: the text answer as read, in order: its tables as text, sentences, a not-available reason where
      it belongs, the method, ``answer:`` and ``next:`` lines; or a function giving them, called only when the
      answer is printed as text (so ``--json`` checks no option that only the text reads, as it never did).
    - ``tables``: the same answer as tables (DataFrames or row lists; None = absent); the first present one is
      the CSV.
    - ``not_available``: (analysis, reason) pairs.
    - ``folder``: the result folder the answer was read from (its game, level and units head the JSON), or None
      for an answer that played its own games (``fields`` then say everything before the tables).
    - ``fields``: the command's own envelope fields, in order.
    - ``chart``: a function that draws the figure, or the reason there is none.
    - ``document``: a function giving the JSON of a command whose ``--json`` predates the envelope and keeps its
      shape for the scripts that read it (``simlab games --json``: a list); None = the envelope.
    """

    command: str
    lines: list[str] | Callable[[], list[str]] = field(default_factory=list)
    tables: dict[str, Any] = field(default_factory=dict)
    not_available: list[tuple[str, str]] = field(default_factory=list)
    folder: str | Path | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    chart: Callable[[], Any] | str | None = None
    document: Callable[[], Any] | None = None

    @classmethod
    def unavailable(cls, command: str, folder: str | Path, analysis: str, reason: str) -> Answer:
        """The answer of an analysis the game does not declare: the reason, no table (exit 0, not an error)."""
        return cls(command, [reason], not_available=[(analysis, reason)], folder=folder)

    def payload(self) -> Any:
        """The answer as the JSON envelope's object (or its own ``document``)."""
        from simlab.analysis.export import envelope, folder_fields

        if self.document is not None:
            return self.document()

        head = self.fields if self.folder is None else folder_fields(self.folder, **self.fields)
        return envelope(self.command, head, self.tables, self.not_available)

    def text(self) -> list[str]:
        """The answer's lines of text."""
        return self.lines() if callable(self.lines) else self.lines

    def main_table(self) -> Any:
        """The first table present: what ``--csv`` prints."""
        return next((t for t in self.tables.values() if t is not None), None)


def answer_or_reason(command: str, folder: str | Path, analysis: str, build: Callable[[], Answer]) -> Answer:
    """``build()``'s answer, or, when the game does not declare what ``analysis`` needs, the answer saying why."""
    try:
        return build()
    except NotAvailableError as exc:
        return Answer.unavailable(command, folder, analysis, str(exc))


def emit(answer: Answer, fmt: Format, chart_path: str | None = None) -> None:
    """Print ``answer`` as text (stdout), JSON (one object) or CSV (its main table; reasons on stderr), then draw
    its chart into ``chart_path`` (its ``chart:`` line on stderr when stdout holds JSON or CSV)."""
    if fmt is None:
        for line in answer.text():
            click.echo(line)
    elif fmt == "csv":
        for _, reason in answer.not_available:
            click.echo(reason, err=True)
        table = answer.main_table()
        if table is not None:
            click.echo(csv_text(table), nl=False)
    else:
        from simlab.analysis.export import dumps

        click.echo(dumps(answer.payload()))
    if chart_path and answer.chart is not None:
        draw_chart(answer.chart, chart_path, fmt)


def draw_chart(chart: Callable[[], Any] | str, path: str, fmt: Format) -> None:
    """Save the figure ``chart()`` draws into ``path`` and say where; a string says why there is no chart."""
    if isinstance(chart, str):
        click.echo(f"no chart: {chart}", err=bool(fmt))
        return
    from simlab.report import charts

    click.echo(f"chart: {charts.save(chart(), path)}", err=bool(fmt))  # with --json or --csv, stdout holds the answer


def csv_text(df: Any) -> str:
    """A table as CSV; list, struct and object cells as their text."""
    import polars as pl

    nested = [c for c, t in df.schema.items() if isinstance(t, pl.List | pl.Array | pl.Struct | pl.Object)]
    flat = df.with_columns(pl.col(c).map_elements(str, return_dtype=pl.String) for c in nested) if nested else df
    return flat.write_csv()
