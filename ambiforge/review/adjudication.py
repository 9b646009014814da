"""Adjudication: two of three annotators decide the verdict and the type, and a correction two of them agree
on is applied (recording who made it). Split items and conflicting corrections go to the adjudication
queue; items with fewer than three annotations stay pending."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ambiforge.models import AppliedCorrection, Item, Review
from ambiforge.models.item import Annotation
from ambiforge.review.agreement import item_status, majority

LIST_FIELDS = {"amb_shortlist", "user_intent"}
CORRECTABLE = ("ambiguous_task", "question", "answer", "amb_shortlist", "user_intent")


def _normal(value: str) -> str:
    return " ".join(value.split())


def adjudicate(item: Item, annotations: Sequence[Annotation], required: int = 3) -> Item:
    """The item with ``review`` set and agreed corrections applied."""
    if len(annotations) < required:
        return item.model_copy(update={"review": Review(status="pending", annotations=list(annotations))})
    verdicts = [a.verdict for a in annotations if a.verdict]
    types = [a.ambiguity_type for a in annotations if a.ambiguity_type]
    status = item_status(verdicts, required)
    verdict = majority(verdicts)
    queue = status == "split"
    updates: dict[str, object] = {}
    applied: list[AppliedCorrection] = []
    for field in CORRECTABLE:
        proposals: dict[str, list[str]] = defaultdict(list)
        for a in annotations:
            if a.corrections.get(field, "").strip():
                proposals[_normal(a.corrections[field])].append(a.annotator)
        agreed = [(value, who) for value, who in proposals.items() if len(who) * 2 > len(annotations)]
        if agreed:
            value, who = agreed[0]
            updates[field] = [v.strip() for v in value.split(",") if v.strip()] if field in LIST_FIELDS else value
            applied.append(AppliedCorrection(field=field, value=value, annotators=sorted(who)))
        elif len(proposals) > 1 or sum(len(w) for w in proposals.values()) > 1:
            queue = True  # several annotators corrected the field, but not to the same text
    review = Review(
        status=status,  # type: ignore[arg-type]
        verdict=verdict,  # type: ignore[arg-type]
        ambiguity_type=majority(types),  # type: ignore[arg-type]
        annotations=list(annotations),
        applied_corrections=applied,
        queued_for_adjudication=queue,
    )
    return item.model_copy(update={**updates, "review": review})
