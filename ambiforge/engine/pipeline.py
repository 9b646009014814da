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

import contextlib
import functools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ambiforge import progress
from ambiforge.engine import state
from ambiforge.run.layout import GENERATED_FILE, ITEMS_JSONL, VALIDATION_DIR, batch_path, run_dir

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions
    from ambiforge.engine.checkpoints import Sealed
    from ambiforge.generation.run import Generator
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
    configured concurrency and rate hold for the whole cluster; elsewhere the process's limiter does. A
    process that has not imported ``distributed`` is no Dask worker, and is spared its import (0.6 s of CPU
    before a local build's first call)."""
    import sys

    from ambiforge.generation.run import make_generator

    options.prepare()  # options may have come unpickled to another process: register its ambiguity types
    if options.llm is not None and options.provider != "offline" and "distributed" in sys.modules:
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


def load_item_rules(options: BuildOptions) -> None:
    """Load what the item rules need for their first item (their registry, the lemmatizer's dictionary:
    about 0.5 s of CPU). An LLM generator scores its candidates with them
    (:mod:`ambiforge.generation.llm.selection`), and its pairs, whose calls are served fewest-made first,
    all come to that step near the end of the generation: loaded there, on their first use, it held the
    interpreter lock over the last replies; a build loads it while it waits on the first ones."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.validation.context import RuleContext
    from ambiforge.validation.language import lemma
    from ambiforge.validation.rules import active_rules

    options.prepare()
    active_rules(RuleContext(catalog=cached_catalog(options.catalog), config=options.validation))
    lemma("a")  # the lemmatizer reads its dictionary on its first word


def load_for_llm_build(options: BuildOptions) -> None:
    """What an LLM build's process loads once its first call is out: the item rules
    (:func:`load_item_rules`), needed first, then the report's sections and page
    (:func:`ambiforge.validation.report.load_report`), needed after the last reply."""
    from ambiforge.validation.report import load_report

    load_item_rules(options)
    load_report()


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


#: Generation batches in flight at once: enough to keep every worker (and an LLM's concurrency) busy, few
#: enough that the outcomes waiting for their turn in index order stay a few batches.
BATCHES_IN_FLIGHT = 8


def generate(options: BuildOptions, run: Executor) -> dict[str, int]:
    """Plan pairs -> one step per batch (checkpointed) -> resolve duplicates -> schema gate ->
    ``generated.jsonl``. A rerun reuses finished batches, and the whole stage when it was done.

    Batches are taken in index order as they finish (a few in flight) and each is resolved against the
    tasks of those before it, gated and written at once: the stage holds a few batches and the kept tasks'
    signatures, never the run. Returns counts only: Prefect walks a flow's return value."""
    from collections import deque

    from ambiforge.atomic import jsonl_writer, write_jsonl_atomic
    from ambiforge.engine.checkpoints import candidate_records, count_outcomes, outcome_to_record
    from ambiforge.generation.run import DuplicateResolver, batches, plan_pairs, regenerator, schema_checked
    from ambiforge.run.layout import CANDIDATES_FILE

    directory = run_dir(options.out, options.run_id)
    directory.mkdir(parents=True, exist_ok=True)
    state.check_options(directory, options)
    specs = plan_pairs(options)
    progress.start("generate", len(specs))
    if options.provider != "offline" and options.llm is not None:
        progress.describe("generate", spend_so_far(directory, options.llm.max_cost))
    if state.is_done(directory, "generate"):
        finished = count_outcomes(generated_path(options))
        if finished is not None:
            progress.finish("generate")
            return finished
    state.mark(directory, "generate", "running")
    todo = iter(batches(specs, options.batch_size))
    in_flight: deque[Any] = deque()

    def submit_next() -> None:
        batch = next(todo, None)
        if batch is not None:
            in_flight.append(run.submit(generate_batch, options, batch, batch[0].index, batch[-1].index))

    for _ in range(BATCHES_IN_FLIGHT):
        submit_next()
    resolver = DuplicateResolver(regenerator(generator_for(options)))
    total = {"pairs": 0, "generated": 0, "rejected": 0}
    candidates: list[dict[str, Any]] = []  # LLM pairs only
    with jsonl_writer(generated_path(options)) as write:
        while in_flight:
            sealed = next(run.results([in_flight.popleft()]))
            submit_next()
            progress.advance("generate", len(sealed.outcomes))
            outcomes = []
            for resolved in resolver.resolve(sealed.outcomes):
                outcome, record = schema_checked(resolved)
                write(outcome_to_record(outcome, record))
                outcomes.append(outcome)
            candidates += candidate_records(outcomes)
            rejected = sum(1 for o in outcomes if o.stage is not None)
            total["pairs"] += len(outcomes)
            total["generated"] += len(outcomes) - rejected
            total["rejected"] += rejected
    progress.finish("generate")
    if candidates:
        write_jsonl_atomic(directory / CANDIDATES_FILE, candidates)
    state.mark(directory, "generate", "done")
    return total


# -- validate ---------------------------------------------------------------------------------------------


#: Outcomes read, judged and written at a time by the validate stage (an item is tens of KB as objects).
VALIDATE_BATCH = 500


class Verdicts:
    """The item and dataset rules' failures of a run's generated items, by position among them (only the
    items that failed something); ``expectations``: the rest of a worker's step that runs the dataset
    expectations of the items these verdicts pass (:func:`verdicts_and_expectations`), when one does. A plain
    class: Prefect does not walk it."""

    __slots__ = ("expectations", "failures")

    def __init__(self, failures: dict[int, Any], expectations: Iterator[dict[str, Any]] | None = None) -> None:
        self.failures = failures
        self.expectations = expectations


def _line_batches(path: Path) -> Iterator[tuple[int, list[bytes]]]:
    """``generated.jsonl``'s raw lines, ``VALIDATE_BATCH`` at a time, each batch with its first line's number."""
    batch: list[bytes] = []
    first = 1
    with path.open("rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not batch:
                first = lineno
            batch.append(line)
            if len(batch) >= VALIDATE_BATCH:
                yield first, batch
                batch = []
    if batch:
        yield first, batch


def alive_items(ambiguity: Any, path: str, first: int, lines: list[bytes]) -> list[Any]:
    """The item of each generated pair that has one and no rejection, else None (blank lines too); a record
    that cannot be read is an :class:`InputError` naming its line, as
    :func:`ambiforge.engine.checkpoints.outcome_batches` words it. Runs in the rules' worker processes, so it
    registers the run's ambiguity types (``options.ambiguity``) first, as ``options.prepare()`` does.

    An LLM pair's item was checked by the item rules when its candidates were scored, under the run's own
    rule settings (:func:`ambiforge.generation.run.make_generator`): its (id, task, failures) stand for
    the item, which is neither built nor checked again here (the second pass reads every record whole)."""
    from ambiforge.engine.checkpoints import outcome_from_record
    from ambiforge.errors import InputError
    from ambiforge.generation.llm.selection import chosen_failures

    ambiguity.register()
    items: list[Any] = []
    for lineno, line in enumerate(lines, start=first):
        if not line.strip():
            items.append(None)
            continue
        try:
            record = json.loads(line)
            item = record.get("item")
            if item is not None and record.get("stage") is None:
                known = chosen_failures(record.get("meta"))
                if known is not None:
                    items.append((item["id"], item["unambiguous_direct"], known))
                    continue
            outcome = outcome_from_record(record)
        except (KeyError, TypeError, ValueError) as exc:  # ValueError: JSON and pydantic errors
            raise InputError(path, f"line {lineno}", f"not a readable outcome ({type(exc).__name__})") from None
        items.append(outcome.item if outcome.item is not None and outcome.stage is None else None)
    return items


def check_rules(options: BuildOptions, count: int, worker: Any = None) -> Verdicts:
    """The validate stage's first pass over ``generated.jsonl``: the item rules on each batch and the
    duplicate rules over the ids and tasks; ``count``: the pairs, for the task's name. The rules' worker
    processes are sent the raw lines (:func:`ambiforge.validation.stream.line_failures`).

    With a ``worker`` (:class:`ambiforge.warm_worker.WarmWorker`) the duplicate rules run there (and then,
    in a build without a judge, the dataset expectations: :func:`verdicts_and_expectations`), on what
    they read of each item (its id, its task and its item-rule failures): their MinHash LSH (datasketch,
    which loads scipy and redis: about 1 s of CPU) was imported there while generation waited on replies,
    mostly on top of Great Expectations' own scipy, instead of in this process, where the import held the
    interpreter lock against the replies' threads. The item rules stay here, for the pairs whose candidates
    were not scored by them (:func:`alive_items`). What the worker is sent is held for the call (about as
    much an item as the duplicate index keeps: the local builds that start a worker are the LLM ones, of
    thousands of pairs at most)."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.validation.context import RuleContext
    from ambiforge.validation.stream import line_failures

    options.prepare()
    ctx = RuleContext(catalog=cached_catalog(options.catalog), config=options.validation)
    path = generated_path(options)
    parse = functools.partial(alive_items, options.ambiguity, str(path))
    if worker is None:
        return Verdicts(line_failures(_line_batches(path), parse, ctx))
    from ambiforge.validation.stream import line_judgements

    checked = list(line_judgements(_line_batches(path), parse, ctx))
    if options.judge.enabled:  # the judge may reject items too: the expectations wait for it
        return Verdicts(worker.call(duplicate_flags, options, checked, ctx))
    later = worker.parts(verdicts_and_expectations, options, checked, ctx)
    return Verdicts(next(later), later)


def duplicate_flags(options: BuildOptions, checked: list[Any], ctx: Any) -> dict[int, Any]:
    """:func:`check_rules`' second half where a worker runs it: each judged item's (id, task, item-rule
    failures) with the duplicate rules' flags added, by position (``options.prepare()`` registers the
    run's ambiguity types and rules in the worker's process too)."""
    from ambiforge.validation.stream import with_dataset_flags

    options.prepare()
    return with_dataset_flags(iter(checked), ctx)


def verdicts_and_expectations(options: BuildOptions, checked: list[Any], ctx: Any) -> Iterator[Any]:
    """:func:`duplicate_flags`, then the dataset expectations of the items the verdicts pass, in parts: the
    verdicts first, for the build's process to start its second pass with, then the expectations' summary
    and their files (:func:`expectations_in_parts`), made here meanwhile. For a build without a judge, whose
    verdicts alone decide which items pass (:func:`write_run_files` gathers the same columns in its pass).

    The columns are read off the records (:meth:`ItemColumns.add_record
    <ambiforge.validation.expectations.ItemColumns.add_record>`): building each item again, its scene above
    all, would be most of this step's time after the verdicts, which is on the build's path. The build's
    own second pass reads every record whole and stops the build on one it cannot read."""
    from ambiforge.validation.expectations import ItemColumns
    from ambiforge.validation.stream import passes

    failures = duplicate_flags(options, checked, ctx)
    yield failures
    columns, pos = ItemColumns(), 0
    with generated_path(options).open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line) if line.strip() else {}
            item = record.get("item")
            if item is not None and record.get("stage") is None:
                if passes(failures.get(pos, [])):
                    columns.add_record(item)
                pos += 1
    yield from expectations_in_parts(options, columns, run_dir(options.out, options.run_id) / VALIDATION_DIR)


def quiet_great_expectations() -> None:
    """Great Expectations sets one module's logger to INFO when it is imported, then announces a temporary
    folder on every run: noise in a CLI build. Import it, then lower it."""
    import logging

    try:
        import great_expectations.data_context.types.base  # noqa: F401
    except ImportError:  # pragma: no cover - moved in another version: the line is only noise
        return
    logging.getLogger("great_expectations.data_context.types.base").setLevel(logging.WARNING)


def expectations_to_folder(options: BuildOptions, columns: Any, folder: Path) -> dict[str, Any]:
    """Run the dataset expectations on the passed items' columns and save them in ``folder``; their
    summary for the report (:func:`expectations_in_parts`, in one go)."""
    parts = expectations_in_parts(options, columns, folder)
    summary = next(parts)
    for _ in parts:
        pass
    return summary


def expectations_in_parts(options: BuildOptions, columns: Any, folder: Path) -> Iterator[dict[str, Any]]:
    """Run the dataset expectations on the passed items' columns (an
    :class:`ambiforge.validation.expectations.ItemColumns`, made a frame here: the build's process need not
    import pandas when a worker runs them), give their summary for the report, then save them
    (``expectations.json``, Data Docs) in ``folder``. In a worker (:meth:`WarmWorker.parts
    <ambiforge.warm_worker.WarmWorker.parts>`) the Data Docs, half of the step's CPU (Great Expectations
    compiles its page templates on every build), render while the build's process writes the report; a
    worker needs ``options.prepare()`` to register the run's ambiguity types there too."""
    from ambiforge.validation.expectations import run_expectations

    options.prepare()
    quiet_great_expectations()
    expectations = run_expectations(
        columns.frame(),
        target_mix=options.type_mix,
        tolerance=options.validation.type_mix_tolerance,
        max_plan_steps=options.validation.max_plan_steps,
    )
    yield expectations.to_dict()
    expectations.save(folder)


#: What the validate stage's steps in a worker import, for the worker process to load ahead
#: (ambiforge/warm_worker.py): the duplicate rules' (datasketch, needed first) and the dataset
#: expectations' (Great Expectations, pandas).
WORKER_MODULES = ("ambiforge.engine.pipeline",)
WORKER_LATER = ("ambiforge.validation.stream", "datasketch", "great_expectations", "ambiforge.validation.expectations")
#: What the validate stage's steps in the build's process import that generation does not (the run's files
#: pyarrow, the report jinja2), for a build's process to load while it waits on an LLM's replies rather than
#: after the last one. (The duplicate rules' datasketch is the worker's: see :func:`check_rules`.)
VALIDATE_MODULES = (
    "ambiforge.validation.stream",
    "ambiforge.engine.summary",
    "ambiforge.validation.report",
    "ambiforge.llm.summary",
)


def diversity_section(options: BuildOptions, figures: dict[str, Any], items_path: Path, count: int) -> dict[str, Any]:
    """The report's diversity rows: the passed items' figures, or with ``options.reference`` both datasets
    on equal-sized samples (ours read back from ``items_path`` at the sampled positions)."""
    from ambiforge import diversity
    from ambiforge.models import Item

    if not options.reference:
        return diversity.report_section_of(figures)
    reference = diversity.read_reference(options.reference)
    if not reference:
        return diversity.report_section_of(figures)
    positions = diversity.sample_positions(count, min(count, len(reference)))
    wanted = set(positions)
    found: dict[int, Any] = {}
    with items_path.open(encoding="utf-8") as fh:
        for pos, line in enumerate(fh):
            if pos in wanted:
                found[pos] = Item.model_validate_json(line)
    ours = [found[pos] for pos in positions]
    return diversity.reference_section(diversity.compare_sample(ours, reference), options.reference)


def write_run_files(
    options: BuildOptions, verdicts: Verdicts, seconds: dict[str, float], extra: dict[str, Any], worker: Any = None
) -> dict[str, Any]:
    """The validate stage's second pass over ``generated.jsonl``, batch by batch: the verdicts applied (->
    the judge, when ``[judge]`` enables it, after the item rules and before the report, so the report shows
    its flags and ``items.jsonl`` carries the judgements) -> the run's files, the dataset expectations, the
    validation report and ``summary.json``. Only compact figures and the flagged items' texts are kept.

    With a ``worker`` (:class:`ambiforge.warm_worker.WarmWorker`, which imported Great Expectations
    while generation ran) the expectations run there, and their Data Docs render there while this process
    writes the report (:func:`expectations_in_parts`); without a judge they started there on the verdicts,
    while this pass ran (``verdicts.expectations``, :func:`verdicts_and_expectations`)."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.engine.checkpoints import outcome_batches
    from ambiforge.engine.fingerprint import fingerprint
    from ambiforge.engine.summary import RunFiles
    from ambiforge.llm.calls import CALLS_FILE
    from ambiforge.llm.summary import summarize_calls
    from ambiforge.validation import gated
    from ambiforge.validation.expectations import ItemColumns
    from ambiforge.validation.report import PlotData, ReportBuilder, write_report
    from ambiforge.validation.stream import judged, shown

    options.prepare()
    started = time.perf_counter()
    directory = run_dir(options.out, options.run_id)
    folder = directory / VALIDATION_DIR
    builder, plots, columns, flagged = ReportBuilder(), PlotData(), ItemColumns(), []
    judging = 0.0
    pos = 0
    with contextlib.ExitStack() as stack:
        files = stack.enter_context(RunFiles(directory))
        judge = None
        if options.judge.enabled:
            from ambiforge.judge.stage import JudgeRun  # a build without a judge loads none of it

            alive = sum(1 for _ in _alive_positions(options))
            state.mark(directory, "judge", "running")
            judge = stack.enter_context(JudgeRun(options, directory, alive))
        for batch in outcome_batches(generated_path(options), VALIDATE_BATCH):
            outcomes = []
            for outcome in batch:
                if outcome.item is not None and outcome.stage is None:
                    outcome = gated(outcome, judged(outcome.item, verdicts.failures.get(pos, [])))
                    pos += 1
                outcomes.append(outcome)
            if judge is not None:
                began = time.perf_counter()
                outcomes = judge(outcomes)
                judging += time.perf_counter() - began
            for outcome in outcomes:
                item = outcome.item
                if item is None or outcome.stage not in (None, "validate", "judge"):
                    continue  # the report shows the items the gates looked at: passed, or rejected with flags
                builder.add(item)
                plots.add(item)
                if item.validation is not None and item.validation.failed:
                    flagged.append(shown(item))
                if outcome.stage is None and verdicts.expectations is None:
                    columns.add(item)
            files.add(outcomes)
    if options.judge.enabled:
        state.mark(directory, "judge", "done")
    saving: Iterator[dict[str, Any]] = iter(())
    if verdicts.expectations is not None:  # run by the worker on the verdicts while this pass ran
        saving = verdicts.expectations
        expectations = next(saving)
    elif worker is None:
        expectations = expectations_to_folder(options, columns, folder)
    else:
        saving = worker.parts(expectations_in_parts, options, columns, folder)
        expectations = next(saving)  # the worker saves them (Data Docs) while the report is written
    report = builder.result(expectations, f"run {options.run_id}")
    section = diversity_section(options, files.stats.diversity.result(), directory / ITEMS_JSONL, files.items)
    write_report(report, flagged, folder, target_mix=options.type_mix, diversity=section, plots=plots)  # type: ignore[arg-type]
    timings = dict(seconds)
    if options.judge.enabled:
        timings["judge"] = judging
    timings["validate"] = time.perf_counter() - started - judging + timings.pop("rules", 0.0)
    extra = {"validation": report["summary"], **extra}
    llm = summarize_calls(directory / CALLS_FILE)  # after the judge: its calls too
    if llm is not None:
        extra["llm"] = llm
    catalog = cached_catalog(options.catalog)
    began = time.perf_counter()
    for _ in saving:  # the expectations' files are written before the summary says the run is done
        pass
    timings["validate"] += time.perf_counter() - began
    if worker is not None:
        worker.release()  # its last call: it exits while the summary is written
    return files.summary(options, timings, catalog.version, catalog.sha256, extra, fingerprint(options))


def _alive_positions(options: BuildOptions) -> Iterator[int]:
    """One entry per generated pair with an item and no rejection (records read, items not built)."""
    with generated_path(options).open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if line.strip():
                record = json.loads(line)
                if record.get("item") is not None and record.get("stage") is None:
                    yield n


def validate(
    options: BuildOptions, seconds: dict[str, float] | None, run: Executor, worker: Any = None
) -> dict[str, Any]:
    """The generated pairs -> item rules (-> the judge, when ``[judge]`` enables it) and dataset checks ->
    ``items.jsonl``, ``items.parquet``, ``rejected.jsonl``, ``summary.json`` and the validation report, in
    two passes over ``generated.jsonl`` (rules, then everything else), neither holding the run. A finished
    run is returned as is. ``worker`` (local builds): the duplicate rules and the dataset expectations run
    in that process, whose imports (datasketch, Great Expectations and pandas) were done on the other core
    while generation waited on replies; see :func:`check_rules` and :func:`write_run_files`. The item rules
    run here, on the pairs whose candidates were not scored by them (an LLM pair's were, see
    :func:`alive_items`)."""
    from ambiforge.engine.checkpoints import count_outcomes
    from ambiforge.errors import InputError

    directory = run_dir(options.out, options.run_id)
    finished = state.finished_summary(options)
    if finished is not None:
        return finished
    counted = count_outcomes(directory / GENERATED_FILE)
    if counted is None:
        raise InputError(str(directory / GENERATED_FILE), "", "no generated pairs: run the generate stage first")
    state.mark(directory, "validate", "running")
    started = time.perf_counter()
    progress.start("validate", counted["pairs"])
    verdicts = run.call(check_rules, options, counted["pairs"], *([worker] if worker is not None else []))
    progress.finish("validate")
    timings = {**(seconds or {}), "rules": time.perf_counter() - started}
    extra: dict[str, Any] = {"reports": {"validation": str(directory / VALIDATION_DIR)}}
    summary: dict[str, Any] = run.call(
        write_run_files, options, verdicts, timings, extra, *([worker] if worker is not None else [])
    )
    state.mark(directory, "validate", "done")
    return summary


# -- review and build -------------------------------------------------------------------------------------


def review_push(run_id: str, paths: ReviewPaths, project: str | None = None) -> dict[str, Any]:
    from ambiforge.stages import StageContext, get

    pushed: dict[str, Any] = get("review").run([run_id], StageContext(paths=paths, project=project))[0]
    return pushed


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
