"""Text helpers shared by rules: normalisation and whole-word containment."""

from __future__ import annotations

import re
from functools import lru_cache

from ambiforge.textnorm import normalise

__all__ = ["contains", "intent_concepts", "normalise"]


@lru_cache(maxsize=4096)
def _pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(phrase.lower().strip())}(?![\w-])")


def contains(text: str, phrase: str) -> bool:
    phrase = phrase.strip()
    return bool(phrase) and _pattern(phrase).search(text.lower()) is not None


def intent_concepts(user_intent: list[str]) -> tuple[list[list[str]], list[str]]:
    """``['ceramic|glass', '-metal']`` -> ([['ceramic', 'glass']], ['metal'])."""
    positives: list[list[str]] = []
    negatives: list[str] = []
    for concept in user_intent:
        concept = concept.strip()
        if not concept:
            continue
        if concept.startswith("-"):
            negatives.append(concept[1:].strip())
        else:
            positives.append([a.strip() for a in concept.split("|") if a.strip()])
    return positives, negatives
