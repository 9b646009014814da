"""The ``build`` flow: ``generate`` -> ``validate`` -> (``review_push`` when Label Studio is configured),
then the run's summary, worst items and report links as Prefect artifacts.

Orchestration only: every stage is a flow of its own (runnable alone) over the steps of
:mod:`ambiforge.engine.pipeline` (which a local build runs without Prefect). A rerun with the same run id resumes:
finished generation batches are reused, validation is redone.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from prefect import flow
from prefect.runtime import deployment

from ambiforge.config.build import BuildOptions
from ambiforge.engine import pipeline
from ambiforge.run.layout import run_dir
from ambiforge.run.lock import run_lock
from flows.artifacts import publish_run_artifacts
from flows.generate import generate_flow
from flows.naming import run_name
from flows.runners import task_runner_for
from flows.validate import validate_flow

if TYPE_CHECKING:
    from ambiforge.review.push import ReviewPaths


def review_push(run_id: str, paths: ReviewPaths) -> dict[str, Any]:
    from flows.review import review_push_flow

    return review_push_flow(run_id, paths)


@flow(name="build", flow_run_name=run_name("build"), validate_parameters=False, log_prints=True)
def build_flow(options: BuildOptions | dict[str, Any], annotation_root: str = "annotation") -> dict[str, Any]:
    options = pipeline.resolve_options(options)
    # One writer per run, however the build was started (CLI, deployment, schedule): the CLI holds this
    # lock already (taken again here without waiting); a deployment run of a run id being built is refused.
    with run_lock(run_dir(options.out, options.run_id), options.run_id, reentrant=True):
        runner = task_runner_for(options.task_runner, options.dask_address, run_id=options.run_id)
        stages = pipeline.Stages(
            generate=generate_flow.with_options(task_runner=runner),
            validate=validate_flow,
            publish=publish_run_artifacts,
            review_push=review_push,
        )
        summary = pipeline.build(options, annotation_root, stages)
    if deployment.id is not None:  # a scheduled or deployment run: no CLI prints its summary
        print_run_line(summary, options)
    return summary


def run_line(summary: dict[str, Any], options: BuildOptions) -> str:
    """One line per scheduled run, for the terminal or log of ``ambiforge serve`` or a worker."""
    return (
        f"build {summary['run_id']}: {summary['items_written']} of {options.pairs} pairs written to "
        f"{run_dir(options.out, options.run_id)} in {summary['seconds']['total']:.1f} s"
    )


def print_run_line(summary: dict[str, Any], options: BuildOptions) -> None:
    # Straight to the process's stdout: the flow's print() goes to Prefect's log (log_prints), which the
    # CLI keeps at CRITICAL; the runner streams a run's stdout to the terminal that serves it.
    sys.stdout.write(run_line(summary, options) + "\n")
    sys.stdout.flush()
