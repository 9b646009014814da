"""Which items go into a release: those of the given runs that review accepted, and with
``--allow-unreviewed`` also those not (yet) reviewed, which the manifest and card then list.

Items rejected in review, and items waiting in the adjudication queue, are never released.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.release.arrow_limits import unstorable
from ambiforge.release.record_view import RecordView
from ambiforge.runs import run_dir

ACCEPTED_STATUSES = {"unanimous", "majority", "adjudicated"}
ACCEPTED_VERDICTS = {"accept", "accept_with_fixes"}
#: review states ``--allow-unreviewed`` adds (no decision yet); never "rejected" or "queued"
UNREVIEWED_STATES = ("unreviewed", "pending")
#: review state -> why an item of a run is not in the release (plain words for the card and changelog)
EXCLUDED_BECAUSE = {
    "rejected": "rejected in review",
    "queued": "waiting in the adjudication queue",
    "pending": "review not finished (fewer than three annotations)",
    "unreviewed": "not reviewed",
}


def accepted(item: Item) -> bool:
    review = item.review
    return (
        review is not None
        and review.status in ACCEPTED_STATUSES
        and review.verdict in ACCEPTED_VERDICTS
        and not review.queued_for_adjudication
    )


def review_state(item: Item) -> str:
    """accepted / rejected / queued / pending / unreviewed."""
    review = item.review
    if review is None:
        return "unreviewed"
    if accepted(item):
        return "accepted"
    if review.status == "pending":
        return "pending"
    if review.status != "split" and review.verdict == "reject" and not review.queued_for_adjudication:
        return "rejected"
    return "queued"  # split, or accepted with a type split or conflicting corrections: the maintainer decides


@dataclass
class Selection:
    items: list[Item]  # RecordViews of schema-valid rows (read like items)
    records: list[dict[str, Any]]
    review_counts: dict[str, int]
    schema_failures: list[dict[str, Any]] = field(default_factory=list)
    merged_duplicates: int = 0
    unreviewed: list[str] = field(default_factory=list)  # released without a review decision
    excluded: dict[str, str] = field(default_factory=dict)  # item id -> review state, not released


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
    unreviewed: list[str] = []
    excluded: dict[str, str] = {}
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
                too_big = unstorable(record)  # valid JSON Schema, but wider than its Parquet column
                if too_big:
                    raise InputError(str(path), f"line {lineno}", too_big)
                item = RecordView(record)  # type: ignore[assignment]
                state = review_state(item)
                counts[state] += 1
                if state != "accepted" and not (allow_unreviewed and state in UNREVIEWED_STATES):
                    excluded.setdefault(item.id, state)
                    continue
                if item.id in seen:
                    merged += 1  # the same pair from two runs (same seed): released once
                    continue
                seen[item.id] = run_id
                excluded.pop(item.id, None)
                if state != "accepted":
                    unreviewed.append(item.id)
                items.append(item)
                records.append(record)  # schema-checked, in the field order the build wrote
    return Selection(items, records, dict(counts), failures, merged, unreviewed, excluded)
