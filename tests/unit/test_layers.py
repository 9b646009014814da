"""The layers of docs/architecture.md hold: ``lint-imports`` keeps every contract in pyproject.toml, and
``flows/`` is only the Prefect wrappers."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_lint_imports_keeps_every_contract() -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(lint), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    kept = re.search(r"Contracts: (\d+) kept, 0 broken", proc.stdout)
    assert kept and int(kept.group(1)) >= 2, proc.stdout[-2000:]


def imports_prefect_at_top(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "prefect" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "prefect":
            return True
    return False


def test_every_module_of_flows_imports_prefect() -> None:
    """What does not need Prefect belongs to the engine in the library, not to flows/."""
    modules = [p for p in sorted((REPO / "flows").glob("*.py")) if p.name != "__init__.py"]
    assert modules
    assert [p.name for p in modules if not imports_prefect_at_top(p)] == []


def test_the_library_names_no_flows_module_in_strings_either() -> None:
    """No ``importlib.import_module("flows...")`` or dotted path to flows: the engine reaches Prefect through
    the orchestrator registry (an entry point), which is declared in pyproject.toml, not in code."""
    named = re.compile(r"""["']flows(\.[a-z_]+)+["']""")
    offenders = [
        str(p.relative_to(REPO))
        for p in sorted((REPO / "ambiforge").rglob("*.py"))
        if named.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
