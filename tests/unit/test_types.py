"""``mypy --strict`` on the typed packages: the paths are ``[tool.mypy] files`` in pyproject.toml, the one
list of them (CI and this test read it; add a package there once it is clean)."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.conftest import REPO


def test_the_typed_packages_pass_mypy_strict() -> None:
    settings = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert settings["strict"] is True
    assert {"ambiforge/api.py", "ambiforge/config/"} <= set(settings["files"])
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--hide-error-context"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "", proc.stdout
