"""Chat-completion providers behind one small interface: a request in, the reply text and token counts out.

Each wraps its official SDK (``openai``, ``mistralai``) with the SDK's own retries switched off: retries,
backoff and rate limits are ambiforge's (:mod:`ambiforge.llm.client`), so every attempt is counted, limited
across workers and recorded. SDK errors are sorted into transient (429, 5xx, timeouts, lost connections:
worth retrying) and permanent (bad key, bad request: not).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from ambiforge.llm.config import LLMConfig


@dataclass(frozen=True)
class ChatRequest:
    """Everything that decides a reply. Its hash is the cache key; it holds no key or endpoint."""

    provider: str
    model: str
    messages: tuple[tuple[str, str], ...]  # (role, content)
    temperature: float
    max_tokens: int
    seed: int
    response_format: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def payload(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model": self.model,
            "messages": [{"role": r, "content": c} for r, c in self.messages],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "response_format": self.response_format,
        }

    def digest(self) -> str:
        canonical = json.dumps(self.payload(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def sdk_arguments(self) -> dict[str, Any]:
        """The keyword arguments both SDKs name alike (the seed's name differs: ``seed`` / ``random_seed``)."""
        arguments: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": r, "content": c} for r, c in self.messages],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.response_format:
            arguments["response_format"] = self.response_format
        return arguments

    def params(self) -> dict[str, Any]:
        return {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "response_format": self.response_format.get("type", "text"),
        }


@dataclass(frozen=True)
class ChatReply:
    text: str
    input_tokens: int
    output_tokens: int
    model: str
    latency_seconds: float


class TransientError(Exception):
    """Worth retrying: ``kind`` is the HTTP status or ``timeout``/``connection``; ``retry_after`` in seconds."""

    def __init__(self, kind: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.kind, self.retry_after = kind, retry_after


class PermanentError(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Provider(Protocol):
    name: str

    def complete(self, request: ChatRequest) -> ChatReply: ...


def retry_after(headers: Any) -> float | None:
    """Seconds from ``Retry-After`` (seconds form) or OpenAI's ``retry-after-ms``."""
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                continue
    return None


def classify_status(status: int, message: str, headers: Any) -> Exception:
    if status == 429 or status == 408 or status == 409 or status >= 500:
        return TransientError(str(status), message, retry_after(headers))
    return PermanentError(str(status), message)


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


class OpenAIProvider:
    """The official ``openai`` SDK; ``base_url`` points it at any OpenAI-compatible server (vLLM, Ollama,
    llama.cpp server)."""

    name = "openai"

    def __init__(self, api_key: str, base_url: str | None, timeout: float) -> None:
        import openai

        self._openai = openai
        self.client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)

    def complete(self, request: ChatRequest) -> ChatReply:
        openai = self._openai
        started = time.perf_counter()
        try:
            response = self.client.chat.completions.create(**request.sdk_arguments(), seed=request.seed)
        except openai.APITimeoutError as exc:
            raise TransientError("timeout", f"timed out: {exc}") from None
        except openai.APIConnectionError as exc:
            raise TransientError("connection", f"connection failed: {exc}") from None
        except openai.APIStatusError as exc:
            raise classify_status(exc.status_code, _short(str(exc)), exc.response.headers) from None
        latency = time.perf_counter() - started
        if not response.choices:
            raise TransientError("empty", "the reply had no choices")
        usage = response.usage
        return ChatReply(
            text=response.choices[0].message.content or "",
            input_tokens=usage.prompt_tokens if usage else 0,
            output_tokens=usage.completion_tokens if usage else 0,
            model=response.model or request.model,
            latency_seconds=latency,
        )


class MistralProvider:
    """The official ``mistralai`` SDK (``Mistral`` client, ``chat.complete``)."""

    name = "mistral"

    def __init__(self, api_key: str, base_url: str | None, timeout: float) -> None:
        from mistralai.client import Mistral

        self.client = Mistral(api_key=api_key, server_url=base_url, timeout_ms=int(timeout * 1000))

    def complete(self, request: ChatRequest) -> ChatReply:
        import httpx2
        from mistralai.client.errors import MistralError

        started = time.perf_counter()
        try:
            response = self.client.chat.complete(**request.sdk_arguments(), random_seed=request.seed)
        except httpx2.TimeoutException as exc:
            raise TransientError("timeout", f"timed out: {exc}") from None
        except httpx2.TransportError as exc:
            raise TransientError("connection", f"connection failed: {exc}") from None
        except MistralError as exc:
            raise classify_status(exc.status_code, _short(exc.message), exc.headers) from None
        latency = time.perf_counter() - started
        if not response.choices:
            raise TransientError("empty", "the reply had no choices")
        content = response.choices[0].message.content
        text = content if isinstance(content, str) else "".join(getattr(c, "text", "") for c in content or [])
        usage = response.usage
        return ChatReply(
            text=text,
            input_tokens=usage.prompt_tokens or 0 if usage else 0,
            output_tokens=usage.completion_tokens or 0 if usage else 0,
            model=response.model or request.model,
            latency_seconds=latency,
        )


def make_provider(name: str, llm: LLMConfig) -> Provider:
    """The provider ``name`` with its key from the environment (checked again here: a Dask worker may
    have a different environment than the machine that started the build)."""
    from ambiforge.errors import ConfigError

    settings = llm.providers[name]
    key = settings.api_key()
    if key is None:
        raise ConfigError(f"{settings.api_key_env} is not set (provider {name})")
    if name == "openai":
        return OpenAIProvider(key, settings.endpoint(), llm.timeout_seconds)
    if name == "mistral":
        return MistralProvider(key, settings.endpoint(), llm.timeout_seconds)
    raise ConfigError(f"unknown LLM provider {name!r} (known: openai, mistral)")
