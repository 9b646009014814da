"""One LLM call, start to record: cache -> budget -> limiter -> provider (with retries) -> cache -> log.

Retries use tenacity (exponential backoff, at least as long as the server's Retry-After) and happen here,
not in the SDKs, so each attempt takes a limiter slot and every fault is counted in the call's record.
A reply is cached when it arrives, whatever it says: a malformed reply is a paid reply too, and serving it
again on a restart makes the restarted run take the same repair path as the first.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from ambiforge.errors import LLMCallError
from ambiforge.llm.budget import Budget
from ambiforge.llm.calls import CallCache, CallLog
from ambiforge.llm.config import LLMConfig
from ambiforge.llm.limiter import Limiter
from ambiforge.llm.providers import ChatReply, ChatRequest, PermanentError, Provider, TransientError, make_provider

Parser = Callable[[str], tuple[dict[str, Any] | None, str | None]]


@dataclass(frozen=True)
class CallPurpose:
    """What a call is for; goes into its record."""

    run_id: str
    step: str
    prompt_id: str
    prompt_version: str
    pair: int | None = None
    candidate: int | None = None
    repair: int = 0


@dataclass(frozen=True)
class CallResult:
    call_id: str
    text: str
    parsed: dict[str, Any] | None
    parse_error: str | None
    cached: bool


def cost_usd(llm: LLMConfig, model: str, input_tokens: int, output_tokens: int) -> float | None:
    price = llm.prices.get(model)
    if price is None:
        return None
    return round((input_tokens * price.input + output_tokens * price.output) / 1_000_000, 8)


class LLMClient:
    def __init__(
        self,
        llm: LLMConfig,
        log: CallLog,
        cache: CallCache,
        limiter: Limiter,
        budget: Budget,
        providers: dict[str, Provider] | None = None,
    ) -> None:
        self.llm, self.log, self.cache, self.limiter, self.budget = llm, log, cache, limiter, budget
        self._providers: dict[str, Provider] = dict(providers or {})
        self._lock = threading.Lock()
        self.sleep: Callable[[float], None] = time.sleep  # tests record the backoff instead

    def provider(self, name: str) -> Provider:
        with self._lock:
            if name not in self._providers:
                self._providers[name] = make_provider(name, self.llm)
            return self._providers[name]

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        backoff = min(self.llm.max_backoff_seconds, self.llm.backoff_seconds * 2 ** (state.attempt_number - 1))
        backoff *= 1 + random.random() * 0.1  # jitter: workers hit by one 429 burst do not return together
        after = getattr(exc, "retry_after", None)
        return max(backoff, after) if after is not None else backoff

    def _record(self, request: ChatRequest, purpose: CallPurpose, digest: str, **fields: Any) -> dict[str, Any]:
        return {
            "call_id": digest,
            "request_hash": digest,
            "at": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "run_id": purpose.run_id,
            "step": purpose.step,
            "prompt_id": purpose.prompt_id,
            "prompt_version": purpose.prompt_version,
            "pair": purpose.pair,
            "candidate": purpose.candidate,
            "repair": purpose.repair,
            "provider": request.provider,
            "model": request.model,
            "params": request.params(),
            "messages": [{"role": r, "content": c} for r, c in request.messages],
            **fields,
        }

    def call(self, request: ChatRequest, purpose: CallPurpose, parse: Parser) -> CallResult:
        digest = request.digest()
        hit = self.cache.get(digest)
        if hit is not None:
            parsed, error = parse(hit["response"])
            self.log.append(
                self._record(
                    request,
                    purpose,
                    digest,
                    response=hit["response"],
                    parsed=parsed,
                    parse_error=error,
                    input_tokens=hit.get("input_tokens", 0),
                    output_tokens=hit.get("output_tokens", 0),
                    cost_usd=0.0,
                    latency_seconds=0.0,
                    retries=0,
                    faults=[],
                    error=None,
                    cached=True,
                )
            )
            return CallResult(digest, hit["response"], parsed, error, cached=True)

        self.budget.check()
        provider = self.provider(request.provider)
        faults: list[str] = []

        def attempt() -> ChatReply:
            with self.limiter.slot():
                try:
                    return provider.complete(request)
                except TransientError as exc:
                    faults.append(exc.kind)
                    raise

        retrying = Retrying(
            stop=stop_after_attempt(self.llm.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception_type(TransientError),
            reraise=True,
            sleep=lambda seconds: self.sleep(seconds),
        )
        try:
            reply = retrying(attempt)
        except (TransientError, PermanentError) as exc:
            kind = exc.kind
            if isinstance(exc, PermanentError):
                faults.append(kind)
            message = f"{request.provider} {request.model}: {kind} ({exc}) after {len(faults)} attempt(s)"
            self.log.append(
                self._record(
                    request,
                    purpose,
                    digest,
                    response=None,
                    parsed=None,
                    parse_error=None,
                    input_tokens=0,
                    output_tokens=0,
                    cost_usd=0.0,
                    latency_seconds=None,
                    retries=max(len(faults) - 1, 0),
                    faults=faults,
                    error=message,
                    cached=False,
                )
            )
            raise LLMCallError(f"step {purpose.step}: {message}") from None

        cost = cost_usd(self.llm, request.model, reply.input_tokens, reply.output_tokens)
        self.cache.put(
            digest,
            {
                "request_hash": digest,
                "provider": request.provider,
                "model": request.model,
                "served_by": reply.model,
                "response": reply.text,
                "input_tokens": reply.input_tokens,
                "output_tokens": reply.output_tokens,
                "cost_usd": cost,
                "run_id": purpose.run_id,
            },
        )
        parsed, error = parse(reply.text)
        self.log.append(
            self._record(
                request,
                purpose,
                digest,
                response=reply.text,
                parsed=parsed,
                parse_error=error,
                input_tokens=reply.input_tokens,
                output_tokens=reply.output_tokens,
                cost_usd=cost,
                latency_seconds=round(reply.latency_seconds, 4),
                retries=len(faults),
                faults=faults,
                error=None,
                cached=False,
            )
        )
        return CallResult(digest, reply.text, parsed, error, cached=False)
