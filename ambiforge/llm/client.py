"""One LLM call, start to record: cache -> budget -> limiter -> provider (with retries) -> cache -> log.

Retries use tenacity (exponential backoff, at least as long as the server's Retry-After) and happen here,
not in the SDKs, so each attempt takes a limiter slot and every fault is counted in the call's record.
A reply is cached when it arrives, whatever it says: a malformed reply is a paid reply too, and serving it
again on a restart makes the restarted run take the same repair path as the first.

A server that refuses the request's response format (llama-cpp-python's server answers ``json_schema``
with HTTP 500) is not retried: the client falls back, for that provider and model and for the rest of the
run, to ``json_object`` with the schema in it, then to plain ``json_object``. Each refused request is one
record with its fault, so the count of requests stays visible.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from ambiforge.config.llm import LLMConfig, key_problem
from ambiforge.errors import AmbiforgeError, ConfigError, LLMCallError, PluginError, plugin_failure
from ambiforge.llm.budget import Budget
from ambiforge.llm.calls import CallCache, CallLog
from ambiforge.llm.limiter import Limiter
from ambiforge.llm.providers import (
    PROVIDERS,
    ChatReply,
    ChatRequest,
    Choice,
    PermanentError,
    Provider,
    TokenLogprob,
    TransientError,
    UnsupportedRequest,
    message_dict,
)
from ambiforge.llm.providers import get as provider_spec
from ambiforge.llm.structured import ReplySchemas
from ambiforge.redaction import redact

Parser = Callable[[str], tuple[dict[str, Any] | None, str | None]]
TRUNCATED = "the reply was cut off at max_tokens"
log = logging.getLogger("ambiforge.llm")


class ToolsUnsupported(LLMCallError):
    """The server refused a request's ``tools`` (no function calling, e.g. llama-server without ``--jinja``):
    a caller with a fallback (SG-CoT's JSON replies) switches to it; never retried."""


def plain_text(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The parser of a call that wants text, not JSON: ``{"text": ...}``."""
    return {"text": text}, None


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
    finish_reason: str | None = None
    choices: tuple[Choice, ...] = ()
    #: the provider's usage for this reply, as recorded: a fresh call's, or for a cache hit the original
    #: call's (what the reply cost to make); None when the provider reported no usage (both counts 0)
    input_tokens: int | None = None
    output_tokens: int | None = None

    @property
    def texts(self) -> list[str]:
        """Every sample's text (``n`` > 1)."""
        return [c.text for c in self.choices] or [self.text]

    @property
    def logprobs(self) -> tuple[TokenLogprob, ...] | None:
        """The first sample's tokens with their top log-probabilities (when asked for)."""
        return self.choices[0].logprobs if self.choices else None


def make_provider(name: str, llm: LLMConfig) -> Provider:
    """The provider configured as ``[llm.providers.<name>]``, with its key from the environment (checked
    again here: a Dask worker may have a different environment than the machine that started the build)."""
    if name not in llm.providers:
        raise ConfigError(f"provider {name!r} is not configured in [llm.providers]")
    settings = llm.providers[name]
    key = settings.api_key()
    if key is None:
        raise ConfigError(f"{settings.api_key_env} is not set (provider {name})")
    if problem := key_problem(key):  # an HTTP header cannot carry it; the SDK error would quote it
        raise ConfigError(f"{settings.api_key_env}: {problem} (the value is not shown)")
    kind = settings.kind or name
    factory = provider_spec(kind).factory
    plugin = PROVIDERS.plugin(kind)
    try:
        if _takes(factory, "max_reply_bytes"):  # a plugin provider written before the cap existed: as before
            made = factory(key, settings.endpoint(), llm.timeout_seconds, max_reply_bytes=llm.max_reply_bytes)
        else:
            made = factory(key, settings.endpoint(), llm.timeout_seconds)
    except AmbiforgeError:
        raise
    except Exception as exc:
        if plugin is None:
            raise
        raise plugin_failure(plugin, f"making provider {name}", exc) from None
    if plugin is not None and not callable(getattr(made, "complete", None)):
        raise PluginError(plugin, f"making provider {name}", f"made {type(made).__name__}, which has no complete()")
    return made


def _takes(factory: Callable[..., Any], parameter: str) -> bool:
    try:
        return parameter in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def server_of(name: str, llm: LLMConfig) -> str:
    """The server a provider's calls go to, for error lines: its name and the endpoint's scheme, host and
    port (never a user or password the URL may carry)."""
    settings = llm.providers.get(name)
    url = settings.endpoint() if settings is not None else None
    if not url:
        return f"{name} (its default endpoint)"
    try:
        parts = urlsplit(url)
        host = f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    except ValueError:
        host = "an endpoint that is not a URL"
    return f"{name} at {host}"


def without_secrets(reply: ChatReply) -> ChatReply:
    """The reply with every secret masked, before anything keeps it (items, ``calls.jsonl``, the cache): a
    server or proxy that echoes the request's ``Authorization`` header or key in its reply must not get it
    written. A choice whose text held a secret loses its token log-probabilities too: its tokens spell the
    secret in pieces too short to recognise one by one."""
    choices = []
    for choice in reply.choices:
        text = redact(choice.text)
        tokens = choice.logprobs if text == choice.text else None
        calls = tuple(replace(c, arguments=redact(c.arguments)) for c in choice.tool_calls)
        choices.append(replace(choice, text=text, logprobs=tokens, tool_calls=calls))
    return replace(reply, choices=tuple(choices), model=redact(reply.model))


def cost_usd(llm: LLMConfig, model: str, input_tokens: int, output_tokens: int) -> float | None:
    """None for a model without a price (it is then counted as free, with a warning, never at another
    model's price)."""
    price = llm.prices.get(model)
    if price is None:
        return None
    return round((input_tokens * price.input + output_tokens * price.output) / 1_000_000, 8)


def fallback_format(response_format: dict[str, Any]) -> dict[str, Any] | None:
    """The next weaker response format: json_schema -> json_object with the schema -> json_object."""
    kind = response_format.get("type")
    if kind == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema")
        return {"type": "json_object", "schema": schema} if schema else {"type": "json_object"}
    if kind == "json_object" and "schema" in response_format:
        return {"type": "json_object"}
    return None


def _level(response_format: dict[str, Any]) -> int:
    kind = response_format.get("type")
    return {"json_schema": 0}.get(str(kind), 1 if "schema" in response_format else 2)


@dataclass
class _Outcome:
    """One request's result: what its record says, and what the caller gets (a result, an error, or a
    weaker request to send instead)."""

    fields: dict[str, Any]
    result: CallResult | None = None
    error: Exception | None = None
    instead: ChatRequest | None = None
    choices: tuple[Choice, ...] = field(default_factory=tuple)


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
        self._formats: dict[tuple[str, str], int] = {}  # (provider, model) -> weakest format level it took
        self._warned_unpriced: set[str] = set()
        self._replies: dict[str, str] = {}  # a reply text's sha256 -> the call that logged it first
        self.sleep: Callable[[float], None] = time.sleep  # tests record the backoff instead
        self.reply_schemas = ReplySchemas()  # the steps' reply schemas, compiled once for this client

    def provider(self, name: str) -> Provider:
        with self._lock:
            if name not in self._providers:
                self._providers[name] = make_provider(name, self.llm)
            return self._providers[name]

    def _plugin(self, name: str) -> str | None:
        """``<entry point> (<package>)`` when the provider configured as ``name`` is a plugin's, else None."""
        settings = self.llm.providers.get(name)
        kind = (settings.kind if settings is not None else "") or name
        return PROVIDERS.plugin(kind) if kind in PROVIDERS else None

    def format_level(self, provider: str, model: str) -> int:
        """0: json_schema accepted (or not tried); 1: json_object with a schema; 2: plain json_object."""
        with self._lock:
            return self._formats.get((provider, model), 0)

    def _adapt(self, request: ChatRequest) -> ChatRequest:
        """The request in the strongest response format its provider and model are known to accept."""
        level = self.format_level(request.provider, request.model)
        fmt = request.response_format
        while fmt and _level(fmt) < level and (weaker := fallback_format(fmt)) is not None:
            fmt = weaker
        return request if fmt is request.response_format else replace(request, response_format=fmt)

    def _remember_format(self, request: ChatRequest) -> None:
        with self._lock:
            key = (request.provider, request.model)
            self._formats[key] = max(self._formats.get(key, 0), _level(request.response_format))

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        backoff = min(self.llm.max_backoff_seconds, self.llm.backoff_seconds * 2 ** (state.attempt_number - 1))
        backoff *= 1 + random.random() * 0.1  # jitter: workers hit by one 429 burst do not return together
        after = getattr(exc, "retry_after", None)
        # a server's Retry-After is honoured up to max_backoff_seconds: "inf" or a day would stall the run
        return min(max(backoff, after), self.llm.max_backoff_seconds) if after is not None else backoff

    def _record(
        self, request: ChatRequest, digest: str, purpose: CallPurpose, fields: dict[str, Any]
    ) -> dict[str, Any]:
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
            "messages": self._logged_messages(request),
            **fields,
        }

    def _logged_messages(self, request: ChatRequest) -> list[dict[str, Any]]:
        """The request's messages as the log keeps them: an assistant turn that is an earlier call's reply
        names that call (``reply_of``) instead of copying its text, so a conversation of many turns logs
        each reply once."""
        out = []
        for message in request.messages:
            entry = message_dict(message)
            if entry.get("role") == "assistant" and isinstance(entry.get("content"), str) and entry["content"]:
                with self._lock:
                    earlier = self._replies.get(_text_digest(entry["content"]))
                if earlier is not None:
                    entry = {k: v for k, v in entry.items() if k != "content"} | {"reply_of": earlier}
            out.append(entry)
        return out

    def _remember_reply(self, text: str, call_id: str) -> None:
        if text:
            with self._lock:
                self._replies.setdefault(_text_digest(text), call_id)

    def call(self, request: ChatRequest, purpose: CallPurpose, parse: Parser) -> CallResult:
        """The reply to ``request``, from the cache or the provider; every request sent (and every cache
        hit) is one record in the call log, written here and nowhere else."""
        request, digest = self._cached_form(self._adapt(request))
        while True:
            outcome = self._attempt(request, digest, purpose, parse)
            self.log.append(self._record(request, digest, purpose, outcome.fields))
            if outcome.instead is not None:
                request = outcome.instead
                digest = request.digest()
                continue
            if outcome.error is not None:
                raise outcome.error
            assert outcome.result is not None
            return outcome.result

    def _cached_form(self, request: ChatRequest) -> tuple[ChatRequest, str]:
        """A request whose weaker format was answered in an earlier run is served in that format from the
        cache, without asking the server again for the format it refused. With the request's digest (the
        hash of all its messages: made once a request)."""
        digest = request.digest()
        if self.cache.get(digest) is not None:
            return request, digest
        fmt = request.response_format
        while fmt and (fmt := fallback_format(fmt)) is not None:
            weaker = replace(request, response_format=fmt)
            weaker_digest = weaker.digest()
            if self.cache.get(weaker_digest) is not None:
                self._remember_format(weaker)
                return weaker, weaker_digest
        return request, digest

    def _attempt(self, request: ChatRequest, digest: str, purpose: CallPurpose, parse: Parser) -> _Outcome:
        hit = self.cache.get(digest)
        if hit is not None:
            choices = choices_of(hit)
            fields = {
                "input_tokens": 0,
                "output_tokens": 0,
                "cached_input_tokens": _count(hit.get("input_tokens")),
                "cached_output_tokens": _count(hit.get("output_tokens")),
                "cost_usd": 0.0,
                "latency_seconds": 0.0,
                "retries": 0,
                "faults": [],
                "error": None,
                "cached": True,
            }
            return self._finish(request, purpose, parse, digest, choices, fields)

        self.budget.check()
        provider = self.provider(request.provider)
        faults: list[str] = []

        plugin = self._plugin(request.provider)

        def attempt() -> ChatReply:
            with self.limiter.slot():
                try:
                    reply = provider.complete(request)
                except TransientError as exc:
                    faults.append(exc.kind)
                    raise
                except (PermanentError, AmbiforgeError):
                    raise
                except Exception as exc:
                    if plugin is None:
                        raise
                    raise plugin_failure(plugin, _call_name(purpose, digest), exc) from None
                if plugin is not None and not isinstance(reply, ChatReply):
                    raise PluginError(
                        plugin, _call_name(purpose, digest), f"returned {type(reply).__name__}, not a ChatReply"
                    )
                return without_secrets(reply)

        retrying = Retrying(
            stop=stop_after_attempt(self.llm.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception_type(TransientError),
            reraise=True,
            sleep=lambda seconds: self.sleep(seconds),
        )
        failed = {
            "response": None,
            "parsed": None,
            "parse_error": None,
            "finish_reason": None,
            "input_tokens": 0,
            "output_tokens": 0,
            "cost_usd": 0.0,
            "latency_seconds": None,
            "cached": False,
        }
        try:
            reply = retrying(attempt)
        except (TransientError, PermanentError) as exc:
            tools_refused = isinstance(exc, UnsupportedRequest) and exc.feature == "tools"
            if isinstance(exc, PermanentError):
                unsupported = "unsupported_tools" if tools_refused else "unsupported_response_format"
                faults.append(unsupported if isinstance(exc, UnsupportedRequest) else exc.kind)
            server = server_of(request.provider, self.llm)
            message = f"{server}, model {request.model}: {exc.kind} ({exc}) after {len(faults)} attempt(s)"
            fields = failed | {"retries": max(len(faults) - 1, 0), "faults": faults, "error": message}
            weaker = fallback_format(request.response_format) if isinstance(exc, UnsupportedRequest) else None
            if weaker is not None:
                instead = replace(request, response_format=weaker)
                self._remember_format(instead)
                log.warning(
                    "%s %s refused response_format %s; using %s for the rest of the run",
                    request.provider,
                    request.model,
                    request.response_format.get("type"),
                    "json_object with the schema" if "schema" in weaker else "json_object",
                )
                return _Outcome(fields, instead=instead)
            error = ToolsUnsupported if tools_refused else LLMCallError
            return _Outcome(fields, error=error(f"{_call_name(purpose, digest)}: {message}"))

        if request.logprobs and any(c.logprobs is None for c in reply.choices):
            message = (
                f"{request.provider} {request.model}: the endpoint returned no log-probabilities although "
                "the request asked for them (use a server that returns them: OpenAI, vLLM, llama.cpp's llama-server)"
            )
            fields = failed | {"retries": len(faults), "faults": [*faults, "no_logprobs"], "error": message}
            return _Outcome(fields, error=LLMCallError(f"{_call_name(purpose, digest)}: {message}"))

        cost = cost_usd(self.llm, request.model, reply.input_tokens, reply.output_tokens)
        if cost is None:
            self._warn_unpriced(request.model)
        self.cache.put(
            digest,
            {
                "request_hash": digest,
                "provider": request.provider,
                "model": request.model,
                "served_by": reply.model,
                "response": reply.text,
                "choices": [c.to_json() for c in reply.choices],
                "input_tokens": reply.input_tokens,
                "output_tokens": reply.output_tokens,
                "cost_usd": cost,
                "run_id": purpose.run_id,
            },
        )
        fields = {
            "input_tokens": reply.input_tokens,
            "output_tokens": reply.output_tokens,
            "cached_input_tokens": 0,
            "cached_output_tokens": 0,
            "cost_usd": cost or 0.0,
            "priced": cost is not None,
            "latency_seconds": round(reply.latency_seconds, 4),
            "retries": len(faults),
            "faults": faults,
            "error": None,
            "cached": False,
        }
        return self._finish(request, purpose, parse, digest, reply.choices, fields)

    def _finish(
        self,
        request: ChatRequest,
        purpose: CallPurpose,
        parse: Parser,
        digest: str,
        choices: tuple[Choice, ...],
        fields: dict[str, Any],
    ) -> _Outcome:
        first = choices[0] if choices else Choice("")
        if first.finish_reason == "length" and request.response_format:
            # cut off at max_tokens: its own fault, whatever the cut text looks like (ambiforge.llm.ask)
            parsed, error = None, f"{TRUNCATED} ({request.max_tokens} tokens)"
        else:
            parsed, error = parse(first.text)
        record = {
            "response": first.text,
            "parsed": parsed,
            "parse_error": error,
            "finish_reason": first.finish_reason,
            **fields,
        }
        if len(choices) > 1:
            record["responses"] = [c.text for c in choices]
            record["finish_reasons"] = [c.finish_reason for c in choices]
        if request.logprobs:
            record["logprobs"] = [[t.to_json() for t in c.logprobs or ()] for c in choices]
        if first.tool_calls:
            record["tool_calls"] = [c.to_json() for c in first.tool_calls]
        result = CallResult(
            digest, first.text, parsed, error, bool(fields["cached"]), first.finish_reason, choices, *usage_of(fields)
        )
        self._remember_reply(first.text, digest)
        return _Outcome(record, result=result, choices=choices)

    def _warn_unpriced(self, model: str) -> None:
        with self._lock:
            if model in self._warned_unpriced:
                return
            self._warned_unpriced.add(model)
        log.warning("model %s has no price in [llm.prices]: its calls are counted as free", model)


def _count(value: Any) -> int:
    """A token count as recorded; anything but a non-negative whole number (a hand-edited cache entry, a
    count as text) is 0, counted as no usage reported."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _call_name(purpose: CallPurpose, digest: str) -> str:
    """The call in an error line: its step, pair and candidate when it has them, and its id (the record's
    ``call_id`` in calls.jsonl)."""
    parts = [f"step {purpose.step}"]
    if purpose.pair is not None:
        parts.append(f"pair {purpose.pair}")
    if purpose.candidate is not None:
        parts.append(f"candidate {purpose.candidate}")
    return ", ".join(parts) + f" (call {digest[:12]})"


def usage_of(fields: dict[str, Any]) -> tuple[int | None, int | None]:
    """(input, output) tokens of a call record's fields: the provider's, or the cached original's for a
    cache hit; (None, None) when the provider reported no usage (a server that omits ``usage`` gives 0, 0)."""
    if fields.get("cached"):
        used = _count(fields.get("cached_input_tokens")), _count(fields.get("cached_output_tokens"))
    else:
        used = _count(fields.get("input_tokens")), _count(fields.get("output_tokens"))
    return used if any(used) else (None, None)


def choices_of(entry: dict[str, Any]) -> tuple[Choice, ...]:
    """The samples of a cached reply (entries written before samples existed hold only ``response``)."""
    if entry.get("choices"):
        return tuple(Choice.from_json(c) for c in entry["choices"])
    return (Choice(str(entry.get("response") or ""), entry.get("finish_reason")),)


def sample_seeds(seed: int, n: int) -> list[int]:
    """The seeds of ``n`` separate samples: ``seed``, then seeds derived from it (int32, the same in every run)."""
    derived = (int(hashlib.sha256(f"{seed}:sample:{i}".encode()).hexdigest()[:8], 16) % 2**31 for i in range(1, n))
    return [seed, *derived]


def sample(client: LLMClient, request: ChatRequest, n: int, purpose: CallPurpose, parse: Parser) -> list[CallResult]:
    """``n`` samples as ``n`` requests with different seeds, for servers that refuse ``n`` > 1 (llama.cpp's
    llama-server allows ``n`` up to its ``--parallel`` slots). Each is cached and recorded on its own."""
    return [client.call(replace(request, seed=s, n=1), purpose, parse) for s in sample_seeds(request.seed, n)]
