"""Mistral, through the official ``mistralai`` SDK (``Mistral`` client, ``chat.complete``). Its chat API
returns no token log-probabilities: a request that asks for them fails with one line, before any call."""

from __future__ import annotations

import time

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


class MistralProvider:
    name = "mistral"

    def __init__(self, api_key: str, base_url: str | None, timeout: float) -> None:
        from mistralai.client import Mistral

        self.client = Mistral(api_key=api_key, server_url=base_url, timeout_ms=int(timeout * 1000))

    def complete(self, request: ChatRequest) -> ChatReply:
        import httpx2
        from mistralai.client.errors import MistralError

        if request.logprobs:
            raise PermanentError("unsupported", "log-probabilities are not supported by the Mistral chat API")
        started = time.perf_counter()
        try:
            response = self.client.chat.complete(**request.sdk_arguments(), random_seed=request.seed)
        except httpx2.TimeoutException as exc:
            raise TransientError("timeout", f"timed out: {exc}") from None
        except httpx2.TransportError as exc:
            raise TransientError("connection", f"connection failed: {exc}") from None
        except MistralError as exc:
            raise classify_status(exc.status_code, short(exc.message), exc.headers) from None
        latency = time.perf_counter() - started
        if not response.choices:
            raise TransientError("empty", "the reply had no choices")
        choices = []
        for choice in sorted(response.choices, key=lambda c: c.index or 0):
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
