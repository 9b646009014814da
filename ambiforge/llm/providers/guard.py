"""Limits on what one reply may cost: a byte cap and one deadline for the whole call.

An HTTP library's timeout applies to each read, so a server that sends one byte a second keeps a call
alive for ever, and nothing stops a server from answering 40 MB. Both SDKs take an HTTP client, so each
provider hands them one whose transport wraps the real one: the clock starts when the request is sent and
covers the wait for the headers (the per-read timeout is shortened to what is left) and every chunk of the
body; a declared ``Content-Length`` over the cap is refused before the body is read, and a body that grows
past it is cut at the cap. The transport is duck-typed, so the same wrapper serves ``httpx`` (OpenAI's SDK)
and ``httpx2`` (Mistral's).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

#: The default byte cap on one reply: far above any real chat completion (a 4,000-token reply with 20
#: samples and top-20 log-probabilities is a few megabytes), far below what a runaway server can send.
DEFAULT_MAX_REPLY_BYTES = 32 * 1024 * 1024


class ReplyLimitExceeded(Exception):
    """The reply broke a limit: ``kind`` is ``too_large`` or ``deadline``. Never retried: the same server
    asked again does the same thing."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MiB"


class _GuardedStream:
    """The body's chunks, counted and timed (made a ``SyncByteStream`` of the library by :func:`_stream`)."""

    def __init__(self, inner: Any, max_bytes: int, deadline: float, seconds: float) -> None:
        self._inner, self._max, self._deadline, self._seconds = inner, max_bytes, deadline, seconds

    def __iter__(self) -> Iterator[bytes]:
        received = 0
        for chunk in self._inner:
            received += len(chunk)
            if received > self._max:
                raise ReplyLimitExceeded(
                    "too_large",
                    f"the reply passed the cap of {_megabytes(self._max)} ([llm] max_reply_bytes) and was cut",
                )
            if time.monotonic() > self._deadline:
                raise ReplyLimitExceeded(
                    "deadline",
                    f"the reply was still arriving after {self._seconds:g} s ([llm] timeout_seconds, the "
                    f"deadline of the whole call; {received} bytes received)",
                )
            yield chunk

    def close(self) -> None:
        if hasattr(self._inner, "close"):
            self._inner.close()


_STREAMS: dict[str, type] = {}


def _stream(module: Any) -> type:
    """The guarded stream as a subclass of the library's ``SyncByteStream``, which its ``Response`` checks."""
    name = module.__name__
    if name not in _STREAMS:
        _STREAMS[name] = type("GuardedStream", (_GuardedStream, module.SyncByteStream), {})
    return _STREAMS[name]


class GuardedTransport:
    """Wraps ``inner`` (an ``httpx``/``httpx2`` transport); ``module`` is the library, for its ``Response``."""

    def __init__(self, inner: Any, module: Any, max_bytes: int, seconds: float) -> None:
        self._inner, self._module, self._max, self._seconds = inner, module, max_bytes, seconds

    def handle_request(self, request: Any) -> Any:
        deadline = time.monotonic() + self._seconds
        timeout = dict(request.extensions.get("timeout") or {})
        for key in ("connect", "read", "write", "pool"):
            value = timeout.get(key)
            timeout[key] = self._seconds if value is None else min(value, self._seconds)
        request.extensions["timeout"] = timeout
        response = self._inner.handle_request(request)
        declared = response.headers.get("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self._max:
            response.close()
            raise ReplyLimitExceeded(
                "too_large",
                f"the reply declares {_megabytes(int(declared))}, over the cap of {_megabytes(self._max)} "
                "([llm] max_reply_bytes)",
            )
        return self._module.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_stream(self._module)(response.stream, self._max, deadline, self._seconds),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._inner.close()


def guarded_client(module: Any, max_bytes: int, seconds: float, **kwargs: Any) -> Any:
    """An ``httpx``/``httpx2`` ``Client`` whose every request obeys the cap and the deadline."""
    transport = GuardedTransport(module.HTTPTransport(), module, max_bytes, seconds)
    return module.Client(transport=transport, timeout=seconds, **kwargs)
