"""The CLI's argument handling: bad input gives exit 2 and one line naming the problem."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from tests.conftest import REPO


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["build", "--pairs", "0"], "--pairs must be at least 1"),
        (["build", "--pairs", "many"], "Invalid value for '--pairs'"),
        (["build", "--provider", "telepathy"], "--provider must be one of"),
        (["build", "--run-id", "../escape"], "not usable as a folder name"),
        (["build", "--type-mix", "preferences=lots"], "--type-mix: expected TYPE=SHARE"),
        (["build", "--type-mix", "irony=1"], "unknown ambiguity type 'irony'"),
        (["build", "--frobnicate"], "No such option"),
        (["build", "--config", "/nonexistent/ambiforge.toml"], "configuration file not found"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ambiforge: error:")
    assert len(err.splitlines()) == 1
    assert needle in err


def test_bad_catalog_names_file_and_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "kitchen.yaml"
    bad.write_text("version: 1\nappliances: []\ngroups: {}\n")
    assert main(["build", "--catalog", str(bad), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"ambiforge: error: {bad}: appliances: missing fixed appliance(s): " + (
        "fridge, oven, kitchen table, microwave, dishwasher, sink, tea kettle"
    )
    assert not any(tmp_path.glob("*/items.jsonl"))


def test_bad_config_value_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "ambiforge.toml"
    cfg.write_text("[build]\npairs = 'x'\n")
    assert main(["build", "--config", str(cfg)]) == 2
    assert "build.pairs" in capsys.readouterr().err


def test_schema_check_passes_on_the_committed_file() -> None:
    assert main(["schema", "--check"]) == 0


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
