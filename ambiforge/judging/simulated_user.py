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


def terms(hidden: Hidden) -> tuple[set[str], set[str], set[str]]:
    """``(specific, general, scene)`` content words of the pair (see the module's docstring)."""
    task = words(hidden.ambiguous_task)
    named = _concept_texts(hidden.intent) + list(hidden.shortlist) + _concept_texts(hidden.variants)
    specific: set[str] = set()
    for phrase in named:
        specific |= words(phrase)
    specific |= words(hidden.clear_task) - task
    specific |= words(hidden.clear_step) - task
    general = set(task)
    for phrase in named:
        general |= _head(phrase)
    scene: set[str] = set()
    for obj in hidden.scene:
        scene |= words(obj)
    return specific, general - specific, scene - task - specific


def is_yes_no(question: str) -> bool:
    """A question a yes or no answers: it opens with an auxiliary verb ("Should I ...", "Is it ...")."""
    text = _LEADING.sub("", question.strip())
    first = re.match(r"[A-Za-z']+", text)
    return bool(first) and first.group(0).lower() in _AUXILIARIES and " or " not in f" {text.lower()} "


def keyword_reply(question: str, hidden: Hidden) -> Reply:
    """The deterministic reference user."""
    asked = words(question)
    specific, general, scene = terms(hidden)
    if not question.strip() or not (asked & (specific | general)):
        return reply_of(REDIRECT, hidden, "names nothing the task leaves open")
    if is_yes_no(question) and not asked & specific and not asked & scene:
        return reply_of(CONFIRM, hidden, "a yes/no question that names no option")
    return reply_of(GOLD, hidden, "addresses what the task leaves open")


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
