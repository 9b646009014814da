"""Item rules, one module per family, found through the rule registry (:data:`~.base.RULES`, entry-point
group ``ambiforge.rules``); ``check_item`` runs them.

A rule's severity is its default unless ``[validation] severity`` names it ('error', 'warning' or 'off').
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ambiforge.models import Item, RuleFailure
from ambiforge.validation.rules.base import RULES, Rule, all_rules

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


def severity(rule_id: str, ctx: RuleContext) -> str:
    """The rule's effective severity: configured, else its default ('off' means not run)."""
    return ctx.severity(rule_id, all_rules()[rule_id].severity)


def active_rules(ctx: RuleContext) -> list[tuple[Rule, str]]:
    """The item rules to run and their severities. Collecting them reads the registry and wraps plugins'
    checks, so a caller judging many items collects them once and passes them to :func:`check_item`."""
    levels = [(rule, ctx.severity(rule.id, rule.severity)) for rule in all_rules(dataset=False).values()]
    return [(rule, level) for rule, level in levels if level != "off"]


def check_item(
    item: Item,
    ctx: RuleContext,
    only: Iterable[str] | None = None,
    *,
    active: list[tuple[Rule, str]] | None = None,
) -> list[RuleFailure]:
    """Every failure of the item rules (``only`` to run a subset, e.g. for scoring LLM candidates;
    ``active``: the rules of :func:`active_rules` for this context)."""
    wanted = set(only) if only is not None else None
    failures = []
    families: dict[object, list[tuple[str, str]]] = {}  # each family runs once for all its rules
    for rule, level in active if active is not None else active_rules(ctx):
        if wanted is not None and rule.id not in wanted:
            continue
        if rule.family is not None:
            if rule.family not in families:
                families[rule.family] = rule.family(item, ctx)
            messages = [message for rid, message in families[rule.family] if rid == rule.id]
        else:
            messages = rule.check(item, ctx)
        for message in messages:
            failures.append(RuleFailure(rule=rule.id, severity=level, message=message))  # type: ignore[arg-type]
    return failures


__all__ = ["RULES", "Rule", "active_rules", "all_rules", "check_item", "severity"]
