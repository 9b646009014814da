"""minimal_pair: the ambiguous task is a rewrite of the unambiguous one that leaves the choice open.

- ``minimal_pair`` (error): the tasks differ; the ambiguous task is a rewrite of the unambiguous one at all
  (it keeps a content word and at most ``max_rewrite_ratio`` of its words are new); and for types whose
  minimal pair drops the distinguishing word (the registry's ``minimal_pair == 'drop_distinguishing_word'``)
  that word is gone from the ambiguous task. Types whose ambiguity is in the kitchen, not the words
  (``minimal_pair == 'same_instruction'``) keep the instruction: there the two tasks must be the same.
- ``rewrite`` (warning): the share of the ambiguous task's words that are new or replaced (deleting words is
  the usual way to make a task ambiguous, so "Slice the lemon." from a long task counts as 0%). rapidfuzz
  aligns the token sequences (Indel: the longest common subsequence) in C.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rapidfuzz.distance import Indel

from ambiforge import ambiguity
from ambiforge.models import Item
from ambiforge.textnorm import signature
from ambiforge.validation.lexicon import words
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.text import contains, intent_concepts, normalise

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
    if _drops_word(item.ambiguity_type):
        positives, _ = intent_concepts(item.user_intent)
        for alternatives in positives:
            for word in alternatives:
                if contains(item.ambiguous_task, word):
                    problems.append(f"ambiguous_task: still contains the distinguishing word '{word}'")
    return problems


def check_rewrite(item: Item, ctx: RuleContext) -> list[str]:
    if _same_instruction(item.ambiguity_type):
        return []
    ratio = new_word_ratio(item.unambiguous_direct, item.ambiguous_task)
    if ratio > ctx.config.max_edit_ratio:
        return [
            f"ambiguous_task: rewrites {ratio:.0%} of its words, new or replaced "
            f"(limit {ctx.config.max_edit_ratio:.0%}); a minimal pair changes as little as possible"
        ]
    return []


ORDER = 40  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("minimal_pair", "error", check_minimal_pair, "ambiguous task differs and drops the distinguishing word"),
    Rule("rewrite", "warning", check_rewrite, "the ambiguous task rewrites little of the unambiguous one"),
)
