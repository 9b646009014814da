"""shortlist: preferences over objects list >= 2 scene objects to choose from; other types list none."""

from __future__ import annotations

from ambiforge.models import Item
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.text import contains


def check_shortlist(item: Item, ctx: RuleContext) -> list[str]:
    shortlist = [s for s in item.amb_shortlist if s.strip()]
    if item.ambiguity_type != "preferences":
        return [f"amb_shortlist: must be empty for {item.ambiguity_type}, has {shortlist}"] if shortlist else []
    problems = []
    if len(shortlist) == 1:
        problems.append(f"amb_shortlist: has one object ({shortlist[0]!r}); a choice needs at least 2")
    scene = {o.name.lower() for o in item.environment}
    for name in shortlist:
        if name.lower() not in scene and not contains(item.environment_short, name):
            problems.append(f"amb_shortlist: '{name}' is not in the environment")
    return problems


def check_shortlist_present(item: Item, ctx: RuleContext) -> list[str]:
    if item.ambiguity_type == "preferences" and not [s for s in item.amb_shortlist if s.strip()]:
        return ["amb_shortlist: empty for a preferences item (fine only when the preference is not over objects)"]
    return []


RULES = (
    Rule("shortlist", "error", check_shortlist, "preferences: >= 2 scene objects; other types: none"),
    Rule("shortlist_missing", "warning", check_shortlist_present, "preferences item without a shortlist"),
)
