"""``ambiforge serve``: run the ``build`` deployment on a cron schedule from this process (Prefect serve)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from prefect.client.schemas.schedules import CronSchedule

from ambiforge.cli.build import llm_settings, parse_mix
from ambiforge.cli.common import config_from, console
from ambiforge.errors import ConfigError
from ambiforge.generation.mix import check_mix


def check_cron(cron: str) -> str:
    try:
        CronSchedule(cron=cron)
    except ValueError as exc:
        raise ConfigError(f"--cron: not a valid cron expression {cron!r}: {exc.errors()[0]['msg']}") from None
    return cron


def serve(
    cron: Annotated[str, typer.Option(help="schedule, e.g. '0 3 * * *' (03:00 UTC daily)")],
    pairs: Annotated[int | None, typer.Option(help="pairs per scheduled build")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of every scheduled build")] = None,
    provider: Annotated[str, typer.Option(help="offline | llm | openai | mistral | auto")] = "",
    candidates: Annotated[int | None, typer.Option(help="ambiguous variants per pair (LLM)")] = None,
    max_cost: Annotated[float | None, typer.Option("--max-cost", help="USD per scheduled build")] = None,
    out: Annotated[Path | None, typer.Option(help="folder that holds run folders (default: paths.raw)")] = None,
    type_mix: Annotated[str | None, typer.Option(help="TYPE=SHARE,...")] = None,
    task_runner: Annotated[str | None, typer.Option(help="thread | dask")] = None,
    dask_address: Annotated[str | None, typer.Option(help="address of an existing Dask cluster")] = None,
    name: Annotated[str, typer.Option(help="deployment name")] = "scheduled-build",
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """Serve the scheduled build until interrupted; every run gets its own run id. Runs show in the Prefect
    UI (`prefect server start`, then set PREFECT_API_URL=http://127.0.0.1:4200/api before serving)."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.generation.run import BuildOptions
    from flows.deployments import serve_build
    from flows.runners import RUNNERS

    cfg = config_from(config)
    runner = task_runner or cfg.build.task_runner
    if runner not in RUNNERS:
        raise ConfigError(f"--task-runner must be one of {', '.join(RUNNERS)}, got {runner!r}")
    catalog_path = cfg.paths.catalog
    cached_catalog(catalog_path)
    chosen, llm = llm_settings(provider or cfg.build.provider, cfg, max_cost)
    options = BuildOptions(
        run_id="",
        provider=chosen,
        llm=llm,
        candidates=candidates if candidates is not None else cfg.build.candidates,
        pairs=pairs if pairs is not None else cfg.build.pairs,
        seed=seed if seed is not None else cfg.build.seed,
        out=str(out or cfg.paths.raw),
        catalog=catalog_path,
        type_mix=parse_mix(type_mix) if type_mix else check_mix(cfg.build.type_mix),
        batch_size=cfg.build.batch_size,
        task_runner=runner,
        dask_address=dask_address,
    )
    console.print(f"serving deployment [cyan]{name}[/] on schedule [bold]{check_cron(cron)}[/] (Ctrl-C to stop)")
    serve_build(check_cron(cron), options, name)
