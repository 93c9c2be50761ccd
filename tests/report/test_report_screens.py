"""One report per game in a real browser at a 1280-px window (issue 32, "What it must show"): a small run of
each game's shipped scenario becomes a report, headless Chromium opens it, a screenshot is kept in
test-artifacts/report_<game>.png, and nothing runs off the page: the page has no horizontal scroll, and no table
or code block is wider than its box (one scrolling sideways inside its box hides its columns from the reader).

Skipped, saying why, when Chromium cannot be installed (the ``chromium`` fixture of test_report_browser)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from cdp import Browser
from test_report_browser import ARTIFACTS, ROOT, browser, chromium  # noqa: F401  (the browser fixtures)

import simlab
from simlab.report import build_report, write_report
from simlab.report.html import render
from simlab.report.model import Table

#: a shipped scenario per game, played small: the game's own question, its own words and charts
SCENARIOS = {
    "massilia": "market_shifts.toml",
    "roma": "roma_seats.toml",
    "pantheon": "pantheon_seats.toml",
    "merchant_of_venus": "mov_market_shifts.toml",
}
GAMES_PER_VARIANT = 40
WINDOW = 1280

LAYOUT = """JSON.stringify({
  page: document.documentElement.scrollWidth,
  body: document.body.scrollWidth,
  window: window.innerWidth,
  tables: [...document.querySelectorAll('table')].map(t => ({
    width: Math.ceil(t.getBoundingClientRect().width), room: t.parentElement.clientWidth,
    columns: t.rows[0].cells.length, first: t.rows[0].cells[0].innerText,
    second: t.rows[0].cells.length > 1 ? t.rows[0].cells[1].innerText : ''})),
  images: [...document.querySelectorAll('img')].map(i => Math.ceil(i.getBoundingClientRect().right)),
  hidden: [...document.querySelectorAll('pre, .tablewrap')].filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => e.tagName + ': ' + e.innerText.slice(0, 60)),
  text: document.body.innerText,
})"""
#: what a sentence must never print: "p = <1e-12", or a signed zero ("−0.0", "-0.00")
MISWRITTEN = re.compile(r"p = <|(?<![\w.])[−-]0\.0+(?![\d])")


@pytest.fixture(scope="module")
def game_folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("screens")
    return {
        game: simlab.run_scenario(
            ROOT / "scenarios" / name, games=GAMES_PER_VARIANT, jobs=1, out=base / game, progress=False
        )
        for game, name in SCENARIOS.items()
    }


def _layout(b: Browser, page: Path, shot: Path | None = None) -> dict:
    b.load(page)
    if shot is not None:
        b.screenshot(shot, width=WINDOW)
        b.send("Emulation.clearDeviceMetricsOverride")
        b.load(page)
    b.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; }); 0")
    return json.loads(b.evaluate(LAYOUT))


def _check_fits(layout: dict, what: str) -> None:
    assert layout["window"] == WINDOW
    assert layout["page"] <= WINDOW and layout["body"] <= WINDOW, f"{what} scrolls sideways: {layout}"
    for t in layout["tables"]:
        assert t["width"] <= t["room"], f"{what}: a table of {t['columns']} columns runs off its box: {t}"
    assert max(layout["images"], default=0) <= WINDOW
    assert layout["hidden"] == [], f"{what}: text runs off its box (a scroll bar hides it): {layout['hidden']}"
    assert not MISWRITTEN.findall(layout["text"]), f"{what} prints {MISWRITTEN.findall(layout['text'])}"


@pytest.mark.parametrize("game", list(SCENARIOS))
def test_each_game_report_fits_the_window(browser, game_folders, game, tmp_path):  # noqa: F811
    page = write_report(game_folders[game], tmp_path / f"{game}.html")
    shot = ARTIFACTS / f"report_{game}.png"
    layout = _layout(browser, page, shot)
    _check_fits(layout, f"the {game} report")
    assert shot.stat().st_size > 50_000
    assert simlab.load_manifest(game_folders[game])["game"] == game


def test_a_wide_table_is_folded_to_fit(browser, game_folders, tmp_path):  # noqa: F811
    # the issue: a 49-column table (one column per variant) ran off the page
    report = build_report(game_folders["roma"])
    header = ["seat", *(f"variant_{k:02d}" for k in range(48))]
    rows = [
        [f"seat {s}", *(f"{40 + s + k / 10:.1f} [{38 + s:.1f}, {42 + s:.1f}]" for k in range(48))] for s in range(4)
    ]
    wide = Table("Win share by seat in every variant", header, rows, note="49 columns")
    section = dataclasses.replace(report.sections[0], tables=[*report.sections[0].tables, wide])
    report = dataclasses.replace(report, sections=[section, *report.sections[1:]])
    page = tmp_path / "wide.html"
    page.write_text(render(report), encoding="utf-8")
    layout = _layout(browser, page, ARTIFACTS / "report_wide_table.png")
    _check_fits(layout, "a report with a 49-column table")
    groups = [t for t in layout["tables"] if t["first"] == "seat" and t["second"].startswith("variant_")]
    assert len(groups) >= 4, "the wide table is shown as groups of columns"
    assert sum(t["columns"] - 1 for t in groups) == 48  # every variant's column shown once, each with the seat
    text = page.read_text()
    assert "columns 2–" in text and "of 49" in text
