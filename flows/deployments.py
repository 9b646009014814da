"""Deployments of the ``build`` flow: served from this process with a cron schedule (``ambiforge serve``),
or declared in ``prefect.yaml`` for a Prefect server with a work pool.

Scheduled runs carry no run id: each run makes a new time-based one, so two runs on the same day never
share (or overwrite) a folder.
"""

from __future__ import annotations

from typing import Any

from prefect.deployments.runner import RunnerDeployment

from ambiforge.config.build import BuildOptions

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


def serve_build(cron: str, options: BuildOptions, name: str = DEPLOYMENT_NAME) -> None:
    """Serve the scheduled deployment until interrupted (Prefect ``serve``)."""
    from prefect import serve

    serve(build_deployment(cron, options, name))
