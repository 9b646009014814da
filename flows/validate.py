"""The ``validate`` flow: the generated pairs of a run -> item rules (-> the judge, when ``[judge]`` enables
it) and dataset checks -> the run's ``items.jsonl``, ``items.parquet``, ``rejected.jsonl``, ``summary.json``,
validation report (and ``judgements.jsonl``).

Rules are ambiforge's (:mod:`ambiforge.validation`); this flow only schedules them and writes the run.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import quote

from ambiforge import progress
from ambiforge.catalog import cached_catalog
from ambiforge.errors import InputError
from ambiforge.generation.run import Outcome
from ambiforge.llm.calls import CALLS_FILE
from ambiforge.llm.summary import summarize_calls
from ambiforge.options import BuildOptions
from ambiforge.run import state
from ambiforge.run.checkpoints import Sealed, read_outcomes
from ambiforge.run.fingerprint import fingerprint
from ambiforge.run.layout import GENERATED_FILE, VALIDATION_DIR, run_dir
from ambiforge.run.summary import write_run
from ambiforge.stages import StageContext, get
from flows.naming import run_name


@task(name="check-rules", task_run_name="check item rules on {count} items", cache_policy=NO_CACHE)
def rules_task(options: BuildOptions, outcomes: list[Outcome], count: int) -> Sealed:
    options.prepare()
    return Sealed(get("validation").run(outcomes, StageContext(options)))


def quiet_great_expectations() -> None:
    """Great Expectations sets one module's logger to INFO when it is imported, then announces a temporary
    folder on every run: noise in a CLI build. Import it, then lower it."""
    try:
        import great_expectations.data_context.types.base  # noqa: F401
    except ImportError:  # pragma: no cover - moved in another version: the line is only noise
        return
    logging.getLogger("great_expectations.data_context.types.base").setLevel(logging.WARNING)


@task(name="judge", task_run_name="judge {count} pairs", cache_policy=NO_CACHE)
def judge_task(options: BuildOptions, outcomes: list[Outcome], count: int) -> Sealed:
    """The judge stage (``[judge] enabled``): after the item rules, before the report, so the report shows
    its flags and ``items.jsonl`` carries the judgements; the judge's provider serves it even when the
    generator was offline."""
    options.prepare()
    directory = run_dir(options.out, options.run_id)
    return Sealed(get("judge").run(outcomes, StageContext(options, {"directory": directory})))


@task(name="dataset-report", task_run_name="dataset expectations and report", cache_policy=NO_CACHE)
def report_task(options: BuildOptions, outcomes: list[Outcome]) -> dict[str, Any]:
    from ambiforge.validation.expectations import run_expectations
    from ambiforge.validation.report import build_report, write_report

    quiet_great_expectations()

    # items the gates looked at: passed, or rejected by the item rules or the judge (with their flags)
    judged = [o.item for o in outcomes if o.item is not None and o.stage in (None, "validate", "judge")]
    passed = [o.item for o in outcomes if o.item is not None and o.stage is None]
    expectations = run_expectations(
        passed,  # type: ignore[arg-type]
        target_mix=options.type_mix,
        tolerance=options.validation.type_mix_tolerance,
        max_plan_steps=options.validation.max_plan_steps,
    )
    folder = run_dir(options.out, options.run_id) / VALIDATION_DIR
    report = build_report(judged, expectations.to_dict(), f"run {options.run_id}")  # type: ignore[arg-type]
    from ambiforge import diversity

    reference = diversity.read_reference(options.reference) if options.reference else None
    section = diversity.report_section(passed, reference, options.reference or "")  # type: ignore[arg-type]
    write_report(report, judged, folder, target_mix=options.type_mix, diversity=section)  # type: ignore[arg-type]
    expectations.save(folder)
    return report["summary"]


@task(name="write-run", cache_policy=NO_CACHE)
def write_run_task(
    options: BuildOptions, outcomes: list[Outcome], seconds: dict[str, float], extra: dict[str, Any]
) -> dict[str, Any]:
    catalog = cached_catalog(options.catalog)
    return write_run(options, outcomes, seconds, catalog.version, catalog.sha256, extra, fingerprint(options))


@flow(name="validate", flow_run_name=run_name("validate"), validate_parameters=False)
def validate_flow(options: BuildOptions, seconds: dict[str, float] | None = None) -> dict[str, Any]:
    directory = run_dir(options.out, options.run_id)
    finished = state.finished_summary(options)
    if finished is not None:
        return finished
    outcomes = read_outcomes(directory / GENERATED_FILE)
    if outcomes is None:
        raise InputError(str(directory / GENERATED_FILE), "", "no generated pairs: run the generate stage first")
    state.mark(directory, "validate", "running")
    started = time.perf_counter()
    progress.start("validate", len(outcomes))
    outcomes = rules_task(options, quote(outcomes), len(outcomes)).outcomes
    progress.finish("validate")
    timings = dict(seconds or {})
    if options.judge.enabled:
        state.mark(directory, "judge", "running")
        judging = time.perf_counter()
        alive = sum(1 for o in outcomes if o.item is not None and o.stage is None)
        outcomes = judge_task(options, quote(outcomes), alive).outcomes
        timings["judge"] = time.perf_counter() - judging
        state.mark(directory, "judge", "done")
    report = report_task(options, quote(outcomes))
    timings["validate"] = time.perf_counter() - started - timings.get("judge", 0.0)
    extra = {
        "validation": report,
        "reports": {"validation": str(directory / VALIDATION_DIR)},
    }
    llm = summarize_calls(directory / CALLS_FILE)
    if llm is not None:
        extra["llm"] = llm
    summary = write_run_task(options, quote(outcomes), timings, extra)
    state.mark(directory, "validate", "done")
    return summary
