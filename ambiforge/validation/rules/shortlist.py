"""shortlist: types with a shortlist (the registry's ``has_shortlist``) list >= 2 options to choose from, and
the options that name objects are in the scene; other types list none. A shortlist type with neither a
shortlist nor variants lists no options at all: an error (AmbiK's second half, ids 501-1000, has none); with
variants and no shortlist it is a warning (the choice may not be over objects). An option written twice is one
option. A shortlist lists the kitchen's things the choice is among: an amount ("three", "a teaspoon of oil"),
a way of doing ("heat up") or a bare attribute ("spicy") is no such thing and is not looked up in the scene,
and an object of another kind than the question asks for ("cutting board" for "Which knife?", a dish among
foods: "soup bowls" for "Which bread?") answers nothing. An option missing from the scene names the closest
scene object, which is usually a misspelling."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from ambiforge import ambiguity
from ambiforge.catalog import APPLIANCES, Catalog, cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import CARDINALS, fold_accents, singular
from ambiforge.validation.language import (
    classes,
    content_lemmas,
    is_nominal,
    is_number,
    is_verb_only,
    mentions,
    names_thing,
    words,
)
from ambiforge.validation.lexicon import key_of, kitchen_words, lexicon_for
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.grounding import Scene
from ambiforge.validation.rules.item_type import no_choice
from ambiforge.validation.rules.text import has, intent_concepts

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


#: Separators a writer may put between options in place of AmbiK's commas: semicolons, slashes between words,
#: line breaks (as the variants have) and "or".
_OTHER_SEPARATOR = re.compile(r"\s*;\s*|(?<=[a-z])\s*/\s*(?=[a-z])|\s*\n\s*|\s+or\s+", re.I)


def has_shortlist(type_name: str) -> bool:
    try:
        return ambiguity.get(type_name).has_shortlist
    except KeyError:
        return False


_APPLIANCES = frozenset(key_of(a) for a in APPLIANCES) | {key_of("refrigerator"), key_of("kettle")}
#: The kitchen's own fixtures (shelves, burners, drawers, counters), never in a scene list and always there.
_FIXTURES = frozenset(key_of(f) for f in kitchen_words()["fixture"])


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


def is_stated_object(option: str, units: frozenset[str]) -> bool:
    """As :func:`is_object_option`, and also a thing named with a participle saying its state ('grated
    cheddar', 'sliced bread'), which is no way of doing ('heat up', 'stir well'): the shortlist lists it as a
    thing of the kitchen, so the kitchen must have it."""
    if is_object_option(option, units):
        return True
    ws = words(option)
    return (
        len(ws) >= 2
        and ws[0].endswith(("ed", "en"))
        and names_thing(option)
        and is_nominal(ws[-1])
        and not is_verb_only(ws[-1])
        and not any(is_number(w) for w in ws)
    )


#: Questions answered by an amount, a time, a place, a way of doing or a meaning ("How many eggs?", "Where
#: should I put it?", "How should I cook the fish?", "What does 'until done' mean?"): a shortlist lists things
#: to choose among, so with nothing listed the item has no shortlist defect, whatever its intent names (a wrong
#: type is the ``type`` rule's).
_NO_THING_ASKED = re.compile(
    r"^\s*(?:\w+,\s*)?(?:how|where|when|(?:at|to)\s+what|what\s+(?:temperature|time|amount|setting|level|degree))\b"
    r"|^\s*what\s+(?:does|do)\b[^?]*\bmean\b",  # what a phrase means: "What does 'until done' mean here?"
    re.I,
)


def check_shortlist(item: Item, ctx: RuleContext) -> list[str]:
    shortlist = [part for s in item.amb_shortlist if s.strip() for part in _OTHER_SEPARATOR.split(s) if part.strip()]
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
    if len({key_of(s) or (s.strip().lower(),) for s in shortlist}) == 1:
        return [f"amb_shortlist: has one option ({shortlist[0]!r}); a choice needs at least 2"]
    scene = Scene.of(item)
    named = frozenset(n.strip().lower() for n in item.environment_short.split(",") if n.strip())
    among_things = bool(objects)
    not_objects = _not_objects([s for s in shortlist if s.strip().lower() not in named], units, scene, among_things)
    objects = [s for s in objects if s not in {option for option, _ in not_objects}]
    problems = [f"amb_shortlist: '{s}' is {what}, not an object of the kitchen" for s, what in not_objects]
    problems += _off_question(item, objects, ctx) or _beside_the_kind(item, shortlist, objects, ctx)
    if not problems and (beside := _beside_the_choice(item, shortlist)):
        problems.append(beside)
    # a thing named with its state ("grated cheddar") is looked up without it: the kitchen's cheddar will do
    stated = [s for s in shortlist if s not in objects and is_stated_object(s, units)]
    stated = [s for s in stated if s not in {option for option, _ in not_objects}]
    if _kinds_of_no_thing(item.question, shortlist, ctx.catalog or cached_catalog("")):
        return problems  # "Which program ...?" "eco program, quick program": settings, not the kitchen's things
    if _parts_of_named(item.question, shortlist, scene):
        return problems  # "Which rack of the oven?" "top rack, middle rack": parts of a thing the kitchen has
    for name in objects + stated:
        key = key_of(" ".join(words(name)[1:])) if name in stated else key_of(name)
        if key in _APPLIANCES:
            continue  # AmbiK's seven appliances are in every kitchen
        if key and (key[-1],) in _FIXTURES:
            continue  # "the top shelf", "the back burner": a part of the kitchen itself, which no kitchen lists
        if key and not (scene.grounds(key) or scene.describes(key)) and not written_alike(name, item.environment_short):
            near = process.extractOne(
                name, scorer=fuzz.ratio, choices=[o.strip() for o in item.environment_short.split(",") if o.strip()]
            )
            hint = f"; closest: '{near[0]}'" if near and near[1] >= 85 else ""
            problems.append(f"amb_shortlist: '{name}' is not in the environment{hint}")
    return problems


def _kinds_of_no_thing(question: str, shortlist: list[str], catalog: Catalog) -> bool:
    """The question asks which X, every option is an X said with a word before it ("eco program", "quick
    program"), and no kitchen name ends in X: the options are kinds of a setting or a way, not things a kitchen
    lists, so a kitchen that does not list them misses nothing."""
    m = _ASKED_KIND.search(question)
    if m is None or len(shortlist) < 2:
        return False
    asked = singular(words(m.group(1))[0])
    heads = {key_of(s)[-1] if key_of(s) else "" for s in shortlist}
    if heads != {asked} or any(len(words(s)) < 2 for s in shortlist):
        return False
    lexicon = lexicon_for(catalog)
    return asked not in lexicon.heads


#: "Which rack of the oven ...?", "Which shelf in the fridge ...?": the part asked for and the thing it is of.
_PART_OF = re.compile(r"\bwhich\s+([a-z]+)\s+(?:of|in|on)\s+(?:the\s+|my\s+|your\s+)?([a-z]+(?:\s+[a-z]+)?)", re.I)


def _parts_of_named(question: str, shortlist: list[str], scene: Scene) -> bool:
    """The question asks which X of a thing the kitchen has (or an appliance every kitchen has), and every
    option is an X said with a word before it ("top rack", "middle rack" of the oven): the options are parts of
    that thing, which the kitchen has with it and does not list."""
    m = _PART_OF.search(question)
    if m is None or len(shortlist) < 2:
        return False
    part = singular(m.group(1).lower())
    heads = {key_of(s)[-1] if key_of(s) else "" for s in shortlist}
    if heads != {part} or any(len(words(s)) < 2 for s in shortlist):
        return False
    held = words(m.group(2))
    return any(
        (key := key_of(" ".join(held[:n]))) in _APPLIANCES or scene.grounds(key) for n in range(len(held), 0, -1)
    )


def _written_form(name: str) -> str:
    """A name without what only its writing varies in: accents, apostrophes, hyphens, spaces and case
    ("jalapeño" and "jalapeno", "chef's knife" and "chefs knife", "whole-wheat" and "whole wheat")."""
    plain = fold_accents(name.lower())
    plain = re.sub(r"^(?:the|a|an|some)\s+", "", plain.strip())
    return re.sub(r"[^a-z0-9]", "", plain)


def written_alike(option: str, environment: str) -> bool:
    """The kitchen lists the option under the same name written otherwise ("whole wheat bread" for the
    kitchen's "whole-wheat bread", "nonstick pan" for "non-stick pan"): one thing, not a missing one. A
    misspelling ("black peper") changes a letter and is still missing."""
    form = _written_form(option)
    return bool(form) and any(form == _written_form(n) for n in environment.split(","))


def _not_objects(
    shortlist: list[str], units: frozenset[str], scene: Scene, among_things: bool
) -> list[tuple[str, str]]:
    """Options that are no object one could hand over: an amount ("three", "a teaspoon of oil"), a way of
    doing ("heat up", "do not heat up"), or a bare attribute the kitchen does not hold as a thing ("spicy",
    "large"; "parmesan" is a cheese). The shortlist lists the kitchen's things the choice is among; the amount
    or the manner is the answer's business."""
    out = []
    for option in shortlist:
        ws = words(option)
        if not ws:
            continue
        counted = [w for w in ws[:-1] if not _SIZE.match(w)] + ws[-1:] if not _PERCENT.search(option) else []
        if any(w in CARDINALS or any(c.isdigit() for c in w) for w in counted) or any(
            singular(w) in units - _CONTAINERS for w, nxt in zip(ws, ws[1:], strict=False) if nxt == "of"
        ):
            out.append((option, "an amount"))
        elif ws[0] in _NEGATION or ("VERB" in classes(ws[0]) and ws[1:] and set(ws[1:]) <= _PARTICLES):
            out.append((option, "a way of doing"))
        elif all(_describes(w, among_things) for w in ws) and not scene.grounds(key_of(option)):
            out.append((option, "an attribute"))
    return out


def _describes(word: str, among_things: bool) -> bool:
    """An adjective that is no noun ("spicy"), or, among options that are things, a past participle that is
    only a verb ("washed" beside the blueberries): a state a thing is in, which names no thing. Participles
    alone ("scrambled, fried") are ways of cooking, a choice of its own."""
    kinds = classes(word)
    if "NOUN" in kinds:
        return False
    return "ADJ" in kinds or (among_things and kinds == {"VERB"} and word.lower().endswith(("ed", "en")))


#: A number joined to its unit before a noun is a size of the thing ("8-inch pans", "9x13 pan", "12-cup tin").
_SIZE = re.compile(r"^\d+(?:\.\d+)?(?:-[a-z]+|x\d+)$")
#: A percentage says which kind ("2% milk"), not how much.
_PERCENT = re.compile(r"\d\s*%")
_NEGATION = frozenset({"do", "don't", "dont", "not", "no", "never"})
_PARTICLES = frozenset({"up", "down", "off", "out", "in", "it", "them", "through", "over"})
#: Units that also hold a thing one hands over: "a bottle of red wine" is an object, "a teaspoon of oil" an amount.
_CONTAINERS = frozenset({"bottle", "can", "jar", "bag", "box", "package", "packet", "carton", "tin", "cup", "glass"})
_CONTAINERS |= frozenset({"bowl", "slice", "piece", "loaf", "bunch", "head", "clove", "stick", "bar", "tablet"})
#: Words for a category of things that are catalog tags ("Which vegetables ...?", "What utensil ...?").
_CATEGORIES = frozenset({"vegetable", "fruit", "snack", "utensil", "drink", "condiment", "sweetener", "dairy"})
_CATEGORIES |= frozenset({"meat", "fish", "cookware", "bakeware", "tableware", "cutlery"})
#: The categories that are food.
_FOOD_CATEGORIES = _CATEGORIES - {"utensil", "cookware", "bakeware", "tableware", "cutlery"}
#: "Which knife ...?", "What type of cheese ...?": the kind of thing the question asks for.
_ASKED_KIND = re.compile(
    r"\b(?:which|what)\s+(?:(?:specific|type|types|kind|kinds|sort)\s+(?:of\s+)?)?([a-z]+(?:\s+[a-z]+)?)", re.I
)


def _off_question(item: Item, objects: list[str], ctx: RuleContext) -> list[str]:
    """Options of another kind than the question asks for ("cutting board" among the options of "Which
    knife ...?", "honey" for "Which vegetables ...?"): when the question names a kind of the catalog (a group's
    noun, or a category that is a catalog tag) and at least two options are of it, or the intended option is of
    the category, a catalog object of another kind, not called by that noun, does not answer the question."""
    catalog = ctx.catalog or cached_catalog("")
    m = _ASKED_KIND.search(item.question)
    if m is None:
        return []
    nouns = {g.noun for g in catalog.groups.values()} | _CATEGORIES
    first = words(m.group(1))[:1]
    asked = next((n for n in (" ".join(words(m.group(1))), *first, *map(singular, first)) if n in nouns), None)
    if asked is None:
        return []

    category = asked in _CATEGORIES
    tags = {asked} if category else {t for g in catalog.groups.values() if g.noun == asked for t in g.tags}
    # a food kind narrower than its tags ("jam", a spread; "milk", a drink): another food of its tags is another
    # kind ("peanut butter" for "Which jam?"), while a kind that is its own tag ("bread") takes every member
    narrow = not category and asked not in tags and _food_kind(asked, catalog)
    heads = {tuple(singular(w) for w in words(g.noun)): set(g.tags) for g in catalog.groups.values()}

    def of_kind(option: str) -> bool | None:
        found = catalog.objects.get(option.strip().lower())
        if mentions(option, asked) or (found is not None and found.noun == asked):
            return True
        ws = tuple(singular(w) for w in words(option))
        kind = (
            set(found.tags)
            if found is not None
            else next((t for n in range(len(ws), 0, -1) if (t := heads.get(ws[-n:])) is not None), None)
        )  # a catalog object, or a name ending in a group's noun ("cutting board")
        if kind is None:
            return None
        if tags & kind and found is not None and (len(words(asked)) >= 2 or narrow) and found.noun != asked:
            return False  # another kind beside a kind named in full ("strawberry jam" for "Which nut butter?")
        if tags & kind:
            return True if category else None  # a kin of it ("ceramic mug" for "Which cup?"): drinkware either way
        return False

    kinds = [of_kind(o) for o in objects]
    positives, _ = intent_concepts(item.user_intent)
    wanted = [a.strip() for alts in positives for a in alts if a.strip()]
    chosen = [o for o, kind in zip(objects, kinds, strict=True) if kind and any(has(o, w) for w in wanted)]
    # one option of the kind is enough when it is the intended one and the kind is a category or a food
    if kinds.count(True) < 2 and not ((category or _food_kind(asked, catalog)) and chosen):
        return _tool_among_food(asked, objects, kinds, catalog)
    return [
        f"amb_shortlist: '{o}' is no {asked}, which the question asks for"
        for o, kind in zip(objects, kinds, strict=True)
        if kind is False
    ]


def _food_kind(noun: str, catalog: Catalog) -> bool:
    return any(g.noun == noun and g.kind == "food" for g in catalog.groups.values())


#: Kitchen-item tags of things that hold food when sold or kept ("tea bags", "lager bottles", "a yogurt cup"): an
#: option ending in one may be the food itself, so it is never read as a tool.
_PACKAGING = frozenset({"storage", "drink_server", "container", "drinkware", "hot_drinkware"})


def _tool_among_food(asked: str, objects: list[str], kinds: list[bool | None], catalog: Catalog) -> list[str]:
    """Options that are no food at all while the question asks for a food ("soup bowls" among the options of
    "Which bread ...?"): the question names a catalog group or category of food, one option is of it and another is food
    too (the catalog does not group every bread: "ciabatta"), and the option ends in a kitchen item's noun
    that is a tool, dish or vessel (not a package that holds food: "tea bags", "lager bottles")."""
    foods = {g.noun for g in catalog.groups.values() if g.kind == "food"} | _FOOD_CATEGORIES
    if asked not in foods or True not in kinds:
        return []
    lexicon = lexicon_for(catalog)
    items = {
        tuple(singular(w) for w in words(g.noun)): g
        for g in catalog.groups.values()
        if g.kind != "food" and set(g.tags) - _PACKAGING
    }

    def food(option: str) -> bool:
        _, found = lexicon.scan(option)
        return bool(found) and max(found, key=lambda m: m.end).food

    def tool(option: str) -> bool:
        ws = tuple(singular(w) for w in words(option))
        return not food(option) and any(ws[-n:] in items for n in range(1, min(len(ws), 2) + 1))

    if sum(1 for o in objects if food(o)) < 2:
        return []
    return [
        f"amb_shortlist: '{o}' is no {asked}, which the question asks for"
        for o, kind in zip(objects, kinds, strict=True)
        if kind is False and tool(o)
    ]


#: An option that says how the thing comes ("with ice", "without sugar"), not which thing it is.
_MANNER = re.compile(r"^\s*(?:with|without)\b", re.I)


def _beside_the_kind(item: Item, shortlist: list[str], objects: list[str], ctx: RuleContext) -> list[str]:
    """Options of another kind than the question asks for, when the question names no kind of the catalog
    ("Which spread ...?", "Which glass ...?"): beside two or more options that are foods, among them the
    intended one, a kitchen tool or dish ("small bowls" among the spreads); or beside two or more things, a
    manner ("with ice" among the glasses). The options are things the choice is among; these answer another
    question."""
    if _ASKED_KIND.search(item.question) is None:  # "Which glass ...?", "What spread ...?"
        return []
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    problems = []
    manners = [o for o in shortlist if _MANNER.match(o)]
    things = [o for o in objects if not _MANNER.match(o)]
    if manners and len(things) >= 2:
        problems += [f"amb_shortlist: '{o.strip()}' is a manner, not a thing the question asks for" for o in manners]

    def food(option: str) -> bool:
        _, found = lexicon.scan(option)
        return bool(found) and max(found, key=lambda m: m.end).food

    def tool(option: str) -> bool:
        _, found = lexicon.scan(option)
        last = max(found, key=lambda m: m.end) if found else None
        return last is not None and not last.food and last.kind != "fixture" and not _holds_food(option, ctx)

    positives, _ = intent_concepts(item.user_intent)
    wanted = [a.strip() for alts in positives for a in alts if a.strip()]
    foods = [o for o in things if food(o)]
    if len(foods) >= 2 and any(has(o, w) or has(w, o) for o in foods for w in wanted):
        problems += [
            f"amb_shortlist: '{o.strip()}' is no food, while the question chooses a food" for o in things if tool(o)
        ]
    return problems


def _holds_food(option: str, ctx: RuleContext) -> bool:
    """A package or vessel sold with its food ("tea bags", "oat milk bottle"): may be the food itself."""
    catalog = ctx.catalog or cached_catalog("")
    ws = tuple(singular(w) for w in words(option))
    for g in catalog.groups.values():
        if g.kind != "food" and tuple(singular(w) for w in words(g.noun)) == ws[-len(words(g.noun)) :]:
            return not (set(g.tags) - _PACKAGING)
    return False


def _beside_the_choice(item: Item, shortlist: list[str]) -> str | None:
    """A shortlist that lists other things than the choice: no option is the intended one or shares a word
    with the answer, while the variants offer the intended option and none of the shortlisted ones
    ("tomato sauce, pesto" for "Which pasta?", answered "Penne." with the variants spaghetti, penne,
    fusilli). The variants and the answer agree on what is chosen among; the shortlist is off the question."""
    variants = [v.strip() for v in item.variants if v.strip() and not v.strip().startswith("-")]
    positives, _ = intent_concepts(item.user_intent)
    wanted = [a.strip() for alts in positives for a in alts if a.strip()]
    if len(variants) < 2 or not wanted or not shortlist:
        return None

    def same(a: str, b: str) -> bool:
        return has(a, b) or has(b, a) or bool(content_lemmas(a) & content_lemmas(b))

    answer = content_lemmas(item.answer) - content_lemmas(item.question)
    if any(same(o, w) for o in shortlist for w in wanted) or any(content_lemmas(o) & answer for o in shortlist):
        return None
    if not any(same(v, w) for v in variants for w in wanted) or any(same(v, o) for v in variants for o in shortlist):
        return None
    return (
        f"amb_shortlist: lists {', '.join(repr(o) for o in shortlist)}, none of them the intended "
        f"'{wanted[0]}' nor any of the variants the question chooses among"
    )


def check_shortlist_present(item: Item, ctx: RuleContext) -> list[str]:
    options = [s for s in item.amb_shortlist if s.strip()]
    variants = {v.strip().lower() for v in item.variants if v.strip()}
    if not has_shortlist(item.ambiguity_type) or options or len(variants) < 2:
        return []  # a single variant offers no choice: the type's defect, not the shortlist's
    if _NO_THING_ASKED.match(item.question) or no_choice(item, ctx) is not None:
        return []  # an amount, a place or a way is asked: nothing to shortlist
    units = frozenset(singular(w) for u in ctx.config.units for w in words(u))
    if not all(is_object_option(v, units) for v in variants):
        return []  # yes/no, amounts or whole instructions: the choice may not be over things
    return [
        f"amb_shortlist: empty for a {item.ambiguity_type} item whose variants offer things to choose among "
        f"({'; '.join(sorted(variants))[:80]}): list them in amb_shortlist"
    ]


ORDER = 30  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("shortlist", "error", check_shortlist, "types with a shortlist: >= 2 objects, all in the environment"),
    Rule(
        "shortlist_missing",
        "warning",
        check_shortlist_present,
        "a choice among things (two or more variants) without a shortlist",
    ),
)
