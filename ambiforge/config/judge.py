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

from typing import ClassVar, Literal

from pydantic import (
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from ambiforge.config.debate import DEFAULT_AGENTS, DebateSettings, SimulatedUser

__all__ = ["DEFAULT_AGENTS", "FLAGS", "MAX_ROUNDS", "METHODS", "JudgeConfig"]

MAX_ROUNDS = 5
#: how the judge looks at a pair (:mod:`ambiforge.judge.pair`)
METHODS = ("debate", "dialogue")
#: the checks a judgement may flag (what each means: :mod:`ambiforge.judge.checks`)
FLAGS = (
    "clear_judged_ambiguous",
    "ambiguous_judged_clear",
    "question_not_answered",
    "answer_does_not_resolve",
    "debate_error",
)
#: the section's keys in the order the file and every dump of it (options, fingerprint) list them
_ORDER = ("enabled", "methods", "provider", "models", "personas", "rounds", "user", "severity")


class JudgeConfig(DebateSettings):
    """``[judge]``: the debate's settings (the file calls the agents ``models``) plus what only the judge has."""

    default_agents_note: ClassVar[str] = " (the default without models)"

    enabled: bool = False
    methods: tuple[str, ...] = ("debate", "dialogue")
    provider: str = "openai"  # an [llm.providers] entry; used whatever the build's generator is
    agents: tuple[str, ...] = Field(default=(), validation_alias="models")  # 1..n; empty: default model x3
    rounds: int = Field(default=MAX_ROUNDS, ge=1, le=MAX_ROUNDS)
    user: SimulatedUser = "keyword"  # the simulated user of the dialogue check
    severity: dict[str, Literal["warning", "error"]] = Field(default_factory=dict)  # check -> severity

    @field_validator("methods")
    @classmethod
    def _methods(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [m for m in value if m not in METHODS]
        if unknown or not value:
            raise ValueError(f"unknown method {(unknown or [''])[0]!r} (known: {', '.join(METHODS)})")
        return tuple(dict.fromkeys(value))

    @field_validator("agents")
    @classmethod
    def _agents(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """One model is fine without a debate (the dialogue's LLM user): :meth:`_debate_agents` decides."""
        if any(not m.strip() for m in value):
            raise ValueError("a model name is empty")
        return value

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, object]:
        """The file's keys in the file's order, without ``personas`` when there are none: the fingerprint and
        the judgement keys of runs made before personas existed stay what they were."""
        data = handler(self)
        if "agents" in data:
            data["models"] = data.pop("agents")
        if not self.personas:
            data.pop("personas", None)
        return {key: data[key] for key in _ORDER if key in data}

    @field_validator("severity")
    @classmethod
    def _severity(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = [c for c in value if c not in FLAGS]
        if unknown:
            raise ValueError(f"unknown check {unknown[0]!r} (known: {', '.join(FLAGS)})")
        return value

    @model_validator(mode="after")
    def _debate_agents(self) -> JudgeConfig:
        if "debate" in self.methods and len(self.agents) == 1:
            raise ValueError("models: a debate needs at least two agents (give two or more, or none for three)")
        return self

    def severity_of(self, check: str) -> Literal["warning", "error"]:
        """Warning unless configured otherwise (see :mod:`ambiforge.judge.checks` for why)."""
        return self.severity.get(check, "warning")

    def resolved(self, default_model: str) -> JudgeConfig:
        """With the agents' models filled in: ``default_model`` x3 when none were given."""
        if self.agents:
            return self
        return self.model_copy(update={"agents": (default_model,) * DEFAULT_AGENTS})
