"""How many calls may be in flight and how many may start per minute.

One limiter per process is shared by every generator in it (``shared_limiter``), so Prefect's thread
runner, which runs several batch tasks at once, still keeps to the configured totals. Across processes
(Dask workers) the flow injects a limiter backed by semaphores on the Dask scheduler instead
(``flows/dask_limiter.py``); both satisfy :class:`Limiter`.

The rate is a rate, not a quota: call starts are spaced ``window / rpm`` seconds apart (equal spacing, the
generic cell rate algorithm with no burst). A sliding window of ``rpm`` starts per minute let a build start
300 calls in its first 8 s and then none until the minute was over; spaced starts keep the provider's
limit in every window and keep the calls flowing.

Written here rather than taken from a library: the rate limiters on PyPI are asyncio-only (aiolimiter) or
pull in storage backends (limits); this is a semaphore and one "next start" time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

from ambiforge import interrupts


class Limiter(Protocol):
    def slot(self) -> AbstractContextManager[None]: ...


class LocalLimiter:
    """At most ``concurrency`` calls at once, and call starts at least ``window / rpm`` seconds apart
    (0: no rate limit). ``clock`` and ``sleep`` are injectable so tests can check start times exactly."""

    def __init__(
        self,
        concurrency: int,
        rpm: int,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.concurrency, self.rpm, self.window = concurrency, rpm, window
        self.interval = window / rpm if rpm > 0 else 0.0
        self._clock, self._sleep = clock, sleep
        self._slots = threading.BoundedSemaphore(concurrency)
        self._next_start = float("-inf")
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0

    def _wait_for_rate(self) -> None:
        """Reserve the next start time under the lock, then sleep until it outside the lock, so waiting
        callers are served in the order they arrived and none holds the lock while it waits."""
        if self.interval <= 0:
            return
        with self._lock:
            start = max(self._clock(), self._next_start)
            self._next_start = start + self.interval
        wait = start - self._clock()
        if wait > 0:
            self._sleep(wait)

    @contextmanager
    def slot(self) -> Iterator[None]:
        self._slots.acquire()
        try:
            self._wait_for_rate()
            interrupts.check()  # after SIGINT/SIGTERM no new call starts (ambiforge/interrupts.py)
            with self._lock:
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
            try:
                yield
            finally:
                with self._lock:
                    self.in_flight -= 1
        finally:
            self._slots.release()


_shared: dict[tuple[int, int], LocalLimiter] = {}
_shared_lock = threading.Lock()


def shared_limiter(concurrency: int, rpm: int) -> LocalLimiter:
    """The process's limiter for these settings."""
    with _shared_lock:
        key = (concurrency, rpm)
        if key not in _shared:
            _shared[key] = LocalLimiter(concurrency, rpm)
        return _shared[key]
