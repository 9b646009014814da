"""Adjudication: two of three annotators decide the verdict and the type; the majority type is applied
to the item, and a correction a majority made (compared after normalising whitespace and case) is applied,
recording who made it.

An accepted item goes to the maintainer's adjudication queue, and is not released until decided, when
the verdict is split, the type is split three ways, or annotators corrected a field differently. Items with
fewer than ``required`` annotations stay pending. The maintainer's decision (verdict, type, corrected
fields) is applied by :func:`apply_decision`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ambiforge.models import AppliedCorrection, Item, Review
from ambiforge.models.item import Annotation
from ambiforge.review.agreement import item_status, majority
from ambiforge.review.tasks import CORRECTION_FIELDS, LIST_FIELDS, normal

CORRECTABLE = tuple(CORRECTION_FIELDS.values())
ACCEPT_VERDICTS = ("accept", "accept_with_fixes")
MAINTAINER = "maintainer"


def field_value(field: str, text: str) -> Any:
    return [v.strip() for v in text.split(",") if v.strip()] if field in LIST_FIELDS else text


def _corrections(annotations: Sequence[Annotation]) -> tuple[dict[str, tuple[str, list[str]]], list[str]]:
    """(field -> (value, annotators) agreed by a majority, fields corrected differently by several)."""
    agreed: dict[str, tuple[str, list[str]]] = {}
    conflicts: list[str] = []
    for field in CORRECTABLE:
        proposals: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for a in annotations:
            text = a.corrections.get(field, "").strip()
            if text:
                proposals[normal(text)].append((a.annotator, " ".join(text.split())))
        winners = [p for p in proposals.values() if len(p) * 2 > len(annotations)]
        if winners:
            agreed[field] = (winners[0][0][1], sorted(who for who, _ in winners[0]))
        elif sum(len(p) for p in proposals.values()) > 1:
            conflicts.append(field)  # several annotators corrected it, not to the same text
    return agreed, conflicts


def queue_reasons(annotations: Sequence[Annotation], required: int = 3) -> list[str]:
    """Why an item waits for the maintainer (empty: it does not)."""
    if len(annotations) < required:
        return []
    verdicts = [a.verdict for a in annotations if a.verdict]
    if item_status(verdicts, required) == "split":
        return ["verdict split: " + ", ".join(sorted(str(v) for v in verdicts))]
    if majority(verdicts) not in ACCEPT_VERDICTS:
        return []  # rejected by a majority: nothing to decide
    reasons = []
    types = [a.ambiguity_type for a in annotations if a.ambiguity_type]
    if majority(types) is None:
        reasons.append("type split: " + ", ".join(sorted(types)))
    _, conflicts = _corrections(annotations)
    reasons += [f"different corrections of {field}" for field in conflicts]
    return reasons


def adjudicate(item: Item, annotations: Sequence[Annotation], required: int = 3, shown_type: str | None = None) -> Item:
    """The item with ``review`` set, the majority type and agreed corrections applied.

    ``shown_type`` is the type annotators were shown (the task's ``pipeline_type``): the majority type is
    recorded as a correction when it differs from that, also on a later pull, when the item already has it.
    """
    original_type = shown_type or item.ambiguity_type
    if len(annotations) < required:
        return item.model_copy(update={"review": Review(status="pending", annotations=list(annotations))})
    verdicts = [a.verdict for a in annotations if a.verdict]
    types = [a.ambiguity_type for a in annotations if a.ambiguity_type]
    verdict = majority(verdicts)
    majority_type = majority(types)
    updates: dict[str, object] = {}
    applied: list[AppliedCorrection] = []
    if verdict in ACCEPT_VERDICTS and majority_type is not None and majority_type != original_type:
        voters = sorted(a.annotator for a in annotations if a.ambiguity_type == majority_type)
        updates["ambiguity_type"] = majority_type
        applied.append(AppliedCorrection(field="ambiguity_type", value=majority_type, annotators=voters))
    agreed, _ = _corrections(annotations)
    if verdict in ACCEPT_VERDICTS:
        for field, (value, who) in agreed.items():
            updates[field] = field_value(field, value)
            applied.append(AppliedCorrection(field=field, value=value, annotators=who))
    review = Review(
        status=item_status(verdicts, required),  # type: ignore[arg-type]
        verdict=verdict,  # type: ignore[arg-type]
        ambiguity_type=majority_type,  # type: ignore[arg-type]
        annotations=list(annotations),
        applied_corrections=applied,
        queued_for_adjudication=bool(queue_reasons(annotations, required)),
    )
    return item.model_copy(update={**updates, "review": review})


def apply_decision(item: Item, decision: Mapping[str, Any] | None, shown_type: str | None = None) -> Item:
    """The maintainer's decision from the queue file: verdict, and optionally type and corrected fields."""
    if decision is None or item.review is None:
        return item
    updates: dict[str, Any] = {}
    applied = list(item.review.applied_corrections)
    chosen_type = decision.get("ambiguity_type") or item.review.ambiguity_type
    if decision["verdict"] in ACCEPT_VERDICTS:
        if decision.get("ambiguity_type"):
            updates["ambiguity_type"] = chosen_type
            applied = [c for c in applied if c.field != "ambiguity_type"]
            if chosen_type != (shown_type or item.ambiguity_type):
                applied.append(AppliedCorrection(field="ambiguity_type", value=chosen_type, annotators=[MAINTAINER]))
        for field, text in sorted((decision.get("corrections") or {}).items()):
            value = " ".join(str(text).split())
            updates[field] = field_value(field, value)
            applied = [c for c in applied if c.field != field]
            applied.append(AppliedCorrection(field=field, value=value, annotators=[MAINTAINER]))
    review = item.review.model_copy(
        update={
            "status": "adjudicated",
            "verdict": decision["verdict"],
            "ambiguity_type": chosen_type,
            "applied_corrections": applied,
            "queued_for_adjudication": False,
            "adjudicated_by": "maintainer (adjudication_queue.jsonl)",
        }
    )
    return item.model_copy(update={**updates, "review": review})
