"""The user-facing pages open with what the user does; dated measurements sit in their own last section, and
nothing says "last session" or "the next night" (issue 17, item 8)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
UNDATED = re.compile(r"last session|next night|this session|the previous session", re.I)


def test_report_page_opens_with_the_command_and_ends_with_its_measurements() -> None:
    text = (DOCS / "report.md").read_text()
    opening = text.split("\n## ", 1)[0]
    assert "`simlab report RESULTS_DIR" in opening and "```sh" in opening
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert sections[-1] == "Measurements"
    before = text.split("\n## Measurements\n", 1)[0]
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", before), "a dated measurement outside the Measurements section"


@pytest.mark.parametrize("page", ["report.md", "design.md", "plugins.md"])
def test_user_pages_carry_no_session_talk(page: str) -> None:
    assert not UNDATED.search((DOCS / page).read_text())


def test_design_page_links_stay_inside_the_clone() -> None:
    text = (DOCS / "design.md").read_text()
    assert "../shared" not in text
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert (DOCS / target).exists(), f"design.md links {target}, which is not in docs/"
