"""``validate`` over a file of any size: items are read in batches, twice, and never all held.

The first pass runs the item rules on each batch (in worker processes once the file proves large) and
keeps compact state for the dataset-wide checks: the duplicate rules' index, which flags each item against
those before it as it is read (:class:`~ambiforge.validation.rules.duplicates.DuplicateIndex`), the few
columns the Great Expectations suite measures (:class:`ItemColumns`), the diversity figures and the plot
data. The second pass reads the batches again,
attaches each item's verdict (item rules, then dataset rules, as :func:`validate_items` orders them) and
feeds the report, keeping whole items only for the flagged ones, whose texts report.html shows.

The report, issues and expectations are those of :func:`validate_items` + :func:`build_report` on the
whole list (``tests/unit/validation/test_stream.py``).
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import orjson
from pydantic import ValidationError

from ambiforge import inputs
from ambiforge.errors import InputError
from ambiforge.models import Item, RuleFailure, Validation
from ambiforge.validation import PARALLEL_FROM, _check_chunk
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import severity
from ambiforge.validation.rules.duplicates import DuplicateIndex

R = TypeVar("R")

#: Items read, judged and reported at a time (an item is tens of KB as Python objects).
BATCH_SIZE = 2_000


def _validated(record: Any, path: Path, n: int) -> Item:
    try:
        return Item.model_validate(record)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InputError(str(path), f"record {n} (id {record.get('id')!r})", f"{where}: {first['msg']}") from None


def _json_error(line: bytes) -> str:
    """The standard library's words for a bad line (what reading the whole file said before), as
    :func:`ambiforge.storage.read_records` words them: not UTF-8, nested too deeply, or the parser's."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte {exc.start + 1})"
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return f"not valid JSON: {exc.msg}"
    except RecursionError:
        return "JSON nested too deeply"
    return "not valid JSON"


def _jsonl_batches(path: Path, size: int) -> Iterator[list[Item]]:
    batch: list[Item] = []
    n = 0
    for lineno, line in inputs.lines(path):  # one record per line, each bounded (ambiforge.inputs)
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise InputError(str(path), f"line {lineno}", _json_error(line)) from None
        if not isinstance(record, dict):
            raise InputError(str(path), f"line {lineno}", "expected a JSON object")
        n += 1
        batch.append(_validated(record, path, n))
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _parquet_batches(path: Path, size: int) -> Iterator[list[Item]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ambiforge.storage.arrow_schema import table_to_records

    try:
        file = pq.ParquetFile(path)
        n = 0
        for batch in file.iter_batches(batch_size=size):
            records = table_to_records(pa.Table.from_batches([batch], schema=file.schema_arrow))
            items = []
            for record in records:
                n += 1
                items.append(_validated(record, path, n))
            yield items
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(str(path), "", f"not a readable Parquet file: {exc}") from None


def item_batches(path: Path, size: int = BATCH_SIZE) -> Callable[[], Iterator[list[Item]]]:
    """A function returning the file's items ``size`` at a time (call it once per pass). An AmbiK CSV
    (a published split: a thousand rows) is read whole."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        from ambiforge.ambik import read_ambik_csv

        inputs.regular_file(path)
        items = read_ambik_csv(path)
        return lambda: (items[k : k + size] for k in range(0, len(items), size))
    if suffix not in (".jsonl", ".parquet"):
        raise InputError(str(path), "", "expected a .jsonl, .parquet or AmbiK .csv file")
    inputs.regular_file(path)
    read = _parquet_batches if suffix == ".parquet" else _jsonl_batches
    return lambda: read(path, size)


#: What report.html shows of a flagged item (its texts; the scene's objects as their short list).
SHOWN_FIELDS = (
    "id",
    "ambiguity_type",
    "environment_short",
    "unambiguous_direct",
    "ambiguous_task",
    "question",
    "answer",
    "user_intent",
    "amb_shortlist",
    "variants",
    "end_of_ambiguity",
    "plan_for_clear_task",
    "plan_for_amb_task",
)


def shown(item: Item) -> SimpleNamespace:
    """A flagged item as report.html reads it: its texts without the scene's object records, a fifth of
    the memory of the item."""
    return SimpleNamespace(**{name: getattr(item, name) for name in SHOWN_FIELDS})


def in_order(
    work: Callable[..., R], jobs: Iterator[tuple[int, tuple[Any, ...]]]
) -> Iterator[tuple[tuple[Any, ...], R]]:
    """Each job's arguments with ``work(*arguments)``, in order. ``jobs`` gives (items in the job, its
    arguments); once ``PARALLEL_FROM`` items have been seen, the jobs go to worker processes, one in flight
    per worker (each job's arguments wait in the parent and in the pool until its result is back: a second
    one per worker would be the largest step of a build's peak memory). While the oldest runs the parent
    reads the next, so no worker waits long."""
    workers = min(os.cpu_count() or 1, 8)
    pool: ProcessPoolExecutor | None = None
    pending: deque[tuple[tuple[Any, ...], Future[R]]] = deque()
    seen = 0
    try:
        for count, args in jobs:
            seen += count
            if pool is None and workers >= 2 and seen >= PARALLEL_FROM:
                # "spawn": the caller may be a Prefect task thread, and forking a threaded process can deadlock.
                pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
            if pool is None:
                yield args, work(*args)
                continue
            pending.append((args, pool.submit(work, *args)))
            while len(pending) > workers:
                done, future = pending.popleft()
                yield done, future.result()
        while pending:
            done, future = pending.popleft()
            yield done, future.result()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def judged_batches(
    batches: Iterator[list[Item]], ctx: RuleContext
) -> Iterator[tuple[list[Item], list[list[RuleFailure]]]]:
    """Each batch with its item-rule failures, in order (in worker processes once the file proves large,
    see :func:`in_order`)."""
    for (batch, _ctx), failures in in_order(_check_chunk, ((len(batch), (batch, ctx)) for batch in batches)):
        yield batch, failures


def rule_failures(batches: Iterator[list[Item]], ctx: RuleContext) -> dict[int, list[RuleFailure]]:
    """Every failure of the items in ``batches`` (item rules, then the dataset rules with their configured
    severity, as :func:`ambiforge.validation.validate_items` orders them), by the item's position; items
    that failed nothing are left out. Holds the duplicate rules' index (:class:`DuplicateIndex`), never
    the items."""
    checked = (
        (item.id, item.unambiguous_direct, failed)
        for batch, failures in judged_batches(batches, ctx)
        for item, failed in zip(batch, failures, strict=True)
    )
    return with_dataset_flags(checked, ctx)


def with_dataset_flags(
    checked: Iterator[tuple[str, str, list[RuleFailure]]], ctx: RuleContext
) -> dict[int, list[RuleFailure]]:
    """Each judged item's (id, unambiguous task, item-rule failures) with the duplicate rules' flags added,
    by the item's position; items that failed nothing are left out."""
    index = DuplicateIndex(ctx)
    found: dict[int, list[RuleFailure]] = {}
    for pos, (item_id, task, failed) in enumerate(checked):
        flags = list(failed) + dataset_failures(index.add(item_id, task), ctx)
        if flags:
            found[pos] = flags
    return found


#: What a worker sends back of each line: None, or the item's id and unambiguous task (all the duplicate
#: rules read) with its item-rule failures.
Judged = tuple[str, str, list[RuleFailure]] | None

#: Raw lines (the first one's number in the file, from 1, and the lines) -> for each line its item, or its
#: :data:`Judged` entry when its item-rule failures are known already (an LLM pair's, found when its
#: candidates were scored), or None for a line with none to judge. A module-level function (or a partial of
#: one): it runs in worker processes.
LineParser = Callable[[int, list[bytes]], list["Item | Judged"]]


def _check_lines(first: int, lines: list[bytes], parse: LineParser, ctx: RuleContext) -> list[Judged]:
    entries = parse(first, lines)
    failures = iter(_check_chunk([entry for entry in entries if isinstance(entry, Item)], ctx))
    return [
        (entry.id, entry.unambiguous_direct, next(failures)) if isinstance(entry, Item) else entry for entry in entries
    ]


def line_failures(
    batches: Iterator[tuple[int, list[bytes]]], parse: LineParser, ctx: RuleContext
) -> dict[int, list[RuleFailure]]:
    """:func:`rule_failures` of the items in batches of raw lines (the first line's number and the lines),
    each batch parsed where its rules run: a worker process is sent the lines, not the items as objects
    (a few times smaller, and the parent never builds them), and sends back what the duplicate rules read.
    Positions count the items, not the lines."""
    return with_dataset_flags(line_judgements(batches, parse, ctx), ctx)


def line_judgements(
    batches: Iterator[tuple[int, list[bytes]]], parse: LineParser, ctx: RuleContext
) -> Iterator[tuple[str, str, list[RuleFailure]]]:
    """The first half of :func:`line_failures`: each item's (id, unambiguous task, item-rule failures) in
    order, the batches parsed and checked where their rules run; what :func:`with_dataset_flags` reads."""
    jobs = ((len(lines), (first, lines, parse, ctx)) for first, lines in batches)
    return (entry for _args, entries in in_order(_check_lines, jobs) for entry in entries if entry is not None)


def dataset_failures(flags: list[tuple[str, str]], ctx: RuleContext) -> list[RuleFailure]:
    """The duplicate rules' flags of one item as failures with their configured severity (none when off)."""
    out = []
    for rule_id, message in flags:
        level = severity(rule_id, ctx)
        if level != "off":
            out.append(RuleFailure(rule=rule_id, severity=level, message=message))  # type: ignore[arg-type]
    return out


def passes(failures: list[RuleFailure]) -> bool:
    """Whether an item with these failures passes validation: none of them is an error."""
    return not any(f.severity == "error" for f in failures)


def judged(item: Item, failures: list[RuleFailure]) -> Item:
    """``item`` with ``validation`` set from its failures (:func:`passes`)."""
    return item.model_copy(update={"validation": Validation(passed=passes(failures), failed=failures)})


@dataclass
class StreamedValidation:
    report: dict[str, Any]
    expectations: Any  # ExpectationsResult
    flagged: list[SimpleNamespace]  # what report.html shows of each item with a failure (see :func:`shown`)
    plots: Any  # PlotData
    diversity: dict[str, Any]


def validate_stream(
    batches: Callable[[], Iterator[list[Item]]],
    ctx: RuleContext,
    source: str,
    *,
    target_mix: dict[str, float] | None = None,
    tolerance: float = 0.03,
    max_plan_steps: int = 13,
    on_count: Callable[[int], None] | None = None,
) -> StreamedValidation:
    """The report of ``validate``: item rules, dataset rules and the Great Expectations suite, in two
    passes over ``batches()``. ``on_count`` is told the number of items after the first pass."""
    from ambiforge import diversity
    from ambiforge.validation.expectations import ItemColumns, run_expectations
    from ambiforge.validation.report import PlotData, ReportBuilder

    index = DuplicateIndex(ctx)
    item_failures: dict[int, list[RuleFailure]] = {}
    columns = ItemColumns()
    figures = diversity.Figures()
    plots = PlotData()
    total = 0
    for batch, failures in judged_batches(batches(), ctx):
        for item, failed in zip(batch, failures, strict=True):
            flags = list(failed) + dataset_failures(index.add(item.id, item.unambiguous_direct), ctx)
            if flags:
                item_failures[total] = flags
            total += 1
            columns.add(item)
            figures.add(item)
            plots.add(item)
    del index
    if on_count is not None:
        on_count(total)
    expectations = run_expectations(
        columns.frame(), target_mix=target_mix, tolerance=tolerance, max_plan_steps=max_plan_steps
    )
    del columns
    builder = ReportBuilder()
    flagged: list[SimpleNamespace] = []
    pos = 0
    for batch in batches():
        for item in batch:
            failures = item_failures.get(pos, [])
            builder.add(judged(item, failures))
            if failures:
                flagged.append(shown(item))
            pos += 1
    if pos != total:
        raise InputError(source, "", f"changed while it was validated ({total} items, then {pos})")
    report = builder.result(expectations.to_dict(), source)
    return StreamedValidation(report, expectations, flagged, plots, diversity.report_section_of(figures.result()))
