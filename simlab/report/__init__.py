"""Charts and the HTML balance report.

- ``simlab.report.charts``: one function per chart, ``(data, ax=None) -> Figure``, fed by ``simlab.analysis``.
- ``write_report(folder, out=None)``: the self-contained HTML report of a result folder (``simlab report``);
  ``build_report(folder)`` gives its content (findings, tables, charts) without writing anything.

The report modules load on first use, so ``import simlab.report.charts`` does not pull in Jinja2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simlab.report.build import build_report
    from simlab.report.html import write_report

__all__ = ["build_report", "write_report"]

_LAZY = {"build_report": "simlab.report.build", "write_report": "simlab.report.html"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'simlab.report' has no attribute {name!r}")
