"""One LLM limiter across every Dask worker of a build: semaphores held by the Dask scheduler.

Threads in one process share :func:`ambiforge.llm.limiter.shared_limiter`, but Dask workers are separate
processes (possibly machines), so a per-process limiter would let each of them run ``concurrency`` calls.
The workers already share the scheduler, and distributed's :class:`~distributed.Semaphore` lives there:

- ``ambiforge-llm-<run>-c<concurrency>`` has ``concurrency`` leases, one per call in flight;
- ``ambiforge-llm-<run>-r<rpm>`` has one lease; each call start takes it and it is given back
  ``60 / rpm`` seconds later, so call starts are spaced evenly across the cluster (the equal spacing of
  ``LocalLimiter``): at most ``rpm`` starts in any 60 s window, and no burst followed by a stall.

A third object, the run's stop event (``ambiforge-llm-<run>-stop``), is how a stopped build reaches workers
that are not its own processes (an existing cluster, ``--dask-address``): the build sets it when it gets
SIGINT/SIGTERM (:func:`ambiforge.engine.runners.stop_cluster_calls`), and each call checks it before it starts. Without
it those workers went on with the batches they held after the build had exited (98 more requests in 20 s).

Names carry the settings because the scheduler refuses a second semaphore of the same name with another
size. A worker that dies loses its leases after distributed's lease timeout (30 s by default), so a killed
worker cannot starve the others. No Prefect server is needed (ephemeral runs have none to share).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from distributed import Event, Semaphore, get_client, get_worker

from ambiforge import interrupts

PREFIX = "ambiforge-llm"
WINDOW_SECONDS = 60.0


def stop_event_name(run_id: str) -> str:
    return f"{PREFIX}-{run_id}-stop"


def set_stop(address: str, run_id: str, stop: bool = True, timeout: float = 3.0) -> None:
    """Set (``stop``) or clear the run's stop event on the scheduler at ``address``; quietly does nothing
    when the scheduler does not answer within ``timeout`` (the build is stopping or has just checked it)."""
    import contextlib

    from distributed import Client

    with contextlib.suppress(Exception), Client(address, timeout=timeout, set_as_default=False) as client:
        event = Event(stop_event_name(run_id), client=client)
        event.set() if stop else event.clear()


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

    def __init__(self, run_id: str, concurrency: int, rpm: int, window: float = WINDOW_SECONDS) -> None:
        worker = get_worker()
        bind = {"scheduler_rpc": worker.scheduler, "loop": worker.loop}
        self.window = window
        self.stop = Event(stop_event_name(run_id), client=get_client())
        self.calls = Semaphore(max_leases=concurrency, name=f"{PREFIX}-{run_id}-c{concurrency}", **bind)
        self.starts: Semaphore | None = None
        if rpm > 0:
            self.interval = window / rpm
            self.starts = Semaphore(max_leases=1, name=f"{PREFIX}-{run_id}-r{rpm}", **bind)
            self._due: queue.SimpleQueue[float] = queue.SimpleQueue()
            threading.Thread(target=self._return_starts, name="llm-rate-window", daemon=True).start()

    def _return_starts(self) -> None:
        """One thread gives the start lease back ``interval`` seconds after it was taken (rather than a
        timer thread per call). Leases are taken in time order, so their due times come out in order too."""
        assert self.starts is not None
        while True:
            due = self._due.get()
            time.sleep(max(0.0, due - time.monotonic()))
            try:
                self.starts.release()
            except Exception:  # noqa: BLE001 - the scheduler is gone (the build stopped): its leases went too
                return

    def close(self) -> None:
        """Stop refreshing this process's leases: its worker is closing, and a refresh after the worker's
        connections close logs a traceback on the build's terminal. The leases go with the worker."""
        for semaphore in (self.calls, self.starts):
            refresh = getattr(semaphore, "refresh_callback", None)  # none when leases never time out
            if refresh is not None:
                refresh.stop()

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self.calls:
            if self.starts is not None:
                self.starts.acquire()
                self._due.put(time.monotonic() + self.interval)
            interrupts.check()  # the worker got SIGINT/SIGTERM (ambiforge/engine/dask_worker.py): no new call
            if self.stop.is_set():  # the build was stopped (this worker may serve other runs: no global stop)
                raise interrupts.Interrupted("interrupted: the build stopped")
            yield


#: The worker process's limiters by their settings (the process's lifetime: a worker serves a run's batches).
_limiters: dict[tuple[str, int, int], DaskLimiter] = {}
_made = threading.Lock()


def dask_limiter(run_id: str, concurrency: int, rpm: int) -> DaskLimiter:
    """The worker process's limiter for this run: one set of semaphore handles per process keeps the
    lease refreshes (one periodic callback per handle) from growing with the number of batches."""
    with _made:
        key = (run_id, concurrency, rpm)
        if key not in _limiters:
            _limiters[key] = DaskLimiter(run_id, concurrency, rpm)
        return _limiters[key]


def close_limiters() -> None:
    """When the worker closes (:func:`ambiforge.engine.dask_worker.dask_teardown`)."""
    with _made:
        for limiter in _limiters.values():
            limiter.close()
        _limiters.clear()
