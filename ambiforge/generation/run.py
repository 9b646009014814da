"""The generation stage as functions over records: plan the pairs, generate a batch, resolve duplicates,
gate on the schema. Flows call these; they never touch Prefect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ambiforge.catalog import cached_catalog
from ambiforge.errors import AmbiforgeError, ConfigError
from ambiforge.generation.mix import type_sequence
from ambiforge.llm.limiter import Limiter
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.textnorm import signature

if TYPE_CHECKING:  # options import the configuration, which imports validation, which imports Outcome from here
    from ambiforge.options import BuildOptions


def __getattr__(name: str) -> Any:
    """``BuildOptions`` used to live here; it is :class:`ambiforge.options.BuildOptions` now."""
    if name == "BuildOptions":
        from ambiforge.options import BuildOptions

        return BuildOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def llm_cache_dir(options: BuildOptions) -> Path:
    """Shared by every run under ``options.out``, so a request paid for in one run is free in the next."""
    if options.llm is not None and options.llm.cache_dir:
        return Path(options.llm.cache_dir)
    return Path(options.out) / ".llm-cache"


def make_generator(options: BuildOptions, limiter: Limiter | None = None) -> Generator:
    """The generator for ``options.provider``: the embedded offline one, or the LLM one (``openai``,
    ``mistral`` or ``llm`` differ only in ``options.llm.steps``). ``limiter`` replaces the process-wide
    LLM limiter (the flow passes one shared across Dask workers)."""
    options.prepare()
    catalog = cached_catalog(options.catalog)
    limits = options.sampler.limits()
    if options.provider == "offline":
        from ambiforge.generation.offline import OfflineGenerator

        return OfflineGenerator(catalog, options.seed, options.run_id, limits)
    from ambiforge.llm.config import LLMConfig

    if options.provider == "llm" or options.provider in (options.llm or LLMConfig()).providers:
        if options.llm is None:
            raise ConfigError(f"provider {options.provider!r} needs LLM settings ([llm] in ambiforge.toml)")
        from ambiforge.generation.llm import LLMGenerator

        return LLMGenerator(
            catalog,
            options.seed,
            options.run_id,
            options.llm,
            Path(options.out) / options.run_id,
            llm_cache_dir(options),
            limits,
            candidates=options.candidates,
            limiter=limiter,
        )
    raise ConfigError(f"unknown provider {options.provider!r} (known: offline, llm, openai, mistral)")


def plan_pairs(options: BuildOptions) -> list[PairSpec]:
    types = type_sequence(options.pairs, options.type_mix, options.seed)
    return [PairSpec(i, t) for i, t in enumerate(types)]


def batches(specs: Sequence[PairSpec], size: int) -> list[list[PairSpec]]:
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def generate_one(generator: Generator, spec: PairSpec) -> Outcome:
    """One pair; its failure is an outcome with the stage that failed (``llm_call``, ``budget``...)."""
    try:
        item, attempt, meta = generator.generate_outcome(spec.index, spec.ambiguity_type)
        return Outcome(spec.index, spec.ambiguity_type, item, attempt, meta=meta)
    except AmbiforgeError as exc:
        stage = getattr(exc, "stage", "generate")
        return Outcome(spec.index, spec.ambiguity_type, stage=stage, reason=str(exc))


def generate_batch(generator: Generator, specs: Sequence[PairSpec]) -> list[Outcome]:
    """Generate each pair on its own: one pair's failure is recorded, never fatal to the batch.

    An LLM generator waits on the network, so its pairs run on ``generator.parallelism`` threads (its
    limiter keeps the calls within the configured concurrency and rate); results keep the specs' order.
    """
    workers = max(1, getattr(generator, "parallelism", 1))
    if workers == 1 or len(specs) == 1:
        return [generate_one(generator, spec) for spec in specs]
    with ThreadPoolExecutor(max_workers=min(workers, len(specs)), thread_name_prefix="pair") as pool:
        return list(pool.map(lambda spec: generate_one(generator, spec), specs))


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
            item, attempt, meta = generator.generate_outcome(
                outcome.index, outcome.ambiguity_type, taken, first_attempt=outcome.attempt + 1
            )
            return Outcome(outcome.index, outcome.ambiguity_type, item, attempt, meta=meta)
        except AmbiforgeError as exc:
            stage = getattr(exc, "stage", "duplicates")
            return Outcome(outcome.index, outcome.ambiguity_type, stage=stage, reason=str(exc))

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
