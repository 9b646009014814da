"""Keys and Authorization headers are masked in text, log records, provider errors and Prefect states."""

from __future__ import annotations

import io
import logging

import pytest

from ambiforge import redaction
from ambiforge.config.llm import LLMConfig, ProviderSettings
from ambiforge.llm.providers.base import ChatRequest, PermanentError, TransientError
from ambiforge.redaction import MASK, redact

KEY = "sk-proj-Unit7Qx9RwZ4mN2pL5vB8cT1y"


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return KEY


def test_every_spelling_of_a_configured_key_is_masked(key: str) -> None:
    text = f"a {key} b {key!r} c {key.encode()!r}"
    assert key not in redact(text)
    assert redact(text).count(MASK) == 3


def test_non_ascii_and_white_space_keys_are_masked_as_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    odd = "sk-Ümlaut-0123456789 tail\n"
    monkeypatch.setenv("MISTRAL_API_KEY", odd)
    for shown in (odd, ascii(odd), repr(odd), str(odd.encode()), "sk-Ümlaut-0123456789"):
        assert "0123456789" not in redact(f"header {shown} end"), shown


def test_authorization_headers_are_masked_without_knowing_the_key() -> None:
    cases = {
        "invalid (Authorization: Bearer abc.def-123)": "invalid (Authorization: [REDACTED])",
        "Illegal header value b'Bearer xyz987654'": "Illegal header value b'Bearer [REDACTED]'",
        "[(b'authorization', b'Token 0123456789abcdef')]": "[(b'authorization', b'[REDACTED]')]",
        '{"Authorization": "Basic dXNlcjpwYXNz"}': '{"Authorization": "[REDACTED]"}',
    }
    for text, expected in cases.items():
        assert redact(text) == expected
    assert redact("a token of the plan") == "a token of the plan"  # prose stays


def test_a_key_variable_named_in_the_configuration_is_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_GATEWAY_TOKEN", "gw-0123456789-secret")
    assert "gw-0123456789" in redact("gw-0123456789-secret")
    LLMConfig(
        providers={"gateway": ProviderSettings(api_key_env="MY_GATEWAY_TOKEN", base_url_env="X", default_model="m")}
    )
    assert "MY_GATEWAY_TOKEN" in redaction.secret_env_names()
    assert redact("key gw-0123456789-secret") == f"key {MASK}"


def test_log_records_are_redacted_for_every_handler(key: str) -> None:
    redaction.install_logging()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("test.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("sending %s", f"Bearer {key}")
        try:
            raise RuntimeError(f"header {key}")
        except RuntimeError:
            logger.exception("failed with %r", key)
    finally:
        logger.removeHandler(handler)
    printed = stream.getvalue()
    assert key not in printed
    assert printed.count(MASK) >= 3 and "RuntimeError" in printed


def test_provider_errors_never_carry_the_key(key: str) -> None:
    assert key not in str(TransientError("connection", f"Illegal header value b'Bearer {key}\\n'"))
    assert key not in str(PermanentError("401", f"invalid api key (Authorization: Bearer {key})"))


def test_the_sdk_error_that_quotes_the_header_is_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mistral's SDK (through h11) quotes the header of a key with a trailing newline in its error."""
    from ambiforge.llm.providers.mistral import MistralProvider
    from ambiforge.testing.llm_server import ScriptedLLMServer

    bad = "sk-Newline0123456789abcdef\n"
    monkeypatch.setenv("MISTRAL_API_KEY", bad)
    with ScriptedLLMServer(api_key="other") as server:
        provider = MistralProvider(bad, server.url, 5.0)
        with pytest.raises((TransientError, PermanentError)) as caught:
            provider.complete(ChatRequest("mistral", "m", (("user", "hi"),), 0.1, 5, 1))
    assert "0123456789abcdef" not in str(caught.value)


def test_prefect_failed_state_messages_are_redacted(key: str) -> None:
    from prefect._internal.states import exception_to_failed_state_sync

    from flows import install_prefect

    install_prefect()
    state = exception_to_failed_state_sync(RuntimeError(f"Illegal header value b'Bearer {key}'"))
    assert key not in (state.message or "") and MASK in (state.message or "")


def test_redacting_imports_no_http_library() -> None:
    """The filter runs on every log record, in whatever thread logs: importing httpx from there raced the
    ``openai`` SDK's ``sys.modules["httpx"]`` check in the other threads of an in-process eval."""
    import subprocess
    import sys

    from tests.conftest import REPO

    code = (
        "import sys, logging, ambiforge.redaction as r; r.secret_env_names(); r.redact('x' * 40); "
        "logging.getLogger('t').warning('a line'); print(sorted(m for m in sys.modules if m.startswith('httpx')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
