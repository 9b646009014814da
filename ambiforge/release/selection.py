"""Which items go into a release: those of the given runs that review accepted (or all, when the
maintainer releases unreviewed items knowingly, which the manifest and card then say)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.release.record_view import RecordView
from ambiforge.runs import run_dir

ACCEPTED_STATUSES = {"unanimous", "majority", "adjudicated"}
ACCEPTED_VERDICTS = {"accept", "accept_with_fixes"}


def accepted(item: Item) -> bool:
    review = item.review
    return review is not None and review.status in ACCEPTED_STATUSES and review.verdict in ACCEPTED_VERDICTS


def review_state(item: Item) -> str:
    if item.review is None:
        return "unreviewed"
    if accepted(item):
        return "accepted"
    if item.review.status == "pending":
        return "pending"
    return "rejected" if item.review.verdict == "reject" else "undecided"


@dataclass
class Selection:
    items: list[Item]  # RecordViews of schema-valid rows (read like items)
    records: list[dict[str, Any]]
    review_counts: dict[str, int]
    schema_failures: list[dict[str, Any]] = field(default_factory=list)
    merged_duplicates: int = 0


def select(raw: Path, run_ids: list[str], allow_unreviewed: bool) -> Selection:
    """Read the runs' items, check each row against the item schema, keep the releasable ones.

    Rows are checked as raw records first, so a bad row is reported with its file and line instead of
    stopping at the first one.
    """
    items: list[Item] = []
    records: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    seen: dict[str, str] = {}
    merged = 0
    for run_id in run_ids:
        path = run_dir(raw, run_id) / "items.jsonl"
        if not path.exists():
            raise InputError(str(path), "", f"run {run_id!r} has no items (is the run id right? did it finish?)")
        with path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                where = f"{path}:{lineno}"
                try:
                    record = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    failures.append({"row": where, "id": None, "errors": [f"not valid JSON: {exc}"]})
                    continue
                errors = schema_errors(record)
                if errors:
                    failures.append({"row": where, "id": record.get("id"), "errors": errors})
                    continue
                item = RecordView(record)  # type: ignore[assignment]
                state = review_state(item)
                counts[state] += 1
                if state != "accepted" and not allow_unreviewed:
                    continue
                if item.id in seen:
                    merged += 1  # the same pair from two runs (same seed): released once
                    continue
                seen[item.id] = run_id
                items.append(item)
                records.append(record)  # schema-checked, in the field order the build wrote
    return Selection(items, records, dict(counts), failures, merged)
