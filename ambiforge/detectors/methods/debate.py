"""Debate (the judge's detector as an eval method): rotating debates judge the task; it asks when the
majority verdict is ambiguous. Per task, ``details`` keep every debate (:mod:`ambiforge.detectors.debate`);
``summarise`` gives success per type (the ambiguous half judged ambiguous, the clear half clear), the
consensus rate, mean rounds, each leader's success and the mean tokens per debate (the provider's usage;
``debates_with_estimated_tokens`` counts the debates where a call reported none and characters / 4 stood in)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import Field, field_validator

from ambiforge.config.debate import DebateSettings
from ambiforge.detectors.debate import AMBIGUOUS, CLEAR, agents_for, rotate
from ambiforge.detectors.methods.base import Detection, DirectDetector, MethodSettings
from ambiforge.detectors.metrics import group_of, mean
from ambiforge.detectors.model import EvalModel
from ambiforge.detectors.tasks import EvalTask

#: the eval's debate round limit (the judge's ``[judge] rounds`` has its own, lower one)
MAX_ROUNDS = 20


class DebateMethodSettings(MethodSettings, DebateSettings):
    """The judge's debate settings (agents: the eval's model three times when none are named)."""

    personas: tuple[str, ...] = Field(default=(), json_schema_extra={"option": "--persona"})

    @field_validator("rounds")
    @classmethod
    def _at_most(cls, value: int) -> int:
        """Each round is a call per agent per debate per task: an unbounded ``--rounds`` is an unbounded bill."""
        if value > MAX_ROUNDS:
            raise ValueError(f"must be at most {MAX_ROUNDS}, got {value}")
        return value


class Debate(DirectDetector):
    name: ClassVar[str] = "debate"
    order: ClassVar[int] = 6  # place in the method registry (its listings and errors)
    Settings: ClassVar[type[MethodSettings]] = DebateMethodSettings
    sequential_calls: ClassVar[int] = 9  # three debates of at least three calls
    needs_logprobs: ClassVar[bool] = False

    def detect(self, task: EvalTask, model: EvalModel, settings: DebateMethodSettings) -> Detection:
        agents = agents_for(model, settings.agents)
        judged = rotate(task, agents, settings, settings.seed)
        expected = AMBIGUOUS if task.ambiguous else CLEAR
        details = {**judged.to_record(), "expected": expected, "correct": judged.verdict == expected}
        calls = judged.calls
        cached = sum(d.cached_calls for d in judged.debates)
        error = "; ".join(judged.errors) or None
        return Detection([], [], [], judged.verdict == AMBIGUOUS, calls, cached, details, error)

    def summarise(self, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
        ok = [row for row in rows if not row["error"]]  # a failed task is counted in errors, not as a miss
        by_group: dict[str, list[bool]] = {}
        for row in ok:
            by_group.setdefault(group_of(row), []).append(bool(row["details"].get("correct")))
        debates = [(d, row["details"]["expected"]) for row in rows for d in row["details"].get("debates", [])]
        leaders: dict[str, list[bool]] = {}
        for d, expected in debates:
            key = f"{d['leader']}:{d['leader_model']}"
            leaders.setdefault(key, []).append(d["verdict"] == expected)
        rounds_to_consensus = [d["rounds"] for d, _ in debates if d["consensus"]]
        return {
            "success": {g: mean(v) for g, v in by_group.items()}
            | {"all": mean(bool(row["details"].get("correct")) for row in ok)},
            "debates": len(debates),
            "consensus_rate": mean(d["consensus"] for d, _ in debates),
            "mean_rounds": mean(d["rounds"] for d, _ in debates),
            "mean_rounds_to_consensus": mean(rounds_to_consensus),
            "rounds_histogram": {str(r): rounds_to_consensus.count(r) for r in sorted(set(rounds_to_consensus))},
            "debate_errors": sum(1 for d, _ in debates if d["error"]),
            "undecided": sum(1 for row in rows if row["details"].get("verdict") is None),
            "leader_success": {k: mean(v) for k, v in leaders.items()},
            "mean_seconds": mean(d["seconds"] for d, _ in debates),
            "mean_tokens": mean(d["tokens"] for d, _ in debates),
            "debates_with_estimated_tokens": sum(1 for d, _ in debates if d.get("tokens_estimated")),
        }
