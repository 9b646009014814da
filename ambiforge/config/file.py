"""Configuration: one file (``ambiforge.toml``) plus environment variables for secrets.

Looked up in this order: ``--config PATH``, ``$AMBIFORGE_CONFIG``, ``./ambiforge.toml``; missing means
defaults. Each stage owns a section; unknown keys are errors so a typo does not silently change a build.
Sections are nested as they are into the options of every command (:mod:`ambiforge.config.build`), never
copied field by field, so no setting is lost on the way to a stage.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ambiforge import inputs
from ambiforge.ambiguity import check_mix, default_mix, register_folders
from ambiforge.config.judge import JudgeConfig
from ambiforge.config.llm import LLMConfig
from ambiforge.config.sampler import SamplerConfig
from ambiforge.config.validation import ValidationConfig
from ambiforge.errors import ConfigError


class _Section(BaseModel):
    # No nan or inf: a nan bound makes every comparison false, so it silently lets everything through.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class PathsConfig(_Section):
    raw: str = "raw"
    curated: str = "curated"
    annotation: str = "annotation"
    catalog: str = ""


#: Upper bounds on the work one build may ask for; the limit is in the error message. A million pairs is a
#: large scheduled build; 99999999999999999999 pairs once ran 471 s and took 16.8 GB before the kernel
#: stopped it. More ambiguous variants per pair than this only multiply LLM cost.
MAX_PAIRS = 1_000_000
MAX_CANDIDATES = 20
MAX_BATCH_SIZE = 100_000
#: Seeds are stored in Parquet as int64 (and a 40-digit seed overflowed there, after the work was done).
MAX_SEED = 2**63 - 1


class BuildConfig(_Section):
    provider: str = "offline"
    # strict: ``pairs = true`` is not 1
    pairs: int = Field(default=100, ge=1, le=MAX_PAIRS, strict=True)
    candidates: int = Field(default=1, ge=1, le=MAX_CANDIDATES, strict=True)
    seed: int = Field(default=1, ge=0, le=MAX_SEED, strict=True)
    batch_size: int = Field(default=200, ge=1, le=MAX_BATCH_SIZE, strict=True)
    task_runner: str = "thread"
    type_mix: dict[str, float] = Field(default_factory=default_mix)

    @field_validator("type_mix")
    @classmethod
    def _mix(cls, value: dict[str, float]) -> dict[str, float]:
        try:
            check_mix(value)
        except ConfigError as exc:  # a ValueError for pydantic, so the message names the key
            raise ValueError(str(exc)) from None
        return value


class AmbiguityConfig(_Section):
    """``[ambiguity]``: folders of ambiguity types beyond the built-in ones (definition, templates, prompts).

    Relative folders are resolved against the configuration file's folder when it is loaded, so the
    options carry absolute paths to every process that registers them again (a Dask worker, a subprocess).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    folders: tuple[str, ...] = ()

    def register(self) -> None:
        """Register the folders' types in this process (idempotent: the same folder twice is a no-op)."""
        register_folders(self.folders)


class ReleaseConfig(_Section):
    calibration_size: int = Field(default=100, ge=0, strict=True)
    seed: int = Field(default=1, ge=0, le=MAX_SEED, strict=True)
    license: str = "cc-by-4.0"
    mix_tolerance: float = Field(default=0.05, ge=0, le=1)  # the release's type mix against [build.type_mix]
    repository_url: str = ""  # where the dataset's code lives; the card links it and cites it
    title: str = "ambiforge kitchen ambiguity dataset"  # the card's title and the citation's
    authors: list[str] = Field(default_factory=lambda: ["ambiforge maintainers"])  # for the citation


class EvalConfig(_Section):
    """``[eval]``: ``[eval.methods.<name>]`` holds one method's own settings (``samples = 10`` for
    lofreecp). The tables are read, and their keys checked, by the eval against each method's settings
    model (:mod:`ambiforge.detectors.methods.settings`): the methods are not known at this layer."""

    methods: dict[str, dict[str, Any]] = Field(default_factory=dict)


class Config(_Section):
    paths: PathsConfig = Field(default_factory=PathsConfig)
    build: BuildConfig = Field(default_factory=BuildConfig)
    sampler: SamplerConfig = Field(default_factory=SamplerConfig)
    validation: ValidationConfig = Field(default_factory=ValidationConfig)
    ambiguity: AmbiguityConfig = Field(default_factory=AmbiguityConfig)
    release: ReleaseConfig = Field(default_factory=ReleaseConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    source: str | None = None  # the file it came from, for messages

    def where(self, key: str) -> str:
        """``ambiforge.toml: llm.prompts_dir`` (or just the key for defaults), for one-line errors."""
        return f"{self.source}: {key}" if self.source else key


def _first_error(path: Path, exc: ValidationError, prefix: str = "") -> ConfigError:
    first = exc.errors()[0]
    where = ".".join(str(x) for x in (prefix, *first["loc"]) if x != "")
    message = first["msg"].removeprefix("Value error, ")
    return ConfigError(f"{path}: {where}: {message}")


def _register_ambiguity(path: Path, data: dict[str, Any]) -> None:
    """Types from ``[ambiguity] folders`` must be known before ``[build] type_mix`` is checked."""
    section = data.get("ambiguity")
    if section is None:
        return
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: ambiguity: expected a table")
    try:
        ambiguity = AmbiguityConfig(**section)
    except ValidationError as exc:
        raise _first_error(path, exc, "ambiguity") from None
    folders = []
    for i, folder in enumerate(ambiguity.folders):
        resolved = (path.parent / folder).resolve()
        if not resolved.is_dir():
            raise ConfigError(f"{path}: ambiguity.folders.{i}: {folder} is not a folder")
        folders.append(str(resolved))
    data["ambiguity"] = {**section, "folders": folders}
    register_folders(folders)


def _as_json(path: Path, data: dict[str, Any]) -> str:
    """The file's values as JSON, so that pydantic reads every field in strict mode alike: a string is
    never a number (``absence = "0.5"`` is refused as ``pairs = true`` is), while a TOML array still fills
    a tuple and a table a section. A TOML date or time is a value no field takes."""

    def refuse(value: object) -> Any:
        raise ConfigError(f"{path}: {value!r}: a date or time is not a value of any setting")

    return json.dumps(data, default=refuse)


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    candidate = path or os.environ.get("AMBIFORGE_CONFIG")
    p = Path(candidate) if candidate else Path("ambiforge.toml")
    if not p.exists():
        if candidate:
            raise ConfigError(f"{p}: configuration file not found")
        return Config()
    if p.is_dir():
        raise ConfigError(f"{p}: configuration file is not a file")
    text = inputs.read_text(p, inputs.CONFIG, "configuration file")  # a regular file of at most 1 MiB
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{p}: not valid TOML: nested too deeply") from None
    _register_ambiguity(p, data)
    try:
        cfg = Config.model_validate_json(_as_json(p, {**data, "source": str(p)}), strict=True)
    except ValidationError as exc:
        raise _first_error(p, exc) from None
    check_judge(cfg)
    return cfg


def check_judge(cfg: Config) -> None:
    """``[judge] provider`` must be one of ``[llm.providers]`` (a section the judge does not own)."""
    if cfg.judge.provider not in cfg.llm.providers:
        known = ", ".join(sorted(cfg.llm.providers))
        raise ConfigError(f"{cfg.where('judge.provider')}: unknown provider {cfg.judge.provider!r} (known: {known})")
