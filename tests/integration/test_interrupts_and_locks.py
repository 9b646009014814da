"""One writer per run, and SIGINT/SIGTERM honoured, on real CLI builds against the scripted LLM server with
latency (every build runs in its own process group, killed whatever happens). The same on Dask task runners:
test_interrupts_dask.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer
from tests.conftest import REPO
from tests.integration import processes
from tests.integration.interrupting import CONCURRENCY, KEY, build_cmd, env_for, items_of, servers_of, wait_for


@pytest.fixture(scope="module")
def reference_items(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[tuple[str, str, str]]]:
    """The items of the 12-pair build that is never interrupted: what every resumed build must end with
    (one build for the module, not one per signal)."""
    tmp_path = tmp_path_factory.mktemp("reference")
    with ScriptedLLMServer(KitchenResponder(), api_key=KEY) as server:
        env = env_for(server, tmp_path)
        reference = processes.run(build_cmd(tmp_path / "raw", 12), cwd=REPO, env=env, timeout=300)
    assert reference.returncode == 0, reference.stderr
    yield items_of(tmp_path / "raw" / "r")


@pytest.mark.slow
def test_a_second_build_of_the_same_run_is_refused_naming_the_holder(tmp_path: Path) -> None:
    with ScriptedLLMServer(KitchenResponder(), latency=0.2, api_key=KEY) as server:
        env = env_for(server, tmp_path)
        out = tmp_path / "raw"
        lock = out / "r" / ".lock"
        first_cmd = build_cmd(out, 12)
        with processes.group(first_cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as first:
            wait_for(lambda: lock.exists() and lock.read_text().strip(), 120, "the first build's lock")
            second = processes.run(build_cmd(out, 12), cwd=REPO, env=env, timeout=120)
            assert second.returncode == 2, second.stderr
            errors = [line for line in second.stderr.splitlines() if line.startswith("ambiforge: error:")]
            assert len(errors) == 1 and f"pid {first.pid} on " in errors[0] and "run r" in errors[0]
            assert "Traceback" not in second.stderr
            _, err = first.communicate(timeout=300)
            assert first.returncode == 0, err
        requests = len(server.requests)
    calls = [json.loads(line) for line in (out / "r" / "calls.jsonl").read_text().splitlines()]
    assert requests == sum(1 for c in calls if not c["cached"]) > 0  # one build's requests, none paid twice
    # The lock is free again: a rerun (served from the cache) takes it.
    again = processes.run(build_cmd(out, 12), cwd=REPO, env=env, timeout=300)
    assert again.returncode == 0, again.stderr


DEPLOYMENT_RUN = """
import sys
from pathlib import Path
from flows.server import prefect_api

with prefect_api() as server:
    from ambiforge.cli.build import command_options
    from ambiforge.config.file import load_config
    from flows.build import build_flow

    options = command_options(load_config(None), provider="openai", pairs=12, seed=5, out=Path(sys.argv[1]))
    parameters = options.model_copy(update={"run_id": "r"}).model_dump(mode="json")  # as a deployment passes them
    server.wait()
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        build_flow(parameters)
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}", flush=True)
        sys.exit(3)
    print("built", flush=True)
"""


@pytest.mark.slow
def test_a_deployment_run_of_a_run_being_built_is_refused(tmp_path: Path) -> None:
    """The flow itself holds the run's lock: a build started by a deployment or schedule (no CLI around
    it) with the run id of a running CLI build fails at once naming the holder, and pays for nothing."""
    with ScriptedLLMServer(KitchenResponder(), latency=0.2, api_key=KEY) as server:
        env = env_for(server, tmp_path)
        out = tmp_path / "raw"
        lock = out / "r" / ".lock"
        deployment = [sys.executable, "-c", DEPLOYMENT_RUN, str(out)]
        pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
        with processes.group(deployment, cwd=REPO, env=env, **pipes) as flow_run:
            assert flow_run.stdout is not None and flow_run.stdin is not None
            assert flow_run.stdout.readline().strip() == "ready", flow_run.stderr.read() if flow_run.stderr else ""
            first_cmd = build_cmd(out, 12)
            with processes.group(first_cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as first:
                wait_for(lambda: lock.exists() and lock.read_text().strip(), 120, "the CLI build's lock")
                flow_run.stdin.write("go\n")
                flow_run.stdin.flush()
                refused, _ = flow_run.communicate(timeout=120)
                assert flow_run.returncode == 3, refused
                assert f"FolderBusy: {lock}: run r is being written by pid {first.pid} on " in refused
                out_text, err = first.communicate(timeout=300)
                assert first.returncode == 0, err
                # A fresh PREFECT_HOME and no --verbose: none of Prefect's (or Dask's) own log lines.
                printed = (out_text + err).decode()
                assert "| INFO" not in printed and "Stopping temporary server" not in printed, printed
        requests = len(server.requests)
    calls = [json.loads(line) for line in (out / "r" / "calls.jsonl").read_text().splitlines()]
    assert requests == sum(1 for c in calls if not c["cached"]) > 0  # one build's requests, none paid twice


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_build_stops_calls_marks_the_run_and_resumes(
    tmp_path: Path, signum: int, reference_items: list[tuple[str, str, str]]
) -> None:
    with ScriptedLLMServer(KitchenResponder(), latency=0.5, api_key=KEY) as server:
        env = env_for(server, tmp_path)
        out = tmp_path / "raw"
        cmd = build_cmd(out, 12)
        with processes.group(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
            wait_for(lambda: len(server.requests) >= 10, 180, "the build's first LLM replies", build=proc)
            at_signal = len(server.requests)
            sent = time.monotonic()
            os.kill(proc.pid, signum)
            _, err = proc.communicate(timeout=30)
            took = time.monotonic() - sent
            assert not servers_of(proc.pid), "the temporary Prefect server outlived its build"
        time.sleep(1.5)  # any call still started after the signal would have been answered by now
        further = len(server.requests) - at_signal
        assert proc.returncode == 128 + signum, err
        assert took < 5, f"exit took {took:.1f} s"
        assert further <= CONCURRENCY, f"{further} requests after the signal"
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines[-1] == "ambiforge: interrupted; rerun with --run-id r to resume"
        assert "Traceback" not in err
        state = json.loads((out / "r" / "state.json").read_text())
        assert state["status"] == "interrupted" and "interrupted" in state["stages"].values()

        rerun = processes.run(cmd, cwd=REPO, env=env, timeout=300)
        assert rerun.returncode == 0, rerun.stderr
    assert items_of(out / "r") == reference_items
    assert json.loads((out / "r" / "state.json").read_text())["status"] == "done"


def test_the_temporary_prefect_server_dies_with_its_parent(tmp_path: Path) -> None:
    """SIGKILL to the process that started the server (no cleanup can run): the server goes too."""
    script = (
        "import time\nfrom flows.server import TemporaryServer\n"
        "s = TemporaryServer().start()\nprint(s.process.pid, flush=True)\ns.wait()\nprint('up', flush=True)\n"
        "time.sleep(600)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "PREFECT_HOME": str(tmp_path / "prefect-home")}
    with processes.group([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True) as parent:
        assert parent.stdout is not None
        server_pid = int(parent.stdout.readline())
        assert parent.stdout.readline().strip() == "up"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()

        def gone() -> bool:
            try:
                status = Path(f"/proc/{server_pid}/status").read_text()
            except FileNotFoundError:
                return True
            return "State:\tZ" in status

        wait_for(gone, 15, "the orphaned server to exit")
