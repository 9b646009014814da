"""plan: the plans' shape, and whether the clear plan resolves what the ambiguous task leaves open.

- ``plan`` (error): 1..``max_plan_steps`` steps, no empty step, ``end_of_ambiguity`` inside both plans, and
  the plans agree before it.
- ``plan_length`` (warning): more than ``long_plan_steps`` steps; long recipes are legitimate.
- ``plan_divergence`` (error): the plans differ *at* ``end_of_ambiguity`` and the clear step there resolves
  the ambiguity: it carries a positive intent concept that neither the ambiguous task nor the ambiguous step
  has (it names it more often than the ambiguous step: "into a glass" from "the glass milk bottle"), and does
  not itself leave the choice open ("the chosen pasta", "a suitable appliance").
- ``answer_leak`` (error): the ambiguous plan already names, up to ``end_of_ambiguity``, the intended option
  the ambiguous task leaves open, so acting on the ambiguous task looks resolved without asking. (After it
  AmbiK's ambiguous plans follow the clear plan, so later steps may name it.)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ambiforge.models import Item
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.text import count, has_any, intent_concepts, normalise

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

_OPEN_CHOICE = re.compile(
    r"\b(?:the|a|an) (?:chosen|selected|specified|preferred|desired|suitable|appropriate|right|correct|"
    r"requested|intended|proper)\b(?! (?:amount|temperature|time|heat|setting|size|consistency|length|way))",
    re.I,
)


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


def check_plan_length(item: Item, ctx: RuleContext) -> list[str]:
    limit = ctx.config.long_plan_steps
    return [
        f"{field}: has {n} steps (more than {limit}; fine for a long recipe)"
        for field in ("plan_for_clear_task", "plan_for_amb_task")
        if (n := len(getattr(item, field))) > limit
    ]


def check_divergence(item: Item, ctx: RuleContext) -> list[str]:
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    if clear and len(clear) == len(amb) and all(normalise(c) == normalise(a) for c, a in zip(clear, amb, strict=True)):
        return ["plan_for_amb_task: identical to plan_for_clear_task; the clear plan resolves nothing"]
    if eoa >= len(clear) or eoa >= len(amb):
        return []  # the plan rule reports it
    if normalise(clear[eoa]) == normalise(amb[eoa]):
        return [f"plan_for_clear_task[{eoa}]: the same as the ambiguous step at end_of_ambiguity"]
    positives, _ = intent_concepts(item.user_intent)
    resolving = [
        a
        for alts in positives
        for a in alts
        if count(clear[eoa], a) > max(count(amb[eoa], a), count(item.ambiguous_task, a))
    ]
    if resolving:
        return []
    if m := _OPEN_CHOICE.search(clear[eoa]):
        return [f"plan_for_clear_task[{eoa}]: still leaves the choice open ({m.group(0)!r})"]
    if positives:
        concepts = ", ".join("|".join(a) for a in positives)
        return [
            f"plan_for_clear_task[{eoa}]: the step at end_of_ambiguity adds no intent concept ({concepts}) "
            "that the ambiguous task and step lack"
        ]
    return []


def check_leak(item: Item, ctx: RuleContext) -> list[str]:
    positives, _ = intent_concepts(item.user_intent)
    problems = []
    for alternatives in positives:
        if has_any(item.ambiguous_task, alternatives):
            continue  # the task itself says it: nothing to leak
        clear = item.plan_for_clear_task
        for i, step in enumerate(item.plan_for_amb_task[: item.end_of_ambiguity + 1]):
            same = clear[i] if i < len(clear) else ""
            found = next((a for a in alternatives if count(step, a) >= max(1, count(same, a))), None)
            if found is not None:
                problems.append(f"plan_for_amb_task[{i}]: already names the intended '{found}'")
                break
    return problems


ORDER = 50  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("plan", "error", check_plan, "plan sizes, end_of_ambiguity inside, agreement before it"),
    Rule("plan_length", "warning", check_plan_length, "plans longer than long_plan_steps"),
    Rule("plan_divergence", "error", check_divergence, "the clear plan resolves the ambiguity at end_of_ambiguity"),
    Rule("answer_leak", "error", check_leak, "the ambiguous plan does not name the intended option"),
)
