"""The ``build`` flow: plan pairs -> generate in batches (one task each) -> resolve duplicates -> schema
gate -> write the run folder."""

from __future__ import annotations

import time
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from ambiforge import progress
from ambiforge.generation.run import (
    BuildOptions,
    Outcome,
    PairSpec,
    batches,
    cached_catalog,
    generate_batch,
    make_generator,
    plan_pairs,
    regenerator,
    resolve_duplicates,
    schema_gate,
)
from ambiforge.runs import write_run


@task(
    name="generate-batch",
    task_run_name="generate pairs {first}-{last}",
    cache_policy=NO_CACHE,
)
def generate_batch_task(options: BuildOptions, specs: list[PairSpec], first: int, last: int) -> list[Outcome]:
    return generate_batch(make_generator(options), specs)


@task(name="resolve-duplicates", cache_policy=NO_CACHE)
def resolve_duplicates_task(options: BuildOptions, outcomes: list[Outcome]) -> list[Outcome]:
    return resolve_duplicates(outcomes, regenerator(make_generator(options)))


@task(name="schema-gate", cache_policy=NO_CACHE)
def schema_gate_task(outcomes: list[Outcome]) -> list[Outcome]:
    progress.start("schema", len(outcomes))
    checked = schema_gate(outcomes)
    progress.finish("schema")
    return checked


@task(name="write-run", cache_policy=NO_CACHE)
def write_run_task(
    options: BuildOptions, outcomes: list[Outcome], seconds: dict[str, float]
) -> dict[str, Any]:
    catalog = cached_catalog(options.catalog)
    return write_run(options, outcomes, seconds, catalog.version, catalog.sha256)


@flow(name="build", flow_run_name="build-{options.run_id}", validate_parameters=False, log_prints=True)
def build_flow(options: BuildOptions) -> dict[str, Any]:
    started = time.perf_counter()
    specs = plan_pairs(options)
    progress.start("generate", len(specs))
    futures = [
        generate_batch_task.submit(options, batch, batch[0].index, batch[-1].index)
        for batch in batches(specs, options.batch_size)
    ]
    outcomes = [o for f in futures for o in f.result()]
    progress.finish("generate")
    t_generate = time.perf_counter()
    # quote(): Prefect would otherwise walk every nested field of every item looking for futures.
    outcomes = resolve_duplicates_task(options, quote(outcomes))
    outcomes = schema_gate_task(quote(outcomes))
    t_checked = time.perf_counter()
    seconds = {"generate": t_generate - started, "check": t_checked - t_generate}
    summary = write_run_task(options, quote(outcomes), seconds)
    summary["seconds"]["total"] = round(time.perf_counter() - started, 3)
    return summary
