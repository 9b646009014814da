"""The CLI as a user runs it: a whole build in a subprocess, and Prefect's defaults set before Prefect loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


@pytest.mark.slow
def test_build_command_end_to_end(tmp_path: Path) -> None:
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect")}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ambiforge.cli.main",
            "build",
            "--pairs",
            "40",
            "--seed",
            "2",
            "--run-id",
            "cli",
            "--out",
            str(tmp_path),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "wrote 40 items" in proc.stderr
    summary = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert summary["items_written"] == 40 and summary["run_id"] == "cli"
    assert len((tmp_path / "cli" / "items.jsonl").read_text().splitlines()) == 40


def test_the_cli_prefect_defaults_reach_prefect() -> None:
    """Prefect reads its settings once, at import: defaults set after that were silently ignored, and a
    first build on a fresh PREFECT_HOME failed at Prefect's 20 s server start-up timeout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_SERVER_")}
    probe = (
        "import ambiforge.cli.main\n"
        "from prefect.settings import get_current_settings\n"
        "s = get_current_settings().server\n"
        "print(s.ephemeral.startup_timeout_seconds, s.analytics_enabled)"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["120", "False"]
