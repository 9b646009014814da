"""The ``generate`` flow: plan pairs -> one task per batch (checkpointed) -> resolve duplicates -> schema
gate -> ``raw/<run-id>/generated.jsonl``.

A rerun with the same run id reuses finished batches (and the whole stage when it was done), so a killed
build does not regenerate, and with an LLM provider does not pay twice.
"""

from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed
from prefect.utilities.annotations import quote

from ambiforge import progress
from ambiforge.generation.run import (
    Generator,
    Outcome,
    PairSpec,
    batches,
    make_generator,
    plan_pairs,
    regenerator,
    resolve_duplicates,
    schema_gate,
)
from ambiforge.options import BuildOptions
from ambiforge.run import state
from ambiforge.run.checkpoints import Sealed, read_outcomes, write_candidates, write_outcomes
from ambiforge.run.layout import GENERATED_FILE, batch_path, run_dir
from ambiforge.stages import StageContext, get
from flows.dask_limiter import dask_limiter, in_dask_worker
from flows.retries import retry_transient


def generator_for(options: BuildOptions) -> Generator:
    """On a Dask worker, LLM calls take their slots from semaphores on the Dask scheduler, so the
    configured concurrency and rate hold for the whole cluster; elsewhere the process's limiter does."""
    options.prepare()  # options may have come unpickled to another process: register its ambiguity types
    if options.llm is not None and options.provider != "offline" and in_dask_worker():
        return make_generator(options, dask_limiter(options.run_id, options.llm.concurrency, options.llm.rpm))
    return make_generator(options)


@task(
    name="generate-batch",
    task_run_name="generate pairs {first}-{last}",
    cache_policy=NO_CACHE,
    retries=2,
    retry_delay_seconds=5,
    retry_condition_fn=retry_transient,
)
def generate_batch_task(options: BuildOptions, specs: list[PairSpec], first: int, last: int) -> Sealed:
    """One batch; a finished batch's checkpoint is reused (pair failures are outcomes, not exceptions)."""
    checkpoint = batch_path(run_dir(options.out, options.run_id), first, last)
    done = read_outcomes(checkpoint)
    if done is not None and [o.index for o in done] == [s.index for s in specs]:
        return Sealed(done)
    context = StageContext(options, {"generator": generator_for(options)})
    outcomes = get("generation").run(specs, context)
    write_outcomes(checkpoint, outcomes)
    return Sealed(outcomes)


@task(name="resolve-duplicates", cache_policy=NO_CACHE)
def resolve_duplicates_task(options: BuildOptions, outcomes: list[Outcome]) -> Sealed:
    return Sealed(resolve_duplicates(outcomes, regenerator(generator_for(options))))


@task(name="schema-gate", cache_policy=NO_CACHE)
def schema_gate_task(outcomes: list[Outcome]) -> Sealed:
    return Sealed(schema_gate(outcomes))


def generated_path(options: BuildOptions) -> Path:
    return run_dir(options.out, options.run_id) / GENERATED_FILE


@flow(name="generate", flow_run_name="generate-{options.run_id}", validate_parameters=False)
def generate_flow(options: BuildOptions) -> dict[str, int]:
    """Returns counts only: Prefect walks a flow's return value, and thousands of items cost seconds there.
    The outcomes are in ``generated.jsonl``."""
    directory = run_dir(options.out, options.run_id)
    directory.mkdir(parents=True, exist_ok=True)
    state.check_options(directory, options)
    specs = plan_pairs(options)
    progress.start("generate", len(specs))
    if state.is_done(directory, "generate"):
        finished = read_outcomes(generated_path(options))
        if finished is not None:
            progress.finish("generate")
            return counts(finished)
    state.mark(directory, "generate", "running")
    futures = [
        generate_batch_task.submit(options, batch, batch[0].index, batch[-1].index)
        for batch in batches(specs, options.batch_size)
    ]
    outcomes: list[Outcome] = []
    for future in as_completed(futures):
        done = future.result().outcomes
        outcomes.extend(done)
        progress.advance("generate", len(done))
    progress.finish("generate")
    # quote(): Prefect would otherwise walk every nested field of every item looking for futures.
    outcomes = resolve_duplicates_task(options, quote(outcomes)).outcomes
    outcomes = schema_gate_task(quote(outcomes)).outcomes
    write_candidates(directory, outcomes)
    write_outcomes(generated_path(options), outcomes)
    state.mark(directory, "generate", "done")
    return counts(outcomes)


def counts(outcomes: list[Outcome]) -> dict[str, int]:
    rejected = sum(1 for o in outcomes if o.stage is not None)
    return {"pairs": len(outcomes), "generated": len(outcomes) - rejected, "rejected": rejected}
