"""One writer per run, and SIGINT/SIGTERM honoured, on real CLI builds against the scripted LLM server with
latency (every build runs in its own process group, killed whatever happens)."""

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
def test_an_interrupted_build_stops_calls_marks_the_run_and_resumes(tmp_path: Path, signum: int) -> None:
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
        reference = processes.run(build_cmd(tmp_path / "reference", 12), cwd=REPO, env=env, timeout=300)
        assert reference.returncode == 0, reference.stderr
    assert items_of(out / "r") == items_of(tmp_path / "reference" / "r")
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
            cmd = [*build_cmd(out, 30), "--task-runner", "dask", "--dask-address", address]
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
