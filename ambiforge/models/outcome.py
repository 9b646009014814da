"""What a stage passes on for one planned pair: the plan (:class:`PairSpec`) and what became of it
(:class:`Outcome`: an item, or the stage and reason that stopped it). Shared by generation, validation, the
judge and the engine's checkpoints, so it lives with the item, below all of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ambiforge.models.item import Item


@dataclass(frozen=True)
class PairSpec:
    index: int
    ambiguity_type: str


@dataclass
class Outcome:
    """What became of one planned pair: an item, or the stage and reason that stopped it."""

    index: int
    ambiguity_type: str
    item: Item | None = None
    attempt: int = 0
    stage: str | None = None
    reason: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def rejection(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "id": self.item.id if self.item else None,
            "ambiguity_type": self.ambiguity_type,
            "stage": self.stage,
            "reason": self.reason,
        }
