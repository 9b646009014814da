"""Dialogue: the eval's model is a clarification policy that may ask the simulated user up to
``max_questions`` questions before acting (:mod:`ambiforge.detectors.dialogue`). The task's action is its one
option; it "asks" when it asked at least one question. ``summarise`` gives success per type, the query
discrepancy (asked minus needed) and the mean question length, as the clarification benchmark reports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import field_validator

from ambiforge.config.debate import SimulatedUser
from ambiforge.detectors.dialogue import converse, score
from ambiforge.detectors.methods.base import Detection, DirectDetector, MethodSettings
from ambiforge.detectors.metrics import group_of, mean
from ambiforge.detectors.model import EvalModel
from ambiforge.detectors.tasks import EvalTask


class DialogueSettings(MethodSettings):
    max_questions: int = 1  # questions the policy may ask before it acts
    user: SimulatedUser = "keyword"

    @field_validator("max_questions")
    @classmethod
    def _max_questions(cls, value: int) -> int:
        if value < 0:
            raise ValueError(f"must be 0 or more, got {value}")
        return value


class Dialogue(DirectDetector):
    name: ClassVar[str] = "dialogue"
    order: ClassVar[int] = 7  # place in the method registry (its listings and errors)
    Settings: ClassVar[type[MethodSettings]] = DialogueSettings
    sequential_calls: ClassVar[int] = 2
    needs_logprobs: ClassVar[bool] = False

    def detect(self, task: EvalTask, model: EvalModel, settings: DialogueSettings) -> Detection:
        talk = converse(
            task,
            model,
            max_questions=settings.max_questions,
            user=settings.user,
            with_plan=settings.with_plan,
            seed=settings.seed,
        )
        details = {"turns": talk.turns, "action": talk.action, **score(task, talk)}
        options = [talk.action] if talk.action else []
        return Detection(
            options,
            [1.0] * len(options),
            list(range(len(options))),
            bool(talk.turns),
            talk.calls,
            talk.cached_calls,
            details,
            talk.error,
        )

    def summarise(self, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
        rows = [row for row in rows if not row["error"]]  # a failed task is counted in errors, not as a miss
        by_group: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            by_group.setdefault(group_of(row), []).append(row["details"])
        by_group["all"] = [row["details"] for row in rows]
        words = [d["question_words"] for d in by_group["all"] if d.get("question_words") is not None]
        return {
            "success": {g: mean(d["success"] for d in ds) for g, ds in by_group.items()},
            "query_discrepancy": {g: mean(d["query_discrepancy"] for d in ds) for g, ds in by_group.items()},
            "mean_questions": {g: mean(d["questions"] for d in ds) for g, ds in by_group.items()},
            "mean_question_words": mean(words),
            "gold_reply_rate": mean(d["gold_replies"] / d["questions"] for d in by_group["all"] if d["questions"]),
        }
