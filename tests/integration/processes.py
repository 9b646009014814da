"""Subprocesses that leave nothing behind.

A CLI build starts Prefect's temporary API server (uvicorn) as its own child; when the build is killed, or
a test fails while it runs, that server would outlive the test. Each command here runs in its own process
group (a new session), and the whole group is killed when the command is done, whatever happened.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any


def kill_group(proc: subprocess.Popen[Any]) -> None:
    """SIGKILL every process left in ``proc``'s group (the group outlives its leader while members remain)."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)  # the leader is dead or dying: SIGKILL cannot be caught


@contextmanager
def group(cmd: Sequence[str], **kwargs: Any) -> Iterator[subprocess.Popen[Any]]:
    """``Popen`` in a new process group, killed with all its members on exit from the block."""
    proc = subprocess.Popen(list(cmd), start_new_session=True, **kwargs)
    try:
        yield proc
    finally:
        kill_group(proc)


def run(cmd: Sequence[str], timeout: float = 300, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Like ``subprocess.run(..., capture_output=True, text=True)``, then the process group is killed."""
    with group(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            out, err = proc.communicate()
            raise AssertionError(f"{' '.join(cmd)} did not finish in {timeout} s:\n{err}") from None
        return subprocess.CompletedProcess(list(cmd), proc.returncode, out, err)
