"""The report in a real browser: headless Chromium loads it, as a designer opening the file would.

Checks: no console errors or exceptions; no network request (only the file itself and its data: charts);
every chart image decoded and laid out with a non-zero size; the headline numbers in the page's visible
text; scenario names shown as text, never run as script. A full-page screenshot of each report is kept in
test-artifacts/ (gitignored) to look at.

Chromium is Debian's package; ``make test`` (and this module, when it is missing) runs
``.ci/install-chromium``. The tests skip, saying why, only when it cannot be installed.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polars as pl
import pytest
from cdp import Browser, find_chromium

import simlab
from simlab import analysis as A
from simlab.report import build_report, write_report

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

PAGE_FACTS = """JSON.stringify({
  text: document.body.innerText,
  scripts: document.scripts.length,
  images: [...document.querySelectorAll('img')].map(i => {
    const r = i.getBoundingClientRect();
    return {alt: i.alt, complete: i.complete, natural: [i.naturalWidth, i.naturalHeight], box: [r.width, r.height]};
  }),
  svgs: [...document.querySelectorAll('svg')].map(s => {
    const r = s.getBoundingClientRect(); return {box: [r.width, r.height]};
  }),
})"""


@pytest.fixture(scope="module")
def chromium() -> str:
    path = find_chromium()
    message = ""
    if path is None:
        script = ROOT / ".ci" / "install-chromium"
        done = subprocess.run(["sh", str(script)], capture_output=True, text=True, timeout=900)
        message = (done.stderr or done.stdout).strip()
        path = find_chromium()
    if path is None:
        pytest.skip(f"chromium cannot be installed here, so the report is not checked in a browser: {message}")
    return path


@pytest.fixture(scope="module")
def browser(chromium: str):
    with Browser(chromium) as b:
        yield b


def _open(browser: Browser, page: Path, shot: str) -> dict:
    browser.load(page)
    screenshot = browser.screenshot(ARTIFACTS / shot)  # the page as a reader first sees it
    browser.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; }); 0")
    facts = json.loads(browser.evaluate(PAGE_FACTS))  # every folded part opened, so its text counts
    facts["errors"] = browser.console_errors()
    facts["requests"] = [u for u in browser.requests() if not u.startswith("data:")]
    facts["screenshot"] = screenshot
    return facts


def _check_rendered(facts: dict, page: Path) -> None:
    assert facts["errors"] == [], facts["errors"]
    assert facts["requests"] == [page.resolve().as_uri()], "the report must not fetch anything"
    assert facts["scripts"] == 0
    assert len(facts["images"]) >= 6
    for img in facts["images"]:
        assert img["complete"] and min(img["natural"]) > 0, f"chart not decoded: {img['alt']}"
        assert min(img["box"]) > 50, f"chart laid out with no size: {img['alt']} {img['box']}"
    for svg in facts["svgs"]:
        assert min(svg["box"]) > 0
    assert facts["screenshot"].stat().st_size > 50_000


def test_quick_report_in_chromium(browser, quick_folder, tmp_path):
    page = write_report(quick_folder, tmp_path / "quick.html")
    facts = _open(browser, page, "report-quick.png")
    _check_rendered(facts, page)
    text = facts["text"]
    report = build_report(quick_folder)
    for finding in report.headlines:  # every headline, as the browser shows it
        assert finding.text in text
    # the headline numbers, computed here from the rows: the rulebook's most and least winning seats
    seats = A.seat_advantage(simlab.load_results(quick_folder).filter(pl.col("variant") == "rulebook"))
    for r in (seats.sort("win_share").row(0, named=True), seats.sort("win_share").row(-1, named=True)):
        assert f"{r['win_share'] * 100:.1f} [{r['win_share_lo'] * 100:.1f}, {r['win_share_hi'] * 100:.1f}]" in text
    assert "Flags: results that rest on assumptions" in text and "beige_price" in text
    assert "simlab run " in text and "simlab report " in text


def test_card_report_in_chromium(browser, cards_folder, tmp_path):
    page = write_report(cards_folder, tmp_path / "cards.html")
    facts = _open(browser, page, "report-cards.png")
    _check_rendered(facts, page)
    assert "Most valuable card:" in facts["text"]
    assert "Compensating seat 3 with starting money" in facts["text"]
    # the card answer leads: its question and the most valuable card come before anything on the seats
    text = facts["text"]
    assert text.index("What is one extra card of a kind worth") < text.index("Most valuable card:")
    assert text.index("Most valuable card:") < text.index("Compensating seat 3 with starting money")


def test_escaped_names_render_as_text(browser, quick_folder, tmp_path):
    from test_report import EVIL_VARIANT, _tamper

    folder = _tamper(quick_folder, tmp_path / "evil")
    page = write_report(folder, tmp_path / "evil.html")
    facts = _open(browser, page, "report-escaped.png")
    assert facts["errors"] == [] and facts["scripts"] == 0
    assert facts["requests"] == [page.resolve().as_uri()]  # the <img src=x> bot name fetched nothing
    assert EVIL_VARIANT in facts["text"]
    assert "<img src=x onerror=alert(1)>" in facts["text"]
