"""plan: 1..N steps, ``end_of_ambiguity`` inside the plans, and the plans agree before it."""

from __future__ import annotations

from ambiforge.models import Item
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.text import normalise


def check_plan(item: Item, ctx: RuleContext) -> list[str]:
    limit = ctx.config.max_plan_steps
    problems = []
    for field in ("plan_for_clear_task", "plan_for_amb_task"):
        steps = getattr(item, field)
        if not 1 <= len(steps) <= limit:
            problems.append(f"{field}: has {len(steps)} steps (allowed 1 to {limit})")
        if any(not s.strip() for s in steps):
            problems.append(f"{field}: has an empty step")
    eoa = item.end_of_ambiguity
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    if eoa >= len(clear) or eoa >= len(amb):
        problems.append(
            f"end_of_ambiguity: {eoa} is past the plan (clear plan has {len(clear)} steps, "
            f"ambiguous plan {len(amb)}; steps count from 0)"
        )
    else:
        for i in range(eoa):
            if normalise(clear[i]) != normalise(amb[i]):
                problems.append(f"plan_for_amb_task[{i}]: differs from the clear plan before end_of_ambiguity {eoa}")
                break
    return problems


RULES = (Rule("plan", "error", check_plan, "plan lengths, end_of_ambiguity inside, agreement before it"),)
