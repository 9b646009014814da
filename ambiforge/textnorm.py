"""Text normalisation shared by generation (duplicate resolution) and validation (duplicate rules), so
both agree on when two tasks are the same task."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s'|-]")
FUNCTION_WORDS = frozenset(
    {"a", "an", "the", "some", "me", "my", "you", "your", "i", "robot", "please", "could", "can", "would"}
    | {"will", "need", "to", "for", "of", "and", "it", "them", "this", "that"}
)


def normalise(text: str) -> str:
    """Lowercase, punctuation out, spaces folded: 'Robot, bring me the mug.' -> 'robot bring me the mug'."""
    return _SPACE.sub(" ", _PUNCT.sub(" ", text.lower())).strip()


def signature(text: str) -> str:
    """A task's content words, sorted: politeness and function words do not make a new task."""
    return " ".join(sorted({w for w in normalise(text).split() if w not in FUNCTION_WORDS}))
