"""A generated pair before it becomes an :class:`~ambiforge.models.Item` (no id, scene or provenance yet).

Every generator (offline templates, LLM steps) produces drafts; turning them into items is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Draft:
    template: str
    unambiguous_direct: str
    unambiguous_indirect: str
    ambiguous_task: str
    question: str
    answer: str
    plan_for_clear_task: list[str]
    plan_for_amb_task: list[str]
    user_intent: list[str]
    variants: list[str]
    amb_shortlist: list[str] = field(default_factory=list)

    @property
    def end_of_ambiguity(self) -> int:
        """The first step where the two plans part (both plans agree before it)."""
        for i, (a, b) in enumerate(zip(self.plan_for_clear_task, self.plan_for_amb_task, strict=False)):
            if a != b:
                return i
        return min(len(self.plan_for_clear_task), len(self.plan_for_amb_task)) - 1
