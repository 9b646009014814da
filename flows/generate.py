"""The ``generate`` flow: plan pairs -> one task per batch (checkpointed) -> resolve duplicates -> schema
gate -> ``raw/<run-id>/generated.jsonl``.

The steps and their order are :func:`ambiforge.engine.pipeline.generate`'s (a local build runs the same ones in
threads); this module makes the batches Prefect tasks. Duplicate resolution and the schema gate run in the
flow on each batch as it arrives in index order, so the stage writes as it goes and holds a few batches.
A rerun with the same run id reuses finished batches (and the whole stage when it was done), so a killed
build does not regenerate, and with an LLM provider does not pay twice.
"""

from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from ambiforge.config.build import BuildOptions
from ambiforge.engine import pipeline
from ambiforge.engine.retries import retry_transient
from flows.prefect_executor import PrefectExecutor

generate_batch_task = task(
    name="generate-batch",
    task_run_name="generate pairs {first}-{last}",
    cache_policy=NO_CACHE,
    retries=pipeline.BATCH_RETRY.retries,
    retry_delay_seconds=pipeline.BATCH_RETRY.delay,
    retry_condition_fn=retry_transient,
)(pipeline.generate_batch)

TASKS = PrefectExecutor(
    {
        pipeline.generate_batch: generate_batch_task,
    }
)


@flow(name="generate", flow_run_name="generate-{options.run_id}", validate_parameters=False)
def generate_flow(options: BuildOptions) -> dict[str, int]:
    """Returns counts only: Prefect walks a flow's return value. The outcomes are in ``generated.jsonl``."""
    return pipeline.generate(options, TASKS)
