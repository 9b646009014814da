"""The validation report: ``report.json`` (per item and per rule) and ``report.html`` (counts, worst items,
expectation results, plots)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ambiforge.ambiguity import names
from ambiforge.atomic import write_json_atomic, write_text_atomic
from ambiforge.models import Item
from ambiforge.reports import render
from ambiforge.reports.html import bar_chart, histogram
from ambiforge.validation.rules import ALL_RULES

EXAMPLES_PER_RULE = 5


def build_report(items: Sequence[Item], expectations: dict[str, Any] | None, source: str) -> dict[str, Any]:
    """``items`` must carry ``validation`` (see :func:`ambiforge.validation.validate_items`)."""
    rules: dict[str, dict[str, Any]] = {
        rule_id: {"severity": rule.severity, "description": rule.description, "count": 0, "examples": []}
        for rule_id, rule in ALL_RULES.items()
    }
    rows = []
    for item in items:
        failed = [f.model_dump() for f in (item.validation.failed if item.validation else [])]
        rows.append({"id": item.id, "ambiguity_type": item.ambiguity_type, "failed": failed})
        for f in failed:
            entry = rules[f["rule"]]
            entry["count"] += 1
            if len(entry["examples"]) < EXAMPLES_PER_RULE:
                entry["examples"].append({"id": item.id, "message": f["message"]})
    with_errors = sum(1 for r in rows if any(f["severity"] == "error" for f in r["failed"]))
    with_warnings = sum(1 for r in rows if any(f["severity"] == "warning" for f in r["failed"]))
    return {
        "source": source,
        "summary": {
            "items": len(rows),
            "passed": len(rows) - with_errors,
            "with_errors": with_errors,
            "with_warnings": with_warnings,
            "expectations_success": None if expectations is None else expectations["success"],
        },
        "rules": rules,
        "items": rows,
        "expectations": expectations,
    }


def _plots(items: Sequence[Item]) -> dict[str, str]:
    counts = Counter(i.ambiguity_type for i in items)
    return {
        "Type mix": bar_chart("Ambiguity types", list(names()), [counts.get(t, 0) for t in names()]),
        "Plan lengths": histogram(
            "Steps in the unambiguous plan", [len(i.plan_for_clear_task) for i in items], "steps", bins=13
        ),
        "Environment sizes": histogram("Objects per scene", [len(i.environment) for i in items], "objects"),
    }


def write_report(report: dict[str, Any], items: Sequence[Item], directory: Path) -> tuple[Path, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    json_path = write_json_atomic(directory / "report.json", report)
    worst = sorted(
        report["items"],
        key=lambda r: (-sum(f["severity"] == "error" for f in r["failed"]), -len(r["failed"])),
    )
    html = render(
        "validation.html.j2",
        report=report,
        worst=[w for w in worst[:30] if w["failed"]],
        rules=sorted(report["rules"].items(), key=lambda kv: (-kv[1]["count"], kv[0])),
        plots=_plots(items) if items else {},
    )
    html_path = write_text_atomic(directory / "report.html", html)
    return json_path, html_path
