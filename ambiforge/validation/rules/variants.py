"""variants: when an item lists variants (the options open before the question), one of them is the intended
option, i.e. matches an intent concept: an error for a choice among objects (shortlist types, an intent that
names a thing), and in every type when the answer is not among the variants either (the variants "On the
stove / In the slow cooker" for the answer "In the oven"; "5 minutes / 7 minutes" for "10 minutes"), or when
the intent wants foods together and the variants offer one of them alone and not another; a warning
(``variants_suspect``) when the variants are the intended things one by one and nothing else ("Strawberries /
Raspberries / Cherries" for all three, or an intended thing of the kitchen none offers while another is: the
intent often names a landmark or a detail beside the choice); and for types with a shortlist they offer at
least one shortlisted option (warning: AmbiK often lists only the plausible few, but not none of them)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ambiforge.catalog import cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import CARDINALS, fold_accents, singular
from ambiforge.validation.language import FUNCTION_WORDS, VAGUE, content_lemmas, lemma, names_thing, words
from ambiforge.validation.lexicon import Lexicon, key_of, lexicon_for
from ambiforge.validation.rules.answer_choice import one_food_names, place_names
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.grounding import Scene, kind_present
from ambiforge.validation.rules.shortlist import has_shortlist, is_object_option, written_alike
from ambiforge.validation.rules.text import has, intent_concepts

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


def _matches(a: str, b: str) -> bool:
    if has(a, b) or has(b, a):
        return True
    pa, pb = _plain(a), _plain(b)
    return (pa, pb) != (a, b) and (has(pa, pb) or has(pb, pa))


def _plain(text: str) -> str:
    """The text with hyphens as spaces and accents dropped: "whole-wheat" and "whole wheat", "jalapeño" and
    "jalapeno" are one name written two ways."""
    return fold_accents(text.replace("-", " "))


def _missed(item: Item, lexicon: Lexicon) -> list[str]:
    """The intent alternatives, when no variant names any of them (substring either way, or every content
    lemma of the alternative in the variant: 'the ceramic mugs' names 'ceramic mug', "the glass one" names
    'glass mug', "In the refrigerator" and "Refrigerate it" name 'fridge', "coriander" names 'cilantro')."""
    variants = [v.strip() for v in item.variants if v.strip() and not v.strip().startswith("-")]
    if not variants:
        return []
    positives, _ = intent_concepts(item.user_intent)
    wanted = [a for alternatives in positives for a in alternatives]
    read = [" ".join((one_food_names(v), *place_names(v, lexicon))) for v in variants]
    wanted_read = [one_food_names(a) for a in wanted]
    named = any(
        _matches(v, a)
        or (not _numbers_apart(v, a) and _names(a, [content_lemmas(v) - _SIZES]))
        or (_ONE.search(v) is not None and not _numbers_apart(v, a) and _names(a, [_with_head(v, a)]))
        for v in read
        for a in wanted_read
    )
    return [] if not wanted or named else wanted


#: "the glass one", "the small blue ones": "one" after a determiner and its modifiers stands for a noun.
_ONE = re.compile(
    r"\b(?:the|a|an|this|that|these|those)\s+((?:[a-z-]+\s+){1,2})ones?(?=\s*(?:[.,;:!?)]|$|\s(?:for|with|please)\b))",
    re.I,
)


def _with_head(variant: str, concept: str) -> frozenset[str]:
    """The variant's content lemmas with its "one" read as the concept's head noun ("the glass one" read
    beside 'glass mug' says glass and mug)."""
    ws = words(concept)
    if not ws:
        return frozenset()

    def noun(m: re.Match[str]) -> str:
        modifiers = m.group(1).split()
        return m.group(0) if set(modifiers) & FUNCTION_WORDS else f"the {m.group(1)}{ws[-1]}"

    return content_lemmas(_ONE.sub(noun, variant)) - _SIZES


def _numbers_apart(variant: str, concept: str) -> bool:
    """Both give a number and no number of the one is the other's ("5 minutes" for "10 minutes"): the unit they
    share is not the choice, the number is."""
    offered, wanted = _numbers(variant), _numbers(concept)
    return bool(offered) and bool(wanted) and offered.isdisjoint(wanted)


#: Sizes say which one of a kind, not which kind: "a mixing bowl" names the large mixing bowl.
_SIZES = frozenset({"large", "small", "big", "little", "medium", "tiny", "huge", "regular"})


def _names(concept: str, said: list[frozenset[str]]) -> bool:
    """A variant names the concept: every content lemma of the concept but its size is in the variant ('the
    ceramic mugs' for 'ceramic mug', 'a mixing bowl' for 'large mixing bowl'), or the variant is the concept
    shortened to two or more of its words, its head noun kept ('the glass bottle' for 'glass milk bottle')."""
    lemmas = content_lemmas(concept) - _SIZES
    if not lemmas:
        return False
    head = lemma(words(concept)[-1])
    return any(lemmas <= s or (len(s) >= 2 and head in s and s <= lemmas) for s in said)


def _concept_lost(item: Item) -> str | None:
    """When the intent wants several things of the kitchen together ("paring knife, cutting board"), one of
    them that no variant offers while another is offered: the intended set is not among the options. None
    when the intent names fewer than two of the scene's things, every one is offered, or the variants are yes
    or no."""
    variants = _variants(item)
    if len(variants) < 2 or any(words(v)[:1] and words(v)[0] in _YES_NO for v in variants):
        return None  # yes or no offered: the things are what the question asks about, not options
    positives, negatives = intent_concepts(item.user_intent)
    scene = Scene.of(item)
    things = [alts for alts in positives if any(names_thing(a) and scene.grounds(key_of(a)) for a in alts)]
    if len(things) < 2:
        return None
    said = [content_lemmas(v) - _SIZES for v in variants]

    def offered(alts: list[str]) -> bool:
        return any(_matches(v, a) for v in variants for a in alts) or any(_names(a, said) for a in alts)

    if _against_rejected(variants, negatives) and any(offered(alts) for alts in things):
        return None  # the intended way against the rejected one: the other things are its details
    lost = [alts[0] for alts in things if not offered(alts)]
    return lost[0] if lost and len(lost) < len(things) else None


#: Where one variant lists several things: "Sweet onion, tomato, garlic", "Mayonnaise and mustard".
_LIST = re.compile(r",|\band\b|&|\+", re.I)


def _set_split(item: Item) -> list[str]:
    """When the variants are sets of things (some variant lists two or more: "Mayonnaise and mustard / Sea
    salt and granulated sugar") and the intent wants two or more things of the kitchen together, the
    intended things that no one variant holds all of: the intended set is not among the options, though its
    pieces are spread over them. Single-thing variants are a multi-choice list ("Strawberries / Raspberries"
    for both) and are left alone, and so are intended words the kitchen does not have (the option may name
    them otherwise: "jam" for "jelly")."""
    variants = _variants(item)
    if len(variants) < 2 or not any(sum(1 for part in _LIST.split(v) if names_thing(part)) >= 2 for v in variants):
        return []
    positives, _ = intent_concepts(item.user_intent)
    scene = Scene.of(item)
    things = [alts for alts in positives if any(names_thing(a) and scene.grounds(key_of(a)) for a in alts)]
    if len(things) < 2:
        return []

    def holds(variant: str, alts: list[str]) -> bool:
        said = [content_lemmas(variant) - _SIZES]
        return any(_matches(variant, a) for a in alts) or any(_names(a, said) for a in alts)

    if any(all(holds(v, alts) for alts in things) for v in variants):
        return []
    return [alts[0] for alts in things]


def _food_lost(item: Item, ctx: RuleContext) -> tuple[str, str] | None:
    """When the intent wants two or more foods of the kitchen together ("apples, pears") and the variants are
    foods one by one, one of them an intended food and none another intended one ("apples / oranges /
    bananas"): the intended set is among no options; the lost intended food and an offered one. Only foods:
    beside a tool the intent often names a landmark or a helper ("the shelf above the coffee machine", "paring
    knife, cutting board"), which no variant need offer (``variants_suspect`` says it)."""
    variants = _variants(item)
    if len(variants) < 2 or any(sum(1 for part in _LIST.split(v) if names_thing(part)) >= 2 for v in variants):
        return None
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))

    def food(text: str) -> bool:
        _, found = lexicon.scan(text)
        return bool(found) and max(found, key=lambda m: m.end).food

    if not all(food(v) for v in variants):
        return None
    positives, negatives = intent_concepts(item.user_intent)
    if negatives:
        return None
    scene = Scene.of(item)
    things = [alts for alts in positives if any(names_thing(a) and scene.grounds(key_of(a)) for a in alts)]
    if len(things) < 2 or len(things) != len(positives) or not all(food(alts[0]) for alts in things):
        return None

    def offered(alts: list[str]) -> bool:
        return any(_matches(v, a) or _names(a, [content_lemmas(v) - _SIZES]) for v in variants for a in alts)

    given = [alts[0] for alts in things if offered(alts)]
    lost = [alts[0] for alts in things if not offered(alts)]
    return (lost[0], given[0]) if given and lost else None


def _pieces_offered(item: Item) -> tuple[list[str], bool] | None:
    """When the intent wants two or more things of the kitchen together ("strawberries, raspberries and
    cherries") and the variants offer them one by one ("Strawberries / Raspberries / Cherries"), two or more
    of the intended things each as a variant of its own and no variant holding the set: the intended option
    is not among the variants. Returns the intended things offered and whether every variant is one of them
    (then the variants offer no choice at all). Yes or no variants answer another question and are left
    alone, and so are variants that list sets (``_set_split`` judges those)."""
    variants = _variants(item)
    if len(variants) < 2 or any(words(v)[:1] and words(v)[0] in _YES_NO for v in variants):
        return None
    if any(sum(1 for part in _LIST.split(v) if names_thing(part)) >= 2 for v in variants):
        return None
    positives, _ = intent_concepts(item.user_intent)
    scene = Scene.of(item)
    things = [alts for alts in positives if any(names_thing(a) and scene.grounds(key_of(a)) for a in alts)]
    if len(things) < 2:
        return None

    def holds(variant: str, alts: list[str]) -> bool:
        said = [content_lemmas(variant) - _SIZES]
        return any(_matches(variant, a) for a in alts) or any(_names(a, said) for a in alts)

    if any(all(holds(v, alts) for alts in things) for v in variants):
        return None
    offered = [alts[0] for alts in things if any(holds(v, alts) for v in variants)]
    if len(offered) < 2:
        return None
    every = all(any(holds(v, alts) for alts in things) for v in variants)
    return offered, every


def _object_choice(item: Item, wanted: list[str]) -> bool:
    return has_shortlist(item.ambiguity_type) and any(names_thing(w) for w in wanted)


_YES_NO = frozenset({"yes", "no"})
_NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
    )
} | {w: str(10 * i) for i, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty"), start=2)}
_NUMBERS |= {"fifteen": "15", "twenty-five": "25", "forty-five": "45"}  # the rest of textnorm.CARDINALS but "half"


def _numbers(text: str) -> set[str]:
    return {_NUMBERS.get(w, w) for w in words(text) if w.isdigit() or (w in CARDINALS and w in _NUMBERS)}


#: The most words a variant that names one thing has ("peanut butter cookies", "the red cloth napkins").
_KIN_WORDS = 4


def _kin_offered(item: Item, wanted: list[str]) -> tuple[str, str] | None:
    """A variant that is a kin of an intended thing in place of it: the same noun with another word before it
    and none of the intended one's ("peanut butter cookies" for the intended "sugar cookies", "soft ball" for
    "firm ball"). The variants set the kind's other members against each other and leave the intended one out,
    whatever words the answer shares with them. The variant and its noun."""
    for concept in wanted:
        ws = words(concept)
        if not ws or not names_thing(concept):
            continue
        head = lemma(ws[-1])
        marks = content_lemmas(concept) - {head} - _SIZES
        if not marks:
            continue
        for variant in _variants(item):
            vs = words(variant)
            if not vs or len(vs) > _KIN_WORDS or vs[0] in _YES_NO or not names_thing(variant):
                continue  # a reply or an instruction, not a name of a thing
            said = content_lemmas(variant) - {head} - _SIZES
            if lemma(vs[-1]) == head and said and not marks & said:
                return variant, head
    return None


def _answer_among(item: Item, variants: list[str]) -> bool:
    """Some variant is the answer: the same yes or no, the same number, or a word the answer adds to the
    question ("In the oven" for "Where is the sauce?" adds 'oven')."""
    said = words(item.answer)
    if said and said[0] in _YES_NO and any(words(v)[:1] == said[:1] for v in variants):
        return True
    given, offered = _numbers(item.answer), {n for v in variants for n in _numbers(v)}
    if given & offered:
        return True
    if given and offered and _numbers(item.question).isdisjoint(given):
        return False  # "10 minutes" against "5 minutes / 7 minutes": the number is the choice, not the unit
    added = content_lemmas(item.answer) - content_lemmas(item.question) - VAGUE - _GENERIC
    if _off_question(item, variants):
        # variants of another point than the question's ("Slice them in halves" for "Should I take the tops
        # off?"): a word the answer repeats from the task ("before slicing") is no choice of theirs
        added -= content_lemmas(item.ambiguous_task)
    _, rejected = intent_concepts(item.user_intent)
    # a variant offering what the intent rejects is the wrong choice the answer warns against, never the answer
    return any(added & content_lemmas(v) for v in variants if not _rejects(v, rejected))


def _off_question(item: Item, variants: list[str]) -> bool:
    """No variant says a content word of the question, nor gives a yes or no: the variants speak of
    something else than the question asks."""
    asked = content_lemmas(item.question) - VAGUE - _GENERIC
    return bool(asked) and not any(
        content_lemmas(v) & asked or (words(v)[:1] and words(v)[0] in _YES_NO) for v in variants
    )


def _rejects(variant: str, rejected: list[str]) -> bool:
    """The variant offers a thing the intent rules out ("kitchen towel" for the intent "-kitchen towel")."""
    return any(r.strip() and _matches(variant, r.strip()) for r in rejected)


def _against_rejected(variants: list[str], rejected: list[str]) -> bool:
    """The variants set the intended way against a way the intent rules out ("by hand in the sink" / "in the
    dishwasher" for "hand, sink, sponge, -dishwasher"): one variant offers the rejected thing, another not."""
    offers = [_rejects(v, rejected) for v in variants]
    return any(offers) and not all(offers)


#: Words an answer uses around its choice ("You should use the stove"), never the choice itself.
_GENERIC = frozenset(
    {"use", "should", "robot", "place", "put", "make", "sure", "need", "want", "best", "please", "kitchen"}
)


def _variants(item: Item) -> list[str]:
    return [v.strip() for v in item.variants if v.strip() and not v.strip().startswith("-")]


def check_variants(item: Item, ctx: RuleContext) -> list[str]:
    """Certain for a choice among objects (a shortlist type naming a thing): its variants are those objects,
    in the kitchen; and in any type when neither the intent nor the answer is among them."""
    if asking := next((v for v in _variants(item) if v.endswith("?")), None):
        return [f"variants: {asking!r} is itself a question, not an answer to the question; variants: {_listed(item)}"]
    absent = _absent(item, ctx)
    if absent:
        return [f"variants: '{absent}' is offered, and the environment has no such object; variants: {_listed(item)}"]
    if swapped := _swapped(item, ctx):
        return [
            f"variants: '{swapped[0]}' is offered instead of the shortlisted '{swapped[1]}'; variants: {_listed(item)}"
        ]
    if _one_option(item):
        return [f"variants: all say the same thing, so they offer no choice; variants: {_listed(item)}"]
    if split := _set_split(item):
        return [
            f"variants: each offers a set of things, and none holds every intended one ({', '.join(split)}); "
            f"variants: {_listed(item)}"
        ]
    if food := _food_lost(item, ctx):
        return [
            f"variants: the intended '{food[0]}' is in none of them while the intended '{food[1]}' is offered alone, "
            f"so the intended foods together are no option; variants: {_listed(item)}"
        ]
    if repeated := _repeats_task(item):
        return [
            f"variants: {repeated[0]!r} only repeats the ambiguous task's open words ({', '.join(repeated[1])}), "
            f"so it is no option; variants: {_listed(item)}"
        ]
    wanted = _missed(item, lexicon_for(ctx.catalog or cached_catalog("")))
    if not wanted:
        return []
    if _object_choice(item, wanted):
        return [f"variants: none is the intended option ({', '.join(wanted)}); variants: {_listed(item)}"]
    if kin := _kin_offered(item, wanted):
        return [
            f"variants: none is the intended option ({', '.join(wanted)}); {kin[0]!r} is another {kin[1]} than the "
            f"intended; variants: {_listed(item)}"
        ]
    if asked := _asked_kind_missing(item, wanted):
        return [
            f"variants: none is the intended option ({', '.join(wanted)}) nor any {asked}, which the question asks "
            f"for; variants: {_listed(item)}"
        ]
    if item.answer.strip() and not _answer_among(item, _variants(item)):
        return [
            f"variants: none is the answer {item.answer.strip()[:60]!r} or the intent ({', '.join(wanted)}); "
            f"variants: {_listed(item)}"
        ]
    return []


#: "Which strawberry yogurt cup should I pack?": the noun a which-question asks for, before its verb.
_WHICH_NOUN = re.compile(
    r"\bwhich\s+(?:(?:type|kind|sort)\s+of\s+)?(?:[a-z-]+\s+){0,2}?([a-z-]+)\s+"
    r"(?:should|would|do|does|can|shall|will|to|goes|go)\b",
    re.I,
)


def _asked_kind_missing(item: Item, wanted: list[str]) -> str | None:
    """The noun a which-question asks for ("cup" of "Which strawberry yogurt cup should I pack?"), when the
    intent that no variant names says it and no variant does ("plastic spoon", "ice pack"): the variants offer
    other things than the question's, whatever the answer picks among them. Else None."""
    m = _WHICH_NOUN.search(item.question)
    if m is None or len(_variants(item)) < 2:
        return None
    asked = lemma(m.group(1).lower())
    if not any(asked in content_lemmas(c) for c in wanted):
        return None
    if any(asked in content_lemmas(v) or _ONE.search(v) for v in _variants(item)):
        return None  # "the large one" is of the kind asked
    return asked


#: Content words a variant must share with the ambiguous task to repeat it rather than name one option ("a cup").
_TASK_WORDS = 3


def _repeats_task(item: Item) -> tuple[str, list[str]] | None:
    """A variant made only of the ambiguous task's words, among them a word the clear task replaced ("Pour it
    into a container filled with ice" when the task says "pour it into a container filled with ice" and the
    clear task "a glass"), naming no intended thing, rejected thing or shortlisted option, nor an option the
    task itself offers ("a cup or a mug"): it says the open point again instead of offering a way to settle it."""
    variants = _variants(item)
    if len(variants) < 2:
        return None
    task = content_lemmas(item.ambiguous_task)
    open_words = task - content_lemmas(item.unambiguous_direct) - _GENERIC - _REWORDING
    if not open_words:
        return None
    positives, negatives = intent_concepts(item.user_intent)
    named = [a.strip() for alts in positives for a in alts] + negatives + list(item.amb_shortlist)
    named = [n.strip() for n in named if n.strip()]
    for variant in variants:
        said = content_lemmas(variant)
        if (
            len(said) >= _TASK_WORDS
            and said <= task
            and said & open_words
            and not any(_matches(variant, n) for n in named)
            and not any(_offered_in(item.ambiguous_task, w) for w in said)
        ):
            return variant, sorted(said & open_words)
    return None


def _offered_in(task: str, word: str) -> bool:
    """The task offers ``word`` as one of its own options: "a cup or a mug", "either cup"."""
    w = re.escape(word)
    return bool(re.search(rf"\b(?:or|either)\s+(?:\w+\s+)?{w}|\b{w}\w*\s+or\b", task, re.I))


#: A question whose asked thing is what a verb of making makes: "Which sauce should I make?", "What should I bake
#: for dessert?" (not "Which pan should I make it in?", whose thing is a tool).
_MAKE_QUESTION = re.compile(
    r"^\s*(?:which|what)\b[^?]*\b(?:make|bake)\s*(?:\?|$|for\b|first\b|now\b|today\b|tonight\b)", re.I
)


def _absent(item: Item, ctx: RuleContext) -> str | None:
    """A variant of a choice among objects (a shortlist type) that names an object or food the scene lacks
    ("Cow's milk" beside the oat milk and the glass milk bottle): an option the robot cannot take. Places and
    appliances every kitchen has are no objects (the lexicon's fixtures), nor are kinds the scene has a
    member of. When the question asks what to make ("Which sauce should I make?"), the variants are dishes the
    kitchen's foods make, not objects to take, and are not looked up."""
    if not has_shortlist(item.ambiguity_type) or _MAKE_QUESTION.search(item.question):
        return None
    units = frozenset(singular(w) for u in ctx.config.units for w in words(u))
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    scene = Scene.of(item)
    shortlisted = [s.strip() for s in item.amb_shortlist if s.strip()]
    for variant in _variants(item):
        if not is_object_option(variant, units) or any(_matches(variant, s) for s in shortlisted):
            continue  # a shortlisted option the kitchen lacks is the shortlist's defect (``shortlist`` says it)
        if written_alike(variant, item.environment_short):
            continue  # the kitchen's own name written otherwise ("whole wheat" for "whole-wheat")
        toks, mentions = lexicon.scan(variant)
        things = [m for m in mentions if m.kind != "fixture" and (m.kind == "object" or m.food)]
        if not things or len(things) != len(mentions):
            continue  # a place, an appliance or a word the lexicon does not know: not certain
        for m in things:
            key = tuple(toks[m.start : m.end])
            if not (scene.grounds(key) or scene.describes(key) or kind_present(key, scene)):
                return variant
    return None


def _swapped(item: Item, ctx: RuleContext) -> tuple[str, str] | None:
    """A choice among objects whose variants offer an object the shortlist does not list while leaving out
    one it does ("glass cup" offered, "porcelain cup" shortlisted), while the shortlist holds the intended
    option: the variants are the list that is off. The offer must name a thing (see :func:`_names_a_thing`)."""
    if not has_shortlist(item.ambiguity_type):
        return None
    units = frozenset(singular(w) for u in ctx.config.units for w in words(u))
    shortlist = [s.strip() for s in item.amb_shortlist if s.strip() and is_object_option(s, units)]
    variants = [v for v in _variants(item) if is_object_option(v, units)]
    if len(shortlist) < 2 or len(variants) < 2 or len(variants) != len(_variants(item)):
        return None

    def same(a: str, b: str) -> bool:
        la, lb = content_lemmas(a) - _SIZES, content_lemmas(b) - _SIZES
        return _matches(a, b) or (bool(la) and bool(lb) and (la <= lb or lb <= la))

    positives, _ = intent_concepts(item.user_intent)
    if not any(same(o, a) for o in shortlist for alts in positives for a in alts):
        return None  # the shortlist misses the intent too: which list is wrong is for qa_fit to say
    # a kitchen object the shortlist leaves out (the glass plates beside its plastic and ceramic ones) makes the
    # shortlist the list that is short, not the variants; only an offer the kitchen lacks is the variants' own
    scene = Scene.of(item)
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    extra = [
        v
        for v in variants
        if not any(same(v, o) for o in shortlist) and not _in_kitchen(v, scene) and _names_a_thing(v, lexicon)
    ]
    left = [o for o in shortlist if not any(same(o, v) for v in variants)]
    # a swap offers a kin of the listed options, named by the same noun (red napkins beside blue ones, a pizza
    # cutter beside cookie cutters); an offer of another noun (a spoon among pans, a sprig of the rosemary)
    # says the two lists answer different questions or name one thing twice, and which is off is not certain
    kin = [v for v in extra if any(_same_head(v, o) for o in shortlist)]
    return (kin[0], left[0]) if kin and left else None


def _same_head(a: str, b: str) -> bool:
    """Two names of one kind of thing told apart by what stands before their noun ("red cloth napkins" and
    "blue cloth napkins", "pizza cutter" and "cookie cutters"). A name ending in another noun ("rosemary
    sprig" beside "fresh rosemary", "lime wedge" beside "limes") is the same thing in a portion or a form."""
    wa, wb = words(a), words(b)
    return bool(wa) and bool(wb) and len(wa) + len(wb) > 2 and lemma(wa[-1]) == lemma(wb[-1])


def _names_a_thing(option: str, lexicon: Lexicon) -> bool:
    """The option names a kitchen thing or food the lexicon knows. Variants may name the options by what each
    gives ("star / heart / triangles" for the cookie cutters and the knife that cut those shapes): a word of no
    thing is such a reading, not another object offered."""
    _, found = lexicon.scan(option)
    return any(m.kind != "fixture" for m in found)


def _in_kitchen(option: str, scene: Scene) -> bool:
    """The scene lists the option, names it in part ("glass" of the glass mug) or has a member of its kind."""
    key = key_of(re.sub(r"^(?:the|a|an)\s+", "", option.strip(), flags=re.I))
    return bool(key) and (scene.grounds(key) or scene.describes(key) or kind_present(key, scene))


def _one_option(item: Item) -> bool:
    """Three or more variants that are one option said again ("No, you cannot use the microwave ..." four
    times; "Place the vegetables in a mixing bowl" / "Put ... in a mixing bowl"): no choice is offered.
    Rewordings share every word but their function words, verbs of placing and generic words; numbers count
    ("1 orange" / "2 oranges" are options)."""
    variants = _variants(item)
    if len(variants) < 3:
        return False
    first = {words(v)[0] for v in variants if words(v)}
    if len(first) == 1 and first <= _YES_NO:
        return True  # every variant gives the same yes or no
    said = [frozenset(lemma(w) for w in words(v) if w not in FUNCTION_WORDS) - _GENERIC - _REWORDING for v in variants]
    return all(s == said[0] for s in said) and bool(said[0])


#: Verbs and adverbs a reworded variant changes without offering another option.
_REWORDING = frozenset(
    {"put", "place", "transfer", "pour", "add", "cannot", "not", "recommend", "recommended", "suitable", "safe"}
    | {"idea", "good", "practical", "cook", "cooking", "using", "can"}
)


def check_variants_suspect(item: Item, ctx: RuleContext) -> list[str]:
    """Variants that are each one of the intended things and nothing else ("Strawberries / Raspberries /
    Cherries" when all three are wanted): they offer no choice. With other things beside, the list is a
    multi-choice one, AmbiK's usual form, and variants that miss the intent's words while the answer is among
    them ("No, ..." for "No, use the kettle") name the intended option in other words: neither is suspected."""
    if not _set_split(item) and not _food_lost(item, ctx) and (lost := _concept_lost(item)):  # errors already
        # a warning: the intent often names a landmark or a detail beside the choice ("the open shelf above
        # the coffee machine", "paring knife, cutting board" for "Which knife?"), which no variant need offer
        return [
            f"variants: the intended '{lost}' is in none of them, though the intent wants it with the rest; "
            f"variants: {_listed(item)}"
        ]
    pieces = _pieces_offered(item)
    if pieces is not None and pieces[1]:  # a multi-choice list with other things beside is AmbiK's form
        said = ", ".join(pieces[0])
        return [
            f"variants: every one is a single intended thing ({said}), so none is the intended set and they "
            f"offer no choice; variants: {_listed(item)}"
        ]
    return []


def _listed(item: Item) -> str:
    shown = "; ".join(v.strip() for v in item.variants if v.strip())
    return shown if len(shown) <= 120 else shown[:119] + "…"


def check_cover(item: Item, ctx: RuleContext) -> list[str]:
    """The variants and the shortlist disagree on the whole choice: no shortlisted option is among the
    variants ("tomato sauce, pesto" shortlisted, "spaghetti / penne / fusilli" offered), so one of the two
    lists is off the question. AmbiK's variants often list only the likelier few of a long shortlist, so
    variants that leave some options out are not flagged; nor are shortlisted amounts ("2 liters", "one"),
    which are no option to offer (``shortlist`` reports them)."""
    variants = _variants(item)
    if not variants or not has_shortlist(item.ambiguity_type):
        return []
    units = frozenset(singular(w) for u in ctx.config.units for w in words(u))
    options = [s.strip() for s in item.amb_shortlist if s.strip() and not _amount(s, units)]
    if not options:
        return []
    said = [content_lemmas(v) - _SIZES for v in variants]
    if any(_matches(o, v) for o in options for v in variants) or any(_names(o, said) for o in options):
        return []
    return [f"variants: offer none of the shortlisted options ({', '.join(repr(o) for o in options)})"]


def _amount(option: str, units: frozenset[str]) -> bool:
    """An amount, not a thing: a number ("2 liters", "one") or a measure of something ("a teaspoon of oil")."""
    ws = words(option)
    measured = any(singular(w) in units for w, nxt in zip(ws, ws[1:], strict=False) if nxt == "of")
    return measured or bool(_numbers(option)) or any(c.isdigit() for c in option)


ORDER = 70  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule(
        "variants",
        "error",
        check_variants,
        "the variants answer the question and one of them is the intended option (or the intended set)",
    ),
    Rule("variants_suspect", "warning", check_variants_suspect, "the variants may not name the intended option"),
    Rule("variants_shortlist", "warning", check_cover, "the variants offer at least one shortlisted option"),
)
