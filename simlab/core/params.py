"""A compiled bot's parameters, declared once: names, their order in the vector and what each means.

``PARAMS = ParamLayout(money_value="points per sesterce held", token_cost="points a penalty token costs")``
gives the compiled policy its plain-int slots (``P_MONEY = PARAMS.index("money_value")``: numba freezes them
as constants) and a bot's defaults set by name (``TRADER = PARAMS.values(money_value=0.45, token_cost=2.5)``),
every parameter given once, so a value can never land in a neighbour's slot. The dict it returns is in
vector order, which is how :class:`simlab.core.bots.BotRegistry` builds the vector and a manifest names it.

A game with several heuristic bots over one vector declares them as one table, a row per parameter and a
column per bot, so each name is written once and the bots' values stand side by side::

    PARAMS = ParamLayout.table('''
        parameter    trader  priest  meaning
        money_value  0.45    0.45    points per sesterce held
        token_cost   2.5     3.0     points a penalty token costs
    ''')
    TRADER, PRIEST = PARAMS.defaults("trader", "priest")
"""

from __future__ import annotations

from collections.abc import Mapping

from simlab.core.suggest import did_you_mean


class ParamLayout:
    """The parameters of a game's compiled bots, in vector order, each with a line saying what it means."""

    def __init__(self, **docs: str):
        if not docs:
            raise ValueError("a ParamLayout needs at least one parameter")
        for name, doc in docs.items():
            if not isinstance(doc, str) or not doc.strip():
                raise ValueError(f"bot parameter {name!r}: say in a few words what it means")
        self._docs = dict(docs)
        self.names: tuple[str, ...] = tuple(docs)
        self._bots: dict[str, dict[str, float]] = {}

    @classmethod
    def table(cls, text: str) -> ParamLayout:
        """The layout and its bots' defaults from a text table: a header ``parameter BOT... meaning``, then a
        row per parameter in vector order: its name, one number per bot, and what it means (the rest of the
        line; a line indented deeper than the header goes on with the row above's meaning). Read the bots'
        values with :meth:`defaults`."""
        lines = [line for line in text.splitlines() if line.strip()]
        header = lines[0].split() if lines else []
        if len(header) < 3 or header[0] != "parameter" or header[-1] != "meaning":
            raise ValueError("a parameter table starts with the header 'parameter BOT... meaning'")
        indent = len(lines[0]) - len(lines[0].lstrip())
        bots = header[1:-1]
        docs: dict[str, str] = {}
        columns: list[list[float]] = [[] for _ in bots]
        for line in lines[1:]:
            if len(line) - len(line.lstrip()) > indent and docs:
                name = next(reversed(docs))
                docs[name] = f"{docs[name]} {line.strip()}"
                continue
            row = line.split()
            name, numbers, doc = row[0], row[1 : 1 + len(bots)], " ".join(row[1 + len(bots) :])
            if name in docs:
                raise ValueError(f"bot parameter {name!r} is declared twice")
            try:
                values = [float(x) for x in numbers]
            except ValueError:
                values = []
            if len(values) != len(bots):
                raise ValueError(f"bot parameter {name!r}: one number per bot ({', '.join(bots)}), then what it means")
            docs[name] = doc
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        layout = cls(**docs)
        for bot, column in zip(bots, columns, strict=True):
            layout._bots[bot] = dict(zip(layout.names, column, strict=True))
        return layout

    def defaults(self, *bots: str) -> tuple[dict[str, float], ...]:
        """The parameters of the table's bots ``bots`` (columns of :meth:`table`), each in vector order."""
        for bot in bots:
            if bot not in self._bots:
                hint = did_you_mean(bot, tuple(self._bots))
                declared = ", ".join(self._bots) or "none (not declared as a table)"
                raise ValueError(f"no bot column {bot!r}" + (f" ({hint})" if hint else "") + f"; declared: {declared}")
        return tuple(dict(self._bots[bot]) for bot in bots)

    def __len__(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """The slot of ``name`` in the parameter vector (the constant the compiled policy reads)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(self._unknown(name)) from None

    def indices(self, *names: str) -> tuple[int, ...]:
        """The slots of several parameters, in the order named (``P_A, P_B = PARAMS.indices("a", "b")``)."""
        return tuple(self.index(name) for name in names)

    def doc(self, name: str) -> str:
        """What parameter ``name`` means."""
        self.index(name)
        return self._docs[name]

    @property
    def docs(self) -> Mapping[str, str]:
        return dict(self._docs)

    def values(self, fill: float | None = None, /, **given: float) -> dict[str, float]:
        """A bot's parameters by name, in vector order. Every parameter must be given, unless ``fill`` is:
        then the ones not given take it (``PARAMS.values(0.0, god_first=1.0)``)."""
        unknown = [name for name in given if name not in self._docs]
        if unknown:
            raise ValueError(self._unknown(unknown[0]))
        missing = [name for name in self.names if name not in given]
        if missing and fill is None:
            raise ValueError(f"bot parameters missing: {', '.join(missing)} (give every one, or a fill value)")
        return {name: float(given[name]) if name in given else float(fill) for name in self.names}  # type: ignore[arg-type]

    def _unknown(self, name: str) -> str:
        hint = did_you_mean(name, self.names)
        return f"no bot parameter {name!r}" + (f" ({hint})" if hint else "") + f"; declared: {', '.join(self.names)}"

    def __repr__(self) -> str:
        return f"ParamLayout({', '.join(self.names)})"


__all__ = ["ParamLayout"]
