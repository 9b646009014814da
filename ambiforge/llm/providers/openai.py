"""OpenAI and every OpenAI-compatible server (vLLM, Ollama, llama.cpp's ``llama-server``), through the
official ``openai`` SDK with its own retries off (retries are ambiforge's, see :mod:`ambiforge.llm.client`).
"""

from __future__ import annotations

import time
from typing import Any

from ambiforge.config.providers import ProviderSpec
from ambiforge.llm.providers.base import (
    ChatReply,
    ChatRequest,
    Choice,
    TokenLogprob,
    ToolCall,
    TransientError,
    classify_status,
    short,
)


def _logprobs(choice: Any) -> tuple[TokenLogprob, ...] | None:
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not content:
        return None
    return tuple(
        TokenLogprob(
            token=t.token,
            logprob=float(t.logprob),
            top=tuple((a.token, float(a.logprob)) for a in (t.top_logprobs or [])),
        )
        for t in content
    )


def _tool_calls(choice: Any) -> tuple[ToolCall, ...]:
    calls = getattr(choice.message, "tool_calls", None) or ()
    return tuple(
        ToolCall(str(c.id or ""), str(c.function.name or ""), str(c.function.arguments or ""))
        for c in calls
        if getattr(c, "function", None) is not None
    )


class OpenAIProvider:
    """``base_url`` points the SDK at any OpenAI-compatible server."""

    name = "openai"

    def __init__(self, api_key: str, base_url: str | None, timeout: float) -> None:
        # httpx (the SDK's legacy transport) imported whole here, in the thread that builds the provider:
        # the SDK checks ``sys.modules["httpx"]`` on every request, and a first import of it by another
        # thread at that moment (Prefect, Label Studio's client, a retry check) showed it half-initialised.
        import httpx  # noqa: F401
        import openai

        self._openai = openai
        self.client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)

    def complete(self, request: ChatRequest) -> ChatReply:
        openai = self._openai
        arguments = request.sdk_arguments()
        if request.logprobs:
            arguments |= {"logprobs": True, "top_logprobs": request.top_logprobs}
        started = time.perf_counter()
        try:
            response = self.client.chat.completions.create(**arguments, seed=request.seed)
        except openai.APITimeoutError as exc:
            raise TransientError("timeout", f"timed out: {exc}") from None
        except openai.APIConnectionError as exc:
            raise TransientError("connection", f"connection failed: {exc}") from None
        except openai.APIStatusError as exc:
            raise classify_status(exc.status_code, short(str(exc)), exc.response.headers) from None
        latency = time.perf_counter() - started
        if not response.choices:
            raise TransientError("empty", "the reply had no choices")
        usage = response.usage
        choices = tuple(
            Choice(c.message.content or "", c.finish_reason, _logprobs(c), _tool_calls(c))
            for c in sorted(response.choices, key=lambda c: c.index)
        )
        return ChatReply(
            choices=choices,
            input_tokens=usage.prompt_tokens if usage else 0,
            output_tokens=usage.completion_tokens if usage else 0,
            model=response.model or request.model,
            latency_seconds=latency,
        )


PROVIDER = ProviderSpec(
    name="openai",
    api_key_env="OPENAI_API_KEY",
    base_url_env="OPENAI_BASE_URL",
    default_model="gpt-4o",
    factory=OpenAIProvider,
)
