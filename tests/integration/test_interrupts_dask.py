"""SIGINT/SIGTERM honoured by builds on Dask task runners (the build's own workers, or an existing cluster
whose workers no signal reaches), on real CLI builds against the scripted LLM server with latency. A file of
its own beside test_interrupts_and_locks.py, so pytest-xdist can run the two on different workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer
from tests.conftest import REPO
from tests.integration import processes
from tests.integration.interrupting import (
    CONCURRENCY,
    KEY,
    build_cmd,
    env_for,
    servers_of,
    session_processes,
    wait_for,
    wait_for_cluster,
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signum", "to_group"),
    [(signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["ctrl-c-to-the-group", "sigterm-to-the-build"],
)
def test_an_interrupted_dask_build_stops_its_workers(tmp_path: Path, signum: int, to_group: bool) -> None:
    """``--task-runner dask``: Ctrl-C at a terminal reaches the build and its workers; ``kill`` reaches the
    build alone, which passes it on. Either way no new call starts, the build exits 130/143 within 5 s
    with one line, and no worker, Prefect server or other process of it is left."""
    with ScriptedLLMServer(KitchenResponder(), latency=0.5, api_key=KEY) as server:
        env = env_for(server, tmp_path)
        out = tmp_path / "raw"
        cmd = [*build_cmd(out, 30), "--task-runner", "dask"]
        with processes.group(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
            wait_for(lambda: len(server.requests) >= 10, 240, "the build's first LLM replies", build=proc)
            at_signal = len(server.requests)
            sent = time.monotonic()
            (os.killpg if to_group else os.kill)(proc.pid, signum)
            _, err = proc.communicate(timeout=30)
            took = time.monotonic() - sent
            wait_for(lambda: not session_processes(proc.pid), 10, "the build's workers to exit")
            assert not servers_of(proc.pid), "the temporary Prefect server outlived its build"
        time.sleep(1.5)
        further = len(server.requests) - at_signal
    assert proc.returncode == 128 + signum, err
    assert took < 5, f"exit took {took:.1f} s"
    assert further <= CONCURRENCY, f"{further} requests after the signal"
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1] == "ambiforge: interrupted; rerun with --run-id r to resume", err
    assert "Traceback" not in err and "ERROR" not in err and "leaked" not in err, err
    state = json.loads((out / "r" / "state.json").read_text())
    assert state["status"] == "interrupted"


@pytest.mark.slow
def test_an_interrupted_build_stops_the_calls_of_an_existing_cluster(tmp_path: Path) -> None:
    """``--dask-address``: the workers are not the build's processes, so no signal reaches them; the run's
    stop event on the scheduler does. Without it they went on with their batches after the build exited."""
    dask = str(Path(sys.executable).with_name("dask"))
    scheduler_file = tmp_path / "scheduler.json"
    logs = tmp_path / "cluster.log"
    with ScriptedLLMServer(KitchenResponder(), latency=0.5, api_key=KEY) as server, logs.open("w") as log:
        env = {**env_for(server, tmp_path), "PYTHONPATH": str(REPO)}
        quiet = {"stdout": log, "stderr": log, "env": env}
        # The scheduler picks its own port and says where in its file: a port chosen here and bound later
        # could be taken in between (by the LLM server, a worker, Prefect's server).
        where = ["--scheduler-file", str(scheduler_file)]
        scheduler_cmd = [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", *where]
        worker_cmd = [dask, "worker", *where, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"]
        with processes.group(scheduler_cmd, **quiet), processes.group(worker_cmd, **quiet):
            try:
                wait_for(scheduler_file.exists, 120, "the Dask scheduler's file")
                address = json.loads(scheduler_file.read_text())["address"]
                wait_for_cluster(address, workers=2, timeout=180)
            except AssertionError as exc:
                raise AssertionError(f"{exc}\ncluster log:\n{logs.read_text()[-3000:]}") from None
            out = tmp_path / "raw"
            # 6 pairs (about 35 calls; the signal comes after 10, so workers that went on would make some 25
            # more, three times the allowance): the rerun that shows the cluster still serves the run makes
            # the rest of them
            cmd = [*build_cmd(out, 6), "--task-runner", "dask", "--dask-address", address]
            with processes.group(
                cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            ) as proc:
                wait_for(lambda: len(server.requests) >= 10, 240, "the build's first LLM replies", build=proc)
                at_signal = len(server.requests)
                os.kill(proc.pid, signal.SIGTERM)
                _, err = proc.communicate(timeout=30)
            time.sleep(6)  # the cluster's workers would still be calling now
            further = len(server.requests) - at_signal
            assert proc.returncode == 143, err
            assert further <= CONCURRENCY, f"{further} requests after the build stopped"
            rerun = processes.run(cmd, cwd=REPO, env=env, timeout=300)  # the stop was for that build only
            assert rerun.returncode == 0, rerun.stderr
    assert json.loads((out / "r" / "state.json").read_text())["status"] == "done"
