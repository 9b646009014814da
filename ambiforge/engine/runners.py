"""Task runners by name, and what a build does with its Dask workers when it is stopped.

``thread`` (the default) or ``dask``: a local cluster of processes, or an existing one when an address
(``tcp://host:8786``) is given. Items do not depend on the runner: every pair draws from its own seeded
generator and duplicates are resolved in index order afterwards. The runners themselves are the
orchestrator's (``flows/runners.py``); the signal forwarding here needs no orchestrator, only the processes.
"""

from __future__ import annotations

import os

from ambiforge import interrupts

RUNNERS = ("thread", "dask")
#: Run in each worker of a local cluster: SIGINT/SIGTERM stop new calls there instead of killing it.
WORKER_PRELOAD = "ambiforge.engine.dask_worker"


def local_workers() -> list[int]:
    """Pids of this process's Dask worker processes (multiprocessing children running ``spawn_main``; not
    the temporary Prefect server, not multiprocessing's resource tracker)."""
    import psutil  # a dependency of distributed

    workers = []
    for child in psutil.Process().children(recursive=True):
        try:
            if any("spawn_main" in part for part in child.cmdline()):
                workers.append(child.pid)
        except psutil.Error:
            continue
    return workers


def forward_stop(signum: int) -> None:
    """The build got SIGINT/SIGTERM (perhaps alone, from ``kill``): pass it on to its local workers, which
    then start no new call (:mod:`ambiforge.engine.dask_worker`)."""
    for pid in local_workers():
        try:
            os.kill(pid, signum)
        except OSError:
            continue


def stop_cluster_calls(address: str, run_id: str) -> None:
    """Clear the run's stop event now (a rerun of an interrupted run id starts clean) and set it when the
    build gets SIGINT/SIGTERM, from a thread (the signal handler must not wait for the network)."""
    import threading

    from ambiforge.engine.dask_limiter import set_stop

    set_stop(address, run_id, stop=False)

    def on_signal(signum: int) -> None:
        threading.Thread(target=set_stop, args=(address, run_id), name="dask-stop", daemon=True).start()

    interrupts.on_stop("dask-cluster", on_signal)


def stop_workers_on_signal(address: str | None, run_id: str | None) -> None:
    """Workers of an existing cluster are not ours to signal: the run's stop event reaches them; a local
    cluster's workers get the build's own signal."""
    if address:
        if run_id:
            stop_cluster_calls(address, run_id)
        return
    interrupts.on_stop("dask-workers", forward_stop)
