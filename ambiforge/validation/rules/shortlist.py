"""shortlist: types with a shortlist (the registry's ``has_shortlist``) list >= 2 options to choose from, and
the options that name objects are in the scene; other types list none. A shortlist type with neither a
shortlist nor variants lists no options at all: an error (AmbiK's second half, ids 501-1000, has none); with
variants and no shortlist it is a warning (the choice may not be over objects). Options that are quantities or
actions ("three", "a teaspoon of oil", "heat up") are not looked up in the scene (:func:`is_object_option`);
an option missing from the scene names the closest scene object, which is usually a misspelling of it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from ambiforge import ambiguity
from ambiforge.catalog import APPLIANCES
from ambiforge.models import Item
from ambiforge.textnorm import singular
from ambiforge.validation.language import is_number, is_verb_only, names_thing, words
from ambiforge.validation.lexicon import key_of
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.grounding import Scene
from ambiforge.validation.rules.item_type import no_choice

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


def has_shortlist(type_name: str) -> bool:
    try:
        return ambiguity.get(type_name).has_shortlist
    except KeyError:
        return False


_APPLIANCES = frozenset(key_of(a) for a in APPLIANCES) | {key_of("refrigerator"), key_of("kettle")}


def is_object_option(option: str, units: frozenset[str]) -> bool:
    """An option that names an object: not a quantity ('three', '2 cups', 'a teaspoon of oil') and not an
    action ('heat up', 'stir'). AmbiK also shortlists amounts and ways of doing; those are choices, but not
    of objects, so the environment cannot be asked for them."""
    ws = words(option)
    if not ws or any(is_number(w) for w in ws):
        return False
    measured = [singular(w) for w, nxt in zip(ws, ws[1:], strict=False) if nxt == "of"]
    if any(w in units for w in measured):  # "a teaspoon of oil"
        return False
    return names_thing(option) and not is_verb_only(ws[0])


#: Questions answered by an amount, a time, a place or a way of doing ("How many eggs?", "Where should I put
#: it?", "How should I cook the fish?"): a shortlist lists things to choose among, so with nothing listed the
#: item has no shortlist defect, whatever its intent names (a wrong type is the ``type`` rule's).
_NO_THING_ASKED = re.compile(
    r"^\s*(?:\w+,\s*)?(?:how|where|when|(?:at|to)\s+what|what\s+(?:temperature|time|amount|setting|level|degree))\b",
    re.I,
)


def check_shortlist(item: Item, ctx: RuleContext) -> list[str]:
    shortlist = [s for s in item.amb_shortlist if s.strip()]
    if not has_shortlist(item.ambiguity_type):
        return []
    if not shortlist and not [v for v in item.variants if v.strip()]:
        if no_choice(item, ctx) is not None or _NO_THING_ASKED.match(item.question):
            return []  # an amount, a place or a way is asked, not a thing: no things to list (see ``type``)
        return [
            f"amb_shortlist: empty for a {item.ambiguity_type} item, and no variants either: nothing lists the options"
        ]
    units = frozenset(singular(w) for u in ctx.config.units for w in words(u))
    objects = [s for s in shortlist if is_object_option(s, units)]
    if len(objects) == 1 and len(shortlist) == 1:
        return [f"amb_shortlist: has one object ({shortlist[0]!r}); a choice needs at least 2"]
    problems = []
    scene = Scene.of(item)
    for name in objects:
        key = key_of(name)
        if key in _APPLIANCES:
            continue  # AmbiK's seven appliances are in every kitchen
        if key and not (scene.grounds(key) or scene.describes(key)):  # "vanilla" of the vanilla yogurt cup
            near = process.extractOne(
                name, scorer=fuzz.ratio, choices=[o.strip() for o in item.environment_short.split(",") if o.strip()]
            )
            hint = f"; closest: '{near[0]}'" if near and near[1] >= 85 else ""
            problems.append(f"amb_shortlist: '{name}' is not in the environment{hint}")
    return problems


def check_shortlist_unexpected(item: Item, ctx: RuleContext) -> list[str]:
    shortlist = [s for s in item.amb_shortlist if s.strip()]
    if shortlist and not has_shortlist(item.ambiguity_type):
        return [f"amb_shortlist: {item.ambiguity_type} items have no shortlist, this one lists {shortlist}"]
    return []


def check_shortlist_present(item: Item, ctx: RuleContext) -> list[str]:
    options = [s for s in item.amb_shortlist if s.strip()]
    if has_shortlist(item.ambiguity_type) and not options and [v for v in item.variants if v.strip()]:
        return [
            f"amb_shortlist: empty for a {item.ambiguity_type} item (fine only when the choice is not over objects)"
        ]
    return []


ORDER = 30  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("shortlist", "error", check_shortlist, "types with a shortlist: >= 2 objects, all in the environment"),
    Rule("shortlist_unexpected", "warning", check_shortlist_unexpected, "a type without shortlists has one"),
    Rule("shortlist_missing", "warning", check_shortlist_present, "a shortlist type without one, variants listed"),
)
