"""grounding: the things named in the tasks and plans are in the scene (or are the kitchen itself).

A mention is grounded when the scene lists it in either number ("onions" / "onion"), when one name contains
the other with the same head noun ("ripe banana" / "banana", "ceramic plate" / "ceramic dinner plate"), or
when the scene name is the mention's modifier ("sourdough bread" / "sourdough"). It is not an object at all
when it is a measure ("1 tablespoon of", "a cup of"), something every kitchen has (``ambient_nouns``), the
task's own product ("to make granola") or made from a scene item ("orange juice" beside an orange). A named
object whose kind the scene has under another name ("dish towel" / "kitchen towel") is a warning; one whose
kind the scene lacks is an error. Generic nouns of kitchen items ("a small bowl" from the cupboard) are
warnings; food the scene lacks ("the lemon") is an error. Each (item, thing) is reported once.
"""

from __future__ import annotations

from dataclasses import dataclass

from ambiforge.catalog import Catalog, cached_catalog
from ambiforge.models import Item
from ambiforge.validation.context import RuleContext
from ambiforge.validation.lexicon import Lexicon, Mention, key_of, lexicon_for
from ambiforge.validation.rules.base import family_rules

NUMBERS = frozenset(
    {"a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"}
    | {"half", "quarter", "few", "couple", "several"}
)
#: Verbs whose object is what the task produces, not a scene object: "make granola", "prepare a smoothie".
PRODUCT_VERBS = frozenset(
    {"make", "making", "made", "prepare", "preparing", "create", "creating", "brew", "brewing", "bake", "baking"}
    | {"form", "forming", "whip", "blend", "serve", "simmer"}
)
PRODUCT_WINDOW = 6


def fields(item: Item) -> list[tuple[str, str]]:
    out = [("unambiguous_direct", item.unambiguous_direct), ("ambiguous_task", item.ambiguous_task)]
    out += [(f"plan_for_clear_task[{i}]", s) for i, s in enumerate(item.plan_for_clear_task)]
    out += [(f"plan_for_amb_task[{i}]", s) for i, s in enumerate(item.plan_for_amb_task)]
    return out


def _catalog(ctx: RuleContext) -> Catalog:
    return ctx.catalog or cached_catalog("")


@dataclass(frozen=True)
class Scene:
    keys: frozenset[tuple[str, ...]]
    heads: frozenset[str]
    modifiers: frozenset[str]  # every word of every scene name
    groups: frozenset[str] = frozenset()  # catalog groups of the scene's objects ("the fish": a salmon fillet)

    @classmethod
    def of(cls, item: Item) -> Scene:
        names = [o.name for o in item.environment]
        names += [n for n in item.environment_short.split(",") if n.strip()]
        keys = frozenset(k for k in (key_of(n) for n in names) if k)
        groups = frozenset(o.group for o in item.environment if o.group)
        return cls(keys, frozenset(k[-1] for k in keys), frozenset(w for k in keys for w in k), groups)

    def grounds(self, key: tuple[str, ...]) -> bool:
        if key in self.keys:
            return True
        words = set(key)
        n = len(key)
        for scene in self.keys:
            if any(scene[i : i + n] == key for i in range(len(scene) - n + 1)):  # "cheddar cheese" slices
                return True
            if scene[-1] == key[-1] and (words <= set(scene) or set(scene) <= words):
                return True
            if len(key) > 1 and scene[-1] == key[-2] and set(scene) <= words:  # "sourdough bread"
                return True
            if n == 1 and len(key[0]) >= 4 and scene[-1].endswith(key[0]):  # "berries": the blueberries
                return True
        return False


def _is_number(word: str) -> bool:
    return word in NUMBERS or any(c.isdigit() for c in word)


def _not_an_object(m: Mention, toks: list[str], scene: Scene, ctx: RuleContext, made: set[str]) -> bool:
    """A measure, something ambient, made from a scene item, or the task's product. Products are remembered
    in ``made``, so that a later bare "juice" or "granola" is the same product."""
    key = tuple(toks[m.start : m.end])
    c = ctx.config
    after = toks[m.end] if m.end < len(toks) else ""
    before = toks[m.start - 1] if m.start else ""
    if " ".join(key) in _ambient(c.ambient_nouns):
        return True
    if key[-1] in _units(c.units) and (after == "of" or _is_number(before)):
        return True
    if key[-1] in made:
        return True
    window = toks[max(0, m.start - PRODUCT_WINDOW) : m.start]
    # "orange juice" beside the oranges; "the juice from a lemon"
    derived = (
        before in scene.heads
        or any(w in scene.heads for w in key[:-1])
        or (after in ("from", "out") and key[-1] in _PARTS)
    )
    verb = max((k for k, w in enumerate(window) if w in PRODUCT_VERBS), default=-1)
    product = verb >= 0 and not any(w in _INPUT_MARKERS for w in window[verb + 1 :])
    if derived or product:
        made.add(key[-1])
        return True
    return False


#: What is taken out of a scene item: "the juice from a lemon", "the zest of"...
_PARTS = frozenset({"juice", "zest", "peel", "seed", "yolk", "white", "pulp", "flesh", "skin", "rind", "water"})
_INPUT_MARKERS = frozenset({"with", "using", "in", "into", "from", "on"})
_AMBIENT: dict[tuple[str, ...], frozenset[str]] = {}
_UNITS: dict[tuple[str, ...], frozenset[str]] = {}


def _ambient(nouns: tuple[str, ...]) -> frozenset[str]:
    if nouns not in _AMBIENT:
        _AMBIENT[nouns] = frozenset(" ".join(key_of(n)) for n in nouns)
    return _AMBIENT[nouns]


def _units(units: tuple[str, ...]) -> frozenset[str]:
    if units not in _UNITS:
        _UNITS[units] = frozenset(key_of(u)[-1] for u in units if key_of(u))
    return _UNITS[units]


def _modifier(m: Mention, toks: list[str], lexicon: Lexicon, scene: Scene) -> bool:
    """A noun used as a modifier of the next word: 'glass' in 'glass salad plate', 'lemon' in 'lemon zest'."""
    return m.end < len(toks) and (toks[m.end] in lexicon.heads or toks[m.end] in scene.heads)


@dataclass(frozen=True)
class Ungrounded:
    rule: str
    field: str
    text: str
    message: str


def ungrounded(item: Item, ctx: RuleContext) -> list[Ungrounded]:
    """Each ungrounded thing once, at its first field, with the rule it falls under."""
    lexicon = lexicon_for(_catalog(ctx))
    scene = Scene.of(item)
    seen: dict[str, int] = {}
    made: set[str] = set()
    out: list[Ungrounded] = []
    for field_name, text in fields(item):
        toks, mentions = lexicon.scan(text)
        for m in mentions:
            if m.kind == "fixture":
                continue
            key = tuple(toks[m.start : m.end])
            if (m.kind == "noun" and m.name in scene.groups) or scene.grounds(key):
                if len(key) > 1 and key[-1] not in scene.heads:
                    made.add(key[-1])  # "orange juice" beside the oranges: a later "juice" is that juice
                continue
            if _modifier(m, toks, lexicon, scene) or _not_an_object(m, toks, scene, ctx, made):
                continue
            name = " ".join(key)
            if name in seen:
                continue
            seen[name] = len(out)
            shown = m.text
            if m.kind == "object" and key[-1] in scene.heads:
                others = sorted(" ".join(k) for k in scene.keys if k[-1] == key[-1])
                out.append(
                    Ungrounded(
                        "grounding_variant",
                        field_name,
                        shown,
                        f"names '{shown}'; the environment has {', '.join(others)} (another name?)",
                    )
                )
            elif m.kind == "object" or m.food:
                out.append(
                    Ungrounded("grounding", field_name, shown, f"names '{shown}', which is not in the environment")
                )
            elif key[-1] not in scene.heads:
                out.append(
                    Ungrounded("grounding_noun", field_name, shown, f"refers to '{shown}' but the environment has none")
                )
    return out


def check_family(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    return [(u.rule, f"{u.field}: {u.message}") for u in ungrounded(item, ctx)]


RULES = family_rules(
    check_family,
    ("grounding", "error", "objects and food named in tasks and plans are in the environment"),
    ("grounding_variant", "warning", "a named object the environment has under another name ('dish towel')"),
    ("grounding_noun", "warning", "generic nouns ('a mug') have an object of that kind"),
)
