"""``ambiforge serve`` against a real Prefect server: the schedule fires, runs write items, and a stop is clean.

No PREFECT_API_URL is set, so ``serve`` starts the server itself (API and background services, as
``prefect server start`` runs them): the scheduler turns the one-minute cron into flow runs, the runner in
``serve`` executes them. The test stops serving as soon as the first run has finished: it waits for the next
minute boundary once, never for a second one. That scheduled runs carry no run id, so each makes its own
folder, is shown in-process by tests/integration/test_flows.py (two runs of the flow with run id "") and
tests/unit/orchestration/test_orchestration.py (the deployment's parameters, new ids on the same day);
nothing here is timed, the deadlines only bound a hang.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.integration import processes

REPO = Path(__file__).resolve().parents[2]


def test_dependency_set_runs_prefects_scheduler() -> None:
    """The scheduler of Prefect 3.8 crashes every loop under SQLAlchemy 2.1 ("Can't evaluate bulk DML
    statement"): the pinned set must be one that works."""
    import sqlalchemy
    from packaging.version import Version

    assert Version(sqlalchemy.__version__) < Version("2.1")


@pytest.mark.slow
def test_a_served_one_minute_cron_fires_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    out = tmp_path / "raw"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PREFECT_API_URL", "LABEL_STUDIO_", "OPENAI_", "MISTRAL_"))
    }
    env |= {
        "PYTHONPATH": str(REPO),
        "PREFECT_HOME": str(tmp_path / "prefect-home"),
        "PREFECT_RUNNER_POLL_FREQUENCY": "2",  # the runner looks for due runs every 2 s, not 10
        "PYTHONUNBUFFERED": "1",
    }
    cmd = [
        sys.executable, "-m", "ambiforge.cli.main", "serve", "--cron", "* * * * *",
        "--pairs", "3", "--seed", "5", "--out", str(out),
    ]  # fmt: skip
    lines: list[str] = []
    with processes.group(
        cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as proc:
        assert proc.stdout is not None
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
        reader.start()

        def finished_runs() -> list[Path]:
            return sorted(p.parent for p in out.glob("*/summary.json"))

        deadline = time.monotonic() + 240
        while not finished_runs() or not any("pairs written to" in x for x in lines):
            assert proc.poll() is None, "serve exited:\n" + "".join(lines)
            assert time.monotonic() < deadline, "no run within 4 minutes:\n" + "".join(lines)
            time.sleep(1)
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=60) == 0, "".join(lines)
        reader.join(timeout=10)

    run = finished_runs()[0]
    summary = json.loads((run / "summary.json").read_text())
    assert summary["items_written"] > 0
    assert (run / "items.jsonl").read_text().count("\n") == summary["items_written"]
    run_lines = [x for x in lines if x.startswith(f"build {run.name}: ")]
    assert len(run_lines) == 1, "".join(lines)
    assert f"{summary['items_written']} of 3 pairs written to {run}" in run_lines[0]
    assert run_lines[0].rstrip().endswith(" s")
    text = "".join(lines)
    assert "never awaited" not in text
    assert "stopped serving deployment scheduled-build" in text
    assert "Traceback" not in text
