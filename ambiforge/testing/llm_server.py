"""A local server that speaks the chat-completions protocol of OpenAI and Mistral (``POST
/v1/chat/completions``), for tests, benchmarks and trying the LLM path without a key.

No model API is reachable from the machines ambiforge is built on, so the official SDKs are pointed here
(``base_url`` / ``server_url``). Replies come from a *responder* (a function of the request body), each
``latency`` seconds after its request came (the responder's own time included, as a model's is); faults
are injected at a given rate: 429 with Retry-After, 500, a hang longer than the client's timeout, or a 200
whose content is malformed JSON. Whether a request is faulted depends only on
its body and how many times that body was seen, so runs are repeatable. Every request is logged with its
body digest and status, which is how tests prove a resumed build repeated no successful call.

Beyond the content, the server plays what real servers do:
- ``logprobs``/``top_logprobs``: deterministic token log-probabilities (:func:`scripted_logprobs`, a
  function of the prompt, the token's place and the candidate token, so tests can compute the expected
  numbers), or the ones a responder scripts with :class:`ScriptedReply`;
- ``n`` samples: the responder is asked once per sample, with ``"_sample": i`` added to the body;
- ``max_tokens``: a reply longer than it (at 4 characters a token) is cut there, ``finish_reason: length``;
- ``usage``: prompt tokens (prompt characters / 4 + 1) and completion tokens (the reply's, likewise), or
  none with ``give_usage=False``, as some local servers reply;
- ``refuse_json_schema``: answer ``response_format: json_schema`` with that HTTP status, as
  llama-cpp-python's server does (500); ``refuse_schema_in_json_object`` likewise refuses a ``schema`` key
  in ``json_object`` mode, as OpenAI does;
- ``tools``: a responder's :class:`ScriptedReply` may call functions (``tool_calls``); ``refuse_tools``
  answers any request with ``tools`` with that HTTP status, as llama-server without ``--jinja`` does (500).

A server may also *misbehave* (``misbehave=`` one of :data:`MISBEHAVIOURS`), to prove the client ends each
case in one line: ``choices`` that is not a list, a ``message`` of null, a 200 with an HTML page or with an
error object, a body that is a JSON list, content that is a number, ``usage`` counts as text, ``Retry-After:
inf`` or a day on a 429, a reply of ``huge_bytes`` (40 MB by default, declared or streamed without a length),
or a valid reply sent one byte every ``trickle_seconds``.

Run it by hand: ``python -m ambiforge.testing.llm_server --port 8088 --fault-rate 0.1``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ambiforge.testing.replies import ScriptedReply

FAULT_KINDS = ("429", "500", "timeout", "malformed")
MISBEHAVIOURS = (
    "choices_not_list",
    "choices_empty_object",
    "message_null",
    "content_number",
    "html",
    "error_in_200",
    "json_list",
    "usage_strings",
    "usage_negative",
    "retry_after_inf",
    "retry_after_day",
    "huge",
    "huge_undeclared",
    "trickle",
)
CHARS_PER_TOKEN = 4
#: Tokens every scripted distribution offers as alternatives (option letters, yes/no, labels).
LOGPROB_VOCABULARY = ("A", "B", "C", "D", "E", "True", "False", "Yes", "No", "Certain", "Uncertain")
_TOKEN = re.compile(r"\w+|[^\w\s]|\s+")


Responder = Callable[[dict[str, Any]], "str | ScriptedReply"]


def prompt_key(body: dict[str, Any]) -> str:
    """What the scripted log-probabilities depend on: the messages of the request."""
    messages = [(m.get("role"), m.get("content")) for m in body.get("messages") or []]
    return hashlib.sha256(json.dumps(messages, ensure_ascii=False).encode("utf-8")).hexdigest()


def tokenize(text: str) -> list[str]:
    """The server's tokens: words, single punctuation marks, runs of white space."""
    return _TOKEN.findall(text)


def _unit(*parts: object) -> float:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def scripted_logprobs(key: str, position: int, token: str, top: int) -> tuple[float, list[tuple[str, float]]]:
    """The log-probability of ``token`` at ``position`` and the ``top`` most likely tokens there.

    Candidates are the token and :data:`LOGPROB_VOCABULARY`; the emitted token's logit is 2 + u, every
    other's 2u (u in [0, 1) from a hash of key, position and candidate), so the emitted token is always the
    most likely; log-probabilities are the logits' log-softmax over the candidates.
    """
    candidates = [token, *(v for v in LOGPROB_VOCABULARY if v != token)]
    logits = {c: (2.0 + _unit(key, position, c)) if c == token else 2.0 * _unit(key, position, c) for c in candidates}
    norm = math.log(sum(math.exp(v) for v in logits.values()))
    ranked = sorted(((c, v - norm) for c, v in logits.items()), key=lambda cv: (-cv[1], cv[0]))
    return logits[token] - norm, ranked[:top]


def echo_responder(body: dict[str, Any]) -> str:
    """A valid JSON reply for any request (benchmarks measure the transport, not the content)."""
    return json.dumps({"ok": True, "messages": len(body.get("messages", []))})


@dataclass
class Faults:
    rate: float = 0.0
    kinds: tuple[str, ...] = FAULT_KINDS
    seed: int = 0
    retry_after: float = 1.0  # seconds, sent as the Retry-After header
    hang_seconds: float = 3.0  # a "timeout" holds the reply this long; set the client timeout below it
    faulty_occurrences: int | None = None  # fault only the first N sends of a body (None: any)


@dataclass
class RawBody:
    """A reply sent as bytes, not JSON: ``chunks`` go out one by one, ``interval`` seconds apart; without
    ``length`` the body has no Content-Length and ends when the connection closes."""

    chunks: list[bytes] | Any
    content_type: str = "application/json"
    length: int | None = None
    interval: float = 0.0


@dataclass
class LoggedRequest:
    digest: str
    status: int
    fault: str | None
    model: str
    at: float = field(default_factory=time.monotonic)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    app: ScriptedLLMServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            return  # a client that cut a reply (a deadline, a byte cap): expected, not a server fault
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    # One buffered write per reply and no Nagle: headers and body in separate small segments would wait
    # on the client's delayed ACK (about 40 ms a call), which the throughput benchmark would measure.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        return

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout fault): nothing to answer

    def _send_raw(self, status: int, body: RawBody, headers: dict[str, str]) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", body.content_type)
            if body.length is not None:
                self.send_header("Content-Length", str(body.length))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.flush()
            for chunk in body.chunks:
                if body.interval:
                    time.sleep(body.interval)
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client cut the reply: what a guarded client does

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._send(200, {"status": "ok"} if self.path.rstrip("/").endswith("health") else {"data": []})

    def do_POST(self) -> None:  # noqa: N802
        app = self.server.app
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self.path.rstrip("/").endswith("chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        if app.api_key is not None and self.headers.get("Authorization") != f"Bearer {app.api_key}":
            app.log(LoggedRequest("", 401, None, ""))
            message = "invalid api key"
            if app.echo_rejected_key:  # as some servers and proxies do: the credential quoted back
                message += f" (Authorization: {self.headers.get('Authorization')})"
            self._send(401, {"error": {"message": message, "type": "invalid_request_error"}})
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._send(400, {"error": {"message": "body is not JSON"}})
            return
        status, payload, headers = app.answer(body)
        if isinstance(payload, RawBody):
            self._send_raw(status, payload, headers)
            return
        if app.echo_key_in_reply and status == 200:
            echo_credential(payload, str(self.headers.get("Authorization")))
        self._send(status, payload, headers)


def echo_credential(payload: dict[str, Any], authorization: str) -> None:
    """What a hostile or broken server or proxy may do: quote the request's credential in a successful reply,
    in the model name and in every choice's text (inside each string value when the text is a JSON object,
    so the reply still parses and the credential travels on into items)."""
    payload["model"] = f"{payload.get('model', '')} ({authorization})"
    for choice in payload.get("choices", []):
        message = choice.get("message") or {}
        text = str(message.get("content") or "")
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict):
            message["content"] = json.dumps(_echo_into(data, authorization))
        else:
            message["content"] = f"{text} (you sent {authorization})"


def _echo_into(value: Any, authorization: str) -> Any:
    if isinstance(value, str):
        return f"{value} ({authorization})"
    if isinstance(value, list):
        return [_echo_into(v, authorization) for v in value]
    if isinstance(value, dict):
        return {k: _echo_into(v, authorization) for k, v in value.items()}
    return value


class ScriptedLLMServer:
    """Start with ``with ScriptedLLMServer(...) as server:``; ``server.url`` is ``http://127.0.0.1:<port>``
    (Mistral's ``server_url``); ``server.openai_url`` adds ``/v1`` (OpenAI's ``base_url``)."""

    def __init__(
        self,
        responder: Responder = echo_responder,
        latency: float = 0.0,
        faults: Faults | None = None,
        api_key: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        truncate: bool = True,
        give_logprobs: bool = True,
        give_usage: bool = True,
        refuse_json_schema: int | None = None,
        refuse_schema_in_json_object: bool = False,
        refuse_tools: int | None = None,
        echo_rejected_key: bool = False,
        echo_key_in_reply: bool = False,
        misbehave: str | None = None,
        huge_bytes: int = 40 * 1024 * 1024,
        trickle_seconds: float = 1.0,
    ) -> None:
        if misbehave is not None and misbehave not in MISBEHAVIOURS:
            raise ValueError(f"misbehave: {misbehave!r} is not one of {', '.join(MISBEHAVIOURS)}")
        self.misbehave, self.huge_bytes, self.trickle_seconds = misbehave, huge_bytes, trickle_seconds
        self.responder, self.latency, self.faults, self.api_key = responder, latency, faults or Faults(), api_key
        self.truncate, self.give_logprobs = truncate, give_logprobs
        self.give_usage = give_usage  # False: replies without ``usage``, as some local servers send them
        self.echo_rejected_key = echo_rejected_key  # a 401 quotes the Authorization header it got
        self.echo_key_in_reply = echo_key_in_reply  # a 200 reply quotes it in its text and model name
        self.refuse_json_schema, self.refuse_schema_in_json_object = refuse_json_schema, refuse_schema_in_json_object
        self.refuse_tools = refuse_tools
        self.requests: list[LoggedRequest] = []
        self._seen: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.app = self
        self._thread: threading.Thread | None = None
        self.in_flight = 0
        self.peak_in_flight = 0

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_url(self) -> str:
        return f"{self.url}/v1"

    def start(self) -> ScriptedLLMServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="llm-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def log(self, entry: LoggedRequest) -> None:
        with self._lock:
            self.requests.append(entry)

    def successes(self) -> Counter[str]:
        """How many times each request body got a complete 200 reply (a malformed one is paid for too)."""
        with self._lock:
            return Counter(r.digest for r in self.requests if r.status == 200 and r.fault != "timeout")

    def statuses(self) -> Counter[str]:
        with self._lock:
            return Counter(r.fault or str(r.status) for r in self.requests)

    def _fault(self, digest: str, occurrence: int) -> str | None:
        f = self.faults
        if f.rate <= 0 or (f.faulty_occurrences is not None and occurrence >= f.faulty_occurrences):
            return None
        rng = random.Random(f"{f.seed}:{digest}:{occurrence}")
        if rng.random() >= f.rate:
            return None
        return f.kinds[rng.randrange(len(f.kinds))]

    def answer(self, body: dict[str, Any]) -> tuple[int, Any, dict[str, str]]:
        started = time.monotonic()
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()
        with self._lock:
            occurrence = self._seen[digest]
            self._seen[digest] += 1
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            status, payload, headers = self._answer(body, digest, occurrence, started)
            if self.misbehave is not None and status in (200, 429):
                return self._misbehave(status, payload, headers)
            return status, payload, headers
        finally:
            with self._lock:
                self.in_flight -= 1

    def _answer(
        self, body: dict[str, Any], digest: str, occurrence: int, started: float
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        model = str(body.get("model", ""))
        fault = self._fault(digest, occurrence)
        if fault == "429":
            self.log(LoggedRequest(digest, 429, fault, model))
            message = {"error": {"message": "rate limit reached", "type": "rate_limit_exceeded"}}
            return 429, message, {"Retry-After": f"{self.faults.retry_after:g}"}
        if fault == "500":
            self.log(LoggedRequest(digest, 500, fault, model))
            return 500, {"error": {"message": "internal error", "type": "server_error"}}, {}
        if fault == "timeout":
            self.log(LoggedRequest(digest, 200, fault, model))
            time.sleep(self.faults.hang_seconds)
        refused = self._refusal(body)
        choices = []
        completion_tokens = 0
        if refused is None:
            for sample in range(max(1, int(body.get("n") or 1))):
                reply = self.responder(body if sample == 0 else {**body, "_sample": sample})
                choice, tokens = self._choice(body, reply, sample, fault)
                choices.append(choice)
                completion_tokens += tokens
        if self.latency and fault != "timeout":
            # The reply leaves ``latency`` seconds after the request came, its making included, as a model's
            # does: a slow responder or a busy machine adds to it only what goes beyond.
            time.sleep(max(0.0, started + self.latency - time.monotonic()))
        if refused is not None:
            status, message = refused
            self.log(LoggedRequest(digest, status, "unsupported", model))
            return status, {"error": message}, {}
        if fault != "timeout":
            self.log(LoggedRequest(digest, 200, fault, model))
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // CHARS_PER_TOKEN + 1
        payload: dict[str, Any] = {
            "id": f"chatcmpl-{digest[:16]}-{occurrence}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": choices,
        }
        if self.give_usage:
            payload["usage"] = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            }
        return 200, payload, {}

    def _refusal(self, body: dict[str, Any]) -> tuple[int, dict[str, str]] | None:
        """The status and error a server that does not support what ``body`` asks for answers, or None."""
        if self.refuse_json_schema and fmt_type(body) == "json_schema":
            message = "response_format type json_schema is not supported; use 'text' or 'json_object'"
            return self.refuse_json_schema, {"message": message, "type": "invalid_request_error"}
        if (
            self.refuse_schema_in_json_object
            and fmt_type(body) == "json_object"
            and "schema" in body["response_format"]
        ):
            message = "Unrecognized request argument supplied: response_format.schema"
            return 400, {"message": message, "type": "invalid_request_error"}
        if self.refuse_tools and body.get("tools"):
            return self.refuse_tools, {"message": "tools param requires --jinja flag", "type": "server_error"}
        return None

    def _misbehave(
        self, status: int, payload: dict[str, Any], headers: dict[str, str]
    ) -> tuple[int, Any, dict[str, str]]:
        """The reply as the misbehaving server sends it (``self.misbehave``)."""
        mode = self.misbehave
        if mode in ("retry_after_inf", "retry_after_day"):
            limited = {"error": {"message": "rate limit reached", "type": "rate_limit_exceeded"}}
            return 429, limited, {"Retry-After": "inf" if mode == "retry_after_inf" else "86400"}
        if mode == "choices_not_list":
            payload["choices"] = "the answer"
        elif mode == "choices_empty_object":
            payload["choices"] = [{}]
        elif mode == "message_null":
            for choice in payload["choices"]:
                choice["message"] = None
        elif mode == "content_number":
            for choice in payload["choices"]:
                choice["message"]["content"] = 42
        elif mode == "usage_strings":
            payload["usage"] = {k: str(v) for k, v in (payload.get("usage") or {"prompt_tokens": 1}).items()}
        elif mode == "usage_negative":
            payload["usage"] = {"prompt_tokens": -5, "completion_tokens": 3, "total_tokens": -2}
        elif mode == "error_in_200":
            payload = {"error": {"message": "upstream model crashed", "type": "server_error"}}
        elif mode == "html":
            page = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
            return 200, RawBody([page], "text/html", len(page)), {}
        elif mode == "json_list":
            data = json.dumps([payload]).encode("utf-8")
            return 200, RawBody([data], length=len(data)), {}
        elif mode in ("huge", "huge_undeclared"):
            return 200, self._huge(payload, declared=mode == "huge"), {}
        elif mode == "trickle":
            data = json.dumps(payload).encode("utf-8")
            chunks = [data[i : i + 1] for i in range(len(data))]
            return 200, RawBody(chunks, length=len(data), interval=self.trickle_seconds), {}
        return status, payload, headers

    def _huge(self, payload: dict[str, Any], declared: bool) -> RawBody:
        """A valid completion whose text makes the body ``huge_bytes`` long, sent in 1 MiB pieces."""
        head, tail = json.dumps(payload | {"choices": []}).encode("utf-8").split(b'"choices": []')
        opening = (
            head + b'"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "'
        )
        closing = b'"}}]' + tail
        filler = max(0, self.huge_bytes - len(opening) - len(closing))
        piece = b"x" * (1 << 20)

        def chunks() -> Any:
            yield opening
            left = filler
            while left > 0:
                yield piece[: min(left, len(piece))]
                left -= len(piece)
            yield closing

        return RawBody(chunks(), length=len(opening) + filler + len(closing) if declared else None)

    def _choice(
        self, body: dict[str, Any], reply: str | ScriptedReply, index: int, fault: str | None
    ) -> tuple[dict[str, Any], int]:
        # a str test, not isinstance(ScriptedReply): run as ``python -m``, this module is __main__ and the
        # responders' ScriptedReply is the class of ambiforge.testing.llm_server, another class object
        scripted = ScriptedReply(reply) if isinstance(reply, str) else reply
        content, finish = scripted.content, scripted.finish_reason
        if fault == "malformed":
            content = content[: max(1, len(content) // 2)]  # cut mid-object, as a dropped stream would
        limit = body.get("max_tokens")
        if self.truncate and isinstance(limit, int) and len(content) > limit * CHARS_PER_TOKEN:
            content, finish = content[: limit * CHARS_PER_TOKEN], "length"
        choice: dict[str, Any] = {
            "index": index,
            "message": {"role": "assistant", "content": content},
            "finish_reason": finish,
        }
        if body.get("logprobs"):
            choice["logprobs"] = {"content": self._logprobs(body, content, scripted)}
        if scripted.tool_calls:
            choice["message"]["tool_calls"] = [
                {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
                for i, n, a in scripted.tool_calls
            ]
            content += "".join(a for _, _, a in scripted.tool_calls)  # counted in the completion's tokens
        return choice, len(content) // CHARS_PER_TOKEN + 1

    def _logprobs(self, body: dict[str, Any], content: str, scripted: ScriptedReply) -> list[dict[str, Any]] | None:
        if not self.give_logprobs:
            return None
        top = int(body.get("top_logprobs") or 0)
        if scripted.logprobs is not None:
            entries = [(t, p, alternatives[:top]) for t, p, alternatives in scripted.logprobs]
        else:
            key = prompt_key(body)
            entries = [(t, *scripted_logprobs(key, i, t, top)) for i, t in enumerate(tokenize(content))]
        return [
            {
                "token": token,
                "logprob": logprob,
                "bytes": list(token.encode("utf-8")),
                "top_logprobs": [{"token": t, "logprob": p, "bytes": list(t.encode("utf-8"))} for t, p in alternatives],
            }
            for token, logprob, alternatives in entries
        ]


def fmt_type(body: dict[str, Any]) -> str | None:
    fmt = body.get("response_format")
    return str(fmt.get("type")) if isinstance(fmt, dict) else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8088)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds from a request to its reply")
    parser.add_argument("--fault-rate", type=float, default=0.0, help="share of requests that fail")
    parser.add_argument("--api-key", default=None, help="require this bearer token")
    parser.add_argument("--misbehave", choices=MISBEHAVIOURS, default=None, help="answer every call so")
    parser.add_argument("--echo", action="store_true", help="answer {'ok': true} (no kitchen pairs, no eval replies)")
    args = parser.parse_args()
    if args.echo:
        responder: Responder = echo_responder
    else:
        from ambiforge.testing.kitchen_responder import KitchenResponder
        from ambiforge.testing.scripted_eval import either

        responder = either(KitchenResponder())
    server = ScriptedLLMServer(
        responder, args.latency, Faults(rate=args.fault_rate), args.api_key, port=args.port, misbehave=args.misbehave
    )
    print(f"serving chat completions on {server.url} (OpenAI base_url {server.openai_url}); Ctrl-C stops")
    with contextlib.suppress(KeyboardInterrupt):
        server._httpd.serve_forever()


if __name__ == "__main__":
    main()
