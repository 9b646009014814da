"""No import cycles between the modules of ambiforge and flows.

The graph is built statically with ``ast`` from every import statement, module level or inside a function,
class or block: a deferred import that closes a cycle is still a cycle (it only moves the failure from import
time to call time and hides the dependency). Only imports under ``if TYPE_CHECKING:`` are left out: they
never run. The layers between packages are checked by ``lint-imports`` (tests/unit/test_layers.py). Importing
``a.b.c`` also runs ``a`` and ``a.b``, so a module depends on the parents of what it imports: that is
how ``validation.rules`` -> ``generation.run`` -> ... -> ``validation`` deadlocks at import time.
A module's dependency on its own parent package is not an edge (Python has already started importing it).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

PACKAGES = ("ambiforge", "flows")


def module_files() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_imports(module: str, path: Path, known: set[str]) -> set[str]:
    """Modules of ours that ``module`` imports, at once or when a function of it runs (with their parent
    packages)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    base = module.split(".") if is_package else module.split(".")[:-1]
    targets: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                targets.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    anchor = base[: len(base) - child.level + 1]
                    source = ".".join(anchor + ([child.module] if child.module else []))
                else:
                    source = child.module or ""
                targets.add(source)
                targets.update(f"{source}.{alias.name}" for alias in child.names)  # submodules imported by name
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for statement in child.orelse:
                    visit_statement(statement)
            else:
                visit(child)

    def visit_statement(statement: ast.stmt) -> None:
        holder = ast.Module(body=[statement], type_ignores=[])
        visit(holder)

    visit(tree)
    deps: set[str] = set()
    for target in targets:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            name = ".".join(parts[:i])
            if name in known and name != module and not module.startswith(name + "."):
                deps.add(name)
    return deps


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return stack[stack.index(dep) :] + [dep]
            if dep not in state and (cycle := dfs(dep)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := dfs(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles() -> None:
    modules = module_files()
    known = set(modules)
    graph = {name: module_imports(name, path, known) for name, path in modules.items()}
    assert len(graph) > 50
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_validation_rules_import_alone() -> None:
    """The issue's reproduction: the rules imported first in a fresh interpreter."""
    proc = subprocess.run(
        [sys.executable, "-c", "import ambiforge.validation.rules"], cwd=REPO, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_a_deferred_import_counts(tmp_path: Path) -> None:
    """An import inside a function is an edge; one under TYPE_CHECKING is not."""
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.hidden\n"
        "def f():\n    import pkg.late\n    class C:\n        from pkg import inner\n"
    )
    known = {"pkg", "pkg.late", "pkg.hidden", "pkg.inner", "m"}
    assert module_imports("m", source, known) == {"pkg", "pkg.late", "pkg.inner"}
