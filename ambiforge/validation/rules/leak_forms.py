"""answer_leak's other forms: the ambiguous task names the intended option, or a step before
``end_of_ambiguity`` says the intended heat setting or measure (:func:`plan.leaks` checks the plan's objects).

A minimal pair drops from the clear task the words that say the intended option; when the ambiguous task still
says the option as often as the clear task does ("a tablespoon of mustard" in both, the question "Which
condiment?", the answer "Mustard."), or names a shortlisted option whole and no other option, the robot has
its answer before it asks. Checked only where the question asks for a choice (which, what kind, where, how
many), the option is not what the question itself names ("eggs" of "How many eggs?" is what is counted), the
answer gives it, and it is the choice: a shortlisted option, or the intent's only thing, named in the kitchen.
An option the task offers beside another ("a metal or plastic bowl") is not given away. The option may also be
called by the word that tells it from the others, where no other kitchen thing has that word ("the rack" for the
wire rack beside a serving plate, "for composting" for the compost bin): :func:`mark_leaks`."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from ambiforge.models import Item
from ambiforge.textnorm import CARDINALS
from ambiforge.validation.language import (
    classes,
    content_lemmas,
    is_content,
    lemma,
    mentions,
    names_thing,
    occurrences,
    positions,
    verb_lemmas,
    words,
)
from ambiforge.validation.lexicon import Lexicon, key_of
from ambiforge.validation.rules.grounding import Scene
from ambiforge.validation.rules.text import intent_concepts

#: A question that asks to choose a thing, a place or a count (not how to do it, not a yes or no).
_CHOICE_QUESTION = re.compile(
    r"\bwhich\b|\bwhat\s+(?:type|kind|sort|brand|flavou?r|variety|size|colou?r)\b|^\W*(?:\w+,\s*)?(?:where|how\s+many)\b",
    re.I,
)
_OR = frozenset({"or", "either", "nor"})


def _number(alternatives: list[str]) -> bool:
    return all(len(ws := words(a)) == 1 and (ws[0] in CARDINALS or ws[0].isdigit()) for a in alternatives)


def _says_count(text: str, number: str, counted: frozenset[str]) -> bool:
    """``text`` says ``number`` right before what is counted ("three eggs", "2 slices of bread")."""
    ws = words(text)
    return any(w == number.lower() and any(lemma(n) in counted for n in ws[i + 1 : i + 3]) for i, w in enumerate(ws))


def _offered(text: str, phrase: str) -> bool:
    """``text`` names ``phrase`` beside an alternative ("a metal or plastic bowl", "ketchup or olive oil")."""
    ws = [w.lower() for w in words(text)]
    return any(_OR & set(ws[max(0, start - 3) : end + 3]) for start, end in positions(text, phrase))


#: Places a kitchen puts things in or on: the answer to "Where ...?".
PLACES = frozenset(
    {"table", "kitchen table", "counter", "countertop", "kitchen counter", "fridge", "refrigerator", "freezer"}
    | {"cupboard", "cabinet", "shelf", "pantry", "drawer", "sink", "dish rack", "rack", "knife block", "oven"}
)
_WHERE = re.compile(r"^\W*(?:\w+,\s*)?where\b", re.I)


def asks_place(question: str, phrase: str) -> bool:
    """The question asks where, and ``phrase`` is a kitchen place: naming it says where."""
    return bool(_WHERE.match(question)) and phrase.strip().lower().removeprefix("the ") in PLACES


def task_leaks(item: Item) -> list[str]:
    """Messages for each intended option the ambiguous task says as often as the clear task does."""
    question = item.question.strip()
    if not question:
        return []
    if not _CHOICE_QUESTION.search(question):
        return _told_outright(item)
    positives, _ = intent_concepts(item.user_intent)
    task, clear = item.ambiguous_task, item.unambiguous_direct
    options = [o for o in item.amb_shortlist if o.strip()]
    things = [alts for alts in positives if not _number(alts) and any(names_thing(a) for a in alts)]
    scene = Scene.of(item)
    out = []
    counted = content_lemmas(question)
    for alts in positives:
        if _number(alts) and re.search(r"\bhow\s+many\b", question, re.I):
            said = next((a for a in alts if _says_count(task, a, counted) and _says_count(clear, a, counted)), None)
            if said:
                out.append(f"ambiguous_task: already says the intended count '{said}' the question asks for")
    if not options and len(things) != 1:
        return out  # several intended things: the task may name one that is not the open point
    for alts in things:
        if any(mentions(question, a) for a in alts) or not any(mentions(item.answer, a) for a in alts):
            continue  # what the question is about, or not what the answer gives
        for a in (a for a in alts if names_thing(a)):
            key = key_of(a)
            chosen = any(key == key_of(o) or mentions(o, a) for o in options) if options else scene.grounds(key)
            if not chosen or _offered(task, a):
                continue
            n = occurrences(task, a)
            mine = [o for o in options if key_of(o) == key or mentions(o, a)]
            others = [o for o in options if o not in mine and mentions(task, o)]
            whole = any(mentions(task, o) for o in mine) and not others  # "the glass mug", not "a glass"
            if n and (n >= occurrences(clear, a) or whole):
                out.append(f"ambiguous_task: already names the intended '{a}'")
                break
    return out


def _told_outright(item: Item) -> list[str]:
    """A question of how or whether (not a choice among things) still has a thing for an answer ("What should I
    toss the slices with?" "The lemon."; "Should I protect my hands?" "The rubber gloves."): the ambiguous task
    leaks it when it names that one intended thing of the kitchen as often as the clear task does, inside the
    words it rewrote ("get the bottle brush and clean around the blades"). A thing both tasks name in the words
    they share is one the whole task handles, not the answer ("Make a bowl of rice with chicken")."""
    positives, _ = intent_concepts(item.user_intent)
    task, clear, question = item.ambiguous_task, item.unambiguous_direct, item.question
    scene = Scene.of(item)
    things = [alts for alts in positives if not _number(alts) and any(names_thing(a) for a in alts)]
    if len(things) != 1:
        return []
    for alts in things:
        if any(mentions(question, a) for a in alts) or not any(mentions(item.answer, a) for a in alts):
            continue
        for a in (a for a in alts if names_thing(a)):
            if not scene.grounds(key_of(a)) or _offered(task, a):
                continue
            n = occurrences(task, a)
            if n and n >= occurrences(clear, a) and _in_rewrite(clear, task, a):
                return [f"ambiguous_task: already names the intended '{a}'"]
    return []


def _in_rewrite(clear: str, task: str, phrase: str) -> bool:
    """The ambiguous ``task`` names ``phrase`` in or right beside a stretch it words otherwise than ``clear``."""
    cw, aw = [lemma(w) for w in words(clear)], [lemma(w) for w in words(task)]
    changed: set[int] = set()
    for op, _, _, j1, j2 in difflib.SequenceMatcher(None, cw, aw, autojunk=False).get_opcodes():
        if op != "equal":
            changed |= set(range(j1 - 1, j2 + 1))
    return any(changed & set(range(start, end)) for start, end in positions(task, phrase))


#: A question that asks for a heat, a temperature or a setting ("What heat level ...?", "How hot ...?").
_SETTING_QUESTION = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}(?:temperature|heat|level|setting|power)\b|\bhow\s+hot\b"
    r"|\bat\s+what\s+temperature\b",
    re.I,
)
_NOT_HEATED = frozenset(
    {
        "temperature",
        "heat",
        "heating",
        "level",
        "setting",
        "power",
        "use",
        "set",
        "cook",
        "warm",
        "long",
        "time",
        "minute",
    }
    | {"stove", "oven", "pan", "pot", "skillet", "saucepan", "microwave", "burner", "high", "low", "medium"}
)
_LEVELS = frozenset({"low", "medium", "high", "medium-high", "medium-low", "medium high", "medium low", "mid"})

#: What a level is of: "low heat" and "the low setting" are the level "low".
_OF_LEVEL = frozenset({"heat", "setting", "temperature", "power", "flame", "fire", "the", "on"})


def _level(concept: str) -> str:
    return " ".join(w for w in concept.strip().lower().split() if w not in _OF_LEVEL)


def setting_leaks(item: Item) -> list[str]:
    """A step before ``end_of_ambiguity`` that already says the intended level ("Heat the pot on medium" when
    the question asks what heat to use and the intent is "low|medium"), while the ambiguous task says none:
    the plan answers the question before it is asked."""
    if not _SETTING_QUESTION.search(item.question):
        return []
    positives, _ = intent_concepts(item.user_intent)
    levels = [[_level(a) for a in alts] for alts in positives if alts and all(_level(a) in _LEVELS for a in alts)]
    if len(levels) != 1 or any(mentions(item.ambiguous_task, a) for a in levels[0]):
        return []
    heated = content_lemmas(item.question) - _NOT_HEATED  # what the question heats: "chili", "beef stew"
    for i, step in enumerate(item.plan_for_amb_task[: item.end_of_ambiguity]):
        if not heated & content_lemmas(step):
            continue  # the step heats something else ("Heat the pot on medium" with the oil in it)
        parts = {part for w in words(step) for part in w.split("-")}  # "medium-low" says low
        said = next((a for a in levels[0] if (mentions(step, a) or a in parts) and not _offered(step, a)), None)
        if said:
            return [
                f"plan_for_amb_task[{i}]: already says the intended setting '{said}' (end_of_ambiguity "
                f"{item.end_of_ambiguity}; the ambiguous task does not): {' '.join(step.split())[:80]!r}"
            ]
    return []


_MEASURE_QUESTION = re.compile(
    r"\bhow\s+(?:many|much|long|hot|far|thick|thin|big|large|deep|wide|high|tall|small)\b"
    r"|\b(?:what|which)\s+(?:\w+\s+)?(?:temperature|size|thickness|distance|depth)\b",
    re.I,
)
_NUMBER = re.compile(r"\d+(?:[.,/]\d+)?")


def _units_after(text: str, number: str) -> set[str]:
    """What ``number`` measures in ``text``: the lemma of the word after it, "degree" for a degree sign
    ("375°F", "190 °C", "375 degrees")."""
    out = set()
    for m in re.finditer(rf"(?<![\d.,/]){re.escape(number)}(?![\d]|[.,/]\d)", text):
        rest = text[m.end() :].lstrip()
        if rest.startswith("°"):
            out.add("degree")
        out |= {lemma(w) for w in words(rest)[:1]}
    return out


def measure_leaks(item: Item) -> list[str]:
    """A step before ``end_of_ambiguity`` that already says the intended measure written with its number
    ("Preheat the oven to 375°F" when the intent is "375 degrees" or "190°C|375°F" and the question asks what
    temperature), while the ambiguous task says no such number. Bare counts are :func:`plan._number_leak`'s."""
    if not _MEASURE_QUESTION.search(item.question):
        return []
    positives, _ = intent_concepts(item.user_intent)
    measures = [alts for alts in positives if not _number(alts) and any(_NUMBER.search(a) for a in alts)]
    task = set(_NUMBER.findall(item.ambiguous_task))
    for alts in measures:
        numbers = {n for a in alts for n in _NUMBER.findall(a)} - task
        units = {u for a in alts for n in numbers for u in _units_after(a, n)}
        for i, step in enumerate(item.plan_for_amb_task[: item.end_of_ambiguity]):
            said = {n for n in numbers if units & _units_after(step, n)}
            if said:
                return [
                    f"plan_for_amb_task[{i}]: already says the intended measure '{min(said)}' (end_of_ambiguity "
                    f"{item.end_of_ambiguity}; the ambiguous task does not): {' '.join(step.split())[:80]!r}"
                ]
    return []


def _marks(options: list[str]) -> list[frozenset[str]]:
    """What tells each option from the others: its words less those every option shares ("whole wheat" of
    "whole wheat flour" beside "rye flour")."""
    said = [content_lemmas(o) for o in options]
    shared = frozenset.intersection(*said)
    return [s - shared for s in said]


def _kin(word: str, mark: str) -> bool:
    """``word`` is ``mark`` or of its family by any reading ("frozen" -> freeze, of "freezer"); not a word that
    is only the first part of a compound ("straw" of "strawberry", the rest "berry" a word of its own)."""
    readings = {word, lemma(word), *verb_lemmas(word)}
    return mark in readings or any(
        len(r) >= 5 and len(mark) >= 5 and r[:5] == mark[:5] and not _compound_part(r, mark) for r in readings
    )


def _compound_part(a: str, b: str) -> bool:
    """One of ``a`` and ``b`` is the other and a word more ("straw" / "strawberry"): a part, not a family."""
    shorter, longer = sorted((a, b), key=len)
    rest = longer[len(shorter) :]
    return longer.startswith(shorter) and len(rest) >= 3 and bool(classes(rest))


_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "its", "their", "my", "your", "some"})


def attribute_leaks(item: Item, lexicon: Lexicon) -> list[str]:
    """The ambiguous task says what tells the intended option from the others, in its words or their family,
    about no kitchen thing of its own ("run the whole wheat program" when the question is which flour and the
    intent whole wheat flour; a label reading 'frozen on' when it is the fridge or the freezer), and says
    nothing of that kind of any other option: the robot has its answer before it asks. Only a mark that names
    a kind ("wheat", "freezer", "almond"), not a quality alone ("large", "red", "fresh"). Not where the words
    name or describe a food or a kitchen thing ("beef soup" for beef broth, "the red grapes" for red wine, "a
    glass of milk", "the bread maker" for bread flour), nor where they are a verb taking an object ("Clean
    the toaster" for the clean sponge)."""
    question = item.question.strip()
    if not question or not (_CHOICE_QUESTION.search(question) or re.search(r"\bor\b", question, re.I)):
        return []
    options = [o.strip() for o in item.amb_shortlist if o.strip()] or [o.strip() for o in item.variants if o.strip()]
    options = list(dict.fromkeys(o.lower() for o in options))
    if len(options) < 2 or not all(marks := _marks(options)):
        return []
    positives, _ = intent_concepts(item.user_intent)
    intended = content_lemmas(" ".join(a for alts in positives for a in alts))
    mine = [i for i, m in enumerate(marks) if m <= intended]
    if len(mine) != 1 or all("ADJ" in classes(w) for w in marks[mine[0]]):
        return []  # a quality ("large", "red", "fresh") is said of many things a task handles
    raw = [w.strip("'") for w in words(item.ambiguous_task)]  # a quoted word: "'frozen'"
    things = {i for m in lexicon.scan(item.ambiguous_task)[1] for i in range(m.start, m.end)}
    if any(_said_alone(raw, m, things) for i, m in enumerate(marks) if i != mine[0]):
        return []
    said = _said_alone(raw, marks[mine[0]], things)
    if said is None:
        return []
    return [f"ambiguous_task: says '{said}', which tells the intended '{options[mine[0]]}' from the other options"]


def _said_alone(raw: list[str], mark: frozenset[str], things: set[int]) -> str | None:
    """The first run of the task's words that says all of ``mark`` (or its family) about no kitchen thing:
    not inside a thing's name, not before a thing or "of", not a verb before its object."""
    for start, end in _runs(raw, mark):
        if not all(any(_kin(w, m) for w in raw[start:end]) for m in mark):
            continue
        if any(i in things for i in range(start, end)):
            continue
        head = end
        while head < len(raw) and "ADJ" in classes(raw[head]) and "NOUN" not in classes(raw[head]):
            head += 1
        if head < len(raw) and (raw[head] in _DETERMINERS or raw[head] == "of" or head in things):
            continue
        return " ".join(raw[start:end])
    return None


def _runs(ws: list[str], mark: frozenset[str]) -> list[tuple[int, int]]:
    """The runs of consecutive words of ``ws`` that are of ``mark`` or its family."""
    out, start = [], None
    for i, w in enumerate([*ws, ""]):
        if w and any(_kin(w, m) for m in mark):
            start = i if start is None else start
        elif start is not None:
            out.append((start, i))
            start = None
    return out


#: Words of the two tasks kept between two changed stretches that still belong to one rewrite ("and" of "when
#: bubbles form on top and the edges look dry" -> "once it is bubbly and ready").
_JOINING = 2


def _regions(cw: list[str], aw: list[str]) -> list[tuple[int, int, int, int, list[str], list[str]]]:
    """The changed stretches of two word lists, changes a few words apart taken as one: per stretch its bounds
    in each list and its changed words only (without the kept words between two changes)."""
    regions: list[tuple[int, int, int, int, list[str], list[str]]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, cw, aw, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if regions and i1 - regions[-1][1] <= _JOINING and j1 - regions[-1][3] <= _JOINING:
            start_i, _, start_j, _, clear_changed, amb_changed = regions[-1]
            regions[-1] = (start_i, i2, start_j, j2, [*clear_changed, *cw[i1:i2]], [*amb_changed, *aw[j1:j2]])
        else:
            regions.append((i1, i2, j1, j2, cw[i1:i2], aw[j1:j2]))
    return regions


def _rewrites(clear: str, amb: str) -> list[tuple[list[str], list[str], list[str], list[str]]]:
    """Where the ambiguous task rewrites the clear one: per changed stretch (:func:`_regions`) its clear side
    and ambiguous side whole, and their changed words only."""
    cw, aw = words(clear), words(amb)
    return [(cw[i1:i2], aw[j1:j2], cc, ac) for i1, i2, j1, j2, cc, ac in _regions(cw, aw)]


def _says_all(stretch: list[str], concept: str) -> bool:
    """The words of ``stretch`` say every content word of ``concept``, up to inflection or the concept's stem
    ("slows" says 'slow', "bubbly" says 'bubbl')."""
    wanted = content_lemmas(concept)
    return bool(wanted) and all(any(_stem_of(w, m) for w in stretch if w not in _OR) for m in wanted)


def _stem_of(word: str, concept_word: str) -> bool:
    """``word`` is a form of ``concept_word``, or the concept word is its stem ('bubbl' of "bubbly"); not a
    longer word it only begins ("bread" is no form of 'breadcrumb')."""
    readings = {word, lemma(word), *verb_lemmas(word)}
    return concept_word in readings or (len(concept_word) >= 4 and word.startswith(concept_word))


def rewrite_leaks(item: Item) -> list[str]:
    """The ambiguous task rewrites the open point and keeps an intended cue in it: where it replaces the clear
    task's words ("until the pops slow to about 2 seconds apart" -> "until the popping slows right down";
    "when bubbles form on top and the edges look dry" -> "once it is bubbly and ready"), the clear side says an
    intent concept or words of the answer that the ambiguous side drops (the open point), and the changed words
    of both sides still say an intent concept, which the answer gives and the question does not ask about.
    The robot is told part of the answer in the words that should leave it open. Counts and measures are the
    number checks' (:func:`measure_leaks`)."""
    groups = _intent_groups(item)
    if not groups:
        return []
    answered = content_lemmas(item.answer) - content_lemmas(item.question)
    for clear_side, amb_side, clear_changed, amb_changed in _rewrites(item.unambiguous_direct, item.ambiguous_task):
        if not amb_changed:
            continue
        dropped = _dropped_groups(groups, clear_side, amb_side)
        lost = answered & (content_lemmas(" ".join(clear_changed)) - content_lemmas(" ".join(amb_side)))
        if not dropped and not lost:
            continue  # the stretch is not the open point
        kept = next(
            (a for a, _ in _cues(item, groups, dropped) if _says_all(amb_changed, a) and _says_all(clear_changed, a)),
            None,
        )
        if kept:
            return [
                f"ambiguous_task: rewrites the open point ({' '.join(clear_side)!r} -> {' '.join(amb_side)!r}) "
                f"and still says the intended '{kept}'"
            ]
    return []


def _intent_groups(item: Item) -> list[list[str]]:
    """The intent's concepts, each as its alternatives, blank ones left out."""
    positives, _ = intent_concepts(item.user_intent)
    groups = [[a for a in alts if a.strip()] for alts in positives]
    return [alts for alts in groups if alts]


def _dropped_groups(groups: list[list[str]], clear_side: list[str], amb_side: list[str]) -> list[int]:
    """The concepts the clear side of a rewrite says and the ambiguous side does not: what marks it as the open
    point."""
    return [
        k
        for k, alts in enumerate(groups)
        if any(_says_all(clear_side, a) for a in alts) and not any(_says_all(amb_side, a) for a in alts)
    ]


def _cues(item: Item, groups: list[list[str]], dropped: list[int]) -> Iterator[tuple[str, list[str]]]:
    """Each concept of a group a rewrite did not drop that the answer gives, with its alternatives, unless the
    question asks about it or the ambiguous task offers it: where the rewrite still says one, it tells the
    robot part of the answer. Counts and measures are left to the number checks."""
    for k, alts in enumerate(groups):
        if k in dropped:
            continue
        for a in alts:
            if (
                not _NUMBER.search(a)
                and says_concept(item.answer, a)
                and not says_concept(item.question, a)
                and not _offered(item.ambiguous_task, a)
            ):
                yield a, alts


def says_concept(text: str, concept: str) -> bool:
    """``text`` says every content word of ``concept``, up to its family."""
    return _says_all(words(text), concept)


def part_leaks(item: Item) -> list[str]:
    """The ambiguous task names a part of the intended option that no other option, variant or kitchen thing
    has ("close it with the blue lid" when the options are the glass container with blue lid and the plastic
    container with red lid, and the intent the glass one), as the clear task does: the part tells the robot
    which option is meant. The part is two words or more of the option's name, its first and last words
    content words, among them a word that tells the option from the others; a name the task gives another
    thing too ("food storage container" beside the glass food storage container) tells nothing."""
    question = item.question.strip()
    if not question or not _CHOICE_QUESTION.search(question):
        return []
    options = list(dict.fromkeys(o.strip().lower() for o in item.amb_shortlist if o.strip()))
    if len(options) < 2 or not all(marks := _marks(options)):
        return []
    positives, _ = intent_concepts(item.user_intent)
    intended = content_lemmas(" ".join(a for alts in positives for a in alts))
    mine = [i for i, m in enumerate(marks) if m & intended]
    if len(mine) != 1 or not any(says_concept(item.answer, a) for alts in positives for a in alts):
        return []
    option = options[mine[0]]
    others = [o for i, o in enumerate(options) if i != mine[0]]
    if any(marks[i] <= content_lemmas(item.ambiguous_task) for i in range(len(options)) if i != mine[0]):
        return []  # the task names another option's mark as well ("the blue lid, not the red one")
    others += [o for o in (*item.variants, *(e.name for e in item.environment)) if not mentions(o, option)]
    ws = words(option)
    for start in range(len(ws)):
        for end in range(len(ws), start + 1, -1):
            part = " ".join(ws[start:end])
            if end - start == len(ws) or not (is_content(ws[start]) and is_content(ws[end - 1])):
                continue  # the whole name is :func:`task_leaks`'s
            if not content_lemmas(part) & marks[mine[0]] or any(mentions(o, part) for o in others):
                continue
            if mentions(item.ambiguous_task, part) and mentions(item.unambiguous_direct, part):
                return [f"ambiguous_task: names '{part}', which only the intended '{option}' has"]
    return []


def _stretches(clear: str, amb: str) -> list[tuple[list[str], list[str], list[str], list[str]]]:
    """Each rewritten stretch of the two tasks (:func:`_regions`) with one kept word on each side: (clear side
    with edges, ambiguous side with edges, clear side, ambiguous side)."""
    cw, aw = words(clear), words(amb)
    return [
        (cw[max(0, i1 - 1) : i2 + 1], aw[max(0, j1 - 1) : j2 + 1], cw[i1:i2], aw[j1:j2])
        for i1, i2, j1, j2, _, _ in _regions(cw, aw)
    ]


def _says_whole(stretch: list[str], concept: str) -> bool:
    """A concept of several words said as written, its words in order ("cut out", not the "cut" of "cut it");
    a one-word concept up to its stem (:func:`_says_all`)."""
    if len(words(concept)) > 1:
        return bool(positions(" ".join(stretch), concept))
    return _says_all(stretch, concept)


def _names_handled_thing(item: Item, concept: str) -> bool:
    """``concept`` is the head of a kitchen thing the ambiguous task names ("glass" of the wine glasses it
    washes): a thing the task handles, not a cue to the answer."""
    heads = {
        lemma(words(e.name)[-1]) for e in item.environment if words(e.name) and mentions(item.ambiguous_task, e.name)
    }
    return bool(content_lemmas(concept) & heads)


def kept_cue_leaks(item: Item) -> list[str]:
    """The ambiguous task rewrites the open point and keeps, inside the rewritten stretch or right beside it,
    a word of another intent concept ("until the popping slows to 2 seconds between pops" -> "until the popping
    slows down" with the intent '2 seconds, slows'; "mash the soft dark avocado" -> "mash the ripe dark
    avocado" with 'soft, dark'). The dropped concept marks the stretch as the open point; the kept one, which
    the answer gives and the question does not ask, tells the robot part of the answer there."""
    groups = _intent_groups(item)
    if len(groups) < 2:
        return []
    for clear_wide, amb_wide, clear_side, amb_side in _stretches(item.unambiguous_direct, item.ambiguous_task):
        if not amb_side:
            continue
        dropped = _dropped_groups(groups, clear_side, amb_wide)
        if not dropped:
            continue
        kept = next(
            (
                a
                for a, alts in _cues(item, groups, dropped)
                if _says_whole(amb_wide, a)
                and any(_says_whole(clear_wide, b) for b in alts)
                and not _names_handled_thing(item, a)
            ),
            None,
        )
        if kept:
            return [
                f"ambiguous_task: rewrites the open point ({' '.join(clear_side)!r} -> {' '.join(amb_side)!r}) "
                f"and keeps the intended '{kept}' beside it"
            ]
    return []


def _or_question(question: str) -> bool:
    """The question offers alternatives with "or" ("Should the sugar be packed or spooned in loosely?"): a
    concept it says is one of the options, and the answer picks it."""
    return bool(_OR & {w.lower() for w in words(question)})


def added_step_leaks(item: Item) -> list[str]:
    """A step before ``end_of_ambiguity`` where the ambiguous plan says an intent concept that the clear plan's
    same step does not ("Open the fridge and clear some space on the bottom shelf." beside "Open the fridge.";
    "Rinse the grapes and take out the paring knife for halving them." beside "Rinse the grapes."), while the
    ambiguous task and the question say none of the concept and the answer gives it. The ambiguous step does
    all the clear step does (every content word of it) and more: up to the index the two plans do the same,
    so what the ambiguous plan adds there is the answer, said before the question. A step that does something
    else ("Warm a little oil on low heat" beside "Put the soup pot on the stove") adds nothing to compare."""
    groups = [[a for a in alts if content_lemmas(a)] for alts in _intent_groups(item)]
    groups = [alts for alts in groups if alts]
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    for alts in groups:
        if any(says_concept(item.ambiguous_task, a) for a in alts):
            continue
        if not any(says_concept(item.answer, a) for a in alts):
            continue
        if any(says_concept(item.question, a) for a in alts) and not _or_question(item.question):
            continue  # what the question is about ("How long should I boil the egg?"), not an option it offers
        for i in range(min(item.end_of_ambiguity, len(clear), len(amb))):
            if any(says_concept(clear[i], a) for a in alts) or not content_lemmas(clear[i]) <= content_lemmas(amb[i]):
                continue  # the clear step says it too, or the ambiguous step does something else
            said = next((a for a in alts if not _NUMBER.search(a) and says_concept(amb[i], a)), None)
            if said:
                return [
                    f"plan_for_amb_task[{i}]: says the intended '{said}', which the clear plan's step {i} does not "
                    f"(end_of_ambiguity {item.end_of_ambiguity}): {' '.join(amb[i].split())[:80]!r}"
                ]
    return []


def _intended_option(item: Item) -> tuple[list[str], list[frozenset[str]], int] | None:
    """The row's options (its shortlist, else its variants), what tells each from the others, and the index of
    the one option the intent names; None unless there are two options or more and exactly one is intended."""
    options = [o.strip() for o in item.amb_shortlist if o.strip()] or [o.strip() for o in item.variants if o.strip()]
    options = list(dict.fromkeys(o.lower() for o in options))
    if len(options) < 2 or not all(marks := _marks(options)):
        return None
    positives, _ = intent_concepts(item.user_intent)
    intended = content_lemmas(" ".join(a for alts in positives for a in alts))
    mine = [i for i, m in enumerate(marks) if m <= intended]
    return (options, marks, mine[0]) if len(mine) == 1 else None


def _only_its_word(item: Item, word: str, option: str) -> bool:
    """No kitchen thing but the intended ``option`` has ``word`` (or its family) in its name: said alone, the
    word can mean no other thing the kitchen holds."""
    return not any(any(_kin(w, word) for w in words(e.name)) for e in item.environment if not mentions(option, e.name))


def mark_leaks(item: Item, lexicon: Lexicon) -> list[str]:
    """The ambiguous text calls the intended option by the word that tells it from the other options, where the
    word can mean no other kitchen thing: the ambiguous task naming it by that word alone ("smooth the cloth
    flat" for the cloth napkins beside the paper ones; "drain them on the rack" for the wire rack beside the
    serving plate), or a step before ``end_of_ambiguity`` adding it, in any form of its family, to what the
    clear plan's same step does ("set the eggshells aside for composting" for the compost bin beside the
    recycling bin). The robot knows the option without its name."""
    question = item.question.strip()
    if not question or not (_CHOICE_QUESTION.search(question) or re.search(r"\bor\b", question, re.I)):
        return []
    found = _intended_option(item)
    if found is None:
        return []
    options, marks, mine = found
    option = options[mine]
    nouns = [m for m in marks[mine] if "NOUN" in classes(m) and _only_its_word(item, m, option)]
    if not nouns or any(mentions(question, m) and not _offered(question, m) for m in nouns):
        return []  # what the question is about ("knead the dough"), unless offered ("the cloth or the paper napkins?")
    others = [m for i, mark in enumerate(marks) if i != mine for m in mark]
    raw = [w.strip("'").lower() for w in words(item.ambiguous_task)]
    head = lemma(words(option)[-1])
    foods = {i for m in lexicon.scan(item.ambiguous_task)[1] if m.food for i in range(m.start, m.end)}
    if not any(any(_kin(w, m) for w in raw) for m in others):
        for j, w in enumerate(raw):
            if not any(_kin(w, m) for m in nouns) or j == 0 or raw[j - 1] not in _DETERMINERS:
                continue
            if j in foods and lemma(w) != head:
                continue  # "slice the bread" for the bread knife: the food the option is for, not the option
            following = raw[j + 1] if j + 1 < len(raw) else ""
            if following == "of" or (following and "NOUN" in classes(following) and following not in _NOT_NOUNS):
                continue  # "the cloth napkin": the name, read by the task checks; "a glass of milk": a portion
            return [f"ambiguous_task: calls the intended '{option}' by '{w}', which no other kitchen thing has"]
    clear, amb = item.plan_for_clear_task, item.plan_for_amb_task
    for i in range(min(item.end_of_ambiguity, len(clear), len(amb))):
        added = [w.lower() for w in words(amb[i]) if lemma(w.lower()) not in content_lemmas(clear[i])]
        if not content_lemmas(clear[i]) <= content_lemmas(amb[i]) or any(_kin(w, m) for w in added for m in others):
            continue
        said = next((w for w in added if is_content(w) and any(_kin(w, m) for m in nouns)), None)
        if said:
            return [
                f"plan_for_amb_task[{i}]: says '{said}' of the intended '{option}', which the clear plan's step {i} "
                f"does not (end_of_ambiguity {item.end_of_ambiguity}): {' '.join(amb[i].split())[:80]!r}"
            ]
    return []


#: Words after a noun that are no noun of its phrase ("the cloth flat", "the rack first").
_NOT_NOUNS = frozenset({"flat", "first", "then", "again", "now", "too", "well", "here", "there", "down", "up", "out"})
