"""What every provider shares: the request (whose hash is the cache key), the reply, the error kinds and
the sorting of HTTP statuses into transient (worth retrying) and permanent.

A request may ask for plain text (no ``response_format``), for several samples (``n``) and for token
log-probabilities (``logprobs``/``top_logprobs``); a request asking for log-probabilities carries no
``response_format``: a grammar or schema reshapes the distribution the log-probabilities are read from.
It may offer ``tools`` (OpenAI's function-calling list); the reply's choices then carry the model's
``tool_calls``, and the conversation that follows holds messages with more than a role and a text (see
:data:`Message`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from ambiforge.errors import ConfigError
from ambiforge.redaction import redact

#: A chat message: ``(role, content)``, or ``(role, content, fields)`` where ``fields`` is a JSON object, as
#: text so that the request stays hashable, of the message's other keys: an assistant turn's ``tool_calls``,
#: a tool reply's ``tool_call_id``.
Message = tuple[str, ...]


def message_dict(message: Message) -> dict[str, Any]:
    """The message as the chat-completions API takes it."""
    role, content, *rest = message
    out: dict[str, Any] = {"role": role, "content": content}
    if rest and rest[0]:
        out.update(json.loads(rest[0]))
    return out


@dataclass(frozen=True)
class ChatRequest:
    """Everything that decides a reply. Its hash is the cache key; it holds no key or endpoint."""

    provider: str
    model: str
    messages: tuple[Message, ...]  # (role, content) or (role, content, fields as JSON)
    temperature: float
    max_tokens: int
    seed: int
    response_format: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    logprobs: bool = False
    top_logprobs: int = 0  # alternatives per token (OpenAI allows 0-20); needs logprobs
    n: int = 1  # samples; more than one makes sense at temperature > 0
    tools: str = ""  # OpenAI's ``tools`` list as JSON text ("": none offered)

    def __post_init__(self) -> None:
        if (self.logprobs or self.top_logprobs) and self.response_format:
            raise ConfigError(
                f"{self.provider} {self.model}: a request for log-probabilities takes no response_format "
                "(a grammar distorts the distribution)"
            )
        if self.top_logprobs and not self.logprobs:
            raise ConfigError(f"{self.provider} {self.model}: top_logprobs needs logprobs=True")
        if self.n < 1:
            raise ConfigError(f"{self.provider} {self.model}: n must be at least 1, got {self.n}")

    def sampling(self) -> dict[str, Any]:
        """The options beyond the first version's, only when set: requests without them keep their old
        hash, so caches written before these options existed still serve them."""
        extra: dict[str, Any] = {}
        if self.logprobs:
            extra["logprobs"] = True
            extra["top_logprobs"] = self.top_logprobs
        if self.n != 1:
            extra["n"] = self.n
        if self.tools:
            extra["tools"] = json.loads(self.tools)
        return extra

    def payload(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model": self.model,
            "messages": [message_dict(m) for m in self.messages],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "response_format": self.response_format,
            **self.sampling(),
        }

    def digest(self) -> str:
        canonical = json.dumps(self.payload(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def sdk_arguments(self) -> dict[str, Any]:
        """The keyword arguments both SDKs name alike (the seed's name differs: ``seed`` / ``random_seed``)."""
        arguments: dict[str, Any] = {
            "model": self.model,
            "messages": [message_dict(m) for m in self.messages],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.tools:
            arguments["tools"] = json.loads(self.tools)
        if self.response_format:
            arguments["response_format"] = self.response_format
        if self.n != 1:
            arguments["n"] = self.n
        return arguments

    def params(self) -> dict[str, Any]:
        return {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "response_format": self.response_format.get("type", "text"),
            **self.sampling(),
        }


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token, its log-probability and the ``top_logprobs`` most likely tokens at its place."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "token": self.token,
            "logprob": self.logprob,
            "top_logprobs": [{"token": t, "logprob": p} for t, p in self.top],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TokenLogprob:
        top = tuple((str(t["token"]), float(t["logprob"])) for t in data.get("top_logprobs") or [])
        return cls(str(data["token"]), float(data["logprob"]), top)


@dataclass(frozen=True)
class ToolCall:
    """One function call a reply makes: its id (the tool reply names it), the function and its arguments
    as the model wrote them (JSON text, not parsed here: a malformed one is the caller's to report)."""

    id: str
    name: str
    arguments: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToolCall:
        return cls(str(data.get("id") or ""), str(data.get("name") or ""), str(data.get("arguments") or ""))


@dataclass(frozen=True)
class Choice:
    """One sample of a reply: its text, why it ended (``stop``, ``length`` when cut at ``max_tokens``),
    its tokens' log-probabilities when they were asked for and given, and its tool calls (when offered)."""

    text: str
    finish_reason: str | None = None
    logprobs: tuple[TokenLogprob, ...] | None = None
    tool_calls: tuple[ToolCall, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = {
            "text": self.text,
            "finish_reason": self.finish_reason,
            "logprobs": None if self.logprobs is None else [t.to_json() for t in self.logprobs],
        }
        if self.tool_calls:  # only then: cache entries of replies without calls keep their old form
            out["tool_calls"] = [c.to_json() for c in self.tool_calls]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Choice:
        tokens = data.get("logprobs")
        return cls(
            text=str(data.get("text") or ""),
            finish_reason=data.get("finish_reason"),
            logprobs=None if tokens is None else tuple(TokenLogprob.from_json(t) for t in tokens),
            tool_calls=tuple(ToolCall.from_json(c) for c in data.get("tool_calls") or ()),
        )


@dataclass(frozen=True)
class ChatReply:
    choices: tuple[Choice, ...]
    input_tokens: int
    output_tokens: int
    model: str
    latency_seconds: float

    @property
    def text(self) -> str:
        return self.choices[0].text

    @property
    def finish_reason(self) -> str | None:
        return self.choices[0].finish_reason


class TransientError(Exception):
    """Worth retrying: ``kind`` is the HTTP status or ``timeout``/``connection``; ``retry_after`` in seconds.
    The message is redacted: an SDK's error may quote the request's ``Authorization`` header (h11 does)."""

    def __init__(self, kind: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(redact(message))
        self.kind, self.retry_after = kind, retry_after


class PermanentError(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(redact(message))
        self.kind = kind


class UnsupportedRequest(PermanentError):
    """The server says it cannot do what the request asks (``feature``: ``json_schema``, ``schema`` in
    ``json_object``...): never retried as transient, whatever its status; the client falls back."""

    def __init__(self, kind: str, message: str, feature: str) -> None:
        super().__init__(kind, message)
        self.feature = feature


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
                seconds = float(value) * scale
            except ValueError:
                continue
            if seconds != seconds:  # nan: no wait stated
                continue
            return max(0.0, seconds)  # inf stays inf: the client caps every wait at max_backoff_seconds
    return None


# A 400/422/500 whose body says the response format is not supported (llama-cpp-python's server answers
# json_schema with a 500; vLLM and others with a 400 or 422).
_FORMAT_WORDS = re.compile(r"json_schema|response_format|json_object|\bschema\b", re.IGNORECASE)
_REFUSAL_WORDS = re.compile(
    r"not (?:supported|implemented|allowed|permitted)|unsupported|unknown|unrecognized|invalid|must be one of|"
    r"extra (?:fields|inputs) not permitted|unexpected",
    re.IGNORECASE,
)


# llama.cpp's llama-server without --jinja: "tools param requires --jinja flag" (500); others name the
# parameter and refuse it like a response format.
_TOOLS_WORDS = re.compile(r"\btools?\b|tool_choice|function call", re.IGNORECASE)
_TOOLS_REFUSAL = re.compile(_REFUSAL_WORDS.pattern + r"|requires", re.IGNORECASE)


def unsupported_feature(status: int, message: str) -> str | None:
    """``json_schema`` (or ``schema``) when an error says the request's response format is refused;
    ``tools`` when it says the server does not do tool calling."""
    if status not in (400, 422, 500, 501):
        return None
    if _TOOLS_WORDS.search(message) and _TOOLS_REFUSAL.search(message) and not _FORMAT_WORDS.search(message):
        return "tools"
    if not _FORMAT_WORDS.search(message) or not _REFUSAL_WORDS.search(message):
        return None
    return "json_schema" if "json_schema" in message.lower() else "response_format"


def classify_status(status: int, message: str, headers: Any) -> Exception:
    feature = unsupported_feature(status, message)
    if feature is not None:
        return UnsupportedRequest(str(status), message, feature)
    if status == 429 or status == 408 or status == 409 or status >= 500:
        return TransientError(str(status), message, retry_after(headers))
    return PermanentError(str(status), message)


def short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
