"""The item schema in code: one record per ambiguous/unambiguous pair (see design.md, 'The item')."""

from ambiforge.models.item import (
    AmbiguityTypeName,
    Annotation,
    AppliedCorrection,
    DialogueCheck,
    EnvObject,
    HalfJudgement,
    Item,
    JudgeFlag,
    Judgement,
    PromptRef,
    Provenance,
    Review,
    RuleFailure,
    StepModel,
    Validation,
    World,
)

__all__ = [
    "AmbiguityTypeName",
    "Annotation",
    "AppliedCorrection",
    "DialogueCheck",
    "EnvObject",
    "HalfJudgement",
    "Item",
    "JudgeFlag",
    "Judgement",
    "PromptRef",
    "Provenance",
    "Review",
    "RuleFailure",
    "StepModel",
    "Validation",
    "World",
]
