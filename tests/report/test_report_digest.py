"""A report built from the chunks' digests reads exactly like one built by scanning the rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from simlab.analysis.digest import load_digest
from simlab.report import context
from simlab.report.build import build_report
from simlab.report.model import Report
from simlab.report.sections import markets

#: sections a report draws from the rows either way: their charts' last digits can differ between two builds
#: in one process (polars adds floats in an order that depends on its threads), their text may not
FROM_ROWS = {"cards"}


def _content(report: Report) -> list:
    """What a reader sees: every finding, table cell and chart (caption and drawing), section by section."""
    out: list = [[f.text for f in report.headlines], report.not_covered]
    for s in report.sections:
        charts = [(c.title, c.caption, "" if s.id in FROM_ROWS else c.src) for c in s.charts]
        out.append(
            [
                s.id,
                [f.text for f in s.findings],
                [(t.title, t.header, t.rows, t.note) for t in s.tables],
                charts,
                s.notes,
            ]
        )
    return out


@pytest.mark.parametrize("fixture", ["quick_folder", "cards_folder", "roma_folder"])
def test_report_from_digests_is_the_report_from_rows(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, fixture: str
) -> None:
    folder: Path = request.getfixturevalue(fixture)
    assert load_digest(folder) is not None  # the run's workers wrote them
    from_digests = build_report(folder)
    monkeypatch.setattr(context, "load_digest", lambda *args, **kwargs: None)
    from_rows = build_report(folder)
    a, b = _content(from_digests), _content(from_rows)
    for x, y in zip(a, b, strict=True):  # section by section, so a failure names the section
        assert x == y


def test_report_uses_the_digest_instead_of_the_rows(quick_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a digest, the per-variant analyses never run their row scans."""
    from simlab import analysis

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("scanned the rows although the folder has digests")

    for name in ("seat_advantage", "game_metrics", "variance_decomposition", "distribution"):
        monkeypatch.setattr(analysis, name, refuse)
    monkeypatch.setattr(markets, "market_summary", refuse)
    monkeypatch.setattr(context, "bots_label", refuse)
    report = build_report(quick_folder)
    assert {s.id for s in report.sections} >= {"seats", "markets", "balance"}
