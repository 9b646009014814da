"""Reading a chat-completions reply body without trusting its shape.

An SDK builds its reply objects without validating them, so a server that sends ``"choices": "x"``, a
``message`` of null, ``usage`` counts as text or a 200 with an HTML page made the code that read them fail
with a Python traceback. The body is read here as plain JSON and every field the client uses is checked;
anything else is a :class:`BadReply` naming the field and what it held, which the client reports as one line
naming the server and the call. A bad reply is not retried: a server that answered so once will again.
"""

from __future__ import annotations

import json
from typing import Any

from ambiforge.llm.providers.base import (
    ChatReply,
    ChatRequest,
    Choice,
    PermanentError,
    TokenLogprob,
    ToolCall,
    TransientError,
    short,
)

#: The most characters a token may stand for when a reply's length is checked against ``max_tokens``: a
#: real tokenizer's longest tokens are a few dozen characters; a reply far beyond ``max_tokens`` times this
#: was not cut where the request asked.
CHARS_PER_TOKEN_AT_MOST = 64


class BadReply(PermanentError):
    """The reply cannot be read as a chat completion; the message names the field."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_reply", message)


def _shown(value: Any) -> str:
    return short(repr(value), 80)


def _kind(value: Any) -> str:
    names = {str: "text", bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _count(usage: dict[str, Any], key: str) -> int:
    value = usage.get(key)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadReply(f"usage.{key} is {_kind(value)} {_shown(value)}, not a count of tokens")
    return value


def _text(where: str, value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadReply(f"{where} is {_kind(value)}, not text")
    return value


def _logprobs(where: str, value: Any) -> tuple[TokenLogprob, ...] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadReply(f"{where}.logprobs is {_kind(value)}, not an object")
    content = value.get("content")
    if not content:
        return None
    if not isinstance(content, list):
        raise BadReply(f"{where}.logprobs.content is {_kind(content)}, not a list")
    try:
        return tuple(TokenLogprob.from_json(t) for t in content)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BadReply(f"{where}.logprobs.content holds a token that is not {{token, logprob}} ({exc})") from None


def _tool_calls(where: str, message: dict[str, Any]) -> tuple[ToolCall, ...]:
    calls = message.get("tool_calls")
    if not calls:
        return ()
    if not isinstance(calls, list):
        raise BadReply(f"{where}.message.tool_calls is {_kind(calls)}, not a list")
    out = []
    for i, call in enumerate(calls):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            raise BadReply(f"{where}.message.tool_calls[{i}] has no function object")
        out.append(
            ToolCall(
                _text(f"{where}.message.tool_calls[{i}].id", call.get("id")),
                _text(f"{where}.message.tool_calls[{i}].function.name", function.get("name")),
                _text(f"{where}.message.tool_calls[{i}].function.arguments", function.get("arguments")),
            )
        )
    return tuple(out)


def _choice(i: int, raw: Any, request: ChatRequest) -> tuple[int, Choice]:
    where = f"choices[{i}]"
    if not isinstance(raw, dict):
        raise BadReply(f"{where} is {_kind(raw)}, not an object")
    message = raw.get("message")
    if not isinstance(message, dict):
        raise BadReply(f"{where}.message is {_kind(message)}, not an object")
    content = message.get("content")
    if isinstance(content, list):  # content parts (Mistral, some proxies): the text parts joined
        content = "".join(
            p.get("text") or "" for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    text = _text(f"{where}.message.content", content)
    if len(text) > request.max_tokens * CHARS_PER_TOKEN_AT_MOST:
        raise BadReply(
            f"{where}.message.content has {len(text)} characters, more than max_tokens={request.max_tokens} allows "
            "(the server did not stop at max_tokens)"
        )
    reason = raw.get("finish_reason")
    if reason is not None and not isinstance(reason, str):
        raise BadReply(f"{where}.finish_reason is {_kind(reason)}, not text")
    index = raw.get("index", i)
    if isinstance(index, bool) or not isinstance(index, int):
        raise BadReply(f"{where}.index is {_kind(index)}, not a number")
    return index, Choice(text, reason, _logprobs(where, raw.get("logprobs")), _tool_calls(where, message))


def parse_reply(body: bytes, content_type: str, request: ChatRequest, latency: float) -> ChatReply:
    """The reply in ``body`` (a 200's), or :class:`BadReply` naming what is wrong with it."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        kind = content_type.split(";")[0].strip() or "no content type"
        start = body[:60].decode("utf-8", "replace")
        raise BadReply(f"the reply is not JSON ({kind}, {len(body)} bytes, starting {start!r})") from None
    if not isinstance(data, dict):
        raise BadReply(f"the reply is {_kind(data)}, not a JSON object")
    if isinstance(data.get("error"), dict | str):
        error = data["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise BadReply(f"a 200 reply carrying an error: {short(str(message), 200)}")
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise BadReply(f"choices is {_kind(choices)}, not a list")
    if not choices:  # as before: some servers answer so under load, and a second try gets an answer
        raise TransientError("empty", "the reply had no choices")
    parsed = sorted((_choice(i, c, request) for i, c in enumerate(choices)), key=lambda ic: ic[0])
    usage = data.get("usage")
    if usage is not None and not isinstance(usage, dict):
        raise BadReply(f"usage is {_kind(usage)}, not an object")
    usage = usage or {}
    model = data.get("model")
    return ChatReply(
        choices=tuple(c for _, c in parsed),
        input_tokens=_count(usage, "prompt_tokens"),
        output_tokens=_count(usage, "completion_tokens"),
        model=model if isinstance(model, str) and model else request.model,
        latency_seconds=latency,
    )
