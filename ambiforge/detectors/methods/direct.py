"""Binary and NoHelp: one next action; Binary then labels it Certain/Uncertain (Uncertain = ask).

A small model often answers the label call with something else ("I will pick up ...", a copy of the shot).
Then the label is read from the first token's log-probabilities of the same prompt, where the endpoint gives
them: the probability mass of the tokens that begin "Uncertain" ("U", "Un", "Unc", ...) against those that
begin "Certain" ("C", "Cert", ...), case-folded. ``details.label_from`` says which reading was used; with
neither word nor log-probabilities, the task fails (counted, in no figure).
"""

from __future__ import annotations

import re
from typing import ClassVar

from ambiforge.detectors import prompts
from ambiforge.detectors.methods.base import Detection, DirectDetector, MethodSettings
from ambiforge.detectors.methods.options import first_line
from ambiforge.detectors.model import CallTag, EvalModel, NoLogprobsError, call_seed
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


def certainty_from_logprobs(top: dict[str, float]) -> bool | None:
    """True (Uncertain) or False (Certain) by the probability mass of the tokens that begin either word;
    None when no top token begins either."""
    import math

    mass = {True: 0.0, False: 0.0}
    for token, logprob in top.items():
        piece = token.strip().lower()
        if not piece:
            continue
        if "uncertain".startswith(piece):
            mass[True] += math.exp(logprob)
        elif "certain".startswith(piece):
            mass[False] += math.exp(logprob)
    if mass[True] == mass[False] == 0.0:
        return None
    return mass[True] > mass[False]


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
        calls, cached_calls = [call_id, reply.call_id], int(cached) + int(reply.cached)
        uncertain, source = parse_certainty(reply.text), "text"
        if uncertain is None:
            try:
                top = model.next_token_logprobs(
                    messages,
                    CallTag("binary.certainty_logprobs", prompt.id, prompt.version, task.key),
                    seed=call_seed(settings.seed, task.key, "certainty"),
                )
            except NoLogprobsError:
                top = None
            if top is not None:
                calls.append(top.call_id)
                cached_calls += int(top.cached)
                uncertain, source = certainty_from_logprobs(top.top), "logprobs"
        details = {
            "label": None if uncertain is None else ("Uncertain" if uncertain else "Certain"),
            "label_from": source if uncertain is not None else None,
        }
        error = None if uncertain is not None else f"no Certain/Uncertain in the reply: {reply.text[:60]!r}"
        return Detection([action], [1.0], [0], bool(uncertain), calls, cached_calls, details, error)
