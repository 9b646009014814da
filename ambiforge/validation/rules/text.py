"""Text helpers shared by rules: normalisation, whole-word containment, and AmbiK's intent semantics.

AmbiK's ``user_intent`` keywords are *substrings* of the correct action ("slice" matches "slices" and
"sliced"), ``a|b`` are alternatives and ``-x`` must not appear; ``has`` and ``intent_concepts`` implement
exactly that, while ``contains`` is whole-word for names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ambiforge.textnorm import normalise

__all__ = ["contains", "count", "has", "has_any", "intent_concepts", "normalise"]


@lru_cache(maxsize=4096)
def _pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(phrase.lower().strip())}(?![\w-])")


def contains(text: str, phrase: str) -> bool:
    phrase = phrase.strip()
    return bool(phrase) and _pattern(phrase).search(text.lower()) is not None


def has(text: str, keyword: str) -> bool:
    """AmbiK semantics: ``keyword`` is a case-insensitive substring of ``text``."""
    keyword = keyword.strip().lower()
    return bool(keyword) and keyword in text.lower()


def count(text: str, keyword: str) -> int:
    """How often ``keyword`` occurs in ``text`` (AmbiK substring semantics): "into a glass" from "the glass
    milk bottle" names the glass once more than "into a container" from the same bottle."""
    keyword = keyword.strip().lower()
    return text.lower().count(keyword) if keyword else 0


def has_any(text: str, alternatives: list[str]) -> bool:
    return any(has(text, a) for a in alternatives)


def intent_concepts(user_intent: list[str]) -> tuple[list[list[str]], list[str]]:
    """``['ceramic|glass', '-metal']`` -> ([['ceramic', 'glass']], ['metal'])."""
    positives, negatives = _concepts(tuple(user_intent))
    return [list(a) for a in positives], list(negatives)


@lru_cache(maxsize=16384)
def _concepts(user_intent: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    positives: list[list[str]] = []
    negatives: list[str] = []
    for concept in user_intent:
        concept = concept.strip()
        if not concept:
            continue
        if concept.startswith("-"):
            if concept[1:].strip():
                negatives.append(concept[1:].strip())
        else:
            alternatives = [a.strip() for a in concept.split("|") if a.strip()]
            if alternatives:
                positives.append(alternatives)
    return tuple(tuple(a) for a in positives), tuple(negatives)
