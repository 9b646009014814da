"""Binary and NoHelp: one next action; Binary then labels it Certain/Uncertain (Uncertain = ask)."""

from __future__ import annotations

import re
from typing import ClassVar

from ambiforge.detectors import prompts
from ambiforge.detectors.methods.base import Detection, DirectDetector, MethodSettings
from ambiforge.detectors.methods.options import first_line
from ambiforge.detectors.model import CallTag, EvalModel, call_seed
from ambiforge.detectors.tasks import EvalTask

_LABEL = re.compile(r"\b(uncertain|certain)\b", re.IGNORECASE)


def next_action(name: str, task: EvalTask, model: EvalModel, settings: MethodSettings) -> tuple[str, str, bool]:
    prompt, messages = prompts.render("eval_next_action", task, settings.with_plan)
    reply = model.complete(
        messages,
        CallTag(f"{name}.action", prompt.id, prompt.version, task.key),
        max_tokens=100,
        seed=call_seed(settings.seed, task.key, "action"),
    )
    return first_line(reply.text), reply.call_id, reply.cached


def parse_certainty(text: str) -> bool | None:
    """True for Uncertain (ask), False for Certain, None when the reply has neither word first."""
    match = _LABEL.search(text)
    return None if match is None else match.group(1).lower() == "uncertain"


class NoHelp(DirectDetector):
    name: ClassVar[str] = "nohelp"
    never_asks: ClassVar[bool] = True  # the paper's NoHelp: ICR 0, HR 0 (see metrics.task_metrics)
    order: ClassVar[int] = 5  # place in the method registry (its listings and errors)
    sequential_calls: ClassVar[int] = 1
    needs_logprobs: ClassVar[bool] = False

    def detect(self, task: EvalTask, model: EvalModel, settings: MethodSettings) -> Detection:
        action, call_id, cached = next_action(self.name, task, model, settings)
        return Detection([action], [1.0], [0], False, [call_id], int(cached))


class Binary(DirectDetector):
    name: ClassVar[str] = "binary"
    order: ClassVar[int] = 4  # place in the method registry (its listings and errors)
    sequential_calls: ClassVar[int] = 2
    needs_logprobs: ClassVar[bool] = False

    def detect(self, task: EvalTask, model: EvalModel, settings: MethodSettings) -> Detection:
        action, call_id, cached = next_action(self.name, task, model, settings)
        prompt, messages = prompts.render("eval_certainty", task, settings.with_plan, action=action)
        reply = model.complete(
            messages,
            CallTag("binary.certainty", prompt.id, prompt.version, task.key),
            max_tokens=5,
            seed=call_seed(settings.seed, task.key, "certainty"),
        )
        uncertain = parse_certainty(reply.text)
        details = {"label": None if uncertain is None else ("Uncertain" if uncertain else "Certain")}
        error = None if uncertain is not None else f"no Certain/Uncertain in the reply: {reply.text[:60]!r}"
        return Detection(
            [action],
            [1.0],
            [0],
            bool(uncertain),
            [call_id, reply.call_id],
            int(cached) + int(reply.cached),
            details,
            error,
        )
