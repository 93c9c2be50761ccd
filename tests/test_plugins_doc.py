"""docs/plugins.md runs as printed: its python blocks in order (a block starting ``# file: NAME.py`` is saved
to that file on the import path first), and its pyproject snippets name the entry-point groups simlab reads."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "plugins.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(), re.S)


def test_the_python_blocks_run_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import simlab

    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(ROOT)
    registry = simlab.get_game("massilia").bots
    monkeypatch.setattr(registry, "_infos", dict(registry._infos))  # the doc's bot leaves with the test
    namespace: dict = {}
    ran = 0
    for code in blocks("python"):
        first = code.splitlines()[0]
        if first.startswith("# file: "):
            (tmp_path / first.removeprefix("# file: ").strip()).write_text(code)
            continue
        exec(compile(code, f"{DOC.name} block", "exec"), namespace)
        ran += 1
    sys.modules.pop("my_bots", None)
    out = capsys.readouterr().out
    assert ran >= 2
    assert "seats: 0=miser:spend_above=8, 1=trader" in out
    assert re.search(r"^Pig winners: \[[01]\] after \d+ decisions$", out, re.M)


def test_the_entry_point_snippets_use_the_groups_simlab_reads() -> None:
    from simlab.core import bots, registry

    groups = {}
    for snippet in blocks("toml"):
        for group, entries in tomllib.loads(snippet)["project"]["entry-points"].items():
            groups[group] = entries
    assert set(groups) == {"simlab.bots", "simlab.games"}
    for group, module in (("simlab.bots", bots), ("simlab.games", registry)):
        assert f'group="{group}"' in Path(module.__file__).read_text()
    assert all(re.fullmatch(r"\w+\.\w+", name) for name in groups["simlab.bots"])  # <game>.<bot>
    assert all(":" in target for entries in groups.values() for target in entries.values())


def test_the_readme_points_to_the_user_docs() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in ("docs/plugins.md", "docs/design.md"):
        assert f"]({page})" in readme
