"""The tables from per-item results, in either metric mode, without calling a model
(``ambiforge eval rescore RESULTS --metrics paper|authors``; ``ambiforge eval --metrics`` uses the same).

``paper`` recomputes each task's metrics from what its record holds (the prediction set, whether it asked,
the intent and the shortlist, the type's good agent) with :mod:`ambiforge.detectors.metrics`; ``authors``
applies the published code's functions (:mod:`ambiforge.evaluation.authors`). The prediction sets are not
recomputed: they are the eval's decisions (``--calibration-rule`` chose how the sets were made).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ambiforge import ambiguity
from ambiforge.detectors import metrics
from ambiforge.detectors.methods.base import METHODS
from ambiforge.errors import InputError
from ambiforge.evaluation import authors
from ambiforge.evaluation.result_rows import read_rows, read_summary

MODES = ("paper", "authors")
DEFAULT_MODE = "paper"


def _method_flags(name: str) -> tuple[bool, bool]:
    """``(uses_sets, never_asks)`` of a method by name (a method no longer installed: a set method)."""
    method = METHODS.items().get(name)
    return bool(getattr(method, "calibrated", True)), bool(getattr(method, "never_asks", False))


def paper_metrics(row: dict[str, Any], never_asks: bool) -> dict[str, Any]:
    if row.get("error"):
        return metrics.no_metrics()
    definition = ambiguity.get(row["ambiguity_type"])
    return metrics.task_metrics(
        set_options=row["set_options"],
        asked=row["asked"],
        ambiguous=row["half"] == "ambiguous",
        intent=row["user_intent"],
        shortlist=row["shortlist"],
        good_agent=definition.good_agent,
        has_shortlist=definition.has_shortlist,
        never_asks=never_asks,
        sr=(row.get("metrics") or {}).get("SR"),  # read on the item's graph when it was scored
    )


def method_tables(rows: Sequence[dict[str, Any]], mode: str) -> dict[str, Any]:
    """One method's ``by_group`` and ``ambdif`` in ``mode``."""
    if mode == "authors":
        return {"by_group": authors.summarise(rows), "ambdif": authors.ambdif(rows)}
    uses_sets, never_asks = _method_flags(rows[0]["method"]) if rows else (True, False)
    scored = [{**r, "metrics": paper_metrics(r, never_asks)} for r in rows]
    return {"by_group": metrics.summarise(scored), "ambdif": metrics.pair_ambdif(scored, uses_sets)}


def by_method(rows: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["method"], []).append(row)
    return out


def tables(rows: Sequence[dict[str, Any]], mode: str) -> dict[str, dict[str, Any]]:
    return {method: method_tables(rs, mode) for method, rs in by_method(rows).items()}


def read_results(path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """``results.jsonl`` (or the eval folder holding it): the per-item records, each checked against the
    schema (:mod:`ambiforge.evaluation.result_rows`)."""
    source = path / "results.jsonl" if path.is_dir() else path
    if not source.is_file():
        raise InputError(str(source), "", "not found (expected an eval folder or its results.jsonl)")
    return source, read_rows(source)


def rescore(path: Path, mode: str) -> dict[str, Any]:
    """The tables of the eval at ``path`` in ``mode``; written beside it as ``rescore-<mode>.json``."""
    from ambiforge.atomic import write_json_atomic

    source, rows = read_results(path)
    meta_path = source.parent / "results.json"
    meta = read_summary(meta_path)
    document = {
        "name": meta.get("name", source.parent.name),
        "evaluated_on": meta.get("evaluated_on", "per-item results"),
        "folder": str(source.parent),
        "results": str(source),
        "metrics": mode,
        "methods": tables(rows, mode),
    }
    document["written"] = str(write_json_atomic(source.parent / f"rescore-{mode}.json", document))
    document["report"] = str(write_report(source.parent / f"rescore-{mode}.html", meta, rows, document))
    return document


def write_report(path: Path, meta: dict[str, Any], rows: Sequence[dict[str, Any]], document: dict[str, Any]) -> Path:
    """The eval's report page (:func:`ambiforge.evaluation.output.render_report`) with the rescored tables:
    what the eval recorded (model, data, calibration, the methods' own figures) from ``results.json``, the
    figures in ``document``'s mode."""
    from ambiforge.atomic import write_text_atomic
    from ambiforge.evaluation.output import render_report
    from ambiforge.evaluation.run import MethodResult

    recorded = meta.get("methods") if isinstance(meta.get("methods"), dict) else {}
    page = {**meta, "name": document["name"], "evaluated_on": document["evaluated_on"], "metrics": document["metrics"]}
    page["methods"] = {}
    results = []
    for name, method_rows in by_method(rows).items():
        figures = document["methods"][name]
        before = recorded.get(name) if isinstance(recorded.get(name), dict) else {}
        page["methods"][name] = {
            **before,
            "by_group": figures["by_group"],
            "ambdif": figures["ambdif"],
            "errors": sum(1 for r in method_rows if r.get("error")),
        }
        results.append(
            MethodResult(
                name=name,
                calibrated=bool(before.get("calibrated", _method_flags(name)[0])),
                rows=list(method_rows),
                summary=figures["by_group"],
                ambdif=figures["ambdif"],
                extra=before.get("method_figures") or {},
            )
        )
    return write_text_atomic(path, render_report(page, results))
