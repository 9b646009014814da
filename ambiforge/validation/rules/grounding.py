"""grounding: every catalog object named in the tasks and plans is in the scene or a fixed appliance.

Objects outside the catalog (imported free text) are grounded against the scene's own text.
"""

from __future__ import annotations

from ambiforge.catalog import Catalog, cached_catalog
from ambiforge.models import Item
from ambiforge.validation.context import RuleContext
from ambiforge.validation.lexicon import Lexicon, lexicon_for
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.text import contains


def _fields(item: Item) -> list[tuple[str, str]]:
    out = [("unambiguous_direct", item.unambiguous_direct), ("ambiguous_task", item.ambiguous_task)]
    out += [(f"plan_for_clear_task[{i}]", s) for i, s in enumerate(item.plan_for_clear_task)]
    out += [(f"plan_for_amb_task[{i}]", s) for i, s in enumerate(item.plan_for_amb_task)]
    return out


def _catalog(ctx: RuleContext) -> Catalog:
    return ctx.catalog or cached_catalog("")


def _lexicon(ctx: RuleContext) -> Lexicon:
    return lexicon_for(_catalog(ctx))


def check_objects(item: Item, ctx: RuleContext) -> list[str]:
    scene = {o.name.lower() for o in item.environment}
    scene_text = item.environment_short
    problems = []
    for field, text in _fields(item):
        for m in _lexicon(ctx).find(text):
            if m.kind == "object" and m.name.lower() not in scene and not contains(scene_text, m.name):
                problems.append(f"{field}: names '{m.text}', which is not in the environment")
    return problems


def check_nouns(item: Item, ctx: RuleContext) -> list[str]:
    groups = {o.group for o in item.environment if o.group}
    scene_text = item.environment_short
    problems = []
    catalog = _catalog(ctx)
    for field, text in _fields(item):
        for m in _lexicon(ctx).find(text):
            if m.kind != "noun" or m.name in groups or m.text in ctx.config.ambient_nouns:
                continue
            noun = catalog.groups[m.name].noun
            if not contains(scene_text, noun) and not contains(scene_text, m.text):
                problems.append(f"{field}: refers to '{m.text}' but the environment has none")
    return problems


RULES = (
    Rule("grounding", "error", check_objects, "objects named in tasks and plans are in the environment"),
    Rule("grounding_noun", "warning", check_nouns, "generic nouns ('a mug') have an object of that kind"),
)
