"""intent: the correct action contains the positive concepts and none of the negative ones, and the answer
resolves the question."""

from __future__ import annotations

from ambiforge.models import Item
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.text import contains, intent_concepts


def check_intent(item: Item, ctx: RuleContext) -> list[str]:
    positives, negatives = intent_concepts(item.user_intent)
    if not positives and not negatives:
        return ["user_intent: empty; the correct action is not stated"]
    clear = " \n ".join([item.unambiguous_direct, *item.plan_for_clear_task])
    problems = []
    for alternatives in positives:
        if not any(contains(clear, a) for a in alternatives):
            problems.append(f"user_intent: '{'|'.join(alternatives)}' appears in neither the task nor its plan")
    for word in negatives:
        if contains(clear, word):
            problems.append(f"user_intent: '-{word}' must not appear, but the unambiguous task or plan has it")
    return problems


def check_answer(item: Item, ctx: RuleContext) -> list[str]:
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a for alts in positives for a in alts] + negatives
    if concepts and not any(contains(item.answer, c) for c in concepts):
        return [f"answer: mentions no intent concept ({', '.join(concepts)}), so it may not resolve the question"]
    return []


RULES = (
    Rule("intent", "error", check_intent, "positive intent in the clear task/plan, negative absent"),
    Rule("answer", "warning", check_answer, "the answer contains an intent concept"),
)
