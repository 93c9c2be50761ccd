"""The layers, read from the source (ast, no import): ``analysis`` is pure (rows or digests in, estimates out):
it plays no game and imports no runner; the loops that play games to answer a question live in
``simlab.experiments`` (docs/experiments.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import simlab

ROOT = Path(simlab.__file__).parent
#: what analysis may read from ``simlab.run``: result folders (their rows, manifest, digests, panel.json)
FOLDER_READERS = {"store", "errors", "rehash", "folder_check", "panel_folder"}
#: names that play games or run scenarios: calling or importing any of them is playing
PLAYERS = {
    "play_batch",
    "play_config",
    "play_vector",
    "play_offset",
    "run_scenario",
    "run_panel",
    "Trials",
    "game_seeds",
}


def imports_and_names(path: Path) -> tuple[list[str], set[str]]:
    """Every module ``path`` imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``), and every name it
    imports, calls or reads as an attribute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: list[str] = []
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
    return modules, names


def violations(path: Path) -> list[str]:
    modules, names = imports_and_names(path)
    bad = [m for m in modules if m.startswith("simlab.experiments") or m == "simlab.experiments"]
    for m in modules:
        parts = m.split(".")
        if parts[:2] == ["simlab", "run"] and len(parts) > 2 and parts[2] not in FOLDER_READERS:
            bad.append(m)
        if m.split(".")[-1] in PLAYERS:
            bad.append(m)
    bad += sorted(names & PLAYERS)
    return sorted(set(bad))


def test_analysis_plays_no_game_and_imports_no_runner():
    found = {p.name: v for p in sorted((ROOT / "analysis").glob("*.py")) if (v := violations(p))}
    assert found == {}, f"analysis modules that play games or import a runner: {found}"


def test_the_check_sees_a_module_that_plays(tmp_path):
    """The check is not vacuous: the modules that left analysis for experiments would fail it."""
    for name in ("fair_vector", "adaptive", "what_if", "panel"):
        assert violations(ROOT / "experiments" / f"{name}.py"), name
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import simlab\n\ndef f(game, cfg, seeds, bots):\n    return game.play_batch(cfg, seeds, bots)\n")
    assert violations(sneaky) == ["play_batch"]
    runner = tmp_path / "runner.py"
    runner.write_text("def f():\n    from simlab.run.runner import resolve_jobs\n")
    assert "simlab.run.runner" in violations(runner)


def test_experiments_sit_above_run_and_analysis():
    """Nothing below imports the experiments layer: run, analysis, core and the games know nothing of it."""
    below = [p for d in ("run", "analysis", "core", "games") for p in (ROOT / d).rglob("*.py")]
    found = [
        str(p.relative_to(ROOT))
        for p in below
        if any(m.startswith("simlab.experiments") for m in imports_and_names(p)[0])
    ]
    assert found == []
