"""The library never reaches ``flows`` (no import, not inside a function, not through an importlib string);
every module of ``flows`` imports Prefect, so nothing that runs without Prefect hides there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO

FLOWS_NAME = re.compile(r"^flows(\.\w+)*(:\w+)?$")


def imported_modules(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):  # every import, at any depth
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
    return found


def test_the_library_imports_nothing_from_flows() -> None:
    offenders = []
    for path in sorted((REPO / "ambiforge").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        modules = imported_modules(tree)
        names = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        if any(m == "flows" or m.startswith("flows.") for m in modules) or any(FLOWS_NAME.match(s) for s in names):
            offenders.append(str(path.relative_to(REPO)))
    assert offenders == []


def test_the_boundary_check_sees_an_import_inside_a_function() -> None:
    tree = ast.parse("def f():\n    from flows.build import build_flow\n")
    assert "flows.build" in imported_modules(tree)


def top_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
    return found


def test_every_flows_module_imports_prefect() -> None:
    """``flows/__init__`` aside: it installs the redaction hook that must run *before* Prefect is imported."""
    modules = [p for p in sorted((REPO / "flows").glob("*.py")) if p.name != "__init__.py"]
    assert len(modules) > 5
    without = [p.name for p in modules if not any(m.split(".")[0] == "prefect" for m in top_level_imports(p))]
    assert without == []
