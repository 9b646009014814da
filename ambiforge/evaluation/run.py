"""Running methods over a dataset: detect (in parallel), calibrate, decide, measure.

Every (method, task) detection is one job on a thread pool as wide as the LLM client's concurrency, so a
slow endpoint is kept busy; a conformal method detects its calibration tasks and its evaluated tasks in
the same pool, then calibrates on the former and decides the latter. Calls go through the model (the LLM
client: cached, so a rerun makes no new request).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ambiforge import ambiguity
from ambiforge.detectors import metrics
from ambiforge.detectors.conformal import DEFAULT_RULE, Calibration, calibrate_tasks
from ambiforge.detectors.methods import Detection, MethodSettings, get
from ambiforge.detectors.methods.base import METHODS, correct_options, covers
from ambiforge.detectors.model import EvalModel
from ambiforge.detectors.success import text_success
from ambiforge.detectors.tasks import EvalTask, halves
from ambiforge.errors import AmbiforgeError, PluginError, plugin_failure
from ambiforge.evaluation.data import Dataset


@dataclass
class MethodResult:
    name: str
    calibrated: bool
    rows: list[dict[str, Any]]
    calibration: Calibration | None = None
    calibration_coverage: float | None = None
    test_coverage: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)
    ambdif: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # the method's own figures (``summarise``)


def _sr(task: EvalTask, detection: Detection, good_agent: str, never_asks: bool) -> int | None:
    """SR of one result: the method's own when it scores one on the graph (SG-CoT's ``sr``), else read
    from its decision (:func:`ambiforge.detectors.success.text_success`)."""
    if detection.error:
        return None
    own = detection.details.get("sr") if detection.details else None
    if own is not None:
        return int(own)
    asked = False if never_asks else detection.asked
    return text_success(task, detection.set_options, asked, good_agent)


def _row(method: str, task: EvalTask, detection: Detection, never_asks: bool = False) -> dict[str, Any]:
    definition = ambiguity.get(task.ambiguity_type)
    return {
        "method": method,
        "item_id": task.item_id,
        "half": task.half,
        "ambiguity_type": task.ambiguity_type,
        "task": task.task,
        "gold_step": task.gold_step,
        "user_intent": list(task.intent),
        "variants": list(task.variants),
        "shortlist": list(task.shortlist),
        "level": task.level,
        **detection.to_record(),
        "correct": correct_options(detection, task),
        "metrics": metrics.no_metrics()
        if detection.error
        else metrics.task_metrics(
            set_options=detection.set_options,
            asked=detection.asked,
            ambiguous=task.ambiguous,
            intent=task.intent,
            shortlist=task.shortlist,
            good_agent=definition.good_agent,
            has_shortlist=definition.has_shortlist,
            never_asks=never_asks,
            sr=_sr(task, detection, definition.good_agent, never_asks),
        ),
    }


def _named(plugin: str | None, task: EvalTask, step: str, call: Callable[[], Any]) -> Any:
    """``call()`` of a method's ``detect``/``decide``; a plugin method's exception or a return that is not
    a Detection is a PluginError naming the plugin and the task (the eval stops); ambiforge's own methods
    and errors that already say what went wrong (a failed call) pass through."""
    if plugin is None:
        return call()
    where = f"item {task.item_id!r} ({task.half} half, {step})"
    try:
        found = call()
    except AmbiforgeError:
        raise
    except Exception as exc:  # noqa: BLE001 - a plugin's failure becomes one line naming it
        raise plugin_failure(plugin, where, exc) from None
    if not isinstance(found, Detection):
        raise PluginError(plugin, where, f"returned {type(found).__name__}, not a Detection")
    return found


def evaluate(
    dataset: Dataset,
    methods: Sequence[str],
    model: EvalModel,
    settings: Mapping[str, MethodSettings],
    epsilon: float,
    concurrency: int = 8,
    progress: Callable[[int], None] | None = None,
    calibration_rule: str = DEFAULT_RULE,
) -> list[MethodResult]:
    """``settings``: each method's own (:mod:`ambiforge.detectors.methods.settings`; a method without an
    entry runs on its defaults). ``calibration_rule``: see :mod:`ambiforge.detectors.conformal`."""
    detectors = [get(m) for m in methods]
    per_method = [settings.get(d.name) or getattr(d, "Settings", MethodSettings)() for d in detectors]
    evaluated = [t for item in dataset.items for t in halves(item)]
    jobs: list[tuple[int, EvalTask]] = []
    for n, detector in enumerate(detectors):
        tasks = list(evaluated)
        if detector.calibrated:
            keys = {t.key for t in tasks}
            tasks += [t for t in dataset.calibration if t.key not in keys]
        jobs += [(n, t) for t in tasks]
    # Longest jobs first (LAP's six sequential calls, LofreeCP's samples), so the pool does not end on a
    # tail of long jobs with idle workers; the sort is stable, so the order within a method is the data's.
    jobs.sort(key=lambda job: -getattr(detectors[job[0]], "sequential_calls", 1))

    plugins = [METHODS.plugin(m) for m in methods]

    def run(job: tuple[int, EvalTask]) -> Detection:
        n, task = job
        detection = _named(plugins[n], task, "detect", partial(detectors[n].detect, task, model, per_method[n]))
        if progress:
            progress(1)
        return detection

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        detections = list(pool.map(run, jobs))
    found: dict[tuple[int, str], Detection] = {(n, t.key): d for (n, t), d in zip(jobs, detections, strict=True)}

    results = []
    for n, detector in enumerate(detectors):
        calibration, coverage, test_coverage = None, None, {}
        if detector.calibrated:
            cal = [(t, found[(n, t.key)]) for t in dataset.calibration]
            ok = [(t, d) for t, d in cal if not d.error]
            scored = [(d.scores, correct_options(d, t)) for t, d in ok]
            comparison = getattr(detector, "authors_comparison", "above")  # the published code's set rule
            calibration = calibrate_tasks(
                scored, epsilon, calibration_rule, errors=len(cal) - len(ok), comparison=comparison
            )
            coverage = metrics.mean(covers(detector.decide(d, calibration), t) for t, d in ok)
        decided = [
            (t, _named(plugins[n], t, "decide", partial(detector.decide, found[(n, t.key)], calibration)))
            for t in evaluated
        ]
        if detector.calibrated:
            test_coverage = coverage_record([(t, d) for t, d in decided if not d.error])
        never_asks = bool(getattr(detector, "never_asks", False))
        rows = [_row(detector.name, t, d, never_asks) for t, d in decided]
        # a method with figures of its own (a debate's consensus rate, a dialogue's query discrepancy)
        # defines summarise(rows); they go into results.json beside the AmbiK metrics
        own = getattr(detector, "summarise", None)
        results.append(
            MethodResult(
                detector.name,
                detector.calibrated,
                rows,
                calibration,
                coverage,
                test_coverage,
                metrics.summarise(rows),
                metrics.pair_ambdif(rows, uses_sets=detector.calibrated),
                own(rows) if callable(own) else {},
            )
        )
    return results


def coverage_record(decided: Sequence[tuple[EvalTask, Detection]]) -> dict[str, Any]:
    """Empirical coverage on the evaluated (answered) tasks: of all of them, and of those whose options
    include a correct one (what KnowNo's rule guarantees at 1 - epsilon)."""
    with_correct = [(t, d) for t, d in decided if any(correct_options(d, t))]
    return {
        "all": metrics.mean(covers(d, t) for t, d in decided),
        "tasks": len(decided),
        "with_correct_option": metrics.mean(covers(d, t) for t, d in with_correct),
        "tasks_with_correct_option": len(with_correct),
    }


def results_document(dataset: Dataset, results: Sequence[MethodResult], meta: dict[str, Any]) -> dict[str, Any]:
    """``results.json``: what was run on what, the calibration, and every table of the report."""
    return {
        **meta,
        "data": dataset.source,
        "evaluated_on": dataset.evaluated_on,
        "calibration_source": dataset.calibration_source,
        "pairs": len(dataset.items),
        "calibration_tasks": len(dataset.calibration),
        "calibration_ambiguous": sum(1 for t in dataset.calibration if t.ambiguous),
        "methods": {
            r.name: {
                "calibrated": r.calibrated,
                "calibration": r.calibration.to_record() if r.calibration else None,
                "calibration_coverage": r.calibration_coverage,
                "test_coverage": r.test_coverage or None,
                "ambdif": r.ambdif,
                "by_group": r.summary,
                "SR_by_level": metrics.by_level(r.rows),
                "errors": sum(1 for row in r.rows if row["error"]),
                "answered": sum(1 for row in r.rows if not row["error"]),
                "first_error": next((row["error"] for row in r.rows if row["error"]), None),
                "calls": sum(len(row["calls"]) for row in r.rows),
                "method_figures": r.extra,
            }
            for r in results
        },
    }
