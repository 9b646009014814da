"""intent: the correct action contains the positive concepts and none of the negative ones (AmbiK's
substring semantics, see ``text.has``, or every content word of the concept up to inflection: the rows are
written by people who reword); the answer names an intent concept and fits its question, and the question is
about what the two tasks differ by."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rapidfuzz.distance import Levenshtein

from ambiforge.models import Item
from ambiforge.textnorm import CARDINALS, singular
from ambiforge.validation.language import (
    FUNCTION_WORDS,
    classes,
    content_lemmas,
    is_verb_only,
    lemma,
    names_thing,
    positions,
    words,
)
from ambiforge.validation.rules.answer_choice import (
    answers_elsewhere,
    gives_no_measure,
    not_offered,
    offers_only_other_variants,
    picks_another,
    rules_out,
    says,
    says_nothing_of_intent,
    takes_no_option,
)
from ambiforge.validation.rules.answer_kind import (
    answer_beside_offered,
    answer_other_thing,
    asks_elsewhere,
    outside_offered,
    wrong_kind,
)
from ambiforge.validation.rules.base import Rule, family_rules
from ambiforge.validation.rules.item_type import check_type
from ambiforge.validation.rules.plan import LEFT_OPEN, MEASURES, specifics
from ambiforge.validation.rules.shortlist import is_object_option
from ambiforge.validation.rules.text import contains, has, has_any, intent_concepts, normalise

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

_YES_NO_QUESTION = re.compile(
    r"^\s*(?:\w+,\s*)?(?:can|could|should|shall|may|must|is|are|was|were|do|does|did|will|would|have|has)\b", re.I
)
_WH_QUESTION = re.compile(r"^\s*(?:\w+,\s*)?(?:which|what|where|how|who|whose|when)\b", re.I)
_YES_NO_START = re.compile(r"^\s*(?:yes|no)\b", re.I)
_YES_NO_ANSWER = re.compile(r"^\s*(?:yes|no|yeah|nope|sure)\b[\s,.!]*$", re.I)


def intent_findings(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    """(rule, message) per intent concept the clear task and plan never say, and per negated concept the
    resolving clear step has. A concept left unsaid is a defect a reader confirms (``intent``) only when the
    pair shows why: the clear task is the ambiguous one, or it changes more than the open point (it adds
    two things or more that neither the question, the answer nor the intent are about, and no word of the unsaid
    concept: "hot water ... halfway up" spells out a 'water bath'), or the clear plan itself leaves the choice
    open ("somewhere", "the chosen bowl"). Otherwise the clear task has only dropped the vague words ("cook
    until done" -> "cook") or says the answer in other words, and the finding is a suspicion (``intent_suspect``):
    the user_intent string may be what is off."""
    positives, negatives = intent_concepts(item.user_intent)
    if not positives and not negatives:
        return [("intent", "user_intent: empty; the correct action is not stated")]
    clear = " \n ".join([item.unambiguous_direct, *item.plan_for_clear_task])
    said = content_lemmas(clear)
    out = []
    unsaid = [alts for alts in positives if not has_any(clear, alts) and not any(_reworded(a, said) for a in alts)]
    resolved = _resolves(item, positives) or _partly_said(item, unsaid)
    why = _why_certain(item, positives, resolved) if unsaid else ""
    for alternatives in unsaid:
        rule = "intent" if why else "intent_suspect"
        out.append((rule, f"user_intent: '{'|'.join(alternatives)}' appears in neither the task nor its plan{why}"))
    eoa = item.end_of_ambiguity
    # The negated concept rules out an option at the ambiguous step ("-refrigerator": not into the fridge,
    # "-tomato": grate the carrot, not the tomato); the rest of the task and plan may still use it. A longer
    # name that holds the word is another thing ("-blender" and the immersion blender, "-toaster" and the
    # toaster oven): compound names resolve whole before their parts.
    resolving = " \n ".join(item.plan_for_clear_task[eoa : eoa + 1])
    for word in negatives:
        step = _without_source(_without_negated(_without_longer_names(resolving, word, item, positives), word), word)
        if has(step, word) and not any(has(word, a) for alts in positives for a in alts):
            message = f"user_intent: '-{word}' must not appear, but the clear step at end_of_ambiguity has it: "
            if _said_alike(item, word):
                # "-soak" while both tasks soak the boards: the step may do it to another thing than the asked one
                out.append(
                    (
                        "intent_suspect",
                        message + f"{resolving[:100]!r}; both tasks say '{word}' alike, so the step may use it for "
                        "another thing than the one the question is about",
                    )
                )
            else:
                out.append(("intent", message + f"{resolving[:100]!r}"))
    return out


def _said_alike(item: Item, word: str) -> bool:
    """The clear task says the negated word, and as often as the ambiguous task: what the pair resolves is not
    whether the word is done at all, so a step that says it ("put the boards in the sink to soak" while the
    intent '-soak' is about the knives) may be about another thing."""
    times = _times(item.unambiguous_direct, word)
    return times > 0 and times == _times(item.ambiguous_task, word)


def _times(text: str, word: str) -> int:
    target = word.strip().lower()
    return len(re.findall(rf"(?<![\w-]){re.escape(target)}(?![\w-])", text.lower())) if target else 0


#: Where a step takes something from: "from the aluminum tray", "out of the can".
_FROM = r"\b(?:from|out\s+of|off)\s+(?:(?:the|a|an|its|their|this|that)\s+)?"


def _without_source(step: str, word: str) -> str:
    """``step`` without the negated word where it says where something is taken from ("Spoon the dip from the
    aluminum tray into the ceramic bowl" for '-aluminum'): the step moves it away, as the intent asks."""
    target = word.strip()
    if not target:
        return step
    return re.sub(_FROM + rf"(?:[\w-]+\s+){{0,2}}?{re.escape(target)}\b[\w-]*", " ", step, flags=re.I)


_SOMEWHERE = re.compile(
    r"\bsomewhere\b|\b(?:the|a|an) (?:chosen|selected|desired|preferred|suitable|appropriate) "
    r"(?!amount|temperature|time|heat|setting|size|consistency|length|way)",
    re.I,
)


#: A word that rules out what follows it in its clause ("without letting it boil", "do not refrigerate").
_NEGATION = re.compile(r"\b(?:without|not|never|no|don't|do not|avoid|avoiding|instead of|rather than)\b[^,;.]*", re.I)


def _without_negated(step: str, word: str) -> str:
    """``step`` with the clauses that rule ``word`` out taken out: a step that says "without letting it boil"
    does what the intent '-boil' asks."""
    target = word.strip().lower()
    return _NEGATION.sub(lambda m: " " if target and target in m.group(0).lower() else m.group(0), step)


def _without_longer_names(step: str, word: str, item: Item, positives: list[list[str]]) -> str:
    """``step`` with every longer name that holds ``word`` taken out: the positive intent's alternatives and
    the kitchen's things ("immersion blender" for "blender")."""
    names = {a for alts in positives for a in alts} | {o.name for o in item.environment}
    names |= {n.strip() for n in item.environment_short.split(",")}
    target = word.strip().lower()
    for name in sorted(names, key=len, reverse=True):
        name = name.strip().lower()
        if len(name) > len(target) and contains(name, target):
            step = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", step, flags=re.I)
    return step


def _resolves(item: Item, positives: list[list[str]]) -> bool:
    """The clear task itself adds an intent concept the ambiguous task lacks ("until it reaches 165°F" for
    "until they look ready"): it resolves the open point, and a concept it leaves unsaid is more of the answer
    ("juices run clear"), not the choice left open."""
    clear, amb = item.unambiguous_direct, item.ambiguous_task
    said, amb_said = content_lemmas(clear), content_lemmas(amb)
    return any(
        (has(clear, a) or _reworded(a, said)) and not (has(amb, a) or _reworded(a, amb_said))
        for alts in positives
        for a in alts
    )


def _partly_said(item: Item, unsaid: list[list[str]]) -> bool:
    """The clear task adds, beside the ambiguous one, a content word of an intent concept it does not say whole
    ("set in the baking dish with hot water poured halfway up" for 'water bath'): it says the intended option in
    its own words, and what it adds around that word is the option spelt out, not another task."""
    added = content_lemmas(item.unambiguous_direct) - content_lemmas(item.ambiguous_task)
    return any(content_lemmas(a) & added for alts in unsaid for a in alts)


def _why_certain(item: Item, positives: list[list[str]], resolved: bool = False) -> str:
    """Why an unsaid intent is a defect of the pair, or "" when nothing shows it is. ``resolved`` (see
    :func:`_resolves`): what the clear task adds beside the open point does not make it another task."""
    if normalise(item.ambiguous_task) == normalise(item.unambiguous_direct):
        return " (the clear task is the ambiguous one)"
    about = content_lemmas(" ".join([item.question, item.answer, *(a for alts in positives for a in alts)]))
    extra = [w for w in specifics(item) if w not in about]
    # one added word is often the vague words said plainly ('until done' -> 'in the oven')
    if len(extra) >= 2 and not resolved:
        shown = ", ".join(f"'{w}'" for w in extra[:3])
        return f" (the clear task changes more than the open point: it adds {shown})"
    for i, step in enumerate(item.plan_for_clear_task):
        if (m := LEFT_OPEN.search(step) or _SOMEWHERE.search(step)) and not LEFT_OPEN.search(item.unambiguous_direct):
            return f" (plan_for_clear_task[{i}] leaves it open: '{m.group(0).strip()}')"
    return ""


def _reworded(concept: str, said: frozenset[str]) -> bool:
    """Every content word of the concept is in the text up to inflection and order ('penne pasta' in "Cook
    penne ... add pasta", 'canned corn' in "the cans of corn", 'one tablespoon' in "a tablespoon"): the
    intent is stated, only not as AmbiK's literal substring. Concepts of numbers or units alone ('6|six',
    '°F') must appear literally."""
    wanted = content_lemmas(concept)
    return bool(wanted) and wanted <= said


def check_answer(item: Item, ctx: RuleContext) -> list[str]:
    """A suspicion: the answer says no intent concept, not even in other order, inflection or spelling. Not a
    yes or a no to a yes/no question that offers no options ("No, only those three."): a side taken answers it,
    whatever the intent's keywords ("The bowl or the plate?" "Yes." does not)."""
    question = item.question
    if (
        _YES_NO_QUESTION.match(question)
        and not re.search(r"\bor\b", question, re.I)
        and _YES_NO_START.match(item.answer)
    ):
        return []
    positives, negatives = intent_concepts(item.user_intent)
    concepts = [a for alts in positives for a in alts] + negatives
    if concepts and not any(says(item.answer, c) for c in concepts):
        return [f"answer: mentions no intent concept ({', '.join(concepts)}), so it may not resolve the question"]
    return []


def check_fit(item: Item, ctx: RuleContext) -> list[str]:
    """The answer answers the question: not empty, not a question itself, not the question repeated, and not
    a bare yes/no to a which/what question."""
    question, answer = item.question.strip(), item.answer.strip()
    if not answer:
        return ["answer: empty"]
    if not question:
        return ["question: empty"]
    if normalise(answer) == normalise(question):
        return ["answer: repeats the question"]
    if answer.endswith("?") and not _YES_NO_QUESTION.match(question) and not _offers_intent(item):
        return [f"answer: is itself a question: {answer!r}"]
    if _WH_QUESTION.match(question) and _YES_NO_ANSWER.match(answer):
        return [f"answer: a bare {answer!r} does not answer a {question.split()[0].lower()}-question"]
    if kind := wrong_kind(item, ctx):
        return [f"answer: {kind}: {answer[:80]!r}"]
    if measure := gives_no_measure(item, ctx):
        return [
            f"answer: gives no amount, while the question asks for one and the intent is {measure!r}: {answer[:80]!r}"
        ]
    if plan := _intent_as_plan(item):
        return [f"user_intent: reads as a plan, not the intended option: {plan[:80]!r}"]
    if other := _other_option(item):
        return [f"answer: picks the option {other!r}, not the intended one ({', '.join(item.user_intent)})"]
    if other := picks_another(item, ctx):
        return [f"answer: picks the option {other!r} by its mark, not the intended one ({', '.join(item.user_intent)})"]
    if picked := answer_other_thing(item, ctx):
        return [f"answer: picks {picked[0]!r}, another of the kind the intent names ({picked[1]!r})"]
    if options := takes_no_option(item, ctx):
        shown = ", ".join(repr(o) for o in list(dict.fromkeys(o.lower() for o in options))[:4])
        return [f"answer: takes up none of the options ({shown}) nor the intent: {answer[:80]!r}"]
    if added := answers_elsewhere(item, ctx):
        return [
            f"answer: takes up nothing the row is about (no word of the intent, the options or what the clear "
            f"task adds): it adds {', '.join(repr(w) for w in added[:4])}: {answer[:80]!r}"
        ]
    if said := _intent_off_answer(item):
        return [
            f"user_intent: {', '.join(item.user_intent)!r} is not what the answer says: the answer names "
            f"{', '.join(repr(w) for w in said[:3])}, which the clear task adds"
        ]
    if both := _clear_uses_every_option(item):
        return [
            f"answer: picks {both[0]!r} of the question's options, while the clear task uses them all "
            f"({', '.join(repr(o) for o in both[1])}): the clear task is not the ambiguous one with the answer put in"
        ]
    if counted := _counts_another_thing(item):
        return [
            f"question: asks how many {counted[0]}, while the clear task adds the count of something else "
            f"({counted[1]!r})"
        ]
    if echoed := _intent_in_question(item):
        return [
            f"user_intent: '{echoed}' is what the question already says, not an answer to it; the answer "
            f"{item.answer.strip()[:60]!r} says what the intent should"
        ]
    if offered := outside_offered(item, ctx):
        return [f"user_intent: '{offered}' is none of the things the question offers: {question[:80]!r}"]
    if beside := answer_beside_offered(item):
        return [
            f"answer: gives the intent by '{beside[0]}', none of the things the question offers "
            f"({', '.join(repr(o) for o in beside[1])}): {question[:80]!r}"
        ]
    if other := not_offered(item, ctx):
        return [
            f"question: offers {' or '.join(repr(o) for o in other[1])}, while the intent is another option of "
            f"the list ({other[0]!r}): {question[:80]!r}"
        ]
    if around := offers_only_other_variants(item):
        return [
            f"question: offers {' or '.join(repr(v) for v in around[0])}, as the variants do, and the intent "
            f"({', '.join(around[1])}) is none of them, nor does the answer take one up: {answer[:80]!r}"
        ]
    if elsewhere := asks_elsewhere(item, ctx):
        return [
            f"question: asks about {', '.join(repr(w) for w in elsewhere)}, which neither task nor plan "
            f"mentions, and the clear task says none of the intent ({', '.join(item.user_intent)})"
        ]
    if outside := _outside_options(item, ctx):
        shown = ", ".join(s.strip() for s in item.amb_shortlist if s.strip())
        return [f"user_intent: '{outside}' is none of the options ({shown})"]
    if unsaid := says_nothing_of_intent(item, ctx):
        return [
            f"answer: says no word of the intent ({', '.join(unsaid)}), so it gives another answer: {answer[:80]!r}"
        ]
    return []


def _offers_intent(item: Item) -> bool:
    """The answer says an intent concept, or every word of it the question does not say, whatever its mood:
    "How about the glass one?", "The glass mug, is that okay?" give the choice as a suggestion."""
    positives, _ = intent_concepts(item.user_intent)
    asked, said = content_lemmas(item.question), content_lemmas(item.answer)
    return any(
        says(item.answer, a) or (bool(rest := content_lemmas(a) - asked) and rest <= said)
        for alts in positives
        for a in alts
        if a.strip()
    )


def fit_findings(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    """qa_fit's errors, and where it has none, qa_off_point's suspicion: one family, so the answer is read
    against the question once an item."""
    if fit := check_fit(item, ctx):
        return [("qa_fit", message) for message in fit]
    return [("qa_off_point", message) for message in _off_point_suspicion(item, ctx)]


def _off_point_suspicion(item: Item, ctx: RuleContext) -> list[str]:
    """A suspicion, not an error: the question is about something the two tasks do not differ by. Read on
    the published rows, the tasks often differ by a rewording ("make" / "cook") or by what the clear task adds
    besides the answer, while the question asks what the row is about (which tool opens the cans), so the
    defect is as often the pair's as the question's."""
    if not (apart := _off_point(item)) or check_type(item, ctx):
        return []  # a question of another type: ``type`` says so
    shown = ", ".join(f"'{w}'" for w in apart[:4])
    return [
        f"question: asks about what the pair does not leave open: the tasks differ by {shown}, which "
        f"neither the question, the answer nor the intent is about, and the clear task says none of the "
        f"intent ({', '.join(item.user_intent)})"
    ]


#: Quotes around a phrase the question cites ("What does 'until done' mean?"), taken off before reading it.
_QUOTED = re.compile(r"(?<=\w)'(?!\w)|(?<!\w)'(?=\w)")


def _lemmas(text: str) -> frozenset[str]:
    return content_lemmas(_QUOTED.sub(" ", text.replace("|", " ")))


def _kin(word: str, others: frozenset[str]) -> bool:
    """The word or one of its family is among ``others`` ("blend" beside "blender", "done" beside "doneness")."""
    return word in others or (
        len(word) >= 4 and any(len(o) >= 4 and (o.startswith(word) or word.startswith(o)) for o in others)
    )


def _respelled(word: str, others: frozenset[str]) -> bool:
    return len(word) >= 4 and any(len(o) >= 4 and Levenshtein.distance(word, o, score_cutoff=1) <= 1 for o in others)


def _off_point(item: Item) -> list[str]:
    """What the two tasks differ by, when the question asks about something else: no word that one task has
    and the other lacks is of the question, the answer, the intent or the options (or of their family), and
    the clear task says none of the intent. A clear task is the ambiguous one with the answer put in, so
    then the question is not about the choice the pair leaves open (the tasks differ by "roasted" and the
    question asks whether to wash the vegetables; they differ by an internal temperature and the question
    asks how many breasts). A clear task that says the answer in other words keeps some intent concept, and
    a pair that differs by nothing is ``minimal_pair``'s."""
    positives, _ = intent_concepts(item.user_intent)
    if not positives:
        return []
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    added, dropped = clear - amb, amb - clear
    # a word spelled two ways ("greater" / "grater") is no difference
    differ = {w for w in added if not _respelled(w, dropped)} | {w for w in dropped if not _respelled(w, added)}
    if not differ:
        return []
    if item.ambiguity_type == "safety" and normalise(item.unambiguous_direct).rstrip(" .") in normalise(
        item.ambiguous_task
    ):
        return []  # the ambiguous task only adds a risky step ("Heat the chocolate"): a safety question is about it
    about = frozenset().union(
        *(_lemmas(t) for t in (item.question, item.answer, *item.user_intent, *item.amb_shortlist, *item.variants))
    )
    if any(_kin(w, about) for w in differ):
        return []
    if any(has_any(item.unambiguous_direct, alts) or any(_reworded(a, clear) for a in alts) for alts in positives):
        return []
    if (asked := _asked_object(item.question)) and asked in _left_indefinite(item.ambiguous_task):
        return []  # "Which mug ...?" of "Pour the milk into a mug": the ambiguous task leaves the asked thing open
    return sorted(differ)


#: The thing a question asks about: "Which type of mug ...?", "How many eggs ...?" -> its noun.
_ASKS_ABOUT = re.compile(
    r"\b(?:which|what)\s+(?:(?:specific|type|types|kind|kinds|sort|variety)\s+(?:of\s+)?)*([a-z-]+)"
    r"|\bhow\s+(?:many|much)\s+([a-z-]+)",
    re.I,
)
#: An indefinite mention: "a mug", "some food", "an appliance", "any bowl".
_INDEFINITE = re.compile(r"\b(?:a|an|some|any)\s+([a-z-]+(?:\s+[a-z-]+){0,3})", re.I)


def _asked_object(question: str) -> str | None:
    m = _ASKS_ABOUT.search(question)
    word = (m.group(1) or m.group(2)).lower() if m else ""
    return lemma(word) if word and word not in FUNCTION_WORDS else None


def _left_indefinite(task: str) -> set[str]:
    """The heads of a task's indefinite mentions ("a vegetable dish" -> dish, "some oat milk" -> milk): what
    the task leaves unspecified."""
    heads = set()
    for m in _INDEFINITE.finditer(task):
        head = ""
        for word in words(m.group(1)):
            if word in FUNCTION_WORDS or is_verb_only(word):
                break
            head = word
        if head:
            heads.add(lemma(head))
    return heads


#: A numbered step inside one concept ("1. Place the plate ... 2. Once ..."): a plan pasted into the intent.
_NUMBERED_STEP = re.compile(r"(?:^|\s)\d+[.)]\s+[A-Za-z]")
#: Words in one concept past which it is a sentence, not an option.
_SENTENCE_WORDS = 9


def _intent_as_plan(item: Item) -> str | None:
    """An intent concept that is a plan or a sentence about something else: numbered steps, or a long
    concept sharing no content word with the question or the answer. An option, a quantity or a way of
    doing it takes a few words; a pasted plan answers no question."""
    asked = content_lemmas(f"{item.question} {item.answer}")
    for concept in item.user_intent:
        text = concept.strip()
        if _NUMBERED_STEP.search(text) or (len(text.split()) >= _SENTENCE_WORDS and not content_lemmas(text) & asked):
            return text
    return None


#: A question that offers options in its own words ("... the oven or the stove?", "varieties: white rice, ..."):
#: the intent may be one of them.
_LISTS_OPTIONS = re.compile(r"\bor\b|[,:;]", re.I)


#: "How dark ...?", "How thick ...?": a question asking the degree of a quality (not "how many", "how long").
_HOW_DEGREE = re.compile(r"^\s*(?:\w+,\s*)?how\s+(?!many\b|much\b|long\b|often\b|do\b|should\b|can\b)([a-z-]+)", re.I)


def _intent_in_question(item: Item) -> str | None:
    """An intent that only repeats the question ("What temperature should I preheat the oven to?" with the
    intent 'preheat'; "Which type of cheddar cheese ...?" with 'cheddar cheese'; "Where should you heat the
    frying pan?" with 'frying pan'): every alternative of every intended concept is said by a wh-question
    that lists no options, as itself (not as the modifier of another noun: "coffee" of "coffee machine"),
    while the answer says more. The intent then names what is asked about, not the choice that answers it."""
    question = item.question.strip()
    if not _WH_QUESTION.match(question) or _LISTS_OPTIONS.search(question):
        return None
    positives, negatives = intent_concepts(item.user_intent)
    if any(has(question, n) for n in negatives if n.strip()):
        return None  # "There is both cheddar and mozzarella": it names the rejected option too, so it offers a choice
    alternatives = [a.strip() for alts in positives for a in alts if a.strip()]
    if not alternatives or not content_lemmas(item.answer) - content_lemmas(question):
        return None
    asked = words(question)
    if (degree := _HOW_DEGREE.match(question)) and all(
        content_lemmas(a) <= content_lemmas(degree.group(1)) for a in alternatives
    ):
        return None  # "How dark should I toast it?" 'dark': the quality whose degree is asked, AmbiK's keyword
    for concept in alternatives:
        if not content_lemmas(concept) or not any(
            end >= len(asked) or asked[end] in FUNCTION_WORDS or "NOUN" not in classes(asked[end])
            for _, end in positions(question, concept)
        ):
            return None
    return "|".join(alternatives)


def _outside_options(item: Item, ctx: RuleContext) -> str | None:
    """An intended object that no shortlisted object is ("granulated sugar" among sea salt, table salt and
    black pepper; "the ceramic mug" among three cups): the question offers a choice the intent is not in.
    Only objects against objects: a concept whose last word is a noun, a shortlist of two or more objects; and
    only when no intended concept is an option (the intent 'open shelf, coffee machine' picks the shelf and
    says where on it)."""
    units = frozenset(singular(w) for u in ctx.config.units for w in words(u))
    options = [s for s in item.amb_shortlist if s.strip()]
    if sum(1 for s in options if is_object_option(s, units)) < 2 or _off_question(item, options):
        return None
    said = [content_lemmas(o) for o in options]
    positives, _ = intent_concepts(item.user_intent)
    outside = None
    for alternatives in positives:
        things = [a for a in alternatives if (ws := words(a)) and names_thing(a) and "NOUN" in classes(ws[-1])]
        if any(
            has(o, a) or has(a, o) or content_lemmas(a) <= s or s <= content_lemmas(a)
            for a in things
            for o, s in zip(options, said, strict=True)
        ):
            return (
                None  # one intended thing is an option: the others say where or with what ("above the coffee machine")
            )
        if outside is None and things and len(things) == len(alternatives):
            outside = things[0]  # an action, a quantity or an attribute may be how an option is taken
    return outside


def _off_question(item: Item, options: list[str]) -> bool:
    """The question asks which X, no option is an X while the answer or a variant is ("Which bread ...?" over a
    shortlist of toasters, the answer "Rye bread."): the shortlist answers another question (``shortlist``
    says so), and the intent is right not to be among it."""
    asked = _asked_object(item.question)
    if asked is None:
        return False
    if any(_kin(asked, _lemmas(o)) for o in options):
        return False
    return any(_kin(asked, _lemmas(t)) for t in (item.answer, *item.variants))


def _other_option(item: Item) -> str | None:
    """An option of the shortlist or the variants that the answer names whole while it names no intent
    concept and the option is none ("Sliced whole wheat bread." when the intent is white bread): the answer
    and the intent disagree, so one of them is wrong."""
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a for alts in positives for a in alts if a.strip()]
    said = content_lemmas(item.answer)
    if not concepts or any(has(item.answer, c) or _reworded(c, said) for c in concepts) or rules_out(item.answer):
        return None  # "Not the whole wheat bread." names an option to rule it out
    for option in (*item.amb_shortlist, *item.variants):
        if _YES_NO_START.match(option):
            continue  # a yes/no variant answers a yes/no question; it is no option of the choice
        wanted = content_lemmas(option)
        intended = any(
            has(option, c) or has(c, option) or _reworded(c, wanted) or wanted <= content_lemmas(c) for c in concepts
        )
        if wanted and wanted <= said and not intended:
            return option.strip()
    return None


def _intent_off_answer(item: Item) -> list[str]:
    """The intent names things the answer, the question, the options and the clear task never mention, while
    the answer names what the clear task adds ("peas, corn, beans" when the question asks which nuts and the
    answer and the clear task say walnuts and cashews): the intent answers another question."""
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    if not concepts or not all(names_thing(c) for c in concepts):
        return []
    text = " ".join((item.answer, item.question, item.unambiguous_direct, *item.amb_shortlist, *item.variants))
    seen = _lemmas(text)
    if any(
        has(text, c) or content_lemmas(c) & seen or any(_respelled(w, seen) for w in content_lemmas(c))
        for c in concepts
    ):
        return []
    return sorted(_lemmas(item.answer) & (_lemmas(item.unambiguous_direct) - _lemmas(item.ambiguous_task)))


#: The options a question lists after a dash, a colon or "between": "- Penne or Fettucini?".
_OFFERED = re.compile(r"(?:\s[-:]|\bbetween\b)\s*([^?]*\bor\b[^?]*)\?", re.I)


def _offered(question: str) -> list[str]:
    m = _OFFERED.search(question)
    if m is None:
        return []
    parts = re.split(r",\s*|\s+or\s+|\s+and\s+", m.group(1))
    return [re.sub(r"^(?:the|a|an)\s+", "", p.strip(" .'"), flags=re.I) for p in parts if p.strip(" .'")]


def _names(text: str, option: str) -> bool:
    """``text`` names ``option``, as written or one letter or two off ("Fettucini" / "fettuccine")."""
    wanted = content_lemmas(option)
    said = _lemmas(text)
    return bool(wanted) and all(
        w in said or (len(w) >= 6 and any(Levenshtein.distance(w, s, score_cutoff=2) <= 2 for s in said))
        for w in wanted
    )


def _clear_uses_every_option(item: Item) -> tuple[str, list[str]] | None:
    """The question lists options ("Penne or Fettucini?"), the clear task uses every one of them ("with penne,
    fettuccine and canned beans"), the ambiguous task none, and the answer picks one: the question asks to
    choose what the clear task does not choose. Not when the intent rejects an option (that is the intent's
    own finding about the clear task)."""
    options = _offered(item.question)
    _, negatives = intent_concepts(item.user_intent)
    if len(options) < 2 or any(_names(o, n) or _names(n, o) for o in options for n in negatives):
        return None
    if not all(_names(item.unambiguous_direct, o) for o in options):
        return None
    if any(_names(item.ambiguous_task, o) for o in options):
        return None
    picked = [o for o in options if _names(item.answer, o)]
    return (picked[0], options) if len(picked) == 1 else None


_HOW_MANY = re.compile(r"\bhow\s+many\s+([a-z-]+)", re.I)
_COUNT = re.compile(r"\b(\d+|" + "|".join(sorted(CARDINALS, key=len, reverse=True)) + r")\s+([a-z-]+)", re.I)


def _counted(text: str) -> list[str]:
    """The words a count is of, up to the first function word: "large eggs" of "2 large eggs with ..."."""
    said = []
    for word in words(text)[:3]:
        if word in FUNCTION_WORDS:
            break
        said.append(singular(word))
    return said


def _counts_another_thing(item: Item) -> tuple[str, str] | None:
    """A how-many question about one thing ("How many eggs ...?") while the clear task adds the count of
    another ("Make two waffles" for "Make waffles") and none of the asked thing: the question is not about what
    the pair leaves open. A count of a measure ("1 cup of blueberries") counts the asked thing in that measure."""
    m = _HOW_MANY.search(item.question)
    if m is None:
        return None
    asked = singular(m.group(1).lower())
    amb = item.ambiguous_task.lower()
    added = [
        (c.group(0), _counted(item.unambiguous_direct[c.end(1) :]))
        for c in _COUNT.finditer(item.unambiguous_direct)
        if not re.search(rf"(?<![\w.]){re.escape(c.group(1).lower())}(?![\w])", amb)
    ]
    if not added or any(after[:1] and after[0] in MEASURES or asked in after for _, after in added):
        return None  # a measure of the asked thing ("1 cup of"), or its own count ("2 large eggs")
    return m.group(1), added[0][0]


ORDER = 60  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    *family_rules(
        intent_findings,
        ("intent", "error", "the clear task or plan states the intent (where the pair shows it is left unsaid)"),
        ("intent_suspect", "warning", "the clear task or plan may not state the intent"),
    ),
    Rule("answer", "warning", check_answer, "the answer contains an intent concept"),
    *family_rules(
        fit_findings,
        (
            "qa_fit",
            "error",
            "the answer answers the question (not empty, not a question, not yes/no to 'which', not another "
            "option), the intent is not the question's own words",
        ),
        (
            "qa_off_point",
            "warning",
            "the question asks about what the pair leaves open, not about what both tasks say alike",
        ),
    ),
)
