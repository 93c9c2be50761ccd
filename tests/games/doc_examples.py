"""The "Setting up a position" examples of a game's docs page, run as printed (shared by the games' doc tests)."""

from __future__ import annotations

import re
from pathlib import Path


def position_examples(doc: Path) -> list[str]:
    """The python blocks of the page's "Setting up a position" section, in order."""
    section = doc.read_text().split("## Setting up a position", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def run_position_examples(doc: Path, capsys, first_output: str) -> None:
    """Run the first example alone (its output must start with ``first_output``), then all of them in turn."""
    first, *more = position_examples(doc)
    exec(compile(first, f"{doc.name} example", "exec"), {})
    assert capsys.readouterr().out.startswith(first_output)
    exec(compile("\n".join([first, *more]), f"{doc.name} examples", "exec"), {})
