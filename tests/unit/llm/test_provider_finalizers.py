"""An SDK client reaped by the garbage collector must not import anything: the collector can run in the
middle of another import, and on Python 3.11 an import from a finalizer there breaks the import lock
(a KeyError out of ``_lock_unlock_module`` in a build's validate step, seen in CI)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent(
    """
    import gc, sys
    from ambiforge.llm.providers.{module} import {cls}
    provider = {cls}("sk-test", "http://127.0.0.1:9", 5.0)
    provider.client.chat  # the sub-client a build touches
    del provider
    before = set(sys.modules)
    gc.collect()
    print(sorted(set(sys.modules) - before))
    """
)


@pytest.mark.parametrize(("module", "cls"), [("mistral", "MistralProvider"), ("openai", "OpenAIProvider")])
def test_a_reaped_provider_imports_nothing(module: str, cls: str) -> None:
    # a fresh interpreter: in the test process another test may already have imported what a finalizer would
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(module=module, cls=cls)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]", f"imported while collecting a dropped {cls}: {proc.stdout.strip()}"
