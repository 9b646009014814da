"""Whether the answer takes up the choice the row offers. A row that lists options (its variants, its shortlist)
asks the user to pick one; an answer that says none of them and none of the intent, in any word it adds to the
question, answers something else ("Which wine?" "Two glasses, please."; "Where should I keep the bread?" "Bread
goes stale in about three days."). Read by meaning: the words the answer adds against the options' words, up to
inflection, word family and a letter's misspelling, and the kitchen's names for the same thing."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rapidfuzz.distance import OSA, Levenshtein

from ambiforge.catalog import cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import singular
from ambiforge.validation.language import classes, content_lemmas, is_content, is_number, words
from ambiforge.validation.lexicon import Lexicon, lexicon_for
from ambiforge.validation.rules.text import has, intent_concepts

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

#: A yes/no question: its answer takes a side, not an option (unless the question offers options with "or").
_YES_NO_QUESTION = re.compile(
    r"^\s*(?:\w+,\s*)?(?:can|could|should|shall|may|must|is|are|was|were|do|does|did|will|would|have|has)\b", re.I
)
_YES_NO_START = re.compile(r"^\W*(?:yes|no)\b", re.I)
#: Quotes around a phrase the question cites, taken off before reading it.
_QUOTED = re.compile(r"(?<=\w)'(?!\w)|(?<!\w)'(?=\w)")
#: Words that take up no option whatever the question: courtesy and hedges.
_EMPTY = frozenset({"please", "thanks", "thank", "fine", "okay", "ok", "sure", "just", "use", "go", "want", "like"})

#: Words by which an answer takes the options together ("Either is fine.", "Both."): not another thing.
_ALL_OR_ANY = frozenset({"both", "all", "either", "any", "whichever", "whatever", "neither", "none"})


#: Other names of one kitchen place, to its common name: "the refrigerator" is the fridge, "the hob" the stove.
_SAME_PLACE = {
    "refrigerator": "fridge",
    "hob": "stove",
    "cooktop": "stove",
    "stovetop": "stove",
    "stove top": "stove",
    "worktop": "counter",
    "countertop": "counter",
    "kitchen counter": "counter",
    "bin": "trash",
    "trash can": "trash",
    "garbage": "trash",
}
#: Names of a kind of which the common place is one: "the bin" is the trash, "the recycling bin" another bin.
_ALONE_ONLY = frozenset({"bin"})
#: Words before a name that leave it standing alone ("in the bin", "Bin it."): no modifier says which one.
_NO_MODIFIER = frozenset({"the", "a", "an", "in", "into", "to", "this", "that", "my", "your", "our", "its", "their"})


def _common_place(name: str, toks: list[str], start: int) -> str | None:
    """The common name of the place ``name`` says at ``toks[start]``; a name of a kind only standing alone."""
    place = _SAME_PLACE.get(name)
    if place is not None and name in _ALONE_ONLY and start > 0 and toks[start - 1].lower() not in _NO_MODIFIER:
        return None
    return place


def kitchen_names(lexicon: Lexicon, text: str) -> set[str]:
    """The kitchen things ``text`` names, a place's other name read as its common one ("the refrigerator door"
    names the fridge an option says), and the place a verb names by its doer ("Freeze it." names the freezer)."""
    toks, mentions = lexicon.scan(text)
    named = {_common_place(m.name, toks, m.start) or m.name for m in mentions}
    return named | set(place_names(text, lexicon))


def place_of_verb(word: str, lexicon: Lexicon) -> str | None:
    """The kitchen fixture named as the doer of the verb ``word`` ("freezer" of "freeze", "refrigerator" of
    "refrigerate"), else None."""
    if len(word) < 4 or "VERB" not in classes(word):
        return None
    for name in (word + "r", word + "er", word[:-1] + "or"):
        found = lexicon.entries.get((name,))
        if found is not None and found.kind == "fixture":
            return found.name
    return None


def _describing(word: str) -> bool:
    """An adjective, or a compound of words joined by hyphens that the dictionary does not hold ("see-through",
    "heat-proof"): English joins words so to make them one modifier."""
    return "ADJ" in classes(word) or ("-" in word and not classes(word))


def place_names(text: str, lexicon: Lexicon) -> list[str]:
    """The common names of the places ``text`` says by another name or by a verb ("fridge" of "In the
    refrigerator" and of "Refrigerate it"), for reading it beside a text that says the common name."""
    toks, mentions = lexicon.scan(text)
    places = [p for m in mentions if (p := _common_place(m.name, toks, m.start))]
    # names the lexicon does not hold ("hob", "worktop") are read word by word
    said = [w.lower() for w in words(text)]
    places += [p for i, w in enumerate(said) if (w,) not in lexicon.entries and (p := _common_place(w, said, i))]
    return places + [_SAME_PLACE.get(p, p) for w in words(text) if (p := place_of_verb(w.lower(), lexicon))]


#: One food's British and American names, read as one ("Coriander, please." for the intended cilantro). Only
#: names with one meaning on both sides: "chips" and "biscuits" name other foods in the other English.
_ONE_FOOD = {
    "coriander": "cilantro",
    "courgette": "zucchini",
    "courgettes": "zucchini",
    "aubergine": "eggplant",
    "aubergines": "eggplant",
    "spring onion": "scallion",
    "spring onions": "scallions",
    "garbanzo bean": "chickpea",
    "garbanzo beans": "chickpeas",
    "icing sugar": "powdered sugar",
    "confectioners' sugar": "powdered sugar",
    "prawn": "shrimp",
    "prawns": "shrimp",
    "rocket": "arugula",
    "caster sugar": "superfine sugar",
    "minced beef": "ground beef",
    "beetroot": "beet",
}
_ONE_FOOD_NAME = re.compile(
    r"\b(?:" + "|".join(sorted(map(re.escape, _ONE_FOOD), key=len, reverse=True)) + r")\b", re.I
)


def one_food_names(text: str) -> str:
    """``text`` with a food's British name put as its American one ("the courgette" -> "the zucchini")."""
    return _ONE_FOOD_NAME.sub(lambda m: _ONE_FOOD[m.group(0).lower()], text)


def _lemmas(text: str) -> frozenset[str]:
    return content_lemmas(_QUOTED.sub(" ", one_food_names(text).replace("|", " ")))


def _near(word: str, others: frozenset[str]) -> bool:
    """The word, one of its family ("freeze" / "freezer") or a misspelling of it ("oragne") is among ``others``."""
    if word in others:
        return True
    if len(word) < 4:
        return False
    return any(
        len(o) >= 4
        and (
            o.startswith(word[:5])
            or word.startswith(o[:5])
            or OSA.distance(word, o) <= 1
            or (min(len(word), len(o)) >= 6 and Levenshtein.distance(word, o) <= 2)
        )
        for o in others
    )


def says(text: str, concept: str) -> bool:
    """``text`` says ``concept``: as written, or every content word of it up to inflection, word family and a
    misspelling, in any order ("The fork on the left" says 'fork left'; "the mapple syrop" says 'maple
    syrup')."""
    if has(text, concept):
        return True
    wanted = _lemmas(concept)
    said = _lemmas(text) | frozenset(words(text))
    return bool(wanted) and all(_near(w, said) for w in wanted)


#: Determiners after which "all" or "both" quantifies a thing of its own ("all the brown bits").
_DETERMINERS = frozenset({"the", "these", "those", "my", "your"})
#: Words that stand for the options themselves after "all the", "both the" ("all the ones", "both the options").
_OPTION_WORDS = frozenset({"one", "ones", "option", "options", "kind", "kinds", "type", "types", "of", "them"})


def _takes_together(answer: str, known: frozenset[str]) -> bool:
    """The answer takes the options together ("Either is fine.", "Both, please.", "All of them."): a
    quantifier not followed by a determiner and a word of something else. "Scrape up all the brown bits"
    quantifies the bits, a thing neither the question nor the options name, so it takes up no option."""
    ws = [w.lower() for w in words(answer)]
    for i, w in enumerate(ws):
        if w not in _ALL_OR_ANY:
            continue
        after = ws[i + 1 : i + 3]
        if len(after) == 2 and after[0] in _DETERMINERS and after[1] not in known | _OPTION_WORDS:
            continue
        return True
    return False


def _options(item: Item) -> list[str]:
    """The options the row offers: its variants and its shortlist, yes/no variants aside."""
    return [o.strip() for o in (*item.variants, *item.amb_shortlist) if o.strip() and not _YES_NO_START.match(o)]


def _has_number(text: str, besides: frozenset[str] = frozenset()) -> bool:
    return any(is_number(w) and w not in _NOT_COUNTS | besides for w in words(text))


_NOT_COUNTS = frozenset({"a", "an", "some", "more", "less"})


#: "Which bowl ...?", "What kind of cheese ...?": the noun a which-question asks for.
_WHICH = re.compile(
    r"\b(?:which|what)\s+(?:(?:specific|type|types|kind|kinds|sort|variety)\s+(?:of\s+)?)*([a-z-]+)", re.I
)


def _options_off_question(question: str, answer: str, options: list[str]) -> bool:
    """The question asks which X, the answer names an X and no option does ("Which bowl?" "The glass bowl."
    over options that are places): the options, not the answer, miss the question."""
    m = _WHICH.search(question)
    if m is None:
        return False
    asked = _lemmas(m.group(1))
    return bool(asked) and asked <= _lemmas(answer) and not any(asked <= _lemmas(o) for o in options)


def takes_no_option(item: Item, ctx: RuleContext) -> list[str]:
    """The options (two or more), when the answer takes up none of them nor the intent: no word it adds to the
    question is an option's or an intent concept's (or of their family, or one letter off), no kitchen thing
    it names is one the options name, and it gives no number where an option or the intent is a number.
    A yes/no question is left alone unless it offers options with "or" (its answer may take a side in any
    words), as is an answer that only repeats the question ("The wine.")."""
    question, answer = item.question.strip(), item.answer.strip()
    if not question or not answer:
        return []
    if _YES_NO_QUESTION.match(question) and not re.search(r"\bor\b", question, re.I):
        return []
    options = _options(item)
    if len(options) < 2:
        return []
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()] + [n for n in negatives if n.strip()]
    asked = _lemmas(question) | frozenset(words(question))
    if any(has(answer, c) for c in concepts) or _takes_together(
        answer, asked | frozenset(words(" ".join((*options, *concepts))))
    ):
        return []
    said = (_lemmas(answer) | {w for w in words(answer) if is_content(w)}) - asked - _EMPTY
    if not said:
        return []
    if _options_off_question(question, answer, options):
        return []  # the options answer another question: the variants' or the shortlist's defect
    offered = frozenset().union(*(_lemmas(t) | frozenset(words(t)) for t in (*options, *concepts)))
    if any(_near(w, offered) for w in said):
        return []
    if _has_number(answer) and any(_has_number(t) for t in (*options, *concepts)):
        return []
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    named = kitchen_names(lexicon, answer) - kitchen_names(lexicon, question)
    if named & {n for t in (*options, *concepts) for n in kitchen_names(lexicon, t)}:
        return []
    if not named and not _has_number(answer, besides=frozenset({"one"})) and all(_describing(w) for w in said):
        return []  # a description ("The bubbly one.", "Something sweet.") may be an option in other words
    return options


#: A question that asks for a measure: a duration, a count, an amount, a temperature.
_MEASURE_QUESTION = re.compile(
    r"\bhow\s+(?:long|many|much|hot)\b|\b(?:what|which)\s+(?:\w+\s+)?(?:temperature|time|duration)\b", re.I
)


def gives_no_measure(item: Item, ctx: RuleContext) -> str | None:
    """The intended measure (a concept with a number: '8 hours', '180°C') when the question asks for a measure
    and the answer gives no number and no intent concept ("How long should the lamb cook?" "Until it is
    tender." with the intent '8 hours'): the answer does not give what the intent says it should."""
    question, answer = item.question.strip(), item.answer.strip()
    if not question or not answer or not _MEASURE_QUESTION.search(question):
        return None
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    measured = next((c for c in concepts if any(ch.isdigit() for ch in c)), None)
    if measured is None or _has_number(answer) or any(has(answer, c) for c in concepts):
        return None
    if _COUNT_WORDS & {w.lower() for w in words(answer)}:
        return None  # "A pair, please.", "A double portion.": a count in a word that is no numeral
    return measured


#: Words that give a count without a numeral.
_COUNT_WORDS = frozenset({"pair", "pairs", "double", "triple", "twice", "thrice", "single", "both"})


#: "..., or something else?": the question leaves its list open.
_OPEN_LIST = re.compile(r"\bor\s+(?:\w+\s+)?(?:else|other|another|something|somewhere|anything|anywhere)\b", re.I)


def _marks(options: list[str]) -> tuple[list[frozenset[str]], frozenset[str]]:
    """What tells each option from the others, and what they share: its words less those every option has
    ("udon" of "udon noodles" beside "ramen noodles")."""
    said = [_lemmas(o) for o in options]
    shared = frozenset.intersection(*said) if said else frozenset()
    return [s - shared for s in said], shared


def not_offered(item: Item, ctx: RuleContext) -> tuple[str, list[str]] | None:
    """(intended, offered): the question offers two options or more of the row's list with "or" ("Should I
    cook the ramen noodles or the rice noodles?"), the intent is another option of the list ('udon') and the
    answer names none of the offered ones: the question does not offer the choice the pair makes."""
    question = item.question
    if not re.search(r"\bor\b", question, re.I) or _OPEN_LIST.search(question):
        return None
    options = list(dict.fromkeys(o.lower() for o in _options(item)))
    if len(options) < 3:
        return None
    asked = _lemmas(question)
    marks, shared = _marks(options)
    offered = [o for o, m in zip(options, marks, strict=True) if m and m <= asked]
    rest = [(o, m) for o, m in zip(options, marks, strict=True) if m and not m & asked]
    if len(offered) < 2 or not rest:
        return None
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    if not concepts or any((_lemmas(c) - shared) & asked for c in concepts):
        return None
    if any(_lemmas(item.answer) >= m for o, m in zip(options, marks, strict=True) if o in offered):
        return None
    intended = [o for o, m in rest if all(_lemmas(c) & m for c in concepts)]
    return (intended[0], offered) if intended else None


_NEGATION = re.compile(r"\b(?:no|not|never|don'?t|without|instead|rather|except|but|nor)\b|n't\b", re.I)


def rules_out(answer: str) -> bool:
    """The answer negates or sets aside something: an option it names may be the one it rules out."""
    return _NEGATION.search(answer) is not None


def picks_another(item: Item, ctx: RuleContext) -> str | None:
    """The option the answer picks by what tells it from the others ("Almond, please." among almond, oat and
    soy milk) when the intent is another option and the answer says nothing of the intended one: the answer
    and the intent disagree. Whole names are ``qa_fit``'s other check; this reads the options' marks."""
    options = list(dict.fromkeys(o.lower() for o in _options(item)))
    if len(options) < 2:
        return None
    marks, _ = _marks(options)
    if not all(marks) or len(set(marks)) < len(marks):
        return None
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    if not concepts or any(has(item.answer, c) for c in concepts) or rules_out(item.answer):
        return None  # "No almond, please." names an option to rule it out
    wanted = frozenset().union(*(_lemmas(c) for c in concepts))
    intended = [i for i, m in enumerate(marks) if m & wanted]
    if not intended:
        return None
    said = _lemmas(item.answer) - _lemmas(" ".join(negatives))
    if any(marks[i] & said for i in intended):
        return None
    picked = [o for i, (o, m) in enumerate(zip(options, marks, strict=True)) if i not in intended and m <= said]
    return picked[0] if len(picked) == 1 else None


#: A question that asks what, which, where, how or when: its answer is not a side taken but a thing, a place,
#: a way or a time.
_WH_QUESTION = re.compile(r"^\s*(?:\w+,\s*)?(?:which|what|where|how|when)\b", re.I)


def answers_elsewhere(item: Item, ctx: RuleContext) -> list[str]:
    """The words the answer adds, when they take up nothing the row is about: a wh-question ("How should I
    reheat the pancakes?", "Which cold drink?") answered with words that are none of the question's or the
    ambiguous task's own, and none of them is of an intent concept, an option (variants, shortlist) or what the
    clear task adds to the ambiguous one (the open point said plainly), up to inflection, word family and a
    letter's misspelling ("Serve them with plenty of maple syrup."; "Just half a glass."; "Dark chocolate
    works best." for how to melt it). The clear task says the answer put into the ambiguous one, so an answer
    to the open point shares a word with it or with the intent; one that shares none answers another question.
    Not a question that asks a measure, nor an answer that says an intent concept whole, takes the options
    together ("Either is fine."), or gives a number where the intent is one."""
    question, answer = item.question.strip(), item.answer.strip()
    if not _WH_QUESTION.match(question) or _MEASURE_QUESTION.search(question) or not answer:
        return []  # a measure asked: an amount in any words answers it (``wrong_kind``, ``gives_no_measure``)
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()] + [n for n in negatives if n.strip()]
    if not concepts or any(says(answer, c) or _says_what_it_adds(answer, c, question) for c in concepts):
        return []
    if _ALL_OR_ANY & set(words(answer)):
        return []
    known = _lemmas(question) | frozenset(words(question)) | _lemmas(item.ambiguous_task)
    known |= frozenset(words(item.ambiguous_task))
    said = (_lemmas(answer) | {w for w in words(answer) if is_content(w)}) - known - _EMPTY
    if not said or all(_describing(w) for w in said):
        return []  # a description ("The sharp one.") may be the intended thing in other words
    if (which := _WHICH.search(question)) and (asked := _lemmas(which.group(1))) and asked <= _lemmas(answer):
        return []  # "Which knife?" "Use the knife on the board.": an answer of the kind asked for
    added = _lemmas(item.unambiguous_direct) - _lemmas(item.ambiguous_task)
    if any(_near(w, added) for w in _lemmas(answer) | {w for w in words(answer) if is_content(w)}):
        return []  # the answer says the open point as the clear task does ("very brown" for "How brown ...?")
    options = [o.strip() for o in (*item.variants, *item.amb_shortlist) if o.strip()]
    about = frozenset().union(*(_lemmas(t) | frozenset(words(t)) for t in (*options, *concepts)))
    if any(_near(w, about) for w in said):
        return []
    if _has_number(answer) and any(_has_number(c) for c in concepts):
        return []  # an amount in other words ("a quarter hour" for '15 minutes')
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    named = kitchen_names(lexicon, answer)
    named -= {n for t in (question, item.ambiguous_task) for n in kitchen_names(lexicon, t)}
    if named & {n for t in (*options, *concepts) for n in kitchen_names(lexicon, t)}:
        return []
    return sorted(said)


#: Words that add nothing of a concept to the question: articles, "of", "and".
_BARE = frozenset({"a", "an", "the", "of", "some", "and", "or", "to", "with"})


def _says_what_it_adds(answer: str, concept: str, question: str) -> bool:
    """The answer says every word the intended concept adds to the question ('down' of 'blades down' for "Which
    way should the knife blades point?" "Down, so nobody cuts a hand."): the question says the rest, so the
    answer names the intent, even by a word that is no noun or verb ("down", "off", "over")."""
    asked = {singular(w.lower()) for w in words(question)}
    rest = {singular(w.lower()) for w in words(concept)} - asked - _BARE
    return bool(rest) and rest <= {singular(w.lower()) for w in words(answer)}


def says_nothing_of_intent(item: Item, ctx: RuleContext) -> list[str]:
    """The intent's concepts when the answer says not one word of any of them, in any inflection, family or
    spelling, nor names a kitchen thing an intent concept names, nor takes the options together: "Which drink
    would you like?" "Something cold, please." with the intent 'iced tea'; "What should I use to shred the
    carrots?" "Two carrots are enough." with 'grater'. An answer that gives the choice says at least a word of
    it (a shortened name such as "The glass bottle." for 'glass milk bottle' does), so one that says none
    answers something else. Left alone: a yes or a no to a yes/no question that offers no "or" (a side taken
    answers it), an answer that rules something out ("Never straight from the fridge."), a measure question,
    a number where an intent concept is one, and a description ("The sharp one.") unless the ambiguous task
    already gives it ("Something cold." for "something cold to drink")."""
    question, answer = item.question.strip(), item.answer.strip()
    if not question or not answer or _MEASURE_QUESTION.search(question):
        return []  # an amount in any words answers a measure question (``wrong_kind``, ``gives_no_measure``)
    if _YES_NO_QUESTION.match(question) and not re.search(r"\bor\b", question, re.I) and _YES_NO_START.match(answer):
        return []  # a yes or a no takes a side
    if rules_out(answer):
        return []  # "No grape, please.": ruling an option out may leave the intended one
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()] + [
        n.strip() for n in negatives if n.strip()
    ]
    wanted = frozenset().union(*(_lemmas(c) | {w for w in words(c) if is_content(w)} for c in concepts))
    if not wanted:
        return []
    said = _lemmas(answer) | frozenset(w.lower() for w in words(answer))
    if any(_near(w, said) for w in wanted) or any(has(answer, c) for c in concepts):
        return []
    if any(_says_what_it_adds(answer, c, question) for c in concepts):
        return []  # "Down." for 'blades down' when the question says the blades
    if _has_number(answer) and any(_has_number(c) for c in concepts):
        return []  # an amount in other units
    if _takes_together(answer, frozenset(words(" ".join((question, *_options(item), *concepts))))):
        return []
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    named = kitchen_names(lexicon, answer)
    if named & {n for c in concepts for n in kitchen_names(lexicon, c)}:
        return []
    added = {w for w in _lemmas(answer) | {w for w in words(answer) if is_content(w)} if w not in _EMPTY}
    added -= _lemmas(question) | frozenset(words(question))
    if added and all(_describing(w) for w in added) and not added <= _lemmas(item.ambiguous_task):
        return []  # a description ("The sharp one.") may be the intent in other words, unless the task says it
    return concepts


def offers_only_other_variants(item: Item) -> tuple[list[str], list[str]] | None:
    """(the variants, the intent's concepts) when the question offers with "or" exactly what the variants list
    (every content word of each variant is in the question: "with the butter knife or with my fingers" over
    the variants butter knife / fingers), while no intent concept is a variant or said by one, the question
    says none of the intent, and the answer takes up no variant ("Unplug the toaster first, then shake it
    out."). The row asks a choice its intended option is not in: the answer goes around the question."""
    question = item.question
    if not re.search(r"\bor\b", question, re.I):
        return None
    variants = [v.strip() for v in item.variants if v.strip() and not _YES_NO_START.match(v)]
    asked = content_lemmas(question)
    if len(variants) < 2 or not all((said := content_lemmas(v)) and said <= asked for v in variants):
        return None
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    if not concepts or any(says(v, c) or says(c, v) for v in variants for c in concepts):
        return None
    if any(says(question, c) for c in concepts) or any(says(item.answer, v) for v in variants):
        return None
    return variants, concepts
