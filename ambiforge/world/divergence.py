"""Where two plans part: the end of ambiguity of an item, computed from its plans as actions.

AmbiK's ``end_of_ambiguity`` is the step at which the robot can no longer go on without the answer. With
plans as actions that is a comparison, not a judgement: the first step of the clear plan that some
answer's plan does differently (another object, another place, another quantity, or no step at all).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ambiforge.models.action import Action


def end_of_ambiguity(
    clear_plan: Sequence[Action], per_answer_plans: Mapping[str, Sequence[Action]] | Sequence[Sequence[Action]]
) -> int | None:
    """The first step (0-based) of the clear plan whose action depends on the answer: where some answer's
    plan does something else (another object, another place, another quantity) or has already ended.
    ``None`` when every answer's plan equals the clear plan (the answer changes nothing)."""
    plans = list(per_answer_plans.values()) if isinstance(per_answer_plans, Mapping) else list(per_answer_plans)
    longest = max([len(clear_plan), *(len(p) for p in plans)])
    for i in range(longest):
        mine = clear_plan[i] if i < len(clear_plan) else None
        for p in plans:
            theirs = p[i] if i < len(p) else None
            # The same action object is the same step (a plan under another answer shares the steps it
            # does not change): comparing two models field by field is what costs here.
            if theirs is not mine and theirs != mine:
                return i
    return None
