"""Text helpers shared by rules: normalisation, whole-word containment, and AmbiK's intent semantics.

AmbiK's ``user_intent`` keywords are *substrings* of the correct action ("slice" matches "slices" and
"sliced"), ``a|b`` are alternatives and ``-x`` must not appear; ``has`` and ``intent_concepts`` implement
exactly that, while ``contains`` is whole-word for names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ambiforge.models.intent import parse_intent
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
    """``['ceramic|glass', '-metal|steel']`` -> ([['ceramic', 'glass']], ['metal', 'steel']): the positive
    concepts' alternatives and every negated alternative, as :func:`ambiforge.models.intent.parse_intent`
    reads them."""
    concepts = parse_intent(user_intent)
    positives = [list(c.alternatives) for c in concepts if not c.negated]
    negatives = [alt for c in concepts if c.negated for alt in c.alternatives]
    return positives, negatives
