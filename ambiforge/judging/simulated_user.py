"""A simulated user who holds a pair's hidden answer and answers a robot's clarifying question.

The user knows what the ambiguous task leaves open (the item's ``answer``, ``user_intent``, ``amb_shortlist``)
and replies in one of three ways, always with text taken verbatim from the item, so it can never leak more
than the item holds:

- ``gold``: the item's ``answer``, when the question addresses what the ambiguous task leaves open;
- ``confirm``: "Yes.", when the question is a yes/no confirmation that hides the choice (it names none of
  the options, so a "yes" tells the robot nothing it did not assume);
- ``redirect``: a fixed sentence with no information, when the question is vague, irrelevant or about
  something else.

Two deciders share these replies. :func:`keyword_reply` is the deterministic reference; :func:`llm_reply`
lets a model classify the question (addresses / confirmation / vague) and builds the reply the same way.

The keyword rule works on content words (lowercase, singular, without function words):
- *specific* terms name an option or the missing information: the intent's concepts (negated ones too), the
  shortlist, the variants, the clear task's words that the ambiguous task lacks, the clear plan's step at
  ``end_of_ambiguity`` minus the ambiguous task's words;
- *general* terms name the ambiguous object or its category: the ambiguous task's words and the head nouns
  of the shortlist and of the intent ("bowl" for "ceramic bowl");
- *scene* terms: objects in the scene that the ambiguous task does not mention (a yes/no question naming one,
  "Can I use the shears?", proposes a choice, so it gets the gold answer, which says yes or no).

A question with no specific or general term is a redirect; a yes/no question with general terms only (and
no scene object of its own) is a confirmation; anything else gets the gold answer. On the AmbiK calibration
split the item's own question gets the gold answer in the share reported in docs/judge.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from ambiforge.models import Item
from ambiforge.textnorm import normalise, singular

GOLD, CONFIRM, REDIRECT = "gold", "confirm", "redirect"
KINDS = (GOLD, CONFIRM, REDIRECT)
REDIRECT_TEXT = "I can't say more than the task does; please ask about what is unclear in it."
CONFIRM_TEXT = "Yes."


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_AUXILIARIES = _set(
    "should shall can could may might must will would do does did is are was were am have has had need want"
)
_LEADING = re.compile(r"^\s*((kitchen\s+)?robot|okay|ok|so|and|but|sorry|please|hey|excuse me)\s*[,:]?\s*", re.I)
#: Words that carry no content in a question (besides textnorm's function words).
_STOP = _set(
    "a an the some any me my you your i we us our robot please could can would will should shall may might must "
    "to for of and or it its them they this that these those there here what which who whom whose when where "
    "why how is are was were be been being am do does did done doing have has had having not no yes with "
    "without in on at by from into onto up down out over under about as if then than so just also too very "
    "more most less one ones thing things something anything kind type sort use used using want wanted like "
    "need needed prefer preferred go get make made put take let know tell mean meant exactly specific "
    "particular other another else clarify clarification sure okay ok kitchen task instruction do "
    "first next now time again all each every both either neither"
)


@dataclass(frozen=True)
class Hidden:
    """What the simulated user knows about one pair (from an item or an eval task)."""

    ambiguous_task: str
    clear_task: str
    answer: str
    intent: tuple[str, ...]
    shortlist: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    clear_step: str = ""
    scene: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reply:
    kind: str  # GOLD, CONFIRM or REDIRECT
    text: str
    reason: str = ""

    @property
    def gets_gold(self) -> bool:
        return self.kind == GOLD


def reply_of(kind: str, hidden: Hidden, reason: str = "") -> Reply:
    """The verbatim reply for a kind: the user never writes anything of its own."""
    if kind == GOLD:
        return Reply(GOLD, hidden.answer, reason)
    if kind == CONFIRM:
        return Reply(CONFIRM, CONFIRM_TEXT, reason)
    return Reply(REDIRECT, REDIRECT_TEXT, reason)


def words(text: str) -> set[str]:
    """Content words, singular: what two phrasings of one thing share."""
    return {singular(w) for w in re.findall(r"[a-z][a-z'-]*", normalise(text)) if w not in _STOP and len(w) > 2}


def _concept_texts(concepts: Sequence[str]) -> list[str]:
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
    return [
        root(singular(w)) for w in re.findall(r"[a-z][a-z'-]*", normalise(text)) if w not in _STOP and len(w) > 2
    ]


def _head_key(phrase: str) -> set[str]:
    return {root(w) for w in _head(phrase)}


@dataclass(frozen=True)
class Slot:
    """What the ambiguous task leaves open, as matching keys (see the module's docstring)."""

    marks: frozenset[str]  # name an option or the missing information; the ambiguous task lacks them
    heads: frozenset[str]  # the kind of thing the slot is about: head nouns of the options ("bowl")
    anchor: frozenset[str]  # the ambiguous task's keys at the gap: what the clear task replaces, a neighbour
    focus: frozenset[str]  # the ambiguous task's sentences that hold the gap, and the clear step's shared keys
    task: frozenset[str]  # every content key of the ambiguous task
    step: frozenset[str]  # the keys the clear plan's step at end_of_ambiguity shares with the ambiguous task
    known: frozenset[str]  # every key the pair mentions: both tasks, the step, the answer, options, scene
    others: tuple[frozenset[str], ...]  # scene objects that are not of the slot's kind, as key sets
    source: bool = False  # the open slot is where a thing comes from: a mark after "from" ("from the fridge")
    destination: bool = False  # ... or where a thing goes: a mark after "in", "into", "on", "to" ...


#: Words a question uses about any task (when, how, what kind): they never make it about another situation.
_NEUTRAL = frozenset(
    root(w)
    for w in "before after first then later find make making type types part apart besides together following "
    "preparation prepare safe unsafe hot cold add added".split()
)
#: A question naming this many words the pair never mentions is about another dish or situation.
_FOREIGN = 2
#: Prepositions after which a mark names a place to take a thing from, or to put it (or do it) in.
_FROM = _set("from in inside at")
_TO = _set("in into on onto inside to at")
_WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)
#: A where-question with one of these verbs asks where to put a thing; without, where it is ("kept", "find").
_PUT = re.compile(r"\b(put|place|placed|pour|poured|serve|served|store|transfer|set|leave|go|add|crack|cook)\b", re.I)
#: A question that adds something ("Should I also wash ...?") does not propose a choice for the open slot.
_ADDITIVE = _set("also too additionally extra")
#: A change longer than this (on either side) is a rewrite: its words are not the gap's own.
_SHORT_CHANGE = 4
#: Words by which a yes/no question asks about the choice rather than confirming the task ("Can I use any
#: bowl?", "Is it safe to blend raw meat?", "Does it matter which ...?").
_OPEN_CUES = _set("any safe safely unsafe okay fine matter allowed suitable appropriate right")


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+", text) if s.strip()]


def slot_of(hidden: Hidden) -> Slot:
    """The open slot of a pair: the options' words, the gap between the two tasks, the scene's other objects.

    The gap is found by aligning the two tasks' content words (:class:`difflib.SequenceMatcher`, the standard
    library's longest-matching-block diff): words the clear task inserts in a short change are marks, the
    ambiguous words it replaces ("a suitable tool", "somewhere") and the nearest word on either side are the
    anchor (only the option's head when it borders one: "into a [ceramic] bowl" anchors on "bowl")."""
    task_seq, clear_seq = _seq(hidden.ambiguous_task), _seq(hidden.clear_task)
    task = frozenset(task_seq)
    named = _concept_texts(hidden.intent) + list(hidden.shortlist) + _concept_texts(hidden.variants)
    option_keys: set[str] = set()
    heads: set[str] = set()
    for phrase in named:
        option_keys |= keys(phrase)
        heads |= _head_key(phrase)
    step = keys(hidden.clear_step)
    marks = (option_keys | (step - task)) - task
    anchor: set[str] = set()
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, task_seq, clear_seq, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        inserted, replaced = clear_seq[j1:j2], task_seq[i1:i2]
        if len(inserted) <= _SHORT_CHANGE and len(replaced) <= _SHORT_CHANGE:
            marks |= set(inserted) - task
            anchor |= set(replaced)
        sides = [task_seq[i1 - 1]] if i1 > 0 else []
        sides += [task_seq[i2]] if i2 < len(task_seq) else []
        anchor |= {w for w in sides if w in heads} or set(sides)
    sentences = [frozenset(_seq(s)) for s in _sentences(hidden.ambiguous_task)]
    holding = [s for s in sentences if s & (anchor | heads)]
    focus = frozenset().union(*holding) | (step & task) if holding else frozenset(step & task)
    kinds = heads | anchor
    others = tuple(
        frozenset(keys(o)) for o in hidden.scene if _head_key(o) and not _head_key(o) & kinds and not keys(o) <= marks
    )
    source, destination = _place(hidden, marks, _FROM), _place(hidden, marks, _TO)
    known = task | keys(hidden.clear_task) | step | keys(hidden.answer) | option_keys
    for obj in hidden.scene:
        known |= keys(obj)
    return Slot(
        frozenset(marks),
        frozenset(heads),
        frozenset(anchor),
        focus,
        task,
        frozenset(step & task),
        frozenset(known),
        others,
        source,
        destination,
    )


def _place(hidden: Hidden, marks: set[str], prepositions: frozenset[str]) -> bool:
    """Whether the answer puts a mark right after one of ``prepositions`` ("In the fridge.", "On paper towels.")."""
    for text in (hidden.answer,):
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
_QUALIFIERS = _set("type types kind kinds sort sorts specific exactly particular other set sets piece pieces of")


#: Category nouns: "which tool", "what ingredient" ask for whatever fills the slot, not for one kind of thing.
_CATEGORIES = _set(
    "item items thing things object objects tool tools utensil utensils ingredient ingredients condiment "
    "condiments food foods appliance appliances cookware kitchenware tableware equipment option options"
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
    return [] if not target or target[-1] in _CATEGORIES else target


def decide(question: str, hidden: Hidden) -> tuple[str, str]:
    """``(kind, reason)`` of the keyword user's reply (the rule is in the module's docstring)."""
    if not question.strip():
        return REDIRECT, "an empty question"
    asked = keys(question)
    slot = slot_of(hidden)
    named = [o for o in slot.others if o <= asked]  # the question names these scene objects in full
    elsewhere = [o for o in named if not o <= slot.task]  # ... and the ambiguous task does not use them
    evidence = asked - frozenset().union(*named) if named else asked
    if not (asked & (slot.marks | slot.heads | slot.anchor | slot.task) or elsewhere):
        return REDIRECT, "names nothing of the task"
    foreign = asked - slot.known - _NEUTRAL - {root(w) for w in _CATEGORIES}
    if len(foreign) >= _FOREIGN and not elsewhere:
        return REDIRECT, f"asks about something the pair never mentions ({', '.join(sorted(foreign))})"
    if is_yes_no(question):
        if evidence & slot.marks and (not elsewhere or asked & slot.focus):
            return GOLD, "proposes an option or names the missing information"
        plain = set(normalise(question).split())
        if elsewhere and asked & slot.focus and not plain & _ADDITIVE:
            return GOLD, "proposes another object of the scene for the open step"
        if plain & _OPEN_CUES and asked & (slot.marks | slot.heads | slot.anchor):
            return GOLD, "asks whether the choice is free or safe"
        if evidence & (slot.task | slot.heads) and not elsewhere:
            return CONFIRM, "a yes/no question that names no option"
        return REDIRECT, "asks about another object"
    if elsewhere:
        return REDIRECT, "asks about another object of the scene"
    if _WHERE.search(question):
        if not (slot.destination if _PUT.search(question) else slot.source):
            return REDIRECT, "asks where, and the open slot is not that place"
        if asked & (slot.marks | slot.heads | slot.anchor | slot.step):
            return GOLD, "asks where a thing of the task goes, or comes from, and that is the open slot"
    target = wh_target(question)
    if target:
        if _head_key(" ".join(target)) & (slot.heads | slot.anchor):
            return GOLD, "asks which of the open slot's kind"
        return REDIRECT, "asks which of another kind of thing"
    if evidence & (slot.marks | slot.heads | slot.anchor | slot.focus):
        return GOLD, "asks about the open slot or its step"
    return REDIRECT, "asks about a part of the task that is not open"


def keyword_reply(question: str, hidden: Hidden) -> Reply:
    """The deterministic reference user."""
    kind, reason = decide(question, hidden)
    return reply_of(kind, hidden, reason)


def hidden_from_item(item: Item) -> Hidden:
    """What the user knows of a pair."""
    eoa = item.end_of_ambiguity
    plan = item.plan_for_clear_task
    return Hidden(
        ambiguous_task=item.ambiguous_task,
        clear_task=item.unambiguous_direct,
        answer=item.answer,
        intent=tuple(item.user_intent),
        shortlist=tuple(item.amb_shortlist),
        variants=tuple(item.variants),
        clear_step=plan[eoa] if 0 <= eoa < len(plan) else "",
        scene=tuple(o.name for o in item.environment),
    )


USER_PROMPT = "judge_user_classify"
_CLASS = re.compile(r"\b(addresses|address|confirmation|confirm|vague|unrelated|irrelevant|other)\b", re.IGNORECASE)
_CLASS_KIND = {"address": GOLD, "addresses": GOLD, "confirmation": CONFIRM, "confirm": CONFIRM}


@dataclass(frozen=True)
class Asked:
    """The user's reply to one question, and what it cost (the LLM user's call; none for the keyword user)."""

    reply: Reply
    calls: tuple[str, ...] = ()
    cached_calls: int = 0
    error: str | None = None


def parse_class(text: str) -> str:
    """The reply kind from the classifier's word; :class:`ValueError` when there is none."""
    found = _CLASS.search(text)
    if found is None:
        raise ValueError(f"no ADDRESSES, CONFIRMATION or VAGUE in the simulated user's reply: {text[:60]!r}")
    return _CLASS_KIND.get(found.group(1).lower(), REDIRECT)


def open_part(hidden: Hidden) -> str:
    """What the ambiguous task leaves open, for the classifier: the intent's words, not the answer."""
    return ", ".join(_concept_texts(hidden.intent)) or "which object or detail the user means"


def llm_reply(question: str, hidden: Hidden, model: Any, key: str, seed: int) -> Asked:
    """A model classifies the question; the reply is still the item's own text (:func:`reply_of`). An
    unusable classification is recorded and answered with the redirect (no information)."""
    from ambiforge.errors import LLMCallError, LLMOutputError
    from ambiforge.evaluation import prompts
    from ambiforge.evaluation.model import CallTag

    prompt = prompts.prompt(USER_PROMPT)
    messages = prompt.render(
        {
            "task": hidden.ambiguous_task,
            "open_part": open_part(hidden),
            "shortlist": list(hidden.shortlist),
            "question": question,
        }
    )
    try:
        done = model.complete(
            messages, CallTag("dialogue.user", prompt.id, prompt.version, key), max_tokens=8, seed=seed
        )
    except (LLMCallError, LLMOutputError) as exc:
        return Asked(reply_of(REDIRECT, hidden, "the user's call failed"), error=f"call failed: {exc}")
    try:
        kind = parse_class(done.text)
    except ValueError as exc:
        return Asked(reply_of(REDIRECT, hidden, "unusable classification"), (done.call_id,), int(done.cached), str(exc))
    return Asked(reply_of(kind, hidden, f"classified {done.text.strip()[:20]!r}"), (done.call_id,), int(done.cached))


def answer(
    question: str, hidden: Hidden, user: str = "keyword", model: Any = None, key: str = "", seed: int = 0
) -> Asked:
    """Put ``question`` to the simulated user: ``user`` is ``keyword`` (the reference) or ``llm`` (``model``)."""
    if user == "keyword":
        return Asked(keyword_reply(question, hidden))
    if user == "llm":
        if model is None:
            raise ValueError("the llm simulated user needs a model")
        return llm_reply(question, hidden, model, key, seed)
    from ambiforge.errors import ConfigError

    raise ConfigError(f"simulated user: unknown kind {user!r} (known: keyword, llm)")
