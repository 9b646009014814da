"""The one path from configuration to the options a command runs with.

:class:`BuildOptions` nests the configuration's sections (``sampler``, ``validation``, ``llm``,
``ambiguity``) as they are, so whatever ``ambiforge.toml`` says reaches the stage that reads it; the CLI
(``build``, ``serve``), deployments and tests all make options with :func:`build_options` or by
validating a dict. Options are plain data: they travel to Dask workers and Prefect deployments, and
:meth:`BuildOptions.prepare` redoes there what loading the configuration did in the CLI's process
(registering ambiguity types from folders).

Fields that only say how a run executes (where, in which batches, on which runner) are marked with
:func:`execution`; every other field shapes the output and goes into the run's fingerprint
(:mod:`ambiforge.engine.fingerprint`), so a new option is covered without editing a list elsewhere.

Checks that need what lives above the configuration (the prompts, the judge's LLM settings) run before
any work, in :mod:`ambiforge.engine.preflight`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator

from ambiforge.ambiguity import check_mix, default_mix
from ambiforge.config.file import MAX_CANDIDATES, MAX_PAIRS, MAX_SEED, AmbiguityConfig, Config, check_judge
from ambiforge.config.judge import JudgeConfig
from ambiforge.config.llm import LLMConfig
from ambiforge.config.sampler import SamplerConfig
from ambiforge.config.validation import ValidationConfig

_EXECUTION = "execution"
#: Execution settings inside sections this module does not define (limits, retries, budget, where the
#: cache is): a resumed run may change them. Sections of our own mark such fields with :func:`execution`.
SECTION_EXECUTION: dict[str, set[str]] = {
    "llm": {
        "concurrency",
        "rpm",
        "max_retries",
        "backoff_seconds",
        "max_backoff_seconds",
        "timeout_seconds",
        "max_cost",
        "cache_dir",
        "providers",
        "prices",
    }
}


def execution(default: Any = None, **kwargs: Any) -> Any:
    """A field that changes how a run executes but never what it writes (kept out of the fingerprint)."""
    return Field(default, json_schema_extra={_EXECUTION: True}, **kwargs)


class BuildOptions(BaseModel):
    """Everything that decides a build's output (and so goes into its summary and fingerprint)."""

    run_id: str = execution("")  # empty: a new time-based id when the flow starts (scheduled runs)
    provider: str = "offline"
    pairs: int = Field(ge=1, le=MAX_PAIRS)
    seed: int = Field(default=1, ge=0, le=MAX_SEED)
    out: str = execution("raw")
    catalog: str = ""
    type_mix: dict[str, float] = Field(default_factory=default_mix)
    candidates: int = Field(default=1, ge=1, le=MAX_CANDIDATES)  # ambiguous variants per pair; the validators pick one
    sampler: SamplerConfig = Field(default_factory=SamplerConfig)
    validation: ValidationConfig = Field(default_factory=ValidationConfig)
    ambiguity: AmbiguityConfig = Field(default_factory=AmbiguityConfig)
    llm: LLMConfig | None = None  # steps, models and limits for LLM providers (no keys: those stay in the env)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)  # the judge stage after validation ([judge])
    # the LLM settings the judge calls through when the generator has none (an offline build): endpoints,
    # limits and cache only, so not part of the output (the judge's models are in ``judge``)
    judge_llm: LLMConfig | None = execution(None)
    batch_size: int = execution(200, ge=1)
    config_path: str | None = execution(None)
    task_runner: str = execution("thread")  # thread | dask
    dask_address: str | None = execution(None)  # an existing Dask cluster; None: a local one
    reference: str | None = execution(None)  # AmbiK-format CSV whose diversity figures the report shows beside ours

    @model_validator(mode="after")
    def _register_types(self) -> BuildOptions:
        self.prepare()
        return self

    def prepare(self) -> BuildOptions:
        """Make this process ready for the options: register the ambiguity types from their folders.
        Validation does it; a task that received unpickled options (a Dask worker) calls it again."""
        self.ambiguity.register()
        return self

    @classmethod
    def execution_fields(cls) -> tuple[str, ...]:
        return tuple(
            name
            for name, f in cls.model_fields.items()
            if isinstance(f.json_schema_extra, dict) and f.json_schema_extra.get(_EXECUTION)
        )

    def output_options(self) -> dict[str, Any]:
        """The options that shape the output, as JSON values (tuples as lists)."""
        exclude: dict[str, Any] = {name: True for name in self.execution_fields()}
        exclude |= {name: dict.fromkeys(keys, True) for name, keys in SECTION_EXECUTION.items()}
        if not self.judge.enabled:  # a stage that does not run shapes nothing (and old runs keep their fingerprint)
            exclude["judge"] = True
        return self.model_dump(mode="json", exclude=exclude)


def build_options(cfg: Config, **overrides: Any) -> BuildOptions:
    """Options for a build from the configuration; ``overrides`` (command-line values) win when not None.

    Sections are nested whole; only ``[build]`` and ``[paths]`` values are picked by name because they
    are the command-line's defaults.
    """
    given = {k: v for k, v in overrides.items() if v is not None}
    values: dict[str, Any] = {
        "provider": cfg.build.provider,
        "pairs": cfg.build.pairs,
        "seed": cfg.build.seed,
        "out": cfg.paths.raw,
        "catalog": cfg.paths.catalog,
        "type_mix": check_mix(cfg.build.type_mix),
        "candidates": cfg.build.candidates,
        "batch_size": cfg.build.batch_size,
        "task_runner": cfg.build.task_runner,
        "sampler": cfg.sampler,
        "validation": cfg.validation,
        "ambiguity": cfg.ambiguity,
        "config_path": cfg.source,
    }
    if cfg.judge.enabled:
        check_judge(cfg)
        llm = given.get("llm") or cfg.llm
        values["judge"] = cfg.judge.resolved(llm.providers[cfg.judge.provider].default_model)
        values["judge_llm"] = llm
    else:
        values["judge"] = cfg.judge
    return BuildOptions(**(values | given))
