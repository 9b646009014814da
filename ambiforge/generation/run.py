"""The generation stage as functions over records: plan the pairs, generate a batch, resolve duplicates,
gate on the schema. Flows call these; they never touch Prefect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from pydantic import BaseModel, Field

from ambiforge.catalog import Catalog, load_catalog
from ambiforge.environment import SamplerLimits
from ambiforge.errors import AmbiforgeError, ConfigError
from ambiforge.generation.mix import AMBIK_MIX, type_sequence
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.textnorm import signature


class BuildOptions(BaseModel):
    """Everything that decides a build's output (and so goes into its summary)."""

    run_id: str = ""  # empty: a new time-based id when the flow starts (scheduled runs)
    provider: str = "offline"
    pairs: int = Field(ge=1)
    seed: int = 1
    out: str = "raw"
    catalog: str = ""
    type_mix: dict[str, float] = Field(default_factory=lambda: dict(AMBIK_MIX))
    batch_size: int = Field(default=200, ge=1)
    food_groups: tuple[int, int] = (2, 5)
    item_groups: tuple[int, int] = (2, 5)
    per_group: tuple[int, int] = (3, 5)
    config_path: str | None = None
    task_runner: str = "thread"  # thread | dask
    dask_address: str | None = None  # an existing Dask cluster; None: a local one


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


class Generator(Protocol):
    name: str

    def generate(
        self, index: int, ambiguity_type: str, taken: set[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int]: ...


@lru_cache(maxsize=8)
def cached_catalog(path: str) -> Catalog:
    return load_catalog(path or None)


def make_generator(options: BuildOptions) -> Generator:
    """The generator for ``options.provider`` (offline is embedded; LLM providers plug in here)."""
    catalog = cached_catalog(options.catalog)
    limits = SamplerLimits(options.food_groups, options.item_groups, options.per_group)
    if options.provider == "offline":
        from ambiforge.generation.offline import OfflineGenerator

        return OfflineGenerator(catalog, options.seed, options.run_id, limits)
    raise ConfigError(f"unknown provider {options.provider!r} (known: offline)")


def plan_pairs(options: BuildOptions) -> list[PairSpec]:
    types = type_sequence(options.pairs, options.type_mix, options.seed)
    return [PairSpec(i, t) for i, t in enumerate(types)]


def batches(specs: Sequence[PairSpec], size: int) -> list[list[PairSpec]]:
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def generate_batch(generator: Generator, specs: Sequence[PairSpec]) -> list[Outcome]:
    """Generate each pair on its own: one pair's failure is recorded, never fatal to the batch."""
    outcomes = []
    for spec in specs:
        try:
            item, attempt = generator.generate(spec.index, spec.ambiguity_type)
            outcomes.append(Outcome(spec.index, spec.ambiguity_type, item, attempt))
        except AmbiforgeError as exc:
            outcomes.append(Outcome(spec.index, spec.ambiguity_type, stage="generate", reason=str(exc)))
    return outcomes


def resolve_duplicates(
    outcomes: Sequence[Outcome], regenerate: Callable[[Outcome, set[str]], Outcome] | None
) -> list[Outcome]:
    """Make unambiguous tasks unique, in index order (so the result never depends on batching).

    Tasks are compared by content words (:func:`ambiforge.textnorm.signature`), so "Please bring me the mug"
    repeats "Bring me the mug". A later pair that repeats an earlier task is regenerated from its next
    attempt when the generator can; otherwise it is rejected as a duplicate with the id it repeats.
    """
    taken: dict[str, str] = {}  # task signature -> id of the item that has it
    resolved: list[Outcome] = []
    for outcome in sorted(outcomes, key=lambda o: o.index):
        item = outcome.item
        if item is not None and signature(item.unambiguous_direct) in taken:
            if regenerate is not None:
                outcome = regenerate(outcome, set(taken))
            else:
                outcome = Outcome(
                    outcome.index,
                    outcome.ambiguity_type,
                    item,
                    outcome.attempt,
                    stage="duplicates",
                    reason=f"same unambiguous task as {taken[signature(item.unambiguous_direct)]}",
                )
        if outcome.item is not None and outcome.stage is None:
            taken[signature(outcome.item.unambiguous_direct)] = outcome.item.id
        resolved.append(outcome)
    return resolved


def regenerator(generator: Generator) -> Callable[[Outcome, set[str]], Outcome]:
    def regenerate(outcome: Outcome, taken: set[str]) -> Outcome:
        try:
            item, attempt = generator.generate(
                outcome.index, outcome.ambiguity_type, taken, first_attempt=outcome.attempt + 1
            )
            return Outcome(outcome.index, outcome.ambiguity_type, item, attempt)
        except AmbiforgeError as exc:
            return Outcome(outcome.index, outcome.ambiguity_type, stage="duplicates", reason=str(exc))

    return regenerate


def schema_gate(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """Check every generated item against ``schemas/item.schema.json``; failures keep their messages."""
    checked = []
    for outcome in outcomes:
        if outcome.item is not None and outcome.stage is None:
            errors = schema_errors(outcome.item.to_record())
            if errors:
                outcome = Outcome(
                    outcome.index,
                    outcome.ambiguity_type,
                    outcome.item,
                    outcome.attempt,
                    stage="schema",
                    reason="; ".join(errors[:5]),
                )
        checked.append(outcome)
    return checked
