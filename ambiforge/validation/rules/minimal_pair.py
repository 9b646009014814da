"""minimal_pair: the ambiguous task is a small rewrite of the unambiguous one.

The edit ratio is the token-level Levenshtein distance over the longer task's length (rapidfuzz, which
computes it in C over token sequences); for preferences the word that tells the options apart must be
gone from the ambiguous task, or it is not ambiguous.
"""

from __future__ import annotations

from rapidfuzz.distance import Levenshtein

from ambiforge.models import Item
from ambiforge.validation.context import RuleContext
from ambiforge.validation.lexicon import words
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.text import contains, intent_concepts, normalise


def edit_ratio(a: str, b: str) -> float:
    ta, tb = words(a), words(b)
    return Levenshtein.distance(ta, tb) / max(len(ta), len(tb), 1)


def check_minimal_pair(item: Item, ctx: RuleContext) -> list[str]:
    if normalise(item.ambiguous_task) == normalise(item.unambiguous_direct):
        return ["ambiguous_task: the same as unambiguous_direct"]
    ratio = edit_ratio(item.unambiguous_direct, item.ambiguous_task)
    problems = []
    if ratio > ctx.config.max_edit_ratio:
        problems.append(
            f"ambiguous_task: rewrites {ratio:.0%} of unambiguous_direct's words "
            f"(limit {ctx.config.max_edit_ratio:.0%}); a minimal pair changes as little as possible"
        )
    if item.ambiguity_type == "preferences":
        positives, _ = intent_concepts(item.user_intent)
        for alternatives in positives:
            for word in alternatives:
                if contains(item.ambiguous_task, word):
                    problems.append(f"ambiguous_task: still contains the distinguishing word '{word}'")
    return problems


RULES = (Rule("minimal_pair", "error", check_minimal_pair, "ambiguous task differs, but minimally"),)
