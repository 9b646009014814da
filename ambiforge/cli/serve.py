"""``ambiforge serve``: run the ``build`` deployment on a cron schedule from this process (Prefect serve)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.build import command_options, parse_step_models
from ambiforge.cli.common import config_from, console


def serve(
    cron: Annotated[str, typer.Option(help="schedule, e.g. '0 3 * * *' (03:00 UTC daily)")],
    pairs: Annotated[int | None, typer.Option(help="pairs per scheduled build")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of every scheduled build")] = None,
    provider: Annotated[str | None, typer.Option(help="offline | llm | openai | mistral | auto")] = None,
    model: Annotated[str | None, typer.Option(help="one model for every LLM step")] = None,
    step_model: Annotated[
        list[str] | None, typer.Option("--step-model", help="STEP=MODEL for one LLM step; repeatable")
    ] = None,
    candidates: Annotated[int | None, typer.Option(help="ambiguous variants per pair (LLM)")] = None,
    max_cost: Annotated[float | None, typer.Option("--max-cost", help="USD per scheduled build")] = None,
    out: Annotated[Path | None, typer.Option(help="folder that holds run folders (default: paths.raw)")] = None,
    type_mix: Annotated[str | None, typer.Option(help="TYPE=SHARE,...")] = None,
    task_runner: Annotated[str | None, typer.Option(help="thread | dask")] = None,
    dask_address: Annotated[str | None, typer.Option(help="address of an existing Dask cluster")] = None,
    name: Annotated[str, typer.Option(help="deployment name")] = "scheduled-build",
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """Serve the scheduled build until Ctrl-C or SIGTERM; every run gets its own run id and prints one line.
    Without PREFECT_API_URL a Prefect server with its scheduler runs for as long as this command; to see
    runs in the Prefect UI start `prefect server start` and set PREFECT_API_URL=http://127.0.0.1:4200/api
    before serving. Every section of the configuration reaches the scheduled builds, as for `ambiforge build`."""
    from ambiforge import api

    cfg = config_from(config)
    api.check_deployment_name(name)
    api.check_schedule(cron)
    options = command_options(
        cfg,
        provider=provider,
        model=model,
        step_models=parse_step_models(step_model),
        max_cost=max_cost,
        candidates=candidates,
        pairs=pairs,
        seed=seed,
        out=out,
        type_mix=type_mix,
        task_runner=task_runner,
        dask_address=dask_address,
        config_path=str(config) if config else cfg.source,
    )
    console.print(f"serving deployment [cyan]{name}[/] on schedule [bold]{cron}[/] (Ctrl-C to stop)")
    api.serve(cron, options, name)
    console.print(f"stopped serving deployment {name}")
