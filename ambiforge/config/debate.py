"""The settings of a multi-agent debate and of the simulated user, shared by the build's judge (``[judge]``,
:class:`~ambiforge.config.judge.JudgeConfig` extends :class:`DebateSettings`) and ``ambiforge eval``
(the debate method's settings *are* :class:`DebateSettings`; the dialogue method's user is a
:data:`SimulatedUser`), so a rule about debates or users is written once, here.

Error messages are phrased so the reader's context completes them: ``judge.rounds: ...`` for the file,
``--rounds must be at least 1, got 0`` for the command line (see :func:`ambiforge.config.methods.option_error`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationInfo, field_validator

#: agents in a debate when no models are named (the seed paper's three)
DEFAULT_AGENTS = 3
#: the longest persona text: a few sentences of character, not a second prompt
MAX_PERSONA_CHARS = 500
#: the simulated users: deterministic keywords (the reference) or an LLM
SIMULATED_USERS = ("keyword", "llm")


def persona_problem(personas: Sequence[str], agents: int) -> str | None:
    """What is wrong with ``personas`` for a debate of ``agents`` agents, or None. Empty means no personas;
    otherwise one per agent (a persona for some agents only would be a silent half-configuration), none
    blank, none longer than :data:`MAX_PERSONA_CHARS`."""
    if not personas:
        return None
    for n, text in enumerate(personas, start=1):
        if not text.strip():
            return f"persona {n} is empty"
        if len(text) > MAX_PERSONA_CHARS:
            return f"persona {n} has {len(text)} characters (at most {MAX_PERSONA_CHARS})"
    if len(personas) != agents:
        return f"{len(personas)} persona(s) for {agents} agents: give one per agent, in the agents' order"
    return None


def _simulated_user(value: str) -> str:
    if value not in SIMULATED_USERS:
        raise ValueError(f"unknown user {value!r} (known: {', '.join(SIMULATED_USERS)})")
    return value


#: Who answers a clarifying question: the one check of ``user`` wherever it is configured.
SimulatedUser = Annotated[str, AfterValidator(_simulated_user)]


class DebateSettings(BaseModel):
    """How a debate runs: the agents' models (empty: the caller's model three times), one persona per agent
    (empty: none) and the round limit. The temperature and reply length are the debate's own
    (:mod:`ambiforge.detectors.debate`), the seed the run's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: how a persona-count error names the default number of agents (the judge's file says "without models")
    default_agents_note: ClassVar[str] = ""

    agents: tuple[str, ...] = ()
    personas: tuple[str, ...] = ()  # after ``agents``: their check reads them
    rounds: int = 5

    @field_validator("agents")
    @classmethod
    def _agents(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if any(not m.strip() for m in value):
            raise ValueError("a model name is empty")
        if len(value) == 1:
            raise ValueError(f"a debate needs at least two agents, got {len(value)}")
        return value

    @field_validator("personas")
    @classmethod
    def _personas(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        agents = info.data.get("agents") or ()
        if problem := persona_problem(value, len(agents) or DEFAULT_AGENTS):
            raise ValueError(problem if agents else problem.replace(" agents:", f" agents{cls.default_agents_note}:"))
        return value

    @field_validator("rounds")
    @classmethod
    def _rounds(cls, value: int) -> int:
        if value < 1:
            raise ValueError(f"must be at least 1, got {value}")
        return value


__all__ = [
    "DEFAULT_AGENTS",
    "MAX_PERSONA_CHARS",
    "SIMULATED_USERS",
    "DebateSettings",
    "SimulatedUser",
    "persona_problem",
]
