"""How many calls may be in flight and how many may start per minute.

One limiter per process is shared by every generator in it (``shared_limiter``), so Prefect's thread
runner, which runs several batch tasks at once, still keeps to the configured totals. Across processes
(Dask workers) the flow injects a limiter backed by semaphores on the Dask scheduler instead
(``ambiforge/engine/dask_limiter.py``); both satisfy :class:`Limiter`.

The rate is a rate, not a quota: call starts are spaced ``window / rpm`` seconds apart (equal spacing, the
generic cell rate algorithm with no burst). A sliding window of ``rpm`` starts per minute let a build start
300 calls in its first 8 s and then none until the minute was over; spaced starts keep the provider's
limit in every window and keep the calls flowing.

Calls waiting for a slot are served by priority, then in arrival order. A generation stage runs each pair,
a chain of calls, inside :func:`call_priority`: the chain that has made the fewest calls goes first (the
longest remaining chain, the classic rule for the shortest overall time), so pairs started late catch up
and all chains end together. Served in arrival order, the pairs started last finished alone at the end of
a build with most slots idle.

Written here rather than taken from a library: the rate limiters on PyPI are asyncio-only (aiolimiter) or
pull in storage backends (limits); this is a semaphore and one "next start" time.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from ambiforge import interrupts


class Chain:
    """The priority of a chain of calls: fewer calls made first, then the smaller ``index``."""

    def __init__(self, index: int) -> None:
        self.index, self.calls = index, 0

    def next_key(self) -> tuple[float, float]:
        key = (float(self.calls), float(self.index))
        self.calls += 1
        return key


_chain: ContextVar[Chain | None] = ContextVar("ambiforge_call_chain", default=None)
_UNRANKED = (float("inf"), float("inf"))  # calls outside any chain: after ranked ones, in arrival order


@contextmanager
def call_priority(index: int) -> Iterator[Chain]:
    """Calls made inside (in this thread) are one chain, ranked against other chains for a free slot."""
    chain = Chain(index)
    token = _chain.set(chain)
    try:
        yield chain
    finally:
        _chain.reset(token)


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
        self._free = concurrency
        # a heap of the waiting calls: (rank, arrival, set when the call is handed its slot)
        self._waiting: list[tuple[tuple[float, float], int, threading.Event]] = []
        self._arrivals = itertools.count()
        self._slots = threading.Lock()
        self._next_start = float("-inf")
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0
        # seconds summed over calls: waiting for the rate window, waiting for a free slot, and in the call
        # itself (the model), so a run can say which of the three set its pace (:meth:`pace`)
        self.rate_wait = 0.0
        self.slot_wait = 0.0
        self.call_time = 0.0
        self.calls = 0
        # set when a first call starts: what a build needs only later is loaded after it (the build's
        # start-up is on its critical path; waiting on replies is not)
        self.first_call = threading.Event()

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
            with self._lock:
                self.rate_wait += wait
            self._sleep(wait)

    def _acquire(self) -> None:
        """A free slot when no call waits, else a place in line: a freed slot is handed to the first in
        line only (:meth:`_release`), so a release wakes one waiting thread, not every one of them."""
        chain = _chain.get()
        rank = chain.next_key() if chain is not None else _UNRANKED
        with self._slots:
            if self._free and not self._waiting:
                self._free -= 1
                return
            handed = threading.Event()
            heapq.heappush(self._waiting, (rank, next(self._arrivals), handed))
        handed.wait()

    def _release(self) -> None:
        with self._slots:
            if self._waiting:
                heapq.heappop(self._waiting)[2].set()  # the slot goes straight to the first in line
            else:
                self._free += 1

    @contextmanager
    def slot(self) -> Iterator[None]:
        arrived = self._clock()
        self._acquire()
        with self._lock:
            self.slot_wait += self._clock() - arrived
        try:
            self._wait_for_rate()
            interrupts.check()  # after SIGINT/SIGTERM no new call starts (ambiforge/interrupts.py)
            with self._lock:
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
            self.first_call.set()
            started = self._clock()
            try:
                yield
            finally:
                with self._lock:
                    self.in_flight -= 1
                    self.calls += 1
                    self.call_time += self._clock() - started
        finally:
            self._release()

    def pace(self) -> dict[str, Any]:
        """Where the calls' time went: ``rate_wait`` (the rpm window), ``slot_wait`` (all ``concurrency``
        slots busy) and ``call`` (the model answering), in seconds summed over calls; ``rate_limited`` when
        the rpm window took longer than the model did, so a higher ``rpm`` would have made the run faster."""
        with self._lock:
            figures = {
                "rpm": self.rpm,
                "concurrency": self.concurrency,
                "calls": self.calls,
                "rate_wait": round(self.rate_wait, 3),
                "slot_wait": round(self.slot_wait, 3),
                "call": round(self.call_time, 3),
            }
        figures["rate_limited"] = self.rpm > 0 and figures["rate_wait"] > figures["call"]
        return figures


_shared: dict[tuple[int, int], LocalLimiter] = {}
_shared_lock = threading.Lock()


def shared_limiter(concurrency: int, rpm: int) -> LocalLimiter:
    """The process's limiter for these settings."""
    with _shared_lock:
        key = (concurrency, rpm)
        if key not in _shared:
            _shared[key] = LocalLimiter(concurrency, rpm)
        return _shared[key]
