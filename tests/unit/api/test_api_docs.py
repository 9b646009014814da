"""docs/api.md: every Python block runs, in order, in an empty folder; every public function of the API has
its own section whose example calls it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge import api
from tests.conftest import REPO

DOC = REPO / "docs" / "api.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _sections() -> dict[str, str]:
    """Heading -> the Python code of its blocks."""
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return {heading: "".join(BLOCK.findall(body)) for heading, body in zip(parts[1::2], parts[2::2], strict=True)}


def test_every_public_function_has_a_worked_example() -> None:
    sections = _sections()
    functions = [name for name in api.__all__ if name != "Orchestration"]
    for name in functions:
        heading = next((h for h in sections if f"`{name}`" in h), None)
        assert heading is not None, f"docs/api.md has no section for {name}"
        assert re.search(rf"\bambiforge\.{name}\(|\b{name}\b\(|for review in \(.*\b{name}\b", sections[heading]), (
            f"the {name} section's example does not call it"
        )


@pytest.mark.slow
def test_the_examples_run(tmp_path: Path) -> None:
    code = "\n".join(BLOCK.findall(DOC.read_text(encoding="utf-8")))
    (tmp_path / "ambiforge.toml").write_text("")
    (tmp_path / "examples.py").write_text(code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LABEL_STUDIO_", "PREFECT_API_URL", "OPENAI_"))}
    env |= {"AMBIFORGE_CONFIG": "", "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "examples.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "--pairs must be at least 1, got 0" in out
    assert "no-such-catalog.yaml" in out
    assert "30 of 30 pass; ok" in out
    assert (tmp_path / "curated" / "1.0.0" / "manifest.json").is_file()
    assert "Label Studio is not configured" in out and "was never pushed" in out
    assert "in-process" in out and "0 3 * * * nightly" in out
    assert list((tmp_path / "eval").glob("*/rescore-authors.json"))
