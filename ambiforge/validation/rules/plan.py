"""plan: the plans' shape, and whether the clear plan resolves what the ambiguous task leaves open.

Severity says how sure a rule is: ``error`` only where the finding is a fact of the text, ``warning`` where
it is a suspicion a reader must confirm (measured on published AmbiK rows, bench/validation_precision.py).

- ``plan`` (error): 1..``max_plan_steps`` steps, no empty step, ``end_of_ambiguity`` inside both plans.
- ``plan_agreement`` (warning): a step before ``end_of_ambiguity`` that says something else in the two plans;
  rewording ("Whisk" / "Mix", "Dice" / "Chop") is not a difference (content lemmas, ``language``).
- ``plan_length`` (warning): more than ``long_plan_steps`` steps; long recipes are legitimate.
- ``plan_divergence`` (error): the two plans are identical step for step, so the clear plan resolves nothing.
- ``plan_mismatch`` (error): a clear plan copied from the ambiguous one leaves open what the clear task names
  ("something", "the chosen bowl"), names nothing of what the clear task adds to the ambiguous one ("oven"
  of "oven mitts" is no oven), leaves out an amount it adds or the intended action it adds ("peel"), or takes
  the thing up by the kind the clear task replaced before naming it ("Take out meat" for the beef steak);
  and any plan that never takes up a food or the place its own task names, uses another kitchen object of
  the kind its task names, or goes on to another job (``plan_objects``).
- ``plan_resolution`` (warning): the plans differ, but the clear step at ``end_of_ambiguity`` is the ambiguous
  step, or carries no positive intent concept that the ambiguous task and step lack (it names it more often
  than the ambiguous step: "into a glass" from "the glass milk bottle"), or itself leaves the choice open
  ("the chosen pasta", "a suitable appliance").
- ``end_of_ambiguity`` (error): the index is not where the plans resolve the choice: the two plans say the
  same step there word for word, naming no intent concept, and part only later (the choice is made after
  it), or a clear step before it
  already names an intent concept the ambiguous step at that place lacks (the choice is made before it) or
  the ambiguous step there takes up the kind the question asks to choose ("Cut the meat"); with
  copied plans, a step before it takes out what the question asks to choose or offers the options, the
  first step that takes part in the choice comes after it and says the choice is still to make, another
  step is the one that says what the question quotes, or nothing up to it takes part in the choice while a
  later step does.
- ``answer_leak`` (error) / ``answer_leak_suspect`` (warning): the ambiguous plan already names, up to
  ``end_of_ambiguity``, the intended option the ambiguous task leaves open (see :func:`leaks`). After it
  AmbiK's ambiguous plans follow the clear plan, so later steps may name it. An ambiguous plan that names the
  intended option before the index is reported once, as the leak: the index may still be where the clear plan
  resolves the choice, and the defect to fix is the word said too early.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz.distance import Levenshtein

from ambiforge.catalog import cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import CARDINALS, singular
from ambiforge.validation.language import (
    FUNCTION_WORDS,
    VAGUE,
    classes,
    content_lemmas,
    is_nominal,
    is_verb_only,
    lemma,
    mentions,
    names_thing,
    positions,
    similar_steps,
    words,
)
from ambiforge.validation.lexicon import key_of, kitchen_words, lexicon_for
from ambiforge.validation.lexicon import words as lexicon_words
from ambiforge.validation.rules.base import Rule, family_rules
from ambiforge.validation.rules.grounding import Scene
from ambiforge.validation.rules.leak_forms import (
    added_step_leaks,
    asks_place,
    attribute_leaks,
    kept_cue_leaks,
    mark_leaks,
    measure_leaks,
    part_leaks,
    rewrite_leaks,
    setting_leaks,
    task_leaks,
)
from ambiforge.validation.rules.plan_objects import check_task_objects
from ambiforge.validation.rules.shortlist import has_shortlist
from ambiforge.validation.rules.text import count, has, intent_concepts, normalise

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

#: Units of measure: an intent concept with one ("cup|ml") says how much, not which object.
MEASURES = frozenset(
    {"cup", "ml", "milliliter", "millilitre", "liter", "litre", "l", "gram", "g", "kg", "kilogram", "ounce", "oz"}
    | {"tablespoon", "tbsp", "teaspoon", "tsp", "pound", "lb", "pinch", "dash", "inch", "cm", "minute", "second"}
    | {"hour", "degree", "percent"}
)
#: A step that takes all the task's things ("Gather all the necessary ingredients and equipment, including ...").
_GATHERS_ALL = re.compile(
    r"\ball\s+(?:of\s+)?(?:the\s+)?(?:necessary\s+|needed\s+|required\s+)?"
    r"(?:ingredients|equipment|items|tools|utensils|supplies)\b",
    re.I,
)
_OFFERED = re.compile(r"\b(?:choose|select|pick|decide|ask)\b.*\b(?:or|between|which)\b|\beither\b", re.I)
_OPEN_CHOICE = re.compile(
    r"\b(?:the|a|an) (?:chosen|selected|specified|preferred|desired|suitable|appropriate|right|correct|"
    r"requested|intended|proper)\b(?! (?:amount|temperature|time|heat|setting|size|consistency|length|way))",
    re.I,
)


def check_plan(item: Item, ctx: RuleContext) -> list[str]:
    limit = ctx.config.max_plan_steps
    problems = []
    for field in ("plan_for_clear_task", "plan_for_amb_task"):
        steps = getattr(item, field)
        if not 1 <= len(steps) <= limit:
            problems.append(f"{field}: has {len(steps)} steps (allowed 1 to {limit})")
        if any(not s.strip() for s in steps):
            problems.append(f"{field}: has an empty step")
    eoa = item.end_of_ambiguity
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    if eoa >= len(clear) or eoa >= len(amb):
        problems.append(
            f"end_of_ambiguity: {eoa} is past the plan (clear plan has {len(clear)} steps, "
            f"ambiguous plan {len(amb)}; steps count from 0)"
        )
    return problems


def check_agreement(item: Item, ctx: RuleContext) -> list[str]:
    """Before ``end_of_ambiguity`` the plans do the same; a step reworded ('Whisk the eggs' / 'Mix the eggs')
    still does, so only a step sharing under half its content lemmas with the other plan's step counts, and
    only as a suspicion: the writer may have reordered the steps. An environment-induced item's plans are set
    in two kitchens (the target may be kept elsewhere in the changed one): its ambiguous plan is checked
    against the changed kitchen by ``world_env_plan``."""
    eoa = item.end_of_ambiguity
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    if eoa >= len(clear) or eoa >= len(amb):
        return []  # the plan rule reports it
    if item.world is not None and item.world.perturbation is not None:
        return []
    for i in range(eoa):
        if normalise(clear[i]) != normalise(amb[i]) and not similar_steps(clear[i], amb[i]):
            return [
                f"plan_for_amb_task[{i}]: differs from the clear plan before end_of_ambiguity {eoa}: "
                f"{_short(amb[i])!r} / clear: {_short(clear[i])!r}"
            ]
    return []


def _short(text: str, chars: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1] + "…"


def check_plan_length(item: Item, ctx: RuleContext) -> list[str]:
    limit = ctx.config.long_plan_steps
    return [
        f"{field}: has {n} steps (more than {limit}; fine for a long recipe)"
        for field in ("plan_for_clear_task", "plan_for_amb_task")
        if (n := len(getattr(item, field))) > limit
    ]


def _identical(item: Item) -> bool:
    return _same_plans(tuple(item.plan_for_clear_task), tuple(item.plan_for_amb_task))


@lru_cache(maxsize=4096)
def _same_plans(clear: tuple[str, ...], amb: tuple[str, ...]) -> bool:
    """Asked by five rules of each item (and copied plans repeat across items), so answered once a pair."""
    return (
        bool(clear)
        and len(clear) == len(amb)
        and all(normalise(c) == normalise(a) for c, a in zip(clear, amb, strict=True))
    )


def check_divergence(item: Item, ctx: RuleContext) -> list[str]:
    """Certain: the two plans are the same text step for step, so the clear plan resolves nothing."""
    if _identical(item):
        n = len(item.plan_for_clear_task)
        return [f"plan_for_amb_task: identical to plan_for_clear_task (all {n} steps); the clear plan resolves nothing"]
    return []


#: Words of a clear plan that leave open what its task names ("Take out something", "the chosen bowl",
#: "Choose a can (Ambiguous step)"): the plan was written for the ambiguous task.
LEFT_OPEN = re.compile(
    r"\b(?:the |a |an )?(?:chosen|unspecified)\b|\bsomething\b|\bambiguous\b"
    r"|\bchoose (?:a|an|one|something|which|between)\b",
    re.I,
)


#: Words a task adds without naming anything ("make a cup of coffee using the moka pot").
_GENERAL = frozenset({"make", "use", "take", "put", "place", "get", "prepare", "other", "available", "choice", "next"})
#: Meals a task is for ("for breakfast"): the occasion, not a thing the plan must handle.
_MEALS = frozenset({"breakfast", "brunch", "lunch", "dinner", "supper"})
#: Where a task fetches things from ("the flour from the pantry"): the source, not what the task does.
_SOURCE = re.compile(
    r"\bfrom (?:the |a |an |its |their )?((?:[a-z-]+ ){0,2}(?:pantry|fridge|refrigerator|freezer|cabinet|cupboard"
    r"|drawer|shelf|counter|countertop|basket|rack|bowl))\b",
    re.I,
)
#: A word with letters outside ASCII ("sautéing"): the word pattern splits it, so its pieces name nothing.
_NON_ASCII_WORD = re.compile(r"[^\W\d_]*[^\x00-\x7f][^\W\d_]*")


def specifics(item: Item) -> list[str]:
    """What the clear task names that the ambiguous one does not: its nouns and adjectives (not words only
    verbs, measures, numbers or general words), as lemmas."""
    added = content_lemmas(item.unambiguous_direct) - content_lemmas(item.ambiguous_task)
    intent = " ".join(item.user_intent).lower()
    source = {lemma(w) for m in _SOURCE.finditer(item.unambiguous_direct) for w in words(m.group(1)) if w not in intent}
    return sorted(
        w
        for w in added
        if len(w) > 2
        and w not in MEASURES
        and w not in _GENERAL
        and w not in _MEALS
        and w not in source
        and is_nominal(w)
        and not is_verb_only(w)
    )


def _thing_words(text: str, ctx: RuleContext) -> frozenset[str]:
    """Lemmas of the words of ``text`` that name a thing: part of a catalog or kitchen name the lexicon finds
    ("beef steak", "sour cream"), a word English uses as a noun only ("vodka"), or a word no dictionary
    knows (a name: "microwave-safe"). What
    a task adds in other words ("a simple meal", "roasted", "until golden", "sautéing") is how, not what: a
    plan may do it in its own words."""
    found = {lemma(w) for m in lexicon_for(ctx.catalog).find(text) for w in words(m.text)}
    text = _NON_ASCII_WORD.sub(" ", text)
    names = {
        lemma(w)
        for w in words(text)
        if (not classes(w) or classes(w) == {"NOUN"}) and not w.endswith("ing") and w.isascii() and w not in VAGUE
    }
    return frozenset(found | names)


def check_mismatch(item: Item, ctx: RuleContext) -> list[str]:
    """Certain: a clear plan copied from the ambiguous one (the plans are identical) does not do the clear
    task. It leaves open what the task names ("Take out something"), or it never names anything the clear
    task adds to the ambiguous one (the task says "the fettuccine", the plan only "pasta"; "oven" of "oven
    mitts" names no oven), or never does the intended action the clear task adds ("Peel an apple" where the
    plan only cuts it): either way it is a plan for the ambiguous task. A plan of its own is not judged: its
    wording may differ from the task's."""
    clear = item.plan_for_clear_task
    if not _identical(item):
        return []  # a plan of its own: its wording may differ from the task's without doing another task
    if not LEFT_OPEN.search(item.unambiguous_direct):
        for i, step in enumerate(clear):
            if m := LEFT_OPEN.search(step):
                return [
                    f"plan_for_clear_task[{i}]: leaves open what the clear task names "
                    f"('{m.group(0)}'): {_short(step)!r}"
                ]
    added = specifics(item)
    things = _thing_words(item.unambiguous_direct, ctx) | (frozenset(added) & lexicon_for(ctx.catalog).heads)
    said = _plan_says(clear, item.unambiguous_direct, ctx)
    if any(w in things for w in added) and not any(_said(w, said) for w in added):
        shown = ", ".join(f"'{w}'" for w in added[:4])
        return [f"plan_for_clear_task: never names what the clear task adds to the ambiguous one ({shown})"]
    positives, _ = intent_concepts(item.user_intent)
    open_concepts = [alts for alts in positives if not any(content_lemmas(a) <= said for a in alts)]
    intended = {w for alts in open_concepts for a in alts for w in content_lemmas(a)}
    unsaid = [w for w in added if w in things and w in intended and not _said(w, said)]
    if unsaid:
        shown = ", ".join(f"'{w}'" for w in unsaid[:4])
        return [f"plan_for_clear_task: never names the intended {shown}, which the clear task adds"]
    unsaid_amounts = _amounts(item.unambiguous_direct) - _amounts(item.ambiguous_task) - _amounts(" ".join(clear))
    if unsaid_amounts:  # each: "Preheat the oven to some temperature" for "350 degrees", "until done" for "30 minutes"
        shown = ", ".join(f"'{a}'" for a in sorted(unsaid_amounts)[:4])
        return [f"plan_for_clear_task: never says the amount the clear task adds to the ambiguous one ({shown})"]
    undone = _undone_actions(item, intended, said)
    if undone:
        shown = ", ".join(f"'{w}'" for w in undone[:4])
        return [f"plan_for_clear_task: never does or says the intended {shown}, which the clear task adds"]
    return _kind_first(item, [w for w in added if w in things], ctx)


def check_plan_task(item: Item, ctx: RuleContext) -> list[str]:
    """Certain: a plan does something other than its task. A clear plan copied from the ambiguous one is
    read against what the clear task adds (:func:`check_mismatch`); every plan, against the kitchen things
    its own task acts on (:func:`check_task_objects`)."""
    return check_mismatch(item, ctx) + check_task_objects(item, ctx)


def _kind_first(item: Item, added: list[str], ctx: RuleContext) -> list[str]:
    """A copied clear plan takes the thing up by the kind the ambiguous task names and the clear task
    replaced ("Take out meat" where the clear task says the beef steak, "Juice one fruit" for the lime), before
    it names what the clear task adds: where the choice is made, the plan still leaves it open, whatever a
    later step calls the thing. The kind is a category word ("meat", "fruit", ``category`` in
    kitchen_words.yaml) or the catalog noun of a thing the clear task names ("nut" of the cashews, "pasta"
    of the fettuccine); a cookware kind ("pan" for "the frying pan") is another name, not a kind."""
    if not added:
        return []
    catalog = ctx.catalog or cached_catalog("")
    lexicon = lexicon_for(catalog)
    nouns = {
        lemma(catalog.objects[m.name].noun)
        for m in lexicon.find(item.unambiguous_direct)
        if m.kind == "object" and m.name in catalog.objects and any(lemma(w) in added for w in words(m.text))
    }
    replaced = {
        w
        for w in content_lemmas(item.ambiguous_task) - content_lemmas(item.unambiguous_direct)
        if w in nouns or w in _kind_words()
    }
    if not replaced:
        return []
    for i, step in enumerate(item.plan_for_clear_task):
        said = _plan_says([step], item.unambiguous_direct, ctx)
        if any(_said(w, said) for w in added):
            return []
        if hit := sorted(w for w in replaced if w in said):
            shown = ", ".join(f"'{w}'" for w in added[:3])
            return [
                f"plan_for_clear_task[{i}]: takes up the '{hit[0]}' the clear task replaced by {shown} before it "
                f"names it: {_short(step)!r}"
            ]
    return []


@lru_cache(maxsize=1)
def _kind_words() -> frozenset[str]:
    """Words that name a kind of thing rather than a thing: the lexicon's categories."""
    return frozenset(lemma(w) for w in kitchen_words()["category"])


def _undone_actions(item: Item, intended: set[str], said: frozenset[str]) -> list[str]:
    """The intended actions the clear task adds ("Peel an apple" for "Cut an apple", intent "peel") that the
    plan never does in any form: a plan that cuts what its task peels is the ambiguous task's plan."""
    added = content_lemmas(item.unambiguous_direct) - content_lemmas(item.ambiguous_task)
    return sorted(
        w
        for w in added
        if w in intended
        and len(w) > 2
        and "VERB" in classes(w)
        and w not in MEASURES
        and w not in _GENERAL
        and not _said(w, said)
    )


def _plan_says(plan: tuple[str, ...] | list[str], task: str, ctx: RuleContext) -> frozenset[str]:
    """The content lemmas of a plan, less the words that only name what a kitchen tool is for: "oven" of
    "oven mitts" and "bread" of "the bread knife" say neither the oven nor bread, unless the task names that
    tool too ("the glass mug" in task and plan). Food keeps its parts ("chicken" of "chicken breasts")."""
    lexicon = lexicon_for(ctx.catalog)
    toks, found = lexicon.scan(task)
    named = {tuple(toks[m.start : m.end]) for m in found}
    kept: list[str] = []
    for step in plan:
        raw = lexicon_words(step)
        toks, found = lexicon.scan(step)
        tools = [m for m in found if m.kind != "fixture" and not m.food and tuple(toks[m.start : m.end]) not in named]
        modifiers = {k for m in tools for k in range(m.start, m.end - 1)}
        kept.extend(w for k, w in enumerate(raw) if k not in modifiers)
    return content_lemmas(" ".join(kept))


_VALUES = {
    w: str(i)
    for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    )
} | {"fifteen": "15", "twenty": "20", "twenty-five": "25", "thirty": "30", "forty": "40", "forty-five": "45"}
_DIGITS = re.compile(r"\d+(?:\.\d+)?")


def _amounts(text: str) -> frozenset[str]:
    """The numbers a text says, digits and words alike ("three" and "3" are one amount, "350°F" is 350)."""
    found = set(_DIGITS.findall(text))
    found |= {_VALUES[w] for w in words(text) if w in _VALUES}
    return frozenset(found)


def _said(word: str, said: frozenset[str]) -> bool:
    """The plan says ``word``, or a word one letter off a misspelled one ("raddish" / "radish")."""
    if word in said:
        return True
    if len(word) < 5 or classes(word):
        return False
    return any(abs(len(w) - len(word)) <= 1 and Levenshtein.distance(w, word, score_cutoff=1) <= 1 for w in said)


def _parting(item: Item) -> int | None:
    """The first step where the plans say something else (word for word), None when they never do."""
    pairs = zip(item.plan_for_clear_task, item.plan_for_amb_task, strict=False)
    return next((i for i, (c, a) in enumerate(pairs) if normalise(c) != normalise(a)), None)


#: A step that holds the next numbered step too ("... freezer. 2. Leave it on the counter").
_STEPS_ON_ONE_LINE = re.compile(r"[.!?]\s+\d{1,2}\s*[.:)]\s+[A-Za-z]")


def check_end_of_ambiguity(item: Item, ctx: RuleContext) -> list[str]:
    """Certain when the plans show it: identical up to and past the index, the step there naming nothing of
    the intent (the choice comes later; one that names it is an answer leak, reported there), or an
    earlier clear step already naming what the ambiguous step there leaves out (the choice came earlier)."""
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    if eoa >= len(clear) or eoa >= len(amb):
        return []  # the plan rule reports it
    if item.world is not None and item.world.perturbation is not None:
        return []  # two kitchens: the plans' steps do not line up by index (world_env_plan checks them)
    if any(_STEPS_ON_ONE_LINE.search(step) for step in (*clear, *amb)):
        return []  # "1. Take ... 2. Leave ...": the index counts lines, the writer steps (corruption reports it)
    if _identical(item):
        return (
            _copied_end_of_ambiguity(item)
            or _quoted_elsewhere(item)
            or _taken_up_later(item)
            or _count_said_before(item)
            or _asked_thing_just_before(item)
            or _action_said_elsewhere(item)
        )
    parting = _parting(item)
    positives, _ = intent_concepts(item.user_intent)
    involved = any(has(clear[eoa], a) or mentions(clear[eoa], a) for alts in positives for a in alts)
    if parting is not None and parting > eoa and not involved:
        return [
            f"plan_for_clear_task[{parting}]: the plans part here, after end_of_ambiguity {eoa} "
            f"(the same step in both plans): {_short(clear[parting])!r}"
        ]
    later = _chosen_later(item, positives)
    if later is not None:
        k, said_later = later
        return [
            f"plan_for_clear_task[{k}]: the choice ('{said_later}') is made here, after end_of_ambiguity {eoa}, "
            f"whose step involves none of the intent: {_short(clear[eoa])!r}"
        ]
    for i in range(0 if _lengths_apart(item) else eoa):
        if i >= len(amb):
            break
        said = [
            a
            for alts in positives
            for a in alts
            if (names_thing(a) or names_thing(singular(a)) or _amounts(a) or _kitchen_name(a, item))  # "tops", "2 cups"
            and count(clear[i], a) > max(count(amb[i], a), count(item.ambiguous_task, a))
        ]
        if (
            said
            and not _resolves_at_index(item, clear[i], said[0])
            and not _marked_at_index(item, i)
            and not _prepared_before(item, i, said[0])
        ):
            return [
                f"plan_for_clear_task[{i}]: already names the intended '{said[0]}', which the ambiguous step "
                f"lacks, before end_of_ambiguity {eoa}: {_short(clear[i])!r}"
            ]
    return _kind_taken_before(item, positives) or _only_step_apart(item)


def _prepared_before(item: Item, i: int, intended: str) -> bool:
    """The clear step at the index names the intended thing again ("Rinse the rice in the strainer"), so the
    choice is carried out there; the earlier clear step that names it ("Measure the rice into the strainer",
    "Fill the dish with water") only gets it ready, unless the ambiguous step at ``i`` shows the choice needed
    there already: it leaves it open in words ("a tool to open it"), takes up the thing to choose ("Fill the
    cup" for "Which cup?"), does what the question asks ("Cut the mango" for "How should I cut the mango?"), or
    is the clear step with the intended thing put in other words ("Put the ice cream where it belongs"). An
    ambiguous step that only drops it, or is another step altogether, can be done without the choice."""
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    at_index = [clear[eoa]]
    if len(clear) > len(amb):  # the clear plan's own steps put the ambiguous step at the index further on
        at_index.append(clear[min(eoa + len(clear) - len(amb), len(clear) - 1)])
    if not any(has(step, said) or mentions(step, said) for step in at_index for said in (intended, singular(intended))):
        return False
    step = amb[i]
    if _marks_open(step) or _OPEN_WORDS.search(step):
        return False
    heads = {lemma(words(intended)[-1])} if words(intended) else set()
    if (asked := _asked_head(item)) is not None:
        heads.add(asked)
    if any(_names_as_thing(step, head) for head in heads):
        return False  # "Fill the cup" for "Which cup?": the step takes up the thing to choose
    action = _question_action(item)
    if action is not None:
        verb, thing = action
        if _says_verb(step, verb) and thing in {lemma(w) for w in words(step)} | {singular(w) for w in words(step)}:
            return False
    own, theirs = content_lemmas(step), content_lemmas(clear[i])
    replaced = bool(own - theirs) and 2 * len(own & theirs) >= len(own)
    return not replaced


def _resolves_at_index(item: Item, step: str, intended: str) -> bool:
    """Plans of other lengths: the clear ``step`` is the ambiguous step at the index with the intended thing
    added ("Drain the spaghetti in the colander" / "Drain the spaghetti."), the ambiguous plan having a step
    more before it. The choice is made where the index says; the clear plan only reaches it sooner."""
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    if len(clear) == len(amb):
        return False
    at_index = content_lemmas(amb[eoa])
    rest = content_lemmas(step) - content_lemmas(intended)
    return bool(at_index) and rest == at_index


def _open_step(step: str) -> bool:
    return bool(LEFT_OPEN.search(step) or _OPEN_CHOICE.search(step) or _OPEN_WORDS.search(step))


#: A step that leaves open how to do it, in a word of manner ("Hold it safely", "Clean the jar properly", "Add
#: the milk at the right moment"): its writer marks the choice there.
_OPEN_MANNER = re.compile(
    r"\b(?:safely|properly|correctly|appropriately|suitably|as needed|as appropriate)\b"
    r"|\b(?:the|a) (?:right|correct|proper|suitable|safe) (?:way|time|moment|manner)\b",
    re.I,
)


def _lengths_apart(item: Item) -> bool:
    """Plans two or more steps apart in length do not line up by index: a clear step before the index may be
    one of several that spell out the one ambiguous step at it ("Use the lemon to clean the microwave" /
    "Fill the bowl with water", "Slice the lemon into it", "Heat it")."""
    return abs(len(item.plan_for_clear_task) - len(item.plan_for_amb_task)) >= 2


def _marks_open(step: str) -> bool:
    """An ambiguous step that leaves the choice open in words ("Put the blueberries in a suitable place", "Hold it
    safely"): whatever the clear plan does later, the writer shows the choice needed at this step."""
    return _open_step(step) or bool(_OPEN_MANNER.search(step))


def _marked_at_index(item: Item, i: int) -> bool:
    """The ambiguous plan leaves the choice open in words at the index ("Open the bottle with the right
    tool") and not at the earlier step ``i`` ("Remove the foil from the neck of the bottle"): its writer shows
    the choice made at the index, and a clear step before it that names the intended thing in passing ("with
    the small blade of the corkscrew") does not move it."""
    amb = item.plan_for_amb_task
    at_index = amb[item.end_of_ambiguity]
    return _marks_open(at_index) and not _open_step(amb[i])


def _only_step_apart(item: Item) -> list[str]:
    """Plans of one length that say the same word for word at every step but one: that step is where the
    clear plan resolves what the ambiguous one leaves open ("Steep for 4 minutes" / "Let it steep"), so an
    index anywhere else is not where the choice is made."""
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    if len(clear) != len(amb):
        return []
    apart = [i for i, (c, a) in enumerate(zip(clear, amb, strict=True)) if normalise(c) != normalise(a)]
    if len(apart) != 1 or apart[0] == eoa:
        return []
    k = apart[0]
    positives, _ = intent_concepts(item.user_intent)
    task = item.ambiguous_task
    if any(has(step, a) and not has(task, a) for step in amb[:k] for alts in positives for a in alts if a.strip()):
        return []  # the ambiguous plan already says the choice before: an answer leak, reported there
    return [
        f"plan_for_clear_task[{k}]: the only step where the plans differ, not end_of_ambiguity {eoa}: "
        f"{_short(clear[k])!r} / {_short(amb[k])!r}"
    ]


def _kind_taken_before(item: Item, positives: list[list[str]]) -> list[str]:
    """Plans of their own: a step before the index where the ambiguous plan takes up the thing by the kind the
    question asks to choose ("Cut the meat into cubes" for "Which meat ...?") or leaves it open in words
    ("something", "the chosen pan"), and the clear plan, at the same step, names the intended one ("Cut the
    beef chuck ..."), the clear task naming it more often than the ambiguous task: the choice is needed
    there, before the index. (The intended word may also name another thing of both tasks, "beef stock"
    beside "beef chuck": the counts, not its presence, tell.)"""
    head = _asked_head(item)
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    for i in range(min(eoa, len(amb))):
        kind = head is not None and _names_as_thing(amb[i], head) and not _names_as_thing(clear[i], head)
        if not (kind or LEFT_OPEN.search(amb[i]) or _OPEN_WORDS.search(amb[i])):
            continue
        said = [
            a
            for alts in positives
            for a in alts
            if names_thing(a)
            and count(clear[i], a) > count(amb[i], a)
            and count(item.unambiguous_direct, a) > count(item.ambiguous_task, a)
        ]
        if said:
            return [
                f"plan_for_amb_task[{i}]: leaves open the {head or 'choice'} the question asks, where the clear "
                f"step names the intended '{said[0]}', before end_of_ambiguity {eoa}: {_short(amb[i])!r}"
            ]
    return []


#: What a question asks to choose: "Which type of meat should ..." -> "meat", "What specific food item
#: would ..." -> "food item".
_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:(?:specific|type|types|kind|kinds|sort|sorts|variety|brand)\s+(?:of\s+)?)*"
    r"((?:[a-z-]+\s+)?[a-z-]+?)\s+(?:should|would|do|does|did|to|is|are|can|could|have|has|will|shall|must)\b",
    re.I,
)


#: A question about how, when or what a phrase means: no thing is chosen, and the vague step may say it
#: in any words ("cook until done").
_NOT_A_CHOICE = re.compile(
    r"^\s*(?:\w+,\s*)?(?:how|when|why|what\s+(?:does|do\s+you\s+mean|is\s+meant|temperature|degree|setting)"
    r"|(?:at|to)\s+what|is\s+it)\b",
    re.I,
)
#: Words of a step that leave the choice open without naming it ("take out an item", "the needed product",
#: "Decide what to spread"); "pick up" takes, it does not choose.
_OPEN_WORDS = re.compile(
    r"\b(?:food|item|items|thing|things|something|anything|somewhere|needed|whatever|its place|decide|choose|select"
    r"|pick(?! up\b)|identify)\b"
    r"|\b(?:an?|another) (?:appliance|utensil|tool|container|ingredient|product|food|fruit)\b",
    re.I,
)


def _involves(step: str, concepts: list[str], heads: frozenset[str]) -> bool:
    """The step takes part in the choice: it names an intent concept, a word of the question, what the
    shortlist chooses among ("meat", "plate"), a word only the ambiguous task has, or leaves the choice open
    ("something", "the chosen can", "an item")."""
    return bool(
        any(has(step, a) or mentions(step, a) for a in concepts)
        or content_lemmas(step) & heads
        or LEFT_OPEN.search(step)
        or _OPEN_CHOICE.search(step)
        or _OPEN_WORDS.search(step)
    )


def _copied_end_of_ambiguity(item: Item) -> list[str]:
    """Plans copied one from the other never part, so the index is judged by the steps themselves: certain
    when the step there takes no part in the choice (by a liberal reading: any word of the question, of the
    intent, of the shortlist or only of the ambiguous task counts) while an earlier step already does, by
    naming what is chosen or leaving it open ("take out meat" at 0, "Preheat the oven" at the index). A step
    after the index that takes part is no proof: the step at the index may lead to it in words not read here.
    Certain too: an earlier step that says outright the choice is still open ("Preheat something", "the right
    kitchen appliance") while the step at the index does not: the choice was needed there already."""
    steps, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    if _NOT_A_CHOICE.match(item.question):
        return []
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a for alts in positives for a in alts if a.strip() and names_thing(a)]
    things = {lemma(words(o)[-1]) for o in (*item.amb_shortlist, *concepts) if words(o)}
    if m := _ASKED.search(item.question):
        things |= content_lemmas(m.group(1))
    things -= MEASURES | _GENERAL
    if not things:
        return []
    if eoa > 0 and not _leaves_open(steps[eoa], things):
        for i in range(eoa):
            if said := _leaves_open(steps[i], things):
                return [
                    f"plan_for_clear_task[{i}]: leaves the choice open ('{said}') before end_of_ambiguity {eoa}, "
                    f"so the choice is needed there: {_short(steps[i])!r} / {_short(steps[eoa])!r}"
                ]
    if (fetch := _fetched_before(item, eoa)) is not None:
        i, asked = fetch
        return [
            f"plan_for_clear_task[{i}]: takes out the {asked} the question asks to choose, before end_of_ambiguity "
            f"{eoa}, so the choice is needed there: {_short(steps[i])!r} / {_short(steps[eoa])!r}"
        ]
    read = set(things)
    read |= content_lemmas(item.ambiguous_task) - content_lemmas(item.unambiguous_direct) - _GENERAL
    read |= content_lemmas(item.question) - {"use", "make"}  # its verb too: "Where should I place ...?"
    if _involves(steps[eoa], concepts, frozenset(read - MEASURES)) or any(has(steps[eoa], w) for w in negatives):
        return []
    strict = frozenset(things)
    for i in range(eoa):
        if _involves(steps[i], concepts, strict):
            return [
                f"plan_for_clear_task[{i}]: {_part_taken(item, steps[i], concepts, strict)}, before end_of_ambiguity "
                f"{eoa}, whose step takes no part in it: {_short(steps[i])!r} / {_short(steps[eoa])!r}"
            ]
    # nothing up to the index takes part in the choice, and the first step after it that does says outright
    # that the choice is still to make ("Put the pot on the chosen appliance"): it is made there, not at the
    # index. A later step that merely names the options is no proof (the step at the index may lead to it in
    # words not read here), nor is one after a step that goes to where the options are ("Open the cupboard").
    if _LEADS.match(steps[eoa]):
        return []
    k = next((k for k in range(eoa + 1, len(steps)) if _involves(steps[k], concepts, strict)), None)
    if k is not None and (said := _said_open(steps[k], things)):
        return [
            f"plan_for_clear_task[{k}]: makes the choice ('{said}') after end_of_ambiguity {eoa}, and neither the "
            f"step there nor any before it takes part in it: {_short(steps[eoa])!r} / {_short(steps[k])!r}"
        ]
    return []


def _part_taken(item: Item, step: str, concepts: list[str], heads: frozenset[str]) -> str:
    """How a step takes part in the choice, for the message: a step that takes out both options ("the carrot
    and radish" for "carrot or radish?") has not made the choice, it needs it; only a step that names the
    intended option alone has made it."""
    _, negatives = intent_concepts(item.user_intent)
    intended = [a for a in concepts if has(step, a) or mentions(step, a)]
    others = [
        o.strip()
        for o in (*negatives, *item.amb_shortlist, *item.variants)
        if o.strip() and has(step, o.strip()) and not any(_same_option(o, a) for a in concepts)
    ]
    if intended and others:
        return f"names the options ('{intended[0]}', '{others[0]}') side by side, so the choice is needed there"
    if intended:
        return f"already names the intended '{intended[0]}', so the choice is made there"
    if m := LEFT_OPEN.search(step) or _OPEN_CHOICE.search(step) or _OPEN_WORDS.search(step):
        said = (d.group(0) if (d := _DETERMINED.search(step[: m.start()])) else "") + m.group(0).strip()
        return f"leaves the choice open ('{said}'), so it is needed there"
    named = sorted(content_lemmas(step) & heads)
    shown = ", ".join(f"'{w}'" for w in named[:3])
    return f"names what the choice is about ({shown}), so it is needed there"


#: The determiner before an open word, shown with it ("some food", not "food").
_DETERMINED = re.compile(r"\b(?:some|any|an|a|the)\s+$", re.I)


def _same_option(option: str, concept: str) -> bool:
    return has(option, concept) or has(concept, option)


#: A phrase the question quotes from the task or plan: "What does 'cook until done' mean?".
_QUOTE = re.compile(r"(?<!\w)['\u2018\u201c\"]([^'\u2019\u201d\"]{4,80}?)['\u2019\u201d\"](?!\w)")


def _quoted_elsewhere(item: Item) -> list[str]:
    """Copied plans: the question quotes the words that leave the choice open ("What does 'cook until done'
    mean?"), one step of the plan says them, and it is not the step at the index: the open point is where the
    plan says what the question asks about. Only when exactly one step says the whole phrase (a phrase said
    twice may be asked about at either)."""
    steps, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    for m in _QUOTE.finditer(item.question):
        phrase = normalise(m.group(1))
        if len(words(phrase)) < 2:
            continue
        saying = [i for i, step in enumerate(steps) if phrase in normalise(step)]
        if len(saying) == 1 and saying[0] != eoa:
            k = saying[0]
            where = "after" if k > eoa else "before"
            return [
                f"plan_for_clear_task[{k}]: says '{m.group(1)}', which the question asks about, {where} "
                f"end_of_ambiguity {eoa}, whose step does not: {_short(steps[eoa])!r} / {_short(steps[k])!r}"
            ]
    return []


def _taken_up_later(item: Item) -> list[str]:
    """Copied plans: the step at the index and every step before it share no word with the question, the
    answer, the intent or the options, nor with what only the ambiguous task says, nor leave anything open,
    while a later step does ("What temperature should I heat the griddle to?" at "combine the flour and
    sugar", the griddle heated four steps on; "Which tomatoes?" at "cook the pasta", the can of tomatoes
    opened two steps on). Read this liberally, a step that takes no part names nothing the open point is
    about, so the first step that does is where the choice is needed. A step that goes to where things are
    ("Open the cupboard") may lead to the choice, and is left alone."""
    steps, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    if _LEADS.match(steps[eoa]):
        return []
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a for alts in positives for a in alts if a.strip()]
    about = {lemma(words(o)[-1]) for o in (*item.amb_shortlist, *(c for c in concepts if names_thing(c))) if words(o)}
    about |= content_lemmas(item.ambiguous_task) - content_lemmas(item.unambiguous_direct) - _GENERAL
    about |= content_lemmas(f"{item.question} {item.answer}") - {"use", "make"}
    about |= {singular(w) for w in about}  # a plural the lemmatiser does not know: "ciabattas"
    read = frozenset(about - MEASURES)

    def takes_part(step: str) -> bool:
        said = content_lemmas(step)
        return (
            _involves(step, concepts, read)
            or any(has(step, w) for w in negatives)
            or any(_respelled(w, read) for w in said)  # "fettuccine" for the question's "fettucine"
        )

    if any(takes_part(step) for step in steps[: eoa + 1]):
        return []
    k = next((k for k in range(eoa + 1, len(steps)) if takes_part(steps[k])), None)
    if k is None:
        return []
    return [
        f"plan_for_clear_task[{k}]: the first step that takes part in the choice comes after end_of_ambiguity "
        f"{eoa}; the step there and every one before it name nothing of the question, the answer, the intent "
        f"or the options: {_short(steps[eoa])!r} / {_short(steps[k])!r}"
    ]


def _count_said_before(item: Item) -> list[str]:
    """Copied plans: a step before the index already says the intended count with what it counts ("sear for 2
    minutes on each side" for "How long should I cook the steak?"), and the step at the index says no count of
    the intent: the plan settles the open point there, so that step is where it ends. (With plans that are
    not copies the same finding is an answer leak of the ambiguous plan.)"""
    found = _count_before(item)
    if found is None:
        return []
    i, said = found
    steps, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    return [
        f"plan_for_clear_task[{i}]: already says the intended count '{said}', before end_of_ambiguity {eoa}, "
        f"whose step says none: {_short(steps[i])!r} / {_short(steps[eoa])!r}"
    ]


def _count_before(item: Item) -> tuple[int, str] | None:
    positives, _ = intent_concepts(item.user_intent)
    numbers = [alts for alts in positives if _number(alts)]
    if not numbers or not _identical(item):
        return None
    steps, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    others = [alts for alts in positives if not _number(alts)]
    counted = content_lemmas(item.question) | {lemma(w) for alts in others for a in alts for w in words(a)}
    if any(_counts(step, a, counted) for step in (item.ambiguous_task, steps[eoa]) for alts in numbers for a in alts):
        return None
    for i, step in enumerate(steps[:eoa]):
        said = [next((a for a in alts if _counts(step, a, counted)), None) for alts in numbers]
        if all(said) and all(any(has(step, a) or mentions(step, a) for a in alts) for alts in others):
            return i, str(said[0])
    return None


def _options_of(item: Item) -> list[str]:
    """Every option the row names: the intent's concepts, the negated ones, the shortlist and the variants."""
    positives, negatives = intent_concepts(item.user_intent)
    listed = (*(a for alts in positives for a in alts), *negatives, *item.amb_shortlist, *item.variants)
    return [o.strip() for o in listed if o.strip()]


def _takes_no_part(step: str, item: Item, thing: str) -> bool:
    """The step names neither the thing the question is about nor any option, and leaves nothing open; nor
    does it go to where things are kept ("Open the cupboard"), where the choice may be made in other words."""
    return not (
        _LEADS.match(step)
        or thing in {lemma(w) for w in words(step)} | {singular(w) for w in words(step)}
        or any(has(step, o) or mentions(step, o) for o in _options_of(item))
        or LEFT_OPEN.search(step)
        or _OPEN_CHOICE.search(step)
        or _OPEN_WORDS.search(step)
        or _SAYS_OPEN.search(step)
        or _NEEDED.search(step)
        or _VAGUE_AMOUNT.search(step)
    )


#: "some suitable time", "a while": the step leaves how much open.
_VAGUE_AMOUNT = re.compile(r"\bsome\b|\ba while\b", re.I)


def _asked(item: Item) -> tuple[str, str] | None:
    """The thing a which-question asks to choose, as its lemma and the question's word for it ("Which bowls
    should I use ...?" -> ("bowl", "bowls")), or None."""
    m = _ASKED.search(item.question)
    if m is None or _NOT_A_CHOICE.match(item.question):
        return None
    asked = words(m.group(1))
    head = lemma(asked[-1]) if asked else ""
    if not head or head in _GENERAL or head in MEASURES or head in VAGUE:
        return None
    return head, asked[-1]


def _asked_head(item: Item) -> str | None:
    """The thing a which-question asks to choose ("Which bowl should I use ...?" -> "bowl"), or None."""
    asked = _asked(item)
    return asked[0] if asked else None


def _names_as_thing(step: str, head: str) -> bool:
    """``step`` names ``head`` as a thing, not as the modifier of the noun after it ("a bowl," but not "the
    bowl lid")."""
    for m in re.finditer(r"[A-Za-z-]+", step):
        if lemma(m.group(0).lower()) != head:
            continue
        after = re.match(r"\s+([A-Za-z-]+)", step[m.end() :])
        following = after.group(1).lower() if after else ""
        if not (following and following not in FUNCTION_WORDS and "NOUN" in classes(following)):
            return True
    return False


def _asked_thing_just_before(item: Item) -> list[str]:
    """Copied plans: the step just before the index names the thing a which-question asks to choose ("place in a
    bowl" for "Which bowl should I use?"), and the step at the index names neither it nor any option, nor
    leaves anything open ("Microwave the chocolate"): the thing is chosen where it is first used."""
    steps, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    head = _asked_head(item)
    if head is None or eoa == 0 or not _takes_no_part(steps[eoa], item, head):
        return []
    if not _names_as_thing(steps[eoa - 1], head):
        return []
    return [
        f"plan_for_clear_task[{eoa - 1}]: names the {head} the question asks to choose, just before "
        f"end_of_ambiguity {eoa}, whose step names no option: {_short(steps[eoa - 1])!r} / {_short(steps[eoa])!r}"
    ]


#: The question's action: "How long should I cool the banana bread ...?" -> "cool", "the banana bread ...".
_ACTION = re.compile(r"\b(?:should|do|can|would|must|will|shall)\s+(?:i|we|you)\s+(?:\w+ly\s+)?([a-z-]+)\b(.*)", re.I)
#: Verbs that say no action of their own ("use", "let", "do"): the question's action is elsewhere.
_NO_ACTION = frozenset({"be", "have", "do", "know", "need", "want", "like", "let"})


def _question_action(item: Item) -> tuple[str, str] | None:
    """(verb, thing) of the question: "How long should I cool the banana bread?" -> ("cool", "bread");
    "Which bowl should I use to mix the pasta?" -> ("mix", "bowl")."""
    question = item.question.split("?")[0]
    m = _ACTION.search(question)
    if m is None:
        return None
    verb, rest = m.group(1).lower(), m.group(2)
    if verb == "use" and (purpose := re.match(r"\s+(?:[a-z-]+\s+){0,3}?to\s+([a-z-]+)\b(.*)", rest, re.I)):
        verb, rest = purpose.group(1).lower(), purpose.group(2)
    if verb in _GENERAL or verb in _NO_ACTION or verb in FUNCTION_WORDS:
        return None
    head = _asked_head(item)
    if head is None:
        phrase: list[str] = []
        for w in words(rest):
            if w in FUNCTION_WORDS:
                if phrase:
                    break
                continue
            phrase.append(w)
        head = lemma(phrase[-1]) if phrase else None
    if not head or head in _GENERAL or head in MEASURES or head in VAGUE:
        return None
    return verb, head


def _says_verb(step: str, verb: str) -> bool:
    """``step`` says ``verb`` in any form ("cool", "cooled", "mixing")."""
    return any(
        w == verb or lemma(w) == verb or (len(verb) >= 4 and w.startswith(verb) and len(w) - len(verb) <= 3)
        for w in words(step.lower())
    )


def _action_said_elsewhere(item: Item) -> list[str]:
    """Copied plans: exactly one step does what the question asks about, its verb with its thing ("Remove the
    banana bread from the oven and cool" for "How long should I cool the banana bread?"; "Juice one fruit" for
    "Which fruit should I juice?"), it is not the step at the index, and the step at the index names neither
    that thing nor any option, nor leaves anything open: the open point is where the plan does that action."""
    action = _question_action(item)
    if action is None:
        return []
    verb, thing = action
    steps, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    doing = [
        i
        for i, step in enumerate(steps)
        if _says_verb(step, verb) and thing in {lemma(w) for w in words(step)} | {singular(w) for w in words(step)}
    ]
    if len(doing) != 1 or doing[0] == eoa or not _takes_no_part(steps[eoa], item, thing):
        return []
    k = doing[0]
    where = "after" if k > eoa else "before"
    return [
        f"plan_for_clear_task[{k}]: does what the question asks about ('{verb}' the {thing}) {where} "
        f"end_of_ambiguity {eoa}, whose step names neither it nor any option: {_short(steps[eoa])!r} / "
        f"{_short(steps[k])!r}"
    ]


def _respelled(word: str, read: frozenset[str]) -> bool:
    near = (w for w in read if len(w) >= 5 and abs(len(w) - len(word)) <= 1)
    return len(word) >= 5 and any(Levenshtein.distance(w, word, score_cutoff=1) <= 1 for w in near)


def _said_open(step: str, things: set[str]) -> str | None:
    """The words of a step that say the choice is still to make: an open word, "the chosen/suitable ...", or
    "the needed product"."""
    if said := _leaves_open(step, things):
        return said
    m = _OPEN_CHOICE.search(step) or LEFT_OPEN.search(step) or _NEEDED.search(step)
    return m.group(0).strip() if m else None


_NEEDED = re.compile(r"\b(?:needed|required|necessary)\s+[a-z-]+", re.I)


#: A step that goes to where things are kept: the choice may be made there, in words not read here.
_LEADS = re.compile(r"^\W*(?:\d+\s*[.:)]\s*)?(?:open|go|walk|move|head|approach|find|locate|look|search|check)\b", re.I)
#: A step that takes something out or fetches it: the object it names must be chosen by then.
_FETCH = re.compile(r"\b(?:take|takes|get|retrieve|gather|grab|collect|bring|fetch|pick\s+up)\b", re.I)


def _fetched_before(item: Item, eoa: int) -> tuple[int, str] | None:
    """The first step before ``end_of_ambiguity`` that fetches what a which-question asks to choose ("Which type
    of pepper ...?" and "Take eggs, butter, peppers, and ham from the refrigerator" at step 0, "Dice the bell
    peppers" at the index): the robot cannot take the pepper out before it knows which. Only the question's
    own noun counts (not an intent word inside another name: "lasagna sheets" for "What food ...?"), and
    only as a thing, not as the modifier of another noun ("the pasta pot")."""
    asked = _asked(item)
    if asked is None:
        return None
    head, said = asked
    for i, step in enumerate(item.plan_for_clear_task[:eoa]):
        if (verb := _FETCH.search(step)) is None:
            continue
        after = words(step[verb.end() :])
        for j, word in enumerate(after):
            following = after[j + 1] if j + 1 < len(after) else ""
            if lemma(word) == head and not (following not in FUNCTION_WORDS and "NOUN" in classes(following)):
                return i, said
    return None


#: A step that says outright the choice is still to make: "Preheat something", "the right kitchen appliance".
_SAYS_OPEN = re.compile(r"\bsomething\b|\bsomewhere\b|\bchoose\b|\bdecide\b", re.I)
_OPEN_NAMED = re.compile(
    r"\b(?:chosen|selected|specified|preferred|desired|suitable|appropriate|right|correct|needed|intended)\s+"
    r"(?:kitchen\s+)?([a-z-]+)",
    re.I,
)


def _leaves_open(step: str, things: set[str]) -> str | None:
    """The words of a step that leave the choice open: an open word, or "the chosen/right X" where X is what
    the question or the options choose among ("another pot" is a second pot, not an open one)."""
    if m := _SAYS_OPEN.search(step):
        return m.group(0)
    if named := next((m.group(0) for m in _OPEN_NAMED.finditer(step) if lemma(m.group(1).lower()) in things), None):
        return named
    # the options offered side by side: "on a metal or plastic plate", "ketchup or olive oil" (not "or until")
    return next(
        (m.group(0) for m in _EITHER.finditer(step) if {lemma(m.group(1).lower()), lemma(m.group(2).lower())} & things),
        None,
    )


#: Two options joined by "or", up to two words apart from the thing they name: "metal or plastic plate".
_EITHER = re.compile(
    r"\b([a-z-]+)\s+or\s+(?:(?!until\b|when\b|so\b)[a-z-]+\s+){0,2}?([a-z-]+)\b"
    r"(?=\s*[.,;]|\s+(?:in|on|into|to|for|with|from)\b|$)",
    re.I,
)


def _chosen_later(item: Item, positives: list[list[str]]) -> tuple[int, str] | None:
    """The first clear step after ``end_of_ambiguity`` that names an intended thing the ambiguous step there and
    the ambiguous task lack ("Remove the bacon from the oven using a potholder" at step 3, end_of_ambiguity 1),
    when no clear step up to the index names any intent concept at all and the ambiguous step there does not
    leave the choice open in words ("in a suitable place"): the index is too early. Plans that part at the
    index, the clear step adding words or amounts the ambiguous step and task lack ("Bake." / "Bake for about
    25 minutes.", the toothpick test a step on), show the choice there, whatever later step names the intended
    thing: the writer marks the open point where the clear plan starts to do what the ambiguous one leaves open."""
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    if _parting(item) == eoa and _adds_at_index(item):
        return None
    concepts = [a for alts in positives for a in alts if a.strip()]
    if not concepts or any(has(step, a) or mentions(step, a) for step in clear[: eoa + 1] for a in concepts):
        return None
    if _marks_open(amb[eoa]):
        return None  # the ambiguous step there leaves the choice open in words: its writer marks it there
    # the step still involves the choice when it names what is chosen among ("Pick up the chosen mug")
    options = [o for o in (*item.amb_shortlist, *item.variants, *concepts) if words(o)]
    heads = {lemma(words(o)[-1]) for o in options}
    # an intended phrase names its thing anywhere in it: "glass jar of water" is a jar ("Stand the basil in the jar")
    heads |= {w for a in concepts if len(words(a)) > 1 for w in content_lemmas(a) if names_thing(w)}
    if content_lemmas(clear[eoa]) & heads:
        return None
    for k in range(eoa + 1, min(len(clear), len(amb))):
        said = [
            a
            for a in concepts
            if names_thing(a) and count(clear[k], a) > max(count(amb[k], a), count(item.ambiguous_task, a))
        ]
        if said and similar_steps(clear[k], amb[eoa]) and not similar_steps(clear[k], amb[k]):
            return None  # the clear plan has a step more before: its step k is the ambiguous step at the index
        if said:
            return k, said[0]
    return None


def _adds_at_index(item: Item) -> bool:
    """The clear step at the index says a word or an amount that the ambiguous step there and the ambiguous task
    lack ("Bake for about 25 minutes." / "Bake.", "Microwave for 1 and a half minutes" / "... for 3 minutes"),
    and is no step put in before it (the clear plan's next step being the ambiguous step at the index: "Wipe the
    saucepan." before "Pour the milk into the saucepan.")."""
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    if eoa + 1 < len(clear) and normalise(clear[eoa + 1]) == normalise(amb[eoa]):
        return False
    lacking = f"{amb[eoa]} {item.ambiguous_task}"
    return bool(content_lemmas(clear[eoa]) - content_lemmas(lacking) or _amounts(clear[eoa]) - _amounts(lacking))


def check_resolution(item: Item, ctx: RuleContext) -> list[str]:
    """Suspected: the clear step at ``end_of_ambiguity`` does not visibly resolve what the ambiguous step leaves
    open. AmbiK's intent keywords are often paraphrased in the plans, so this is never certain."""
    clear, amb, eoa = item.plan_for_clear_task, item.plan_for_amb_task, item.end_of_ambiguity
    if _identical(item) or eoa >= len(clear) or eoa >= len(amb):
        return []  # plan_divergence / the plan rule report it
    if item.world is not None and item.world.perturbation is not None:
        return []  # two kitchens: the ambiguous plan is set in the changed one (world_env_plan)
    if check_end_of_ambiguity(item, ctx):
        return []  # the index is wrong: end_of_ambiguity reports it
    if normalise(clear[eoa]) == normalise(amb[eoa]):
        return [
            f"plan_for_clear_task[{eoa}]: the same as the ambiguous step at end_of_ambiguity: {_short(clear[eoa])!r}"
        ]
    positives, _ = intent_concepts(item.user_intent)
    resolving = [
        a
        for alts in positives
        for a in alts
        if count(clear[eoa], a) > max(count(amb[eoa], a), count(item.ambiguous_task, a))
    ]
    if resolving:
        return []
    if m := _OPEN_CHOICE.search(clear[eoa]):
        return [f"plan_for_clear_task[{eoa}]: still leaves the choice open ({m.group(0)!r})"]
    if positives:
        concepts = ", ".join("|".join(a) for a in positives)
        return [
            f"plan_for_clear_task[{eoa}]: the step at end_of_ambiguity adds no intent concept ({concepts}) "
            f"that the ambiguous task and step lack: {_short(clear[eoa])!r}"
        ]
    return []


def _named(
    step: str, phrase: str, scene: Scene, options: set[tuple[str, ...]], fixtures: frozenset[tuple[str, ...]]
) -> int:
    """How often ``step`` names ``phrase`` as itself, not as the modifier of another scene object: 'orange'
    in 'orange soda' when the scene lists both an orange and an orange soda (and the soda is no option),
    while 'glass' in 'glass mug' names the glass mug of a shortlist; and never as part of a fixture's name
    ('kitchen' of "the kitchen table" when the intent is the kitchen towel)."""
    ws = [singular(w) for w in words(step)]
    alone = key_of(phrase) in scene.keys
    other = [tuple(ws[start : end + 1]) if end < len(ws) else () for start, end in positions(step, phrase)]
    return sum(
        1 for longer in other if longer in options or not (longer in fixtures or (alone and longer in scene.keys))
    )


def _kitchen_name(phrase: str, item: Item) -> bool:
    """``phrase`` is the name of a thing the kitchen lists (keys are singular, so either number): it names a
    thing whatever its words' classes ("frying pan", "can opener": the word lists know "pan" only as a verb and
    "can" as a modal)."""
    key = key_of(phrase)
    return bool(key) and key in Scene.of(item).keys


def _quantity(word: str) -> bool:
    return any(c.isdigit() for c in word) or word in CARDINALS or singular(word) in MEASURES


def _number(alternatives: list[str]) -> bool:
    """A concept that is a count ("2|two", "3"): the answer to how many / how long."""
    return all(len(ws := words(a)) == 1 and (ws[0] in CARDINALS or ws[0].isdigit()) for a in alternatives)


def _counts(step: str, number: str, counted: frozenset[str]) -> bool:
    """``step`` says ``number`` of what the question or the intent counts ("2 minutes", "two slices of
    bread"; not "two eggs" when the question counts slices of bread)."""
    for m in re.finditer(rf"(?<![\w.]){re.escape(number)}(?![\w]|\.\d)", step, re.I):
        after = words(step[m.end() :])[:3]
        if any(lemma(w) in counted or singular(w) in counted for w in after):
            return True
    return False


def _number_leak(item: Item, positives: list[list[str]]) -> tuple[str, str] | None:
    """A step before ``end_of_ambiguity`` that already says the intended count with what it counts ("sear for
    2 minutes on each side" when the question is how long and the intent "2|two, minutes"), while the
    ambiguous task says no such count: the plan answers the question before it is asked."""
    numbers = [alts for alts in positives if _number(alts)]
    others = [alts for alts in positives if not _number(alts)]
    counted = content_lemmas(item.question) | {lemma(w) for alts in others for a in alts for w in words(a)}
    if not numbers or any(_counts(item.ambiguous_task, a, counted) for alts in numbers for a in alts):
        return None
    for i, step in enumerate(item.plan_for_amb_task[: item.end_of_ambiguity]):
        said = [next((a for a in alts if _counts(step, a, counted)), None) for alts in numbers]
        if all(said) and all(any(has(step, a) or mentions(step, a) for a in alts) for alts in others):
            return (
                "answer_leak",
                f"plan_for_amb_task[{i}]: already says the intended count '{said[0]}' "
                f"(end_of_ambiguity {item.end_of_ambiguity}; the ambiguous task does not): {_short(step)!r}",
            )
    return None


def _whole_answer(item: Item, positives: list[list[str]], scene: Scene) -> bool:
    """Outside a choice among objects an intent word is often an ordinary ingredient of the task ("olive oil"
    in a dressing), so a leak is certain only when the ambiguous plan gives the whole answer away before the
    question: no intent concept is only a quantity ("2, eggs": how many), every concept that names things
    (not verbs: "drizzle|apply") is said by the answer and by a step before ``end_of_ambiguity``, one of them
    is a scene object, and the ambiguous task says none of them ("Gather the whisk" when the answer is "The
    whisk."; both cheeses of "one cheese and another cheese"). A concept whose alternatives are a thing or a
    number ("thermometer|145": how to tell it is done) is given away by the thing."""
    before = item.plan_for_amb_task[: item.end_of_ambiguity]
    listed = {a for alts in positives for a in alts if _kitchen_name(a, item)}
    objects = 0
    for alternatives in positives:
        if all(any(_quantity(w) for w in words(a)) for a in alternatives):
            return False  # "2, eggs", "cup|ml": the answer says how much, and naming the thing gives none away
        alternatives = [a for a in alternatives if not any(_quantity(w) for w in words(a))]  # "thermometer|145"
        if not all(names_thing(a) or a in listed for a in alternatives):
            continue  # "drizzle|apply|distribute": how, not what
        if any(has(item.ambiguous_task, a) or mentions(item.ambiguous_task, a) for a in alternatives):
            return False
        if not any(mentions(item.answer, a) and any(mentions(step, a) for step in before) for a in alternatives):
            return False  # a part of the answer ("flour", "slice") the plan does not give away
        objects += any(scene.grounds(key_of(a)) or asks_place(item.question, a) for a in alternatives)
    return objects > 0


_OR = re.compile(r"\bor\b", re.I)


def _offered_and_chosen(item: Item, concept: str) -> bool:
    """The question offers options, this concept among them, and the answer picks it: "the instant pot,
    stovetop, or microwave?" / "Cook the quinoa in the instant pot" (a plan that names it before the
    question has made the choice the question asks for)."""
    return bool(_OR.search(item.question)) and mentions(item.question, concept) and mentions(item.answer, concept)


def _portion_of_other(step: str, concept: str, question: str) -> bool:
    """Every time ``step`` says ``concept`` it is a portion of another thing, the concept followed by "of" and
    a word the question does not say ("Lay two slices of bread" when the question is whether to slice the
    tomato): the step measures out that thing and makes no choice the question offers."""
    ws = [w.lower() for w in words(step)]
    asked = content_lemmas(question)
    found = positions(step, concept)
    return bool(found) and all(
        end < len(ws) and ws[end] == "of" and not any(lemma(w) in asked for w in ws[end + 1 : end + 4])
        for _, end in found
    )


#: Words that make the place after them where a thing comes from ("out of the freezer", "from the fridge").
_TAKEN_FROM = frozenset({"from", "of", "off"})


def _named_as_source(step: str, place: str) -> bool:
    """Every time ``step`` says ``place`` it is where something is taken from: "from", "out of" or "off" just
    before it, past an article ("Take the ice cream out of the freezer"). A question asking where a thing
    goes is answered by where it is put, and the place a thing came from does not say it."""
    ws = [w.lower() for w in words(step)]
    found = positions(step, place)

    def source(start: int) -> bool:
        j = start - 1
        while j >= 0 and ws[j] in {"the", "a", "an", "its", "their"}:
            j -= 1
        return j >= 0 and ws[j] in _TAKEN_FROM and (ws[j] != "of" or (j > 0 and ws[j - 1] == "out"))

    return bool(found) and all(source(start) for start, _ in found)


def leaks(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    """(rule, message) for each intent concept the ambiguous plan names up to ``end_of_ambiguity`` while the
    ambiguous task leaves it open. Only concepts that can name a thing count (open-class words, a noun or
    adjective among them, no number: never "from", "until", "3 minutes", "preheat"). Certain (answer_leak)
    when the item's type chooses among objects (a shortlist type) and the concept names a scene object or its
    distinguishing attribute, or, in other types, when the plan gives the whole answer away before the
    question (:func:`_whole_answer`) or names, before it, the option the question offers and the answer
    picks (:func:`_offered_and_chosen`); otherwise suspected (answer_leak_suspect): in common-sense and safety
    items the intent words are often ordinary steps ("the whisk", "olive oil") rather than the answer. An
    environment-induced item asks before its first step that needs the answer, and ``world_env_plan`` holds its
    ambiguous plan to the changed kitchen's shared steps up to there (absence: the plan the answer leads to).
    """
    if item.world is not None and item.world.perturbation is not None:
        return []
    positives, _ = intent_concepts(item.user_intent)
    clear, amb, task = item.plan_for_clear_task, item.plan_for_amb_task, item.ambiguous_task
    scene = Scene.of(item)
    choice = has_shortlist(item.ambiguity_type)
    options = {key_of(o) for o in item.amb_shortlist if o.strip()}
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    fixtures = lexicon.fixtures
    told = task_leaks(item) or attribute_leaks(item, lexicon)
    told = told or rewrite_leaks(item) or part_leaks(item) or kept_cue_leaks(item)
    out = [("answer_leak", message) for message in (*told, *setting_leaks(item), *measure_leaks(item))]
    whole = not choice and _whole_answer(item, positives, scene)
    counted = any(_number(alts) for alts in positives)
    if counted and _count_before(item) is None and (leak := _number_leak(item, positives)):
        # a copied plan that says the count before the index: end_of_ambiguity reports the index
        out.append(leak)
    for alternatives in positives:
        if counted and any(_quantity(w) or mentions(item.question, a) for a in alternatives for w in words(a)):
            continue  # the count is checked above; "eggs" of "How many eggs?" is what is counted, not the answer
        things = [a for a in alternatives if names_thing(a) or _kitchen_name(a, item)]
        if not things or any(has(task, a) or mentions(task, a) for a in alternatives):
            continue  # nothing that names a thing, or the task itself says it: nothing to leak
        for i, step in enumerate(amb[: item.end_of_ambiguity + 1]):
            same = clear[i] if i < len(clear) else ""
            found = next(
                (
                    a
                    for a in things
                    if _named(step, a, scene, options, fixtures) >= max(1, _named(same, a, scene, options, fixtures))
                ),
                None,
            )
            if found is None or _OFFERED.search(step) or _GATHERS_ALL.search(step):
                continue  # "Choose between green tea or coffee": the step asks, it does not decide; "Gather all the
                # necessary equipment, including ...": it takes what the whole task may use, choosing none
            key = key_of(found)
            names_object = bool(key) and (scene.grounds(key) or scene.describes(key) or key in options)
            names_object = names_object or asks_place(item.question, found)  # "Where ...?" "In the fridge."
            before = i < item.end_of_ambiguity
            given = before and (whole or _offered_and_chosen(item, found))
            certain = names_object and (choice or (given and not _portion_of_other(step, found, item.question)))
            if asks_place(item.question, found) and _named_as_source(step, found):
                certain = False  # "Take the ice cream out of the freezer" when the question is where the tub goes
            rule = "answer_leak" if certain else "answer_leak_suspect"
            out.append(
                (
                    rule,
                    f"plan_for_amb_task[{i}]: already names the intended '{found}' "
                    f"(end_of_ambiguity {item.end_of_ambiguity}; the ambiguous task does not): {_short(step)!r}",
                )
            )
            break
    if not any(rule == "answer_leak" for rule, _ in out):
        # a concept the ambiguous plan adds before the index, read when no other form has found the leak
        out += [("answer_leak", message) for message in added_step_leaks(item)]
    if not any(rule == "answer_leak" for rule, _ in out):
        out += [("answer_leak", message) for message in mark_leaks(item, lexicon)]
    return out


ORDER = 50  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("plan", "error", check_plan, "plan sizes, no empty step, end_of_ambiguity inside"),
    Rule("plan_agreement", "warning", check_agreement, "the plans do the same before end_of_ambiguity"),
    Rule("plan_length", "warning", check_plan_length, "plans longer than long_plan_steps"),
    Rule("plan_divergence", "error", check_divergence, "the clear plan is not the ambiguous plan verbatim"),
    Rule("plan_mismatch", "error", check_plan_task, "each plan does its own task, not the other's or another"),
    Rule("plan_resolution", "warning", check_resolution, "the clear step at end_of_ambiguity resolves the ambiguity"),
    Rule("end_of_ambiguity", "error", check_end_of_ambiguity, "end_of_ambiguity is the step where the plans resolve"),
    *family_rules(
        leaks,
        ("answer_leak", "error", "the ambiguous plan does not name the intended object of a choice"),
        ("answer_leak_suspect", "warning", "the ambiguous plan may name the intended option"),
    ),
)
