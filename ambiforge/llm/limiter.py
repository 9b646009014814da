"""How many calls may be in flight and how many may start per minute.

One limiter per process is shared by every generator in it (``shared_limiter``), so Prefect's thread
runner, which runs several batch tasks at once, still keeps to the configured totals. Across processes
(Dask workers) the flow injects a limiter backed by semaphores on the Dask scheduler instead
(``flows/dask_limiter.py``); both satisfy :class:`Limiter`.

Written here rather than taken from a library: the rate limiters on PyPI are asyncio-only (aiolimiter) or
pull in storage backends (limits); this is a semaphore and a sliding window.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol


class Limiter(Protocol):
    def slot(self) -> AbstractContextManager[None]: ...


class LocalLimiter:
    """At most ``concurrency`` calls at once and ``rpm`` starts in any 60 s window (0: no rate limit)."""

    def __init__(self, concurrency: int, rpm: int, window: float = 60.0) -> None:
        self.concurrency, self.rpm, self.window = concurrency, rpm, window
        self._slots = threading.BoundedSemaphore(concurrency)
        self._starts: deque[float] = deque()
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0

    def _wait_for_rate(self) -> None:
        if self.rpm <= 0:
            return
        while True:
            with self._lock:
                now = time.monotonic()
                while self._starts and now - self._starts[0] >= self.window:
                    self._starts.popleft()
                if len(self._starts) < self.rpm:
                    self._starts.append(now)
                    return
                wait = self.window - (now - self._starts[0])
            time.sleep(max(wait, 0.001))

    @contextmanager
    def slot(self) -> Iterator[None]:
        self._slots.acquire()
        try:
            self._wait_for_rate()
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
