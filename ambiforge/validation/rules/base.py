"""A rule: an id, a default severity and a check that returns messages naming the field at fault.

Rules of one family that share their work (grounding finds every mention once, then sorts each into its
rule) have one ``family`` check returning (rule id, message) pairs; ``check_item`` calls it once an item.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ambiforge.models import Item
from ambiforge.validation.context import RuleContext

Check = Callable[[Item, RuleContext], list[str]]
FamilyCheck = Callable[[Item, RuleContext], list[tuple[str, str]]]


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Literal["error", "warning"]
    check: Check
    description: str = ""
    family: FamilyCheck | None = None


def family_rules(check: FamilyCheck, *specs: tuple[str, Literal["error", "warning"], str]) -> tuple[Rule, ...]:
    """Rules that share one check; each rule's own ``check`` filters the family's findings."""

    def only(rule_id: str) -> Check:
        return lambda item, ctx: [message for rid, message in check(item, ctx) if rid == rule_id]

    return tuple(Rule(rid, severity, only(rid), description, check) for rid, severity, description in specs)
