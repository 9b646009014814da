"""Choosing among K ambiguous candidates with the deterministic validators.

Candidates are scored by the item rules that judge what the ambiguous-variant steps wrote: every object
named exists in the scene (grounding), the ambiguous task is a minimal edit of the unambiguous one
(minimal_pair), a preferences shortlist is inside the scene (shortlist), and the intent words appear in
the unambiguous plan's step at ``end_of_ambiguity`` (intent). Fewer failures win; ties go to the earlier
candidate, so selection is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ambiforge.models import Item, RuleFailure
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import check_item

SELECTION_RULES = ("grounding", "minimal_pair", "shortlist", "intent")


@dataclass
class Candidate:
    number: int
    item: Item | None = None
    failures: list[RuleFailure] = field(default_factory=list)
    error: str | None = None
    stage: str | None = None
    call_ids: list[str] = field(default_factory=list)

    @property
    def score(self) -> int | None:
        """Failed selection rules (lower is better); None for a candidate whose steps failed."""
        return None if self.item is None else len(self.failures)

    def record(self, chosen: bool) -> dict[str, Any]:
        """What raw/<run-id>/candidates.jsonl keeps of it."""
        out: dict[str, Any] = {"candidate": self.number, "chosen": chosen, "score": self.score}
        if self.item is None:
            return out | {"stage": self.stage, "error": self.error, "call_ids": self.call_ids}
        item = self.item
        return out | {
            "failures": [f.model_dump() for f in self.failures],
            "ambiguous_task": item.ambiguous_task,
            "question": item.question,
            "answer": item.answer,
            "amb_shortlist": item.amb_shortlist,
            "plan_for_amb_task": item.plan_for_amb_task,
            "end_of_ambiguity": item.end_of_ambiguity,
            "user_intent": item.user_intent,
            "variants": item.variants,
            "call_ids": self.call_ids,
        }


def score(candidate: Candidate, ctx: RuleContext) -> Candidate:
    if candidate.item is not None:
        candidate.failures = check_item(candidate.item, ctx, only=SELECTION_RULES)
    return candidate


def choose(candidates: list[Candidate]) -> Candidate | None:
    """The best scored candidate, or None when every candidate failed in its steps."""
    scored = [c for c in candidates if c.score is not None]
    if not scored:
        return None
    return min(scored, key=lambda c: (c.score, c.number))
