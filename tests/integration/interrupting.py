"""Helpers of the tests that start real CLI builds against the scripted LLM server and stop them: each build
in its own process group (killed whatever happens), polled until it reaches the moment a test acts on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from ambiforge.testing.llm_server import ScriptedLLMServer

KEY = "sk-test-abcdef0123456789-never-logged"
CONCURRENCY = 8  # the [llm] default


def env_for(server: ScriptedLLMServer, tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.openai_url}
    env["PREFECT_HOME"] = str(tmp_path / "prefect-home")
    env.pop("PREFECT_API_URL", None)
    env.pop("PREFECT_LOGGING_LEVEL", None)  # what a user gets: Prefect quiet unless --verbose
    return env


def build_cmd(out: Path, pairs: int, run_id: str = "r") -> list[str]:
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "openai", "--pairs", str(pairs)]
    return [*cmd, "--seed", "5", "--run-id", run_id, "--out", str(out)]


def servers_of(pid: int) -> list[str]:
    """Command lines of temporary Prefect servers started by process ``pid`` (still alive)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"flows.server" in cmd and str(pid).encode() in cmd:
                found.append(b" ".join(cmd).decode())
    return found


def wait_for(  # type: ignore[no-untyped-def]
    condition, timeout: float, what: str, build: subprocess.Popen[str] | None = None
) -> None:
    """Poll ``condition``; with ``build``, a build that exits first fails at once with its own stderr."""
    deadline = time.monotonic() + timeout
    while not condition():
        if build is not None and build.poll() is not None:
            _, err = build.communicate()
            raise AssertionError(f"the build exited ({build.returncode}) before {what}:\n{err}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def wait_for_cluster(address: str, workers: int, timeout: float) -> None:
    """Wait until the scheduler answers and ``workers`` workers have joined it. The build checks the address
    up front (5 s), so on a loaded machine a build started beside a scheduler still importing was refused
    (exit 2) and the test then waited for requests that could never come."""
    from distributed import Client

    deadline = time.monotonic() + timeout
    while True:
        try:
            with Client(address, timeout=10) as client:
                client.wait_for_workers(workers, timeout=max(1.0, deadline - time.monotonic()))
            return
        except (OSError, TimeoutError) as exc:
            if time.monotonic() > deadline:
                raise AssertionError(f"no Dask cluster with {workers} workers at {address}: {exc}") from None
            time.sleep(0.5)


def items_of(folder: Path) -> list[tuple[str, str, str]]:
    rows = [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]
    return [(r["id"], r["ambiguous_task"], r["unambiguous_direct"]) for r in rows]


def session_processes(sid: int) -> list[str]:
    """Live (not zombie) processes of session ``sid``: the build, its Dask workers, anything it started."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(f"{proc.name} {cmd}")
    return found
