"""Ask one step for JSON and get it schema-valid, or a clear reason why not.

A reply that does not parse or validate is repaired by asking again in the same conversation: the bad reply
as the assistant's turn, then the exact error. After ``max_repairs`` such turns the step fails with
:class:`~ambiforge.errors.LLMOutputError`, which rejects the pair with that error as its reason: a pair is
never completed with a placeholder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ambiforge.errors import LLMOutputError
from ambiforge.llm.client import CallPurpose, LLMClient
from ambiforge.llm.config import StepSettings
from ambiforge.llm.prompts import Prompt
from ambiforge.llm.providers import ChatRequest
from ambiforge.llm.structured import parse_reply, response_format

REPAIR = (
    "Your reply could not be used: {error}. Reply again with only the corrected JSON object, "
    "keeping everything that was right."
)


@dataclass
class StepAnswer:
    value: dict[str, Any]
    call_ids: list[str] = field(default_factory=list)


def ask(
    client: LLMClient,
    prompt: Prompt,
    variables: dict[str, Any],
    settings: StepSettings,
    purpose: CallPurpose,
    seed: int,
) -> StepAnswer:
    messages = prompt.render(variables)
    fmt = response_format(client.llm.response_format, prompt.schema)
    call_ids: list[str] = []
    error = ""
    for repair in range(client.llm.max_repairs + 1):
        request = ChatRequest(
            provider=settings.provider,
            model=settings.model,
            messages=messages,
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            seed=seed,
            response_format=fmt,
        )
        result = client.call(
            request,
            CallPurpose(**{**purpose.__dict__, "repair": repair}),
            lambda text: parse_reply(text, prompt.schema),
        )
        call_ids.append(result.call_id)
        if result.parsed is not None:
            return StepAnswer(result.parsed, call_ids)
        error = result.parse_error or "empty reply"
        messages = (*messages, ("assistant", result.text), ("user", REPAIR.format(error=error)))
    raise LLMOutputError(
        f"step {purpose.step} ({prompt.id} v{prompt.version}): no valid reply after "
        f"{client.llm.max_repairs} repair(s): {error}"
    )
