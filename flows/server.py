"""The temporary Prefect API server of one command: started early, in parallel with the command's own
start-up, and unable to outlive the command.

Without ``PREFECT_API_URL`` Prefect starts an "ephemeral" API server (uvicorn, in a subprocess) on the
first client it makes, blocks until it answers (~8 s on two busy cores, most of it importing the server and
migrating a fresh SQLite database), and stops it from ``atexit``. So the server start adds to every build,
and a build killed with SIGKILL left the server running (one ran 26 minutes).

Here the command starts the same server (same app factory, same settings Prefect passes) on a free port
as soon as it knows it will run flows (before it checks its options and imports the flows), points
``PREFECT_API_URL`` at it, and waits for it only when the first flow is about to run. Prefect 3.8 has no
flow run without an API (an unset URL means the ephemeral server): so a command starts this server only
when it runs Prefect flows (``--prefect``, Dask: :func:`ambiforge.engine.orchestrator.wanted`); otherwise
it runs the same stages in-process (:mod:`ambiforge.engine.local`) and starts none.

The server process runs :func:`serve_child`: it asks the kernel for SIGTERM when its parent dies
(``prctl(PR_SET_PDEATHSIG)``), and a watchdog thread also polls the parent pid (other kernels, and a parent
that was the child's grandparent through a wrapper). It runs in its own session so that a Ctrl-C at the
terminal reaches the build, which then stops the server itself after marking the run.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import IO

from prefect.settings import PREFECT_API_URL, temporary_settings

from ambiforge.processes import die_with_parent, free_port, tail_of

#: Seconds to wait for the server to answer: a fresh PREFECT_HOME migrates a database first.
STARTUP_TIMEOUT = 120.0


class TemporaryServer:
    """A Prefect API server for this process only; ``start`` returns at once, ``wait`` blocks until it
    answers, ``stop`` terminates it (quietly: no "Stopping temporary server" line).

    ``services=False`` (a command that runs its flows itself) is Prefect's ephemeral server: the API only.
    ``services=True`` (``ambiforge serve``) is what ``prefect server start`` runs: the API and Prefect's
    background services, among them the scheduler that turns a deployment's cron into flow runs; without
    it a served schedule never fires."""

    def __init__(self, services: bool = False) -> None:
        self.port = free_port()
        self.services = services
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def start(self) -> TemporaryServer:
        env = {**os.environ, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_FINAL": "1"}
        if not self.services:
            env["PREFECT__SERVER_EPHEMERAL"] = "1"
        env.pop("PREFECT_API_URL", None)
        # No telemetry (no network here; its heartbeat write races the flow's writes on SQLite).
        env.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
        # The server's own log lines (e.g. "database is locked" retries) are kept for the error message
        # of a server that fails to start, not printed over the build's progress.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "flows.server", str(os.getpid()), str(self.port)],
            env=env,
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        return self

    def wait(self, timeout: float = STARTUP_TIMEOUT) -> None:
        """Block until ``/health`` answers; a server that exits or never answers is a RuntimeError (a
        failure of the machine, not of the user's input)."""
        import httpx

        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self.process is None or self.process.poll() is not None:
                    code = None if self.process is None else self.process.returncode
                    raise RuntimeError(
                        f"the temporary Prefect server exited (code {code}) before it answered: {self.log_tail()}"
                    )
                try:
                    if client.get(f"{self.api_url}/health").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
        raise RuntimeError(f"the temporary Prefect server did not answer within {timeout:.0f} s: {self.log_tail()}")

    def log_tail(self, size: int = 2000) -> str:
        return tail_of(self.log, size)

    def stop(self, grace: float = 5.0, wait: bool = True) -> None:
        """SIGTERM, then SIGKILL after ``grace`` seconds. ``wait=False`` (a command whose output is final)
        returns at once: the server shuts down on its own while the command exits, and dies with it anyway
        (its parent-death signal); a long-lived process reaps it with its next subprocess."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            if wait:
                try:
                    process.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if self.log is not None:
            self.log.close()
            self.log = None


def configured_api_url() -> str | None:
    """The API URL Prefect will use: the environment's, or its settings' (read when Prefect was imported,
    not on every use: a test harness or a deployment run sets them there)."""
    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    return PREFECT_API_URL.value() or None


@contextlib.contextmanager
def prefect_api(services: bool = False) -> Iterator[TemporaryServer | None]:
    """Point Prefect at a temporary server for the block, unless an API URL is configured already;
    ``services``: with Prefect's scheduler and other background services (see :class:`TemporaryServer`)."""
    if configured_api_url():
        yield None
        return
    server = TemporaryServer(services=services).start()
    os.environ["PREFECT_API_URL"] = server.api_url
    try:
        # Prefect is imported already: its settings no longer read the environment (child processes do).
        with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
            yield server
    finally:
        server.stop(wait=False)  # the command's work is done: do not hold its exit for the shutdown
        os.environ.pop("PREFECT_API_URL", None)


def serve_child(parent: int, port: int) -> None:
    """The server process: Prefect's API app under uvicorn, as Prefect's own ephemeral server runs it."""
    die_with_parent(parent)
    import uvicorn

    uvicorn.run(
        "prefect.server.api.server:create_app",
        factory=True,
        host="127.0.0.1",
        port=port,
        log_level="error",
        lifespan="on",
    )


if __name__ == "__main__":
    serve_child(int(sys.argv[1]), int(sys.argv[2]))
