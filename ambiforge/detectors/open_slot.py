"""What a pair's ambiguous task leaves open, as matching keys, and how a question is put (for the keyword user).

The *open slot* of a pair is found from the item alone:

- **marks** name an option or the missing information: the words of the intent's concepts (negated ones
  too), the shortlist and the variants, the clear plan's step at ``end_of_ambiguity``, and the words the
  clear task inserts in a short change, each minus the ambiguous task's words;
- **heads** name the kind of thing the slot is about: the head nouns of the options ("bowl" of "ceramic
  bowl");
- **anchor**: the ambiguous task's words at the gap, found by aligning the two tasks' content words
  (:class:`difflib.SequenceMatcher`, the standard library's longest-matching-block diff): the words a short
  change replaces ("a suitable tool", "somewhere"); for a pure insertion, the nearest word on either side
  (only the option's head when it borders one: "into a [ceramic] bowl" anchors on "bowl"); and the acts of
  instrument options ("blend" for "blender");
- **near**: the gap's words and their neighbours, also for replacements ("put the carrot [away]": carrot);
- **focus**: the ambiguous task's sentences that hold the gap (anchor, near) or a head;
- **others**: scene objects that are not of the slot's kind (their head is no head or anchor);
- **source** / **destination**: the slot is a place, where a thing is kept (the answer puts a mark after
  "in", "from": "In the fridge.") or where it goes (a mark after "into", "on", "to" in the answer or the
  clear task: "into the ceramic mug").

Matching keys are content words (lowercase, singular, no function words) put on one key per verb by
:func:`root` ("sliced", "slicing", "slice"), a few lines of suffix rules rather than a stemmer: NLTK's
Snowball stemmer turns "added" into "ad" but "add" into "add", which is the kind of pair that matters here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from ambiforge.textnorm import normalise, singular

if TYPE_CHECKING:
    from ambiforge.detectors.simulated_user import Hidden


def word_set(text: str) -> frozenset[str]:
    """A fixed set of words written as one string."""
    return frozenset(text.split())


_AUXILIARIES = word_set(
    "should shall can could may might must will would do does did is are was were am have has had need want"
)
_LEADING = re.compile(r"^\s*((kitchen\s+)?robot|okay|ok|so|and|but|sorry|please|hey|excuse me)\s*[,:]?\s*", re.I)
#: Words that carry no content in a question (besides textnorm's function words).
_STOP = word_set(
    "a an the some any me my you your i we us our robot please could can would will should shall may might must "
    "to for of and or it its them they this that these those there here what which who whom whose when where "
    "why how is are was were be been being am do does did done doing have has had having not no yes with "
    "without in on at by from into onto up down out over under about as if then than so just also too very "
    "more most less one ones thing things something anything kind type sort use used using want wanted like "
    "need needed prefer preferred go get make made put take let know tell mean meant exactly specific "
    "particular other another else clarify clarification sure okay ok kitchen task instruction do "
    "first next now time again all each every both either neither"
)


def words(text: str) -> set[str]:
    """Content words, singular: what two phrasings of one thing share."""
    return {singular(w) for w in re.findall(r"[a-z][a-z'-]*", normalise(text)) if w not in _STOP and len(w) > 2}


def concept_texts(concepts: Sequence[str]) -> list[str]:
    return [alt for raw in concepts for alt in raw.strip().lstrip("-").split("|") if alt.strip()]


def _head(phrase: str) -> set[str]:
    found = [w for w in re.findall(r"[a-z][a-z'-]*", normalise(phrase)) if w not in _STOP and len(w) > 2]
    return {singular(found[-1])} if found else set()


def root(word: str) -> str:
    """A light stem that puts a verb's forms on one key ("added", "add"; "sliced", "slicing", "slice";
    "chopped", "chop") and nothing else: "blender" stays apart from "blend" (an appliance, not the act)."""
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "lsfz":
                word = word[:-1]
            break
    return word[:-1] if word.endswith("e") and len(word) >= 4 else word


def keys(text: str) -> set[str]:
    """The keyword user's matching keys of a text: its content words (:func:`words`) by :func:`root`."""
    return {root(w) for w in words(text)}


def _seq(text: str) -> list[str]:
    """Content keys in order (for aligning the two halves of a pair)."""
    return [root(singular(w)) for w in re.findall(r"[a-z][a-z'-]*", normalise(text)) if w not in _STOP and len(w) > 2]


def head_key(phrase: str) -> set[str]:
    return {root(w) for w in _head(phrase)}


@dataclass(frozen=True)
class Slot:
    """What the ambiguous task leaves open, as matching keys (see the module's docstring)."""

    marks: frozenset[str]  # name an option or the missing information; the ambiguous task lacks them
    heads: frozenset[str]  # the kind of thing the slot is about: head nouns of the options ("bowl")
    anchor: frozenset[str]  # the ambiguous task's keys at the gap: what the clear task replaces, a neighbour
    focus: frozenset[str]  # the ambiguous task's sentences that hold the gap, and the clear step's shared keys
    near: frozenset[str]  # the gap's words and their neighbours ("put the carrot [away]": carrot, away)
    task: frozenset[str]  # every content key of the ambiguous task
    step: frozenset[str]  # the keys the clear plan's step at end_of_ambiguity shares with the ambiguous task
    known: frozenset[str]  # every key the pair mentions: both tasks, the step, the answer, options, scene
    others: tuple[frozenset[str], ...]  # scene objects that are not of the slot's kind, as key sets
    source: bool = False  # the open slot is where a thing comes from: a mark after "from" ("from the fridge")
    destination: bool = False  # ... or where a thing goes: a mark after "in", "into", "on", "to" ...


#: Prepositions after which a mark names a place to take a thing from, or to put it (or do it) in.
_FROM = word_set("from in inside at")
_TO = word_set("in into on onto inside to at")
#: A change longer than this (on either side) is a rewrite: its words are not the gap's own.
_SHORT_CHANGE = 4


def _acts(names: set[str]) -> set[str]:
    """The acts that instrument nouns among ``names`` do ("blender" -> "blend", "grater" -> "grat"): "What
    should be used to blend it?" asks for the blender."""
    return {root(n[:cut]) for n in names if n.endswith("er") and len(n) > 5 for cut in (-2, -1)}


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+", text) if s.strip()]


def slot_of(hidden: Hidden) -> Slot:
    """The open slot of a pair: the options' words, the gap between the two tasks, the scene's other objects.

    Words the clear task inserts in a short change are marks; the ambiguous words it replaces are the anchor,
    and for a pure insertion its neighbours (see the module's docstring). ``autojunk`` is off: in a
    long task (200 words or more) it would drop the frequent words from the alignment."""
    task_seq, clear_seq = _seq(hidden.ambiguous_task), _seq(hidden.clear_task)
    task = frozenset(task_seq)
    named = concept_texts(hidden.intent) + list(hidden.shortlist) + concept_texts(hidden.variants)
    option_keys: set[str] = set()
    heads: set[str] = set()
    for phrase in named:
        option_keys |= keys(phrase)
        heads |= head_key(phrase)
    step = keys(hidden.clear_step)
    marks = (option_keys | (step - task)) - task
    anchor: set[str] = set()
    near: set[str] = set()  # the gap's words and neighbours, to find the sentences that hold it
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, task_seq, clear_seq, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        inserted, replaced = clear_seq[j1:j2], task_seq[i1:i2]
        if len(inserted) <= _SHORT_CHANGE and len(replaced) <= _SHORT_CHANGE:
            marks |= set(inserted) - task
            anchor |= set(replaced)
        sides = [task_seq[i1 - 1]] if i1 > 0 else []
        sides += [task_seq[i2]] if i2 < len(task_seq) else []
        near |= set(sides) | set(replaced)
        if not replaced:  # "a suitable tool" marks the gap itself; its neighbours are given ("the metal bowl")
            anchor |= {w for w in sides if w in heads} or set(sides)
    anchor |= _acts(option_keys)  # "what should be used to blend it?" asks for the blender
    sentences = [frozenset(_seq(s)) for s in _sentences(hidden.ambiguous_task)]
    holding = [s for s in sentences if s & (anchor | near | heads)]
    focus = frozenset().union(*holding) | (step & task) if holding else frozenset(step & task)
    kinds = heads | anchor
    others = tuple(
        frozenset(keys(o)) for o in hidden.scene if head_key(o) and not head_key(o) & kinds and not keys(o) <= marks
    )
    source = _place((hidden.answer,), marks, _FROM)
    destination = _place((hidden.answer, hidden.clear_task, hidden.clear_step), marks, _TO)
    known = task | keys(hidden.clear_task) | step | keys(hidden.answer) | option_keys
    for obj in hidden.scene:
        known |= keys(obj)
    return Slot(
        frozenset(marks),
        frozenset(heads),
        frozenset(anchor),
        focus,
        frozenset(near),
        task,
        frozenset(step & task),
        frozenset(known),
        others,
        source,
        destination,
    )


def _place(texts: Sequence[str], marks: set[str], prepositions: frozenset[str]) -> bool:
    """Whether one of ``texts`` puts a mark right after one of ``prepositions`` ("In the fridge.", "into the
    ceramic mug"). Where a thing is comes from the answer alone: the clear task's "from the strawberry
    yogurt cup" names the choice, not where the yogurt is kept."""
    for text in texts:
        tokens = re.findall(r"[a-z][a-z'-]*", normalise(text))
        for i, token in enumerate(tokens):
            if token in prepositions and any(root(singular(t)) in marks for t in tokens[i + 1 : i + 4]):
                return True
    return False


def is_yes_no(question: str) -> bool:
    """A question a yes or no answers: it opens with an auxiliary verb ("Should I ...", "Is it ...")."""
    text = _LEADING.sub("", question.strip())
    first = re.match(r"[A-Za-z']+", text)
    return bool(first) and first.group(0).lower() in _AUXILIARIES and " or " not in f" {text.lower()} "


#: Words between "which"/"what" and the thing asked about ("which type of bowl", "what specific tool").
_QUALIFIERS = word_set("type types kind kinds sort sorts specific exactly particular other set sets piece pieces of")


#: Category nouns: "which tool", "what ingredient" ask for whatever fills the slot, not for one kind of thing.
CATEGORIES = word_set(
    "item items thing things object objects tool tools utensil utensils ingredient ingredients condiment "
    "condiments food foods appliance appliances cookware kitchenware tableware equipment option options "
    "vegetable vegetables fruit fruits spice spices seasoning seasonings drink drinks"
)


def wh_target(question: str) -> list[str]:
    """The words of what a which/what question asks to choose ("Which type of bowl should ..." -> ["bowl"]);
    empty when it names none ("What should I use ...?") or only a category ("Which tool ...?")."""
    found = re.search(r"\b(?:which|what)\b([^,;:?.!]*)", question.lower())
    if not found:
        return []
    target: list[str] = []
    for token in re.findall(r"[a-z][a-z'-]*", found.group(1)):
        if token in _QUALIFIERS and not target:
            continue
        if token in _AUXILIARIES or token in _STOP:
            break
        target.append(token)
    return [] if not target or target[-1] in CATEGORIES else target
