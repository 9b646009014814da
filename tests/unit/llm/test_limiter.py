"""The LLM limiter: at most ``concurrency`` calls in flight, and call starts spread evenly at ``rpm``.

Start times are read from an injected clock that only moves when the limiter sleeps, so the tests check
the schedule the limiter makes, not the speed of this machine."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from ambiforge.llm.limiter import LocalLimiter


class FakeClock:
    """Time advances only through ``sleep``; each thread's sleep moves the shared clock forward to the
    moment it wakes, as a real clock would have done by then."""

    def __init__(self) -> None:
        self.now = 0.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self.lock:
            self.now = max(self.now, self.now + seconds)


def starts_of(limiter: LocalLimiter, clock: FakeClock, calls: int) -> list[float]:
    starts: list[float] = []
    for _ in range(calls):
        with limiter.slot():
            starts.append(clock())
    return starts


def test_a_hundred_pair_build_at_300_rpm_starts_calls_evenly() -> None:
    """A 100-pair LLM build makes ~600 calls; at rpm = 300 they start 0.2 s apart, so every second has
    5 starts and every minute 300, instead of 300 in the first seconds and then a stall."""
    clock = FakeClock()
    limiter = LocalLimiter(concurrency=8, rpm=300, clock=clock, sleep=clock.sleep)
    starts = [round(t, 6) for t in starts_of(limiter, clock, 600)]
    gaps = {round(b - a, 9) for a, b in zip(starts, starts[1:], strict=False)}
    assert gaps == {0.2}
    for minute in (0, 1):
        assert sum(1 for t in starts if minute * 60 <= t < (minute + 1) * 60) == 300
    per_second = [sum(1 for t in starts if s <= t < s + 1) for s in range(119)]
    assert max(per_second) == min(per_second) == 5


def test_no_rate_limit_means_no_waiting() -> None:
    clock = FakeClock()
    limiter = LocalLimiter(concurrency=4, rpm=0, clock=clock, sleep=clock.sleep)
    assert starts_of(limiter, clock, 50) == [0.0] * 50


def test_threads_waiting_for_the_rate_are_spaced_too() -> None:
    """Many threads at once (the generator's pair threads) still get starts one interval apart."""
    limiter = LocalLimiter(concurrency=8, rpm=600, window=6.0)  # one start per 10 ms, real clock
    starts: list[float] = []
    lock = threading.Lock()

    def one(_: int) -> None:
        with limiter.slot(), lock:
            starts.append(time.monotonic())

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(one, range(40)))
    starts.sort()
    assert len(starts) == 40
    # 40 starts one interval apart take at least 39 intervals (a thread may be scheduled late, never early)
    assert starts[-1] - starts[0] >= 39 * 0.01 - 0.005


def test_calls_in_flight_never_exceed_the_concurrency() -> None:
    limiter = LocalLimiter(concurrency=3, rpm=0)

    def one(_: int) -> None:
        with limiter.slot():
            time.sleep(0.01)

    with ThreadPoolExecutor(max_workers=10) as pool:
        list(pool.map(one, range(60)))
    assert limiter.peak == 3 and limiter.in_flight == 0


def test_pace_says_the_rpm_window_set_the_pace_when_it_took_longer_than_the_model() -> None:
    """10 calls of 6 ms each at rpm = 300 (0.2 s apart): after the first, each waits 0.194 s for the window
    (1.746 s) against 0.06 s of model time, so the rate limit set the pace; with no limit, no rate wait."""
    clock = FakeClock()
    limiter = LocalLimiter(concurrency=4, rpm=300, clock=clock, sleep=clock.sleep)
    for _ in range(10):
        with limiter.slot():
            clock.sleep(0.006)
    pace = limiter.pace()
    assert pace["calls"] == 10 and pace["rpm"] == 300
    assert abs(pace["rate_wait"] - 9 * 0.194) < 1e-6 and abs(pace["call"] - 0.06) < 1e-6
    assert pace["rate_limited"] is True

    free = LocalLimiter(concurrency=4, rpm=0, clock=clock, sleep=clock.sleep)
    for _ in range(10):
        with free.slot():
            clock.sleep(0.006)
    assert free.pace()["rate_wait"] == 0 and free.pace()["rate_limited"] is False


def test_pace_is_not_rate_limited_when_the_model_is_the_slow_part() -> None:
    clock = FakeClock()
    limiter = LocalLimiter(concurrency=1, rpm=600, clock=clock, sleep=clock.sleep)  # 0.1 s apart
    for _ in range(5):
        with limiter.slot():
            clock.sleep(0.5)  # the model takes longer than the window's spacing: no rate wait after the first
    pace = limiter.pace()
    assert pace["rate_wait"] == 0 and pace["call"] == 2.5 and pace["rate_limited"] is False


def test_first_call_is_set_when_a_call_starts_not_before() -> None:
    """What a build loads only for its later stages waits for this (its start-up is not slowed)."""
    limiter = LocalLimiter(concurrency=1, rpm=0)
    assert not limiter.first_call.is_set()
    with limiter.slot():
        assert limiter.first_call.is_set()
    assert limiter.first_call.is_set()
