"""``[judge]`` in ambiforge.toml: whether builds run the judge stage, with which methods, models and rules.

The agents' models default to the provider's default model three times (``[llm.providers.<p>]
default_model``); :meth:`JudgeConfig.resolved` fills them in once the LLM settings are known, so the
options (and the run's fingerprint) name the models that judged.

``personas`` gives each agent a persona text (its system prompt's character: "a cautious safety
inspector", ...), one per agent in the agents' order: as many as ``models``, or three when ``models`` is
not given. Empty personas are left out of the configuration's dump, so a run judged before personas
existed keeps its fingerprint and its ``judgements.jsonl`` keys; a persona that changes re-judges.
"""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from ambiforge.detectors.debate import DEFAULT_AGENTS, persona_problem
from ambiforge.judge.checks import FLAGS, METHODS, USERS

__all__ = ["DEFAULT_AGENTS", "MAX_ROUNDS", "JudgeConfig"]

MAX_ROUNDS = 5


class JudgeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = False
    methods: tuple[str, ...] = ("debate", "dialogue")
    provider: str = "openai"  # an [llm.providers] entry; used whatever the build's generator is
    models: tuple[str, ...] = ()  # the debating agents, 1..n; empty: the provider's default model x3
    personas: tuple[str, ...] = ()  # one persona text per agent (after ``models``: its check reads them)
    rounds: int = Field(default=MAX_ROUNDS, ge=1, le=MAX_ROUNDS)
    user: str = "keyword"  # the simulated user: deterministic keywords (the reference) or an LLM
    severity: dict[str, Literal["warning", "error"]] = Field(default_factory=dict)  # check -> severity

    @field_validator("methods")
    @classmethod
    def _methods(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [m for m in value if m not in METHODS]
        if unknown or not value:
            raise ValueError(f"unknown method {(unknown or [''])[0]!r} (known: {', '.join(METHODS)})")
        return tuple(dict.fromkeys(value))

    @field_validator("user")
    @classmethod
    def _user(cls, value: str) -> str:
        if value not in USERS:
            raise ValueError(f"unknown user {value!r} (known: {', '.join(USERS)})")
        return value

    @field_validator("models")
    @classmethod
    def _models(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if any(not m.strip() for m in value):
            raise ValueError("a model name is empty")
        return value

    @field_validator("personas")
    @classmethod
    def _personas(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        models = info.data.get("models") or ()
        agents = len(models) or DEFAULT_AGENTS
        if problem := persona_problem(value, agents):
            raise ValueError(
                problem if models else problem.replace(" agents:", " agents (the default without models):")
            )
        return value

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, object]:
        """Without ``personas`` when there are none: the fingerprint and the judgement keys of runs made
        before personas existed stay what they were."""
        data = handler(self)
        if not self.personas:
            data.pop("personas", None)
        return data

    @field_validator("severity")
    @classmethod
    def _severity(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = [c for c in value if c not in FLAGS]
        if unknown:
            raise ValueError(f"unknown check {unknown[0]!r} (known: {', '.join(FLAGS)})")
        return value

    @model_validator(mode="after")
    def _agents(self) -> JudgeConfig:
        if "debate" in self.methods and len(self.models) == 1:
            raise ValueError("models: a debate needs at least two agents (give two or more, or none for three)")
        return self

    def severity_of(self, check: str) -> Literal["warning", "error"]:
        """Warning unless configured otherwise (see :mod:`ambiforge.judge.checks` for why)."""
        return self.severity.get(check, "warning")

    def resolved(self, default_model: str) -> JudgeConfig:
        """With the agents' models filled in: ``default_model`` x3 when none were given."""
        if self.models:
            return self
        return self.model_copy(update={"models": (default_model,) * DEFAULT_AGENTS})
