"""OpenAI and every OpenAI-compatible server (vLLM, Ollama, llama.cpp's ``llama-server``), through the
official ``openai`` SDK with its own retries off (retries are ambiforge's, see :mod:`ambiforge.llm.client`).

The SDK sends the request and sorts HTTP errors; the body of a 200 is read by :mod:`.reply` (the SDK does
not validate the shapes it builds) over an HTTP client that caps its size and the whole call's time
(:mod:`.guard`).
"""

from __future__ import annotations

import time

from ambiforge.config.providers import ProviderSpec
from ambiforge.llm.providers.base import ChatReply, ChatRequest, PermanentError, TransientError, classify_status, short
from ambiforge.llm.providers.guard import DEFAULT_MAX_REPLY_BYTES, ReplyLimitExceeded, guarded_client
from ambiforge.llm.providers.reply import parse_reply


class OpenAIProvider:
    """``base_url`` points the SDK at any OpenAI-compatible server."""

    name = "openai"

    def __init__(
        self, api_key: str, base_url: str | None, timeout: float, max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    ) -> None:
        # httpx (the SDK's legacy transport) imported whole here, in the thread that builds the provider:
        # the SDK checks ``sys.modules["httpx"]`` on every request, and a first import of it by another
        # thread at that moment (Prefect, Label Studio's client, a retry check) showed it half-initialised.
        import httpx  # noqa: F401
        import httpx2
        import openai

        self._openai, self._response = openai, httpx2.Response
        client = guarded_client(httpx2, max_reply_bytes, timeout, follow_redirects=True)
        self.client = openai.OpenAI(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0, http_client=client
        )

    def complete(self, request: ChatRequest) -> ChatReply:
        """The request's JSON body is posted through the SDK's client as it is (``client.post``, the SDK's way
        to send a body it need not type): ``chat.completions.create`` would first walk every message against
        its typed parameters (about 1.2 ms of CPU a call) only to send the same plain JSON. The SDK still
        authenticates, sends and sorts the HTTP errors."""
        openai = self._openai
        body = request.sdk_arguments() | {"seed": request.seed}
        if request.logprobs:
            body |= {"logprobs": True, "top_logprobs": request.top_logprobs}
        started = time.perf_counter()
        try:
            response = self.client.post("/chat/completions", cast_to=self._response, body=body)
        except ReplyLimitExceeded as exc:
            raise PermanentError(exc.kind, str(exc)) from None
        except openai.APITimeoutError as exc:
            raise TransientError("timeout", f"timed out: {exc}") from None
        except openai.APIConnectionError as exc:
            raise TransientError("connection", f"connection failed: {exc}") from None
        except openai.APIStatusError as exc:
            raise classify_status(exc.status_code, short(str(exc)), exc.response.headers) from None
        return parse_reply(
            response.content, response.headers.get("content-type", ""), request, time.perf_counter() - started
        )


PROVIDER = ProviderSpec(
    name="openai",
    api_key_env="OPENAI_API_KEY",
    base_url_env="OPENAI_BASE_URL",
    default_model="gpt-4o",
    factory=OpenAIProvider,
)
