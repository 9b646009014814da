"""plan_objects: whether each plan does its own task, read on the kitchen things the task and plan act on.

A plan does its task when it takes up what the task asks to act on and does not go on to another job. AmbiK
plans add fetching, placing and tools the task leaves implicit, and name a thing by a shorter name ("the
sponge", "the peppers"), so only what is certain is read:

- a food the task names (resolved against the kitchen list) that its plan never names by any of its words
  ("Bake the walnuts", a plan that bakes the peanuts, almonds and cashews only) nor by its kind as a thing
  ("spread" of the marmalade said only as a step's verb, "Spread butter on the toast", is no kind);
- a kitchen object the task names whose plan names, instead, another kitchen object of the same kind ("the
  paring knife", a plan that uses the bread knife; "the black tea bags", a plan that steeps green tea bags;
  "the brie", a plan that puts out the aged cheddar and after it says only "the cheese"; "the veggie burgers",
  named by a word and a head no kitchen name joins, a plan that grills the chicken burgers beside veggie patties);
- the place the task puts or serves things ("serve it on a plate", "place them on the kitchen table", "in the
  mesh basket" of the kitchen list) where the plan, which puts things somewhere, never names that place;
- a step that does what the other plan's same step does, on a kitchen thing nothing in the item names, where
  both tasks name the other plan's thing ("Add the beef sirloin ..." / "Add the tofu ..."; "a salad fork" /
  "a dinner fork", read by the words that tell the two apart; a tool of another head by its head: "pizza" of
  "the pizza stone" names the pizza, not the stone), or that does an
  action of its task with another tool than the task names ("mash with the mortar and pestle" for "mash it
  with the fork") while the plan never names the task's tool;
- a clear step that takes, where the ambiguous plan's same step leaves the choice open, an option the intent
  does not take ("through the colander" where the clear task names the fine-mesh sieve);
- a step that does the other plan's same step (the same verb) with a kitchen object nothing in the item names,
  where that step uses an object both tasks name ("Walk to the dishwasher ..." / "Walk to the sink ...");
- steps of another job: a task that makes nothing ("Slice the lemon", "Store the tomato") whose plan goes on to
  act on two or more kitchen foods nothing in the item mentions, or a task that only handles things ("take
  the cucumber and the potato from the fridge") whose plan cooks in two or more steps.

Not read: what the task makes ("Make a fruit smoothie": the result, not a thing to fetch), a measure ("a
tablespoon of sugar"), a place things come from or are kept in ("from the dish rack", "it is in the
cupboard", "where the roast chicken and the spinach are"), an option the task offers ("in the microwave or in
a saucepan"), a thing the task rules out ("not the knife"), a tool the plan does not name (the plan may use it
without saying so), a food a plan takes up together ("Put the rest away") or inside a dish it names by its head
("the soup" for the butternut squash soup), the cooking of a task that preheats the oven or puts food into
something hot or into the oven (a "roasting pan" is a tool, no cooking), and, in the ambiguous plan, the answer its
task already names (the task's defect: its plan may rightly leave the choice open).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rapidfuzz.distance import OSA

from ambiforge.catalog import cached_catalog
from ambiforge.textnorm import singular
from ambiforge.validation.language import FUNCTION_WORDS, classes, lemma, verb_lemmas, words
from ambiforge.validation.lexicon import kitchen_words, lexicon_for
from ambiforge.validation.rules.text import has, intent_concepts, normalise

if TYPE_CHECKING:
    from ambiforge.models import Item
    from ambiforge.validation.context import RuleContext

#: Words before a name that rule it out or offer it as one option: the plan need not act on it.
_NOT_ACTED = frozenset(
    {"not", "without", "instead", "avoid", "never", "except", "rather", "than", "no", "nor", "unless", "if"}
    | {"or", "either", "don't", "dont", "optional", "optionally"}
)
#: Words after a name that offer it as one option ("the microwave or a saucepan").
_OPTION_AFTER = frozenset({"or", "if"})
#: Words that say a name is where a thing is, not what is acted on ("from the dish rack", "in the cupboard").
_PLACE_BEFORE = frozenset(
    {"from", "in", "inside", "within", "near", "beside", "next", "behind", "under", "above", "below", "beneath"}
)
#: Words before "of"/"to" that make the name after a landmark ("the tomato right of the blood orange").
_BESIDE = frozenset({"right", "left", "front", "next", "side", "close"})
#: Verbs whose object is what the task produces ("Make a fruit smoothie using ...").
_MAKES = frozenset({"make", "prepare", "making", "preparing", "create", "creating"})
#: Words that end the name of what is made and start what it is made of.
_MADE_OF = frozenset({"using", "use", "with", "from", "by", "of", "and", ",", "for"})
#: Measures a name may be ("a tablespoon of sugar", "a scoop of ice cream"): how much, not a thing acted on.
_MEASURES = frozenset(
    {"tablespoon", "teaspoon", "cup", "scoop", "pinch", "dash", "slice", "glass", "bowl", "handful", "spoonful"}
    | {"ounce", "pound", "liter", "litre", "gram", "jar", "can", "bottle", "piece", "clove", "stick"}
)
#: Words of a name that say its state, not what it is ("canned", "sliced"): another thing may share them.
_STATES = frozenset(
    {"canned", "fresh", "frozen", "sliced", "chopped", "dried", "raw", "cooked", "whole", "small", "large", "big"}
    | {"clean", "dirty", "empty", "ripe", "hot", "cold", "new", "old", "mixed", "plain", "organic", "instant"}
)
#: Other names of the places things are put ("the tray" for the baking sheet, "the refrigerator").
_PLACE_NAMES = (
    frozenset({"sheet", "tray", "pan"}),
    frozenset({"fridge", "refrigerator"}),
    frozenset({"plate", "dish", "platter"}),
    frozenset({"table", "counter", "countertop"}),
)
#: A task or plan putting things somewhere: the place is the words after the preposition.
_PUTS = re.compile(
    r"\b(?:place|put|set|transfer|serve|leave|arrange|lay)\b[^.;]{0,60}?\b(?:on|in|into|onto|on top of)\s+"
    r"(?:the |a |an )?([a-z -]+)",
    re.I,
)
#: Verbs and words of a task that makes, cooks or sets out something: its plan rightly takes up foods the
#: task leaves to it (salt, oil, the fruits of "a dessert assortment").
_PRODUCES = re.compile(
    r"\b(?:make|making|prepare|preparing|cook|cooking|bake|baking|roast|roasting|fry|frying|saut\w*|boil\w*"
    r"|(?:pre)?heat\w*|toast\w*|grill\w*|steam\w*|simmer\w*|brew\w*|mix\w*|combine\w*|blend\w*|season\w*"
    r"|sear(?:s|ed|ing)?|bast(?:e|es|ed|ing)|braise\w*|poach\w*|stew\w*|broil\w*|scrambl\w*|marinat\w*|stir-fr\w*"
    r"|organi[sz]e\w*|arrange\w*|assemble\w*|create\w*|set (?:up|out)|serve\w*|plan\w*|snack\w*|meal\w*"
    r"|breakfast|brunch|lunch|dinner|recipe\w*|dish|platter|salad|spread|buffet)\b",
    re.I,
)

Name = tuple[str, list[str], bool]  # a kitchen thing: its name, its lemmas, whether it is food


def _lemmas(text: str) -> list[str]:
    return [lemma(w.lower()) for w in words(text)]


def _landmark(before: list[str]) -> bool:
    """The words before a name place it beside another thing: "right of the", "next to"."""
    return any(w in ("of", "to") and k and before[k - 1] in _BESIDE for k, w in enumerate(before))


#: Verbs that close a clause saying where things are ("where the roast chicken and the spinach are").
_BEING = frozenset({"be", "sit", "stand", "lie", "stay", "keep", "store"})
#: Words a "where" clause may hold between its "where" and its verb besides the names themselves.
_LIST_WORDS = frozenset({"the", "a", "an", "and", "some", "its", "their", "other", "already"})


def _where_clause(task: list[str], start: int, end: int) -> bool:
    """The name is the subject of a clause that says where things are ("put it in the fridge, where the roast
    chicken and the fresh spinach are"): a landmark, not a thing the task acts on. Only names, their
    modifiers, "and" and determiners lie between "where" and the clause's verb."""
    before = task[max(0, start - 8) : start]
    if "where" not in before:
        return False
    lead = before[len(before) - 1 - before[::-1].index("where") + 1 :]
    after = task[end : end + 8]
    verb = next((k for k, w in enumerate(after) if w in _BEING), None)
    if verb is None:
        return False
    between = [*lead, *after[:verb]]
    return all(w in _LIST_WORDS or classes(w) & {"NOUN", "ADJ"} or not classes(w) for w in between)


#: Subjects of a clause of purpose: "so I can roast them with potatoes tomorrow".
_PURPOSE_SUBJECTS = frozenset({"i", "we", "you", "they"})


def _later_purpose(before: list[str]) -> bool:
    """The name lies in a clause of purpose ("..., so I can roast them with potatoes tomorrow"): what the user
    means to do later, not a thing this task acts on."""
    return any(
        w == "so"
        and before[k + 1 : k + 3]
        and before[k + 1] in _PURPOSE_SUBJECTS | {"that"}
        and {"can", "could", "will"} & set(before[k + 1 : k + 4])
        for k, w in enumerate(before)
    )


def _acted_on(task: list[str], start: int, end: int) -> bool:
    """The name at ``task[start:end]`` is something the task acts on: not ruled out, offered as an option,
    the place a thing is, a measure, or what the task makes."""
    if _NOT_ACTED & set(task[max(0, start - 4) : start]) or _OPTION_AFTER & set(task[end : end + 2]):
        return False
    if _PLACE_BEFORE & set(task[max(0, start - 2) : start]) or _landmark(task[max(0, start - 4) : start]):
        return False
    if _where_clause(task, start, end) or _later_purpose(task[max(0, start - 8) : start]):
        return False
    if task[end - 1] in _MEASURES and end < len(task) and task[end] == "of":
        return False
    lead = task[max(0, start - 5) : start]
    for k in range(len(lead) - 1, -1, -1):
        if lead[k] in _MAKES:  # "make a tomato and bell pepper sauce": made of; "make a fruit smoothie": made
            return bool(_MADE_OF & set(lead[k + 1 :]))
    return True


def _names(item: Item, ctx: RuleContext) -> list[Name]:
    """The kitchen list, longest names first so a task's "bell peppers" is the bell peppers before it is any
    pepper; a kind ("vegetables") is no thing."""
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    categories = {lemma(w) for w in kitchen_words()["category"]}
    out = []
    for obj in item.environment:
        key = _lemmas(obj.name)
        if key and not (len(key) == 1 and key[0] in categories):
            food = obj.kind == "food" or (obj.kind is None and any(m.food for m in lexicon.find(obj.name)))
            out.append((obj.name, key, food))
    return sorted(out, key=lambda n: -len(n[1]))


def _things(text: str, names: list[Name], acted: bool = True) -> list[Name]:
    """The kitchen things ``text`` names (only those it acts on when ``acted``), each once, a longer name
    before the shorter names inside it."""
    ws = _lemmas(text)
    taken = [False] * len(ws)
    found: list[Name] = []
    for name, key, food in names:
        n = len(key)
        for i in range(len(ws) - n + 1):
            if ws[i : i + n] == key and not any(taken[i : i + n]):
                taken[i : i + n] = [True] * n
                if (not acted or _acted_on(ws, i, i + n)) and all(f[0] != name for f in found):
                    found.append((name, key, food))
    return found


def _said(key: list[str], said: set[str]) -> bool:
    """``said`` names the thing by one of its words other than a state ("the sponge" for the clean sponge,
    "peppers" for the bell peppers), or by the kind that ends one ("the nuts" for the walnuts, "berries")."""
    ws = [w for w in key if len(w) > 2 and w not in _STATES]
    return any(w in said for w in ws) or any(len(s) > 2 and w.endswith(s) for w in ws for s in said)


def _place_said(key: list[str], said: set[str]) -> bool:
    return _said(key, said) or any(key[-1] in group and group & said for group in _PLACE_NAMES) or _cut(key, said)


def _cut(key: list[str], said: set[str]) -> bool:
    """``said`` names the place by a word cut short ("Put the container in the fridg"): the text is corrupt
    (the corruption rule's defect), the plan still puts things there."""
    last = key[-1]
    return any(len(w) >= 4 and w != last and last.startswith(w) and not classes(w) for w in said)


def _kinds(name: str, ctx: RuleContext) -> set[str]:
    """The words the catalog files a thing under ("cheese" of the cheddar, "fruit" of the strawberries): a
    plan may take the thing up by its kind."""
    obj = (ctx.catalog or cached_catalog("")).objects.get(name)
    if obj is None:
        return set()
    return set(_lemmas(" ".join([obj.noun, obj.group or "", *obj.tags])))


#: A plan that takes the task's things up together without naming each ("Put the rest away", "Take the
#: groceries out"): whether it reaches a named food cannot be read.
_TOGETHER = re.compile(
    r"\b(?:the rest|the remaining (?:items|things|groceries)|the groceries|the (?:other |remaining )?items)\b",
    re.I,
)


#: Dishes named by what they are made of ("the butternut squash soup"): once made, a plan takes the dish up by
#: its head ("Ladle the soup").
_DISHES = frozenset({"soup", "stew", "broth", "stock", "sauce", "curry", "chili", "casserole", "puree", "juice"})


def _head_said(task: list[str], key: list[str], said: set[str]) -> bool:
    """The name is the first part of a dish's name in ``task`` ("butternut squash soup") that the task does not
    make, and ``said`` names the dish ("the soup"): the plan takes up the whole by its head."""
    n = len(key)
    for i in range(len(task) - n):
        if task[i : i + n] == key and task[i + n] in _DISHES and task[i + n] in said:
            return not _MAKES & set(task[max(0, i - 5) : i])
    return False


def _modifier_said(task: str, name: str, said: set[str]) -> bool:
    """The task names a thing the kitchen lists in the plural only in the singular, right before a noun that
    ``said`` names ("the blueberry muffins" of the blueberries, taken up as "the muffin tin"): English says a
    food so when it describes another thing, and the task acts on that whole, not on the food. A task that
    makes the whole ("make a tomato and bell pepper sauce") takes its foods up."""
    head = name.lower().split()
    if not head or singular(head[-1]) == head[-1] or _MAKES & set(_lemmas(task)):
        return False
    one = " ".join([*head[:-1], singular(head[-1])])
    found = list(re.finditer(rf"\b{re.escape(one)} ([a-z]+)\b", task.lower()))
    return bool(found) and all(
        "NOUN" in classes(m.group(1)) and lemma(m.group(1)) in said and len(m.group(1)) > 2 for m in found
    )


def _misspelled(key: list[str], said: set[str]) -> bool:
    """``said`` names the thing by a word no dictionary knows, one letter added, dropped, doubled or swapped
    from the name's own ("potatos", "spinnach"): the text is corrupt (the corruption rule's defect), the plan
    still takes the thing up."""
    return any(
        len(w) >= 5 and not classes(s) and s[:1] == w[:1] and OSA.distance(w, s, score_cutoff=1) == 1
        for w in key
        if w not in _STATES
        for s in said
        if abs(len(s) - len(w)) <= 1
    )


def _instead(key: list[str], other: list[str], said: set[str]) -> bool:
    """``said`` names the ``other`` thing of the kind by the words that set it apart ("green" of the green tea
    bags) and none of the words that set ``key`` apart ("black" of the black tea bags)."""
    own = set(key[:-1]) - set(other)
    theirs = [w for w in other[:-1] if w not in key]
    return bool(own) and not own & said and bool(theirs) and _said(theirs, said)


def undone_things(task: str, plan: list[str], names: list[Name], ctx: RuleContext, answered: set[str]) -> list[str]:
    """What ``task`` asks to act on that ``plan`` never takes up. A thing of the ``answered`` words is left
    alone: an ambiguous task that names the answer is the task's defect, not the plan's."""
    if not plan or not task.strip():
        return []
    plan_words = set(_lemmas(" ".join(plan)))
    plan_nouns = _said_as_things(plan)
    together = bool(_TOGETHER.search(" ".join(plan)))
    ws = _lemmas(task)
    out = []
    for name, key, food in _things(task, names):
        if _said(key, answered):
            continue
        if food and not _said(key, plan_words) and not _kinds(name, ctx) & plan_nouns:
            if together or _head_said(ws, key, plan_words) or _modifier_said(task, name, plan_words):
                continue
            if _misspelled(key, plan_words):
                continue
            out.append(f"never takes up the {name} its task names")
        elif food and not _said(key, plan_words) and not together:
            # said only by its kind ("the cheese"): the kind may be another food of it the plan names whole
            kind = _kinds(name, ctx) & plan_nouns
            other = next((n for n, k, _ in names if n != name and _kinded(n, k, kind, ws, plan, ctx)), None)
            if other is not None:
                out.append(f"takes up the {other} where its task names the {name}")
        elif len(key) > 1:
            others = [n for n, k, _ in names if n != name and k[-1] == key[-1] and _instead(key, k, plan_words)]
            if others:
                out.append(f"uses the {others[0]} where its task names the {name}")
    return (
        out
        + _unlisted_kind_swapped(ws, plan, plan_words, names, answered, ctx)
        + _places_missed(task, plan, plan_words, ctx, answered, names)
    )


def _unlisted_kind_swapped(
    task: list[str], plan: list[str], plan_words: set[str], names: list[Name], answered: set[str], ctx: RuleContext
) -> list[str]:
    """The task names a thing by a word and a head that no kitchen name joins ("the veggie burgers", with veggie
    patties and chicken burgers in the kitchen), and the plan names whole the kitchen thing of that head with
    another word ("Place the chicken burgers ..."), never the task's word: it uses the other thing. The task's
    word must set apart a kitchen thing of the same sort (the veggie patties, food as the burgers are), so a state
    ("cooked burgers") is no other thing, and "the serving bowl" with a serving spoon and a glass bowl is no
    bowl the kitchen has (grounding's defect): its plan may use the glass bowl."""
    out: list[str] = []
    for name, key, food in names:
        if len(key) < 2 or not any(_has_key(_lemmas(step), key) for step in plan):
            continue
        for i in range(1, len(task)):
            word = task[i - 1]
            if task[i] != key[-1] or word in key or word in _STATES or word in FUNCTION_WORDS or len(word) < 3:
                continue
            if word in answered or word in plan_words:
                continue
            if any(_has_key(task, k) and k[-1] == key[-1] for _, k, _ in names):
                continue
            if any(word in k[:-1] and _same_sort(n, f, name, food, ctx) for n, k, f in names if n != name):
                out.append(f"uses the {name} where its task names the {word} {key[-1]}")
                break
    return out


def _same_sort(name: str, food: bool, other: str, other_food: bool, ctx: RuleContext) -> bool:
    """The two may be things of one sort: the catalog files both under a common kind, or, where it knows one at
    most, neither is known to be of another sort (a food beside a tool the catalog files)."""
    mine, theirs = _kinds(name, ctx), _kinds(other, ctx)
    if mine and theirs:
        return bool(mine & theirs)
    return food == other_food or not (mine or theirs)


def _said_as_things(plan: list[str]) -> set[str]:
    """The plan's lemmas less each step's leading verb: a kind that is also a verb ("spread" of the orange
    marmalade, "Spread butter on the toast") names no thing where the step does it."""
    out: set[str] = set()
    for step in plan:
        ws = _lemmas(step)
        if ws and "VERB" in classes(ws[0]):
            ws = ws[1:]
        out.update(ws)
    return out


def _kinded(name: str, key: list[str], kind: set[str], task: list[str], plan: list[str], ctx: RuleContext) -> bool:
    """``name`` is a kitchen food of ``kind`` (by the catalog, or by a catalog name sharing a word of it: "aged
    cheddar" of the cheddar cheese) that ``task`` never names and a step of ``plan`` names whole ("Put the
    aged cheddar in the middle")."""
    if any(w in task for w in key if len(w) > 2 and w not in _STATES):
        return False
    if not any(_has_key(_lemmas(step), key) for step in plan):
        return False
    catalog = ctx.catalog or cached_catalog("")
    kinds = _kinds(name, ctx)
    if not kinds:
        own = {w for w in key if len(w) > 3 and w not in _STATES}
        kinds = {lemma(o.noun) for n, o in catalog.objects.items() if own & set(_lemmas(n))}
    return bool(kinds & kind)


def _has_key(ws: list[str], key: list[str]) -> bool:
    n = len(key)
    return any(ws[i : i + n] == key for i in range(len(ws) - n + 1))


def _places_missed(
    task: str, plan: list[str], plan_words: set[str], ctx: RuleContext, answered: set[str], names: list[Name]
) -> list[str]:
    """The places ``task`` puts or serves things on that ``plan``, which puts things somewhere, never names. A
    place is a catalog name or, for one the catalog does not know ("the mesh basket"), a name of the kitchen."""
    if not any(_PUTS.search(step) for step in plan):
        return []
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    out: list[str] = []
    for m in _PUTS.finditer(task):
        found = [x for x in lexicon.find(m.group(1)) if x.start == 0 and not x.food]
        place = found[0].text.lower() if found else _kitchen_place(m.group(1), names)
        key = _lemmas(place)
        if key and not _place_said(key, plan_words) and not _said(key, answered) and place not in out:
            out.append(place)
    return [f"never puts things on or in the {place} its task names" for place in out]


def _kitchen_place(text: str, names: list[Name]) -> str:
    """The kitchen thing, no food, whose name ``text`` starts with ("mesh basket and the carrots ..."), else ""."""
    ws = _lemmas(text)
    for name, key, food in names:
        if not food and ws[: len(key)] == key:
            return name.lower()
    return ""


#: A task that puts food into something hot: the putting is the cooking.
_INTO_HEAT = re.compile(
    r"\b(?:in|into|onto|on)\s+(?:the\s+|a\s+)?(?:(?:preheated\s+)?(?:oven|microwave|toaster|air fryer|slow cooker"
    r"|grill|smoker|deep fryer)\b|hot|boiling|simmering|sizzling)\b",
    re.I,
)


def other_jobs(task: str, plan: list[str], item: Item, names: list[Name]) -> list[str]:
    """Steps of another task: a task that makes nothing ("Slice the lemon", "Store the tomato in the fridge")
    whose plan goes on to act on two or more kitchen foods nothing in the item mentions (the tasks, the
    question, its answer, the intent, the variants), in two or more steps that act on such a food or on kitchen
    things none of the task's: a single such step ("Serve over ice cubes with fresh mint" after making the
    lemonade) is the finish of the task's own dish, whose name the kitchen list need not hold."""
    if not plan or _PRODUCES.search(task) or _INTO_HEAT.search(task):
        return []
    texts = [item.unambiguous_direct, item.ambiguous_task, item.question, item.answer]
    said = set(_lemmas(" ".join([*texts, *item.user_intent, *item.variants])))
    extra = [(n, k) for n, k, food in _things(" ".join(plan), names, acted=False) if food and not _said(k, said)]
    if len(extra) < 2:
        return []
    own = [k for _, k, _ in _things(task, names, acted=False)]
    firsts = [i for i, step in enumerate(plan) if any(_said(k, set(_lemmas(step))) for _, k in extra)]
    apart = [
        i
        for i, step in enumerate(plan)
        if i in firsts or (_things(step, names, acted=False) and not any(_has_key(_lemmas(step), k) for k in own))
    ]
    if len(apart) < 2 or not firsts:
        return []
    first = firsts[0]
    shown = ", ".join(n for n, _ in extra[:4])
    return [f"[{first}]: from here acts on the {shown}, which its task has nothing to do with: {plan[first][:80]!r}"]


#: A task's own verb of handling things: a task with one and no word of making asks no cooking.
_HANDLES = re.compile(
    r"\b(?:take|get|bring|fetch|retrieve|store|place|put|move|wash|rinse|clean|slice|cut|chop|dice|peel|pour"
    r"|open|grate|wipe|dry|chill|refrigerate|remove|hand)\b",
    re.I,
)
#: Plan steps that cook or make a dish (not "boil": hot water serves many tasks).
_COOKS = re.compile(
    r"\b(?:preheat\w*|roast\w*|bak(?:e|es|ed|ing)|fry|fries|fried|frying|simmer\w*|grill(?:s|ed|ing)?|saut\w*"
    r"|cook(?:s|ed|ing)?|(?:make|prepare) (?:a|an|the|some))\b"
    r"(?! (?:pan|pans|sheet|sheets|dish|dishes|tray|trays|tin|tins|rack|racks|pot|pots|paper|spray|soda|powder"
    r"|mitt|mitts|board|thermometer|twine|stone|bag|bags|oil|utensils?)\b)",
    re.I,
)


def cooks_unasked(task: str, plan: list[str], item: Item) -> list[str]:
    """A task that only handles things ("take the cucumber, potato and avocado from the fridge") whose plan
    cooks or makes a dish in two or more steps: the plan does a job the task never asks for."""
    if _PRODUCES.search(task) or not _HANDLES.search(task) or _COOKS.search(f"{task} {item.question} {item.answer}"):
        return []
    if _INTO_HEAT.search(task):
        return []
    steps = [i for i, step in enumerate(plan) if _COOKS.search(step)]
    if len(steps) < 2:
        return []
    return [f"[{steps[0]}]: cooks, which its task never asks: {plan[steps[0]][:80]!r}"]


#: Words around a name that say nothing of what a step does ("the tofu", "some oil").
_DETERMINERS = frozenset({"the", "a", "an", "some", "its", "their", "your", "of"})


def _one_name(span: list[str], names: list[Name]) -> Name | None:
    """The kitchen thing ``span`` is, whole, its determiners aside ("the beef sirloin"); None when it is
    anything else."""
    while span and span[0] in _DETERMINERS:
        span = span[1:]
    return next((n for n in names if n[1] == span), None) if span else None


def _swap(cw: list[str], aw: list[str], names: list[Name]) -> tuple[Name, Name] | None:
    """The kitchen things two steps (their lemmas) act on when the steps say the same but for one thing each
    ("Add the tofu and fry until golden" / "Add the beef sirloin and fry until golden"): the clear step's and
    the ambiguous step's. The steps must share a word of what they do ("Pick up the ...")."""
    if cw == aw:
        return None
    p = 0
    while p < min(len(cw), len(aw)) and cw[p] == aw[p]:
        p += 1
    s = 0
    while s < min(len(cw), len(aw)) - p and cw[-1 - s] == aw[-1 - s]:
        s += 1
    shared = [w for w in cw[:p] + cw[len(cw) - s :] if w not in _DETERMINERS and len(w) > 2]
    if not shared:
        return None
    for more in range(min(s, 2) + 1):  # names told apart by a word before their shared head ("salad fork")
        x, y = _one_name(cw[p : len(cw) - s + more], names), _one_name(aw[p : len(aw) - s + more], names)
        if x is not None and y is not None:
            return (x, y) if x[0] != y[0] else None
    return None


def swapped_things(item: Item, names: list[Name], said: set[str], ctx: RuleContext) -> list[str]:
    """A step of one plan that does what the same step of the other plan does, on another kitchen thing
    ("Add the beef sirloin ..." where the other plan adds the tofu; "mash with the mortar and pestle" where it
    mashes with the fork), when both tasks name the other plan's thing and nothing in the item (``said``: the
    tasks, the question, the answer, the intent, the options) names this one: the plan acts on a thing its
    task never asks for, in place of the one it does. The open point is not such a thing: one task names it
    and the other does not, or the options do. A tool of another head than the other plan's thing is named
    only by its head ("Place it on the pizza stone" / "... on the baking sheet", the tasks saying the pizza
    but no stone): its other words say what it is for."""
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    if tuple(clear) == tuple(amb):
        return []
    clear_words, amb_words = [_lemmas(c) for c in clear], [_lemmas(a) for a in amb]
    shift = len(amb) - len(clear)  # a step one plan adds before this one moves it
    pairs = [
        (i, k, found)
        for i in range(len(clear))
        for k in sorted({i, i + shift})
        if 0 <= k < len(amb) and (found := _swap(clear_words[i], amb_words[k], names))
    ]
    if not pairs:
        return []
    tasks = [_things(t, names, acted=False) for t in (item.unambiguous_direct, item.ambiguous_task)]
    in_both = {n[0] for n in tasks[0]} & {n[0] for n in tasks[1]}
    task_words = [set(_lemmas(t)) for t in (item.unambiguous_direct, item.ambiguous_task)]
    out: list[str] = []
    for i, k, (x, y) in pairs:
        for field, step, odd, kept in (
            (f"plan_for_clear_task[{i}]", clear[i], x, y),
            (f"plan_for_amb_task[{k}]", amb[k], y, x),
        ):
            seen = any(m.startswith(field.split("[")[0]) for m in out)
            own = [w for w in odd[1] if w not in kept[1] and w not in _STATES | FUNCTION_WORDS]
            if odd[1][-1] != kept[1][-1] and odd[0] in _tools(names, ctx):
                own = [odd[1][-1]]  # a tool by its head: "pizza" of the pizza stone names the pizza
            theirs = [w for w in kept[1] if w not in odd[1] and w not in _STATES | FUNCTION_WORDS]
            named = kept[0] in in_both or bool(theirs) and all(w in ws for w in theirs for ws in task_words)
            if not seen and named and own and not any(w in said for w in own):
                out.append(
                    f"{field}: acts on the {odd[0]}, which nothing in the item names, where both tasks "
                    f"and the other plan's step name the {kept[0]}: {step[:80]!r}"
                )
    return out  # one step each plan: the first shows the defect


def _open_point(cw: list[str], aw: list[str]) -> tuple[list[str], list[str]] | None:
    """Where two steps (their lemmas) say something else: the clear step's and the ambiguous step's words
    there, determiners aside, when the steps share a word of what they do ("Pour the stock through the
    colander ..." / "Pour the stock through the strainer ...")."""
    p = 0
    while p < min(len(cw), len(aw)) and cw[p] == aw[p]:
        p += 1
    s = 0
    while s < min(len(cw), len(aw)) - p and cw[-1 - s] == aw[-1 - s]:
        s += 1
    if not [w for w in cw[:p] + cw[len(cw) - s :] if w not in _DETERMINERS and len(w) > 2]:
        return None
    x, y = cw[p : len(cw) - s], aw[p : len(aw) - s]
    while x and x[0] in _DETERMINERS:
        x = x[1:]
    while y and y[0] in _DETERMINERS:
        y = y[1:]
    return (x, y) if x and x != y else None


def other_option(item: Item, names: list[Name]) -> list[str]:
    """A clear step that takes, where the ambiguous plan's same step leaves the choice open, a kitchen thing
    of the options the intent does not take ("Pour the stock through the colander" / "... through the
    strainer", the clear task naming the fine-mesh sieve and the colander one of the variants): the clear plan
    does the ambiguous task with the wrong answer, not its own task."""
    clear, amb, task = item.plan_for_clear_task, item.plan_for_amb_task, item.unambiguous_direct
    positives, negatives = intent_concepts(item.user_intent)
    intended = [a.strip() for alts in positives for a in alts if a.strip()]
    if tuple(clear) == tuple(amb) or not any(has(task, a) for a in intended):
        return []
    options = [o.strip() for o in (*item.variants, *item.amb_shortlist, *negatives) if o.strip()]
    others = {
        tuple(_lemmas(o))
        for o in options
        if not has(task, o) and not any(has(o, a) or has(a, o) for a in intended) and _one_name(_lemmas(o), names)
    }
    for i, (c, a) in enumerate(zip(clear, amb, strict=False)):
        found = _open_point(_lemmas(c), _lemmas(a))
        if found is not None and tuple(found[0]) in others:
            thing = _one_name(found[0], names)
            return [
                f"plan_for_clear_task[{i}]: takes the {thing[0] if thing else ' '.join(found[0])}, an option the "
                f"intent does not take, where the clear task names the intended one: {c[:80]!r}"
            ]
    return []


def other_object(item: Item, names: list[Name], said: set[str]) -> list[str]:
    """A step of one plan that does what the other plan's same step does (the same verb) with a kitchen object
    nothing in the item names and the other plan never names, where that other step uses an object both tasks
    name and this one does not ("Pour the milk into a mug and heat it in the microwave" / "Pour the milk into
    the saucepan", the tasks heating it in the saucepan): the plan does its task's action with another thing.
    ``said``: the lemmas of the tasks, the question, the answer, the intent and the options."""
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    if tuple(clear) == tuple(amb):
        return []
    tasks = [_things(t, names, acted=False) for t in (item.unambiguous_direct, item.ambiguous_task)]
    in_both = {n[0] for n in tasks[0]} & {n[0] for n in tasks[1]}
    shift = len(amb) - len(clear)  # a step one plan adds before this one moves it
    for field, plan, other, moved in (
        ("plan_for_clear_task", clear, amb, shift),
        ("plan_for_amb_task", amb, clear, -shift),
    ):
        other_words = set(_lemmas(" ".join(other)))
        for i, step in enumerate(plan):
            verb = _lemmas(step)[:1]
            for k in sorted({i, i + moved}):
                if not 0 <= k < len(other) or normalise(step) == normalise(other[k]) or _lemmas(other[k])[:1] != verb:
                    continue
                mine = _things(step, names, acted=False)
                odd = [n for n, key, food in mine if not food and not _said(key, said) and not _said(key, other_words)]
                kept = [n for n, _, food in _things(other[k], names, acted=False) if not food and n in in_both]
                kept = [n for n in kept if n not in {m[0] for m in mine}]
                if odd and kept:
                    return [
                        f"{field}[{i}]: does the other plan's step with the {odd[0]}, which nothing in the item "
                        f"names, where that step uses the {kept[0]} both tasks name: {step[:80]!r}"
                    ]
    return []


#: Foods a recipe takes up without its task saying so: seasoning, frying fat and water.
_STAPLES = frozenset({"salt", "pepper", "oil", "water", "ice"})


def added_food(item: Item, names: list[Name], said: set[str]) -> list[str]:
    """A step of one plan, not in the other, that takes up a kitchen food nothing in the item names and the
    other plan never names either ("Dust the waffles with powdered sugar", "Decorate the top with sprinkles"):
    the plans are one task's, so a food only one of them adds is another job. Staples (salt, pepper, oil,
    water) are left alone: a recipe takes them up unsaid. ``said`` as for :func:`other_object`."""
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    if tuple(clear) == tuple(amb):
        return []
    out: list[str] = []
    for field, plan, other in (("plan_for_clear_task", clear, amb), ("plan_for_amb_task", amb, clear)):
        others = {normalise(step) for step in other}
        other_words = set(_lemmas(" ".join(other)))
        for i, step in enumerate(plan):
            if normalise(step) in others:
                continue
            extra = [
                n
                for n, k, food in _things(step, names, acted=False)
                if food and k[-1] not in _STAPLES and not _said(k, said) and not _said(k, other_words)
            ]
            if extra:
                out.append(
                    f"{field}[{i}]: takes up the {', '.join(extra[:3])}, which neither task nor the other plan "
                    f"names: {step[:80]!r}"
                )
                break
    return out


#: "with the fork", "using a ladle": the tool a clause does its action with.
_WITH = re.compile(r"\b(?:with|using)\s+(?:the|a|an|your)\s+", re.I)
#: Where a task's clause ends: the next action starts after it.
_CLAUSE_END = re.compile(r"[,.;:]|\b(?:and|then|before|after|while|until)\b", re.I)


def _verbs(clause: str) -> set[str]:
    """The verbs the clause's action word may be a form of: its first word with a verb reading ("before
    rolling it out" -> roll; "Slice the bread" -> slice, not the "bread" of breading)."""
    return next((set(found) for w in words(clause) if (found := verb_lemmas(w))), set())


def _tools(names: list[Name], ctx: RuleContext) -> set[str]:
    """The kitchen things that are no food by their head word: "potato masher" and "egg timer" are tools,
    whatever food their first word names."""
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    out = set()
    for name, _key, _ in names:
        last = len(words(name))
        if not any(m.food and m.start + len(words(m.text)) == last for m in lexicon.find(name)):
            out.add(name)
    return out


def _tools_of(text: str, names: list[Name], tools: set[str]) -> list[tuple[set[str], Name]]:
    """The actions ``text`` does with a named kitchen tool ("mash it with the fork" -> ({mash, ...}, fork)):
    the verbs of the clause before "with"/"using" and the tool right after it."""
    out = []
    for m in _WITH.finditer(text):
        tool = next(iter(_things(text[m.end() :].split(",")[0], names, acted=False)), None)
        if (
            tool is None
            or tool[0] not in tools
            or not " ".join(words(text[m.end() :])).startswith(" ".join(words(tool[0])))
        ):
            continue
        head = text[: m.start()]
        ends = list(_CLAUSE_END.finditer(head))
        clause = head[ends[-1].end() :] if ends else head
        if ends and ends[-1].group(0).lower() in ("before", "after", "while", "until"):
            clause = head[ends[-1].start() :]
        out.append((_verbs(clause), tool))
    return out


def other_tool(task: str, plan: list[str], names: list[Name], said: set[str], tools: set[str]) -> list[str]:
    """A step that does an action of its task with another kitchen tool than the task does it with ("Mash
    the flesh with the mortar and pestle" where the task mashes with the fork), a tool nothing in the item
    names, while the plan never names the task's tool by its head word ("the knife" for the chef's knife;
    "Roll out" is not the rolling pin): the plan does the job with a thing its task never asks for. A step's
    action the task never names may be the task's in other words ("pipe" for "frost") where the plan never does
    the task's own action."""
    wanted = _tools_of(task, names, tools)
    if not wanted:
        return []
    plan_words = set(_lemmas(" ".join(plan)))
    asked = {v for w in words(task) for v in verb_lemmas(w)}  # every action of the task, with a tool or none
    plan_verbs = {v for step in plan for clause in _CLAUSE_END.split(step) for v in _verbs(clause)}
    for k, step in enumerate(plan):
        for verbs, used in _tools_of(step, names, tools):
            if used[1][-1] in said:  # by its head: "potato" of "potato masher" says what it is for
                continue
            for task_verbs, tool in wanted:
                # the step does the task's action with the tool, or an action the task never names ("Pipe it
                # with the piping bag" where the task frosts with the offset spatula), not another task action
                # that needs no tool ("Peel with the knife" where the task juices with the juicer)
                # ... unless the plan does the task's action elsewhere ("Cut off the skin", "stirring"): the
                # other tool then serves another job of the plan ("turning them with the tongs")
                same = bool(verbs & task_verbs) or not (verbs & asked or task_verbs & plan_verbs)
                if tool[0] != used[0] and same and tool[1][-1] not in plan_words:
                    return [f"[{k}]: does with the {used[0]} what its task does with the {tool[0]}: {step[:80]!r}"]
    return []


def check_task_objects(item: Item, ctx: RuleContext) -> list[str]:
    """Certain: a plan never takes up a food or the place its own task names, uses another kitchen object of
    the kind its task names, or goes on to another job; either way it does something other than its task."""
    answer = set(_lemmas(" ".join(item.user_intent)))
    names = _names(item, ctx)
    problems = []
    for field, task, plan, answered in (
        ("plan_for_clear_task", item.unambiguous_direct, item.plan_for_clear_task, set()),
        ("plan_for_amb_task", item.ambiguous_task, item.plan_for_amb_task, answer),
    ):
        problems += [f"{field}: {m}" for m in undone_things(task, plan, names, ctx, answered)]
        problems += [f"{field}{m}" for m in other_jobs(task, plan, item, names) or cooks_unasked(task, plan, item)]
    texts = [item.unambiguous_direct, item.ambiguous_task, item.question, item.answer]
    said = set(_lemmas(" ".join([*texts, *item.user_intent, *item.variants, *item.amb_shortlist])))
    swapped = swapped_things(item, names, said, ctx)
    tools = _tools(names, ctx) if any(_WITH.search(t) for t in texts[:2]) else set()
    for field, task, plan in (
        ("plan_for_clear_task", item.unambiguous_direct, item.plan_for_clear_task),
        ("plan_for_amb_task", item.ambiguous_task, item.plan_for_amb_task),
    ):
        if tools and not any(m.startswith(f"{field}[") for m in swapped):
            swapped += [f"{field}{m}" for m in other_tool(task, plan, names, said, tools)]
    used = {p.split(":")[0] for p in problems if ": uses the " in p}  # the same swap, read on the task's names
    swapped = [m for m in swapped if m.split("[")[0] not in used]
    swapped = swapped or other_option(item, names) or other_object(item, names, said)
    found = problems + swapped
    added = [m for m in added_food(item, names, said) if not any(p.startswith(m.split("[")[0]) for p in found)]
    return problems + swapped + added
