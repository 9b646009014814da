"""Task runners: local threads by default, Dask for more than one machine.

``dask`` uses prefect-dask's DaskTaskRunner: a local cluster of processes by default, or an existing
cluster when an address (``tcp://host:8786``) is given. Items do not depend on the runner: every pair
draws from its own seeded generator and duplicates are resolved in index order afterwards.
"""

from __future__ import annotations

from typing import Any

from ambiforge.errors import ConfigError

RUNNERS = ("thread", "dask")


def task_runner_for(name: str, address: str | None = None, workers: int = 2) -> Any:
    if name == "thread":
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner()
    if name == "dask":
        from prefect_dask import DaskTaskRunner

        if address:
            return DaskTaskRunner(address=address)
        return DaskTaskRunner(
            cluster_kwargs={
                "n_workers": workers,
                "threads_per_worker": 1,
                "processes": True,
                "dashboard_address": None,
            }
        )
    raise ConfigError(f"task runner must be one of {', '.join(RUNNERS)}, got {name!r}")
