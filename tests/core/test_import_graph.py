"""No import circle, read with ``ast``: in simlab.core, the graph of which module imports which (every import
statement, at module level, inside a function or under ``TYPE_CHECKING``: each is a dependency) is acyclic; in
the whole simlab package, the graph of the imports that run when a module is imported (module level, class
bodies, ``try``/``if`` blocks; not a function's body, not ``if TYPE_CHECKING``) is acyclic too, so importing
any simlab module first never meets a half-initialised one. A function-level import may close a circle: it runs
when every module is loaded."""

from __future__ import annotations

import ast
from pathlib import Path

import simlab
import simlab.core

CORE = Path(simlab.core.__file__).resolve().parent
PACKAGE = Path(simlab.__file__).resolve().parent


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


def module_names(package: Path) -> dict[str, Path]:
    """Every module of the package at ``package`` by its dotted name (a package by its own name)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def load_time_imports(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that importing module ``name`` (at ``path``) imports itself: the import
    statements outside function bodies and outside ``if TYPE_CHECKING`` (relative imports resolved; ``from P
    import x`` is module P.x when there is one, else P)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(child, ast.If) and _type_checking(child.test):
                for other in child.orelse:
                    visit(ast.Module(body=[other], type_ignores=[]))
            elif isinstance(child, ast.Import | ast.ImportFrom):
                found.update(t for t in targets(child) if t in modules)
            else:
                visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found - {name}


def load_time_graph(package: Path) -> dict[str, set[str]]:
    modules = module_names(package)
    return {name: load_time_imports(path, name, modules) for name, path in modules.items()}


def test_no_simlab_module_imports_another_in_a_circle_at_load_time() -> None:
    graph = load_time_graph(PACKAGE)
    assert {"simlab", "simlab.core.game", "simlab.run.runner", "simlab.analysis.seats", "simlab.cli"} <= set(graph)
    assert "simlab.core.registry" in graph["simlab"]  # the graph sees the package's own imports
    cycle = find_cycle(graph)
    assert not cycle, "import circle in simlab at module level: " + " -> ".join(cycle)


def test_the_load_time_graph_counts_what_runs_at_import_and_nothing_else(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from pkg.a import x\n")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import b\nelse:\n    from . import c\n"
        "try:\n    import pkg.sub.d\nexcept ImportError:\n    pass\n"
        "class K:\n    from .sub import d\n"
        "def f():\n    from pkg import b\n"
        "x = 1\n"
    )
    for leaf in ("b.py", "c.py", "sub/__init__.py", "sub/d.py"):
        (package / leaf).write_text("")
    (package / "sub" / "e.py").write_text("from .. import a\nfrom ..sub import d\n")
    graph = load_time_graph(package)
    assert graph["pkg"] == {"pkg.a"}
    assert graph["pkg.a"] == {"pkg.c", "pkg.sub.d"}
    assert graph["pkg.sub.e"] == {"pkg.a", "pkg.sub.d"}
    assert find_cycle(graph) == []
    (package / "c.py").write_text("import pkg.sub.e\n")
    assert find_cycle(load_time_graph(package)) == ["pkg.a", "pkg.c", "pkg.sub.e", "pkg.a"]
