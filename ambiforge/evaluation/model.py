"""Model access for detectors: plain completions and next-token log-probabilities.

Detectors see this small protocol, not the LLM client, so a unit test can hand them a fake and the methods
stay independent of providers. :class:`ClientModel` puts it on ambiforge's LLM client, so every eval call
is cached, limited, retried, costed and logged like a build's. Log-probability calls go without a schema
or grammar: a constrained decoder would distort the distribution the methods read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
from typing import Any, Protocol

from ambiforge.errors import ConfigError

Messages = tuple[tuple[str, str], ...]


class NoLogprobsError(ConfigError):
    """The endpoint (or the client) gives no log-probabilities, and the method needs them."""


@dataclass(frozen=True)
class Completion:
    text: str
    call_id: str
    cached: bool = False


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
    """The best log-probability of each label among the top tokens (``" A"`` and ``"A"`` are the same label)."""
    found: dict[str, float] = {}
    for token, lp in top.items():
        label = token.strip()
        for wanted in labels:
            if label == wanted or label.lower() == wanted.lower():
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

    def _purpose(self, tag: CallTag) -> Any:
        from ambiforge.llm.client import CallPurpose

        return CallPurpose(self.run_id, tag.step, tag.prompt_id, tag.prompt_version)

    def complete(
        self, messages: Messages, tag: CallTag, *, temperature: float = 0.0, max_tokens: int = 128, seed: int = 0
    ) -> Completion:
        from ambiforge.llm.providers import ChatRequest

        request = ChatRequest(self.provider, self.model, messages, temperature, max_tokens, seed)
        result = self.client.call(request, self._purpose(tag), lambda text: ({"text": text}, None))
        return Completion(result.text, result.call_id, result.cached)

    def next_token_logprobs(self, messages: Messages, tag: CallTag, *, top: int = 20, seed: int = 0) -> TokenLogprobs:
        from ambiforge.llm.providers import ChatRequest

        fields = {f.name for f in dataclasses.fields(ChatRequest)}
        if not {"logprobs", "top_logprobs"} <= fields:
            raise NoLogprobsError(
                f"{tag.step}: the LLM client cannot request log-probabilities yet; use a method without them "
                "(lofreecp, binary, nohelp)"
            )
        request = ChatRequest(  # type: ignore[call-arg]
            self.provider, self.model, messages, 0.0, 1, seed, logprobs=True, top_logprobs=top
        )
        result = self.client.call(request, self._purpose(tag), lambda text: ({"text": text}, None))
        top_tokens = _first_token_top(result)
        if not top_tokens:
            raise NoLogprobsError(
                f"{tag.step}: {self.provider} model {self.model} returned no log-probabilities "
                "(the endpoint does not support logprobs); use lofreecp, binary or nohelp"
            )
        return TokenLogprobs(result.text, top_tokens, result.call_id, result.cached)


def _first_token_top(result: Any) -> dict[str, float]:
    """The first token's ``{token: logprob}`` from a call result, whatever shape the client keeps them in:
    a list of per-token entries with ``top_logprobs`` (OpenAI's shape), as objects or dicts."""
    entries = getattr(result, "logprobs", None)
    if not entries:
        return {}
    first = entries[0]
    tops = first.get("top_logprobs") if isinstance(first, dict) else getattr(first, "top_logprobs", None)
    out: dict[str, float] = {}
    for alt in tops or []:
        token = alt.get("token") if isinstance(alt, dict) else getattr(alt, "token", None)
        lp = alt.get("logprob") if isinstance(alt, dict) else getattr(alt, "logprob", None)
        if token is not None and lp is not None:
            out[str(token)] = max(out.get(str(token), -math.inf), float(lp))
    return out
