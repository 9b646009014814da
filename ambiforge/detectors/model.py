"""Model access for detectors: plain completions and next-token log-probabilities.

Detectors see this small protocol, not the LLM client, so a unit test can hand them a fake and the methods
stay independent of providers. :class:`ClientModel` puts it on ambiforge's LLM client, so every eval call
is cached, limited, retried, costed and logged like a build's. Log-probability calls go without a schema
or grammar: a constrained decoder would distort the distribution the methods read.
"""

from __future__ import annotations

import hashlib
import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ambiforge.errors import ConfigError

if TYPE_CHECKING:
    from ambiforge.llm.providers import ToolCall

Messages = tuple[tuple[str, str], ...]


class NoLogprobsError(ConfigError):
    """The endpoint (or the client) gives no log-probabilities, and the method needs them."""


@dataclass(frozen=True)
class Completion:
    text: str
    call_id: str
    cached: bool = False
    #: the provider's reported usage (a cached reply: its original call's); None when none was reported,
    #: e.g. a fake model or a server without ``usage``: callers that count tokens then estimate
    input_tokens: int | None = None
    output_tokens: int | None = None
    tool_calls: tuple[ToolCall, ...] = ()  # the functions the reply calls (only when tools were offered)

    @property
    def tokens(self) -> int | None:
        """Prompt plus completion tokens as the provider reported them, or None."""
        if self.input_tokens is None and self.output_tokens is None:
            return None
        return (self.input_tokens or 0) + (self.output_tokens or 0)


@dataclass(frozen=True)
class TokenLogprobs:
    """The first generated token's top alternatives: ``{token: logprob}``."""

    text: str
    top: dict[str, float]
    call_id: str
    cached: bool = False


@dataclass(frozen=True)
class CallTag:
    """What a call is for; goes into the call log (prompt id and version, item key)."""

    step: str
    prompt_id: str
    prompt_version: str
    item: str = ""


class EvalModel(Protocol):
    name: str

    def complete(
        self, messages: Messages, tag: CallTag, *, temperature: float = 0.0, max_tokens: int = 128, seed: int = 0
    ) -> Completion: ...

    def next_token_logprobs(
        self, messages: Messages, tag: CallTag, *, top: int = 20, seed: int = 0
    ) -> TokenLogprobs: ...


def softmax(logprobs: dict[str, float]) -> dict[str, float]:
    if not logprobs:
        return {}
    peak = max(logprobs.values())
    weights = {k: math.exp(v - peak) for k, v in logprobs.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def pick_tokens(top: dict[str, float], labels: tuple[str, ...]) -> dict[str, float]:
    """The best log-probability of each label among the top tokens (``" A"`` and ``"A"`` are the same label;
    words match in any case, ``"true"`` for ``"True"``, single letters only as written: ``"a"`` is an article)."""
    found: dict[str, float] = {}
    for token, lp in top.items():
        label = token.strip()
        for wanted in labels:
            if label == wanted or (len(wanted) > 1 and label.lower() == wanted.lower()):
                found[wanted] = max(found.get(wanted, -math.inf), lp)
    return found


def call_seed(*parts: object) -> int:
    text = ":".join(str(p) for p in parts)
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) % 2**31


class ClientModel:
    """:class:`EvalModel` over :class:`ambiforge.llm.client.LLMClient` for one provider and model."""

    def __init__(self, client: Any, provider: str, model: str, run_id: str) -> None:
        self.client, self.provider, self.model, self.run_id = client, provider, model, run_id
        self.name = model
        self._flights: dict[str, threading.Lock] = {}
        self._flights_lock = threading.Lock()

    def with_model(self, model: str) -> ClientModel:
        """Another model on the same provider and client (a debate's agents): same cache, limits and log."""
        return ClientModel(self.client, self.provider, model, self.run_id)

    def _call(self, request: Any, tag: CallTag) -> Any:
        """One request in flight per cache key: methods that share a call (LAP reuses KnowNo's, NoHelp
        Binary's action) run concurrently, and the second must find the first's reply in the cache
        rather than pay for it again."""
        from ambiforge.llm.client import plain_text

        digest = request.digest()
        with self._flights_lock:
            lock = self._flights.setdefault(digest, threading.Lock())
        with lock:
            return self.client.call(request, self._purpose(tag), plain_text)

    def _purpose(self, tag: CallTag) -> Any:
        from ambiforge.llm.client import CallPurpose

        return CallPurpose(self.run_id, tag.step, tag.prompt_id, tag.prompt_version)

    def complete(
        self, messages: Messages, tag: CallTag, *, temperature: float = 0.0, max_tokens: int = 128, seed: int = 0
    ) -> Completion:
        from ambiforge.llm.providers import ChatRequest

        request = ChatRequest(self.provider, self.model, messages, temperature, max_tokens, seed)
        result = self._call(request, tag)
        return Completion(result.text, result.call_id, result.cached, result.input_tokens, result.output_tokens)

    def chat(
        self,
        messages: tuple[tuple[str, ...], ...],
        tag: CallTag,
        *,
        tools: str = "",
        temperature: float = 0.0,
        max_tokens: int = 128,
        seed: int = 0,
    ) -> Completion:
        """A completion offered ``tools`` (OpenAI's list as JSON text), whose messages may carry tool calls and
        tool replies (:data:`ambiforge.llm.providers.Message`): SG-CoT's turns. A server that refuses tools
        raises :class:`ambiforge.llm.client.ToolsUnsupported`."""
        from ambiforge.llm.providers import ChatRequest

        request = ChatRequest(self.provider, self.model, messages, temperature, max_tokens, seed, tools=tools)
        result = self._call(request, tag)
        calls = result.choices[0].tool_calls if result.choices else ()
        return Completion(result.text, result.call_id, result.cached, result.input_tokens, result.output_tokens, calls)

    def next_token_logprobs(self, messages: Messages, tag: CallTag, *, top: int = 20, seed: int = 0) -> TokenLogprobs:
        """One token at temperature 0 with its ``top`` alternatives. An endpoint that returns none fails in
        the client with one line (:class:`~ambiforge.errors.LLMCallError`)."""
        from ambiforge.llm.providers import ChatRequest

        request = ChatRequest(
            self.provider, self.model, messages, 0.0, 1, seed, logprobs=True, top_logprobs=min(top, 20)
        )
        result = self._call(request, tag)
        top_tokens = first_token_top(result.logprobs)
        if not top_tokens:
            raise NoLogprobsError(
                f"{tag.step}: {self.provider} model {self.model} returned no log-probabilities "
                "(the endpoint does not support logprobs); use lofreecp, binary or nohelp"
            )
        return TokenLogprobs(result.text, top_tokens, result.call_id, result.cached)


def first_token_top(tokens: Any) -> dict[str, float]:
    """The first generated token's alternatives as ``{token: logprob}`` (the token itself included)."""
    if not tokens:
        return {}
    first = tokens[0]
    out: dict[str, float] = {str(t): float(lp) for t, lp in first.top}
    out.setdefault(str(first.token), float(first.logprob))
    return out
