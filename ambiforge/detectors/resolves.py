"""Does a pair's gold answer let a planner resolve the ambiguity? A deterministic check.

A planner that gets the answer must be able to write the clear plan's step at ``end_of_ambiguity``: that
step must carry the intent (every concept holds in it, :func:`ambiforge.detectors.intent.satisfies`), and
each positive intent concept the ambiguous task does not already state must appear in the answer (or the
question, when the answer is a bare "Yes"/"No" to it). An intent of negations only ("-metal bowl") needs
the answer to name one of them ("No, not the metal bowl") or to name an object of the clear step that the
ambiguous task lacks (the one to use instead).
"""

from __future__ import annotations

from dataclasses import dataclass

from ambiforge.detectors.intent import satisfies
from ambiforge.detectors.open_slot import words
from ambiforge.models import Item
from ambiforge.models.intent import parse_intent


@dataclass(frozen=True)
class Resolution:
    ok: bool
    reason: str = ""


def clear_step(item: Item) -> str:
    plan, eoa = item.plan_for_clear_task, item.end_of_ambiguity
    return plan[eoa] if 0 <= eoa < len(plan) else ""


def resolves_step(item: Item) -> Resolution:
    step = clear_step(item)
    if not step:
        return Resolution(False, f"the clear plan has no step {item.end_of_ambiguity} (end_of_ambiguity)")
    concepts = parse_intent(item.user_intent)
    if not concepts:
        return Resolution(False, "the item has no user_intent to resolve")
    if not satisfies(step, item.user_intent):
        return Resolution(False, f"the clear plan's step {item.end_of_ambiguity} does not carry the intent: {step!r}")
    told = f"{item.answer} {item.question}"
    positive = [c for c in concepts if not c.negated]
    missing = [c for c in positive if not c.present(told) and not c.present(item.ambiguous_task)]
    if missing:
        names = ", ".join("|".join(c.alternatives) for c in missing)
        return Resolution(False, f"the answer does not give {names}")
    if not positive:
        named = any(c.present(told) for c in concepts)
        instead = words(step) - words(item.ambiguous_task)
        if not named and not words(item.answer) & instead:
            return Resolution(False, "the answer names neither the object to avoid nor one to use instead")
    return Resolution(True)
