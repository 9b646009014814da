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

The keyword rule (:func:`decide`) asks whether the question touches the *open slot*, the part the
ambiguous task leaves open (:mod:`.open_slot` finds it from the item: marks that name an option or the missing
information, the options' head nouns, the words at the gap between the two tasks, the sentence that holds it,
whether it is a place), and not merely an object the pair shares with the question. In order:

1. A question that names nothing of the pair (no mark, head, gap word or task word, no scene object) is
   vague or unrelated: redirect.
2. A question that names two or more content words the pair never mentions (not in either task, the clear
   step, the answer, the options or the scene: "the red wine", "the jasmine rice") is about another dish or
   situation: redirect. Words any question uses ("before", "type", "safe") do not count.
3. A yes/no question gets the gold answer, which says yes or no, when it proposes an option or names the
   missing information ("Should I pour it into the glass mug?"), when it proposes another scene object for
   the step that holds the gap ("Can I cut the soup bag with the shears?", but not "Should I also wash the
   shears?": "also" adds, it does not choose), or when it asks whether the choice is free or safe ("Can I
   use any bowl?", "Is it safe to blend raw meat in the blender?"). Otherwise a yes/no question about the
   task is a confirmation that hides the choice ("Should I pour the milk now?"): "Yes."; one about another
   object, a redirect.
4. A wh-question that names a scene object the ambiguous task does not use asks about that object: redirect.
5. A where-question gets the gold answer only when the open slot is that kind of place: "Where is the egg
   kept?" asks where a thing is (the answer must say "in"/"from" a mark: "In the fridge."), "Where should I
   place the eggs?" where it goes (a mark after "into"/"on"/"to"); and it must name the slot (a mark, head,
   gap word or an object of the clear step).
6. A which/what question that names the kind it asks for ("Which type of bowl ...?") gets the gold answer
   when that kind is the slot's (its head is an option's head or a gap word), else a redirect ("Which type
   of glass ...?" when the slot is a plate). One that names only a category ("Which tool ...?", "What
   should I use ...?") gets it when it names a mark, head or gap word or a word of the sentence that holds
   the gap.

Scene objects the question names in full that are not of the slot's kind ("Where is the egg kept?" when the
slot is the bowl) count as that object, not as words of the task. The rule is deterministic and uses only
the item. ``python bench/simulated_user_precision.py`` measures it on the AmbiK calibration split; the
figures are in docs/judge.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ambiforge.detectors.open_slot import (
    CATEGORIES,
    concept_texts,
    head_key,
    is_yes_no,
    keys,
    root,
    slot_of,
    wh_target,
    word_set,
)
from ambiforge.models import Item
from ambiforge.textnorm import normalise

GOLD, CONFIRM, REDIRECT = "gold", "confirm", "redirect"
KINDS = (GOLD, CONFIRM, REDIRECT)
REDIRECT_TEXT = "I can't say more than the task does; please ask about what is unclear in it."
CONFIRM_TEXT = "Yes."


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


#: Words a question uses about any task (when, how, what kind): they never make it about another situation.
_NEUTRAL = frozenset(
    root(w)
    for w in word_set(
        "before after first then later find make making type types part apart besides together following "
        "preparation prepare safe unsafe hot cold add added"
    )
)
#: A question naming this many words the pair never mentions is about another dish or situation.
_FOREIGN = 2
_WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)
#: A where-question that asks where a thing is ("Where is the milk kept?", "Where can I find oranges?"); any
#: other asks where to put it or do it ("Where should I pour the milk?").
_WHERE_IS = re.compile(r"\bwhere\s+(is|are|was|were)\b|\b(kept|find|found|located|stored|lies?|from)\b", re.IGNORECASE)
#: A question that adds something ("Should I also wash ...?") does not propose a choice for the open slot.
_ADDITIVE = word_set("also too additionally extra")
#: Words by which a yes/no question asks about the choice rather than confirming the task ("Can I use any
#: bowl?", "Is it safe to blend raw meat?", "Does it matter which ...?").
_OPEN_CUES = word_set("any safe safely unsafe okay fine matter allowed suitable appropriate right")
_CATEGORY_KEYS = frozenset(root(w) for w in CATEGORIES)


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
    foreign = asked - slot.known - _NEUTRAL - _CATEGORY_KEYS
    if len(foreign) >= _FOREIGN and not elsewhere:
        return REDIRECT, f"asks about something the pair never mentions ({', '.join(sorted(foreign))})"
    if is_yes_no(question):
        if evidence & slot.marks and (not elsewhere or asked & slot.focus):
            return GOLD, "proposes an option or names the missing information"
        plain = set(normalise(question).split())
        if elsewhere and asked & slot.focus and not plain & _ADDITIVE:
            return GOLD, "proposes another object of the scene for the open step"
        cues = plain & _OPEN_CUES - set(normalise(hidden.ambiguous_task).split())  # not the task's own words
        if cues and asked & (slot.marks | slot.heads | slot.anchor | slot.focus):
            return GOLD, "asks whether the choice is free or safe"
        if evidence & (slot.task | slot.heads) and not elsewhere:
            return CONFIRM, "a yes/no question that names no option"
        return REDIRECT, "asks about another object"
    if elsewhere:
        return REDIRECT, "asks about another object of the scene"
    if _WHERE.search(question):
        if not (slot.source if _WHERE_IS.search(question) else slot.destination):
            return REDIRECT, "asks where, and the open slot is not that place"
        if asked & (slot.marks | slot.heads | slot.anchor | slot.near | slot.step):
            return GOLD, "asks where a thing of the task goes, or comes from, and that is the open slot"
    target = wh_target(question)
    if target:
        if head_key(" ".join(target)) & (slot.heads | slot.anchor):
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
    return ", ".join(concept_texts(hidden.intent)) or "which object or detail the user means"


def llm_reply(question: str, hidden: Hidden, model: Any, key: str, seed: int) -> Asked:
    """A model classifies the question; the reply is still the item's own text (:func:`reply_of`). An
    unusable classification is recorded and answered with the redirect (no information)."""
    from ambiforge.detectors import prompts
    from ambiforge.detectors.model import CallTag
    from ambiforge.errors import LLMCallError, LLMOutputError

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
