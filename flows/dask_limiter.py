"""One LLM limiter across every Dask worker of a build: semaphores held by the Dask scheduler.

Threads in one process share :func:`ambiforge.llm.limiter.shared_limiter`, but Dask workers are separate
processes (possibly machines), so a per-process limiter would let each of them run ``concurrency`` calls.
The workers already share the scheduler, and distributed's :class:`~distributed.Semaphore` lives there:

- ``ambiforge-llm-<run>-c<concurrency>`` has ``concurrency`` leases, one per call in flight;
- ``ambiforge-llm-<run>-r<rpm>`` has ``rpm`` leases; each call start takes one and gives it back 60 s
  later, so at most ``rpm`` calls start in any 60 s window (the sliding window of ``LocalLimiter``).

Names carry the settings because the scheduler refuses a second semaphore of the same name with another
size. A worker that dies loses its leases after distributed's lease timeout (30 s by default), so a killed
worker cannot starve the others. No Prefect server is needed (ephemeral runs have none to share).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from distributed import Semaphore, get_worker

from ambiforge.llm.config import LLMConfig

PREFIX = "ambiforge-llm"
WINDOW_SECONDS = 60.0


def in_dask_worker() -> bool:
    try:
        get_worker()
    except ValueError:
        return False
    return True


class DaskLimiter:
    """Built in a task on a worker; its ``slot()`` may then be used from any thread of that process (the
    LLM generator's pair threads do not inherit the worker context, so the scheduler and the event loop
    are bound here, once)."""

    def __init__(self, run_id: str, llm: LLMConfig, window: float = WINDOW_SECONDS) -> None:
        worker = get_worker()
        bind = {"scheduler_rpc": worker.scheduler, "loop": worker.loop}
        self.window = window
        self.calls = Semaphore(max_leases=llm.concurrency, name=f"{PREFIX}-{run_id}-c{llm.concurrency}", **bind)
        self.starts = (
            Semaphore(max_leases=llm.rpm, name=f"{PREFIX}-{run_id}-r{llm.rpm}", **bind) if llm.rpm > 0 else None
        )

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self.calls:
            if self.starts is not None:
                self.starts.acquire()
                timer = threading.Timer(self.window, self.starts.release)
                timer.daemon = True
                timer.start()
            yield


_limiters: dict[tuple[str, int, int], DaskLimiter] = {}
_lock = threading.Lock()


def dask_limiter(run_id: str, llm: LLMConfig) -> DaskLimiter:
    """The worker process's limiter for this run: one set of semaphore handles per process keeps the
    lease refreshes (one periodic callback per handle) from growing with the number of batches."""
    key = (run_id, llm.concurrency, llm.rpm)
    with _lock:
        if key not in _limiters:
            _limiters[key] = DaskLimiter(run_id, llm)
        return _limiters[key]
