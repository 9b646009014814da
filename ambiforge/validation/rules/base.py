"""A rule: an id, a severity and a check that returns messages naming the field at fault."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ambiforge.models import Item
from ambiforge.validation.context import RuleContext

Check = Callable[[Item, RuleContext], list[str]]


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Literal["error", "warning"]
    check: Check
    description: str = ""
