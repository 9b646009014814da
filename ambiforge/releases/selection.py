"""Which items go into a release: those of the given runs that review accepted, and with
``--allow-unreviewed`` also those not (yet) reviewed, which the manifest and card then list.

Items rejected in review, and items waiting in the adjudication queue, are never released.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.releases.arrow_limits import unstorable
from ambiforge.releases.record_view import RecordView
from ambiforge.run.layout import run_dir
from ambiforge.world.integrity import item_problem

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


@dataclass(frozen=True, slots=True)
class Kept:
    """Where a released row is: enough to read it again (file, byte offset), no more."""

    id: str
    ambiguity_type: str
    file: int  # index into Scan.files
    offset: int


@dataclass
class Scan:
    """What one streaming pass over the runs found, without the rows themselves: a release of a million
    items keeps a few hundred bytes per item here (the release writes each row as the scan visits it, and
    reads back only the rows the changelog compares)."""

    files: list[Path]
    kept: dict[str, Kept]  # item id -> where, in release order
    review_counts: dict[str, int]
    schema_failures: list[dict[str, Any]] = field(default_factory=list)
    merged_duplicates: int = 0
    unreviewed: list[str] = field(default_factory=list)
    excluded: dict[str, str] = field(default_factory=dict)

    def read(self, entries: Iterable[Kept]) -> Iterator[dict[str, Any]]:
        """The records at ``entries`` (in the order given; sequential reads when that is release order)."""
        handles: dict[int, BinaryIO] = {}
        try:
            for entry in entries:
                fh = handles.get(entry.file)
                if fh is None:
                    fh = handles[entry.file] = self.files[entry.file].open("rb")
                fh.seek(entry.offset)
                yield orjson.loads(fh.readline())
        finally:
            for fh in handles.values():
                fh.close()


def scan(
    raw: Path,
    run_ids: list[str],
    allow_unreviewed: bool,
    visit: Callable[[dict[str, Any], Item, bytes], None] | None = None,
) -> Scan:
    """Read the runs' items once, check each row against the item schema, keep the releasable ones.

    Rows are checked as raw records first, so a bad row is reported with its file and line instead of
    stopping at the first one. ``visit(record, item, line)`` sees each kept row as it is read (statistics,
    expectation columns...), with the line it was decoded from; the scan itself keeps only where the row is.
    """
    files: list[Path] = []
    kept: dict[str, Kept] = {}
    failures: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    unreviewed: list[str] = []
    excluded: dict[str, str] = {}
    merged = 0
    for run_id in run_ids:
        path = run_dir(raw, run_id) / "items.jsonl"
        if not path.exists():
            raise InputError(str(path), "", f"run {run_id!r} has no items (is the run id right? did it finish?)")
        files.append(path)
        file_index = len(files) - 1
        with path.open("rb") as fh:
            offset, lineno = 0, 0
            while line := fh.readline():
                lineno += 1
                start, offset = offset, offset + len(line)
                if not line.strip():
                    continue
                where = f"{path}:{lineno}"
                try:
                    record = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    failures.append({"row": where, "id": None, "errors": [f"not valid JSON: {exc}"]})
                    continue
                errors = schema_errors(record)
                if not errors and (problem := item_problem(record)) is not None:
                    errors = [problem]  # the worlds checked as every reader checks them, clear and perturbed
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
                if item.id in kept:
                    merged += 1  # the same pair from two runs (same seed): released once
                    continue
                kept[item.id] = Kept(item.id, item.ambiguity_type, file_index, start)
                excluded.pop(item.id, None)
                if state != "accepted":
                    unreviewed.append(item.id)
                if visit is not None:
                    visit(record, item, line)
    return Scan(files, kept, dict(counts), failures, merged, unreviewed, excluded)


def select(raw: Path, run_ids: list[str], allow_unreviewed: bool) -> Selection:
    """Every releasable row in memory (small datasets and tests; releases stream with :func:`scan`)."""
    items: list[Item] = []
    records: list[dict[str, Any]] = []

    def keep(record: dict[str, Any], item: Item, _line: bytes) -> None:
        items.append(item)
        records.append(record)  # schema-checked, in the field order the build wrote

    found = scan(raw, run_ids, allow_unreviewed, keep)
    return Selection(
        items,
        records,
        found.review_counts,
        found.schema_failures,
        found.merged_duplicates,
        found.unreviewed,
        found.excluded,
    )
