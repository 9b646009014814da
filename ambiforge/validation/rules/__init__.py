"""Item rules, one module per family; ``ITEM_RULES`` is the registry and ``check_item`` runs them."""

from __future__ import annotations

from collections.abc import Iterable

from ambiforge.models import Item, RuleFailure
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import (
    duplicates,
    grounding,
    hygiene,
    intent,
    minimal_pair,
    plan,
    schema,
    shortlist,
)
from ambiforge.validation.rules.base import Rule

ITEM_RULES: dict[str, Rule] = {
    rule.id: rule
    for module in (schema, grounding, shortlist, minimal_pair, plan, intent, hygiene)
    for rule in module.RULES
}
DATASET_RULES: dict[str, Rule] = {rule.id: rule for rule in duplicates.RULES}
ALL_RULES: dict[str, Rule] = ITEM_RULES | DATASET_RULES


def check_item(item: Item, ctx: RuleContext, only: Iterable[str] | None = None) -> list[RuleFailure]:
    """Every failure of the item rules (``only`` to run a subset, e.g. for scoring LLM candidates)."""
    wanted = set(only) if only is not None else None
    failures = []
    for rule in ITEM_RULES.values():
        if wanted is not None and rule.id not in wanted:
            continue
        for message in rule.check(item, ctx):
            failures.append(RuleFailure(rule=rule.id, severity=rule.severity, message=message))
    return failures


__all__ = ["ALL_RULES", "DATASET_RULES", "ITEM_RULES", "Rule", "check_item"]
