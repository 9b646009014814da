"""shortlist: types with a shortlist (the registry's ``has_shortlist``) list >= 2 scene objects to choose
from; other types list none."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ambiforge import ambiguity
from ambiforge.models import Item
from ambiforge.validation.lexicon import key_of
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.grounding import Scene

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


def has_shortlist(type_name: str) -> bool:
    try:
        return ambiguity.get(type_name).has_shortlist
    except KeyError:
        return False


def check_shortlist(item: Item, ctx: RuleContext) -> list[str]:
    shortlist = [s for s in item.amb_shortlist if s.strip()]
    if not has_shortlist(item.ambiguity_type):
        return []
    problems = []
    if len(shortlist) == 1:
        problems.append(f"amb_shortlist: has one object ({shortlist[0]!r}); a choice needs at least 2")
    scene = Scene.of(item)
    for name in shortlist:
        key = key_of(name)
        if key and not scene.grounds(key):
            problems.append(f"amb_shortlist: '{name}' is not in the environment")
    return problems


def check_shortlist_unexpected(item: Item, ctx: RuleContext) -> list[str]:
    shortlist = [s for s in item.amb_shortlist if s.strip()]
    if shortlist and not has_shortlist(item.ambiguity_type):
        return [f"amb_shortlist: {item.ambiguity_type} items have no shortlist, this one lists {shortlist}"]
    return []


def check_shortlist_present(item: Item, ctx: RuleContext) -> list[str]:
    if has_shortlist(item.ambiguity_type) and not [s for s in item.amb_shortlist if s.strip()]:
        return [
            f"amb_shortlist: empty for a {item.ambiguity_type} item (fine only when the choice is not over objects)"
        ]
    return []


ORDER = 30  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("shortlist", "error", check_shortlist, "types with a shortlist: >= 2 objects, all in the environment"),
    Rule("shortlist_unexpected", "warning", check_shortlist_unexpected, "a type without shortlists has one"),
    Rule("shortlist_missing", "warning", check_shortlist_present, "an item of a shortlist type without one"),
)
