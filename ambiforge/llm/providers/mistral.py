"""Mistral, through the official ``mistralai`` SDK (``Mistral`` client, ``chat.complete``). Its chat API
returns no token log-probabilities: a request that asks for them fails with one line, before any call.

The SDK validates the replies it reads; one it cannot read (a 200 with an HTML page, a field of the wrong
type) is read again by :mod:`.reply` to name the field. Its HTTP client caps each reply's size and the whole
call's time (:mod:`.guard`).
"""

from __future__ import annotations

import time
from typing import Any

from ambiforge.config.providers import ProviderSpec
from ambiforge.llm.providers.base import (
    ChatReply,
    ChatRequest,
    Choice,
    PermanentError,
    TransientError,
    classify_status,
    short,
)
from ambiforge.llm.providers.guard import DEFAULT_MAX_REPLY_BYTES, ReplyLimitExceeded, guarded_client
from ambiforge.llm.providers.reply import BadReply, parse_reply


class MistralProvider:
    name = "mistral"

    def __init__(
        self, api_key: str, base_url: str | None, timeout: float, max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    ) -> None:
        import httpx2
        from mistralai.client import Mistral

        client = guarded_client(httpx2, max_reply_bytes, timeout, follow_redirects=True)
        # Both clients are ours: left to itself the SDK makes an async client and closes it from a
        # ``weakref.finalize`` when the garbage collector reaps the SDK's reference cycles, and that close
        # imports anyio's backend. A collection in the middle of another import (the validator's first
        # ``datasketch`` import) then re-enters the import lock, which Python 3.11 answers with a KeyError
        # (CPython issue 87712). This one is never used, so it holds nothing to close.
        unused_async = httpx2.AsyncClient()
        self.client = Mistral(
            api_key=api_key,
            server_url=base_url,
            timeout_ms=int(timeout * 1000),
            client=client,
            async_client=unused_async,
        )

    def complete(self, request: ChatRequest) -> ChatReply:
        import httpx2
        from mistralai.client.errors import MistralError

        if request.logprobs:
            raise PermanentError("unsupported", "log-probabilities are not supported by the Mistral chat API")
        started = time.perf_counter()
        try:
            response = self.client.chat.complete(**request.sdk_arguments(), random_seed=request.seed)
        except ReplyLimitExceeded as exc:
            raise PermanentError(exc.kind, str(exc)) from None
        except httpx2.TimeoutException as exc:
            raise TransientError("timeout", f"timed out: {exc}") from None
        except httpx2.TransportError as exc:
            raise TransientError("connection", f"connection failed: {exc}") from None
        except MistralError as exc:
            if 200 <= exc.status_code < 300:  # a success the SDK could not read: say which field
                raise _unreadable(exc, request) from None
            raise classify_status(exc.status_code, short(exc.message), exc.headers) from None
        latency = time.perf_counter() - started
        try:
            return _reply(response, request, latency)
        except (AttributeError, TypeError, ValueError) as exc:
            raise BadReply(f"the reply could not be read ({type(exc).__name__}: {short(str(exc), 120)})") from None


def _unreadable(exc: Any, request: ChatRequest) -> Exception:
    raw = getattr(exc, "raw_response", None)
    body = getattr(raw, "content", None)
    if isinstance(body, bytes):
        try:
            parse_reply(body, str(raw.headers.get("content-type", "")), request, 0.0)
        except (BadReply, TransientError) as bad:
            return bad
    return BadReply(f"the SDK could not read the reply: {short(str(exc.message), 200)}")


def _reply(response: Any, request: ChatRequest, latency: float) -> ChatReply:
    if not response.choices:
        raise TransientError("empty", "the reply had no choices")
    choices = []
    for choice in sorted(response.choices, key=lambda c: c.index or 0):
        if choice.message is None:
            raise BadReply(f"choices[{choice.index or 0}].message is null, not an object")
        content = choice.message.content
        text = content if isinstance(content, str) else "".join(getattr(c, "text", "") for c in content or [])
        reason = choice.finish_reason
        choices.append(Choice(text, None if reason is None else str(getattr(reason, "value", reason))))
    usage = response.usage
    return ChatReply(
        choices=tuple(choices),
        input_tokens=usage.prompt_tokens or 0 if usage else 0,
        output_tokens=usage.completion_tokens or 0 if usage else 0,
        model=response.model or request.model,
        latency_seconds=latency,
    )


PROVIDER = ProviderSpec(
    name="mistral",
    api_key_env="MISTRAL_API_KEY",
    base_url_env="MISTRAL_BASE_URL",
    default_model="mistral-large-latest",
    factory=MistralProvider,
)
