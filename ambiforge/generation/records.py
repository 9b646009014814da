"""The generation stage's records: a planned pair, what became of it, and what makes pairs (a generator).

Kept apart from the stage's functions so that scheduling and duplicate resolution can share them.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any, Protocol

from ambiforge.errors import AmbiforgeError
from ambiforge.llm.limiter import call_priority
from ambiforge.models import Item
from ambiforge.models.outcome import Outcome, PairSpec


class Generator(Protocol):
    """``generate`` gives the pair at ``index`` and the attempt that made it; ``generate_outcome`` also
    gives what the pipeline keeps beside the item in raw/ (the LLM generator's scored candidates)."""

    name: str
    parallelism: int

    def generate(
        self, index: int, ambiguity_type: str, taken: set[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int]: ...

    def generate_outcome(
        self, index: int, ambiguity_type: str, taken: set[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int, dict[str, Any]]: ...


def pair_workers(generator: Generator) -> int:
    """Pairs in flight: an LLM pair is a chain of calls with client work between them, so keeping
    ``concurrency`` calls busy takes more pairs than calls; the limiter holds the calls to the limit."""
    return max(1, getattr(generator, "parallelism", 1)) * max(1, getattr(generator, "calls_per_pair", 1))


def generate_one(generator: Generator, spec: PairSpec, taken: AbstractSet[str] | None = None) -> Outcome:
    """One pair; its failure is an outcome with the stage that failed (``llm_call``, ``budget``...).

    Its calls are one chain for the LLM limiter (:func:`ambiforge.llm.limiter.call_priority`). ``taken``:
    tasks to skip (the scheduler passes what earlier pairs in flight announced)."""
    try:
        with call_priority(spec.index):
            item, attempt, meta = generator.generate_outcome(spec.index, spec.ambiguity_type, taken)  # type: ignore[arg-type]
        return Outcome(spec.index, spec.ambiguity_type, item, attempt, meta=dict(meta))
    except AmbiforgeError as exc:
        stage = getattr(exc, "stage", "generate")
        return Outcome(spec.index, spec.ambiguity_type, stage=stage, reason=str(exc))
