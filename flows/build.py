"""The ``build`` flow: ``generate`` -> ``validate`` -> (``review_push`` when Label Studio is configured),
then the run's summary, worst items and report links as Prefect artifacts.

Orchestration only: every stage is a flow of its own (runnable alone) over functions in ``ambiforge/``.
A rerun with the same run id resumes: finished generation batches are reused, validation is redone.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from prefect import flow

from ambiforge.options import BuildOptions
from ambiforge.run.layout import VALIDATION_DIR, new_run_id, run_dir
from ambiforge.run.lock import run_lock
from flows.artifacts import publish_run_artifacts
from flows.generate import generate_flow
from flows.naming import run_name
from flows.runners import task_runner_for
from flows.validate import validate_flow


def resolve_options(options: BuildOptions | dict[str, Any]) -> BuildOptions:
    """Deployments pass plain dicts; scheduled runs carry no run id and get a fresh one."""
    opts = options if isinstance(options, BuildOptions) else BuildOptions.model_validate(options)
    if not opts.run_id:
        opts = opts.model_copy(update={"run_id": new_run_id(opts.provider, opts.seed)})
    return opts


def label_studio_configured() -> bool:
    return bool(os.environ.get("LABEL_STUDIO_URL") and os.environ.get("LABEL_STUDIO_API_KEY"))


@flow(name="build", flow_run_name=run_name("build"), validate_parameters=False, log_prints=True)
def build_flow(options: BuildOptions | dict[str, Any], annotation_root: str = "annotation") -> dict[str, Any]:
    options = resolve_options(options)
    # One writer per run, however the build was started (CLI, deployment, schedule): the CLI holds this
    # lock already (taken again here without waiting); a deployment run of a run id being built is refused.
    with run_lock(run_dir(options.out, options.run_id), options.run_id, reentrant=True):
        return _build(options, annotation_root)


def _build(options: BuildOptions, annotation_root: str) -> dict[str, Any]:
    started = time.perf_counter()
    runner = task_runner_for(options.task_runner, options.dask_address, run_id=options.run_id)
    generate_flow.with_options(task_runner=runner)(options)
    seconds = {"generate": time.perf_counter() - started}
    summary = validate_flow(options, seconds)
    summary["seconds"]["total"] = round(time.perf_counter() - started, 3)
    directory = run_dir(options.out, options.run_id)
    report_dir = directory / VALIDATION_DIR
    report = None
    if (report_dir / "report.json").exists():
        report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    publish_run_artifacts(summary, report, {"validation": report_dir / "report.html"})
    if label_studio_configured():
        from ambiforge.review.push import ReviewPaths
        from flows.review import review_push_flow

        summary["review_push"] = review_push_flow(options.run_id, ReviewPaths(Path(options.out), Path(annotation_root)))
    return summary
