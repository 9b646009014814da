"""The build's stages written once, over an executor: Prefect tasks and flows (``flows/generate.py``,
``flows/validate.py``, ``flows/build.py``) or this process's threads (``ambiforge/engine/local.py``).

Why two executors: Prefect 3 has no flow run without an API server, and a command-line build with no
server configured would start a temporary one (its import and SQLite migration cost seconds of CPU on
every build, more than a small build's work) only to throw its records away with it. So a local build runs
the same steps, in the same order, with the same checkpoints, retries and progress, in threads; scheduled
builds (deployments), builds with ``PREFECT_API_URL`` set, ``--prefect`` and Dask builds run as Prefect
flows. Which way a build runs is :func:`ambiforge.api.build`'s choice (:func:`ambiforge.engine.orchestrator.wanted`);
this module imports no Prefect and nothing of ``flows/``: the Prefect modules wrap its steps as tasks and
hand it their executor.

The rules and the work are ambiforge's; this module only says which step runs when.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ambiforge import progress
from ambiforge.engine import state
from ambiforge.run.layout import GENERATED_FILE, VALIDATION_DIR, batch_path, run_dir

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions
    from ambiforge.engine.checkpoints import Sealed
    from ambiforge.generation.run import Generator
    from ambiforge.models.outcome import Outcome
    from ambiforge.review.push import ReviewPaths


class Executor(Protocol):
    """Runs the steps of a stage: ``submit`` many at once, or ``call`` one and wait for its result."""

    def submit(self, step: Callable[..., Any], *args: Any) -> Any: ...

    def results(self, futures: list[Any]) -> Iterator[Any]:
        """The futures' results in the order they finish."""
        ...

    def call(self, step: Callable[..., Any], *args: Any) -> Any: ...


@dataclass(frozen=True)
class Retry:
    """A step's retry policy (transient failures only, see ``ambiforge.engine.retries``), for both executors."""

    retries: int
    delay: float


#: LLM calls fail on dropped connections; a batch's finished pairs are in its checkpoint anyway.
BATCH_RETRY = Retry(retries=2, delay=5.0)
#: Label Studio may be restarting.
REVIEW_RETRY = Retry(retries=2, delay=10.0)


# -- generate ---------------------------------------------------------------------------------------------


def generator_for(options: BuildOptions) -> Generator:
    """On a Dask worker, LLM calls take their slots from semaphores on the Dask scheduler, so the
    configured concurrency and rate hold for the whole cluster; elsewhere the process's limiter does."""
    from ambiforge.generation.run import make_generator

    options.prepare()  # options may have come unpickled to another process: register its ambiguity types
    if options.llm is not None and options.provider != "offline":
        from ambiforge.engine.dask_limiter import dask_limiter, in_dask_worker

        if in_dask_worker():
            return make_generator(options, dask_limiter(options.run_id, options.llm.concurrency, options.llm.rpm))
    return make_generator(options)


def generate_batch(options: BuildOptions, specs: list[Any], first: int, last: int) -> Sealed:
    """One batch; a finished batch's checkpoint is reused (pair failures are outcomes, not exceptions)."""
    from ambiforge.engine.checkpoints import Sealed, read_outcomes, write_outcomes
    from ambiforge.stages import StageContext, get

    checkpoint = batch_path(run_dir(options.out, options.run_id), first, last)
    done = read_outcomes(checkpoint)
    if done is not None and [o.index for o in done] == [s.index for s in specs]:
        return Sealed(done)
    context = StageContext(options, generator=generator_for(options))
    outcomes = get("generation").run(specs, context)
    write_outcomes(checkpoint, outcomes)
    return Sealed(outcomes)


def resolve_duplicates(options: BuildOptions, outcomes: list[Outcome]) -> Sealed:
    from ambiforge.engine.checkpoints import Sealed
    from ambiforge.generation.run import regenerator
    from ambiforge.generation.run import resolve_duplicates as resolve

    return Sealed(resolve(outcomes, regenerator(generator_for(options))))


def schema_gate(outcomes: list[Outcome]) -> Sealed:
    from ambiforge.engine.checkpoints import Sealed
    from ambiforge.generation.run import schema_gate as gate

    return Sealed(gate(outcomes))


def generated_path(options: BuildOptions) -> Path:
    return run_dir(options.out, options.run_id) / GENERATED_FILE


def spend_so_far(directory: Path, max_cost: float | None) -> Callable[[], str]:
    """The run's spend for the progress line, read from its call log (every process's calls, and those of
    the run before a restart) as ``--max-cost`` reads it."""
    from ambiforge.llm.budget import Budget
    from ambiforge.llm.calls import CALLS_FILE

    budget = Budget(directory / CALLS_FILE, max_cost)
    cap = f" of {max_cost:.2f}" if max_cost is not None else ""
    return lambda: f"USD {budget.spent():.4f}{cap} spent"


def generate(options: BuildOptions, run: Executor) -> dict[str, int]:
    """Plan pairs -> one step per batch (checkpointed) -> resolve duplicates -> schema gate ->
    ``generated.jsonl``. A rerun reuses finished batches, and the whole stage when it was done.

    Returns counts only: Prefect walks a flow's return value, and thousands of items cost seconds there."""
    from ambiforge.engine.checkpoints import read_outcomes, write_candidates, write_outcomes
    from ambiforge.generation.run import batches, plan_pairs

    directory = run_dir(options.out, options.run_id)
    directory.mkdir(parents=True, exist_ok=True)
    state.check_options(directory, options)
    specs = plan_pairs(options)
    progress.start("generate", len(specs))
    if options.provider != "offline" and options.llm is not None:
        progress.describe("generate", spend_so_far(directory, options.llm.max_cost))
    if state.is_done(directory, "generate"):
        finished = read_outcomes(generated_path(options))
        if finished is not None:
            progress.finish("generate")
            return counts(finished)
    state.mark(directory, "generate", "running")
    futures = [
        run.submit(generate_batch, options, batch, batch[0].index, batch[-1].index)
        for batch in batches(specs, options.batch_size)
    ]
    outcomes: list[Outcome] = []
    for sealed in run.results(futures):
        outcomes.extend(sealed.outcomes)
        progress.advance("generate", len(sealed.outcomes))
    progress.finish("generate")
    outcomes = run.call(resolve_duplicates, options, outcomes).outcomes
    outcomes = run.call(schema_gate, outcomes).outcomes
    write_candidates(directory, outcomes)
    write_outcomes(generated_path(options), outcomes)
    state.mark(directory, "generate", "done")
    return counts(outcomes)


def counts(outcomes: list[Outcome]) -> dict[str, int]:
    rejected = sum(1 for o in outcomes if o.stage is not None)
    return {"pairs": len(outcomes), "generated": len(outcomes) - rejected, "rejected": rejected}


# -- validate ---------------------------------------------------------------------------------------------


def check_rules(options: BuildOptions, outcomes: list[Outcome], count: int) -> Sealed:
    from ambiforge.engine.checkpoints import Sealed
    from ambiforge.stages import StageContext, get

    options.prepare()
    return Sealed(get("validation").run(outcomes, StageContext(options)))


def judge_pairs(options: BuildOptions, outcomes: list[Outcome], count: int) -> Sealed:
    """The judge stage (``[judge] enabled``): after the item rules, before the report, so the report shows
    its flags and ``items.jsonl`` carries the judgements; the judge's provider serves it even when the
    generator was offline."""
    from ambiforge.engine.checkpoints import Sealed
    from ambiforge.stages import StageContext, get

    options.prepare()
    directory = run_dir(options.out, options.run_id)
    return Sealed(get("judge").run(outcomes, StageContext(options, directory=directory)))


def quiet_great_expectations() -> None:
    """Great Expectations sets one module's logger to INFO when it is imported, then announces a temporary
    folder on every run: noise in a CLI build. Import it, then lower it."""
    import logging

    try:
        import great_expectations.data_context.types.base  # noqa: F401
    except ImportError:  # pragma: no cover - moved in another version: the line is only noise
        return
    logging.getLogger("great_expectations.data_context.types.base").setLevel(logging.WARNING)


def expectations_to_folder(options: BuildOptions, items: list[Any], folder: Path) -> dict[str, Any]:
    """Run the dataset expectations on the passed items and save them (``expectations.json``, Data Docs)
    in ``folder``; their summary for the report. Runs in the build's process or in a worker process (then
    ``options.prepare()`` registers the run's ambiguity types there too)."""
    from ambiforge.validation.expectations import run_expectations

    options.prepare()
    quiet_great_expectations()
    expectations = run_expectations(
        items,
        target_mix=options.type_mix,
        tolerance=options.validation.type_mix_tolerance,
        max_plan_steps=options.validation.max_plan_steps,
    )
    expectations.save(folder)
    return expectations.to_dict()


#: What the dataset expectations import, for a worker process to load ahead (ambiforge/engine/warm_worker.py).
EXPECTATIONS_MODULES = ("great_expectations", "ambiforge.validation.expectations", "ambiforge.engine.pipeline")


def dataset_report(options: BuildOptions, outcomes: list[Outcome], worker: Any = None) -> dict[str, Any]:
    """The dataset expectations and the validation report. With a ``worker``
    (:class:`ambiforge.engine.warm_worker.WarmWorker`, which imported Great Expectations while generation ran) the
    expectations run there."""
    from ambiforge import diversity
    from ambiforge.validation.report import build_report, write_report

    # items the gates looked at: passed, or rejected by the item rules or the judge (with their flags)
    judged = [o.item for o in outcomes if o.item is not None and o.stage in (None, "validate", "judge")]
    passed = [o.item for o in outcomes if o.item is not None and o.stage is None]
    folder = run_dir(options.out, options.run_id) / VALIDATION_DIR
    if worker is None:
        expectations = expectations_to_folder(options, passed, folder)
    else:
        expectations = worker.call(expectations_to_folder, options, passed, folder)
    report = build_report(judged, expectations, f"run {options.run_id}")  # type: ignore[arg-type]
    reference = diversity.read_reference(options.reference) if options.reference else None
    section = diversity.report_section(passed, reference, options.reference or "")  # type: ignore[arg-type]
    write_report(report, judged, folder, target_mix=options.type_mix, diversity=section)  # type: ignore[arg-type]
    return report["summary"]


def write_run_files(
    options: BuildOptions, outcomes: list[Outcome], seconds: dict[str, float], extra: dict[str, Any]
) -> dict[str, Any]:
    from ambiforge.catalog import cached_catalog
    from ambiforge.engine.fingerprint import fingerprint
    from ambiforge.engine.summary import write_run

    catalog = cached_catalog(options.catalog)
    return write_run(options, outcomes, seconds, catalog.version, catalog.sha256, extra, fingerprint(options))


def validate(
    options: BuildOptions, seconds: dict[str, float] | None, run: Executor, worker: Any = None
) -> dict[str, Any]:
    """The generated pairs -> item rules (-> the judge, when ``[judge]`` enables it) and dataset checks ->
    ``items.jsonl``, ``items.parquet``,
    ``rejected.jsonl``, ``summary.json`` and the validation report. A finished run is returned as is.
    ``worker``: see :func:`dataset_report` (local builds)."""
    from ambiforge.engine.checkpoints import read_outcomes
    from ambiforge.errors import InputError
    from ambiforge.llm.calls import CALLS_FILE
    from ambiforge.llm.summary import summarize_calls

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
    outcomes = run.call(check_rules, options, outcomes, len(outcomes)).outcomes
    progress.finish("validate")
    timings = dict(seconds or {})
    if options.judge.enabled:
        state.mark(directory, "judge", "running")
        judging = time.perf_counter()
        alive = sum(1 for o in outcomes if o.item is not None and o.stage is None)
        outcomes = run.call(judge_pairs, options, outcomes, alive).outcomes
        timings["judge"] = time.perf_counter() - judging
        state.mark(directory, "judge", "done")
    report = run.call(dataset_report, options, outcomes, *([worker] if worker is not None else []))
    timings["validate"] = time.perf_counter() - started - timings.get("judge", 0.0)
    extra: dict[str, Any] = {"validation": report, "reports": {"validation": str(directory / VALIDATION_DIR)}}
    llm = summarize_calls(directory / CALLS_FILE)
    if llm is not None:
        extra["llm"] = llm
    summary = run.call(write_run_files, options, outcomes, timings, extra)
    state.mark(directory, "validate", "done")
    return summary


# -- review and build -------------------------------------------------------------------------------------


def review_push(run_id: str, paths: ReviewPaths, project: str | None = None) -> dict[str, Any]:
    from ambiforge.stages import StageContext, get

    return get("review").run([run_id], StageContext(paths=paths, project=project))[0]


def resolve_options(options: BuildOptions | dict[str, Any]) -> BuildOptions:
    """Deployments pass plain dicts; scheduled runs carry no run id and get a fresh one."""
    from ambiforge.config.build import BuildOptions
    from ambiforge.run.layout import new_run_id

    opts = options if isinstance(options, BuildOptions) else BuildOptions.model_validate(options)
    if not opts.run_id:
        opts = opts.model_copy(update={"run_id": new_run_id(opts.provider, opts.seed)})
    return opts


def label_studio_configured() -> bool:
    return bool(os.environ.get("LABEL_STUDIO_URL") and os.environ.get("LABEL_STUDIO_API_KEY"))


@dataclass(frozen=True)
class Stages:
    """How a build runs its stages: Prefect subflows (with the run's task runner) or local calls."""

    generate: Callable[[BuildOptions], Any]
    validate: Callable[[BuildOptions, dict[str, float]], dict[str, Any]]
    publish: Callable[[dict[str, Any], dict[str, Any] | None, dict[str, Path]], None]
    review_push: Callable[[str, ReviewPaths], dict[str, Any]]


def build(options: BuildOptions, annotation_root: str, stages: Stages) -> dict[str, Any]:
    """``generate`` -> ``validate`` -> (``review_push`` when Label Studio is configured), then the run's
    summary, worst items and report links published (as Prefect artifacts in a flow). The build's stages are
    checked against their declared inputs and outputs first, so a stage wired in the wrong place stops the
    build before any work."""
    from ambiforge.engine.fingerprint import build_stages
    from ambiforge.stages import check_pipeline

    check_pipeline(build_stages(options), ("pair_specs",))
    started = time.perf_counter()
    stages.generate(options)
    seconds = {"generate": time.perf_counter() - started}
    summary = stages.validate(options, seconds)
    summary["seconds"]["total"] = round(time.perf_counter() - started, 3)
    report_dir = run_dir(options.out, options.run_id) / VALIDATION_DIR
    report = None
    if (report_dir / "report.json").exists():
        report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    stages.publish(summary, report, {"validation": report_dir / "report.html"})
    if label_studio_configured():
        from ambiforge.review.push import ReviewPaths

        paths = ReviewPaths(Path(options.out), Path(annotation_root))
        summary["review_push"] = stages.review_push(options.run_id, paths)
    return summary


def finished_in_order(futures: Iterable[Any], wait: Callable[[Iterable[Any]], Iterator[Any]]) -> Iterator[Any]:
    """``wait(futures)`` yields futures as they finish; their results, for :meth:`Executor.results`."""
    for future in wait(futures):
        yield future.result()
