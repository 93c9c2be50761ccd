"""simlab.core has no import circle: the graph of which core module imports which (every import statement, at
module level, inside a function or under ``TYPE_CHECKING``: each is a dependency) is acyclic, read with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

import simlab.core

CORE = Path(simlab.core.__file__).resolve().parent


def core_imports(path: Path) -> set[str]:
    """The simlab.core modules ``path`` imports, wherever the import statement stands."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if node.level == 0 else f"simlab.core.{node.module}"
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        out.update(n.removeprefix("simlab.core.") for n in names if n.startswith("simlab.core."))
    modules = {p.stem for p in CORE.glob("*.py")}
    return {name.split(".")[0] for name in out} & modules - {path.stem}


def import_graph() -> dict[str, set[str]]:
    return {path.stem: core_imports(path) for path in sorted(CORE.glob("*.py"))}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` as [a, b, ..., a], or [] when there is none (depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_core_modules_import_each_other_without_a_circle() -> None:
    graph = import_graph()
    assert {"bots", "game", "registry", "warm"} <= set(graph)
    cycle = find_cycle(graph)
    assert not cycle, "import circle in simlab.core: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_an_import_inside_a_function_counts(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from simlab.core.registry import get_game\n    from simlab.core import game\n")
    assert core_imports(source) == {"registry", "game"}
