"""Choosing among K ambiguous candidates with the deterministic validators.

Candidates are scored by every item rule (the rule registry: schema, grounding, shortlist,
minimal pair, plan, intent, hygiene...), the same rules the validate stage applies afterwards, so a
candidate that writes placeholders, asks no question or runs too long loses to one with real text. Errors
weigh more than warnings: the fewest errors win, then the fewest warnings; ties go to the earlier
candidate, so selection is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ambiforge.models import Item, RuleFailure
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import check_item


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
        """Failed rules (lower is better); None for a candidate whose steps failed."""
        return None if self.item is None else len(self.failures)

    @property
    def rank(self) -> tuple[int, int, int]:
        """What :func:`choose` minimises: errors, then warnings, then the candidate's number."""
        errors = sum(1 for f in self.failures if f.severity == "error")
        return errors, len(self.failures) - errors, self.number

    def record(self, chosen: bool) -> dict[str, Any]:
        """What raw/<run-id>/candidates.jsonl keeps of it."""
        out: dict[str, Any] = {"candidate": self.number, "chosen": chosen, "score": self.score}
        if self.item is not None:
            out["errors"], out["warnings"] = self.rank[:2]
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
        candidate.failures = check_item(candidate.item, ctx)
    return candidate


def chosen_failures(meta: dict[str, Any] | None) -> list[RuleFailure] | None:
    """The item-rule failures the chosen candidate was scored with, from a pair's ``meta`` (its
    :meth:`Candidate.record` list): the validate stage's item rules on the same item, which it need not run
    again. None for a pair without scored candidates (an offline pair)."""
    for record in (meta or {}).get("candidates") or ():
        if record.get("chosen") and "failures" in record:
            return [RuleFailure.model_validate(failure) for failure in record["failures"]]
    return None


def choose(candidates: list[Candidate]) -> Candidate | None:
    """The best scored candidate, or None when every candidate failed in its steps."""
    scored = [c for c in candidates if c.score is not None]
    if not scored:
        return None
    return min(scored, key=lambda c: c.rank)
