"""The LLM limiter shared by the processes of a Dask cluster (``ambiforge/engine/dask_limiter.py``)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from distributed import Client, LocalCluster


def calls_through_the_limiter(run_id: str, concurrency: int, rpm: int, calls: int) -> list[tuple[float, float]]:
    """Runs on a worker: ``calls`` slots from two threads of that process, each held 0.2 s."""
    from concurrent.futures import ThreadPoolExecutor

    from ambiforge.engine.dask_limiter import DaskLimiter

    limiter = DaskLimiter(run_id, concurrency, rpm, window=1.0)

    def one(_: int) -> tuple[float, float]:
        with limiter.slot():
            start = time.time()
            time.sleep(0.2)
            return start, time.time()

    with ThreadPoolExecutor(max_workers=2) as pool:  # threads, like the LLM generator's pair threads
        return list(pool.map(one, range(calls)))


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as dask_client,
    ):
        yield dask_client


def on_both_workers(client: Client, *args: object) -> list[tuple[float, float]]:
    workers = list(client.scheduler_info()["workers"])
    assert len(workers) == 2
    futures = [client.submit(calls_through_the_limiter, *args, workers=[w], pure=False) for w in workers]
    return [span for future in futures for span in future.result()]


def most_at_once(spans: list[tuple[float, float]]) -> int:
    events = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans], key=lambda e: (e[0], e[1]))
    running = peak = 0
    for _, step in events:
        running += step
        peak = max(peak, running)
    return peak


def test_calls_in_flight_are_limited_across_workers(client: Client) -> None:
    # two workers x two threads could run 4 calls at once; the cluster-wide limit is 2
    spans = on_both_workers(client, "concurrency", 2, 0, 4)
    assert len(spans) == 8
    assert most_at_once(spans) == 2


def test_call_starts_per_window_are_limited_across_workers(client: Client) -> None:
    # 3 starts per 1 s window for the whole cluster; 6 calls from two workers need a second window
    spans = on_both_workers(client, "rate", 4, 3, 3)
    starts = sorted(s for s, _ in spans)
    assert len(starts) == 6
    assert max(sum(1 for t in starts if first <= t < first + 1.0) for first in starts) == 3
    assert starts[3] - starts[0] >= 0.95  # the fourth start waited for the first lease to come back


def lease_refreshes_after_teardown() -> list[bool]:
    """Runs on a worker: a call holds its lease while the worker closes (the preload's teardown)."""
    import threading

    from ambiforge.engine.dask_limiter import dask_limiter
    from ambiforge.engine.dask_worker import dask_teardown

    limiter = dask_limiter("teardown", 2, 5)
    holding, release = threading.Event(), threading.Event()

    def call() -> None:
        with limiter.slot():
            holding.set()
            release.wait(5)

    thread = threading.Thread(target=call)
    thread.start()
    holding.wait(5)
    before = [s.refresh_callback.is_running() for s in (limiter.calls, limiter.starts) if s is not None]
    dask_teardown()
    after = [s.refresh_callback.is_running() for s in (limiter.calls, limiter.starts) if s is not None]
    release.set()
    thread.join(5)
    assert dask_limiter("teardown", 2, 5) is not limiter  # the closed handles are not handed out again
    return before + after


def test_a_closing_worker_stops_refreshing_the_leases_its_calls_hold(client: Client) -> None:
    """Else the refresh ran on the closed connections of an interrupted build's worker and printed a
    ``ConnectionPool is closed`` traceback on the terminal."""
    worker = next(iter(client.scheduler_info()["workers"]))
    assert client.submit(lease_refreshes_after_teardown, workers=[worker], pure=False).result() == [
        True,
        True,
        False,
        False,
    ]
