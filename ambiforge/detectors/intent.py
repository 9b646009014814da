"""AmbiK's intent semantics for detectors: does an action (or a set of actions) carry what the user meant?

The concepts are read by the one parser, :func:`ambiforge.models.intent.parse_intent`.

An action *satisfies* an intent when it carries every positive concept and no negated one. A prediction
set *covers* a concept when some option in it does: for a positive concept, an option containing one of
its alternatives; for a negated concept, an option containing none of them (the set still holds an action
that respects the constraint). ICR is covered concepts over all concepts.
"""

from __future__ import annotations

from collections.abc import Sequence

from ambiforge.models.intent import parse_intent


def satisfies(action: str, intent: Sequence[str]) -> bool:
    """Every concept holds for this one action (an empty intent is never satisfied: nothing to check)."""
    parsed = parse_intent(intent)
    return bool(parsed) and all(c.satisfied_by(action) for c in parsed)


def coverage(options: Sequence[str], intent: Sequence[str]) -> tuple[int, int]:
    """``(covered, total)`` concepts of ``intent`` over the option set."""
    parsed = parse_intent(intent)
    covered = sum(1 for c in parsed if any(c.satisfied_by(o) for o in options))
    return covered, len(parsed)


def is_correct(option: str, intent: Sequence[str], variants: Sequence[str] = ()) -> bool:
    """A correct answer before disambiguation: it satisfies the intent, or one of the variants.

    AmbiK's ``variants`` cell is either the intent again (one line, comma-separated concepts) or one
    acceptable choice per line (the shortlist's objects); each line-variant is one concept of its own.
    """
    if satisfies(option, intent):
        return True
    if list(variants) == list(intent):
        return False
    return any(satisfies(option, [v]) for v in variants)
