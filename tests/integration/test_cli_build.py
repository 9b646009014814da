"""The CLI as a user runs it: a whole build in a subprocess, and Prefect's defaults set before Prefect loads;
the configuration's validation thresholds through the command in this process."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.integration import processes


@pytest.mark.slow
def test_build_command_end_to_end(tmp_path: Path) -> None:
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect")}
    proc = processes.run(
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
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "wrote 40 items" in proc.stderr
    report = tmp_path / "cli" / "validation" / "report.html"
    assert f"validation report: {report}" in proc.stderr and report.exists()  # build says where, unbroken
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
    out = processes.run([sys.executable, "-c", probe], cwd=REPO, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["120", "False"]


@pytest.mark.slow
def test_validation_thresholds_of_the_config_apply_inside_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``[validation] max_plan_steps = 1``: every pair is rejected at the validate stage (the same file
    makes ``ambiforge validate`` fail the items), and a build that writes no item exits 1. The command runs
    in this process: no signal or lock is under test."""
    from ambiforge.cli.main import main

    config = tmp_path / "ambiforge.toml"
    config.write_text("[validation]\nmax_plan_steps = 1\n")
    args = ["build", "--config", str(config), "--pairs", "10", "--seed", "2", "--run-id", "strict"]
    code = main([*args, "--out", str(tmp_path / "raw")])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "no item written" in err
    folder = tmp_path / "raw" / "strict"
    rejected = [json.loads(line) for line in (folder / "rejected.jsonl").read_text().splitlines()]
    assert len(rejected) == 10 and {r["stage"] for r in rejected} == {"validate"}
    assert all("allowed 1 to 1" in r["reason"] for r in rejected)
    assert (folder / "items.jsonl").read_text() == ""
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["items_written"] == 0 and summary["rejected_by_stage"] == {"validate": 10}


def test_a_build_without_a_prefect_api_runs_in_process_and_never_loads_prefect(tmp_path: Path) -> None:
    """No PREFECT_API_URL: the stages run in this process (no temporary API server to start and wait for),
    with the same files as a build of the Prefect flow (``--prefect``)."""
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"} | {"PREFECT_HOME": str(tmp_path / "ph")}
    args = ["build", "--pairs", "12", "--seed", "3", "--run-id", "r", "--out", str(tmp_path / "local")]
    probe = (
        f"import sys\nfrom ambiforge.cli.main import main\ncode = main({args!r})\n"
        "print(code, 'prefect' in sys.modules, flush=True)\n"
    )
    local = processes.run([sys.executable, "-c", probe], cwd=REPO, env=env, timeout=300)
    assert local.returncode == 0, local.stderr
    assert local.stdout.split() == ["0", "False"]
    flow = processes.run(
        [sys.executable, "-m", "ambiforge.cli.main", "build", "--pairs", "12", "--seed", "3", "--run-id", "r"]
        + ["--out", str(tmp_path / "flow"), "--prefect"],
        cwd=REPO,
        env=env,
        timeout=300,
    )
    assert flow.returncode == 0, flow.stderr
    for name in ("items.jsonl", "rejected.jsonl", "generated.jsonl", "options.json", "items.parquet"):
        assert (tmp_path / "local" / "r" / name).read_bytes() == (tmp_path / "flow" / "r" / name).read_bytes(), name
    local_summary = json.loads((tmp_path / "local" / "r" / "summary.json").read_text())
    flow_summary = json.loads((tmp_path / "flow" / "r" / "summary.json").read_text())
    for summary in (local_summary, flow_summary):  # the report's paths differ with the folder
        del summary["validation"]["report_path"], summary["validation"]["issues_csv"]
    for key in ("items_written", "per_type", "rejected_count", "validation"):
        assert local_summary[key] == flow_summary[key], key
    assert (tmp_path / "local" / "r" / "validation" / "data_docs" / "index.html").exists()
