"""schema: the item validates against ``schemas/item.schema.json``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ambiforge.models import Item
from ambiforge.models.schema import item_errors
from ambiforge.validation.rules.base import Rule

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


def check_schema(item: Item, ctx: RuleContext) -> list[str]:
    return item_errors(item)


ORDER = 10  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (Rule("schema", "error", check_schema, "the item validates against schemas/item.schema.json"),)
