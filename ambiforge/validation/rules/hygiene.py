"""Text hygiene: a question that asks, no template leftovers or model refusals, lengths (a warning: long
recipes are legitimate). The family also carries the ``type`` rule (:mod:`.item_type`): a rule family is an
entry point, and this one runs every item's plain text checks."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from ambiforge.models import Item
from ambiforge.validation.lexicon import words
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.item_type import RULES as TYPE_RULES

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

_PLACEHOLDER = re.compile(
    r"\{[^{}]*\}|\{\{|\}\}|<[A-Za-z_]+>|\[(?:object|item|name|todo)[^\]]*\]|\bTODO\b|\bXXX\b|lorem ipsum",
    re.I,
)
_REFUSAL = re.compile(
    r"\bas an ai\b|\blanguage model\b|\bi(?:'m| am) sorry\b|\bi can(?:not|'t) (?:help|assist|do)\b", re.I
)
#: Cheap substring tests that every match of the patterns above contains (most items have none).
_PLACEHOLDER_HINTS = ("{", "}", "<", "[", "todo", "xxx", "lorem")
_REFUSAL_HINTS = ("as an ai", "language model", "sorry", "i can")
_TEXT_FIELDS = ("unambiguous_direct", "unambiguous_indirect", "ambiguous_task", "question", "answer")


def _texts(item: Item) -> list[tuple[str, str]]:
    out = [(f, getattr(item, f)) for f in _TEXT_FIELDS]
    out += [(f"plan_for_clear_task[{i}]", s) for i, s in enumerate(item.plan_for_clear_task)]
    out += [(f"plan_for_amb_task[{i}]", s) for i, s in enumerate(item.plan_for_amb_task)]
    return out


def check_question(item: Item, ctx: RuleContext) -> list[str]:
    """A question mark anywhere: "Which mug? The glass one is chipped." asks."""
    return [] if "?" in item.question else [f"question: has no '?': {item.question!r}"]


def check_placeholders(item: Item, ctx: RuleContext) -> list[str]:
    texts = _texts(item)
    joined = "\n".join(t for _, t in texts)  # one search over all texts; field by field only on a hit
    lower = joined.lower()
    if not any(c in lower for c in _PLACEHOLDER_HINTS) and not any(w in lower for w in _REFUSAL_HINTS):
        return []
    if not _PLACEHOLDER.search(joined) and not _REFUSAL.search(joined):
        return []
    problems = []
    for field, text in texts:
        if m := _PLACEHOLDER.search(text):
            problems.append(f"{field}: template placeholder left in the text: {m.group(0)!r}")
        if m := _REFUSAL.search(text):
            problems.append(f"{field}: reads like a model refusal: {m.group(0)!r}")
    return problems


def check_lengths(item: Item, ctx: RuleContext) -> list[str]:
    c = ctx.config
    bounds = {
        "unambiguous_direct": (c.min_task_words, c.max_task_words),
        "ambiguous_task": (c.min_task_words, c.max_task_words),
        "question": (2, c.max_question_words),
        "answer": (1, c.max_answer_words),
    }
    problems = []
    for field, (low, high) in bounds.items():
        n = len(words(getattr(item, field)))
        if not low <= n <= high:
            problems.append(f"{field}: {n} words (allowed {low} to {high})")
    return problems


def check_environment(item: Item, ctx: RuleContext) -> list[str]:
    """The scene list names each object once (a repeated name is a copy-paste slip or two objects that
    need telling apart)."""
    names = [n.strip().lower() for n in item.environment_short.split(",") if n.strip()]
    repeated = sorted(n for n, k in Counter(names).items() if k > 1)
    return [f"environment_short: lists {', '.join(repr(r) for r in repeated)} more than once"] if repeated else []


ORDER = 80  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("environment", "warning", check_environment, "the environment names each object once"),
    Rule("question", "error", check_question, "the clarifying question has a '?'"),
    Rule("hygiene", "error", check_placeholders, "no template placeholders or model refusals"),
    Rule("length", "warning", check_lengths, "task, question and answer lengths within bounds"),
    *TYPE_RULES,
)
