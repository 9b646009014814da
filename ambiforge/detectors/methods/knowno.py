"""KnowNo (Ren et al. 2023): four options, one-letter choice, softmax over the letters' log-probabilities,
conformal prediction set; ask when the set has more than one option."""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import Field

from ambiforge.detectors import prompts
from ambiforge.detectors.methods.base import Detection, MethodSettings, ScoredDetector
from ambiforge.detectors.methods.options import parse_options
from ambiforge.detectors.model import CallTag, EvalModel, call_seed, pick_tokens, softmax
from ambiforge.detectors.tasks import EvalTask

#: The options request ends with this assistant turn: an endpoint that continues a last assistant message
#: (llama.cpp's llama-server does) writes the list from there, which a small model does where it would
#: otherwise answer in prose ("You can't bake a cake with ..."); one that does not starts a new reply, read as
#: before. A reply that does not open with a letter but goes on with a "B)" line continues "A)".
OPTIONS_PREFILL = "A)"
_LETTERED = re.compile(r"^\s*\(?[A-D]\s*[).:]")
_SECOND = re.compile(r"^\s*\(?B\s*[).:]", re.MULTILINE)


def options_text(reply: str) -> str:
    """The options reply with the prefilled ``A)`` put back when the endpoint returned only the continuation
    of the list (a refusal in one sentence stays what it is: no options)."""
    if _LETTERED.match(reply) or not _SECOND.search(reply):
        return reply
    return f"{OPTIONS_PREFILL} {reply.lstrip()}"


class LogprobSettings(MethodSettings):
    top_logprobs: int = Field(default=20, ge=1)  # alternatives asked for the choice token


def propose_and_score(name: str, task: EvalTask, model: EvalModel, settings: LogprobSettings) -> Detection:
    """The two KnowNo calls; LAP reuses them (same prompts, so the same cached replies)."""
    prompt, messages = prompts.render("eval_options", task, settings.with_plan)
    messages = (*messages, ("assistant", OPTIONS_PREFILL))
    seed = call_seed(settings.seed, task.key, "options")
    reply = model.complete(
        messages, CallTag(f"{name}.options", prompt.id, prompt.version, task.key), max_tokens=200, seed=seed
    )
    calls, cached = [reply.call_id], int(reply.cached)
    lettered = parse_options(options_text(reply.text))
    if not lettered:
        return Detection([], [], None, None, calls, cached, error=f"no options A-D in the reply: {reply.text[:80]!r}")
    prompt, messages = prompts.render("eval_choose", task, settings.with_plan, options=lettered)
    seed = call_seed(settings.seed, task.key, "choose")
    top = model.next_token_logprobs(
        messages, CallTag(f"{name}.choose", prompt.id, prompt.version, task.key), top=settings.top_logprobs, seed=seed
    )
    calls.append(top.call_id)
    cached += int(top.cached)
    letters = tuple(letter for letter, _ in lettered)
    found = pick_tokens(top.top, letters)
    probs = softmax(found)
    details = {"letters": list(letters), "letter_logprobs": {k: round(v, 6) for k, v in found.items()}}
    if not probs:
        details["no_letter_in_top_logprobs"] = True
        scores = [1.0 / len(letters)] * len(letters)
    else:
        scores = [probs.get(letter, 0.0) for letter in letters]
    return Detection([text for _, text in lettered], scores, None, None, calls, cached, details)


class KnowNo(ScoredDetector):
    name: ClassVar[str] = "knowno"
    order: ClassVar[int] = 1  # place in the method registry (its listings and errors)
    Settings: ClassVar[type[MethodSettings]] = LogprobSettings
    sequential_calls: ClassVar[int] = 2  # a scheduling hint: calls one task makes one after another
    needs_logprobs: ClassVar[bool] = True

    def detect(self, task: EvalTask, model: EvalModel, settings: LogprobSettings) -> Detection:
        return propose_and_score(self.name, task, model, settings)
