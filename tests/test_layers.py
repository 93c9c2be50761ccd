"""The layers, read from the source (ast, no import): ``analysis`` is pure (rows or digests in, estimates out):
it plays no game and imports no runner; the loops that play games to answer a question live in
``simlab.experiments`` (docs/experiments.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import simlab

ROOT = Path(simlab.__file__).parent
#: the modules of ``simlab.run`` that read a result folder and write nothing (split out of ``store``)
FOLDER_READING = {"reader", "folder_contents", "part_file", "manifest", "folder_layout"}
#: what analysis may read from ``simlab.run``: result folders (their rows, manifest, digests, panel.json)
FOLDER_READERS = FOLDER_READING | {"errors", "folder_check", "panel_folder"}
#: the modules of ``simlab.run`` that write a result folder (``store`` is the old path: it re-exports them too)
FOLDER_WRITERS = {"store", "folder_writer", "atomic_file", "lock", "rehash", "runner", "chunk", "compact"}
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


def run_modules(path: Path) -> set[str]:
    """The modules of ``simlab.run`` that ``path`` imports (``simlab.run.reader`` gives ``reader``)."""
    found = set()
    for m in imports_and_names(path)[0]:
        parts = m.split(".")
        if parts[:2] == ["simlab", "run"] and len(parts) > 2 and (ROOT / "run" / f"{parts[2]}.py").exists():
            found.add(parts[2])
    return found


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
    assert set(violations(ROOT / "experiments" / "backfill.py")) >= {  # the rewrite that left analysis
        "simlab.run.atomic_file",
        "simlab.run.lock",
        "simlab.run.rehash",
    }
    for writer in sorted(FOLDER_WRITERS):  # the writing side of a result folder is refused, to every module
        module = tmp_path / f"uses_{writer}.py"
        module.write_text(f"from simlab.run.{writer} import load_manifest\n")
        assert violations(module) == [f"simlab.run.{writer}", f"simlab.run.{writer}.load_manifest"], writer


def test_analysis_reads_folders_only_through_the_reading_modules():
    """``store`` did reading and writing; analysis imports only the reading modules and no module that writes
    a result folder (``simlab digest``'s rewrite of part files is ``experiments.backfill``, issue 33 item 4)."""
    used = {p.name: run_modules(p) for p in sorted((ROOT / "analysis").glob("*.py"))}
    writing = {name: mods & FOLDER_WRITERS for name, mods in used.items() if mods & FOLDER_WRITERS}
    assert writing == {}
    assert "reader" in set().union(*used.values())  # what analyses read folders through


def test_the_reading_modules_import_no_writer():
    """The modules that read a result folder import nothing that writes one (directly or lazily), so a
    reader can never take a lock, rename a part or rewrite a manifest."""
    found = {name: run_modules(ROOT / "run" / f"{name}.py") & FOLDER_WRITERS for name in sorted(FOLDER_READING)}
    assert {name: mods for name, mods in found.items() if mods} == {}
    assert {p.stem for p in (ROOT / "run").glob("*.py")} >= FOLDER_READING | FOLDER_WRITERS  # no stale names


def test_simlab_imports_the_result_folder_from_its_modules_not_the_old_path():
    """``simlab.run.store`` is kept for notebooks and scripts only: nothing in simlab imports it, so the
    reading and writing sides stay apart."""
    found = [
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*.py")
        if p != ROOT / "run" / "store.py" and "store" in run_modules(p)
    ]
    assert found == []


def test_the_result_folder_modules_are_small():
    """One job per module (issue 33): no module of ``simlab.run`` is longer than about 650 lines."""
    long = {p.name: n for p in (ROOT / "run").glob("*.py") if (n := len(p.read_text().splitlines())) > 650}
    assert long == {}


def test_experiments_sit_above_run_and_analysis():
    """Nothing below imports the experiments layer: run, analysis, core and the games know nothing of it."""
    below = [p for d in ("run", "analysis", "core", "games") for p in (ROOT / d).rglob("*.py")]
    found = [
        str(p.relative_to(ROOT))
        for p in below
        if any(m.startswith("simlab.experiments") for m in imports_and_names(p)[0])
    ]
    assert found == []
