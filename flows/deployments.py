"""Deployments of the ``build`` flow: served from this process with a cron schedule (``ambiforge serve``),
or declared in ``prefect.yaml`` for a Prefect server with a work pool.

Scheduled runs carry no run id: each run makes a new time-based one, so two runs on the same day never
share (or overwrite) a folder.

Why ``serve`` starts a server of its own: a cron schedule becomes flow runs only through the scheduler, one
of the background services of a Prefect server; the runner in this process only polls for runs that are
due. Prefect's ephemeral API (what a command gets without ``PREFECT_API_URL``) has its services off, so a
schedule served against it never fired. Prefect offers no in-process scheduler for served deployments, so
without ``PREFECT_API_URL`` ``serve`` starts the same server ``prefect server start`` runs (API and
services, no UI) on a free port, and stops it when serving stops. With ``PREFECT_API_URL`` set, the runs
belong to that server and its scheduler.
"""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from prefect.deployments.runner import RunnerDeployment
from prefect.runner import Runner

from ambiforge.config.build import BuildOptions
from flows.server import prefect_api

DEPLOYMENT_NAME = "scheduled-build"


def build_deployment(cron: str, options: BuildOptions, name: str = DEPLOYMENT_NAME) -> RunnerDeployment:
    from flows.build import build_flow

    parameters: dict[str, Any] = {"options": options.model_dump(mode="json") | {"run_id": ""}}
    return build_flow.to_deployment(
        name=name,
        cron=cron,
        parameters=parameters,
        description="Scheduled ambiforge build: generate, validate, push to Label Studio when configured.",
        tags=["ambiforge", "build"],
    )


async def serve_until_stopped(deployment: RunnerDeployment) -> None:
    """Prefect's runner until SIGINT or SIGTERM, which stop it the same way: its polling ends, a run in
    progress is cancelled (its run folder stays, resumable), the schedule is paused on the server.

    Prefect's own ``serve`` handles SIGTERM by calling the runner's ``stop`` from inside the event loop,
    where that is a coroutine nobody awaits ("coroutine 'Runner.astop' was never awaited") and then exits
    mid-loop; here both signals schedule ``astop`` on the loop instead."""
    runner = Runner(pause_on_shutdown=True)
    await runner.aadd_deployment(deployment)
    started = asyncio.ensure_future(runner.start())
    await asyncio.sleep(0)  # start() installs its own SIGTERM handler first thing: replace it after

    def stop() -> None:
        if runner.started and not runner.stopping:
            asyncio.ensure_future(runner.astop())
        elif not runner.started:
            started.cancel()

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop)
    try:
        await started
    except asyncio.CancelledError:
        pass
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)


def serve_build(cron: str, options: BuildOptions, name: str = DEPLOYMENT_NAME) -> None:
    """Serve the scheduled deployment until SIGINT or SIGTERM, against ``PREFECT_API_URL`` or a server
    with a scheduler that this call starts and stops (see the module's docstring)."""
    with prefect_api(services=True) as server:
        if server is not None:
            server.wait()
        asyncio.run(serve_until_stopped(build_deployment(cron, options, name)))
