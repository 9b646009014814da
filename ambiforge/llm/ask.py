"""Ask one step for JSON and get it schema-valid and a real answer, or a clear reason why not.

A reply that does not parse, does not validate, or is not an answer (a placeholder, a copied example, an
empty string, an echo of the prompt: :mod:`ambiforge.llm.reply_check`) is repaired by asking again in the
same conversation: the bad reply as the assistant's turn, then the exact error. A reply cut off at
``max_tokens`` (``finish_reason: length``, typically a repetition loop) is its own fault: the truncated
text is not sent back (the model would continue the loop); the original messages are sent again with an
instruction to answer shorter, under a new seed. A caller's ``check`` (what the reply must also satisfy
beyond its schema: the generator's names resolving in the scene graph) is repaired the same way. After
``max_repairs`` such turns the step fails with :class:`~ambiforge.errors.LLMOutputError`, which rejects
the pair with that error as its reason: a pair is never completed with a placeholder.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ambiforge.config.llm import StepSettings
from ambiforge.errors import LLMOutputError
from ambiforge.llm.client import CallPurpose, LLMClient
from ambiforge.llm.prompts import Prompt
from ambiforge.llm.providers import ChatRequest
from ambiforge.llm.reply_check import check_reply
from ambiforge.llm.structured import parse_reply, response_format

REPAIR = (
    "Your reply could not be used: {error}. Reply again with only the corrected JSON object, "
    "keeping everything that was right."
)
SHORTER = (
    "\n\nYour previous answer was too long and was cut off before it ended. Answer again, much shorter: "
    "only the JSON object, each text one short sentence, no repeated items."
)


@dataclass
class StepAnswer:
    value: dict[str, Any]
    call_ids: list[str] = field(default_factory=list)


def repair_seed(seed: int, repair: int) -> int:
    """A new seed for a repair after truncation, the same in every run (int32: Mistral's random_seed)."""
    return int(hashlib.sha256(f"{seed}:shorter:{repair}".encode()).hexdigest()[:8], 16) % 2**31


def _data(variables: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for value in variables.values():
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list | tuple):
            out.extend(str(v) for v in value)
        elif value is not None:
            out.append(str(value))
    return out


def ask(
    client: LLMClient,
    prompt: Prompt,
    variables: dict[str, Any],
    settings: StepSettings,
    purpose: CallPurpose,
    seed: int,
    check: Callable[[dict[str, Any]], str | None] | None = None,
) -> StepAnswer:
    """``check``: the reason a schema-valid, real answer still cannot be used, or None."""
    original = prompt.render(variables)
    messages = original
    fmt = response_format(client.llm.response_format, prompt.schema, client.reply_schemas)
    schema = client.reply_schemas.schema(prompt.schema)
    data = _data(variables)
    instructions = "\n".join(content for _, content in original)

    def parse(text: str) -> tuple[dict[str, Any] | None, str | None]:
        value, error = parse_reply(text, prompt.schema, client.reply_schemas)
        if value is None:
            return None, error
        problem = check_reply(value, schema=schema, examples=prompt.examples, data=data, instructions=instructions)
        if problem is None and check is not None:
            problem = check(value)
        return (None, problem) if problem else (value, None)

    call_ids: list[str] = []
    error = ""
    call_seed = seed
    for repair in range(client.llm.max_repairs + 1):
        request = ChatRequest(
            provider=settings.provider,
            model=settings.model,
            messages=messages,
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            seed=call_seed,
            response_format=fmt,
        )
        result = client.call(request, CallPurpose(**{**purpose.__dict__, "repair": repair}), parse)
        call_ids.append(result.call_id)
        if result.parsed is not None:
            return StepAnswer(result.parsed, call_ids)
        error = result.parse_error or "empty reply"
        if result.finish_reason == "length":
            role, last = original[-1]
            messages = (*original[:-1], (role, last + SHORTER))
            call_seed = repair_seed(seed, repair + 1)
        else:
            messages = (*messages, ("assistant", result.text), ("user", REPAIR.format(error=error)))
    raise LLMOutputError(
        f"step {purpose.step} ({prompt.id} v{prompt.version}): no valid reply after "
        f"{client.llm.max_repairs} repair(s): {error}"
    )
