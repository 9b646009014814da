"""minimal_pair: the ambiguous task is a rewrite of the unambiguous one that leaves the choice open.

- ``minimal_pair`` (error): the tasks differ; the ambiguous task is a rewrite of the unambiguous one at all
  (it keeps a content word and at most ``max_rewrite_ratio`` of its words are new); and for types whose
  minimal pair drops the distinguishing word (the registry's ``minimal_pair == 'drop_distinguishing_word'``)
  the ambiguous task does not keep every positive intent concept (then nothing is left to ask). Types
  whose ambiguity is in the kitchen, not the words (``minimal_pair == 'same_instruction'``) keep the
  instruction: there the two tasks must be the same. Nor does the ambiguous task leave a second choice open (a
  thing the clear task names by its kind, "a ceramic bowl", named by one word, "a bowl", in a kitchen with
  several bowls, while the question asks about the knife),
  nor add a kitchen thing the clear task never names ("and spread cream cheese on it"), nor replace words
  beside the open point. A replacement inside the open point's own clause (the clause of the clear task that
  says an intent word the ambiguous task lacks) is the open point said more generally ("chill it in the
  fridge" -> "let it rest", "put it back in the knife block" -> "put it away") unless a kitchen thing there is
  named as another thing or a kind ("sliced cucumber" -> "sliced vegetable"): that is the ``rewrite`` warning's,
  since on rows in other hands it was as often the open point said more generally. Nor does the ambiguous task
  drop a count or a measure of the clear task beside the open point ("two cookies" -> "some cookies" when the
  drink is asked) while the question asks for no measure. Nor does the clear task add only words that name none
  of the intended things when the question asks which thing or where ("grated hard cheese" for the parmesan).
  The ambiguous task keeping every intent concept is certain only where it keeps them in place and the clear
  task adds nothing beside the answer; said again in added words it is a leak. An intent word the ambiguous
  task keeps counts as kept only where it is said as often as in the clear task: one mention left of two
  ("cloth napkin" -> "napkin" beside "smooth the cloth"), or the word inside a longer name ("beef stock"), is
  a leak (answer_leak), not a pair left unmade. Nor does the clear task add only a unit without its number or
  the kind the question asks to choose among ("for a few minutes", "some bread" for "Which bread?"): it leaves the
  same choice open. Nor does the ambiguous task drop a part of the task whose step its plan drops too ("and
  lemon juice" with "Squeeze the lemon over the apples." when the spice is asked), or says again with words only
  cut ("Heat on low until it steams." -> "Heat until it steams."), outside the open point; nor does the clear
  task offer the choice itself ("serve them with butter or honey").
- ``rewrite`` (warning): the share of the ambiguous task's words that are new or replaced (deleting words is
  the usual way to make a task ambiguous, so "Slice the lemon." from a long task counts as 0%). rapidfuzz
  aligns the token sequences (Indel: the longest common subsequence) in C. Also more than ``max_dropped_words``
  content words of the clear task dropped beside the open point, a third of its words or more ("Prepare a bread
  pudding." for a recipe of twenty words whose open point is the knife), that neither the intent nor the answer
  says: on rows in other hands these were as often the answer's own steps said in other words ("hold it by the
  handle, dry it with the towel") as a second change. Also three or more content words of the clear task
  dropped beside the open point ("the bread knife" -> "a knife" when the paring knife is asked), in clauses that
  do not say the open point or as a word that told a kept thing apart: a suspicion, since a reader may take a
  dropped detail as the open point said vaguely.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz.distance import Indel, Levenshtein

from ambiforge import ambiguity
from ambiforge.catalog import APPLIANCES, cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import CARDINALS, signature, singular
from ambiforge.validation.language import (
    FUNCTION_WORDS,
    VAGUE,
    classes,
    content_lemmas,
    is_content,
    is_verb_only,
    lemma,
    mentions,
    names_thing,
)
from ambiforge.validation.lexicon import Lexicon, lexicon_for, words
from ambiforge.validation.rules.answer_choice import one_food_names, place_names
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.grounding import Scene
from ambiforge.validation.rules.plan import MEASURES
from ambiforge.validation.rules.text import contains, has_any, intent_concepts, normalise

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


def new_word_ratio(clear: str, amb: str) -> float:
    """Words of ``amb`` not kept, in order, from ``clear``, over ``amb``'s length."""
    tc, ta = words(clear), words(amb)
    if not ta:
        return 0.0
    kept = (len(tc) + len(ta) - Indel.distance(tc, ta)) // 2
    return (len(ta) - kept) / len(ta)


edit_ratio = new_word_ratio  # the name earlier callers used


def _drops_word(type_name: str) -> bool:
    try:
        return ambiguity.get(type_name).minimal_pair == "drop_distinguishing_word"
    except KeyError:
        return False


def _same_instruction(type_name: str) -> bool:
    try:
        return ambiguity.get(type_name).minimal_pair == "same_instruction"
    except KeyError:
        return False


def _kept(task: str, alternatives: list[str], clear: str = "") -> str | None:
    """The concept's most specific alternative (most words: 'canned chili', not 'can') as the task names it,
    unless the task offers it as one option ("carrot or radish"), which is the ambiguity itself. With the
    clear task: only when the task names each alternative as often as the clear task does. A rewrite that
    drops one mention ("cloth napkin" -> "napkin" beside "smooth the cloth") or one alternative ("macaroni"
    -> "pasta" for 'macaroni|pasta') made the choice open; a mention left elsewhere, or a longer name that
    holds the word ("beef stock" for 'beef'), is what answer_leak reads, not a pair left unmade."""
    if clear and any(_times(task, a) < _times(clear, a) for a in alternatives):
        return None
    most = max(len(a.split()) for a in alternatives)
    for word in (a for a in alternatives if len(a.split()) == most):
        if contains(task, word) and not re.search(
            rf"\b{re.escape(word)}\s+or\b|\bor\s+{re.escape(word)}\b", task, re.I
        ):
            return word
    return None


def _kept_elsewhere(item: Item, kept: list[str]) -> bool:
    """The ambiguous task says a kept intent word only in words it adds ("Add vegetables ..., chopping the
    carrots and celery small" for "Add the carrots and the celery"): the choice was made open and the answer
    leaked back (answer_leak's), not a pair left unmade. Or the clear task says content words the ambiguous
    task lacks beside the answer's own ("turn on the oven and preheat it" for "Preheat the oven"), or the
    question asks for a measure ("What temperature ...?" when the intent reads 'preheat'): the clear task
    resolves something, and the intent string is what is off."""
    said_answer = _lemmas(item.answer) | {w for o in (*item.amb_shortlist, *item.variants) for w in _lemmas(o)}
    if _lemmas(item.unambiguous_direct) - _lemmas(item.ambiguous_task) - _HANDLING - said_answer:
        return True
    if _ASKS_MEASURE.search(item.question):
        return True  # "What temperature ...?" is not answered by the kept 'preheat
    clear, amb = [w.lower() for w in words(item.unambiguous_direct)], [w.lower() for w in words(item.ambiguous_task)]
    matcher = SequenceMatcher(None, clear, amb, autojunk=False)
    added = {j for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("insert", "replace") for j in range(j1, j2)}
    for word in kept:
        said = [w.lower() for w in words(word)]
        if any(amb[j : j + len(said)] == said and j in added for j in range(len(amb))):
            return True
    return False


def _times(text: str, phrase: str) -> int:
    """How often ``text`` names ``phrase`` as whole words."""
    phrase = phrase.strip().lower()
    return len(re.findall(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text.lower())) if phrase else 0


def check_minimal_pair(item: Item, ctx: RuleContext) -> list[str]:
    if _same_instruction(item.ambiguity_type):
        # The environment, not the words, makes the task ambiguous: the world_environment rules check it.
        if normalise(item.ambiguous_task) != normalise(item.unambiguous_direct):
            return [f"ambiguous_task: differs from unambiguous_direct; {item.ambiguity_type} keeps the instruction"]
        return []
    if normalise(item.ambiguous_task) == normalise(item.unambiguous_direct):
        return ["ambiguous_task: the same as unambiguous_direct"]
    problems = []
    shared = set(signature(item.ambiguous_task).split()) & set(signature(item.unambiguous_direct).split())
    ratio = new_word_ratio(item.unambiguous_direct, item.ambiguous_task)
    if not shared or ratio > ctx.config.max_rewrite_ratio:
        problems.append(
            f"ambiguous_task: not a rewrite of unambiguous_direct ({ratio:.0%} of its words are new"
            + ("" if shared else ", no content word kept")
            + ")"
        )
    # Many content words dropped beside the open point are the rewrite warning's: on rows in other hands the
    # clear task's details were as often the answer said in other words as a second change.
    if things := _added_things(item):
        problems.append(
            f"ambiguous_task: adds {', '.join(things[:4])}, which the clear task never names and neither the "
            "question, the answer nor the intent is about"
        )
    elif (replaced := _replaced(item, lexicon_for(ctx.catalog or cached_catalog("")))) and replaced[2]:
        dropped_words, added_words, _ = replaced
        problems.append(
            f"ambiguous_task: changes more than the open point: drops {', '.join(dropped_words[:5])} and adds "
            f"{', '.join(added_words[:5])}, which neither the question, the answer nor the intent is about"
        )
    elif unsaid := _clear_leaves_open(item):
        problems.append(
            f"unambiguous_direct: names none of the intended things ({', '.join(unsaid[:4])}), and the ambiguous "
            "task only adds words to it: the clear task leaves the same choice open"
        )
    elif said := _clear_says_no_more(item):
        problems.append(
            f"unambiguous_direct: adds only {', '.join(repr(w) for w in said)} to the ambiguous task and names none "
            f"of the intent ({', '.join(item.user_intent)}): the clear task leaves the same choice open"
        )
    elif _clear_same_content(item):
        problems.append(
            f"unambiguous_direct: says the same things as the ambiguous task, only in other small words, and names "
            f"none of the intent ({', '.join(item.user_intent)}): the clear task leaves the same choice open"
        )
    elif unnamed := _clear_names_no_intent(item):
        beyond = _lemmas(item.unambiguous_direct) - _lemmas(item.ambiguous_task)
        problems.append(
            f"unambiguous_direct: says no word of {', '.join(repr(c) for c in unnamed[:3])}, and what it says "
            f"beyond the ambiguous task ({', '.join(sorted(beyond))}) names none of the intent: the clear task "
            "leaves the same choice open"
        )
    elif amounts := _amounts_dropped(item):
        problems.append(
            f"ambiguous_task: drops the amounts {', '.join(repr(a) for a in amounts[:3])} of the clear task beside "
            "the open point, which neither the question, the answer nor the intent is about: the pair changes more "
            "than the open point"
        )
    elif second := _second_choice(item):
        phrase, head, kinds = second
        problems.append(
            f"ambiguous_task: leaves a second choice open: '{phrase}' of the clear task is only '{head}', and the "
            f"kitchen has {len(kinds)} ({', '.join(kinds[:4])}); the question, the answer and the intent are "
            "about something else"
        )
    elif dropped_step := _step_dropped(item):
        dropped_words, step = dropped_step
        problems.append(
            f"ambiguous_task: drops {', '.join(dropped_words[:4])} of the clear task, and plan_for_amb_task drops "
            f"the step that does it ({step[:80]!r}), which neither the question, the answer nor the intent is "
            "about: the pair changes more than the open point"
        )
    elif cut := _step_cut(item):
        lost, step, kept = cut
        problems.append(
            f"ambiguous_task: drops {', '.join(lost[:4])} of the clear task, and plan_for_amb_task says the step "
            f"without it ({step[:60]!r} -> {kept[:60]!r}), which neither the question, the answer nor the intent "
            "is about: the pair changes more than the open point"
        )
    elif offered := _clear_offers_choice(item):
        problems.append(
            f"unambiguous_direct: offers the choice itself ('{offered}'), and the intent takes only one side: the "
            "clear task leaves the same choice open"
        )
    if _drops_word(item.ambiguity_type):
        # Intent lists often add words the two tasks share ("cook", "oven" beside "chicken breast"): the
        # choice is still open while one concept is missing, so only a task that keeps them all is certain.
        positives, _ = intent_concepts(item.user_intent)
        kept = [_kept(item.ambiguous_task, alts, item.unambiguous_direct) for alts in positives]
        if positives and all(kept) and not _kept_elsewhere(item, [w for w in kept if w]):
            words_kept = ", ".join(f"'{w}'" for w in kept)
            problems.append(
                f"ambiguous_task: still names every intent concept ({words_kept}), so nothing is left to ask"
            )
    return problems


#: A plan that takes things up together without naming each ("Put the rest away", "Take the ingredients for
#: the sauce"): a thing it does not name may still be among them.
_TOGETHER = re.compile(
    r"\b(?:the rest|the remaining|everything|the (?:other )?(?:items|things|groceries|ingredients))\b", re.I
)


def _step_dropped(item: Item) -> tuple[list[str], str] | None:
    """Content words of the clear task the ambiguous task drops, outside the open point (the question, the
    answer, the intent, the options), whose step of the clear plan the ambiguous plan drops too ("and lemon
    juice" -> nothing, while "Squeeze the lemon over the apples." is gone from the plan, when the spice is
    asked): the ambiguous half of the pair lost a part of the task the answer does not give back. A step that
    says an intent word or the answer's, the step at end_of_ambiguity, or any step of a task whose manner a
    how-question asks is the open point's own: the ambiguous plan says it vaguely or leaves it out by design.
    A step counts as kept when an ambiguous step says half of its content words or more. The words and the
    dropped step, else None."""
    if _plan_unreadable(item):
        return None
    amb_plan = item.plan_for_amb_task
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    open_point = _open_point(item)
    candidates = [
        w
        for w in sorted(clear - amb - open_point)
        if w not in _HANDLING and w not in VAGUE and not _related(w, open_point)
    ]
    if not candidates:
        return None
    amb_said = frozenset().union(*(_lemmas(step) for step in amb_plan)) | amb
    of_open_point = _open_step(item)
    found: list[str] = []
    dropped_step = ""
    for word in candidates:
        if any(_same_word(word, w) for w in amb_said) or word in amb_said:
            continue
        steps = [(i, step) for i, step in enumerate(item.plan_for_clear_task) if word in _lemmas(step)]
        if not steps or any(i == item.end_of_ambiguity or of_open_point(step) for i, step in steps):
            continue
        for _, step in steps:
            said = _lemmas(step)
            if not any(2 * len(said & _lemmas(kept)) >= len(said) for kept in amb_plan):
                found.append(word)
                dropped_step = dropped_step or step
                break
    return (found, dropped_step) if found else None


def _plan_unreadable(item: Item) -> bool:
    """No ambiguous plan to compare, a how-question (every step of the task it asks about is the open point's:
    "How should I poach the pears?"), or a plan that takes things up together (see ``_TOGETHER``)."""
    amb_plan = item.plan_for_amb_task
    return (
        not amb_plan
        or bool(_asked_verbs(item))
        or any(_TOGETHER.search(text) for text in (item.ambiguous_task, *amb_plan))
    )


def _open_step(item: Item) -> Callable[[str], bool]:
    """Whether a clear step is the open point's own: it says an intent word as written (not "ice cubes" beside
    the iced tea) or a word of the answer, other than the ambiguous task's words."""
    amb = _lemmas(item.ambiguous_task)
    intended = _intent_words(item) - {singular(w) for w in words(item.ambiguous_task)} - _HANDLING
    answer = frozenset(w for w in _lemmas(item.answer) - amb if w not in _HANDLING)

    def of_open_point(step: str) -> bool:
        said = _lemmas(step)
        return bool({singular(w) for w in words(step)} & intended or said & answer) or any(
            _related(w, answer) for w in said
        )

    return of_open_point


def _step_cut(item: Item) -> tuple[list[str], str, str] | None:
    """A step of the clear plan the ambiguous plan says again with words only taken out ("Heat on low until it
    steams." -> "Heat until it steams."), each of them a word the ambiguous task drops too and outside the open
    point (the question asks when to turn the stove off, not how low to heat): a manner or a detail lost beside
    the open point.
    Here the open point's options are only those the intent takes: an option not taken ("Leave it on low")
    says no word of what the pair must keep. A misspelling ("rak" for "rack") is the same word. Not the step
    at end_of_ambiguity nor a step of the open point (see :func:`_open_step`). The words, the clear and the
    ambiguous step, else None."""
    if _plan_unreadable(item):
        return None
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    positives, _ = intent_concepts(item.user_intent)
    intended = [a for alts in positives for a in alts if a.strip()]
    taken = [o for o in (*item.amb_shortlist, *item.variants) if any(_takes([a], o) for a in intended)]
    open_point: set[str] = set()
    for text in (item.question, item.answer, *item.user_intent, *taken):
        open_point |= _lemmas(text.replace("|", " "))
    candidates = {
        w for w in clear - amb - open_point if w not in _HANDLING and w not in VAGUE and not _related(w, open_point)
    }
    candidates -= _naming_asked(item, [item.unambiguous_direct, *item.plan_for_clear_task])
    if not candidates:
        return None
    of_open_point = _open_step(item)
    clear_steps = [_lemmas(step) for step in item.plan_for_clear_task]
    # an ambiguous step that is a clear step as it stands ("Place the croissant on a plate" in both plans) is
    # that step kept, not another one cut
    amb_said = [_lemmas(kept) for kept in item.plan_for_amb_task]
    amb_steps = [
        (kept, said) for kept, said in zip(item.plan_for_amb_task, amb_said, strict=True) if said not in clear_steps
    ]
    for i, step in enumerate(item.plan_for_clear_task):
        said = clear_steps[i]
        if i == item.end_of_ambiguity or not said & candidates or of_open_point(step) or said in amb_said:
            continue  # the open point's step, or a step kept whole
        for kept, kept_said in amb_steps:
            added = [w for w in kept_said - said if not any(_near(w, c) for c in said)]
            lost = sorted(w for w in said - kept_said if not any(_near(w, k) for k in kept_said))
            if not added and lost and set(lost) <= candidates:
                return lost, step, kept
    return None


def _naming_asked(item: Item, texts: list[str]) -> set[str]:
    """Lemmas of the words just before a word the question says ("glass" of "the glass mug" when it asks which
    mug, or how many): what tells the asked thing apart is the open point, whichever option the intent takes."""
    asked = _lemmas(item.question)
    found: set[str] = set()
    for text in texts:
        said = words(text)
        found |= {lemma(a) for a, b in zip(said, said[1:], strict=False) if lemma(b) in asked}
    return found


def _near(a: str, b: str) -> bool:
    """One word in two forms or misspelled by one letter ("rak" for "rack")."""
    return _same_word(a, b) or (min(len(a), len(b)) >= 3 and Levenshtein.distance(a, b, score_cutoff=1) <= 1)


def _intent_words(item: Item) -> set[str]:
    """The intent's content words and numbers as written, singular ("iced tea" -> iced, tea): a step that says
    one is about the intended option; "ice cubes" beside the iced tea is not."""
    positives, negatives = intent_concepts(item.user_intent)
    found: set[str] = set()
    for concept in [a for alts in positives for a in alts] + negatives:
        for w in words(concept.replace("-", " ")):
            if is_content(w) or w in CARDINALS or any(c.isdigit() for c in w):
                found.add(singular(w))
    return found


#: Two things offered with "or": "serve them with butter or honey".
_OR = re.compile(r"\bor\b", re.I)
#: A word that rules out what follows it ("no dish soap or steel wool"): not an offer.
_RULED_OUT = re.compile(r"\b(?:no|not|never|without|nor)\b", re.I)
#: How many words either side of "or" an offered thing may take ("the oven mitts or the potholder").
_OR_REACH = 4


def _clear_offers_choice(item: Item) -> str | None:
    """The clear task offers two of the row's options with "or" ("serve them with butter or honey" when the
    question asks which and the intent is butter), and the intent does not take both (as 'oven mitts|potholder'
    takes either, for a safety row): the clear task leaves the same choice open. The words around "or", else
    None."""
    positives, _ = intent_concepts(item.user_intent)
    options = [o.strip() for o in (*item.amb_shortlist, *item.variants, *(a for alts in positives for a in alts))]
    options = [o for o in options if o and names_thing(o)]
    if len(options) < 2:
        return None
    text = item.unambiguous_direct
    for m in _OR.finditer(text):
        before, after = words(text[: m.start()])[-_OR_REACH:], words(text[m.end() :])[:_OR_REACH]
        if _RULED_OUT.search(" ".join(before)):
            continue
        left = {o.lower() for o in options if _offered_in(before, o)}
        right = {o.lower() for o in options if _offered_in(after, o)}
        if not left or not right or left & right:
            continue
        if any(all(_takes(alts, o) for o in left | right) for alts in positives):
            continue  # either side is the intended option
        return " ".join([*before[-2:], "or", *after[:2]])
    return None


def _offered_in(said: list[str], option: str) -> bool:
    """``said`` (a few words beside "or") names the option whole, or by its last word."""
    text = " ".join(said)
    return contains(text, option) or mentions(text, option) or (bool(_head(option)) and _head(option) in _lemmas(text))


def _takes(alternatives: list[str], option: str) -> bool:
    """An intent concept's alternatives take the option: one names it, or it names one."""
    return any(a.strip() and (contains(option, a) or contains(a, option)) for a in alternatives)


def _clear_leaves_open(item: Item) -> list[str]:
    """A choice among things (a type whose pair drops the distinguishing word) whose clear task names none of the
    intended things while the ambiguous task is the clear task with words added ("Prepare a seafood and berry
    salad." / "... using the ingredients in the kitchen.", the intent the seafood and berries): nothing was
    dropped, so the clear task is as open as the ambiguous one. The intended things, else none."""
    if not _drops_word(item.ambiguity_type):
        return []
    clear, amb = content_lemmas(item.unambiguous_direct), content_lemmas(item.ambiguous_task)
    if not clear or not clear < amb:
        return []
    positives, _ = intent_concepts(item.user_intent)
    things = [a.strip() for alts in positives for a in alts if a.strip() and names_thing(a)]
    if not things or any(contains(item.unambiguous_direct, a) or mentions(item.unambiguous_direct, a) for a in things):
        return []
    return things


#: The kind a question asks to choose among: "Which bread ...?", "What type of oil ...?" -> its noun.
_ASKED_KIND = re.compile(r"\b(?:which|what)\s+(?:(?:type|types|kind|kinds|sort)\s+of\s+)?([a-z]+)", re.I)
_NUMBER = re.compile(r"\d|\b(?:" + "|".join(sorted(CARDINALS, key=len, reverse=True)) + r")\b", re.I)


def _clear_says_no_more(item: Item) -> list[str]:
    """What the clear task adds to the ambiguous one, when that is only a unit without its number ("for a few
    minutes" when the question asks how much water and how long), a vague word, or the very kind the question
    asks to choose among ("some bread" for "Which bread ...?"), while the ambiguous task adds nothing but vague
    words ("something", "some") and the clear task says no intent concept: the clear task leaves the same
    choice open. Else none."""
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    asked = {lemma(m.group(1).lower()) for m in _ASKED_KIND.finditer(item.question)}
    added, taken = clear - amb, amb - clear
    if not added or any(
        w not in MEASURES and w not in VAGUE and w not in _VAGUE_DONE and w not in asked for w in added
    ):
        return []
    if any(w not in VAGUE and w not in _VAGUE_DONE and w not in _HANDLING for w in taken):
        return []
    if len(_NUMBER.findall(item.unambiguous_direct)) > len(_NUMBER.findall(item.ambiguous_task)):
        return []  # "for 3 minutes": the clear task says the amount
    positives, _ = intent_concepts(item.user_intent)
    if not positives or any(contains(item.unambiguous_direct, a) for alts in positives for a in alts if a.strip()):
        return []
    return sorted(added)


def _clear_same_content(item: Item) -> bool:
    """The two tasks have the same content words ("a cup of milk" / "some milk"), differ only by function words,
    vague words and measures, the clear one has no more numbers and says no intent concept, and the question asks
    which thing, where or what to use: only a small word was swapped, so the clear task is as open as the
    ambiguous one."""
    if _same_instruction(item.ambiguity_type) or not _ASKS_THING.search(item.question):
        return False
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    if not clear or clear != amb or normalise(item.unambiguous_direct) == normalise(item.ambiguous_task):
        return False
    swapped = set(words(item.unambiguous_direct.lower())) ^ set(words(item.ambiguous_task.lower()))
    if any(w not in FUNCTION_WORDS and w not in VAGUE and singular(w) not in MEASURES for w in swapped):
        return False  # a word the lemmas do not read ("glаss" in two alphabets) is no small word
    if len(_NUMBER.findall(item.unambiguous_direct)) > len(_NUMBER.findall(item.ambiguous_task)):
        return False
    positives, _ = intent_concepts(item.user_intent)
    return bool(positives) and not any(
        contains(item.unambiguous_direct, a) or content_lemmas(a) <= clear
        for alts in positives
        for a in alts
        if a.strip()
    )


#: A question that asks to choose a thing or a place ("Which cheese ...?", "Where should I store ...?").
_ASKS_THING = re.compile(
    r"\b(?:which|where)\b|\bwhat\s+(?:kind|type|sort|\w+\s+(?:should|would|do))\b"
    r"|\bwhat\s+(?:should|do|can|could|would)\s+(?:i|you|we)\s+use\b",
    re.I,
)


def _clear_names_no_intent(item: Item) -> list[str]:
    """The intended things the clear task does not name by their head word ("spinner"; "salad" of the salad
    bowl is another thing's), when it is the ambiguous task with words added that name none of them either
    ("grated hard cheese" for "cheese" when the parmesan is asked, "store the rest in a container" when the
    fridge is, "dry it well" when the salad spinner is) and the question asks which thing, where or what to use:
    the clear task leaves the same choice open. A word the clear task adds that the answer or an option says,
    beside the intent, is the choice said another way ("cooked over-easy" when the intent reads 'whites, yolks',
    "the glass mug" when it reads 'crystal', or a kitchen thing named whole): then none."""
    if _same_instruction(item.ambiguity_type) or not _ASKS_THING.search(item.question):
        return []
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    added = clear - amb
    if not added or amb - clear - VAGUE - _VAGUE_DONE - _HANDLING - _describing_vague(item.ambiguous_task):
        return []
    positives, _ = intent_concepts(item.user_intent)
    concepts = [a.strip() for alts in positives for a in alts if a.strip()]
    if not concepts or not all(names_thing(c) for c in concepts):
        return []
    if any(has_any(item.unambiguous_direct, alts) for alts in positives) or any(
        content_lemmas(c) <= clear for c in concepts
    ):
        return []  # AmbiK's substring reading too: "refrigeration unit" says 'refriger'
    intent_words = {w for c in concepts for w in content_lemmas(c)}
    if added & _lemmas(item.answer) - intent_words or any(_related(w, intent_words - {w}) for w in added):
        return []  # "Blend the mixture" says the blender jar
    said = [_lemmas(o) for o in (*item.amb_shortlist, *item.variants) if o.strip()]
    options = frozenset().union(*said)
    if added & (options - frozenset.intersection(*said) if len(said) > 1 else options):
        return []  # "the glass mug" picks an option (a word all of them share, "mug", picks none)
    for thing in item.environment:
        name = _lemmas(thing.name)
        if name & added and name - added and name - added <= amb:
            return []  # "a mug" -> "the glass mug" of the kitchen: the clear task picks a thing
    # a concept's head names it ("spinner" of the salad spinner); its modifier may be another thing's ("the
    # wooden salad bowl")
    shared = _heads_of_others(item, positives)
    return ["|".join(alts) for alts in positives if not any(_head(a) in clear - shared for a in alts if a.strip())]


#: "something crunchy", "anything sweet": a vague word and the quality it is described by.
_VAGUE_DESCRIBED = re.compile(r"\b(?:something|anything)\s+([a-z]+)", re.I)


def _describing_vague(task: str) -> frozenset[str]:
    """The adjectives that describe a vague word ("crunchy" of "something crunchy"): they say what the open
    point should be like, as "something" alone says there is one, so a clear task may drop them for the thing."""
    return frozenset(
        lemma(m.group(1).lower()) for m in _VAGUE_DESCRIBED.finditer(task) if "ADJ" in classes(m.group(1).lower())
    )


def _heads_of_others(item: Item, positives: list[list[str]]) -> set[str]:
    """The head words the options the intent does not take end in ("milk" of the whole milk and the almond
    milk, when the oat milk is intended): a clear task saying only that word names every option alike."""
    others = [o for o in (*item.amb_shortlist, *item.variants) if o.strip()]
    others = [o for o in others if not any(_takes(alts, o) for alts in positives)]
    return {_head(o) for o in others if _head(o)}


def _head(phrase: str) -> str:
    """The lemma of a phrase's last word: what it names ("spinner" of "salad spinner")."""
    said = words(phrase)
    return lemma(said[-1]) if said else ""


def _dropped(item: Item, most: int) -> list[str]:
    """The clear task's content lemmas the ambiguous task lacks and neither an intent concept nor the answer
    says (a common-sense or safety answer spells out the steps the ambiguous task leaves out: "simmer them for
    10 minutes, then cool them in ice water"), when they are more than ``most`` and a third of the clear
    task's; else none."""
    clear = content_lemmas(item.unambiguous_direct)
    positives, _ = intent_concepts(item.user_intent)
    open_point = {w for alts in positives for a in alts for w in content_lemmas(a)} | _lemmas(item.answer)
    dropped = sorted(clear - content_lemmas(item.ambiguous_task) - open_point)
    return dropped if len(dropped) > most and 3 * len(dropped) >= len(clear) else []


def _open_point(item: Item) -> set[str]:
    """What the pair leaves open, as lemmas: the question, the answer, the intent and the options."""
    found: set[str] = set()
    for text in (item.question, item.answer, *item.user_intent, *item.amb_shortlist, *item.variants):
        found |= _lemmas(text.replace("|", " "))
    return found


#: Verbs any task says to fetch or handle something; dropping them changes nothing.
_HANDLING = frozenset({"use", "make", "take", "put", "place", "get", "add", "prepare", "create", "let"})
#: Words that carry no content of their own in a rewording ("without letting it make lumps"): never a word added.
_LIGHT = frozenset({"let"})
#: Details beside the open point a minimal pair may drop: fewer than this many content words.
DETAILS_DROPPED = 3


def _details_dropped(item: Item) -> list[str]:
    """The clear task's content words the ambiguous task drops beside the open point (the tools, amounts and
    foods it does not ask about: "the bread knife" -> "a knife" and "fresh mozzarella" -> "cheese" when the
    paring knife is asked), when there are ``DETAILS_DROPPED`` or more, and they are in clauses beside the open
    point (see :func:`_beside_open_point`) or one tells apart a thing the ambiguous task still names ("oat" of
    "oat milk" when "milk" is left); else none. Other words of the open point's own clause ("dipping the cake
    knife in hot water and wiping it with the kitchen towel" when the intent is hot water) are the open point
    said more generally: on rows in other hands these were the answer's own steps."""
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    open_point = _open_point(item)
    dropped = sorted(w for w in clear - amb - open_point if w not in _HANDLING and not _related(w, open_point))
    if len(dropped) < DETAILS_DROPPED:
        return []
    beside = _beside_open_point(item, _open_point_anchors(item))
    if sum(1 for w in dropped if w in beside) >= DETAILS_DROPPED or _modifies_kept(item, set(dropped)):
        return dropped
    return []


def _modifies_kept(item: Item, dropped: set[str]) -> bool:
    """A dropped word that is never a verb stands just before a noun the ambiguous task keeps ("oat milk" ->
    "milk", "the ceramic bowl" -> "a bowl"): a thing named less exactly."""
    said, amb = words(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    return any(
        lemma(a) in dropped and "VERB" not in classes(a) and lemma(b) in amb and "NOUN" in classes(b)
        for a, b in zip(said, said[1:], strict=False)
    )


def _open_point_anchors(item: Item) -> set[str]:
    """The intent's words the clear task says more often than the ambiguous one: where it says what the
    ambiguous task leaves open."""
    return _said_more(_intent_lemmas(item), item.unambiguous_direct, item.ambiguous_task)


def _is_thing(word: str, heads: dict[str, list[frozenset[str]]], lexicon: Lexicon | None) -> bool:
    """A word that names a kitchen thing by itself: the head of a scene thing's name ("sponge"), or a
    one-word food, tool or fixture of the lexicon ("oven", "cucumber"); not "kitchen" of the kitchen table."""
    key = singular(word)
    if key == "kitchen":
        return False
    if key in heads:
        return True
    entry = lexicon.entries.get((key,)) if lexicon is not None else None
    return entry is not None and entry.kind in ("object", "noun", "fixture")


def _names_thing_word(word: str, heads: dict[str, list[frozenset[str]]], lexicon: Lexicon | None) -> bool:
    """A kitchen thing (see :func:`_is_thing`) or a word that is only ever a noun ("sweetener"); "store" and
    "go" may be the verbs of a rewording."""
    return _is_thing(word, heads, lexicon) or classes(word) == frozenset({"NOUN"})


def _replaced(item: Item, lexicon: Lexicon | None = None) -> tuple[list[str], list[str], bool] | None:
    """Content words the ambiguous task puts in place of others of the clear task, both outside the open
    point (the question, the answer, the intent, the options): "sauté" -> "cook" when the pan is asked,
    "in the dish rack" -> "on the kitchen table" when the soap is. Dropping alone is how a task is made
    vague; replacing changes the task. A spelling fixed ("greater" -> "grater") or another form of the same
    word ("damage" -> "damaging") is not a replacement. The flag says whether a dropped word is beside the open
    point (True) or only kitchen things in its own phrase are named as others (False)."""
    open_point = _open_point(item)
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    beside = _beside_open_point(item, _open_point_anchors(item))
    heads = Scene.of(item).by_head
    dropped = sorted(
        w
        for w in clear - amb - open_point
        if w not in _HANDLING and not _related(w, open_point) and (w in beside or _is_thing(w, heads, lexicon))
    )
    added = sorted(
        w
        for w in amb - clear - open_point
        if w not in VAGUE and w not in _VAGUE_DONE and w not in _LIGHT and "'" not in w
    )
    added = [a for a in added if not any(_same_word(a, d) for d in clear - amb)]
    dropped = [d for d in dropped if not any(_same_word(a, d) for a in amb - clear)]
    # a spelling fixed as written ("greater" -> "grater"), before its lemma ("great") hides it
    said_amb = set(words(item.ambiguous_task))
    fixed = {
        (lemma(w), lemma(a))
        for w in set(words(item.unambiguous_direct)) - said_amb
        for a in said_amb
        if _one_edit(w, a)
    }
    dropped = [d for d in dropped if not any(d == w for w, _ in fixed)]
    added = [a for a in added if not any(a == x for _, x in fixed)]
    # a place said by its other name or its verb ("the refrigerator", "refrigerate it" for the fridge), a food by
    # its other English name ("coriander" for the cilantro)
    known = lexicon or lexicon_for(cached_catalog(""))
    renamed = {w: set(place_names(w, known)) | {w, one_food_names(w)} for w in (*added, *dropped)}
    dropped, added = (
        [d for d in dropped if not any(renamed[d] & renamed[a] for a in added)],
        [a for a in added if not any(renamed[d] & renamed[a] for d in dropped)],
    )
    things = [d for d in dropped if _is_thing(d, heads, lexicon)]
    if not things:
        # "cook" -> "make", "remove" -> "take": a verb any task uses in place of another says the same
        added = [a for a in added if a not in _HANDLING]
    outside = any(w in beside for w in dropped)
    if not outside:
        # Only kitchen things dropped in the open point's own phrase: a change when another thing, or a
        # kind of things, is named in their place ("sliced cucumber" -> "sliced vegetable", "in the oven" ->
        # "in an appliance"); a verb or a vague word there is the open point said more generally.
        # "store it so it doesn't go black" for "stand it in a drinking glass of water": only a word that names a
        # kitchen thing or a kind of things ("sweetener") is put in their place, not one that may be a verb.
        added = [a for a in added if _names_thing_word(a, heads, lexicon) and a not in _HANDLING]
    return (dropped, added, outside) if dropped and added else None


#: A number said as digits or as a word ("2", "1/2", "two", "half"): an amount or a count.
_AMOUNT = re.compile(
    r"(?<![\w./-])(?:\d+(?:[./]\d+)?|" + "|".join(sorted(CARDINALS, key=len, reverse=True)) + r")(?![\w-])", re.I
)
#: The words that make a number word a pronoun or part of a phrase, not an amount ("each one", "one of them").
_NOT_AMOUNT_BEFORE = frozenset({"each", "the", "this", "that", "which", "every", "any", "no", "another", "other"})
_NOT_AMOUNT_AFTER = frozenset({"of", "by", "another", "at", "or", "and", "side", "more"})
#: A question that asks for a measure ("How big should the cubes be?"): a number dropped from the clear task
#: is then the open point itself.
_ASKS_MEASURE = re.compile(
    r"\bhow\s+(?:many|much|long|big|large|small|thick|thin|hot|warm|cold|far|often|fine|finely)\b"
    r"|\b(?:size|temperature|amount|quantity|portion|thickness|degrees?|minutes?|hours?|time)\b",
    re.I,
)
_NUMBER_WORDS = {
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "fifteen": "15",
    "twenty": "20",
    "thirty": "30",
}


def _amounts(text: str) -> list[tuple[str, str]]:
    """Each amount the text says, as (its value with number words as digits, the number and the word after it).
    A number in brackets is another unit for the one before it ("350°F (180°C)"), not an amount of its own."""
    found = []
    for m in _AMOUNT.finditer(text):
        number, before = m.group(0).lower(), text[: m.start()].rstrip()
        after = text[m.end() :].split()
        next_word = after[0].strip(",.;:!?()").lower() if after else ""
        previous = before.split()[-1].lower() if before.split() else ""
        if previous in _NOT_AMOUNT_BEFORE or before.endswith("(") or next_word in _NOT_AMOUNT_AFTER or not next_word:
            continue
        found.append((_NUMBER_WORDS.get(number, number), f"{number} {next_word}"))
    return found


def _amounts_dropped(item: Item) -> list[str]:
    """The amounts and counts of the clear task the ambiguous task no longer says, in a clause beside the open
    point, while the question, the answer and the intent say no number and the question asks for no measure:
    "put two cookies on the plate" -> "some cookies" when the drink is asked, "four thin crepes" -> "some crepes"
    when the spread is. The pair then changes more than the open point. Else none."""
    about = " ".join([item.question, item.answer, *item.user_intent])
    if _AMOUNT.search(about) or _ASKS_MEASURE.search(item.question):
        return []
    clear = _amounts(item.unambiguous_direct)
    if not clear:
        return []
    said = _amounts(item.ambiguous_task) + [(v, m.group(0).lower()) for v, m in _counted_in_words(item.ambiguous_task)]
    # an amount said in both tasks with the same word after it is kept ("one guest" in both), whatever other
    # amount of the same number the ambiguous task dropped ("on one serving plate")
    same = [(v, p) for v, p in clear if (v, p) in said]
    left = [value for value, phrase in said if (value, phrase) not in same]
    clear = [a for a in clear if a not in same]
    beside = _beside_clauses(item, _open_point_anchors(item))
    dropped = []
    for value, phrase in clear:
        if value in left:
            left.remove(value)  # said again in the ambiguous task ("ten minutes" for "10 minutes")
        elif any(set(words(phrase)) <= clause for clause in beside) and phrase not in dropped:
            dropped.append(phrase)
    return dropped


#: Counts said without a numeral: "a couple of eggs", "a pair of", "a dozen", "half a dozen".
_COUNT_PHRASES = (
    (re.compile(r"\bhalf\s+a\s+dozen\b", re.I), "6"),
    (re.compile(r"\ba\s+(?:couple|pair)\s+of\b", re.I), "2"),
    (re.compile(r"\b(?<!half )a\s+dozen\b", re.I), "12"),
)


def _counted_in_words(text: str) -> list[tuple[str, re.Match[str]]]:
    """The counts ``text`` says in words (value, where): "a couple of eggs" says two eggs as "2 eggs" does."""
    return [(value, m) for pattern, value in _COUNT_PHRASES for m in pattern.finditer(text)]


#: Where a task's clauses part: punctuation and "then".
_CLAUSE = re.compile(r"[,;:.!?]+|\s(?:and\s+)?then\s", re.I)
#: A part after a comma this short and without a verb belongs to the clause before it ("empty metal bowl").
_FRAGMENT = 3
#: Words after a verb that show it is one ("and sauté them", "and put the", "and stir in").
_AFTER_VERB = frozenset({"it", "them", "the", "a", "an", "some", "each", "all", "in", "into", "on", "up", "out"})


def _clauses(task: str) -> list[list[str]]:
    """The task's clauses as words: parted by punctuation, by "then", and by "and" before a verb ("and stir
    in the honey"; not "salt and pepper")."""
    out: list[list[str]] = []
    for part in _CLAUSE.split(task):
        said = words(part)
        start = 0
        for i in range(1, len(said) - 1):
            after = said[i + 2] if i + 2 < len(said) else ""
            verb = said[i + 1]
            known = "VERB" in classes(verb) and (is_verb_only(verb) or after in _AFTER_VERB)
            if said[i] == "and" and (known or after in ("it", "them")):  # "and saute them"
                out.append(said[start:i])
                start = i + 1
        out.append(said[start:])
    merged: list[list[str]] = []
    for clause in (c for c in out if c):
        # "a clean, empty metal bowl": a comma between the words of one thing parts no clause
        if merged and len(clause) <= _FRAGMENT and not any("VERB" in classes(w) and is_verb_only(w) for w in clause):
            merged[-1] = merged[-1] + clause
        else:
            merged.append(clause)
    return merged


def _beside_open_point(item: Item, anchors: set[str]) -> frozenset[str]:
    """The clear task's content lemmas said in clauses that hold no word of the open point the ambiguous task
    lacks (``anchors``). A clause that holds it is the open point's own phrase, and an ambiguous task says that
    phrase more generally ("chill it in the fridge" -> "let it rest", "lift it out" after "unplug the toaster"
    -> "take it out", "under aluminum foil for 15 minutes" -> "for a bit"); a clause without it
    ("whisk in chopped dark chocolate" when the heat is asked) is another part of the task. So are the clause
    whose verb a how-question asks about and a clause the answer spells out (see :func:`_asked_verbs`,
    :func:`_restated`): on rows in other hands their replacements were the open point said another way."""
    return frozenset().union(*_beside_clauses(item, anchors))


def _beside_clauses(item: Item, anchors: set[str]) -> list[frozenset[str]]:
    """Each clause of the clear task beside the open point (see :func:`_beside_open_point`), as its content
    lemmas and its words as written."""
    found = []
    asked, answer, amb = _asked_verbs(item), _lemmas(item.answer), _lemmas(item.ambiguous_task)
    for clause in _clauses(item.unambiguous_direct):
        said = _lemmas(" ".join(clause)) | set(clause)
        if said & anchors or any(_related(w, anchors) for w in said):
            continue
        if said & asked or _restated(_lemmas(" ".join(clause)) - _HANDLING, answer, amb):
            continue
        found.append(frozenset(said))
    return found


#: A question about the manner of an action: "How should I blend the hot soup?" -> blend.
_HOW_VERB = re.compile(r"\bhow\s+(?:should|do|can|would|must)\s+(?:i|you|we)\s+([a-z]+)", re.I)


def _asked_verbs(item: Item) -> set[str]:
    """The verb whose manner the question asks ("How should I blend the hot soup?"): the clause of the clear
    task that does it ("then blend it in batches") is the open point's own, whatever words it says."""
    return {lemma(m.group(1).lower()) for m in _HOW_VERB.finditer(item.question)} - _HANDLING


def _restated(clause: frozenset[str], answer: frozenset[str], amb: frozenset[str]) -> bool:
    """More than half of a clause's content words are the answer's and the ambiguous task lacks them ("dry it
    right away with the kitchen towel" when the answer says "dry it right away"): the answer spells the clause
    out, so it is the open point, not another part of the task."""
    restated = (clause & answer) - amb
    return len(restated) >= 2 and 2 * len(restated) > len(clause)


def _said_more(wanted: set[str], clear: str, amb: str) -> set[str]:
    """The words of ``wanted`` the clear task says more often than the ambiguous one, as lemmas or as
    written: where it says what the ambiguous task leaves open ("until the cheese melts" beside the "tuna
    melt" both name)."""

    def times(text: str) -> dict[str, int]:
        found: dict[str, int] = {}
        for w in words(text):
            for form in {w, lemma(w)}:
                found[form] = found.get(form, 0) + 1
        return found

    in_clear, in_amb = times(clear), times(amb)
    return {w for w in wanted if in_clear.get(w, 0) > in_amb.get(w, 0)}


def _intent_lemmas(item: Item) -> set[str]:
    """The intent's words, positive and negated, as lemmas and as written ("165°f"): what the clear task says
    where the ambiguous one leaves it open."""
    said: set[str] = set()
    for concept in item.user_intent:
        text = concept.replace("|", " ").replace("-", " ")
        # as written only names and numbers ("165°f", "two"): the "the" of "against the grain" is said in
        # every clause and anchors none of them
        said |= _lemmas(text) | {
            w for w in words(text) if is_content(w) or w in CARDINALS or any(c.isdigit() for c in w)
        }
    return said


def _added_things(item: Item) -> list[str]:
    """Kitchen things the ambiguous task names while the clear task says no word of their names (not their
    kind, not a part of a compound), and the question, the answer, the intent and the options are not about
    them: "and spread
    cream cheese on it", "the cucumbers and the red onion" for cucumbers alone. A rewrite that makes a task
    vague takes words away; a new thing is another task. The appliances every kitchen has are not new things:
    naming one says where the task is done ("reheat it in the oven" beside "at 350°F", "a cleaning mix from
    under the sink"); a swap of one place for another is a replacement (``_replaced``)."""
    clear, amb = item.unambiguous_direct, item.ambiguous_task
    clear_lemmas, amb_lemmas = _lemmas(clear.replace("-", " ")), _lemmas(amb.replace("-", " "))
    open_point, clear_said = _open_point(item), clear_lemmas | set(words(clear))
    found: list[str] = []
    for name in sorted({o.name.strip().lower() for o in item.environment}, key=lambda n: (-len(n), n)):
        named = [lemma(w) for w in words(name.replace("-", " "))]
        if not named or not amb_lemmas.issuperset(named) or not names_thing(name) or not mentions(amb, name):
            continue
        # any word of the thing in the clear task (its kind, "strawberry yogurt" of the strawberry yogurt
        # cup, "cilantro-lime", "greater" for the grater) means the clear task names it some way
        if any(w in clear_lemmas or any(_one_edit(w, c) for c in clear_said) for w in named):
            continue
        if any(w in open_point or _related(w, open_point) for w in named):
            continue
        if any(name in longer for longer in found) or name in APPLIANCES:
            continue  # an appliance every kitchen has is where the task is done ("in the oven", "under the sink")
        found.append(name)
    return found


def _second_choice(item: Item) -> tuple[str, str, list[str]] | None:
    """A thing the clear task names by its kind ("a ceramic bowl", "the basmati rice", "the chicken wings")
    that the ambiguous task names by one word of it alone ("a bowl", "the rice", "the chicken"), while the
    kitchen has two or more things that word names ("metal bowl", "ceramic bowl"; "chicken wings", "chicken
    thighs") and the open point is not about it: the ambiguous task leaves a second choice open beside the
    one the question asks. The dropped word must tell the kitchen's kinds apart ("seedless" of three seedless
    grapes does not), and the ambiguous task must not name the thing by another kind word."""
    clear, amb = _lemmas(item.unambiguous_direct), _lemmas(item.ambiguous_task)
    open_point = _open_point(item)
    dropped = {w for w in clear - amb - open_point if not _related(w, open_point)}
    if not dropped:
        return None
    scene = Scene.of(item)
    said, amb_words = words(item.unambiguous_direct), words(item.ambiguous_task)
    for modifier, head in zip(said, said[1:], strict=False):
        if lemma(modifier) in dropped:  # "ceramic bowl" -> "bowl"
            kept, kinds = head, [k for k in scene.keys if k[-1] == singular(head)]
            telling = [k for k in kinds if modifier in k or lemma(modifier) in k]
            if not telling or len(telling) == len(kinds):
                continue
        elif lemma(head) in dropped and any(k[-2:] == (modifier, singular(head)) for k in scene.keys):
            kept, kinds = modifier, [k for k in scene.keys if modifier in k]  # "chicken wings" -> "chicken"
        else:
            continue
        base = lemma(kept)
        if len(kinds) < 2 or base not in amb or base in open_point or _related(base, open_point):
            continue
        kind_words = frozenset(w for k in kinds for w in k) - {kept, singular(kept)}
        if any(lemma(w) == base and not _kind_beside(amb_words, i, kind_words) for i, w in enumerate(amb_words)):
            return f"{modifier} {head}", kept, sorted(_named_order(k, item) for k in kinds)
    return None


def _kind_beside(said: list[str], i: int, kind_words: frozenset[str]) -> bool:
    """The word at ``i`` has a kind word of its thing just before or after it ("glass bowl", "chicken wings")."""
    return (i > 0 and said[i - 1] in kind_words) or (i + 1 < len(said) and said[i + 1] in kind_words)


def _named_order(key: tuple[str, ...], item: Item) -> str:
    """A scene key as the scene names its thing ("white rice"), else its words in order."""
    wanted = frozenset(key)
    for thing in item.environment:
        said = words(thing.name)
        if frozenset(said) == wanted or frozenset(singular(w) for w in said) == wanted:
            return thing.name
    return " ".join(key)


#: Words that leave a manner or a moment open ("until done", "when ready", "for some time"): the open point
#: said vaguely, whatever the question calls it.
_VAGUE_DONE = frozenset({"done", "ready", "properly", "time", "suitable", "appropriate", "right", "correct", "enough"})
_QUOTE = re.compile(r"(?<=\w)'(?!\w)|(?<!\w)'(?=\w)")


@lru_cache(maxsize=16384)
def _lemmas(text: str) -> frozenset[str]:
    """Content lemmas with quotes around words taken off ("'remove when done'")."""
    return content_lemmas(_QUOTE.sub(" ", text))


def _related(word: str, open_point: set[str]) -> bool:
    """A word of the same family as one of the open point ("blend" beside "blender", "slice" beside
    "sliced"): the open point said by another part of speech."""
    return len(word) >= 4 and any(w.startswith(word) or (len(w) >= 4 and word.startswith(w)) for w in open_point)


def _one_edit(a: str, b: str) -> bool:
    """A word of five letters or more misspelled by one letter ("greater" for "grater")."""
    return min(len(a), len(b)) >= 5 and Levenshtein.distance(a, b, score_cutoff=1) <= 1


def _same_word(a: str, b: str) -> bool:
    """One word spelled two ways or in two forms: one edit apart, or sharing all but a short ending."""
    if Levenshtein.distance(a, b, score_cutoff=2) <= 2 and min(len(a), len(b)) >= 4:
        return True
    stem = len(a) if len(a) == len(b) else min(len(a), len(b))
    if stem >= 5 and a[: stem - 1] == b[: stem - 1]:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 3 and long.startswith(short) and long[len(short) :] in _ENDINGS  # "pack" / "packing"


#: Endings that make another form of a word: a lemma the lemmatiser left as written ("packing").
_ENDINGS = frozenset({"s", "es", "ed", "d", "ing", "er", "ers"})


def check_rewrite(item: Item, ctx: RuleContext) -> list[str]:
    if _same_instruction(item.ambiguity_type):
        return []
    problems = []
    ratio = new_word_ratio(item.unambiguous_direct, item.ambiguous_task)
    if ratio > ctx.config.max_edit_ratio:
        problems.append(
            f"ambiguous_task: rewrites {ratio:.0%} of its words, new or replaced "
            f"(limit {ctx.config.max_edit_ratio:.0%}); a minimal pair changes as little as possible"
        )
    # Dropped details are a suspicion, not a certainty: a reader may take "the bread knife" -> "a knife" as
    # the open point said vaguely, and a long list of steps dropped ("hold it by the handle, dry it with the
    # towel") as the answer's own steps. Where words are replaced, minimal_pair says it.
    if replaced := _replaced(item, lexicon_for(ctx.catalog or cached_catalog(""))):
        dropped_words, added_words, outside = replaced
        if not outside:
            # A thing of the open point's own phrase named as another ("from the bucket" -> "on the counter"
            # when the cleaning mix is asked): on rows in other hands as often the open point said more
            # generally as a second change.
            problems.append(
                f"ambiguous_task: names {', '.join(dropped_words[:5])} of the open point's phrase as "
                f"{', '.join(added_words[:5])}; the pair may change more than the open point, unless that is the "
                "open point said more generally"
            )
        return problems
    if dropped := _dropped(item, ctx.config.max_dropped_words):
        problems.append(
            f"ambiguous_task: drops {len(dropped)} content words of the clear task beside the open point "
            f"({', '.join(dropped[:8])}{', ...' if len(dropped) > 8 else ''}); the pair may change more than the "
            "open point, unless they are the answer said in other words"
        )
    elif details := _details_dropped(item):
        problems.append(
            f"ambiguous_task: drops {len(details)} content words of the clear task that neither the question, "
            f"the answer nor the intent is about ({', '.join(details[:8])})"
        )
    return problems


ORDER = 40  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("minimal_pair", "error", check_minimal_pair, "ambiguous task differs and drops the distinguishing word"),
    Rule("rewrite", "warning", check_rewrite, "the ambiguous task rewrites little of the unambiguous one"),
)
