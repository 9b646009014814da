"""What kind of answer a question asks for, and whether the answer is of that kind. A "where" question wants a
place, a container or an appliance; a "how many / how much" question an amount; a yes/no question a yes, a
no, or a statement about what it asks. These read the answer's meaning (spatial words, the kitchen's things,
numbers and measures, the question's own words), not the wording of any row, so they hold for rows written
in another hand."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ambiforge.catalog import Catalog, cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import CARDINALS, singular
from ambiforge.validation.language import FUNCTION_WORDS, classes, content_lemmas, positions, words
from ambiforge.validation.lexicon import Lexicon, Mention, kitchen_words, lexicon_for
from ambiforge.validation.rules.answer_choice import place_of_verb, rules_out, says
from ambiforge.validation.rules.text import has_any, intent_concepts, normalise

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

_WHERE = re.compile(r"^\s*(?:\w+,\s*)?where\b", re.I)
#: Words that place a thing: a preposition of place or a direction.
_SPATIAL = frozenset(
    {"in", "on", "into", "onto", "at", "under", "underneath", "beneath", "near", "next", "beside", "inside"}
    | {"from", "to", "by", "above", "over", "behind", "within", "out", "top", "left", "right", "back", "front"}
    | {"there", "here", "between", "around", "across", "below", "outside", "upon", "away", "aside", "off"}
)
#: "How many ...?", "How much sugar ...?": a question whose answer is an amount ("How much should I heat it?"
#: may want a degree, so "how much" counts only before a noun phrase).
_HOW_MANY = re.compile(r"\bhow\s+many\b|\bhow\s+much\s+(?!(?:should|shall|do|does|can|will|would|is|are)\b)\w", re.I)
#: Words that say an amount without a number ("a cup", "half", "equal parts", "all of them", "to taste").
_AMOUNT_WORDS = frozenset(
    {"a", "an", "half", "quarter", "third", "few", "couple", "dozen", "some", "all", "every", "each", "little"}
    | {"lot", "lots", "enough", "handful", "pinch", "dash", "splash", "drizzle", "single", "both", "none", "whole"}
    | {"more", "less", "fewer", "same", "entire", "several", "equal", "part", "amount", "taste", "much", "many"}
    | {"double", "twice", "triple", "extra", "no", "any", "only", "just", "rest", "remaining", "bit", "spoonful"}
    | {"full", "fill", "cover", "covered", "coat", "until", "up", "level"}  # an amount by where it reaches
)
_YES_NO_QUESTION = re.compile(
    r"^\s*(?:\w+,\s*)?(?:can|could|should|shall|may|must|is|are|was|were|do|does|did|will|would|have|has)\b", re.I
)
#: An answer that takes a side on a yes/no question: yes, no, or a word that affirms, denies or limits.
_SIDE = re.compile(
    r"\b(?:yes|yeah|yep|no|nope|sure|not|never|don't|dont|shouldn't|can't|cannot|avoid|only|always|just"
    r"|absolutely|definitely|certainly|of course|okay|ok|please|fine|either|neither|both|instead|rather)\b",
    re.I,
)


def wrong_kind(item: Item, ctx: RuleContext) -> str | None:
    """Why the answer is not of the kind its question asks for, or None."""
    question, answer = item.question.strip(), item.answer.strip()
    if not question or not answer:
        return None
    if _WHERE.match(question) and (why := _no_place(question, answer, ctx) or _names_nothing(item, ctx)):
        return why
    if _HOW_MANY.search(question) and _no_amount(answer, ctx):
        return "the question asks how many or how much, and the answer gives no amount"
    if other := _no_asked_kind(item, ctx):
        return other
    if (
        _YES_NO_QUESTION.match(question)
        and not re.search(r"\bor\b", question, re.I)
        and _no_side(question, answer)
        and _only_things(answer, ctx)
    ):
        return "the question asks a yes or no, and the answer says neither nor anything of what it asks"
    return None


def _no_place(question: str, answer: str, ctx: RuleContext) -> str | None:
    """A "where" answer with no word of place that is a yes or no, names only foods ("Where should I store
    the eggs?" "Gouda cheese."), or only an amount ("Two cups."): no place, container or appliance is given.
    An answer naming a thing that holds or heats ("the stockpot", "use a cup") gives the place by its holder,
    and when the question puts a food into another ("Where should I add the cheese?"), a food other than the
    one placed may be that dish ("The pasta.")."""
    said = words(answer)
    if not said or _places(said):
        return None
    if all(_is_amount_word(w, ctx) or w in _FILLER for w in said) and any(_is_number(w) for w in said):
        return "the question asks where, and the answer gives an amount, no place"
    _, found = lexicon_for(ctx.catalog or cached_catalog("")).scan(answer)
    if said[0] in {"yes", "no", "yeah", "nope"}:
        return "the question asks where, and the answer is a yes or no with no place"
    catalog = ctx.catalog or cached_catalog("")
    asked = {_group_of(m.name, catalog) or m.name for m in lexicon_for(catalog).scan(question)[1]}
    into_food = _INTO_FOOD.search(question) is not None  # "Where should I add the cheese?" "The pasta."
    if found and all(m.food and (not into_food or (_group_of(m.name, catalog) or m.name) in asked) for m in found):
        names = ", ".join(sorted({m.text for m in found}))
        return f"the question asks where, and the answer names only food ({names}), no place"
    return None


#: Words that say a place without a thing: "somewhere cool", "anywhere dry".
_SOMEWHERE = frozenset({"somewhere", "anywhere", "wherever", "elsewhere", "everywhere", "nowhere", "where"})


def _names_nothing(item: Item, ctx: RuleContext) -> str | None:
    """A "where" answer with no word of place that names nothing a thing can be put in or on: no kitchen
    thing, no object of the row's kitchen by its noun ("Knock it firmly until it comes out"): it says how,
    not where."""
    said = words(item.answer)
    if not said or _places(said) or _SOMEWHERE & set(said):
        return None
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    if lexicon.scan(item.answer)[1] or _verb_of_place(said, lexicon):
        return None
    heads = {singular(ws[-1]) for o in item.environment if (ws := words(o.name))}
    if heads & {singular(w) for w in said}:
        return None
    return "the question asks where, and the answer names no place and no thing to put it in or on"


def _verb_of_place(said: list[str], lexicon: Lexicon) -> bool:
    """A verb whose agent noun is a kitchen place says where ("Refrigerate it." of the refrigerator, "Freeze
    them." of the freezer): the thing that does what the verb says is where the food goes."""
    return any(place_of_verb(w, lexicon) for w in said)


#: Words between a preposition and a count it may take ("in about three days").
_BEFORE_COUNT = frozenset({"about", "around", "approximately", "roughly", "under", "over", "less", "than", "a", "an"})
#: What a preposition may take that is no place: a time ("in three days", "in a minute") or a shape ("in one piece").
_NO_PLACE = frozenset({"second", "minute", "hour", "day", "week", "month", "year", "moment", "while", "piece", "half"})
#: Words that are a verb's particle when no noun follows ("it comes out", "put them away").
_PARTICLES = frozenset({"out", "off", "up", "away", "over", "back", "around", "down", "by", "in", "on", "aside"})


def _places(said: list[str]) -> bool:
    """Some word of place in the answer says where: a preposition taking a thing ("in the box", "on top"), or a
    word of place alone ("there", "outside"); not one taking a time or a count ("in about three days", "in one
    piece") nor a verb's particle ("until it comes out")."""
    for i, word in enumerate(said):
        if word not in _SPATIAL:
            continue
        rest = said[i + 1 :]
        while rest and rest[0] in _BEFORE_COUNT:
            rest = rest[1:]
        if rest and _is_number(rest[0]):
            rest = rest[1:]
        if rest and singular(rest[0]) in _NO_PLACE:
            continue
        if word in _PARTICLES and (not rest or rest[0] in FUNCTION_WORDS and rest[0] not in _DETERMINERS | {"of"}):
            continue
        return True
    return False


_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "my", "your", "its", "their", "our"})


#: Verbs that put a food into or onto another food: a where-answer naming a food may name that dish.
_INTO_FOOD = re.compile(
    r"\b(?:add|adding|sprinkle|pour|spread|drizzle|top|mix|stir|combine|fold|dip|layer|stuff|fill|garnish|season)\b",
    re.I,
)
_FILLER = frozenset({"the", "of", "it", "them", "use", "add", "put", "about", "approximately", "around", "please"})


def _is_number(word: str) -> bool:
    return any(c.isdigit() for c in word) or word in CARDINALS


def _is_amount_word(word: str, ctx: RuleContext) -> bool:
    units = {singular(w) for u in ctx.config.units for w in words(u)}
    return _is_number(word) or word in _AMOUNT_WORDS or singular(word) in units


def _no_amount(answer: str, ctx: RuleContext) -> bool:
    """No number, no measure and no word of quantity ("a cup", "half", "all of them", "to taste")."""
    return not any(_is_amount_word(w, ctx) for w in words(answer))


def _no_side(question: str, answer: str) -> bool:
    """The answer takes no side (no yes, no, negation or limit) and shares no content word with the question
    ("Should I preheat the oven?" "The red bowl."): it answers another question. An answer that restates
    what is asked ("Preheat it to 180 degrees.") shares its words and says yes by them."""
    if _SIDE.search(answer):
        return False
    asked, said = content_lemmas(question), content_lemmas(answer)
    if not said:
        return False
    return not any(
        w in asked or any(len(w) >= 4 and len(a) >= 4 and (a.startswith(w[:4])) for a in asked) for w in said
    )


#: "Which knife ...?", "What type of cheese ...?": the kind of thing asked for, in the first one or two words.
_WHICH = re.compile(
    r"^\s*(?:\w+,\s*)?(?:which|what)\s+(?:(?:specific|type|types|kind|kinds|sort|variety)\s+(?:of\s+)?)?"
    r"([a-z]+(?:\s+[a-z]+)?)",
    re.I,
)


def _no_asked_kind(item: Item, ctx: RuleContext) -> str | None:
    """A "which X" question, X a kind of kitchen thing, whose answer names only kitchen things of other kinds,
    none of them an option of the shortlist or the variants ("Which knife should I use?" "The cutting board."):
    the answer is no X. The kinds come from the catalog (a group's noun, or a tag such as 'cookware'); an
    answer naming a thing the catalog does not place, or X itself, is left alone, and foods it names are what
    the thing holds."""
    m = _WHICH.match(item.question)
    if m is None:
        return None
    catalog = ctx.catalog or cached_catalog("")
    asked_words = words(m.group(1))
    things = [g for g in catalog.groups.values() if g.kind != "food"]  # a food asked for may be named many ways
    nouns = {g.noun for g in things}
    tags = {t for g in things for t in g.tags}
    candidates = [" ".join(asked_words), *asked_words[:1], *(singular(w) for w in asked_words[:1])]
    asked = next((c for c in candidates if c in nouns or c in tags), None)
    if asked is None or asked in words(item.answer) or singular(asked) in map(singular, words(item.answer)):
        return None
    _, found = lexicon_for(catalog).scan(item.answer)
    kinds = []
    for mention in found:
        if mention.food:
            continue  # what goes in or on the thing asked for ("the bowl for the apples")
        obj = catalog.objects.get(mention.name)
        group = catalog.groups.get(obj.group if obj is not None else mention.name)
        if group is None:
            return None  # a thing the catalog does not place may be of the asked kind
        kinds.append((mention.text, group.noun == asked or asked in group.tags))
    if not kinds or any(of_kind for _, of_kind in kinds):
        return None
    options = " ".join(s for s in (*item.amb_shortlist, *item.variants) if s.strip()).lower()
    if any(text.lower() in options for text, _ in kinds):
        return None
    names = ", ".join(sorted({text for text, _ in kinds}))
    return f"the question asks which {asked}, and the answer names no {asked} and no option ({names})"


#: "..., or somewhere else?", "or anything else?": the question leaves its list open.
_OPEN_LIST = re.compile(r"\bor\s+(?:\w+\s+)?(?:else|other|another|something|somewhere|anything|anywhere)\b", re.I)


def outside_offered(item: Item, ctx: RuleContext) -> str | None:
    """An intent that is none of the things a question offers ("Should I put the eggs in the fridge or on the
    counter?" with the intent 'pantry'): the question names two kitchen things or more around an "or", and
    every intended concept names a kitchen thing that is none of them (nor of their group, nor shares a word
    with the question). The question then asks a choice the intent is not in."""
    question = item.question
    if not re.search(r"\bor\b", question, re.I) or _OPEN_LIST.search(question):
        return None
    catalog = ctx.catalog or cached_catalog("")
    lexicon = lexicon_for(catalog)
    toks, found = lexicon.scan(question)
    kinds = set(kitchen_words()["category"])
    offered = [m for m in found if m.name not in kinds and singular(m.name) not in kinds]
    ors = [i for i, t in enumerate(toks) if t == "or"]
    if not any(any(m.end <= i for m in offered) and any(m.start > i for m in offered) for i in ors):
        return None  # no kitchen thing on each side of an "or" ("utensils or appliances" are kinds)
    groups = {_group_of(m.name, catalog) for m in offered} - {None}
    asked = content_lemmas(question) - _shared_heads(toks, offered)
    positives, negatives = intent_concepts(item.user_intent)
    if not positives or _rules_out_offered(negatives, offered, lexicon):
        return None
    outside = None
    for alternatives in positives:
        for concept in (a for a in alternatives if a.strip()):
            _, named = lexicon.scan(concept)
            if not named or content_lemmas(concept) & asked:
                return None
            if any(m.text.lower() in question.lower() or _group_of(m.name, catalog) in groups for m in named):
                return None
            outside = outside or concept.strip()
    return outside


def _rules_out_offered(negatives: list[str], offered: list[Mention], lexicon: Lexicon) -> bool:
    """The intent rules out a thing the question offers ('-dishwasher' for "in the dishwasher or by hand?"):
    it takes the other side of the "or", and what it names besides (the sponge) is how that side is done."""
    names = {m.name for m in offered}
    return any(m.name in names for n in negatives if n.strip() for m in lexicon.scan(n)[1])


def _shared_heads(toks: list[str], offered: list[Mention]) -> frozenset[str]:
    """The word every offered thing is said before ("curry" of "the chicken curry or the beef curry"): the kind
    the options share, which another option of that kind ("lentil curry") also names."""
    after = [singular(toks[m.end]) for m in offered if m.end < len(toks) and toks[m.end] not in FUNCTION_WORDS]
    if len(after) < 2 or len(after) < len(offered) or len(set(after)) != 1:
        return frozenset()
    return content_lemmas(after[0])


def _group_of(name: str, catalog: Catalog) -> str | None:
    obj = catalog.objects.get(name)
    return obj.group if obj is not None else (name if name in catalog.groups else None)


def answer_other_thing(item: Item, ctx: RuleContext) -> tuple[str, str] | None:
    """(answered, intended): the answer names a catalog object of the same group as an intended one, but
    another one, and names no intended concept ("The glass mug." when the intent is the ceramic mug): the
    answer picks something other than the intent, listed as an option or not."""
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    if not concepts:
        return None
    catalog = ctx.catalog or cached_catalog("")
    lexicon = lexicon_for(catalog)
    answer = item.answer.lower()
    said = content_lemmas(item.answer)
    if any(c.lower() in answer or content_lemmas(c) <= said for c in concepts) or rules_out(item.answer):
        return None  # "Not the glass mug." names the object it rules out
    intended: dict[str, str] = {}
    for concept in concepts:
        for m in lexicon.scan(concept)[1]:
            if m.kind == "object" and (obj := catalog.objects.get(m.name)) is not None:
                intended.setdefault(obj.group, m.name)
    if not intended:
        return None
    for m in lexicon.scan(item.answer)[1]:
        obj = catalog.objects.get(m.name) if m.kind == "object" else None
        if obj is not None and obj.group in intended and obj.name not in intended.values():
            return m.text, intended[obj.group]
    return None


def asks_elsewhere(item: Item, ctx: RuleContext) -> list[str]:
    """The foods a question offers (two or more) when none of them is in either task or either plan (by
    name, by catalog group or by its words), while the clear task and its plan say none of the intent
    ("Almond milk or oat milk?" of a pair that uses no milk): the question asks about something the pair
    never leaves open. Tools are left alone (a task leaves the bowl or the knife implicit, and a question
    may ask for it), as are a question about what a phrase means or one that leaves its list open, and a
    pair whose two tasks are one."""
    question = item.question
    if _MEANING_OR_OPEN.search(question) or normalise(item.ambiguous_task) == normalise(item.unambiguous_direct):
        return []
    catalog = ctx.catalog or cached_catalog("")
    lexicon = lexicon_for(catalog)
    kinds = set(kitchen_words()["category"])
    asked = [m for m in lexicon.scan(question)[1] if m.name not in kinds and m.kind != "fixture"]
    if len(asked) < 2 or not all(m.food for m in asked):
        return []  # a tool the pair leaves implicit ("Which bowl should I heat it in?") may well be asked for
    pair = " \n ".join(
        (item.ambiguous_task, item.unambiguous_direct, *item.plan_for_clear_task, *item.plan_for_amb_task)
    )
    present = lexicon.scan(pair)[1]
    names = {m.name for m in present}
    groups = {_group_of(m.name, catalog) for m in present} - {None}
    said = content_lemmas(pair)
    if any(m.name in names or _group_of(m.name, catalog) in groups or content_lemmas(m.text) <= said for m in asked):
        return []
    clear = " \n ".join((item.unambiguous_direct, *item.plan_for_clear_task))
    in_clear = content_lemmas(clear)
    positives, _ = intent_concepts(item.user_intent)
    if not positives or any(
        has_any(clear, alts) or any((w := content_lemmas(a)) and w <= in_clear for a in alts) for alts in positives
    ):
        return []
    return sorted({m.text for m in asked})


#: "What does 'until done' mean?", "... or something else?": the question offers readings, not the pair's things.
_MEANING_OR_OPEN = re.compile(r"\bmean\b|\belse\b|\bother\b", re.I)


def _only_things(answer: str, ctx: RuleContext) -> bool:
    """The answer only names kitchen things, with their qualities ("The red bowl."): no verb or other word
    that could say yes or no in other words ("Carrots need a rinse.")."""
    toks, found = lexicon_for(ctx.catalog or cached_catalog("")).scan(answer)
    covered = {i for m in found for i in range(m.start, m.end)}
    if not covered:
        return False
    for i, word in enumerate(words(answer)):
        if i in covered or word in FUNCTION_WORDS:
            continue
        kinds = classes(word)
        if "ADJ" not in kinds or "VERB" in kinds:
            return False
    return True


def _named_things(text: str, names: list[str]) -> list[tuple[str, int, int]]:
    """The kitchen's things ``text`` names, each as (name, start, end) word positions, a longer name taking its
    words from a shorter one inside it ("glass cake stand", not "glass")."""
    found = sorted(((n, s, e) for n in names for s, e in positions(text, n)), key=lambda f: (f[1] - f[2], f[1]))
    out: list[tuple[str, int, int]] = []
    for name, start, end in found:
        if not any(start < e and s < end for _, s, e in out):
            out.append((name, start, end))
    return out


#: Words that may stand between "or" and the thing it offers ("or on the white platter").
_BEFORE_THING = frozenset({"the", "a", "an", "on", "in", "into", "onto", "with", "use", "to", "some", "just"})


#: How many modifier words may stand before the shared head of a thing the kitchen lacks ("the oat milk").
_MODIFIERS = 2


def _same_head_after(toks: list[str], j: int, before: list[str]) -> list[str]:
    """The thing offered right after an "or" that the kitchen lacks, read by the head it shares with the
    kitchen thing before the "or" ("the whole milk or the oat milk"): a few words ending in that head."""
    heads = {singular(words(n)[-1]) for n in before}
    for k in range(j, min(j + _MODIFIERS + 1, len(toks))):
        if singular(toks[k]) in heads:
            return [" ".join(toks[j : k + 1])] if k > j else []
        if toks[k] in FUNCTION_WORDS:
            return []
    return []


def _same_head_before(toks: list[str], i: int, after: list[str]) -> list[str]:
    """As :func:`_same_head_after`, for a thing the kitchen lacks before the "or" ("the oat milk or the
    whole milk"): the head right before the "or", with the modifier words before it."""
    heads = {singular(words(n)[-1]) for n in after}
    if i < 2 or singular(toks[i - 1]) not in heads:
        return []
    start = i - 1
    while start > 0 and i - start <= _MODIFIERS and toks[start - 1] not in FUNCTION_WORDS:
        start -= 1
    return [" ".join(toks[start:i])] if start < i - 1 else []


def answer_beside_offered(item: Item) -> tuple[str, list[str]] | None:
    """(what the answer names, what the question offers) when the question offers things of the kitchen with
    "or" ("Should I put the cupcakes on the glass cake stand or on the white ceramic platter?"), and the answer
    gives the intent by a kitchen thing none of them is ("Use the tiered cupcake stand."), naming none of the
    offered things: the intended option is not among those the question offers. Offered things are read
    around the "or" itself: one ends right before it and one begins right after it (past "on the"), so a
    question that offers two actions ("toast it or warm it in the oven") offers no things. The kitchen's names
    are the row's own, read whole before their parts."""
    question, answer = item.question, item.answer
    if not re.search(r"\bor\b", question, re.I) or _OPEN_LIST.search(question):
        return None
    names = list(dict.fromkeys(e.name.strip().lower() for e in item.environment if e.name.strip()))
    toks = [w.lower() for w in words(question)]
    asked = _named_things(question, names)
    offered: set[str] = set()
    for i in (i for i, t in enumerate(toks) if t == "or"):
        before = [n for n, _, e in asked if e == i]
        j = i + 1
        while j < len(toks) and toks[j] in _BEFORE_THING:
            j += 1
        after = [n for n, s, _ in asked if s == j]
        if before and not after:
            after = _same_head_after(toks, j, before)
        if after and not before:
            before = _same_head_before(toks, i, after)
        if before and after:
            offered |= {*before, *after}
    if len(offered) < 2:
        return None
    given = [n for n, _, _ in _named_things(answer, names)]
    if not given or any(n in offered or positions(question, n) for n in given):
        return None  # the answer names a thing the question names ("olive oil, sesame oil or soybean oil")
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    if not concepts or any(positions(o, c) or positions(c, o) for o in offered for c in concepts):
        return None  # the intent is one of the offered things
    said = [n for n in given if any(says(n, c) for c in concepts)]
    if not said:
        return None  # the answer names something else beside the intent
    return said[0], sorted(offered)
