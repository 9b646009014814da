"""Checkpoints of the generation stage, so a killed run resumes where it stopped.

Each batch of pairs is written to ``raw/<run-id>/checkpoints/generate-<first>-<last>.jsonl`` as soon as
it is done, and the whole stage to ``generated.jsonl``. Outcomes are stored with their rejections, so a
resumed run reports the same failures it would have reported uninterrupted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ambiforge.atomic import write_jsonl_atomic
from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.models.outcome import Outcome
from ambiforge.run.layout import GENERATED_FILE, batch_path

__all__ = [
    "GENERATED_FILE",
    "Sealed",
    "batch_path",
    "candidate_records",
    "count_outcomes",
    "outcome_batches",
    "outcome_from_record",
    "outcome_to_record",
    "read_outcomes",
    "write_outcomes",
]


class Sealed:
    """An opaque box for a task's outcomes.

    Prefect walks a task's return value (lists, dicts, dataclasses, pydantic models) looking for futures;
    over thousands of items that walk costs more than generating them. A plain class is not walked, and
    still pickles, so results travel from Dask workers as they are.
    """

    __slots__ = ("outcomes",)

    def __init__(self, outcomes: list[Outcome]) -> None:
        self.outcomes = outcomes


def outcome_to_record(outcome: Outcome, item: dict[str, Any] | None = None) -> dict[str, Any]:
    """``item``: the item's record when the caller made it already."""
    if item is None and outcome.item is not None:
        item = outcome.item.to_record()
    return {
        "index": outcome.index,
        "ambiguity_type": outcome.ambiguity_type,
        "attempt": outcome.attempt,
        "stage": outcome.stage,
        "reason": outcome.reason,
        "meta": outcome.meta,
        "item": item,
    }


def outcome_from_record(record: dict[str, Any]) -> Outcome:
    item = record.get("item")
    return Outcome(
        index=record["index"],
        ambiguity_type=record["ambiguity_type"],
        item=Item.model_validate(item) if item is not None else None,
        attempt=record.get("attempt", 0),
        stage=record.get("stage"),
        reason=record.get("reason"),
        meta=record.get("meta") or {},
    )


def write_outcomes(path: Path, outcomes: Sequence[Outcome]) -> Path:
    return write_jsonl_atomic(path, (outcome_to_record(o) for o in outcomes))


def read_outcomes(path: Path) -> list[Outcome] | None:
    """The outcomes in ``path``, or None when it is missing or unreadable (then the batch is redone)."""
    if not path.exists():
        return None
    try:
        with path.open(encoding="utf-8") as fh:
            return [outcome_from_record(json.loads(line)) for line in fh if line.strip()]
    except (json.JSONDecodeError, KeyError, ValueError):
        return None


def outcome_batches(path: Path, size: int) -> Iterator[list[Outcome]]:
    """The outcomes in ``path``, ``size`` at a time (a stage reads a run's pairs without holding them all);
    a record that cannot be read is an :class:`InputError` naming its line."""
    batch: list[Outcome] = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                batch.append(outcome_from_record(json.loads(line)))
            except (KeyError, TypeError, ValueError) as exc:  # ValueError: JSON and pydantic errors
                reason = f"not a readable outcome ({type(exc).__name__})"
                raise InputError(str(path), f"line {lineno}", reason) from None
            if len(batch) >= size:
                yield batch
                batch = []
    if batch:
        yield batch


def count_outcomes(path: Path) -> dict[str, int] | None:
    """``{"pairs", "generated", "rejected"}`` of the outcomes in ``path`` (records read, items not built),
    or None when it is missing or unreadable."""
    if not path.exists():
        return None
    pairs = rejected = 0
    try:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    pairs += 1
                    rejected += json.loads(line)["stage"] is not None
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        return None
    return {"pairs": pairs, "generated": pairs - rejected, "rejected": rejected}


def candidate_records(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """The lines of ``raw/<run-id>/candidates.jsonl`` for ``outcomes``: every LLM candidate of each pair with
    its score and failures, the chosen one marked, so the losers stay inspectable (none for offline pairs)."""
    return [
        {
            "index": o.index,
            "id": o.item.id if o.item else None,
            "ambiguity_type": o.ambiguity_type,
            "stage": o.stage,
            "candidates": o.meta["candidates"],
        }
        for o in outcomes
        if o.meta.get("candidates")
    ]
