"""Child processes of a command (the temporary Prefect server, the warm worker): a free port, the tail of a
child's captured output for an error message, and dying with the parent so no child outlives its command."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import threading
import time
from typing import IO


def free_port() -> int:
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tail_of(log: IO[bytes] | None, size: int = 2000) -> str:
    """The last ``size`` bytes of a child process's captured output, for the error message of a child that
    failed (the temporary server, the warm worker)."""
    if log is None:
        return ""
    log.seek(0, os.SEEK_END)
    log.seek(max(0, log.tell() - size))
    return log.read().decode("utf-8", "replace")


def die_with_parent(parent: int) -> None:
    """SIGTERM from the kernel when the parent dies (Linux), and a watchdog for everything else."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os.kill(os.getpid(), signal.SIGTERM)  # uvicorn shuts down cleanly on SIGTERM
                time.sleep(5.0)
                os._exit(0)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()
