"""Prefect task runners by name: local threads by default, prefect-dask's DaskTaskRunner for more than one
machine (a local cluster of processes, or an existing cluster at ``tcp://host:8786``). What a stopped
build does with its Dask workers is the engine's (:mod:`ambiforge.engine.runners`)."""

from __future__ import annotations

from typing import Any

from prefect.task_runners import ThreadPoolTaskRunner

from ambiforge.engine.runners import RUNNERS, WORKER_PRELOAD, stop_workers_on_signal
from ambiforge.errors import ConfigError


def task_runner_for(name: str, address: str | None = None, workers: int = 2, run_id: str | None = None) -> Any:
    if name == "thread":
        return ThreadPoolTaskRunner()
    if name == "dask":
        from prefect_dask import DaskTaskRunner  # imports distributed: only for Dask builds

        stop_workers_on_signal(address, run_id)
        if address:
            return DaskTaskRunner(address=address)
        return DaskTaskRunner(
            cluster_kwargs={
                "n_workers": workers,
                "threads_per_worker": 1,
                "processes": True,
                "dashboard_address": None,
                "preload": [WORKER_PRELOAD],
            }
        )
    raise ConfigError(f"task runner must be one of {', '.join(RUNNERS)}, got {name!r}")
