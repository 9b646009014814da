"""The build flow chain: artifacts in Prefect, resume after a kill during validation, the release flow."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ambiforge.config.build import BuildOptions
from tests.conftest import REPO
from tests.integration import processes

pytestmark = pytest.mark.usefixtures("prefect_harness")


def read_artifacts() -> dict[str, object]:
    from prefect.client.orchestration import get_client

    async def fetch():  # type: ignore[no-untyped-def]
        async with get_client() as client:
            return await client.read_artifacts()

    return {a.key: a for a in asyncio.run(fetch()) if a.key}


def test_build_publishes_summary_worst_items_and_report_links(tmp_path: Path) -> None:
    from flows.build import build_flow

    summary = build_flow(BuildOptions(run_id="Art-1", pairs=80, seed=6, out=str(tmp_path)))
    artifacts = read_artifacts()
    md = artifacts["summary-art-1"]
    assert md.type == "markdown"
    assert "# Run `Art-1`" in md.data and f"**{summary['items_written']}** items written" in md.data
    assert "| preferences |" in md.data and "LLM calls" in md.data
    table = artifacts["worst-items-art-1"]
    assert table.type == "table"
    link = artifacts["validation-report-art-1"]
    assert link.type == "markdown" or "report.html" in str(link.data)
    assert (tmp_path / "Art-1" / "validation" / "report.html").exists()
    assert summary["validation"]["items"] == summary["items_written"]
    state = json.loads((tmp_path / "Art-1" / "state.json").read_text())
    assert state["stages"] == {"generate": "done", "validate": "done"}


def test_scheduled_run_without_run_id_gets_its_own(tmp_path: Path) -> None:
    from flows.build import build_flow

    first = build_flow({"pairs": 20, "seed": 1, "out": str(tmp_path), "run_id": ""})
    second = build_flow({"pairs": 20, "seed": 1, "out": str(tmp_path), "run_id": ""})
    assert first["run_id"] != second["run_id"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first["run_id"], second["run_id"]])


@pytest.mark.slow
def test_killed_during_validation_the_rerun_completes_with_the_same_items(tmp_path: Path) -> None:
    from flows.build import build_flow

    # 60 pairs: validating them (the rules on each item, then the dataset expectations) takes seconds, far longer
    # than the 10 ms the poll below needs to catch it running
    build_flow(BuildOptions(run_id="k", pairs=60, seed=12, out=str(tmp_path / "whole")))
    expected = (tmp_path / "whole" / "k" / "items.jsonl").read_bytes()

    out = tmp_path / "killed"
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect-home")}
    cmd = [
        sys.executable,
        "-m",
        "ambiforge.cli.main",
        "build",
        "--pairs",
        "60",
        "--seed",
        "12",
        "--run-id",
        "k",
        "--out",
        str(out),
    ]
    # stderr to a file, not a pipe: the killed build's Prefect API server would hold a pipe open. The build
    # runs in its own process group, killed whole (the server with it) when the block ends.
    log = (tmp_path / "killed.log").open("w")
    state_file = out / "k" / "state.json"
    killed_in = None
    with processes.group(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=log) as proc:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if state_file.exists():
                try:
                    stages = json.loads(state_file.read_text())["stages"]
                except (json.JSONDecodeError, KeyError):
                    stages = {}
                if stages.get("validate") == "running":
                    killed_in = "validate"
                    break
            time.sleep(0.01)
    log.close()
    stderr = (tmp_path / "killed.log").read_text()
    assert killed_in == "validate", f"the build ended (exit {proc.returncode}) before validation: {stderr}"
    assert not (out / "k" / "items.jsonl").exists()  # killed before the run was written

    rerun = processes.run(cmd, cwd=REPO, env=env, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert (out / "k" / "items.jsonl").read_bytes() == expected


def test_release_command_runs_the_release_flow(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.cli.main import main
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.storage import write_items_jsonl

    gen = OfflineGenerator(catalog, 3, "r")
    types = ["preferences"] * 24 + ["common_sense_knowledge"] * 20 + ["safety"] * 6
    write_items_jsonl(tmp_path / "raw" / "r" / "items.jsonl", [gen.generate(i, t)[0] for i, t in enumerate(types)])
    code = main(
        [
            "release",
            "--version",
            "2.0.0",
            "--from",
            "r",
            "--allow-unreviewed",
            "--calibration-size",
            "10",
            "--raw",
            str(tmp_path / "raw"),
            "--curated",
            str(tmp_path / "curated"),
            "--prefect",
        ]
    )
    assert code == 0
    assert (tmp_path / "curated" / "2.0.0" / "manifest.json").exists()
    release_md = read_artifacts()["release-2-0-0"]
    assert "# Release 2.0.0" in release_md.data and "| calibration | 10 |" in release_md.data
