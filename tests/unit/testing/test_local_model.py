"""The local-model server wrapper without a model: clear errors for what is missing, and no process left
behind when the server fails to start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ambiforge.testing.local_model import SERVER_ENV, LocalModelError, LocalModelServer, model_file, server_binary


def script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "fake-llama-server"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return path


def test_missing_binary_says_to_run_make_local_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SERVER_ENV, raising=False)
    with pytest.raises(LocalModelError, match="make local-llm"):
        server_binary()
    (tmp_path / "x").write_text("")
    with pytest.raises(LocalModelError, match="not an executable file"):
        server_binary(str(tmp_path / "x"))


def test_a_model_file_that_does_not_exist_is_named(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="no such model file"):
        model_file(str(tmp_path / "none.gguf"))


def test_a_server_that_dies_at_start_up_is_an_error_with_its_log(tmp_path: Path) -> None:
    fake = script(tmp_path, 'echo "error: unknown argument: --alias" >&2; exit 3')
    server = LocalModelServer(binary=fake, model_path=tmp_path / "m.gguf", startup_timeout=10)
    with pytest.raises(LocalModelError, match="exited with code 3 at start-up: error: unknown argument"):
        server.start()
    assert server.process is None


def test_a_server_that_never_gets_healthy_is_stopped(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    fake = script(tmp_path, f"echo $$ > {pid_file}; exec sleep 60")
    server = LocalModelServer(binary=fake, model_path=tmp_path / "m.gguf", startup_timeout=1)
    with pytest.raises(LocalModelError, match="did not answer /health within 1 s"):
        server.start()
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the sleeping "server" was stopped
