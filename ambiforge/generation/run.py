"""The generation stage as functions over records: plan the pairs, generate a batch, resolve duplicates,
gate on the schema. Flows call these; they never touch Prefect.

The records live in :mod:`.records`, batch scheduling in :mod:`.scheduling`, duplicate resolution in
:mod:`.duplicates`; everything is importable from here, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ambiforge.catalog import cached_catalog
from ambiforge.errors import ConfigError
from ambiforge.generation.duplicates import (
    GAVE_UP,
    REGENERATED_FROM,
    DuplicateResolver,
    Regenerator,
    TakenBefore,
    regenerator,
    resolve_duplicates,
)
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.records import Generator, generate_one, pair_workers
from ambiforge.generation.scheduling import generate_batch
from ambiforge.llm.calls import llm_cache_dir
from ambiforge.llm.limiter import Limiter
from ambiforge.models.outcome import Outcome, PairSpec
from ambiforge.models.schema import schema_errors

__all__ = [
    "GAVE_UP",
    "DuplicateResolver",
    "REGENERATED_FROM",
    "Generator",
    "Regenerator",
    "TakenBefore",
    "batches",
    "generate_batch",
    "generate_one",
    "make_generator",
    "pair_workers",
    "plan_pairs",
    "regenerator",
    "resolve_duplicates",
    "schema_checked",
    "schema_gate",
]

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions


def make_generator(options: BuildOptions, limiter: Limiter | None = None) -> Generator:
    """The generator for ``options.provider``: the embedded offline one, or the LLM one (``openai``,
    ``mistral`` or ``llm`` differ only in ``options.llm.steps``). ``limiter`` replaces the process-wide
    LLM limiter (the flow passes one shared across Dask workers)."""
    options.prepare()
    catalog = cached_catalog(options.catalog)
    limits = options.sampler
    if options.provider == "offline":
        from ambiforge.generation.offline import OfflineGenerator

        return OfflineGenerator(catalog, options.seed, options.run_id, limits)
    from ambiforge.config.llm import LLMConfig

    configured = (options.llm or LLMConfig()).providers  # every registered provider, plus [llm.providers.*]
    if options.provider == "llm" or options.provider in configured:
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
            validation=options.validation,  # candidates are scored under the run's own rule settings
        )
    known = ", ".join(("offline", "llm", *configured))
    raise ConfigError(f"unknown provider {options.provider!r} (known: {known})")


def plan_pairs(options: BuildOptions) -> list[PairSpec]:
    types = type_sequence(options.pairs, options.type_mix, options.seed)
    return [PairSpec(i, t) for i, t in enumerate(types)]


def batches(specs: Sequence[PairSpec], size: int) -> list[list[PairSpec]]:
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def schema_gate(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """Check every generated item against ``schemas/item.schema.json``; failures keep their messages."""
    return [schema_checked(outcome)[0] for outcome in outcomes]


def schema_checked(outcome: Outcome) -> tuple[Outcome, dict[str, Any] | None]:
    """:func:`schema_gate` of one outcome, with its item's record (made once: the stage writes that record
    at once, so the record dies young and the collector never walks it)."""
    if outcome.item is None:
        return outcome, None
    record = outcome.item.to_record()
    if outcome.stage is None:
        errors = schema_errors(record)
        if errors:
            rejected = Outcome(
                outcome.index,
                outcome.ambiguity_type,
                outcome.item,
                outcome.attempt,
                stage="schema",
                reason="; ".join(errors[:5]),
            )
            return rejected, record
    return outcome, record
