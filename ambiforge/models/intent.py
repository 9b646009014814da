"""The one reading of an item's ``user_intent`` (AmbiK's syntax), for the validation rules and the detectors.

``user_intent`` is a list of concepts. A concept is a case-insensitive substring of the correct action;
``a|b`` is satisfied by either alternative; ``-x`` (or ``-x|y``) is a negation: the action must contain none
of its alternatives. Before there was one parser, validation read ``-metal|steel`` as the literal phrase
"metal|steel" while evaluation read "neither metal nor steel"; both now read the latter, the meaning AmbiK's
``|`` has everywhere else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

_SPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lower case, white space folded: how a concept and an action are compared (punctuation kept, unlike
    :func:`ambiforge.textnorm.normalise`, because AmbiK's concepts are substrings that may hold it)."""
    return _SPACE.sub(" ", text.lower()).strip()


@dataclass(frozen=True)
class Concept:
    alternatives: tuple[str, ...]
    negated: bool

    def present(self, action: str) -> bool:
        """One of the alternatives appears in the action."""
        text = fold(action)
        return any(alt in text for alt in self.alternatives)

    def satisfied_by(self, action: str) -> bool:
        return self.present(action) != self.negated


def parse_concept(raw: str) -> Concept | None:
    text = raw.strip()
    negated = text.startswith("-")
    if negated:
        text = text[1:]
    alternatives = tuple(a for a in (fold(p) for p in text.split("|")) if a)
    return Concept(alternatives, negated) if alternatives else None


def parse_intent(concepts: Sequence[str]) -> tuple[Concept, ...]:
    """The concepts of an intent, empty ones left out."""
    return _parse(tuple(concepts))


@lru_cache(maxsize=16384)
def _parse(concepts: tuple[str, ...]) -> tuple[Concept, ...]:
    return tuple(c for c in (parse_concept(raw) for raw in concepts) if c is not None)
