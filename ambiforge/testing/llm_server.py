"""A local server that speaks the chat-completions protocol of OpenAI and Mistral (``POST
/v1/chat/completions``), for tests, benchmarks and trying the LLM path without a key.

No model API is reachable from the machines ambiforge is built on, so the official SDKs are pointed here
(``base_url`` / ``server_url``). Replies come from a *responder* (a function of the request body), after an
optional latency; faults are injected at a given rate: 429 with Retry-After, 500, a hang longer than the
client's timeout, or a 200 whose content is malformed JSON. Whether a request is faulted depends only on
its body and how many times that body was seen, so runs are repeatable. Every request is logged with its
body digest and status, which is how tests prove a resumed build repeated no successful call.

Run it by hand: ``python -m ambiforge.testing.llm_server --port 8088 --fault-rate 0.1``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[dict[str, Any]], str]
FAULT_KINDS = ("429", "500", "timeout", "malformed")


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
            self._send(401, {"error": {"message": "invalid api key", "type": "invalid_request_error"}})
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._send(400, {"error": {"message": "body is not JSON"}})
            return
        status, payload, headers = app.answer(body)
        self._send(status, payload, headers)


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
    ) -> None:
        self.responder, self.latency, self.faults, self.api_key = responder, latency, faults or Faults(), api_key
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

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()
        with self._lock:
            occurrence = self._seen[digest]
            self._seen[digest] += 1
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            return self._answer(body, digest, occurrence)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _answer(self, body: dict[str, Any], digest: str, occurrence: int) -> tuple[int, dict[str, Any], dict[str, str]]:
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
        elif self.latency:
            time.sleep(self.latency)
        content = self.responder(body)
        if fault == "malformed":
            content = content[: max(1, len(content) // 2)]  # cut mid-object, as a dropped stream would
        if fault != "timeout":
            self.log(LoggedRequest(digest, 200, fault, model))
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4 + 1
        completion_tokens = len(content) // 4 + 1
        return (
            200,
            {
                "id": f"chatcmpl-{digest[:16]}-{occurrence}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            },
            {},
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8088)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each reply")
    parser.add_argument("--fault-rate", type=float, default=0.0, help="share of requests that fail")
    parser.add_argument("--api-key", default=None, help="require this bearer token")
    parser.add_argument("--echo", action="store_true", help="answer {'ok': true} instead of kitchen pairs")
    args = parser.parse_args()
    if args.echo:
        responder: Responder = echo_responder
    else:
        from ambiforge.testing.kitchen_responder import KitchenResponder

        responder = KitchenResponder()
    server = ScriptedLLMServer(responder, args.latency, Faults(rate=args.fault_rate), args.api_key, port=args.port)
    print(f"serving chat completions on {server.url} (OpenAI base_url {server.openai_url}); Ctrl-C stops")
    with contextlib.suppress(KeyboardInterrupt):
        server._httpd.serve_forever()


if __name__ == "__main__":
    main()
