"""Configuration: one file (``ambiforge.toml``) plus environment variables for secrets.

Looked up in this order: ``--config PATH``, ``$AMBIFORGE_CONFIG``, ``./ambiforge.toml``; missing means
defaults. Each stage owns a section; unknown keys are errors so a typo does not silently change a build.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ambiforge.errors import ConfigError
from ambiforge.generation.mix import AMBIK_MIX, check_mix
from ambiforge.llm.config import LLMConfig
from ambiforge.validation.context import ValidationConfig


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PathsConfig(_Section):
    raw: str = "raw"
    curated: str = "curated"
    annotation: str = "annotation"
    catalog: str = ""


class BuildConfig(_Section):
    provider: str = "offline"
    pairs: int = Field(default=100, ge=1)
    candidates: int = Field(default=1, ge=1)
    seed: int = 1
    batch_size: int = Field(default=200, ge=1)
    task_runner: str = "thread"
    type_mix: dict[str, float] = Field(default_factory=lambda: dict(AMBIK_MIX))

    @field_validator("type_mix")
    @classmethod
    def _mix(cls, value: dict[str, float]) -> dict[str, float]:
        check_mix(value)
        return value


class SamplerConfig(_Section):
    food_groups: tuple[int, int] = (2, 5)
    item_groups: tuple[int, int] = (2, 5)
    per_group: tuple[int, int] = (3, 5)


class ReleaseConfig(_Section):
    calibration_size: int = Field(default=100, ge=0)
    seed: int = 1
    license: str = "cc-by-4.0"
    mix_tolerance: float = Field(default=0.05, ge=0, le=1)  # the release's type mix against [build.type_mix]
    repository_url: str = ""  # where the dataset's code lives; the card links it and cites it
    title: str = "ambiforge kitchen ambiguity dataset"  # the card's title and the citation's
    authors: list[str] = Field(default_factory=lambda: ["ambiforge maintainers"])  # for the citation


class Config(_Section):
    paths: PathsConfig = Field(default_factory=PathsConfig)
    build: BuildConfig = Field(default_factory=BuildConfig)
    sampler: SamplerConfig = Field(default_factory=SamplerConfig)
    validation: ValidationConfig = Field(default_factory=ValidationConfig)
    release: ReleaseConfig = Field(default_factory=ReleaseConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    source: str | None = None  # the file it came from, for messages


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    candidate = path or os.environ.get("AMBIFORGE_CONFIG")
    p = Path(candidate) if candidate else Path("ambiforge.toml")
    if not p.exists():
        if candidate:
            raise ConfigError(f"{p}: configuration file not found")
        return Config()
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    try:
        return Config(**data, source=str(p))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"{p}: {where}: {first['msg']}") from None
