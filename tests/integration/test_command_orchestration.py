"""``release`` and ``eval`` start no Prefect server unless asked (``--prefect``) or pointed at one
(``PREFECT_API_URL``); asked, they run as flows recorded in Prefect's database, and leave no server behind.
Real CLI subprocesses with their own ``PREFECT_HOME``."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge import BuildOptions, build
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import server_responder
from tests.conftest import REPO
from tests.integration import processes


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return processes.run([sys.executable, "-m", "ambiforge.cli.main", *args], cwd=REPO, env=env, timeout=300)


def prefect_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "PREFECT_HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("PREFECT_API_URL", None)
    return env


def recorded(home: Path) -> tuple[set[str], set[str]]:
    """Flow run names and artifact keys in the Prefect database under ``home``."""
    with sqlite3.connect(home / "prefect.db") as db:
        runs = {name for (name,) in db.execute("select name from flow_run")}
        keys = {key for (key,) in db.execute("select key from artifact where key is not null")}
    return runs, keys


def servers_left(home: Path) -> list[str]:
    """Temporary Prefect servers alive with ``home`` as their PREFECT_HOME: this test's, not those of builds
    that other tests (other pytest-xdist workers, other checkouts) run at the same time."""
    found = []
    mine = f"PREFECT_HOME={home}".encode()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes()
                env = (proc / "environ").read_bytes().split(b"\0") if b"flows.server" in cmd else []
            except OSError:
                continue
            if mine in env:
                found.append(cmd.replace(b"\0", b" ").decode())
    return found


@pytest.mark.slow
def test_release_and_eval_run_in_process_unless_prefect_is_asked_for(tmp_path: Path) -> None:
    home = tmp_path / "prefect-home"
    env = prefect_env(home)
    raw, curated = tmp_path / "raw", tmp_path / "curated"
    # the run to release is made in-process: only release and eval are under test (12 pairs, 3 for calibration:
    # each eval's two methods take the 18 halves of the 9 test pairs)
    built = build(BuildOptions(provider="offline", pairs=12, seed=3, run_id="r", out=str(raw)))
    assert built.items_written > 0
    release = ["release", "--from", "r", "--allow-unreviewed", "--calibration-size", "3"]
    release += ["--raw", str(raw), "--curated", str(curated)]

    plain = cli(*release, "--version", "1.0.0", env=env)
    assert plain.returncode == 0, plain.stderr
    assert (curated / "1.0.0" / "manifest.sha256").is_file()
    assert not (home / "prefect.db").exists(), "a release without --prefect started a Prefect server"

    tracked = cli(*release, "--version", "1.0.1", "--prefect", env=env)
    assert tracked.returncode == 0, tracked.stderr
    runs, keys = recorded(home)
    assert "release-1.0.1" in runs and "release-1-0-1" in keys
    assert not servers_left(home), "the release's temporary Prefect server outlived it"
    # Same gates, same writer: the two releases hold the same rows.
    rows = [gzip.decompress((curated / v / "data.jsonl.gz").read_bytes()) for v in ("1.0.0", "1.0.1")]
    assert rows[0] == rows[1]

    config = tmp_path / "ambiforge.toml"
    config.write_text(f'[paths]\nraw = "{raw}"\n\n[llm]\nrpm = 0\n', encoding="utf-8")
    evaluate = ["eval", "--data", str(curated / "1.0.0"), "--method", "binary,nohelp", "--model", "scripted"]
    evaluate += ["--out", str(tmp_path / "eval"), "--config", str(config)]
    with ScriptedLLMServer(server_responder, api_key="sk-eval") as server:
        llm_env = {**env, "OPENAI_API_KEY": "sk-eval", "OPENAI_BASE_URL": server.openai_url}
        before = recorded(home)[0]
        plain_eval = cli(*evaluate, "--name", "plain", env=llm_env)
        assert plain_eval.returncode == 0, plain_eval.stderr
        assert recorded(home)[0] == before, "an eval without --prefect was recorded in Prefect"
        tracked_eval = cli(*evaluate, "--name", "tracked", "--prefect", env=llm_env)
        assert tracked_eval.returncode == 0, tracked_eval.stderr
    assert {"eval-scripted"} <= recorded(home)[0] - before
    results = [json.loads((tmp_path / "eval" / n / "results.json").read_text()) for n in ("plain", "tracked")]
    assert results[0]["methods"] == results[1]["methods"]
    assert not servers_left(home)
