"""Item rules, one module per family; ``ITEM_RULES`` is the registry and ``check_item`` runs them.

A rule's severity is its default unless ``[validation] severity`` names it ('error', 'warning' or 'off').
"""

from __future__ import annotations

from collections.abc import Iterable

from ambiforge.models import Item, RuleFailure
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import (
    corruption,
    duplicates,
    grounding,
    hygiene,
    intent,
    minimal_pair,
    plan,
    schema,
    shortlist,
    variants,
)
from ambiforge.validation.rules.base import Rule

ITEM_MODULES = (schema, grounding, shortlist, minimal_pair, plan, intent, variants, hygiene, corruption)
ITEM_RULES: dict[str, Rule] = {rule.id: rule for module in ITEM_MODULES for rule in module.RULES}
DATASET_RULES: dict[str, Rule] = {rule.id: rule for rule in duplicates.RULES}
ALL_RULES: dict[str, Rule] = ITEM_RULES | DATASET_RULES


def severity(rule_id: str, ctx: RuleContext) -> str:
    """The rule's effective severity: configured, else its default ('off' means not run)."""
    return ctx.severity(rule_id, ALL_RULES[rule_id].severity)


_ACTIVE: dict[tuple[tuple[str, str], ...], list[tuple[Rule, str]]] = {}


def _active(ctx: RuleContext) -> list[tuple[Rule, str]]:
    """The item rules to run and their severities, worked out once per configuration."""
    key = tuple(sorted(ctx.config.severity.items()))
    if key not in _ACTIVE:
        levels = [(rule, severity(rule.id, ctx)) for rule in ITEM_RULES.values()]
        _ACTIVE[key] = [(rule, level) for rule, level in levels if level != "off"]
    return _ACTIVE[key]


def check_item(item: Item, ctx: RuleContext, only: Iterable[str] | None = None) -> list[RuleFailure]:
    """Every failure of the item rules (``only`` to run a subset, e.g. for scoring LLM candidates)."""
    wanted = set(only) if only is not None else None
    failures = []
    families: dict[int, list[tuple[str, str]]] = {}
    for rule, level in _active(ctx):
        if wanted is not None and rule.id not in wanted:
            continue
        if rule.family is not None:
            key = id(rule.family)
            if key not in families:
                families[key] = rule.family(item, ctx)
            messages = [message for rid, message in families[key] if rid == rule.id]
        else:
            messages = rule.check(item, ctx)
        for message in messages:
            failures.append(RuleFailure(rule=rule.id, severity=level, message=message))  # type: ignore[arg-type]
    return failures


__all__ = ["ALL_RULES", "DATASET_RULES", "ITEM_RULES", "Rule", "check_item", "severity"]
