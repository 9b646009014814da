"""The ``validate`` flow: the generated pairs of a run -> item rules (-> the judge, when ``[judge]`` enables
it) and dataset checks -> the run's ``items.jsonl``, ``items.parquet``, ``rejected.jsonl``, ``summary.json``,
validation report (and ``judgements.jsonl``).

Rules are ambiforge's (:mod:`ambiforge.validation`), the steps :func:`ambiforge.engine.pipeline.validate`'s (two
passes over ``generated.jsonl``: the rules, then judge, report and files); this module makes them Prefect tasks.
"""

from __future__ import annotations

from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from ambiforge.config.build import BuildOptions
from ambiforge.engine import pipeline
from flows.naming import run_name
from flows.prefect_executor import PrefectExecutor

rules_task = task(name="check-rules", task_run_name="check item rules on {count} items", cache_policy=NO_CACHE)(
    pipeline.check_rules
)
write_run_task = task(
    name="write-run", task_run_name="judge, dataset expectations, report and files", cache_policy=NO_CACHE
)(pipeline.write_run_files)

TASKS = PrefectExecutor(
    {
        pipeline.check_rules: rules_task,
        pipeline.write_run_files: write_run_task,
    }
)


@flow(name="validate", flow_run_name=run_name("validate"), validate_parameters=False)
def validate_flow(options: BuildOptions, seconds: dict[str, float] | None = None) -> dict[str, Any]:
    return pipeline.validate(options, seconds, TASKS)
